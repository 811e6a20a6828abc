-- name: join_inner_on
-- inputs: df=orders, nodes.c=customers
SELECT o.order_id, c.name FROM {df} o INNER JOIN {nodes.c} c ON o.customer_id = c.customer_id

-- name: join_left_right_full
-- inputs: df=orders, nodes.c=customers
SELECT o.order_id, c.customer_id AS cid FROM {df} o FULL OUTER JOIN {nodes.c} c ON o.customer_id = c.customer_id

-- name: join_right
-- inputs: df=orders, nodes.c=customers
SELECT c.name, o.order_id FROM {df} o RIGHT JOIN {nodes.c} c ON o.customer_id = c.customer_id

-- name: join_using_star
-- inputs: df=orders, nodes.c=customers
SELECT * FROM (SELECT order_id, customer_id FROM {df}) JOIN (SELECT customer_id, name FROM {nodes.c}) USING (customer_id)

-- name: join_using_full_coalesce
-- inputs: df=orders, nodes.c=customers
SELECT customer_id, order_id, name FROM (SELECT order_id, customer_id FROM {df}) FULL JOIN (SELECT customer_id, name FROM {nodes.c}) USING (customer_id)

-- name: join_using_qualified_keys
-- inputs: df=orders, nodes.c=customers
SELECT o.customer_id AS oc, c.customer_id AS cc FROM {df} o LEFT JOIN {nodes.c} c USING (customer_id)

-- name: join_natural
-- inputs: df=orders, nodes.c=customers
SELECT * FROM (SELECT order_id, customer_id FROM {df}) NATURAL JOIN (SELECT customer_id, tier FROM {nodes.c})

-- name: join_semi_anti
-- inputs: df=customers, nodes.o=orders
SELECT c.customer_id, 'semi' AS k FROM {df} c SEMI JOIN {nodes.o} o ON c.customer_id = o.customer_id UNION ALL SELECT c.customer_id, 'anti' FROM {df} c ANTI JOIN {nodes.o} o ON c.customer_id = o.customer_id

-- name: join_semi_right_columns_hidden
-- inputs: df=customers, nodes.o=orders
SELECT o.order_id FROM {df} c LEFT SEMI JOIN {nodes.o} o ON c.customer_id = o.customer_id

-- name: join_cross_and_comma
-- inputs: df=customers
SELECT a.customer_id AS x, b.customer_id AS y FROM {df} a, {df} b WHERE a.customer_id < 3 AND b.customer_id < 3

-- name: join_non_equi
-- inputs: df=orders, nodes.c=customers
SELECT o.order_id, c.customer_id FROM {df} o JOIN {nodes.c} c ON o.customer_id < c.customer_id AND c.customer_id <= 2

-- name: join_type_coercion_keys
-- inputs: df=orders, nodes.n=nums
SELECT o.order_id, n.id FROM {df} o JOIN {nodes.n} n ON o.customer_id = n.l

-- name: join_null_safe
-- inputs: df=orders, nodes.c=customers
SELECT o.order_id, c.customer_id FROM {df} o JOIN {nodes.c} c ON o.customer_id <=> c.referrer_id

-- name: join_ambiguous
-- inputs: df=orders, nodes.c=customers
SELECT customer_id FROM {df} JOIN {nodes.c} USING (customer_id) JOIN {nodes.c} x ON x.customer_id = 1

-- name: join_three_way
-- inputs: df=orders, nodes.c=customers, nodes.r=customers
SELECT o.order_id, c.name, r.name AS referrer FROM {df} o JOIN {nodes.c} c ON o.customer_id = c.customer_id LEFT JOIN {nodes.r} r ON c.referrer_id = r.customer_id

-- name: join_subquery_in_on
-- inputs: df=orders, nodes.c=customers
SELECT o.order_id FROM {df} o JOIN (SELECT customer_id FROM {nodes.c} WHERE tier = 'gold') g ON o.customer_id = g.customer_id

-- name: join_unknown_input
-- inputs: df=orders
SELECT * FROM {df} JOIN {nodes.zz} z ON 1 = 1

-- name: join_table_by_name
-- inputs: df=orders
SELECT * FROM main.default.customers

-- name: join_values_inline
-- inputs: df=orders
SELECT o.order_id, v.label FROM {df} o JOIN VALUES ('web', 'Online'), ('app', 'Mobile') AS v(ch, label) ON o.channel = v.ch

-- name: join_lateral_subquery
-- inputs: df=customers
SELECT c.customer_id, l.x FROM {df} c, LATERAL (SELECT c.customer_id * 10 AS x) l
