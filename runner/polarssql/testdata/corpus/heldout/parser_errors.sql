-- Held out: written, and its expectations computed, before the code that
-- parses IS as sqlglot does, formats expressions as sqlglot prints them in
-- Laktory's messages, and computes Float32 and large integer powers.

-- name: h_pe_is_int
-- inputs: df=orders
-- mode: filter
qty IS 2

-- name: h_pe_is_not_col
-- inputs: df=orders
-- mode: filter
paid IS NOT status

-- name: h_pe_is_str
-- inputs: df=orders
-- mode: filter
status IS 'shipped'

-- name: h_pe_is_unknown
-- inputs: df=orders
-- mode: filter
paid IS UNKNOWN

-- name: h_pe_is_not_unknown
-- inputs: df=orders
-- mode: filter
paid IS NOT UNKNOWN

-- name: h_pe_three_parts
-- inputs: df=nested
-- mode: select
addr.city.x

-- name: h_pe_not_in
-- inputs: df=orders
-- mode: filter
qty NOT IN (1, 2)

-- name: h_pe_paren_between
-- inputs: df=orders
-- mode: filter
(qty BETWEEN 1 AND 3)

-- name: h_pe_neg_col
-- inputs: df=orders
-- mode: select
-qty

-- name: h_pe_neg_paren
-- inputs: df=orders
-- mode: select
-(amount)

-- name: h_pe_null_safe_eq
-- inputs: df=orders
-- mode: filter
status <=> 'x'

-- name: h_pe_distinct_from
-- inputs: df=orders
-- mode: filter
status IS DISTINCT FROM 'x'

-- name: h_pe_int_div
-- inputs: df=orders
-- mode: select
qty DIV 2

-- name: h_pe_anonymous
-- inputs: df=orders
-- mode: select
myFunc(qty)

-- name: h_pe_nullif
-- inputs: df=orders
-- mode: select
NULLIF(qty, 1)

-- name: h_pe_trim
-- inputs: df=orders
-- mode: select
TRIM(status)

-- name: h_pe_eq_is_null
-- inputs: df=orders
-- mode: filter
paid = note IS NULL

-- name: h_pe_eq_gt
-- inputs: df=orders
-- mode: filter
paid = qty > 1

-- name: h_pe_pow_f32
-- inputs: df=nums
-- mode: select
POWER(f, 2)

-- name: h_pe_mod_f32
-- inputs: df=nums
-- mode: select
f % 2

-- name: h_pe_pow_int_big
-- inputs: df=nums
-- mode: select
POWER(i, 40)

-- name: h_pe_pow_f32_half
-- inputs: df=nums
-- mode: select
POWER(f, 0.5)

-- name: h_pe_in_paren_msg
-- inputs: df=orders
-- mode: filter
paid AND (status IN ('a', 'b'))

-- name: h_pe_case_when
-- inputs: df=orders
-- mode: select
CASE WHEN qty > 1 THEN 'many' ELSE 'few' END
