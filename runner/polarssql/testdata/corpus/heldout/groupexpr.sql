-- Held out: written, and its expectations computed, before Polars SQL's
-- GROUP BY took expressions as keys. polars 1.32.0 names each key after
-- its leftmost input, aggregates per key, and evaluates a selected
-- expression that is not an aggregate over the grouped frame (its
-- columns are the keys, by those names), or, for a function call, gives
-- each group's values as a List.

-- name: h_gx_key_not_selected
-- inputs: df=orders
SELECT COUNT(*) AS n, SUM(amount) AS total FROM {df} GROUP BY customer_id % 2 ORDER BY n, total

-- name: h_gx_key_selected
-- inputs: df=orders
SELECT customer_id % 2 AS parity, COUNT(*) AS n FROM {df} GROUP BY customer_id % 2 ORDER BY parity

-- name: h_gx_key_reapplied
-- inputs: df=nums
SELECT id / 3 AS third, COUNT(*) AS n, MAX(d) AS m FROM {df} GROUP BY id / 3 ORDER BY m

-- name: h_gx_column_and_expr
-- inputs: df=orders
SELECT status, qty > 1 AS many, SUM(amount) AS s FROM {df} GROUP BY status, qty > 1 ORDER BY status, s

-- name: h_gx_key_column_name
-- inputs: df=orders
SELECT customer_id, MIN(order_id) AS first FROM {df} GROUP BY customer_id + 10 ORDER BY first

-- name: h_gx_function_list
-- inputs: df=orders
SELECT LOWER(status) AS st, COUNT(*) AS n FROM {df} GROUP BY LOWER(status)

-- name: h_gx_function_key_aggregates
-- inputs: df=strs
SELECT COUNT(*) AS n, MAX(id) AS last FROM {df} GROUP BY LENGTH(s) ORDER BY last

-- name: h_gx_cast_key
-- inputs: df=nums
SELECT SUM(i) AS si, COUNT(*) AS n FROM {df} GROUP BY CAST(d AS INT) ORDER BY si, n

-- name: h_gx_unaliased_expr
-- inputs: df=orders
SELECT customer_id * 2, COUNT(*) AS n FROM {df} GROUP BY customer_id * 2

-- name: h_gx_two_keys_one_name
-- inputs: df=orders
SELECT COUNT(*) AS n FROM {df} GROUP BY customer_id % 2, customer_id % 3

-- name: h_gx_aggregate_plus_key
-- inputs: df=orders
SELECT customer_id % 2 + COUNT(*) AS z FROM {df} GROUP BY customer_id % 2

-- name: h_gx_literal_and_where
-- inputs: df=orders
SELECT 'all' AS label, COUNT(*) AS n FROM {df} WHERE amount > 0 GROUP BY qty % 2 ORDER BY n

-- name: h_gx_negated_key
-- inputs: df=orders
SELECT -customer_id AS neg, COUNT(*) AS n FROM {df} GROUP BY -customer_id

-- name: h_gx_case_key
-- inputs: df=orders
SELECT COUNT(*) AS n FROM {df} GROUP BY CASE WHEN amount > 50 THEN 'big' ELSE 'small' END ORDER BY n
