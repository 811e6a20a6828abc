-- Round 2: joins of landing data with dimensions, written before the
-- round-2 fixes.

-- name: r2_join_string_key_to_int
-- inputs: df=landing, nodes.customers=customers
SELECT l.rec_id, c.name FROM {df} l LEFT JOIN {nodes.customers} c ON try_cast(trim(l.client_id) AS INT) = c.customer_id

-- name: r2_join_string_key_implicit_cast
-- inputs: df=landing, nodes.customers=customers
SELECT l.rec_id, c.name FROM (SELECT * FROM {df} WHERE rec_id IN ('1', '3', '8')) l JOIN {nodes.customers} c ON l.client_id = c.customer_id

-- name: r2_join_null_safe
-- inputs: df=history, nodes.history=history
SELECT a.id, count(*) AS n FROM {df} a JOIN {nodes.history} b ON a.id <=> b.id AND a.seq = b.seq GROUP BY a.id

-- name: r2_join_anti
-- inputs: df=orders, nodes.customers=customers
SELECT o.order_id FROM {df} o LEFT ANTI JOIN {nodes.customers} c ON o.customer_id = c.customer_id

-- name: r2_join_semi
-- inputs: df=customers, nodes.orders=orders
SELECT c.customer_id FROM {df} c LEFT SEMI JOIN {nodes.orders} o ON o.customer_id = c.customer_id AND o.status = 'shipped'

-- name: r2_join_full_outer_coalesce
-- inputs: df=orders, nodes.customers=customers
SELECT coalesce(o.customer_id, c.customer_id) AS cid, count(o.order_id) AS orders, max(c.name) AS name FROM {df} o FULL OUTER JOIN {nodes.customers} c ON o.customer_id = c.customer_id GROUP BY coalesce(o.customer_id, c.customer_id)

-- name: r2_join_using
-- inputs: df=orders, nodes.customers=customers
SELECT customer_id, o.order_id, c.tier FROM {df} o JOIN {nodes.customers} c USING (customer_id)

-- name: r2_join_using_full_key
-- inputs: df=orders, nodes.customers=customers
SELECT customer_id, count(*) AS n FROM {df} o FULL JOIN {nodes.customers} c USING (customer_id) GROUP BY customer_id

-- name: r2_join_natural
-- inputs: df=fx, nodes.fx=fx
SELECT count(*) AS n FROM {df} NATURAL JOIN {nodes.fx}

-- name: r2_join_on_vs_where
-- inputs: df=customers, nodes.orders=orders
SELECT c.customer_id, o.order_id FROM {df} c LEFT JOIN {nodes.orders} o ON o.customer_id = c.customer_id AND o.status = 'shipped'

-- name: r2_join_where_kills_outer
-- inputs: df=customers, nodes.orders=orders
SELECT c.customer_id, o.order_id FROM {df} c LEFT JOIN {nodes.orders} o ON o.customer_id = c.customer_id WHERE o.status = 'shipped'

-- name: r2_join_self_referrer
-- inputs: df=customers
SELECT c.name, r.name AS referred_by FROM {df} c LEFT JOIN {df} r ON c.referrer_id = r.customer_id

-- name: r2_join_scd2_as_of
-- inputs: df=clicks, nodes.products=products
SELECT c.user_id, c.ts, p.sku, p.price FROM {df} c JOIN {nodes.products} p ON c.ts >= p.valid_from AND c.ts < coalesce(p.valid_to, TIMESTAMP '9999-12-31 00:00:00') WHERE p.sku IN ('A1', 'C3') AND c.user_id = 3

-- name: r2_join_fx_latest_before
-- inputs: df=money, nodes.fx=fx
SELECT id, currency, rate FROM (SELECT m.id, m.currency, f.rate, row_number() OVER (PARTITION BY m.id ORDER BY f.rate_date DESC) AS rn FROM {df} m JOIN {nodes.fx} f ON upper(m.currency) = f.currency AND f.rate_date <= DATE '2024-03-10') WHERE rn = 1

-- name: r2_join_fx_convert
-- inputs: df=money, nodes.fx=fx
SELECT m.id, round(m.amount * f.rate, 2) AS eur FROM {df} m JOIN {nodes.fx} f ON upper(m.currency) = f.currency AND f.rate_date = DATE '2024-03-08'

-- name: r2_join_range_between
-- inputs: df=clicks, nodes.clicks=clicks
SELECT a.user_id, a.ts, count(b.ts) AS within_hour FROM {df} a LEFT JOIN {nodes.clicks} b ON a.user_id = b.user_id AND b.ts BETWEEN a.ts - INTERVAL 1 HOUR AND a.ts GROUP BY a.user_id, a.ts

-- name: r2_join_exploded_items_dim
-- inputs: df=nested, nodes.products=products
SELECT n.id, it.sku, p.name FROM {df} n LATERAL VIEW explode(n.items) t AS it LEFT JOIN {nodes.products} p ON p.sku = it.sku AND p.is_current

-- name: r2_join_cross_small
-- inputs: df=fx, nodes.products=products
SELECT count(*) AS n FROM {df} CROSS JOIN {nodes.products}

-- name: r2_join_in_subquery
-- inputs: df=orders, nodes.customers=customers
SELECT order_id FROM {df} WHERE customer_id IN (SELECT customer_id FROM {nodes.customers} WHERE tier = 'gold')

-- name: r2_join_not_in_with_null
-- inputs: df=customers, nodes.customers=customers
SELECT customer_id FROM {df} WHERE customer_id NOT IN (SELECT referrer_id FROM {nodes.customers})

-- name: r2_join_not_exists
-- inputs: df=customers, nodes.customers=customers
SELECT c.customer_id FROM {df} c WHERE NOT EXISTS (SELECT 1 FROM {nodes.customers} r WHERE r.referrer_id = c.customer_id)

-- name: r2_join_scalar_subquery
-- inputs: df=orders, nodes.orders=orders
SELECT order_id, amount - (SELECT avg(amount) FROM {nodes.orders}) AS vs_avg FROM {df}

-- name: r2_join_correlated_scalar
-- inputs: df=customers, nodes.orders=orders
SELECT c.customer_id, (SELECT max(o.amount) FROM {nodes.orders} o WHERE o.customer_id = c.customer_id) AS max_amount FROM {df} c

-- name: r2_join_ambiguous_column
-- inputs: df=orders, nodes.customers=customers
SELECT customer_id FROM {df} o JOIN {nodes.customers} c ON o.customer_id = c.customer_id

-- name: r2_join_union_by_name
-- inputs: df=orders, nodes.customers=customers
SELECT customer_id, 'order' AS kind FROM {df} UNION ALL SELECT customer_id, 'customer' FROM {nodes.customers}

-- name: r2_join_union_distinct_types
-- inputs: df=orders, nodes.customers=customers
SELECT customer_id, amount AS v FROM {df} UNION SELECT customer_id, score FROM {nodes.customers}

-- name: r2_join_intersect_except
-- inputs: df=orders, nodes.customers=customers
SELECT customer_id FROM {df} INTERSECT SELECT customer_id FROM {nodes.customers} EXCEPT SELECT 5

-- name: r2_join_except_all
-- inputs: df=history, nodes.history=history
SELECT id FROM {df} EXCEPT ALL SELECT id FROM {nodes.history} WHERE op = 'I'

-- name: r2_join_union_column_mismatch
-- inputs: df=orders, nodes.customers=customers
SELECT customer_id, status FROM {df} UNION ALL SELECT customer_id FROM {nodes.customers}

-- name: r2_join_cte_chain
-- inputs: df=history
WITH latest AS (SELECT id, max(seq) AS seq FROM {df} GROUP BY id), cur AS (SELECT h.* FROM {df} h JOIN latest l ON h.id = l.id AND h.seq = l.seq) SELECT id, status, amount FROM cur

-- name: r2_join_lateral_subquery
-- inputs: df=customers, nodes.orders=orders
SELECT c.customer_id, x.n FROM {df} c, LATERAL (SELECT count(*) AS n FROM {nodes.orders} o WHERE o.customer_id = c.customer_id) x

-- name: r2_join_broadcast_hint
-- inputs: df=orders, nodes.customers=customers
SELECT /*+ BROADCAST(c) */ o.order_id, c.country FROM {df} o JOIN {nodes.customers} c ON o.customer_id = c.customer_id

-- name: r2_join_dup_column_names
-- inputs: df=orders, nodes.customers=customers
SELECT * FROM {df} o JOIN {nodes.customers} c ON o.customer_id = c.customer_id

-- name: r2_join_exploded_items_subquery
-- inputs: df=nested, nodes.products=products
SELECT e.id, e.sku, p.name FROM (SELECT id, it.sku AS sku FROM {df} LATERAL VIEW explode(items) t AS it) e LEFT JOIN {nodes.products} p ON p.sku = e.sku AND p.is_current

-- name: r2_join_bracketed_subquery_first
-- inputs: df=orders, nodes.customers=customers
SELECT o.order_id, c.tier FROM ((SELECT order_id, customer_id FROM {df}) AS o JOIN {nodes.customers} AS c ON o.customer_id = c.customer_id)
