-- Round 8 (development): the aggregates of the held-out part around its
-- edges: which rows regr_slope's variance reads, listagg's delimiter and
-- ordering rules, bit aggregates of every integral type, moments of
-- small and shifted groups, corr's ANSI division, and nested FROM-less
-- generators.

-- name: r8_regr_slope_unpaired_x
-- inputs: df=clicks
SELECT regr_slope(y, x) AS s, regr_intercept(y, x) AS i, regr_r2(y, x) AS r2, regr_sxx(y, x) AS sxx FROM VALUES (1.0D, 1.0D), (2.0D, 3.0D), (10.0D, NULL), (20.0D, NULL) AS t(x, y)

-- name: r8_regr_slope_no_pairs
-- inputs: df=clicks
SELECT regr_slope(y, x) AS s, regr_intercept(y, x) AS i, regr_count(y, x) AS n, regr_sxy(y, x) AS sxy, regr_avgx(y, x) AS ax FROM VALUES (1.0D, NULL), (2.0D, NULL), (NULL, 4.0D) AS t(x, y)

-- name: r8_regr_unpaired_y
-- inputs: df=clicks
SELECT regr_slope(y, x) AS s, regr_r2(y, x) AS r2, regr_syy(y, x) AS syy FROM VALUES (1.0D, 1.0D), (2.0D, 3.0D), (NULL, 50.0D), (3.0D, 4.0D) AS t(x, y)

-- name: r8_regr_decimal_inputs
-- inputs: df=money
SELECT regr_slope(amount, price) AS s, regr_avgy(amount, rate) AS ay, typeof(regr_avgy(amount, rate)) AS t, regr_count(cents, fx) AS n, regr_sxx(cents, fx) AS sxx FROM {df}

-- name: r8_regr_bool_arg
-- inputs: df=nums
SELECT regr_count(i, b) AS n FROM {df}

-- name: r8_regr_string_numbers
-- inputs: df=csv5
SELECT regr_avgx(qty, amount) AS ax, regr_count(qty, amount) AS n FROM {df} WHERE amount RLIKE '^[0-9.]+$' AND qty RLIKE '^[0-9]+$'

-- name: r8_regr_filter_grouping_sets
-- inputs: df=orders
SELECT channel, regr_slope(amount, quantity) FILTER (WHERE status <> 'cancelled') AS s, regr_count(amount, quantity) AS n FROM {df} GROUP BY GROUPING SETS ((channel), ())

-- name: r8_skew_shifted_values
-- inputs: df=clicks
SELECT skewness(x) AS s, kurtosis(x) AS k FROM VALUES (1000000000.1D), (1000000000.2D), (1000000000.7D), (1000000001.5D) AS t(x)

-- name: r8_skew_two_rows
-- inputs: df=clicks
SELECT skewness(x) AS s, kurtosis(x) AS k FROM VALUES (1.0D), (4.0D) AS t(x)

-- name: r8_skew_decimal_string
-- inputs: df=money
SELECT skewness(amount) AS sa, kurtosis(rate) AS kr, skewness(CAST(cents AS STRING)) AS sc FROM {df}

-- name: r8_skew_nan_inf
-- inputs: df=clicks
SELECT skewness(x) AS s, kurtosis(x) AS k FROM VALUES (1.0D), (CAST('Infinity' AS DOUBLE)), (2.0D) AS t(x)

-- name: r8_skew_bool_arg
-- inputs: df=nums
SELECT skewness(b) AS s FROM {df}

-- name: r8_kurt_running_window
-- inputs: df=history
SELECT id, seq, kurtosis(amount) OVER (ORDER BY id, seq ROWS BETWEEN UNBOUNDED PRECEDING AND CURRENT ROW) AS k, skewness(seq) OVER (PARTITION BY op) AS s FROM {df} WHERE id IS NOT NULL

-- name: r8_bit_decimal_arg
-- inputs: df=orders
SELECT bit_or(amount) AS o FROM {df}

-- name: r8_bit_all_types
-- inputs: df=nums
SELECT bit_and(t) AS t, bit_or(s) AS s, bit_xor(i) AS i, bit_and(l) AS l, bit_xor(CAST(t AS TINYINT)) AS tt FROM {df} WHERE id IN (1, 2, 6, 7)

-- name: r8_bit_double_arg
-- inputs: df=nums
SELECT bit_xor(d) AS x FROM {df}

-- name: r8_bit_over_partition
-- inputs: df=history
SELECT id, seq, bit_xor(seq) OVER (PARTITION BY id) AS x, bit_and(seq) OVER (PARTITION BY id ORDER BY seq) AS a FROM {df} WHERE id IS NOT NULL

-- name: r8_bit_having
-- inputs: df=clicks
SELECT user_id, bit_or(ms) AS o FROM {df} GROUP BY user_id HAVING bit_and(ms) > 0

-- name: r8_listagg_null_delim
-- inputs: df=clicks
SELECT listagg(page, NULL) WITHIN GROUP (ORDER BY ts) AS a FROM {df} WHERE user_id = 2

-- name: r8_listagg_column_delim
-- inputs: df=clicks
SELECT listagg(page, ref) WITHIN GROUP (ORDER BY ts) AS a FROM {df}

-- name: r8_listagg_distinct_other_order
-- inputs: df=clicks
SELECT listagg(DISTINCT page, ',') WITHIN GROUP (ORDER BY ts) AS a FROM {df}

-- name: r8_listagg_distinct_same_order_desc
-- inputs: df=clicks
SELECT user_id, listagg(DISTINCT page, ',') WITHIN GROUP (ORDER BY page DESC) AS a FROM {df} GROUP BY user_id

-- name: r8_listagg_two_keys
-- inputs: df=clicks
SELECT listagg(page, '/') WITHIN GROUP (ORDER BY user_id DESC, ts) AS a FROM {df}

-- name: r8_listagg_nulls_first_key
-- inputs: df=clicks
SELECT listagg(page, ',') WITHIN GROUP (ORDER BY ref) AS a, listagg(page, ',') WITHIN GROUP (ORDER BY ref DESC) AS b FROM {df} WHERE user_id = 3 OR user_id IS NULL

-- name: r8_listagg_double_values
-- inputs: df=nums
SELECT listagg(d, ' ') WITHIN GROUP (ORDER BY id) AS a, listagg(dec, ' ') WITHIN GROUP (ORDER BY id) AS b FROM {df}

-- name: r8_listagg_window
-- inputs: df=clicks
SELECT user_id, ts, listagg(page, '>') WITHIN GROUP (ORDER BY ts) OVER (PARTITION BY user_id) AS path FROM {df}

-- name: r8_string_agg_bool
-- inputs: df=nums
SELECT string_agg(b, ',') WITHIN GROUP (ORDER BY id) AS a FROM {df}

-- name: r8_listagg_single_row_groups
-- inputs: df=history
SELECT id, seq, listagg(status, ',') AS s FROM {df} GROUP BY id, seq

-- name: r8_corr_single_rows
-- inputs: df=clicks
SELECT user_id, corr(ms, ms) AS c, covar_samp(ms, ms) AS cs, covar_pop(ms, ms) AS cp FROM {df} WHERE user_id IS NULL OR user_id = 1 GROUP BY user_id

-- name: r8_corr_constant_after_filter
-- inputs: df=clicks
SELECT corr(ms, user_id) FILTER (WHERE user_id = 1) AS c FROM {df}

-- name: r8_corr_with_nan
-- inputs: df=clicks
SELECT corr(x, y) AS c, covar_samp(x, y) AS cs FROM VALUES (1.0D, 2.0D), (CAST('NaN' AS DOUBLE), 2.0D), (3.0D, 2.0D) AS t(x, y)

-- name: r8_corr_empty
-- inputs: df=clicks
SELECT corr(ms, ms) AS c, regr_r2(ms, ms) AS r2 FROM {df} WHERE ms < 0

-- name: r8_pct_approx_over_one
-- inputs: df=clicks
SELECT approx_percentile(ms, array(0.5, 1.01)) AS p FROM {df}

-- name: r8_pct_cont_negative_literal
-- inputs: df=clicks
SELECT percentile_cont(-0.5) WITHIN GROUP (ORDER BY ms) AS p FROM {df}

-- name: r8_median_ok_percentile_bad
-- inputs: df=clicks
SELECT median(ms) AS m, percentile(ms, 10) AS p FROM {df} GROUP BY user_id

-- name: r8_pct_const_expr_grouped_empty
-- inputs: df=clicks
SELECT user_id, percentile(ms, 0.5 + 1) AS p FROM {df} WHERE ms < 0 GROUP BY user_id

-- name: r8_pivot_null_value
-- inputs: df=clicks
SELECT * FROM (SELECT user_id, ref, ms FROM {df}) PIVOT (sum(ms) FOR ref IN ('google', NULL))

-- name: r8_pivot_int_values_count
-- inputs: df=clicks
SELECT * FROM (SELECT user_id, page FROM {df}) PIVOT (count(*) FOR user_id IN (1, 2 AS two))

-- name: r8_pivot_count_and_min
-- inputs: df=clicks
SELECT * FROM (SELECT user_id, page, ms FROM {df}) PIVOT (count(ms) AS n, min(page) AS p FOR user_id IN (1, 3))

-- name: r8_pivot_collect_list
-- inputs: df=clicks
SELECT * FROM (SELECT user_id, page, ms FROM {df}) PIVOT (collect_list(ms) FOR page IN ('cart', 'home'))

-- name: r8_pivot_no_grouping_column
-- inputs: df=clicks
SELECT * FROM (SELECT page, ms FROM {df}) PIVOT (sum(ms) FOR page IN ('home', 'cart'))

-- name: r8_pivot_alias_after
-- inputs: df=clicks
SELECT p.user_id, p.home FROM (SELECT user_id, page, ms FROM {df}) PIVOT (max(ms) FOR page IN ('home')) AS p WHERE p.user_id IS NOT NULL

-- name: r8_pivot_count_distinct_filter
-- inputs: df=clicks
SELECT * FROM (SELECT user_id, page, ref FROM {df}) PIVOT (count(DISTINCT page) FILTER (WHERE ref IS NOT NULL) AS n FOR user_id IN (1, 2))

-- name: r8_unpivot_aliases
-- inputs: df=clicks
SELECT * FROM (SELECT page, ms, user_id FROM {df} WHERE page = 'cart' OR user_id IS NULL) UNPIVOT (v FOR k IN (ms AS m, user_id AS u))

-- name: r8_unpivot_mixed_types
-- inputs: df=clicks
SELECT * FROM (SELECT user_id, page, ms FROM {df}) UNPIVOT (v FOR k IN (page, ms))

-- name: r8_unpivot_decimal_int
-- inputs: df=orders
SELECT * FROM (SELECT order_id, amount, quantity FROM {df} WHERE order_id < 1004) UNPIVOT INCLUDE NULLS (v FOR k IN (amount, quantity))

-- name: r8_listagg_unaliased_names
-- inputs: df=clicks
SELECT user_id, listagg(page), listagg(page, ','), string_agg(DISTINCT page, '|'), listagg(page, '-') WITHIN GROUP (ORDER BY ts) FROM {df} WHERE user_id IS NOT NULL GROUP BY user_id
