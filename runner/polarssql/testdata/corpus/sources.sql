-- name: src_int_truediv
-- inputs: df=nums
-- mode: select
i / 2

-- name: src_int_mod
-- inputs: df=nums
-- mode: select
i % 3

-- name: src_lit_left
-- inputs: df=nums
-- mode: select
2 * d

-- name: src_float32_mul
-- inputs: df=nums
-- mode: select
f * 2

-- name: src_int_plus
-- inputs: df=nums
-- mode: select
b + s

-- name: src_count_all
-- inputs: df=orders
-- mode: select
COUNT(note)

-- name: src_sum
-- inputs: df=orders
-- mode: select
SUM(qty)

-- name: src_avg
-- inputs: df=nums
-- mode: select
AVG(i)

-- name: src_min_max
-- inputs: df=nums
-- mode: select
MAX(d)

-- name: src_round0
-- inputs: df=nums
-- mode: select
ROUND(d)

-- name: src_abs
-- inputs: df=nums
-- mode: select
ABS(i)

-- name: src_lower
-- inputs: df=strs
-- mode: select
LOWER(s)

-- name: src_floor
-- inputs: df=nums
-- mode: select
FLOOR(d)

-- name: src_ceil
-- inputs: df=nums
-- mode: select
CEIL(d)

-- name: src_filter_is_true
-- inputs: df=orders
-- mode: filter
paid IS TRUE

-- name: src_filter_is_false
-- inputs: df=orders
-- mode: filter
paid IS FALSE

-- name: src_filter_not
-- inputs: df=orders
-- mode: filter
NOT paid

-- name: src_filter_neq
-- inputs: df=orders
-- mode: filter
status <> 'shipped'

-- name: src_filter_float_lit
-- inputs: df=nums
-- mode: filter
d >= 0.5

-- name: src_filter_paren_or
-- inputs: df=orders
-- mode: filter
(qty > 2 OR amount < 20) AND paid

-- name: src_filter_neg
-- inputs: df=nums
-- mode: filter
i > -1

-- name: src_filter_true_lit
-- inputs: df=orders
-- mode: filter
paid = TRUE

-- name: src_filter_between
-- inputs: df=orders
-- mode: filter
qty BETWEEN 1 AND 3

-- name: src_filter_struct_field
-- inputs: df=nested
-- mode: filter
addr.city = 'Paris'

-- name: src_filter_quoted
-- inputs: df=orders
-- mode: filter
"qty" > 1

-- name: src_filter_int_eq_float
-- inputs: df=orders
-- mode: filter
qty = 2.0

-- name: src_filter_nulls_dropped
-- inputs: df=orders
-- mode: filter
customer_id > 1

-- name: src_select_col
-- inputs: df=orders
-- mode: select
status

-- name: src_select_pi
-- inputs: df=orders
-- mode: select
PI()

-- name: src_select_concat
-- inputs: df=strs
-- mode: select
s || t
