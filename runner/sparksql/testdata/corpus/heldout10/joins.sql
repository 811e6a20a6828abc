-- Held-out round 10: joins (NULL-safe <=>, USING and NATURAL and the
-- columns they keep, semi and anti joins) and LATERAL VIEW [OUTER]
-- explode/posexplode. Written, and run through Spark 4.2, before the
-- code it tests.

-- name: h10_null_safe_join
-- inputs: df=orders, nodes.customers=customers
SELECT o.order_id, c.customer_id FROM {df} o LEFT JOIN {nodes.customers} c ON o.customer_id <=> c.referrer_id

-- name: h10_using_star_columns
-- inputs: df=orders, nodes.customers=customers
SELECT * FROM (SELECT order_id, customer_id, status FROM {df}) JOIN (SELECT customer_id, name FROM {nodes.customers}) USING (customer_id)

-- name: h10_using_full_outer
-- inputs: df=orders, nodes.customers=customers
SELECT customer_id, o.order_id, c.name FROM {df} o FULL OUTER JOIN {nodes.customers} c USING (customer_id)

-- name: h10_using_qualified_star
-- inputs: df=orders, nodes.customers=customers
SELECT c.*, o.order_id FROM (SELECT order_id, customer_id FROM {df}) o RIGHT JOIN (SELECT customer_id, tier FROM {nodes.customers}) c USING (customer_id)

-- name: h10_natural_join
-- inputs: df=orders, nodes.customers=customers
SELECT * FROM (SELECT customer_id, order_id, channel FROM {df}) NATURAL JOIN (SELECT customer_id, country FROM {nodes.customers})

-- name: h10_natural_left_two_keys
-- inputs: df=history
SELECT * FROM (SELECT id, seq, status FROM {df}) NATURAL LEFT JOIN (SELECT id, seq + 1 AS seq, status AS prev_status FROM {df} WHERE id IS NOT NULL)

-- name: h10_left_anti_nulls
-- inputs: df=orders, nodes.customers=customers
SELECT o.order_id FROM {df} o LEFT ANTI JOIN {nodes.customers} c ON o.customer_id = c.customer_id

-- name: h10_left_semi_non_equi
-- inputs: df=customers, nodes.orders=orders
SELECT c.customer_id FROM {df} c LEFT SEMI JOIN {nodes.orders} o ON o.customer_id = c.customer_id AND o.amount >= 100 AND o.ordered_at >= c.signup_date

-- name: h10_lateral_view_explode
-- inputs: df=orders
SELECT order_id, tag FROM {df} LATERAL VIEW explode(tags) t AS tag

-- name: h10_lateral_view_outer
-- inputs: df=orders
SELECT order_id, tag FROM {df} LATERAL VIEW OUTER explode(tags) t AS tag

-- name: h10_lateral_view_posexplode
-- inputs: df=orders
SELECT order_id, pos, tag FROM {df} LATERAL VIEW posexplode(tags) t AS pos, tag WHERE order_id < 1005

-- name: h10_lateral_view_map_chained
-- inputs: df=orders
SELECT order_id, k, v, tag FROM {df} LATERAL VIEW explode(attrs) a AS k, v LATERAL VIEW OUTER explode(tags) t AS tag WHERE order_id IN (1001, 1003, 1006)
