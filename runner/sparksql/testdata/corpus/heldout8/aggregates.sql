-- Held-out round 8: aggregates a data engineer writes over landing and
-- fact data (bit_and/bit_or/bit_xor, skewness/kurtosis, the regr_ family,
-- listagg/string_agg, covar/corr with NULLs, PIVOT/UNPIVOT, FILTER
-- clauses, grouping sets with these) and constant out-of-range
-- percentages. Written, and run through Spark 4.2, before the code it
-- tests.

-- name: h8_bit_ints
-- inputs: df=nums
SELECT bit_and(i) AS a, bit_or(i) AS o, bit_xor(i) AS x, bit_and(t) AS ta, bit_or(s) AS so, bit_xor(l) AS lx, typeof(bit_or(t)) AS ty FROM {df}

-- name: h8_bit_grouped_empty
-- inputs: df=nums
SELECT b, bit_or(i) AS o, bit_xor(t) AS x, bit_and(s) AS a FROM {df} WHERE id <> 3 GROUP BY b

-- name: h8_bit_empty_input
-- inputs: df=nums
SELECT bit_and(i) AS a, bit_or(l) AS o, bit_xor(s) AS x FROM {df} WHERE id > 100

-- name: h8_bit_window_running
-- inputs: df=clicks
SELECT user_id, ts, bit_or(ms) OVER (PARTITION BY user_id ORDER BY ts) AS o, bit_xor(ms) OVER (PARTITION BY user_id) AS x FROM {df}

-- name: h8_bit_string_arg
-- inputs: df=clicks
SELECT bit_and(page) AS a FROM {df}

-- name: h8_bit_xor_distinct
-- inputs: df=clicks
SELECT bit_xor(DISTINCT x) AS d, bit_xor(x) AS a FROM VALUES (5), (5), (3), (NULL), (12) AS t(x)

-- name: h8_bit_flags_filter
-- inputs: df=clicks
SELECT user_id, bit_or(CASE page WHEN 'home' THEN 1 WHEN 'product' THEN 2 WHEN 'cart' THEN 4 ELSE 8 END) FILTER (WHERE ms IS NOT NULL) AS flags FROM {df} GROUP BY user_id

-- name: h8_skew_kurt_grouped
-- inputs: df=clicks
SELECT user_id, skewness(ms) AS sk, kurtosis(ms) AS ku FROM {df} GROUP BY user_id

-- name: h8_skew_kurt_table
-- inputs: df=nums
SELECT skewness(i) AS si, kurtosis(i) AS ki, skewness(d) AS sd, kurtosis(t) AS kt, skewness(dec) AS sdec FROM {df}

-- name: h8_skew_constant_values
-- inputs: df=clicks
SELECT skewness(x) AS s, kurtosis(x) AS k, skewness(DISTINCT x) AS sd FROM VALUES (2.0D), (2.0D), (2.0D) AS t(x)

-- name: h8_skew_kurt_empty
-- inputs: df=clicks
SELECT skewness(ms) AS s, kurtosis(ms) AS k FROM {df} WHERE ms > 100000

-- name: h8_kurt_filter_window
-- inputs: df=clicks
SELECT user_id, kurtosis(ms) FILTER (WHERE page <> 'cart') AS k, skewness(ms) FILTER (WHERE ref IS NULL) AS s FROM {df} GROUP BY user_id

-- name: h8_skew_window
-- inputs: df=clicks
SELECT user_id, ts, skewness(ms) OVER (ORDER BY ts ROWS BETWEEN 2 PRECEDING AND CURRENT ROW) AS s FROM {df}

-- name: h8_regr_all
-- inputs: df=clicks
SELECT regr_count(y, x) AS n, regr_slope(y, x) AS slope, regr_intercept(y, x) AS icpt, regr_r2(y, x) AS r2, regr_avgx(y, x) AS ax, regr_avgy(y, x) AS ay, regr_sxx(y, x) AS sxx, regr_syy(y, x) AS syy, regr_sxy(y, x) AS sxy FROM VALUES (1.0D, 2.0D), (2.0D, 4.5D), (3.0D, NULL), (NULL, 7.0D), (4.0D, 8.1D), (5.0D, 9.9D) AS t(x, y)

-- name: h8_regr_grouped_degenerate
-- inputs: df=clicks
SELECT g, regr_slope(y, x) AS slope, regr_intercept(y, x) AS icpt, regr_r2(y, x) AS r2, regr_count(y, x) AS n, regr_sxx(y, x) AS sxx FROM VALUES ('one', 1.0D, 5.0D), ('vertical', 2.0D, 1.0D), ('vertical', 2.0D, 3.0D), ('flat', 1.0D, 4.0D), ('flat', 3.0D, 4.0D), ('nulls', NULL, 1.0D), ('nulls', 2.0D, NULL) AS t(g, x, y) GROUP BY g

-- name: h8_regr_int_columns
-- inputs: df=clicks
SELECT user_id, regr_slope(ms, user_id) AS s, regr_count(ms, user_id) AS n, typeof(regr_count(ms, user_id)) AS tn, regr_avgx(ms, user_id) AS ax, typeof(regr_avgx(ms, user_id)) AS tax FROM {df} GROUP BY user_id

-- name: h8_regr_decimal_avg
-- inputs: df=orders
SELECT regr_avgx(quantity, amount) AS ax, regr_avgy(amount, quantity) AS ay, typeof(regr_avgx(quantity, amount)) AS t, regr_slope(amount, quantity) AS s, regr_r2(amount, quantity) AS r2 FROM {df}

-- name: h8_regr_string_arg
-- inputs: df=clicks
SELECT regr_slope(ms, page) AS s FROM {df}

-- name: h8_regr_window
-- inputs: df=clicks
SELECT user_id, ts, regr_count(ms, user_id) OVER (ORDER BY ts ROWS BETWEEN UNBOUNDED PRECEDING AND CURRENT ROW) AS n, regr_sxy(ms, ms) OVER (PARTITION BY user_id) AS sxy FROM {df}

-- name: h8_listagg_ordered
-- inputs: df=clicks
SELECT user_id, listagg(page, ', ') WITHIN GROUP (ORDER BY ts) AS pages FROM {df} GROUP BY user_id

-- name: h8_string_agg_distinct
-- inputs: df=clicks
SELECT user_id, string_agg(DISTINCT page, '|') WITHIN GROUP (ORDER BY page) AS pages FROM {df} GROUP BY user_id

-- name: h8_listagg_nulls_empty
-- inputs: df=clicks
SELECT user_id, listagg(ref, ';') WITHIN GROUP (ORDER BY ts DESC) AS refs, listagg(CASE WHEN ms > 1000 THEN page END, ',') AS none FROM {df} GROUP BY user_id

-- name: h8_listagg_default_delim
-- inputs: df=clicks
SELECT listagg(page) WITHIN GROUP (ORDER BY ts) AS a, string_agg(page) WITHIN GROUP (ORDER BY ts) AS b FROM {df} WHERE user_id = 1

-- name: h8_listagg_int_arg
-- inputs: df=clicks
SELECT listagg(ms, ',') WITHIN GROUP (ORDER BY ms) AS a FROM {df}

-- name: h8_listagg_order_by_other_desc
-- inputs: df=orders
SELECT channel, listagg(status, '-') WITHIN GROUP (ORDER BY amount DESC NULLS LAST) AS s FROM {df} GROUP BY channel

-- name: h8_listagg_empty_input
-- inputs: df=clicks
SELECT listagg(page, ',') AS a, string_agg(page, ',') WITHIN GROUP (ORDER BY page) AS b FROM {df} WHERE ms < 0

-- name: h8_covar_corr_nulls
-- inputs: df=clicks
SELECT g, covar_pop(x, y) AS cp, covar_samp(x, y) AS cs, corr(x, y) AS c FROM VALUES ('a', 1.0D, 2.0D), ('a', 2.0D, NULL), ('a', 3.0D, 7.0D), ('a', NULL, 1.0D), ('b', 5.0D, 5.0D), ('c', 1.0D, 3.0D), ('c', 1.0D, 9.0D), ('d', NULL, NULL) AS t(g, x, y) GROUP BY g

-- name: h8_corr_int_columns
-- inputs: df=nums
SELECT corr(i, t) AS c, covar_samp(s, t) AS cs, covar_pop(i, s) AS cp, corr(d, f) AS cdf FROM {df}

-- name: h8_pivot_sum
-- inputs: df=clicks
SELECT * FROM (SELECT user_id, page, ms FROM {df}) PIVOT (sum(ms) FOR page IN ('home', 'product', 'cart'))

-- name: h8_pivot_two_aggs_aliases
-- inputs: df=clicks
SELECT * FROM (SELECT user_id, page, ms FROM {df}) PIVOT (sum(ms) AS total, count(ms) AS n FOR page IN ('home' AS h, 'product' AS p))

-- name: h8_unpivot_columns
-- inputs: df=nums
SELECT * FROM (SELECT id, i, s FROM {df}) UNPIVOT (val FOR col IN (i, s))

-- name: h8_unpivot_include_nulls
-- inputs: df=nums
SELECT id, col, val FROM (SELECT id, t, s FROM {df} WHERE id >= 5) UNPIVOT INCLUDE NULLS (val FOR col IN (t AS tiny, s AS small))

-- name: h8_filter_clause_many
-- inputs: df=clicks
SELECT user_id, count(*) FILTER (WHERE ms > 100) AS big, sum(ms) FILTER (WHERE page = 'home') AS home_ms, avg(ms) FILTER (WHERE ref IS NOT NULL) AS ref_avg, count(DISTINCT page) FILTER (WHERE ms > 50) AS pages FROM {df} GROUP BY user_id

-- name: h8_grouping_sets_regr_skew
-- inputs: df=clicks
SELECT user_id, grouping(user_id) AS g, regr_slope(ms, hour(ts)) AS slope, skewness(ms) AS sk, bit_or(ms) AS o FROM {df} GROUP BY GROUPING SETS ((user_id), ())

-- name: h8_rollup_listagg
-- inputs: df=clicks
SELECT user_id, page, listagg(CAST(ms AS STRING), '+') WITHIN GROUP (ORDER BY ts) AS l, count(*) AS n FROM {df} WHERE user_id IS NOT NULL GROUP BY ROLLUP (user_id, page)

-- name: h8_cube_bit_kurt
-- inputs: df=nums
SELECT b, grouping_id() AS gid, bit_xor(t) AS x, kurtosis(s) AS k FROM {df} GROUP BY CUBE (b)

-- name: h8_pct_literal_out_of_range
-- inputs: df=clicks
SELECT percentile(ms, 1.5) AS p FROM {df}

-- name: h8_pct_approx_negative
-- inputs: df=clicks
SELECT percentile_approx(ms, -0.1) AS p FROM {df}

-- name: h8_pct_array_out_of_range
-- inputs: df=clicks
SELECT user_id, percentile(ms, array(0.5, 2.0)) AS p FROM {df} GROUP BY user_id

-- name: h8_pct_const_expr_empty
-- inputs: df=clicks
SELECT percentile(ms, 3 - 1) AS p FROM {df} WHERE ms > 100000

-- name: h8_covar_corr_nulls_varying
-- inputs: df=clicks
SELECT g, covar_pop(x, y) AS cp, covar_samp(x, y) AS cs, corr(x, y) AS c FROM VALUES ('a', 1.0D, 2.0D), ('a', 2.0D, NULL), ('a', 3.0D, 7.0D), ('a', NULL, 1.0D), ('b', 5.0D, 5.0D), ('d', NULL, NULL) AS t(g, x, y) GROUP BY g

-- name: h8_corr_constant_column
-- inputs: df=orders
SELECT channel, corr(quantity, 1.0D) AS c FROM {df} WHERE channel = 'web' GROUP BY channel

-- name: h8_regr_r2_constant_y
-- inputs: df=clicks
SELECT regr_r2(y, x) AS r2, regr_slope(y, x) AS s, regr_intercept(y, x) AS i FROM VALUES (1, 3), (2, 3), (4, 3) AS t(x, y)
