-- name: lp_pow_int
-- inputs: df=nums
-- mode: select
POWER(i, 2)

-- name: lp_exp_float
-- inputs: df=nums
-- mode: select
EXP(d)

-- name: lp_ln_int
-- inputs: df=nums
-- mode: select
LN(i)

-- name: lp_min_str
-- inputs: df=orders
-- mode: select
MIN(status)

-- name: lp_count_expr
-- inputs: df=orders
-- mode: select
COUNT(qty)

-- name: lp_sub_float
-- inputs: df=nums
-- mode: select
d - f

-- name: lp_mod_float
-- inputs: df=nums
-- mode: select
d % 2

-- name: lp_cast_float
-- inputs: df=nums
-- mode: select
CAST(i AS FLOAT)

-- name: lp_cast_bool
-- inputs: df=nums
-- mode: select
CAST(i AS BOOLEAN)

-- name: lp_cast_ts
-- inputs: df=events
-- mode: select
CAST(ts_str AS TIMESTAMP)

-- name: lp_struct_select
-- inputs: df=nested
-- mode: select
addr.zip

-- name: lp_lit_int
-- inputs: df=orders
-- mode: select
1

-- name: lp_div_zero
-- inputs: df=nums
-- mode: select
i / 0

-- name: lp_ne_bang_num
-- inputs: df=orders
-- mode: filter
qty != 2

-- name: lp_is_not_false
-- inputs: df=orders
-- mode: filter
paid IS NOT FALSE

-- name: lp_or_null
-- inputs: df=orders
-- mode: filter
note IS NULL OR amount > 100

-- name: lp_ts_str
-- inputs: df=orders
-- mode: filter
ordered_at >= '2024-01-01'

-- name: lp_str_lt
-- inputs: df=orders
-- mode: filter
status < 'p'

-- name: lp_lower_struct
-- inputs: df=nested
-- mode: filter
LOWER(addr.city) = 'paris'

-- name: lp_mul_paren
-- inputs: df=nums
-- mode: select
(i + 1) * 2

-- name: lp_mod_float_frac
-- inputs: df=nums
-- mode: select
d % 0.3

-- name: lp_mod_int_by_float
-- inputs: df=nums
-- mode: select
i % 2.5

