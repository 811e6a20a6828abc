-- IS with any right-hand side, precedence as sqlglot parses it, Laktory's
-- messages with the expression as sqlglot prints it, Float32 and large
-- integer powers.

-- name: pe_is_five
-- inputs: df=orders
-- mode: filter
qty IS 5

-- name: pe_is_neg
-- inputs: df=orders
-- mode: filter
qty IS -1

-- name: pe_is_sum
-- inputs: df=orders
-- mode: filter
qty IS customer_id + 1

-- name: pe_is_not_one
-- inputs: df=orders
-- mode: filter
"note" IS NOT 1

-- name: pe_is_func
-- inputs: df=orders
-- mode: filter
paid IS lower(status)

-- name: pe_is_null_eq
-- inputs: df=orders
-- mode: filter
note IS NULL = paid

-- name: pe_eq_ge
-- inputs: df=orders
-- mode: filter
paid = amount >= 20

-- name: pe_is_unknown_not
-- inputs: df=orders
-- mode: filter
NOT paid IS UNKNOWN

-- name: pe_four_parts
-- inputs: df=nested
-- mode: filter
addr.city.a.b = 'x'

-- name: pe_quoted_parts
-- inputs: df=nested
-- mode: select
"addr"."city".x

-- name: pe_not_like
-- inputs: df=orders
-- mode: filter
status NOT LIKE 'a%'

-- name: pe_neg_func
-- inputs: df=orders
-- mode: select
-ABS(qty)

-- name: pe_true_and
-- inputs: df=orders
-- mode: filter
paid AND true

-- name: pe_interval
-- inputs: df=orders
-- mode: select
ordered_at + INTERVAL '1' DAY

-- name: pe_in_list_paren
-- inputs: df=orders
-- mode: filter
((qty IN (1,2)))

-- name: pe_bit_and
-- inputs: df=orders
-- mode: select
qty & 1

-- name: pe_anon_upper
-- inputs: df=orders
-- mode: select
Foo_Bar(qty, 1)

-- name: pe_coalesce_expr
-- inputs: df=orders
-- mode: select
COALESCE(qty + 1, 0)

-- name: pe_substr
-- inputs: df=orders
-- mode: select
SUBSTR(status, 1, 2)

-- name: pe_pow_f32_int
-- inputs: df=nums
-- mode: select
POWER(f, 3)

-- name: pe_pow_f32_col
-- inputs: df=nums
-- mode: select
POWER(d, f)

-- name: pe_mod_f32_lit
-- inputs: df=nums
-- mode: select
f % 0.5

-- name: pe_mod_f32_f64
-- inputs: df=nums
-- mode: select
f % d

-- name: pe_pow_i8_big
-- inputs: df=nums
-- mode: select
POWER(b, 20)

-- name: pe_pow_i64_big
-- inputs: df=nums
-- mode: select
POWER(big, 5)

-- name: pe_pow_u32_big
-- inputs: df=nums
-- mode: select
POWER(u, 33)
