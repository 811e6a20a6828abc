-- Round 4 (held out): sequence over timestamps with intervals, written
-- before its translation.

-- name: h4_seq_ts_hourly
-- inputs: df=feed
SELECT id, sequence(t0, t1, INTERVAL 1 HOUR) AS hours FROM {df} WHERE id IN (1, 2)

-- name: h4_seq_ts_minutes_explode
-- inputs: df=feed
SELECT id, explode(sequence(t0, t1, INTERVAL 10 MINUTES)) AS slot FROM {df} WHERE id = 3

-- name: h4_seq_ts_descending
-- inputs: df=feed
SELECT id, sequence(t0, t1, INTERVAL -1 HOUR) AS back FROM {df} WHERE id = 4

-- name: h4_seq_ts_wrong_direction
-- inputs: df=feed
SELECT id, sequence(t0, t1, INTERVAL 1 HOUR) AS bad FROM {df} WHERE id = 4

-- name: h4_seq_ts_default_step
-- inputs: df=clicks
SELECT DISTINCT sequence(TIMESTAMP '2024-03-10 00:00:00', TIMESTAMP '2024-03-12 00:00:00') AS days FROM {df}

-- name: h4_seq_ts_null_end
-- inputs: df=feed
SELECT id, sequence(t0, t1, INTERVAL 30 MINUTES) AS s FROM {df} WHERE id IN (5, 6)

-- name: h4_seq_ts_month_step
-- inputs: df=clicks
SELECT DISTINCT sequence(TIMESTAMP '2024-01-31 12:00:00', TIMESTAMP '2024-05-01 00:00:00', INTERVAL 1 MONTH) AS m FROM {df}

-- name: h4_seq_ts_day_interval_string
-- inputs: df=clicks
SELECT DISTINCT size(sequence(TIMESTAMP '2024-03-01 00:00:00', TIMESTAMP '2024-03-31 00:00:00', INTERVAL '7' DAY)) AS weeks FROM {df}

-- name: h4_seq_date_with_interval
-- inputs: df=fx
SELECT currency, sequence(rate_date, date_add(rate_date, 3), INTERVAL 1 DAY) AS ds FROM {df} WHERE rate_date IS NOT NULL
