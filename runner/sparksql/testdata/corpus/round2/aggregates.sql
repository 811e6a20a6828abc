-- Round 2: aggregates data engineers write, written before the round-2
-- fixes.

-- name: r2_agg_count_if_filter
-- inputs: df=orders
SELECT count_if(status = 'shipped') AS shipped, count(*) FILTER (WHERE amount > 100) AS big, sum(amount) FILTER (WHERE channel = 'web') AS web FROM {df}

-- name: r2_agg_bool_and_or
-- inputs: df=customers
SELECT country, bool_and(is_active) AS all_active, bool_or(is_active) AS any_active, every(score > 50) AS all_good, some(score > 90) AS one_great FROM {df} GROUP BY country

-- name: r2_agg_collect_sorted
-- inputs: df=orders
SELECT customer_id, sort_array(collect_list(status)) AS statuses, array_sort(collect_set(channel)) AS channels FROM {df} GROUP BY customer_id

-- name: r2_agg_collect_list_nulls
-- inputs: df=orders
SELECT sort_array(collect_list(channel)) AS chans, size(collect_list(channel)) AS n FROM {df}

-- name: r2_agg_array_agg
-- inputs: df=orders
SELECT customer_id, array_sort(array_agg(order_id)) AS ids FROM {df} GROUP BY customer_id

-- name: r2_agg_percentile_exact
-- inputs: df=orders
SELECT percentile(amount, 0.5) AS p50, percentile(quantity, 0.9) AS p90 FROM {df}

-- name: r2_agg_percentile_array
-- inputs: df=orders
SELECT percentile(quantity, array(0.25, 0.5, 0.75)) AS qs FROM {df}

-- name: r2_agg_median
-- inputs: df=orders
SELECT channel, median(amount) AS med FROM {df} GROUP BY channel

-- name: r2_agg_median_ints
-- inputs: df=nums
SELECT median(i) AS mi, median(d) AS md FROM {df}

-- name: r2_agg_percentile_approx
-- inputs: df=orders
SELECT percentile_approx(amount, 0.5) AS p50, approx_percentile(quantity, 0.5, 10000) AS q50 FROM {df}

-- name: r2_agg_percentile_cont
-- inputs: df=orders
SELECT percentile_cont(0.5) WITHIN GROUP (ORDER BY amount) AS pc, percentile_disc(0.5) WITHIN GROUP (ORDER BY amount) AS pd FROM {df}

-- name: r2_agg_mode
-- inputs: df=orders
SELECT mode(channel) AS top_channel FROM {df} WHERE channel <> 'store'

-- name: r2_agg_mode_grouped
-- inputs: df=history
SELECT id, mode(op) AS common_op FROM {df} WHERE id IN (1, 4) GROUP BY id

-- name: r2_agg_approx_count_distinct
-- inputs: df=orders
SELECT approx_count_distinct(customer_id) AS n, count(DISTINCT customer_id) AS exact FROM {df}

-- name: r2_agg_count_distinct_multi
-- inputs: df=orders
SELECT count(DISTINCT customer_id, channel) AS n FROM {df}

-- name: r2_agg_sum_distinct
-- inputs: df=orders
SELECT sum(DISTINCT quantity) AS sq, avg(DISTINCT quantity) AS aq FROM {df}

-- name: r2_agg_stddev_variance
-- inputs: df=orders
SELECT round(stddev(amount), 6) AS sd, round(stddev_pop(amount), 6) AS sdp, round(variance(quantity), 6) AS v, round(var_pop(quantity), 6) AS vp FROM {df}

-- name: r2_agg_corr_covar
-- inputs: df=orders
SELECT round(corr(quantity, amount), 9) AS c, round(covar_samp(quantity, amount), 6) AS cs, round(covar_pop(quantity, amount), 6) AS cp FROM {df}

-- name: r2_agg_min_max_strings_dates
-- inputs: df=orders
SELECT min(status) AS mn, max(status) AS mx, min(ship_date) AS d0, max(ordered_at) AS t1 FROM {df}

-- name: r2_agg_max_array
-- inputs: df=orders
SELECT max(tags) AS mx, min(tags) AS mn FROM {df}

-- name: r2_agg_grouping_sets
-- inputs: df=orders
SELECT channel, status, sum(quantity) AS q FROM {df} GROUP BY GROUPING SETS ((channel), (status), ())

-- name: r2_agg_rollup_grouping_id
-- inputs: df=orders
SELECT channel, customer_id, grouping_id() AS gid, count(*) AS n FROM {df} GROUP BY ROLLUP (channel, customer_id)

-- name: r2_agg_cube_grouping
-- inputs: df=orders
SELECT channel, grouping(channel) AS g, count(*) AS n FROM {df} GROUP BY CUBE (channel)

-- name: r2_agg_grouping_without_sets
-- inputs: df=orders
SELECT channel, grouping(channel) AS g FROM {df} GROUP BY channel

-- name: r2_agg_rollup_totals_label
-- inputs: df=orders
SELECT coalesce(channel, CASE WHEN grouping(channel) = 1 THEN 'ALL' END) AS ch, sum(amount) AS total FROM {df} GROUP BY ROLLUP (channel)

-- name: r2_agg_group_by_all
-- inputs: df=orders
SELECT channel, status, count(*) AS n FROM {df} GROUP BY ALL

-- name: r2_agg_group_by_ordinal
-- inputs: df=orders
SELECT upper(status) AS s, count(*) AS n FROM {df} GROUP BY 1

-- name: r2_agg_having_alias
-- inputs: df=orders
SELECT customer_id, sum(amount) AS total FROM {df} GROUP BY customer_id HAVING total > 100

-- name: r2_agg_having_count
-- inputs: df=orders
SELECT customer_id FROM {df} GROUP BY customer_id HAVING count(*) > 1

-- name: r2_agg_pivot
-- inputs: df=orders
SELECT * FROM (SELECT channel, status, quantity FROM {df}) PIVOT (sum(quantity) FOR status IN ('shipped', 'pending', 'returned'))

-- name: r2_agg_pivot_alias
-- inputs: df=orders
SELECT * FROM (SELECT customer_id, channel, amount FROM {df}) PIVOT (sum(amount) AS total, count(*) AS n FOR channel IN ('web' AS web, 'app' AS app))

-- name: r2_agg_unpivot
-- inputs: df=customers
SELECT * FROM (SELECT customer_id, name, email FROM {df}) UNPIVOT (val FOR col IN (name, email))

-- name: r2_agg_manual_pivot
-- inputs: df=orders
SELECT customer_id, sum(CASE WHEN channel = 'web' THEN amount ELSE 0 END) AS web, sum(CASE WHEN channel = 'app' THEN amount ELSE 0 END) AS app FROM {df} GROUP BY customer_id

-- name: r2_agg_transform_collect_list
-- inputs: df=orders
SELECT customer_id, transform(sort_array(collect_list(quantity)), q -> q * 2) AS doubled FROM {df} GROUP BY customer_id

-- name: r2_agg_filter_collect_list
-- inputs: df=orders
SELECT customer_id, filter(collect_list(status), s -> s <> 'cancelled') AS kept FROM {df} WHERE customer_id IN (3, 4) GROUP BY customer_id

-- name: r2_agg_aggregate_lambda_over_agg
-- inputs: df=orders
SELECT customer_id, aggregate(collect_list(quantity), 0, (acc, q) -> acc + coalesce(q, 0)) AS total_q FROM {df} GROUP BY customer_id

-- name: r2_agg_size_collect_set
-- inputs: df=orders
SELECT customer_id, size(collect_set(channel)) AS n_channels FROM {df} GROUP BY customer_id

-- name: r2_agg_array_distinct_flatten
-- inputs: df=orders
SELECT array_sort(array_distinct(flatten(collect_list(tags)))) AS all_tags FROM {df}

-- name: r2_agg_max_by_struct_tie_break
-- inputs: df=orders
SELECT customer_id, max_by(order_id, ordered_at) AS last_order FROM {df} GROUP BY customer_id

-- name: r2_agg_count_star_vs_col
-- inputs: df=orders
SELECT count(*) AS a, count(1) AS b, count(customer_id) AS c, count(ship_date) AS d FROM {df}

-- name: r2_agg_empty_input
-- inputs: df=orders
SELECT count(*) AS n, sum(amount) AS s, max(status) AS m, collect_list(status) AS l FROM {df} WHERE order_id < 0

-- name: r2_agg_empty_grouped
-- inputs: df=orders
SELECT channel, count(*) AS n FROM {df} WHERE order_id < 0 GROUP BY channel

-- name: r2_agg_nested_agg_error
-- inputs: df=orders
SELECT sum(max(amount)) AS x FROM {df}

-- name: r2_agg_avg_int_type
-- inputs: df=orders
SELECT avg(quantity) AS a, sum(quantity) AS s, avg(discount) AS d FROM {df}

-- name: r2_agg_kurtosis_skewness
-- inputs: df=nums
SELECT round(skewness(d), 6) AS sk, round(kurtosis(i), 6) AS ku FROM {df} WHERE id IN (1, 2, 3, 6, 7)

-- name: r2_agg_bit_and_or
-- inputs: df=nums
SELECT bit_and(t) AS a, bit_or(t) AS o, bit_xor(t) AS x FROM {df}

-- name: r2_agg_histogram_count_by_bucket
-- inputs: df=orders
SELECT floor(amount / 100) * 100 AS bucket, count(*) AS n FROM {df} GROUP BY floor(amount / 100) * 100

-- name: r2_agg_listagg
-- inputs: df=orders
SELECT listagg(status, ',') WITHIN GROUP (ORDER BY status) AS s FROM {df}

-- name: r2_agg_string_agg
-- inputs: df=orders
SELECT customer_id, string_agg(channel, '|') WITHIN GROUP (ORDER BY order_id) AS chans FROM {df} GROUP BY customer_id

-- name: r2_agg_concat_ws_collect
-- inputs: df=orders
SELECT customer_id, concat_ws(',', sort_array(collect_list(status))) AS s FROM {df} GROUP BY customer_id

-- name: r2_agg_regr
-- inputs: df=orders
SELECT round(regr_slope(amount, quantity), 6) AS slope, regr_count(amount, quantity) AS n FROM {df}

-- name: r2_agg_lambda_ungrouped_column
-- inputs: df=orders
SELECT customer_id, transform(collect_list(quantity), q -> q * order_id) AS xs FROM {df} GROUP BY customer_id

-- name: r2_agg_lambda_grouped_column
-- inputs: df=orders
SELECT customer_id, transform(sort_array(collect_list(quantity)), q -> q * customer_id) AS xs FROM {df} GROUP BY customer_id

-- name: r2_agg_stddev_nonfinite
-- inputs: df=nums
SELECT stddev(x) AS sd, variance(x) AS v, var_pop(x) AS vp, corr(x, y) AS c, covar_samp(x, y) AS cs FROM VALUES (1.0D, 2.0D), (CAST('Infinity' AS DOUBLE), 1.0D), (3.0D, CAST('NaN' AS DOUBLE)) AS t(x, y)

-- name: r2_agg_stddev_one_row
-- inputs: df=nums
SELECT stddev(d) AS sd, stddev_pop(d) AS sp, variance(d) AS v FROM {df} WHERE id = 1
