-- Held out: written, and its expectations computed, before Polars SQL's
-- derived tables (a query in FROM) were translated.

-- name: h_dt_group
-- inputs: df=orders
SELECT status, SUM(total) AS t FROM (SELECT status, amount * qty AS total FROM {df}) AS s GROUP BY status

-- name: h_dt_no_alias
-- inputs: df=orders
SELECT status FROM (SELECT status FROM {df})

-- name: h_dt_star_where
-- inputs: df=orders
SELECT * FROM (SELECT order_id, amount FROM {df} WHERE amount > 50) AS t

-- name: h_dt_col_alias
-- inputs: df=orders
SELECT a, b FROM (SELECT order_id, status FROM {df}) AS t(a, b)

-- name: h_dt_join
-- inputs: df=orders, nodes.customers=customers
SELECT t.customer_id, c.name FROM (SELECT customer_id, COUNT(*) AS n FROM {df} GROUP BY customer_id) t JOIN {nodes.customers} c ON t.customer_id = c.customer_id

-- name: h_dt_nested
-- inputs: df=orders
SELECT x FROM (SELECT * FROM (SELECT qty AS x FROM {df}) AS a) AS b

-- name: h_dt_limit
-- inputs: df=orders
SELECT * FROM (SELECT order_id, amount FROM {df} ORDER BY amount DESC LIMIT 3) AS top

-- name: h_dt_qualified
-- inputs: df=orders
SELECT s.order_id, s.amount FROM (SELECT order_id, amount FROM {df}) s WHERE s.amount > 20

-- name: h_dt_top_per_group
-- inputs: df=orders
SELECT order_id, m FROM (SELECT order_id, amount, MAX(amount) OVER (PARTITION BY status) AS m FROM {df}) AS w WHERE amount = m

-- name: h_dt_strptime_group
-- inputs: df=stamps
SELECT d, COUNT(*) AS n FROM (SELECT DATE(iso, '%Y-%m-%d %H:%M:%S') AS d FROM {df}) AS s GROUP BY d
