-- Round 3 (development): day-time intervals multiplied and divided by
-- integers, RANGE frames over dates and timestamps.

-- name: r3_iv_times_int
-- inputs: df=clicks
SELECT DISTINCT INTERVAL 90 MINUTES * 3 AS a, 2 * INTERVAL '1 02:03:04.5' DAY TO SECOND AS b, INTERVAL 1 HOUR * -2 AS c FROM {df}

-- name: r3_iv_divide_round_half_up
-- inputs: df=clicks
SELECT DISTINCT INTERVAL 1 SECOND / 3 AS a, INTERVAL '0.000005' SECOND / 2 AS b, INTERVAL '-0.000005' SECOND / 2 AS c, INTERVAL 1 DAY / 7 AS d FROM {df}

-- name: r3_iv_divide_by_column
-- inputs: df=clicks
SELECT user_id, ts + INTERVAL 1 HOUR / coalesce(user_id, 1) AS t FROM {df}

-- name: r3_iv_divide_by_zero_column
-- inputs: df=nums
SELECT id, INTERVAL 1 HOUR / (id - 1) AS x FROM {df}

-- name: r3_iv_times_overflow
-- inputs: df=clicks
SELECT DISTINCT INTERVAL 100000 DAYS * 1000000000 AS x FROM {df}

-- name: r3_iv_bad_unit_value
-- inputs: df=clicks
SELECT ts - INTERVAL 'x1' DAY AS x FROM {df}

-- name: r3_range_date_int
-- inputs: df=fx
SELECT currency, rate_date, count(*) OVER (PARTITION BY currency ORDER BY rate_date RANGE BETWEEN 1 PRECEDING AND CURRENT ROW) AS n FROM {df}

-- name: r3_range_date_bigint
-- inputs: df=fx
SELECT currency, count(*) OVER (ORDER BY rate_date RANGE BETWEEN 1L PRECEDING AND CURRENT ROW) AS n FROM {df}

-- name: r3_range_date_day_interval
-- inputs: df=fx
SELECT currency, count(*) OVER (ORDER BY rate_date RANGE BETWEEN INTERVAL 1 DAY PRECEDING AND CURRENT ROW) AS n FROM {df}

-- name: r3_range_timestamp_interval
-- inputs: df=clicks
SELECT user_id, ts, count(*) OVER (ORDER BY ts RANGE BETWEEN INTERVAL 30 MINUTES PRECEDING AND CURRENT ROW) AS n FROM {df}

-- name: r3_range_ntz_int
-- inputs: df=events
SELECT event_id, count(*) OVER (ORDER BY ts_ntz RANGE BETWEEN 1 PRECEDING AND 1 FOLLOWING) AS n FROM {df}
