-- name: h_filter_status
-- inputs: df=orders
-- mode: filter
lower(status) = 'shipped' AND amount > 100

-- name: h_filter_in_list
-- inputs: df=orders
-- mode: filter
channel IN ('web', 'app') AND quantity BETWEEN 1 AND 3

-- name: h_expr_net
-- inputs: df=orders
-- mode: expr
round(amount * (1 - coalesce(discount, 0)), 2)

-- name: h_expr_label
-- inputs: df=customers
-- mode: expr
concat_ws('-', country, upper(tier))

-- name: h_filter_date
-- inputs: df=orders
-- mode: filter
ordered_at < '2024-03-01' AND ship_date IS NOT NULL

-- name: h_expr_typed_literal
-- inputs: df=orders
-- mode: expr
datediff(ship_date, DATE'2024-01-01')

-- name: h_filter_string_number
-- inputs: df=orders
-- mode: filter
customer_id = '2'

-- name: h_expr_bad_cast
-- inputs: df=strs
-- mode: expr
CAST(code AS INT)
