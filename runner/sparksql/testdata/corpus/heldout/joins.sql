-- name: h_inner_join
-- inputs: df=orders, nodes.customers=customers
SELECT o.order_id, c.name, c.country FROM {df} o JOIN {nodes.customers} c ON o.customer_id = c.customer_id

-- name: h_left_join_nulls
-- inputs: df=orders, nodes.customers=customers
SELECT o.order_id, coalesce(c.name, 'unknown') AS name FROM {df} o LEFT JOIN {nodes.customers} c ON o.customer_id = c.customer_id

-- name: h_semi_join
-- inputs: df=customers, nodes.orders=orders
SELECT c.customer_id, c.name FROM {df} c LEFT SEMI JOIN {nodes.orders} o ON c.customer_id = o.customer_id

-- name: h_anti_join
-- inputs: df=customers, nodes.orders=orders
SELECT c.customer_id FROM {df} c LEFT ANTI JOIN {nodes.orders} o ON c.customer_id = o.customer_id

-- name: h_full_join_using
-- inputs: df=orders, nodes.customers=customers
SELECT * FROM (SELECT customer_id, count(*) AS n FROM {df} GROUP BY customer_id) FULL OUTER JOIN (SELECT customer_id, tier FROM {nodes.customers}) USING (customer_id)

-- name: h_self_join_referrer
-- inputs: df=customers
SELECT c.name, r.name AS referred_by FROM {df} c LEFT JOIN {df} r ON c.referrer_id = r.customer_id

-- name: h_cte_join_agg
-- inputs: df=orders, nodes.customers=customers
WITH totals AS (SELECT customer_id, sum(amount) AS total FROM {df} WHERE status <> 'cancelled' GROUP BY customer_id)
SELECT c.country, sum(t.total) AS revenue FROM totals t JOIN {nodes.customers} c ON t.customer_id = c.customer_id GROUP BY c.country

-- name: h_join_star_except
-- inputs: df=orders, nodes.customers=customers
SELECT o.* EXCEPT (tags, attrs, address, note), c.tier FROM {df} o JOIN {nodes.customers} c USING (customer_id)

-- name: h_cross_join_values
-- inputs: df=customers
SELECT c.customer_id, v.label FROM {df} c CROSS JOIN VALUES ('a'), ('b') AS v(label) WHERE c.customer_id < 3

-- name: h_in_subquery
-- inputs: df=customers, nodes.orders=orders
SELECT customer_id FROM {df} WHERE customer_id IN (SELECT customer_id FROM {nodes.orders} WHERE status = 'shipped')

-- name: h_exists_subquery
-- inputs: df=customers, nodes.orders=orders
SELECT customer_id FROM {df} c WHERE NOT EXISTS (SELECT 1 FROM {nodes.orders} o WHERE o.customer_id = c.customer_id)

-- name: h_scalar_subquery
-- inputs: df=orders
SELECT order_id, amount - (SELECT avg(amount) FROM {df}) AS diff FROM {df}

-- name: h_union_all
-- inputs: df=orders, nodes.customers=customers
SELECT customer_id, 'order' AS kind FROM {df} UNION ALL SELECT customer_id, 'customer' FROM {nodes.customers}

-- name: h_union_distinct_types
-- inputs: df=nums
SELECT i AS v FROM {df} UNION SELECT l FROM {df}

-- name: h_ambiguous_column
-- inputs: df=orders, nodes.customers=customers
SELECT customer_id FROM {df} o JOIN {nodes.customers} c ON o.customer_id = c.customer_id
