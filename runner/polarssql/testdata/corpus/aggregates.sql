-- name: agg_sum_small_ints
-- inputs: df=nums
SELECT SUM(b) AS sb, SUM(s) AS ss, SUM(i) AS si, SUM(u) AS su, SUM(f) AS sf FROM {df}

-- name: agg_min_max_types
-- inputs: df=nums
SELECT MIN(b) AS mi, MAX(f) AS ma, MIN(str_num) AS ms FROM {df}

-- name: agg_empty_group
-- inputs: df=orders
SELECT SUM(qty) AS q, COUNT(*) AS n, AVG(amount) AS a, MAX(amount) AS m FROM {df} WHERE order_id > 5000

-- name: agg_group_null_key
-- inputs: df=orders
SELECT customer_id, SUM(qty) AS q, COUNT(note) AS c FROM {df} GROUP BY customer_id

-- name: agg_group_two_keys
-- inputs: df=orders
SELECT status, paid, COUNT(*) AS n FROM {df} GROUP BY status, paid

-- name: agg_group_ordinal_order
-- inputs: df=orders
SELECT customer_id, MAX(amount) AS m FROM {df} GROUP BY 1 ORDER BY 2 DESC

-- name: agg_mean_alias
-- inputs: df=nums
SELECT MEAN(d) AS m FROM {df}

-- name: agg_col_not_grouped
-- inputs: df=orders
SELECT status, qty FROM {df} GROUP BY status

-- name: agg_where_group_order
-- inputs: df=orders
SELECT status, SUM(amount) AS total FROM {df} WHERE paid GROUP BY status ORDER BY total

-- name: agg_distinct_limit
-- inputs: df=orders
SELECT DISTINCT customer_id FROM {df} ORDER BY customer_id LIMIT 3

-- name: agg_count_star_unaliased
-- inputs: df=orders
SELECT status, COUNT(*) FROM {df} GROUP BY status
