-- name: agg_sum_types
-- inputs: df=nums
SELECT sum(t) AS st, sum(s) AS ss, sum(dec) AS sdec, sum(d) AS sd, sum(f) AS sf FROM {df} WHERE id <> 4

-- name: agg_sum_long_overflow
-- inputs: df=nums
SELECT sum(l) AS x FROM {df}

-- name: agg_try_sum
-- inputs: df=nums
SELECT try_sum(l) AS x, try_sum(i) AS y FROM {df}

-- name: agg_avg_types
-- inputs: df=nums
SELECT avg(i) AS ai, avg(dec) AS adec, avg(dec2) AS adec2, avg(d) AS ad, mean(t) AS mt FROM {df} WHERE id <> 4

-- name: agg_avg_decimal_rounding
SELECT avg(x) AS a FROM VALUES (CAST(1 AS DECIMAL(3,0))), (CAST(2 AS DECIMAL(3,0))), (CAST(2 AS DECIMAL(3,0))) AS t(x)

-- name: agg_count_forms
-- inputs: df=orders
SELECT count(*) AS a, count(1) AS b, count(discount) AS c, count(DISTINCT channel) AS e, count(DISTINCT customer_id, channel) AS f, count(note, discount) AS g FROM {df}

-- name: agg_min_max_types
-- inputs: df=orders
SELECT min(amount) AS a, max(amount) AS b, min(ordered_at) AS c, max(note) AS e, min(ship_date) AS f, max(tags) AS g FROM {df}

-- name: agg_group_by_expression
-- inputs: df=orders
SELECT upper(status) AS st, count(*) AS n, sum(quantity) AS q FROM {df} GROUP BY upper(status)

-- name: agg_group_by_alias
-- inputs: df=orders
SELECT upper(status) AS st, count(*) AS n FROM {df} GROUP BY st

-- name: agg_group_by_ordinal
-- inputs: df=orders
SELECT channel, status, count(*) AS n FROM {df} GROUP BY 1, 2

-- name: agg_group_by_all_expr
-- inputs: df=orders
SELECT year(ordered_at) AS y, channel, max(amount) AS m FROM {df} GROUP BY ALL

-- name: agg_having_alias_and_agg
-- inputs: df=orders
SELECT customer_id, sum(amount) AS total FROM {df} GROUP BY customer_id HAVING total > 100 AND count(*) >= 1

-- name: agg_having_without_group
-- inputs: df=orders
SELECT count(*) AS n FROM {df} HAVING count(*) > 3

-- name: agg_missing_group
-- inputs: df=orders
SELECT channel, amount, count(*) FROM {df} GROUP BY channel

-- name: agg_missing_group_by_clause
-- inputs: df=orders
SELECT channel, count(*) FROM {df}

-- name: agg_nested_aggregate
-- inputs: df=orders
SELECT sum(max(amount)) FROM {df}

-- name: agg_in_where
-- inputs: df=orders
SELECT order_id FROM {df} WHERE sum(amount) > 10

-- name: agg_filter_clause
-- inputs: df=orders
SELECT channel, count(*) FILTER (WHERE status = 'shipped') AS shipped, sum(amount) FILTER (WHERE quantity > 1) AS big FROM {df} GROUP BY channel

-- name: agg_collect
-- inputs: df=orders
SELECT channel, sort_array(collect_list(order_id)) AS ids, size(collect_set(status)) AS n, sort_array(array_agg(customer_id)) AS cust FROM {df} GROUP BY channel

-- name: agg_collect_empty
-- inputs: df=orders
SELECT collect_list(note) AS a FROM {df} WHERE order_id = 1007

-- name: agg_bool_count_if
-- inputs: df=customers
SELECT bool_and(is_active) AS a, bool_or(is_active) AS b, every(score > 0) AS c, some(score > 90) AS e, count_if(is_active) AS f FROM {df}

-- name: agg_stats
-- inputs: df=nums
SELECT stddev(d) AS a, stddev_pop(d) AS b, var_samp(d) AS c, var_pop(i) AS e, std(t) AS f FROM {df} WHERE id NOT IN (4)

-- name: agg_stats_single_row
-- inputs: df=nums
SELECT stddev(d) AS a, variance(d) AS b FROM {df} WHERE id = 1

-- name: agg_corr_covar
-- inputs: df=nums
SELECT corr(i, d) AS a, covar_pop(i, d) AS b, covar_samp(t, s) AS c FROM {df} WHERE id NOT IN (4, 8)

-- name: agg_median_percentile
-- inputs: df=nums
SELECT median(i) AS a, percentile(i, 0.5) AS b, percentile(d, 0.9) AS c, percentile(t, array(0.25, 0.75)) AS e FROM {df} WHERE id NOT IN (4)

-- name: agg_max_by_min_by
-- inputs: df=customers
SELECT country, max_by(name, score) AS best, min_by(customer_id, signup_date) AS oldest FROM {df} GROUP BY country

-- name: agg_first_last
-- inputs: df=orders
SELECT first(status) AS a, last(status) AS b, first(note, true) IS NOT NULL AS c FROM (SELECT * FROM {df} WHERE order_id = 1001)

-- name: agg_any_value
-- inputs: df=orders
SELECT customer_id, any_value(channel) IS NOT NULL AS c FROM {df} WHERE customer_id = 1 GROUP BY customer_id

-- name: agg_global_empty
-- inputs: df=orders
SELECT count(*) AS n, sum(amount) AS s, avg(amount) AS a, max(amount) AS m FROM {df} WHERE order_id < 0

-- name: agg_distinct_sum_avg
-- inputs: df=orders
SELECT sum(DISTINCT quantity) AS a, avg(DISTINCT quantity) AS b FROM {df}

-- name: agg_grouping_sets
-- inputs: df=orders
SELECT channel, status, count(*) AS n FROM {df} GROUP BY GROUPING SETS ((channel), (status), ())

-- name: agg_cube
-- inputs: df=orders
SELECT channel, count(*) AS n, grouping(channel) AS g FROM {df} GROUP BY CUBE(channel)

-- name: agg_with_rollup
-- inputs: df=orders
SELECT customer_id, channel, sum(quantity) AS q FROM {df} GROUP BY customer_id, channel WITH ROLLUP

-- name: agg_names_default
-- inputs: df=orders
SELECT sum(amount), count(*), avg(quantity), max(status), count(DISTINCT channel) FROM {df}

-- name: agg_group_by_map_rejected
-- inputs: df=orders
SELECT attrs, count(*) FROM {df} GROUP BY attrs

-- name: agg_distinct_select
-- inputs: df=orders
SELECT DISTINCT customer_id, channel FROM {df}

-- name: agg_having_non_grouped
-- inputs: df=orders
SELECT channel FROM {df} GROUP BY channel HAVING amount > 1
