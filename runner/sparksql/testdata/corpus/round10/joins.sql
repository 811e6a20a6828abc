-- Round 10 (development): NULL-safe, USING, NATURAL, semi/anti joins and
-- LATERAL VIEW.

-- name: r10_null_safe_self_join
-- inputs: df=clicks
SELECT a.user_id, count(*) AS n FROM {df} a JOIN {df} b ON a.ref <=> b.ref AND a.user_id <=> b.user_id GROUP BY a.user_id

-- name: r10_using_left_select_key
-- inputs: df=orders, nodes.customers=customers
SELECT customer_id, name FROM {df} LEFT JOIN {nodes.customers} USING (customer_id)

-- name: r10_using_right_key
-- inputs: df=orders, nodes.customers=customers
SELECT customer_id, order_id FROM {df} RIGHT JOIN {nodes.customers} USING (customer_id)

-- name: r10_natural_no_common
-- inputs: df=orders
SELECT * FROM (SELECT order_id FROM {df} WHERE order_id < 1003) NATURAL JOIN (SELECT 1 AS one)

-- name: r10_anti_join_not_exists_equiv
-- inputs: df=customers, nodes.orders=orders
SELECT c.customer_id FROM {df} c ANTI JOIN {nodes.orders} o ON c.customer_id = o.customer_id

-- name: r10_semi_join_keyword
-- inputs: df=customers, nodes.orders=orders
SELECT customer_id, name FROM {df} SEMI JOIN {nodes.orders} USING (customer_id)

-- name: r10_lateral_view_no_alias
-- inputs: df=orders
SELECT order_id, col FROM {df} LATERAL VIEW explode(tags) t WHERE order_id < 1003

-- name: r10_lateral_view_outer_posexplode
-- inputs: df=orders
SELECT order_id, pos, col FROM {df} LATERAL VIEW OUTER posexplode(tags) t WHERE order_id IN (1003, 1005, 1007)

-- name: r10_lateral_view_group
-- inputs: df=orders
SELECT tag, count(*) AS n FROM {df} LATERAL VIEW explode(tags) t AS tag GROUP BY tag
