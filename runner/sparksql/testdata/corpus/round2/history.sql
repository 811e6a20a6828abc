-- Round 2: dedup and history (latest state, SCD2, change detection),
-- written before the round-2 fixes.

-- name: r2_hist_latest_row_number
-- inputs: df=history
SELECT id, op, seq, status FROM (SELECT *, row_number() OVER (PARTITION BY id ORDER BY seq DESC) AS rn FROM {df}) WHERE rn = 1

-- name: r2_hist_latest_max_by
-- inputs: df=history
SELECT id, max_by(status, seq) AS status, max_by(amount, seq) AS amount FROM {df} GROUP BY id

-- name: r2_hist_first_min_by
-- inputs: df=history
SELECT id, min_by(status, seq) AS first_status, min_by(updated_by, seq) AS first_by FROM {df} GROUP BY id

-- name: r2_hist_max_by_null_latest
-- inputs: df=history
SELECT max_by(status, seq) AS s FROM {df} WHERE id = 1

-- name: r2_hist_max_by_null_order_key
-- inputs: df=history
SELECT id, max_by(seq, ts) AS last_seq FROM {df} WHERE id = 3 GROUP BY id

-- name: r2_hist_max_struct
-- inputs: df=history
SELECT id, max(struct(seq, status)) AS latest FROM {df} GROUP BY id

-- name: r2_hist_max_struct_field
-- inputs: df=history
SELECT id, max(struct(seq, status, amount)).status AS status FROM {df} GROUP BY id

-- name: r2_hist_min_struct
-- inputs: df=history
SELECT id, min(named_struct('s', seq, 'st', status)) AS earliest FROM {df} GROUP BY id

-- name: r2_hist_last_value_ignore_nulls
-- inputs: df=history
SELECT id, seq, last_value(status, true) OVER (PARTITION BY id ORDER BY seq ROWS BETWEEN UNBOUNDED PRECEDING AND CURRENT ROW) AS filled FROM {df}

-- name: r2_hist_last_ignore_nulls_kw
-- inputs: df=history
SELECT id, seq, last(status) IGNORE NULLS OVER (PARTITION BY id ORDER BY seq) AS filled FROM {df} WHERE id IN (1, 2)

-- name: r2_hist_first_value_full
-- inputs: df=history
SELECT id, seq, first_value(status) OVER (PARTITION BY id ORDER BY seq ROWS BETWEEN UNBOUNDED PRECEDING AND UNBOUNDED FOLLOWING) AS first_status FROM {df} WHERE id IN (1, 2, 3)

-- name: r2_hist_scd2_valid_to
-- inputs: df=history
SELECT id, seq, ts AS valid_from, lead(ts) OVER (PARTITION BY id ORDER BY seq) AS valid_to FROM {df} WHERE id IN (1, 2, 3)

-- name: r2_hist_scd2_is_current
-- inputs: df=history
SELECT id, seq, lead(seq) OVER (PARTITION BY id ORDER BY seq) IS NULL AS is_current FROM {df} WHERE id IN (1, 2, 3)

-- name: r2_hist_change_detect_lag
-- inputs: df=history
SELECT id, seq, status, lag(status) OVER (PARTITION BY id ORDER BY seq) AS prev, status <=> lag(status) OVER (PARTITION BY id ORDER BY seq) AS same FROM {df} WHERE id IN (1, 2, 3)

-- name: r2_hist_changed_rows_only
-- inputs: df=history
SELECT id, seq, status FROM (SELECT *, lag(status) OVER (PARTITION BY id ORDER BY seq) AS prev FROM {df} WHERE id IN (1, 2, 3)) WHERE NOT (status <=> prev)

-- name: r2_hist_lag_default
-- inputs: df=history
SELECT id, seq, lag(amount, 1, 0) OVER (PARTITION BY id ORDER BY seq) AS prev_amount FROM {df} WHERE id IN (1, 2, 3)

-- name: r2_hist_delta_amount
-- inputs: df=history
SELECT id, seq, amount - lag(amount) OVER (PARTITION BY id ORDER BY seq) AS delta FROM {df} WHERE id IN (1, 2, 3)

-- name: r2_hist_dedup_exact
-- inputs: df=history
SELECT id, count(*) AS n, count(DISTINCT seq) AS nd FROM {df} GROUP BY id

-- name: r2_hist_dedup_rank_ties
-- inputs: df=history
SELECT id, seq, rank() OVER (PARTITION BY id ORDER BY ts DESC) AS r, dense_rank() OVER (PARTITION BY id ORDER BY ts DESC) AS dr FROM {df} WHERE id IN (1, 2, 3)

-- name: r2_hist_deleted_flag_filter
-- inputs: df=history
SELECT id, seq FROM (SELECT *, row_number() OVER (PARTITION BY id ORDER BY seq DESC) AS rn FROM {df}) WHERE rn = 1 AND NOT coalesce(deleted, false)

-- name: r2_hist_count_distinct_window
-- inputs: df=history
SELECT id, count(DISTINCT status) OVER (PARTITION BY id) AS n FROM {df}

-- name: r2_hist_collect_set_window
-- inputs: df=history
SELECT id, seq, array_sort(collect_set(status) OVER (PARTITION BY id)) AS statuses FROM {df} WHERE id IN (1, 2)

-- name: r2_hist_size_collect_set_window
-- inputs: df=history
SELECT id, seq, size(collect_set(status) OVER (PARTITION BY id)) AS n FROM {df}

-- name: r2_hist_running_count
-- inputs: df=history
SELECT id, seq, count(*) OVER (PARTITION BY id ORDER BY seq) AS n, count(status) OVER (PARTITION BY id ORDER BY seq) AS ns FROM {df} WHERE id IN (1, 2, 3)

-- name: r2_hist_gap_days
-- inputs: df=history
SELECT id, seq, datediff(ts, lag(ts) OVER (PARTITION BY id ORDER BY seq)) AS gap_days FROM {df} WHERE id IN (1, 2, 3)

-- name: r2_hist_ts_diff_seconds
-- inputs: df=history
SELECT id, seq, unix_timestamp(ts) - unix_timestamp(lag(ts) OVER (PARTITION BY id ORDER BY seq)) AS gap_s FROM {df} WHERE id IN (1, 2, 3)

-- name: r2_hist_ntile
-- inputs: df=history
SELECT id, seq, ntile(2) OVER (PARTITION BY id ORDER BY seq) AS half FROM {df} WHERE id IN (1, 2, 3)

-- name: r2_hist_percent_rank
-- inputs: df=history
SELECT id, seq, percent_rank() OVER (PARTITION BY id ORDER BY seq) AS pr, cume_dist() OVER (PARTITION BY id ORDER BY seq) AS cd FROM {df} WHERE id IN (1, 2, 3)

-- name: r2_hist_nth_value
-- inputs: df=history
SELECT id, seq, nth_value(status, 2) OVER (PARTITION BY id ORDER BY seq ROWS BETWEEN UNBOUNDED PRECEDING AND UNBOUNDED FOLLOWING) AS second FROM {df} WHERE id IN (1, 2, 3)

-- name: r2_hist_range_window_days
-- inputs: df=history
SELECT id, seq, count(*) OVER (PARTITION BY id ORDER BY ts RANGE BETWEEN INTERVAL 1 DAY PRECEDING AND CURRENT ROW) AS n FROM {df} WHERE id IN (1, 2)

-- name: r2_hist_sum_sum_over
-- inputs: df=history
SELECT id, sum(amount) AS s, sum(sum(amount)) OVER () AS grand FROM {df} WHERE id IS NOT NULL GROUP BY id

-- name: r2_hist_rank_of_aggregate
-- inputs: df=history
SELECT id, sum(amount) AS s, rank() OVER (ORDER BY sum(amount) DESC) AS r FROM {df} WHERE id IS NOT NULL GROUP BY id

-- name: r2_hist_window_named
-- inputs: df=history
SELECT id, seq, lag(seq) OVER w AS p, lead(seq) OVER w AS n FROM {df} WHERE id IN (1, 2) WINDOW w AS (PARTITION BY id ORDER BY seq)

-- name: r2_hist_qualify
-- inputs: df=history
SELECT id, seq, status FROM {df} QUALIFY row_number() OVER (PARTITION BY id ORDER BY seq DESC) = 1

-- name: r2_hist_sessionize
-- inputs: df=clicks
SELECT user_id, ts, sum(new_session) OVER (PARTITION BY user_id ORDER BY ts) AS session_no FROM (SELECT *, CASE WHEN ts - lag(ts) OVER (PARTITION BY user_id ORDER BY ts) > INTERVAL 30 MINUTES OR lag(ts) OVER (PARTITION BY user_id ORDER BY ts) IS NULL THEN 1 ELSE 0 END AS new_session FROM {df})

-- name: r2_hist_sessions_per_user
-- inputs: df=clicks
SELECT user_id, max(session_no) AS sessions FROM (SELECT user_id, sum(new_session) OVER (PARTITION BY user_id ORDER BY ts) AS session_no FROM (SELECT *, CASE WHEN lag(ts) OVER (PARTITION BY user_id ORDER BY ts) IS NULL OR unix_timestamp(ts) - unix_timestamp(lag(ts) OVER (PARTITION BY user_id ORDER BY ts)) > 1800 THEN 1 ELSE 0 END AS new_session FROM {df})) GROUP BY user_id

-- name: r2_hist_first_last_page
-- inputs: df=clicks
SELECT user_id, min_by(page, ts) AS first_page, max_by(page, ts) AS last_page, max_by(ref, ts) AS last_ref FROM {df} GROUP BY user_id

-- name: r2_hist_first_ignore_nulls_agg
-- inputs: df=clicks
SELECT user_id, first(ref, true) AS any_ref, count(ref) AS n_ref FROM (SELECT * FROM {df} WHERE user_id = 3) GROUP BY user_id

-- name: r2_hist_any_value
-- inputs: df=history
SELECT id, any_value(op) AS op FROM {df} WHERE id = 4 GROUP BY id

-- name: r2_hist_merge_latest_per_key
-- inputs: df=history, nodes.products=products
SELECT sku, max_by(price, valid_from) AS current_price, max(valid_from) AS since FROM {nodes.products} GROUP BY sku

-- name: r2_hist_scd2_range_join
-- inputs: df=clicks, nodes.products=products
SELECT c.user_id, c.ts, p.name FROM {df} c JOIN {nodes.products} p ON p.sku = 'C3' AND c.ts >= p.valid_from AND (p.valid_to IS NULL OR c.ts < p.valid_to) WHERE c.user_id = 3

-- name: r2_hist_order_by_struct_nulls
-- inputs: df=history
SELECT id, seq, status FROM {df} WHERE id IN (1, 2, 3) ORDER BY struct(status, seq), id

-- name: r2_hist_struct_less_than_null_field
-- inputs: df=history
SELECT id, seq, struct(status, seq) < struct('new', 2) AS lt, struct(status, seq) >= named_struct('a', 'new', 'b', 2) AS ge FROM {df}

-- name: r2_hist_min_max_struct_nested_null
-- inputs: df=history
SELECT id, min(struct(status, amount)) AS mn, max(struct(amount, status)) AS mx FROM {df} GROUP BY id

-- name: r2_hist_max_by_struct_key
-- inputs: df=history
SELECT id, max_by(seq, struct(status, seq)) AS s FROM {df} GROUP BY id

-- name: r2_hist_row_number_struct_order
-- inputs: df=history
SELECT id, seq, row_number() OVER (PARTITION BY id ORDER BY struct(status, seq) DESC) AS rn FROM {df} WHERE id IN (1, 2, 3)
