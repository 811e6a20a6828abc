-- name: h_sum_by_customer
-- inputs: df=orders
SELECT customer_id, sum(amount) AS total, sum(quantity) AS qty, count(*) AS n FROM {df} GROUP BY customer_id

-- name: h_avg_types
-- inputs: df=orders
SELECT status, avg(amount) AS avg_amount, avg(quantity) AS avg_qty FROM {df} GROUP BY status

-- name: h_count_distinct
-- inputs: df=orders
SELECT count(DISTINCT customer_id) AS customers, count(customer_id) AS non_null, count(*) AS all_rows FROM {df}

-- name: h_group_by_all
-- inputs: df=orders
SELECT channel, lower(status) AS st, sum(amount) AS total FROM {df} GROUP BY ALL

-- name: h_having
-- inputs: df=orders
SELECT customer_id, count(*) AS n FROM {df} GROUP BY customer_id HAVING count(*) > 1

-- name: h_min_max
-- inputs: df=orders
SELECT min(ordered_at) AS first_ts, max(ship_date) AS last_ship, min(status) AS min_status, max(amount) AS max_amount FROM {df}

-- name: h_conditional_agg
-- inputs: df=orders
SELECT customer_id, sum(CASE WHEN status = 'shipped' THEN amount ELSE 0 END) AS shipped, count_if(status = 'pending') AS pending FROM {df} GROUP BY customer_id

-- name: h_filter_clause
-- inputs: df=orders
SELECT sum(amount) FILTER (WHERE channel = 'web') AS web, sum(amount) FILTER (WHERE channel <> 'web') AS other FROM {df}

-- name: h_stddev_variance
-- inputs: df=nums
SELECT stddev(d) AS sd, variance(d) AS v, stddev_pop(d) AS sdp FROM {df} WHERE id <> 4

-- name: h_group_by_ordinal
-- inputs: df=orders
SELECT channel, count(*) AS n FROM {df} GROUP BY 1 ORDER BY 1

-- name: h_sum_int_overflow
-- inputs: df=nums
SELECT sum(i) AS s FROM {df}

-- name: h_sum_bigint_overflow
-- inputs: df=nums
SELECT sum(l) AS s FROM {df}

-- name: h_rollup
-- inputs: df=orders
SELECT channel, status, count(*) AS n FROM {df} GROUP BY ROLLUP(channel, status)

-- name: h_percentile_median
-- inputs: df=nums
SELECT median(d) AS med, percentile(d, 0.25) AS p25 FROM {df} WHERE id <> 4

-- name: h_max_by
-- inputs: df=orders
SELECT customer_id, max_by(order_id, amount) AS biggest FROM {df} GROUP BY customer_id

-- name: h_bool_aggs
-- inputs: df=customers
SELECT country, bool_and(is_active) AS all_active, bool_or(is_active) AS any_active FROM {df} GROUP BY country

-- name: h_first_ignore_nulls
-- inputs: df=customers
SELECT first(tier, true) IS NOT NULL AS has_tier, count(tier) AS n FROM {df}

-- name: h_distinct_rows
-- inputs: df=orders
SELECT DISTINCT channel FROM {df}

-- name: h_sum_double
-- inputs: df=orders
SELECT sum(discount) AS s, avg(discount) AS a FROM {df}

-- name: h_missing_group_by
-- inputs: df=orders
SELECT customer_id, status, count(*) FROM {df} GROUP BY customer_id
