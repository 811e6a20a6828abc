-- ORDER BY a selected column as the FROM names it.

-- name: ob_renamed_source
-- inputs: df=orders
SELECT o.amount AS a, o.order_id AS id FROM {df} o ORDER BY o.amount DESC, o.order_id

-- name: ob_join_right_key
-- inputs: df=orders, nodes.customers=customers
SELECT o.order_id, c.name FROM {df} o LEFT JOIN {nodes.customers} c ON o.customer_id = c.customer_id ORDER BY c.name, o.order_id

-- name: ob_not_selected
-- inputs: df=orders
SELECT order_id FROM {df} ORDER BY amount

-- name: ob_star_qualified
-- inputs: df=customers
SELECT * FROM {df} AS c ORDER BY c.signup, c.customer_id
