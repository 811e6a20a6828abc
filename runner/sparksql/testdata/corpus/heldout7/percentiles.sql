-- Round 7 (held out): weighted and descending percentiles, percentile_cont
-- and percentile_disc WITHIN GROUP (ORDER BY ... [DESC]) and their window
-- forms, written before their translation.

-- name: h7_pct_weighted_per_user
-- inputs: df=clicks
SELECT user_id, percentile(ms, 0.5, user_id) AS p50, percentile(ms, 0.9, 2) AS p90 FROM {df} GROUP BY user_id ORDER BY user_id

-- name: h7_pct_weighted_all
-- inputs: df=clicks
SELECT percentile(ms, 0.5, user_id) AS a, percentile(ms, 0.25, CAST(user_id AS BIGINT)) AS b, percentile(ms, array(0.1, 0.33, 0.9), user_id) AS c FROM {df}

-- name: h7_pct_weighted_zero_skipped
-- inputs: df=clicks
SELECT percentile(x, 0.5, w) AS p, percentile(x, array(0.0, 1.0), w) AS ends FROM VALUES (1, 0), (2, 3), (10, 1), (NULL, 5), (7, NULL), (100, 0) AS t(x, w)

-- name: h7_pct_weighted_negative
-- inputs: df=clicks
SELECT percentile(x, 0.5, w) AS p FROM VALUES (1, 2), (2, -1), (3, 1) AS t(x, w)

-- name: h7_pct_weighted_decimal_freq
-- inputs: df=money
SELECT percentile(cents, 0.5, amount) AS p FROM {df}

-- name: h7_pct_weighted_bigint_freq
-- inputs: df=money
SELECT percentile(amount, 0.5, cents) AS p, percentile(fx, 0.3, 5000000000L) AS q FROM {df} WHERE cents > 0

-- name: h7_pct_array_doubles
-- inputs: df=nums
SELECT percentile(d, array(0.0, 0.125, 0.5, 0.875, 1.0)) AS ds, percentile(f, array(0.2, 0.7)) AS fs FROM {df}

-- name: h7_pct_array_decimals
-- inputs: df=money
SELECT percentile(price, array(0.1, 0.5, 0.9)) AS p, percentile(amount, array(0.333, 0.667)) AS a FROM {df}

-- name: h7_pct_array_null_element
-- inputs: df=clicks
SELECT percentile(ms, array(0.5, NULL)) AS p FROM {df}

-- name: h7_pct_array_empty_group
-- inputs: df=clicks
SELECT percentile(ms, array(0.5, 0.9)) AS p FROM {df} WHERE ms > 100000

-- name: h7_pct_bigints_interpolation
-- inputs: df=nums
SELECT percentile(l, 0.5) AS a, percentile(l, 0.71) AS b, percentile(i, 0.37) AS c, percentile(t, 0.5) AS d, percentile(s, 0.9) AS e FROM {df}

-- name: h7_pct_long_precision
-- inputs: df=clicks
SELECT percentile(x, 0.5) AS a, percentile(x, 0.3) AS b FROM VALUES (9007199254740993L), (9007199254740995L), (9007199254740992L) AS t(x)

-- name: h7_pct_wide_decimals
-- inputs: df=nums
SELECT percentile(dec2, 0.5) AS a, percentile(dec2, 0.2) AS b, percentile(dec, 0.61) AS c FROM {df}

-- name: h7_pct_nan_infinity
-- inputs: df=clicks
SELECT percentile(x, array(0.0, 0.4, 0.5, 0.75, 1.0)) AS p FROM VALUES (CAST('NaN' AS DOUBLE)), (1.0D), (CAST('Infinity' AS DOUBLE)), (-5.5D), (CAST('-Infinity' AS DOUBLE)) AS t(x)

-- name: h7_pct_string_column
-- inputs: df=nums
SELECT percentile(str_num, 0.5) AS p, percentile_cont(0.25) WITHIN GROUP (ORDER BY str_num) AS c FROM {df}

-- name: h7_pct_distinct
-- inputs: df=clicks
SELECT percentile(DISTINCT user_id, 0.5) AS a, percentile(user_id, 0.5) AS b FROM {df}

-- name: h7_pct_filter_clause
-- inputs: df=clicks
SELECT percentile(ms, 0.5) FILTER (WHERE page = 'home') AS h, percentile_disc(0.5) WITHIN GROUP (ORDER BY ms) FILTER (WHERE page <> 'home') AS o FROM {df}

-- name: h7_cont_desc
-- inputs: df=clicks
SELECT user_id, percentile_cont(0.9) WITHIN GROUP (ORDER BY ms DESC) AS p90d, percentile_cont(0.1) WITHIN GROUP (ORDER BY ms) AS p10 FROM {df} GROUP BY user_id ORDER BY user_id

-- name: h7_cont_desc_doubles
-- inputs: df=clicks
SELECT percentile_cont(0.3) WITHIN GROUP (ORDER BY x DESC) AS a, percentile_cont(0.7) WITHIN GROUP (ORDER BY x) AS b, percentile_cont(0.33) WITHIN GROUP (ORDER BY x DESC) AS c FROM VALUES (0.1D), (0.7D), (2.3D), (1e10D), (-3.3333D) AS t(x)

-- name: h7_cont_array
-- inputs: df=clicks
SELECT percentile_cont(array(0.25, 0.5, 0.75)) WITHIN GROUP (ORDER BY ms) AS a, percentile_cont(array(0.25, 0.75)) WITHIN GROUP (ORDER BY ms DESC) AS d FROM {df}

-- name: h7_disc_basic
-- inputs: df=clicks
SELECT user_id, percentile_disc(0.5) WITHIN GROUP (ORDER BY ms) AS m, percentile_disc(0.26) WITHIN GROUP (ORDER BY ms) AS q, percentile_disc(0) WITHIN GROUP (ORDER BY ms) AS lo, percentile_disc(1) WITHIN GROUP (ORDER BY ms) AS hi FROM {df} GROUP BY user_id ORDER BY user_id

-- name: h7_disc_desc
-- inputs: df=clicks
SELECT percentile_disc(0.25) WITHIN GROUP (ORDER BY ms DESC) AS a, percentile_disc(0.75) WITHIN GROUP (ORDER BY ms DESC) AS b, percentile_disc(0.1) WITHIN GROUP (ORDER BY ms DESC) AS c FROM {df}

-- name: h7_disc_grid
-- inputs: df=clicks
SELECT percentile_disc(array(0.0, 0.1, 0.2, 0.25, 0.3, 0.4, 0.5, 0.6, 0.75, 0.8, 0.9, 0.99, 1.0)) WITHIN GROUP (ORDER BY x) AS p FROM VALUES (1), (2), (3), (4), (5), (6), (7) AS t(x)

-- name: h7_disc_decimal_and_double
-- inputs: df=money
SELECT percentile_disc(0.5) WITHIN GROUP (ORDER BY amount) AS a, percentile_disc(0.4) WITHIN GROUP (ORDER BY fx DESC) AS f, percentile_disc(0.5) WITHIN GROUP (ORDER BY price) AS p FROM {df}

-- name: h7_disc_duplicates
-- inputs: df=clicks
SELECT percentile_disc(array(0.2, 0.5, 0.8)) WITHIN GROUP (ORDER BY x) AS p, percentile_cont(0.5) WITHIN GROUP (ORDER BY x) AS c FROM VALUES (5), (5), (5), (1), (9), (9) AS t(x)

-- name: h7_disc_nulls_only
-- inputs: df=clicks
SELECT percentile_disc(0.5) WITHIN GROUP (ORDER BY ms) AS d, percentile_cont(0.5) WITHIN GROUP (ORDER BY ms DESC) AS c FROM {df} WHERE ms IS NULL

-- name: h7_disc_string_column
-- inputs: df=clicks
SELECT percentile_disc(0.5) WITHIN GROUP (ORDER BY page) AS p FROM {df}

-- name: h7_disc_two_orderings
-- inputs: df=clicks
SELECT percentile_disc(0.5) WITHIN GROUP (ORDER BY ms, user_id) AS p FROM {df}

-- name: h7_disc_non_constant
-- inputs: df=clicks
SELECT percentile_disc(ms / 1000.0) WITHIN GROUP (ORDER BY ms) AS p FROM {df}

-- name: h7_disc_out_of_range
-- inputs: df=clicks
SELECT percentile_disc(1.01) WITHIN GROUP (ORDER BY ms) AS p FROM {df}

-- name: h7_cont_null_percentage
-- inputs: df=clicks
SELECT percentile_cont(NULL) WITHIN GROUP (ORDER BY ms) AS p FROM {df}

-- name: h7_disc_without_within
-- inputs: df=clicks
SELECT percentile_disc(0.5) AS p FROM {df}

-- name: h7_cont_window_partition
-- inputs: df=clicks
SELECT user_id, ts, percentile_cont(0.5) WITHIN GROUP (ORDER BY ms) OVER (PARTITION BY user_id) AS c, percentile_disc(0.5) WITHIN GROUP (ORDER BY ms DESC) OVER (PARTITION BY user_id) AS d FROM {df} ORDER BY user_id, ts

-- name: h7_cont_window_ordered
-- inputs: df=clicks
SELECT user_id, percentile_cont(0.5) WITHIN GROUP (ORDER BY ms) OVER (PARTITION BY user_id ORDER BY ts) AS c FROM {df}

-- name: h7_disc_window_frame
-- inputs: df=clicks
SELECT user_id, percentile_disc(0.5) WITHIN GROUP (ORDER BY ms) OVER (PARTITION BY user_id ROWS BETWEEN 1 PRECEDING AND CURRENT ROW) AS d FROM {df}

-- name: h7_pct_window_running
-- inputs: df=clicks
SELECT user_id, ts, percentile(ms, 0.5) OVER (PARTITION BY user_id ORDER BY ts) AS run, percentile(ms, 0.5, 2) OVER (PARTITION BY user_id ORDER BY ts ROWS BETWEEN 1 PRECEDING AND 1 FOLLOWING) AS win FROM {df} ORDER BY user_id, ts

-- name: h7_pct_window_array
-- inputs: df=clicks
SELECT user_id, ts, percentile(ms, array(0.25, 0.75)) OVER (PARTITION BY user_id) AS q FROM {df} ORDER BY user_id, ts

-- name: h7_median_weighted_interval
-- inputs: df=clicks
SELECT median(x) AS m, percentile(x, 0.25) AS q, percentile_cont(0.5) WITHIN GROUP (ORDER BY x DESC) AS c FROM VALUES (INTERVAL '1' SECOND), (INTERVAL '4' SECOND), (INTERVAL '2' DAY) AS t(x)

-- name: h7_pct_interval_truncation
-- inputs: df=clicks
SELECT percentile(x, 0.333) AS p, percentile_disc(0.5) WITHIN GROUP (ORDER BY x) AS d FROM VALUES (INTERVAL '0.000001' SECOND), (INTERVAL '0.000002' SECOND) AS t(x)

-- name: h7_pct_date_refused_by_spark
-- inputs: df=clicks
SELECT percentile(ts, 0.5) AS p FROM {df}

-- name: h7_pct_having_and_order
-- inputs: df=clicks
SELECT user_id, percentile_cont(0.5) WITHIN GROUP (ORDER BY ms DESC) AS m FROM {df} GROUP BY user_id HAVING percentile_disc(0.5) WITHIN GROUP (ORDER BY ms) > 60 ORDER BY m DESC

-- name: h7_pct_signed_zero
-- inputs: df=nums
SELECT percentile(f, 0.5) AS a, percentile_disc(0.4) WITHIN GROUP (ORDER BY d) AS b FROM {df} WHERE id IN (3, 8)
