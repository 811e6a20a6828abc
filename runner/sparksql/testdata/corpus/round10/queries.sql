-- Round 10 (development): subqueries, set operations, GROUP BY ALL,
-- LIMIT/OFFSET, CTEs and pipe syntax around the held-out steps.

-- name: r10_exists_uncorrelated
-- inputs: df=customers, nodes.orders=orders
SELECT customer_id FROM {df} WHERE EXISTS (SELECT 1 FROM {nodes.orders} WHERE status = 'returned')

-- name: r10_not_exists_two_keys
-- inputs: df=history
SELECT h.id, h.seq FROM {df} h WHERE NOT EXISTS (SELECT 1 FROM {df} n WHERE n.id = h.id AND n.seq > h.seq)

-- name: r10_in_list_and_subquery
-- inputs: df=orders, nodes.customers=customers
SELECT order_id FROM {df} WHERE customer_id IN (SELECT customer_id FROM {nodes.customers} WHERE country = 'FR') OR status IN ('returned')

-- name: r10_not_in_empty_subquery
-- inputs: df=customers
SELECT customer_id, referrer_id FROM {df} WHERE referrer_id NOT IN (SELECT customer_id FROM {df} WHERE customer_id > 100)

-- name: r10_not_in_correlated
-- inputs: df=orders
SELECT o.order_id FROM {df} o WHERE o.quantity NOT IN (SELECT p.quantity FROM {df} p WHERE p.channel = o.channel AND p.order_id <> o.order_id)

-- name: r10_scalar_subquery_max_date
-- inputs: df=fx
SELECT currency, rate FROM {df} f WHERE rate_date = (SELECT max(rate_date) FROM {df} g WHERE g.currency = f.currency)

-- name: r10_scalar_subquery_empty
-- inputs: df=orders
SELECT order_id, (SELECT max(amount) FROM {df} WHERE order_id > 5000) AS m FROM {df} WHERE order_id < 1003

-- name: r10_intersect_strings
-- inputs: df=clicks
SELECT ref FROM {df} WHERE user_id = 1 INTERSECT SELECT ref FROM {df} WHERE user_id = 2

-- name: r10_except_all_nulls
-- inputs: df=clicks
SELECT x FROM VALUES (NULL), (NULL), (1), (1), (2) AS a(x) EXCEPT ALL SELECT x FROM VALUES (NULL), (1), (5) AS b(x)

-- name: r10_union_distinct_types
-- inputs: df=orders
SELECT quantity AS v FROM {df} WHERE order_id < 1003 UNION SELECT amount FROM {df} WHERE order_id < 1003

-- name: r10_intersect_distinct_keyword
-- inputs: df=clicks
SELECT user_id FROM {df} INTERSECT DISTINCT SELECT user_id FROM {df} WHERE ms > 100

-- name: r10_group_by_all_case
-- inputs: df=orders
SELECT CASE WHEN amount >= 100 THEN 'big' ELSE 'small' END AS size, count(*) AS n FROM {df} GROUP BY ALL

-- name: r10_group_by_all_with_literal
-- inputs: df=clicks
SELECT 'x' AS tag, user_id, count(ms) AS n FROM {df} GROUP BY ALL

-- name: r10_order_by_all_nulls_last
-- inputs: df=orders
SELECT channel, order_id FROM {df} ORDER BY ALL NULLS LAST

-- name: r10_limit_zero
-- inputs: df=orders
SELECT order_id FROM {df} LIMIT 0

-- name: r10_offset_past_end
-- inputs: df=orders
SELECT order_id FROM {df} ORDER BY order_id LIMIT 5 OFFSET 20

-- name: r10_cte_used_in_subquery
-- inputs: df=orders
WITH big AS (SELECT customer_id FROM {df} WHERE amount > 100) SELECT order_id FROM {df} WHERE customer_id IN (SELECT customer_id FROM big) AND customer_id NOT IN (SELECT customer_id FROM big WHERE customer_id > 3)

-- name: r10_pipe_select_where
-- inputs: df=clicks
FROM {df} |> WHERE ms IS NOT NULL |> SELECT user_id, ms * 2 AS ms2 |> WHERE ms2 > 300

-- name: r10_pipe_aggregate_no_group
-- inputs: df=clicks
FROM {df} |> AGGREGATE count(*) AS n, avg(ms) AS a
