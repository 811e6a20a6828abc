-- name: h_agg_group_sum
-- inputs: df=orders
SELECT customer_id, SUM(amount) AS total, COUNT(*) AS n FROM {df} GROUP BY customer_id ORDER BY customer_id

-- name: h_agg_int_sum
-- inputs: df=orders
SELECT status, SUM(qty) AS q FROM {df} GROUP BY status

-- name: h_agg_unaliased
-- inputs: df=orders
SELECT status, SUM(qty), MAX(amount) FROM {df} GROUP BY status

-- name: h_agg_avg_minmax
-- inputs: df=nums
SELECT AVG(i) AS a, MIN(d) AS lo, MAX(d) AS hi FROM {df}

-- name: h_agg_count_forms
-- inputs: df=orders
SELECT COUNT(*) AS n, COUNT(note) AS nn, COUNT(DISTINCT status) AS ds FROM {df}

-- name: h_agg_having
-- inputs: df=orders
SELECT customer_id, COUNT(*) AS n FROM {df} GROUP BY customer_id HAVING COUNT(*) > 1

-- name: h_agg_decimal_sum
-- inputs: df=orders
SELECT SUM(price) AS p FROM {df}

-- name: h_agg_stddev
-- inputs: df=nums
SELECT STDDEV(d) AS sd, VARIANCE(i) AS v FROM {df}

-- name: h_agg_median
-- inputs: df=nums
SELECT MEDIAN(d) AS m FROM {df}

-- name: h_agg_first_last
-- inputs: df=orders
SELECT status, FIRST(order_id) AS f, LAST(order_id) AS l FROM {df} GROUP BY status ORDER BY status

-- name: h_agg_group_expr
-- inputs: df=orders
SELECT UPPER(status) AS st, COUNT(*) AS n FROM {df} GROUP BY UPPER(status) ORDER BY st

-- name: h_agg_group_ordinal
-- inputs: df=orders
SELECT status, COUNT(*) AS n FROM {df} GROUP BY 1 ORDER BY 1

-- name: h_agg_distinct_rows
-- inputs: df=orders
SELECT DISTINCT status FROM {df} ORDER BY status
