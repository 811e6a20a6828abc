-- Held-out round 10: set operations (INTERSECT/EXCEPT, ALL and
-- DISTINCT, MINUS, precedence and NULLs), GROUP BY ALL / ORDER BY ALL,
-- LIMIT/OFFSET, CTEs referenced twice and Spark 4's SQL pipe syntax.
-- Written, and run through Spark 4.2, before the code it tests.

-- name: h10_intersect_distinct_nulls
-- inputs: df=orders, nodes.customers=customers
SELECT customer_id FROM {df} INTERSECT SELECT referrer_id FROM {nodes.customers}

-- name: h10_intersect_all_dupes
-- inputs: df=clicks
SELECT x FROM VALUES (1), (1), (2), (NULL), (NULL), (3) AS a(x) INTERSECT ALL SELECT y FROM VALUES (1), (1), (1), (NULL), (3), (3) AS b(y)

-- name: h10_except_distinct_nulls
-- inputs: df=customers, nodes.orders=orders
SELECT referrer_id FROM {df} EXCEPT SELECT customer_id FROM {nodes.orders} WHERE status <> 'shipped'

-- name: h10_except_all_dupes
-- inputs: df=clicks
SELECT page FROM {df} EXCEPT ALL SELECT page FROM {df} WHERE user_id = 1

-- name: h10_minus_two_columns
-- inputs: df=clicks
SELECT user_id, page FROM {df} MINUS SELECT user_id, page FROM {df} WHERE ref IS NULL

-- name: h10_setop_precedence
-- inputs: df=clicks
SELECT x FROM VALUES (1), (2) AS a(x) UNION SELECT x FROM VALUES (3) AS b(x) INTERSECT SELECT x FROM VALUES (2), (4) AS c(x)

-- name: h10_group_by_all
-- inputs: df=orders
SELECT channel, upper(status) AS st, count(*) AS n, sum(amount) AS s FROM {df} GROUP BY ALL ORDER BY ALL

-- name: h10_group_by_all_only_aggs
-- inputs: df=orders
SELECT count(*) AS n, max(amount) AS m FROM {df} GROUP BY ALL

-- name: h10_order_by_all_desc
-- inputs: df=customers
SELECT country, customer_id FROM {df} ORDER BY ALL DESC

-- name: h10_limit_offset
-- inputs: df=orders
SELECT order_id, status FROM {df} ORDER BY order_id LIMIT 3 OFFSET 2

-- name: h10_offset_without_limit
-- inputs: df=orders
SELECT order_id FROM {df} ORDER BY order_id DESC OFFSET 5

-- name: h10_top_n_in_subquery
-- inputs: df=orders
SELECT order_id, amount FROM (SELECT order_id, amount FROM {df} ORDER BY amount DESC NULLS LAST LIMIT 3) ORDER BY order_id

-- name: h10_cte_referenced_twice
-- inputs: df=orders
WITH per AS (SELECT customer_id, sum(amount) AS s FROM {df} WHERE customer_id IS NOT NULL GROUP BY customer_id) SELECT a.customer_id, a.s, round(a.s / t.total, 4) AS share FROM per a CROSS JOIN (SELECT sum(s) AS total FROM per) t

-- name: h10_cte_chain_self_join
-- inputs: df=history
WITH latest AS (SELECT id, max(seq) AS seq FROM {df} GROUP BY id), cur AS (SELECT h.id, h.status FROM {df} h JOIN latest l ON h.id = l.id AND h.seq = l.seq) SELECT c1.id, c1.status, c2.id AS same_status_id FROM cur c1 JOIN cur c2 ON c1.status = c2.status AND c1.id < c2.id

-- name: h10_pipe_where_aggregate
-- inputs: df=orders
FROM {df} |> WHERE status IN ('shipped', 'pending') |> AGGREGATE count(*) AS n, sum(amount) AS s GROUP BY channel

-- name: h10_pipe_extend_order_limit
-- inputs: df=orders
FROM {df} |> EXTEND amount * quantity AS gross |> SELECT order_id, gross |> ORDER BY gross DESC NULLS LAST |> LIMIT 3
