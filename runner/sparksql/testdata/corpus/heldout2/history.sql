-- Round 2 held-out part: dedup and history. Written before the round-2
-- fixes; its figures are reported apart.

-- name: h2_hist_latest_status_non_null
-- inputs: df=history
SELECT id, max_by(status, seq) FILTER (WHERE status IS NOT NULL) AS status FROM {df} GROUP BY id

-- name: h2_hist_min_by_amount
-- inputs: df=history
SELECT id, min_by(amount, seq) AS first_amount FROM {df} GROUP BY id

-- name: h2_hist_max_struct_null_fields
-- inputs: df=history
SELECT max(struct(amount, status)) AS m FROM {df} WHERE id IN (1, 2)

-- name: h2_hist_latest_by_ts_nulls_last
-- inputs: df=history
SELECT id, seq FROM (SELECT *, row_number() OVER (PARTITION BY id ORDER BY ts DESC NULLS LAST, seq DESC) AS rn FROM {df}) WHERE rn = 1

-- name: h2_hist_version_number
-- inputs: df=history
SELECT id, seq, dense_rank() OVER (PARTITION BY id ORDER BY seq) AS version FROM {df} WHERE id IS NOT NULL

-- name: h2_hist_lead_status
-- inputs: df=history
SELECT id, seq, lead(status, 1, 'END') OVER (PARTITION BY id ORDER BY seq) AS next_status FROM {df} WHERE id IN (1, 2, 3)

-- name: h2_hist_fill_forward_amount
-- inputs: df=history
SELECT id, seq, last_value(amount) IGNORE NULLS OVER (PARTITION BY id ORDER BY seq) AS amount_ff FROM {df} WHERE id IN (1, 2)

-- name: h2_hist_fill_backward
-- inputs: df=history
SELECT id, seq, first_value(status, true) OVER (PARTITION BY id ORDER BY seq ROWS BETWEEN CURRENT ROW AND UNBOUNDED FOLLOWING) AS next_known FROM {df} WHERE id IN (1, 2)

-- name: h2_hist_dup_count
-- inputs: df=history
SELECT id, op, seq, count(*) AS copies FROM {df} GROUP BY id, op, seq HAVING count(*) > 1

-- name: h2_hist_sum_window_over_group
-- inputs: df=history
SELECT op, count(*) AS n, round(100.0 * count(*) / sum(count(*)) OVER (), 2) AS pct FROM {df} GROUP BY op

-- name: h2_hist_session_gap_minutes
-- inputs: df=clicks
SELECT user_id, ts, (unix_timestamp(ts) - unix_timestamp(lag(ts) OVER (PARTITION BY user_id ORDER BY ts))) / 60 AS gap_min FROM {df} WHERE user_id IS NOT NULL

-- name: h2_hist_count_distinct_window_error
-- inputs: df=clicks
SELECT user_id, count(DISTINCT page) OVER (PARTITION BY user_id) AS pages FROM {df}

-- name: h2_hist_rows_between_moving_avg
-- inputs: df=clicks
SELECT user_id, ts, avg(ms) OVER (PARTITION BY user_id ORDER BY ts ROWS BETWEEN 1 PRECEDING AND 1 FOLLOWING) AS ma FROM {df}
