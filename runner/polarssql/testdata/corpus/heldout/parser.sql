-- name: h_lp_pow
-- inputs: df=nums
-- mode: select
POWER(d, 2)

-- name: h_lp_cbrt
-- inputs: df=nums
-- mode: select
CBRT(d)

-- name: h_lp_exp
-- inputs: df=nums
-- mode: select
EXP(i)

-- name: h_lp_ln
-- inputs: df=nums
-- mode: select
LN(d)

-- name: h_lp_log
-- inputs: df=nums
-- mode: select
LOG(d)

-- name: h_lp_min
-- inputs: df=nums
-- mode: select
MIN(i)

-- name: h_lp_count_star
-- inputs: df=orders
-- mode: select
COUNT(*)

-- name: h_lp_sub
-- inputs: df=nums
-- mode: select
i - s

-- name: h_lp_mod_neg
-- inputs: df=nums
-- mode: select
i % -3

-- name: h_lp_cast_int
-- inputs: df=nums
-- mode: select
CAST(d AS INT)

-- name: h_lp_cast_date
-- inputs: df=events
-- mode: select
CAST(d_str AS DATE)

-- name: h_lp_struct_upper
-- inputs: df=nested
-- mode: select
UPPER(addr.city)

-- name: h_lp_lit_str
-- inputs: df=orders
-- mode: select
'x'

-- name: h_lp_sci_lit
-- inputs: df=nums
-- mode: select
d * 1e3

-- name: h_lp_ne_bang
-- inputs: df=orders
-- mode: filter
status != 'shipped'

-- name: h_lp_lt_le
-- inputs: df=orders
-- mode: filter
qty < 3 AND amount <= 100

-- name: h_lp_is_null
-- inputs: df=orders
-- mode: filter
note IS NULL

-- name: h_lp_is_not_true
-- inputs: df=orders
-- mode: filter
paid IS NOT TRUE

-- name: h_lp_not_and
-- inputs: df=orders
-- mode: filter
NOT (paid AND qty > 1)

-- name: h_lp_date_str
-- inputs: df=orders
-- mode: filter
ship_date > '2024-01-01'

-- name: h_lp_sqrt
-- inputs: df=nums
-- mode: select
SQRT(d)

-- name: h_lp_eq_null
-- inputs: df=orders
-- mode: filter
note = NULL

