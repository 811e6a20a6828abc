-- name: h_src_filter_cmp
-- inputs: df=orders
-- mode: filter
amount > 50

-- name: h_src_filter_and
-- inputs: df=orders
-- mode: filter
amount > 10 AND qty >= 2

-- name: h_src_filter_in
-- inputs: df=orders
-- mode: filter
status IN ('shipped', 'pending')

-- name: h_src_filter_like
-- inputs: df=orders
-- mode: filter
status LIKE 'ship%'

-- name: h_src_filter_null
-- inputs: df=orders
-- mode: filter
note IS NOT NULL

-- name: h_src_filter_str_eq
-- inputs: df=orders
-- mode: filter
status = 'shipped'

-- name: h_src_select_expr
-- inputs: df=orders
-- mode: select
amount * 2

-- name: h_src_select_upper
-- inputs: df=strs
-- mode: select
UPPER(s)

-- name: h_src_select_coalesce
-- inputs: df=orders
-- mode: select
COALESCE(note, 'none')

-- name: h_src_select_case
-- inputs: df=orders
-- mode: select
CASE WHEN amount > 50 THEN 1 ELSE 0 END

-- name: h_src_filter_or_not
-- inputs: df=orders
-- mode: filter
NOT paid OR qty = 0

-- name: h_src_select_cast
-- inputs: df=orders
-- mode: select
CAST(qty AS FLOAT)

-- name: h_src_select_round
-- inputs: df=nums
-- mode: select
ROUND(d, 1)
