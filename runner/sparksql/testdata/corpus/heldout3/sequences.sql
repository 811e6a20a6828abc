-- Round 3 (held out): sequence over dates and timestamps, written before
-- their translation.

-- name: h3_seq_dates_default_step
-- inputs: df=fx
SELECT currency, rate_date, sequence(rate_date, date_add(rate_date, 2)) AS d FROM {df}

-- name: h3_seq_dates_backwards
-- inputs: df=fx
SELECT currency, sequence(rate_date, date_sub(rate_date, 2)) AS d FROM {df}

-- name: h3_seq_dates_week_step
-- inputs: df=customers
SELECT customer_id, sequence(signup_date, date_add(signup_date, 20), INTERVAL 1 WEEK) AS w FROM {df}

-- name: h3_seq_dates_month_end
-- inputs: df=clicks
SELECT DISTINCT sequence(DATE '2024-01-31', DATE '2024-06-30', INTERVAL 1 MONTH) AS m FROM {df}

-- name: h3_seq_dates_day_interval
-- inputs: df=clicks
SELECT DISTINCT sequence(DATE '2024-02-27', DATE '2024-03-02', INTERVAL '1' DAY) AS d FROM {df}

-- name: h3_seq_timestamps_hours
-- inputs: df=clicks
SELECT user_id, ts, sequence(ts, ts + INTERVAL 3 HOURS, INTERVAL 90 MINUTES) AS s FROM {df}

-- name: h3_seq_timestamps_dst
-- inputs: df=clicks
-- conf: spark.sql.session.timeZone=America/New_York
SELECT DISTINCT sequence(TIMESTAMP '2024-03-10 00:00:00', TIMESTAMP '2024-03-10 04:00:00', INTERVAL 1 HOUR) AS s, sequence(TIMESTAMP '2024-03-09 12:00:00', TIMESTAMP '2024-03-11 12:00:00', INTERVAL 1 DAY) AS d FROM {df}

-- name: h3_seq_timestamps_months
-- inputs: df=clicks
SELECT DISTINCT sequence(TIMESTAMP '2024-01-31 10:00:00', TIMESTAMP '2024-04-30 10:00:00', INTERVAL 1 MONTH) AS m FROM {df}

-- name: h3_seq_ntz
-- inputs: df=events
SELECT event_id, sequence(ts_ntz, ts_ntz + INTERVAL 2 HOURS, INTERVAL 1 HOUR) AS s FROM {df}

-- name: h3_seq_dates_wrong_direction
-- inputs: df=clicks
SELECT DISTINCT sequence(DATE '2024-01-05', DATE '2024-01-01', INTERVAL 1 DAY) AS s FROM {df}

-- name: h3_seq_dates_explode
-- inputs: df=fx
SELECT currency, d FROM {df} LATERAL VIEW explode(sequence(rate_date, date_add(rate_date, 1))) t AS d

-- name: h3_seq_mixed_date_timestamp
-- inputs: df=clicks
SELECT DISTINCT sequence(DATE '2024-01-01', TIMESTAMP '2024-01-01 02:00:00', INTERVAL 1 HOUR) AS s FROM {df}
