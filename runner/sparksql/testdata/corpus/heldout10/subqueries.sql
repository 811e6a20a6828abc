-- Held-out round 10: subqueries a data engineer writes over landing and
-- dimension data (correlated and uncorrelated EXISTS, IN and NOT IN with
-- NULLs on either side, scalar subqueries, the count of a correlated
-- subquery without rows). Written, and run through Spark 4.2, before the
-- code it tests.

-- name: h10_exists_correlated
-- inputs: df=customers, nodes.orders=orders
SELECT c.customer_id, c.name FROM {df} c WHERE EXISTS (SELECT 1 FROM {nodes.orders} o WHERE o.customer_id = c.customer_id AND o.status = 'shipped')

-- name: h10_not_exists_correlated
-- inputs: df=customers, nodes.orders=orders
SELECT c.customer_id FROM {df} c WHERE NOT EXISTS (SELECT * FROM {nodes.orders} o WHERE o.customer_id = c.customer_id)

-- name: h10_in_subquery_nulls
-- inputs: df=customers, nodes.orders=orders
SELECT customer_id, referrer_id FROM {df} WHERE referrer_id IN (SELECT customer_id FROM {nodes.orders})

-- name: h10_not_in_subquery_with_null
-- inputs: df=customers, nodes.orders=orders
SELECT customer_id FROM {df} WHERE customer_id NOT IN (SELECT customer_id FROM {nodes.orders})

-- name: h10_not_in_subquery_filtered
-- inputs: df=customers, nodes.orders=orders
SELECT customer_id FROM {df} WHERE customer_id NOT IN (SELECT customer_id FROM {nodes.orders} WHERE customer_id IS NOT NULL)

-- name: h10_not_in_null_probe
-- inputs: df=customers
SELECT customer_id, referrer_id FROM {df} WHERE referrer_id NOT IN (SELECT customer_id FROM {df} WHERE tier = 'gold')

-- name: h10_in_subquery_select_list
-- inputs: df=customers, nodes.orders=orders
SELECT customer_id, customer_id IN (SELECT customer_id FROM {nodes.orders}) AS has_order, referrer_id NOT IN (SELECT customer_id FROM {nodes.orders} WHERE customer_id IS NOT NULL) AS ref_no_order FROM {df}

-- name: h10_scalar_subquery_correlated
-- inputs: df=orders, nodes.customers=customers
SELECT o.order_id, (SELECT c.name FROM {nodes.customers} c WHERE c.customer_id = o.customer_id) AS name FROM {df} o

-- name: h10_scalar_subquery_uncorrelated
-- inputs: df=orders
SELECT order_id, amount FROM {df} WHERE amount > (SELECT avg(amount) FROM {df})

-- name: h10_scalar_subquery_too_many_rows
-- inputs: df=orders
SELECT order_id, (SELECT customer_id FROM {df} WHERE status = 'shipped') AS c FROM {df}

-- name: h10_correlated_count_empty
-- inputs: df=customers, nodes.orders=orders
SELECT c.customer_id, (SELECT count(*) FROM {nodes.orders} o WHERE o.customer_id = c.customer_id) AS n, (SELECT sum(o.amount) FROM {nodes.orders} o WHERE o.customer_id = c.customer_id) AS s FROM {df} c

-- name: h10_exists_in_case
-- inputs: df=customers, nodes.orders=orders
SELECT customer_id, CASE WHEN EXISTS (SELECT 1 FROM {nodes.orders} o WHERE o.customer_id = {df}.customer_id AND o.amount > 100) THEN 'big' ELSE 'small' END AS seg FROM {df}

-- name: h10_in_subquery_tuple
-- inputs: df=history
SELECT id, seq, status FROM {df} WHERE (id, seq) IN (SELECT id, max(seq) FROM {df} GROUP BY id)

-- name: h10_scalar_subquery_in_having
-- inputs: df=orders
SELECT channel, sum(amount) AS s FROM {df} GROUP BY channel HAVING sum(amount) > (SELECT avg(amount) FROM {df})
