-- name: h_join_inner
-- inputs: df=orders, nodes.customers=customers
SELECT o.order_id, c.name FROM {df} o JOIN {nodes.customers} c ON o.customer_id = c.customer_id

-- name: h_join_left
-- inputs: df=orders, nodes.customers=customers
SELECT o.order_id, c.country FROM {df} o LEFT JOIN {nodes.customers} c ON o.customer_id = c.customer_id ORDER BY o.order_id

-- name: h_join_star
-- inputs: df=orders, nodes.customers=customers
SELECT * FROM {df} o JOIN {nodes.customers} c ON o.customer_id = c.customer_id

-- name: h_join_using
-- inputs: df=orders, nodes.customers=customers
SELECT order_id, name FROM {df} JOIN {nodes.customers} USING (customer_id)

-- name: h_join_self_dup
-- inputs: df=customers
SELECT a.customer_id, b.customer_id FROM {df} a JOIN {df} b ON a.tier = b.tier

-- name: h_join_full
-- inputs: df=orders, nodes.customers=customers
SELECT o.order_id, c.customer_id AS cid FROM {df} o FULL JOIN {nodes.customers} c ON o.customer_id = c.customer_id

-- name: h_join_anti
-- inputs: df=customers, nodes.orders=orders
SELECT * FROM {df} c ANTI JOIN {nodes.orders} o ON c.customer_id = o.customer_id

-- name: h_join_semi
-- inputs: df=customers, nodes.orders=orders
SELECT customer_id, name FROM {df} c SEMI JOIN {nodes.orders} o ON c.customer_id = o.customer_id

-- name: h_join_cross
-- inputs: df=customers
SELECT a.name AS n1, b.name AS n2 FROM {df} a CROSS JOIN {df} b WHERE a.tier = 3

-- name: h_join_case_ident
-- inputs: df=orders
SELECT ORDER_ID FROM {df}

-- name: h_join_union
-- inputs: df=orders, nodes.customers=customers
SELECT customer_id FROM {df} UNION SELECT customer_id FROM {nodes.customers}

-- name: h_join_cte
-- inputs: df=orders
WITH big AS (SELECT * FROM {df} WHERE amount > 50) SELECT customer_id, COUNT(*) AS n FROM big GROUP BY customer_id
