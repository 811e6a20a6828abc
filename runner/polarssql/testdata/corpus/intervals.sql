-- name: iv_date_minus_hours
-- inputs: df=texts
SELECT id, d - INTERVAL '3 hours' AS d2, d + INTERVAL '25 hours' AS d3 FROM {df}

-- name: iv_month_and_days
-- inputs: df=texts
SELECT id, ts + INTERVAL '1 month 2 days' AS t, d - INTERVAL '2 quarters' AS q FROM {df}

-- name: iv_fraction
-- inputs: df=texts
SELECT id, ts + INTERVAL '1.5 days' AS t FROM {df}

-- name: iv_negative
-- inputs: df=texts
SELECT id, ts + INTERVAL '-1 day' AS t FROM {df}

-- name: iv_unquoted
-- inputs: df=texts
SELECT id, ts + INTERVAL 1 DAY AS t FROM {df}

-- name: iv_ts_diff_compare
-- inputs: df=events
SELECT id FROM {df} WHERE ts - TIMESTAMP '2024-01-01 00:00:00' > INTERVAL '45 days'

-- name: iv_diff_month
-- inputs: df=events
SELECT id FROM {df} WHERE ts - TIMESTAMP '2024-01-01 00:00:00' > INTERVAL '1 month'

-- name: iv_date_plus_int
-- inputs: df=texts
SELECT id, d + 1 AS d2 FROM {df}

-- name: iv_interval_first
-- inputs: df=texts
SELECT id, INTERVAL '1 week' + ts AS t FROM {df}

-- name: iv_compact_units
-- inputs: df=texts
SELECT id, ts + INTERVAL '1d 2h 30min' AS t FROM {df}

-- name: iv_micro_nano
-- inputs: df=texts
SELECT id, ts + INTERVAL '1 microsecond' AS a, ts + INTERVAL '500 ns' AS b FROM {df}

-- name: iv_date_diff_days
-- inputs: df=texts
SELECT id FROM {df} WHERE d - DATE '2024-01-01' >= INTERVAL '0 days' AND d - DATE '2024-01-01' < INTERVAL '60 days'

-- name: iv_interval_select
-- inputs: df=texts
SELECT id, INTERVAL '2 days' AS span FROM {df}

-- name: iv_aware_month
-- inputs: df=events
SELECT id, ts_utc - INTERVAL '1 month' AS t FROM {df}
