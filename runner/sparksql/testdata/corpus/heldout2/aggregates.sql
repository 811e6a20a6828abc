-- Round 2 held-out part: aggregates. Written before the round-2 fixes;
-- its figures are reported apart.

-- name: h2_agg_percentile_grouped
-- inputs: df=clicks
SELECT user_id, percentile(ms, 0.5) AS p50 FROM {df} GROUP BY user_id

-- name: h2_agg_median_decimal
-- inputs: df=money
SELECT median(amount) AS m, median(cents) AS c FROM {df}

-- name: h2_agg_mode_numbers
-- inputs: df=nested
SELECT mode(s) AS m FROM {df} LATERAL VIEW explode(scores) t AS s

-- name: h2_agg_approx_percentile_array
-- inputs: df=clicks
SELECT approx_percentile(ms, array(0.5, 0.9)) AS ps FROM {df}

-- name: h2_agg_rollup_two_levels
-- inputs: df=clicks
SELECT CAST(ts AS DATE) AS d, page, count(*) AS n, grouping_id(CAST(ts AS DATE), page) AS g FROM {df} GROUP BY ROLLUP (CAST(ts AS DATE), page)

-- name: h2_agg_cube_counts
-- inputs: df=clicks
SELECT page, ref IS NULL AS no_ref, count(*) AS n FROM {df} GROUP BY CUBE (page, ref IS NULL)

-- name: h2_agg_collect_list_struct_sorted
-- inputs: df=clicks
SELECT user_id, transform(array_sort(collect_list(struct(ts, page))), x -> x.page) AS path FROM {df} GROUP BY user_id

-- name: h2_agg_count_if_bool_or
-- inputs: df=clicks
SELECT user_id, count_if(page = 'checkout') > 0 AS converted, bool_or(ref IS NOT NULL) AS has_ref FROM {df} GROUP BY user_id

-- name: h2_agg_pivot_pages
-- inputs: df=clicks
SELECT * FROM (SELECT user_id, page FROM {df} WHERE user_id IS NOT NULL) PIVOT (count(*) FOR page IN ('home', 'product', 'cart', 'checkout'))

-- name: h2_agg_max_by_multiple_keys
-- inputs: df=clicks
SELECT user_id, max_by(page, struct(ts, page)) AS last_page FROM {df} GROUP BY user_id

-- name: h2_agg_sum_window_of_sum
-- inputs: df=clicks
SELECT page, sum(ms) AS ms, sum(sum(ms)) OVER (ORDER BY page) AS cum FROM {df} GROUP BY page

-- name: h2_agg_grouping_sets_with_grouping
-- inputs: df=clicks
SELECT page, user_id, grouping(page) AS gp, count(*) AS n FROM {df} GROUP BY GROUPING SETS ((page), (user_id))

-- name: h2_agg_first_last_ordered_subquery
-- inputs: df=clicks
SELECT user_id, min(ts) AS first_seen, max(ts) AS last_seen, max(ts) - min(ts) AS span FROM {df} GROUP BY user_id
