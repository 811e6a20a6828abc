-- name: win_sum_int_partition
-- inputs: df=orders
SELECT order_id, SUM(qty) OVER (PARTITION BY status) AS q FROM {df}

-- name: win_min_max_partition
-- inputs: df=orders
SELECT order_id, MIN(amount) OVER (PARTITION BY paid) AS lo, MAX(ordered_at) OVER (PARTITION BY paid) AS hi FROM {df}

-- name: win_count_star_unaliased
-- inputs: df=orders
SELECT order_id, COUNT(*) OVER (PARTITION BY customer_id) FROM {df}

-- name: win_two_keys
-- inputs: df=orders
SELECT order_id, AVG(amount) OVER (PARTITION BY status, paid) AS a FROM {df}

-- name: win_small_int_sum
-- inputs: df=customers
SELECT customer_id, SUM(tier) OVER (PARTITION BY country) AS t FROM {df}

-- name: win_count_col
-- inputs: df=orders
SELECT order_id, COUNT(note) OVER (PARTITION BY paid) AS n FROM {df}

-- name: win_rows_frame
-- inputs: df=orders
SELECT order_id, SUM(qty) OVER (PARTITION BY status ROWS BETWEEN 1 PRECEDING AND CURRENT ROW) AS q FROM {df}

-- name: win_dense_rank
-- inputs: df=orders
SELECT order_id, DENSE_RANK() OVER (PARTITION BY status ORDER BY amount) AS r FROM {df}

-- name: win_with_where
-- inputs: df=orders
SELECT order_id, SUM(amount) OVER (PARTITION BY status) AS s FROM {df} WHERE paid

-- name: win_expr_arg
-- inputs: df=orders
SELECT order_id, SUM(amount * qty) OVER (PARTITION BY customer_id) AS s FROM {df}
