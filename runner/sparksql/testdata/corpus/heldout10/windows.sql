-- Held-out round 10: named WINDOW clauses and RANGE frames over
-- timestamps, dates and intervals. Written, and run through Spark 4.2,
-- before the code it tests.

-- name: h10_named_window
-- inputs: df=clicks
SELECT user_id, ts, row_number() OVER w AS rn, sum(ms) OVER w AS run FROM {df} WHERE user_id IS NOT NULL WINDOW w AS (PARTITION BY user_id ORDER BY ts)

-- name: h10_named_windows_two
-- inputs: df=clicks
SELECT user_id, page, ms, max(ms) OVER u AS mx, count(*) OVER p AS n FROM {df} WINDOW u AS (PARTITION BY user_id), p AS (PARTITION BY page)

-- name: h10_named_window_refined
-- inputs: df=clicks
SELECT user_id, ts, lag(page) OVER (w ORDER BY ts) AS prev FROM {df} WINDOW w AS (PARTITION BY user_id)

-- name: h10_range_interval_hour
-- inputs: df=clicks
SELECT user_id, ts, sum(ms) OVER (PARTITION BY user_id ORDER BY ts RANGE BETWEEN INTERVAL 1 HOUR PRECEDING AND CURRENT ROW) AS last_hour FROM {df}

-- name: h10_range_interval_minutes_following
-- inputs: df=clicks
SELECT user_id, ts, count(*) OVER (ORDER BY ts RANGE BETWEEN CURRENT ROW AND INTERVAL '30' MINUTE FOLLOWING) AS next30 FROM {df}

-- name: h10_range_date_int_offset
-- inputs: df=fx
SELECT currency, rate_date, count(*) OVER (ORDER BY rate_date RANGE BETWEEN 3 PRECEDING AND CURRENT ROW) AS n FROM {df}

-- name: h10_range_date_day_interval
-- inputs: df=fx
SELECT currency, rate_date, max(rate) OVER (ORDER BY rate_date RANGE BETWEEN INTERVAL '7' DAY PRECEDING AND INTERVAL 1 DAY PRECEDING) AS prev_week_max FROM {df}

-- name: h10_range_numeric_both
-- inputs: df=clicks
SELECT user_id, ms, count(*) OVER (ORDER BY ms RANGE BETWEEN 100 PRECEDING AND 100 FOLLOWING) AS near FROM {df}
