-- Round 2 held-out part: joins. Written before the round-2 fixes; its
-- figures are reported apart.

-- name: h2_join_landing_fx
-- inputs: df=landing, nodes.fx=fx
SELECT l.rec_id, f.rate FROM {df} l LEFT JOIN {nodes.fx} f ON upper(trim(l.currency)) = f.currency AND f.rate_date = DATE '2024-03-08'

-- name: h2_join_current_dim
-- inputs: df=nested, nodes.products=products
SELECT n.id, count(p.sku) AS known FROM {df} n LATERAL VIEW OUTER explode(n.items) t AS it LEFT JOIN {nodes.products} p ON p.sku = it.sku AND p.valid_to IS NULL GROUP BY n.id

-- name: h2_join_anti_new_keys
-- inputs: df=history, nodes.products=products
SELECT DISTINCT h.id FROM {df} h LEFT ANTI JOIN (SELECT 1 AS id UNION ALL SELECT 2) k ON h.id = k.id

-- name: h2_join_int_to_string_key
-- inputs: df=customers, nodes.landing=landing
SELECT c.customer_id, l.rec_id FROM {df} c JOIN (SELECT * FROM {nodes.landing} WHERE rec_id IN ('1', '3', '6')) l ON c.customer_id = l.client_id

-- name: h2_join_full_outer_nulls
-- inputs: df=history, nodes.history=history
SELECT a.id AS a_id, b.id AS b_id FROM (SELECT DISTINCT id FROM {df} WHERE id <= 3 OR id IS NULL) a FULL OUTER JOIN (SELECT DISTINCT id FROM {nodes.history} WHERE id >= 3 OR id IS NULL) b ON a.id = b.id

-- name: h2_join_union_all_by_position
-- inputs: df=clicks, nodes.history=history
SELECT user_id AS k, ts FROM {df} UNION ALL SELECT id, ts FROM {nodes.history}

-- name: h2_join_exists_correlated
-- inputs: df=customers, nodes.orders=orders
SELECT customer_id FROM {df} c WHERE EXISTS (SELECT 1 FROM {nodes.orders} o WHERE o.customer_id = c.customer_id AND o.amount > 100)

-- name: h2_join_inequality
-- inputs: df=money, nodes.money=money
SELECT a.id, count(b.id) AS smaller FROM {df} a LEFT JOIN {nodes.money} b ON b.amount < a.amount GROUP BY a.id

-- name: h2_join_ambiguous_star_error
-- inputs: df=orders, nodes.customers=customers
SELECT customer_id, o.order_id FROM {df} o, {nodes.customers} c WHERE o.customer_id = c.customer_id

-- name: h2_join_using_three
-- inputs: df=fx, nodes.fx=fx
SELECT currency, a.rate, b.rate AS rate2 FROM {df} a JOIN {nodes.fx} b USING (currency, rate_date)
