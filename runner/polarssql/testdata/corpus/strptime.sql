-- Polars SQL's STRPTIME, DATE(x, format), TIMESTAMP(x, format) and
-- DATETIME(x, format): chrono's format language, strict.

-- name: strp_events_clean
-- inputs: df=events
SELECT id, STRPTIME(ts_str, '%Y-%m-%d %H:%M:%S%.f') AS t FROM {df} WHERE id IN (1, 5, 6)

-- name: strp_datetime_fn
-- inputs: df=stamps
SELECT id, DATETIME(iso, '%F %T') AS t FROM {df}

-- name: strp_month_name
-- inputs: df=stamps
SELECT STRPTIME(iso, '%d %b %Y') AS t FROM {df}

-- name: strp_date_column_no_format
-- inputs: df=stamps
SELECT DATE(eu) AS d FROM {df}

-- name: strp_group_by_day
-- inputs: df=stamps
SELECT d, COUNT(*) AS n FROM (SELECT DATE(iso, '%Y-%m-%d %H:%M:%S') AS d FROM {df}) AS s GROUP BY d

-- name: strp_compact_time
-- inputs: df=stamps
SELECT id, STRPTIME(compact || '0830', '%Y%m%d%H%M') AS t FROM {df}

-- name: strp_texts_dates
-- inputs: df=texts
SELECT id, DATE(n, '%Y%m%d') AS d FROM {df}
