-- name: h_iv_date_plus_days
-- inputs: df=texts
SELECT id, d + INTERVAL '7 days' AS next_week FROM {df}

-- name: h_iv_ts_minus_minutes
-- inputs: df=texts
SELECT id, ts - INTERVAL '90 minutes' AS t FROM {df}

-- name: h_iv_date_plus_month
-- inputs: df=texts
SELECT id, d + INTERVAL '1 month' AS m FROM {df}

-- name: h_iv_ts_plus_year_months
-- inputs: df=texts
SELECT id, ts + INTERVAL '1 year 2 months' AS t FROM {df}

-- name: h_iv_date_diff
-- inputs: df=texts
SELECT id, d - DATE '2024-01-01' AS age FROM {df}

-- name: h_iv_diff_filter
-- inputs: df=texts
SELECT id FROM {df} WHERE d - DATE '2024-01-01' > INTERVAL '30 days'

-- name: h_iv_ts_literal
-- inputs: df=texts
SELECT id FROM {df} WHERE ts >= TIMESTAMP '2024-01-01 00:00:00'

-- name: h_iv_events_hours
-- inputs: df=events
SELECT id, ts + INTERVAL '2 hours' AS later FROM {df}

-- name: h_iv_aware
-- inputs: df=events
SELECT id, ts_utc + INTERVAL '1 day' AS t FROM {df}

-- name: h_iv_date_minus_weeks
-- inputs: df=texts
SELECT id, d - INTERVAL '2 weeks' AS d2 FROM {df}
