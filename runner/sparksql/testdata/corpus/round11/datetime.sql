-- Round 11 (development): datetime patterns and month arithmetic.

-- name: r11_dt_format_week_parts
-- inputs: df=orders
SELECT order_id, date_format(ordered_at, 'E') AS e, date_format(ordered_at, 'MMM') AS m, date_format(ordered_at, 'dd/MM/yyyy HH:mm:ss.SSS') AS full, date_format(ordered_at, 'a') AS ap, date_format(ship_date, 'yyyy-DDD') AS ord FROM {df} ORDER BY order_id

-- name: r11_dt_to_timestamp_iso_variants
-- inputs: df=events
SELECT event_id, to_timestamp(ts_str) AS d, try_to_timestamp(ts_str, 'yyyy-MM-dd''T''HH:mm:ssXXX') AS x, try_to_timestamp(ts_str, 'yyyy-MM-dd HH:mm:ssX') AS z FROM {df} ORDER BY event_id

-- name: r11_dt_unix_timestamp_formats
-- inputs: df=landing
SELECT rec_id, unix_timestamp(event_date, 'yyyy-MM-dd') AS d FROM {df} WHERE rec_id IN ('1', '6') ORDER BY rec_id

-- name: r11_dt_from_unixtime_columns
-- inputs: df=nums
SELECT id, from_unixtime(l, 'yyyy-MM-dd') AS d FROM {df} WHERE id IN (2, 3, 6, 7) ORDER BY id

-- name: r11_dt_trunc_timestamps
-- inputs: df=clicks
SELECT user_id, ts, date_trunc('MINUTE', ts) AS m, date_trunc('SECOND', ts) AS s, date_trunc('MON', ts) AS mon, trunc(ts, 'MONTH') AS tm FROM {df} WHERE user_id = 1 ORDER BY ts

-- name: r11_dt_next_day_columns
-- inputs: df=orders
SELECT order_id, next_day(ship_date, 'TU') AS tu, next_day(ordered_at, 'sat') AS sa, last_day(ordered_at) AS ld FROM {df} ORDER BY order_id

-- name: r11_dt_months_between_round
-- inputs: df=orders
SELECT months_between(TIMESTAMP'2024-01-31 00:00:00', TIMESTAMP'2023-11-30 00:00:00') AS a, months_between(TIMESTAMP'2024-03-01 00:00:00', TIMESTAMP'2024-02-01 12:00:00') AS b, months_between(TIMESTAMP'2024-03-01 00:00:00', TIMESTAMP'2024-02-01 12:00:00', false) AS c, months_between(NULL, DATE'2024-01-01') AS n

-- name: r11_dt_add_months_columns
-- inputs: df=orders
SELECT order_id, add_months(ship_date, 1) AS p1, add_months(ship_date, -12) AS m12, add_months(ordered_at, 2) AS ts FROM {df} ORDER BY order_id

-- name: r11_dt_make_timestamp_seconds_60
-- inputs: df=nums
SELECT make_timestamp(2024, 3, 10, 12, 59, 60) AS s60, try_make_timestamp(2024, 3, 10, 12, 59, 60.5) AS s605, make_timestamp(2024, 3, 10, 12, 0, 1.123456) AS frac

-- name: r11_dt_make_timestamp_month13
-- inputs: df=nums
SELECT make_timestamp(2024, 13, 1, 0, 0, 0) AS x
