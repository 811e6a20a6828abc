-- name: jn_inner_filter
-- inputs: df=orders, nodes.customers=customers
SELECT o.order_id, c.name, o.amount FROM {df} o INNER JOIN {nodes.customers} c ON o.customer_id = c.customer_id WHERE c.country = 'FR'

-- name: jn_left_nulls
-- inputs: df=customers, nodes.orders=orders
SELECT c.customer_id, o.order_id FROM {df} c LEFT JOIN {nodes.orders} o ON c.customer_id = o.customer_id

-- name: jn_unqualified
-- inputs: df=orders, nodes.customers=customers
SELECT order_id, name FROM {df} o JOIN {nodes.customers} c ON o.customer_id = c.customer_id

-- name: jn_ambiguous
-- inputs: df=orders, nodes.customers=customers
SELECT customer_id FROM {df} o JOIN {nodes.customers} c ON o.customer_id = c.customer_id

-- name: jn_group_after_join
-- inputs: df=orders, nodes.customers=customers
SELECT c.country, SUM(o.amount) AS total FROM {df} o JOIN {nodes.customers} c ON o.customer_id = c.customer_id GROUP BY c.country

-- name: jn_star_left
-- inputs: df=customers, nodes.c2=customers
SELECT * FROM {df} a LEFT JOIN {nodes.c2} b ON a.customer_id = b.customer_id

-- name: jn_frame_name
-- inputs: df=customers
SELECT __df__.name FROM {df}

-- name: jn_unknown_table
-- inputs: df=customers
SELECT * FROM customers

-- name: jn_order_desc_nulls
-- inputs: df=customers
SELECT name, signup FROM {df} ORDER BY signup DESC

-- name: jn_order_asc_nulls
-- inputs: df=customers
SELECT name, country FROM {df} ORDER BY country, name
