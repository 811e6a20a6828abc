-- GROUP BY expressions as keys, as polars 1.32.0 computes them.

-- name: gx_parity_sum
-- inputs: df=nums
SELECT SUM(d) AS total, COUNT(*) AS n FROM {df} GROUP BY id % 2 ORDER BY n

-- name: gx_parity_selected
-- inputs: df=nums
SELECT id % 2 AS odd, AVG(d) AS a FROM {df} GROUP BY id % 2 ORDER BY odd

-- name: gx_double_key
-- inputs: df=orders
SELECT qty * 2 AS dq, COUNT(*) AS n FROM {df} GROUP BY qty * 2 ORDER BY dq

-- name: gx_key_column
-- inputs: df=nums
SELECT id, COUNT(*) AS n FROM {df} GROUP BY id % 3 ORDER BY id

-- name: gx_upper_list
-- inputs: df=strs
SELECT UPPER(t) AS u, COUNT(*) AS n FROM {df} GROUP BY UPPER(t)

-- name: gx_not_grouped_column
-- inputs: df=orders
SELECT status, COUNT(*) AS n FROM {df} GROUP BY customer_id % 2

-- name: gx_unaliased_agg_same_name
-- inputs: df=orders
SELECT SUM(amount) FROM {df} GROUP BY amount > 10
