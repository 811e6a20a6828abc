-- Round 4 (development): sequence over timestamps.

-- name: r4_seq_ts_day_hours_zone
-- inputs: df=clicks
-- conf: spark.sql.session.timeZone=Europe/Paris
SELECT DISTINCT sequence(TIMESTAMP '2024-03-29 12:00:00', TIMESTAMP '2024-04-02 00:00:00', INTERVAL '1 12' DAY TO HOUR) AS s FROM {df}

-- name: r4_seq_ts_negative_days_zone
-- inputs: df=clicks
-- conf: spark.sql.session.timeZone=America/New_York
SELECT DISTINCT sequence(TIMESTAMP '2024-03-12 06:00:00', TIMESTAMP '2024-03-09 06:00:00', INTERVAL -1 DAY) AS s, sequence(TIMESTAMP '2024-03-12 06:00:00', TIMESTAMP '2024-03-09 06:00:00') AS d FROM {df}

-- name: r4_seq_ts_zero_step
-- inputs: df=clicks
SELECT DISTINCT sequence(TIMESTAMP '2024-03-12 06:00:00', TIMESTAMP '2024-03-12 06:00:00', INTERVAL 0 HOURS) AS s FROM {df}

-- name: r4_seq_ts_zero_step_error
-- inputs: df=clicks
SELECT DISTINCT sequence(TIMESTAMP '2024-03-12 06:00:00', TIMESTAMP '2024-03-12 07:00:00', INTERVAL 0 HOURS) AS s FROM {df}

-- name: r4_seq_ntz_months
-- inputs: df=events
SELECT event_id, sequence(ts_ntz, ts_ntz + INTERVAL 3 MONTHS, INTERVAL 1 MONTH) AS s FROM {df}

-- name: r4_seq_ts_year_step_back
-- inputs: df=clicks
SELECT DISTINCT sequence(TIMESTAMP '2028-02-29 00:00:00', TIMESTAMP '2024-01-01 00:00:00', INTERVAL -1 YEAR) AS s FROM {df}
