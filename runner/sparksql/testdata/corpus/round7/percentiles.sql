-- Round 7 (development): the percentile family around the held-out part:
-- grids of group sizes and percentages for percentile_disc and
-- percentile_cont in both directions, weighted grids, the types Spark
-- casts a frequency and a percentage from, DISTINCT over signed zeros,
-- YEAR TO MONTH intervals, constant expressions as percentages, empty
-- arrays of percentages, window forms of median and mode.

-- name: r7_disc_grid_sizes
-- inputs: df=clicks
SELECT n, percentile_disc(array(0.0, 0.1, 0.2, 0.25, 0.3, 0.333, 0.4, 0.5, 0.6, 0.667, 0.7, 0.75, 0.8, 0.9, 0.99, 1.0)) WITHIN GROUP (ORDER BY x) AS d FROM (SELECT n, explode(sequence(1, n)) AS x FROM (SELECT explode(sequence(1, 12)) AS n FROM VALUES (0) AS z(z))) GROUP BY n ORDER BY n

-- name: r7_disc_desc_grid_sizes
-- inputs: df=clicks
SELECT n, percentile_disc(array(0.0, 0.1, 0.2, 0.25, 0.3, 0.333, 0.4, 0.5, 0.6, 0.667, 0.7, 0.75, 0.8, 0.9, 0.99, 1.0)) WITHIN GROUP (ORDER BY x DESC) AS d FROM (SELECT n, explode(sequence(1, n)) AS x FROM (SELECT explode(sequence(1, 12)) AS n FROM VALUES (0) AS z(z))) GROUP BY n ORDER BY n

-- name: r7_cont_desc_grid_sizes
-- inputs: df=clicks
SELECT n, percentile_cont(array(0.0, 0.1, 0.2, 0.25, 0.3, 0.333, 0.4, 0.5, 0.6, 0.667, 0.7, 0.75, 0.8, 0.9, 0.99, 1.0)) WITHIN GROUP (ORDER BY x * 0.1D DESC) AS c, percentile(x * 0.1D, array(0.1, 0.7, 0.9)) AS p FROM (SELECT n, explode(sequence(1, n)) AS x FROM (SELECT explode(sequence(1, 12)) AS n FROM VALUES (0) AS z(z))) GROUP BY n ORDER BY n

-- name: r7_pct_weighted_grid
-- inputs: df=clicks
SELECT n, percentile(x, array(0.0, 0.15, 0.5, 0.77, 1.0), x % 3) AS w, percentile(x * 1.1D, array(0.3, 0.6), CAST(n - x AS TINYINT)) AS t FROM (SELECT n, explode(sequence(1, n)) AS x FROM (SELECT explode(sequence(1, 9)) AS n FROM VALUES (0) AS z(z))) GROUP BY n ORDER BY n

-- name: r7_pct_string_frequency
-- inputs: df=clicks
SELECT percentile(ms, 0.5, '2') AS p FROM {df}

-- name: r7_pct_double_frequency
-- inputs: df=clicks
SELECT percentile(ms, 0.5, 2.0D) AS p FROM {df}

-- name: r7_pct_null_frequency_literal
-- inputs: df=clicks
SELECT percentile(ms, 0.5, NULL) AS p, percentile(ms, array(0.5), CAST(NULL AS INT)) AS q FROM {df}

-- name: r7_pct_distinct_signed_zeros
-- inputs: df=clicks
SELECT percentile(DISTINCT x, array(0.0, 0.5, 1.0)) AS d, percentile(x, array(0.0, 0.5, 1.0)) AS a FROM VALUES (-0.0D), (0.0D), (-0.0D) AS t(x)

-- name: r7_pct_distinct_weighted
-- inputs: df=clicks
SELECT percentile(DISTINCT x, 0.5, w) AS d, percentile(x, 0.5, w) AS a FROM VALUES (1, 2), (1, 2), (5, 1), (5, 3), (9, 1) AS t(x, w)

-- name: r7_pct_year_month_interval
-- inputs: df=clicks
SELECT DATE '2000-01-31' + percentile(x, 0.5) AS a, transform(percentile(x, array(0.25, 0.9)), v -> DATE '2000-01-31' + v) AS b, DATE '2000-01-31' + median(x) AS m, DATE '2000-01-31' + percentile_disc(0.7) WITHIN GROUP (ORDER BY x DESC) AS d, typeof(percentile(x, 0.5)) AS t, typeof(percentile_cont(0.5) WITHIN GROUP (ORDER BY INTERVAL '7' MONTH)) AS tm FROM VALUES (INTERVAL '1-2' YEAR TO MONTH), (INTERVAL '3-0' YEAR TO MONTH), (INTERVAL '-0-5' YEAR TO MONTH) AS t(x)

-- name: r7_disc_day_time_interval
-- inputs: df=clicks
SELECT percentile_disc(0.5) WITHIN GROUP (ORDER BY x) AS d, percentile_cont(0.4) WITHIN GROUP (ORDER BY x DESC) AS c FROM VALUES (INTERVAL '1 02:00:00' DAY TO SECOND), (INTERVAL '0 00:00:01.5' DAY TO SECOND), (INTERVAL '-3 00:00:00' DAY TO SECOND) AS t(x)

-- name: r7_pct_float_values
-- inputs: df=clicks
SELECT percentile(x, array(0.1, 0.5, 0.9)) AS p, percentile_disc(0.5) WITHIN GROUP (ORDER BY x) AS d FROM VALUES (CAST(0.1 AS FLOAT)), (CAST(2.7 AS FLOAT)), (CAST(-1.3 AS FLOAT)), (CAST(1e30 AS FLOAT)) AS t(x)

-- name: r7_pct_constant_expressions
-- inputs: df=clicks
SELECT percentile(ms, 1/4) AS a, percentile(ms, CAST('0.5' AS DOUBLE)) AS b, percentile_cont(1 - 0.1) WITHIN GROUP (ORDER BY ms) AS c FROM {df}

-- name: r7_pct_constant_out_of_range
-- inputs: df=clicks
SELECT percentile(ms, 1 / 0.5) AS a FROM {df}

-- name: r7_pct_string_percentage
-- inputs: df=clicks
SELECT percentile(ms, '0.5') AS a FROM {df}

-- name: r7_pct_negative_zero_percentage
-- inputs: df=clicks
SELECT percentile(ms, -0.0) AS a, percentile_disc(-0.0) WITHIN GROUP (ORDER BY ms) AS b FROM {df}

-- name: r7_pct_empty_array
-- inputs: df=clicks
SELECT percentile(ms, array()) AS a FROM {df}

-- name: r7_pct_integer_array
-- inputs: df=clicks
SELECT percentile(ms, array(0, 1)) AS a, percentile_disc(array(1, 0)) WITHIN GROUP (ORDER BY ms DESC) AS b FROM {df}

-- name: r7_median_window_running
-- inputs: df=clicks
SELECT user_id, ts, median(ms) OVER (PARTITION BY user_id ORDER BY ts) AS m, percentile(ms, 0.25, 2) OVER (ORDER BY ts ROWS BETWEEN 1 PRECEDING AND 1 FOLLOWING) AS p FROM {df} ORDER BY ts, user_id

-- name: r7_cont_window_partition_desc
-- inputs: df=clicks
SELECT user_id, ts, percentile_cont(0.25) WITHIN GROUP (ORDER BY ms DESC) OVER (PARTITION BY user_id) AS c, percentile_disc(0.75) WITHIN GROUP (ORDER BY ms) OVER () AS d FROM {df} ORDER BY ts, user_id

-- name: r7_median_window_partition_frame
-- inputs: df=clicks
SELECT user_id, ts, median(ms) OVER (PARTITION BY user_id) AS m FROM {df} ORDER BY ts, user_id

-- name: r7_median_window_frame
-- inputs: df=clicks
SELECT user_id, median(ms) OVER (PARTITION BY user_id ROWS BETWEEN UNBOUNDED PRECEDING AND UNBOUNDED FOLLOWING) AS m FROM {df}

-- name: r7_mode_within_window_ordered
-- inputs: df=clicks
SELECT user_id, mode() WITHIN GROUP (ORDER BY ms) OVER (PARTITION BY user_id ORDER BY ts) AS m FROM {df}

-- name: r7_pct_rollup
-- inputs: df=clicks
SELECT user_id, page, percentile(ms, 0.5) AS p, percentile_disc(0.5) WITHIN GROUP (ORDER BY ms DESC) AS d FROM {df} GROUP BY ROLLUP(user_id, page) ORDER BY user_id NULLS LAST, page NULLS LAST, p DESC

-- name: r7_pct_decimal_frequency_cast
-- inputs: df=money
SELECT percentile(cents, 0.5, CAST(amount AS BIGINT)) AS p FROM {df} WHERE amount >= 0

-- name: r7_pct_boolean_values
-- inputs: df=customers
SELECT percentile(is_active, 0.5) AS p FROM {df}

-- name: r7_pct_int_frequency_overflow_safe
-- inputs: df=clicks
SELECT percentile(x, array(0.5, 0.999999), w) AS p FROM VALUES (1, 4000000000000000000L), (2, 4000000000000000000L), (3, 1L) AS t(x, w)

-- name: r7_pct_nan_weighted
-- inputs: df=clicks
SELECT percentile(x, array(0.2, 0.5, 0.8), w) AS p, percentile_disc(0.5) WITHIN GROUP (ORDER BY x DESC) AS d FROM VALUES (CAST('NaN' AS DOUBLE), 3), (1.0D, 1), (CAST('NaN' AS DOUBLE), 2), (-2.0D, 4) AS t(x, w)

-- name: r7_median_within_group
-- inputs: df=clicks
SELECT median(ms) WITHIN GROUP (ORDER BY ms) AS m FROM {df}

-- name: r7_percentile_within_group
-- inputs: df=clicks
SELECT percentile(0.5) WITHIN GROUP (ORDER BY ms) AS m FROM {df}

-- name: r7_cont_two_args
-- inputs: df=clicks
SELECT percentile_cont(ms, 0.5) AS m FROM {df}

-- name: r7_sum_within_group
-- inputs: df=clicks
SELECT sum(ms) WITHIN GROUP (ORDER BY ts) AS s FROM {df}

-- name: r7_upper_within_group
-- inputs: df=clicks
SELECT upper(page) WITHIN GROUP (ORDER BY ts) AS s FROM {df}

-- name: r7_collect_list_within_group
-- inputs: df=clicks
SELECT user_id, collect_list(ms) WITHIN GROUP (ORDER BY ts) AS s FROM {df} GROUP BY user_id

-- name: r7_win_cont_range_unbounded
-- inputs: df=clicks
SELECT user_id, percentile_cont(0.5) WITHIN GROUP (ORDER BY ms) OVER (PARTITION BY user_id RANGE BETWEEN UNBOUNDED PRECEDING AND UNBOUNDED FOLLOWING) AS c FROM {df}

-- name: r7_win_disc_rows_unbounded
-- inputs: df=clicks
SELECT user_id, percentile_disc(0.25) WITHIN GROUP (ORDER BY ms DESC) OVER (ROWS BETWEEN UNBOUNDED PRECEDING AND UNBOUNDED FOLLOWING) AS d FROM {df}

-- name: r7_win_median_running_rows
-- inputs: df=clicks
SELECT user_id, median(ms) OVER (PARTITION BY user_id ROWS BETWEEN UNBOUNDED PRECEDING AND CURRENT ROW) AS m FROM {df}

-- name: r7_win_median_ordered_unbounded
-- inputs: df=clicks
SELECT user_id, median(ms) OVER (PARTITION BY user_id ORDER BY ts ROWS BETWEEN UNBOUNDED PRECEDING AND UNBOUNDED FOLLOWING) AS m FROM {df}

-- name: r7_win_cont_rows_start_only
-- inputs: df=clicks
SELECT user_id, percentile_cont(0.5) WITHIN GROUP (ORDER BY ms) OVER (PARTITION BY user_id ROWS UNBOUNDED PRECEDING) AS c FROM {df}

-- name: r7_win_percentile_ordered
-- inputs: df=clicks
SELECT user_id, percentile(ms, array(0.5, 0.9)) OVER (PARTITION BY user_id ORDER BY ts DESC) AS p FROM {df}
