-- Round 11 (held out): make_interval / try_make_interval (Spark's
-- CalendarInterval) in date and timestamp arithmetic and as an output,
-- element_at of NULL at index 0, written before the round-11 code.

-- name: h11_make_interval_ts_plus
-- inputs: df=events
SELECT event_id, ts + make_interval(0, 1, 0, 2, 3, 0, 0) AS later, ts - make_interval(0, 0, 1) AS week_before FROM {df} ORDER BY event_id

-- name: h11_make_interval_month_end
-- inputs: df=orders
SELECT TIMESTAMP'2024-01-31 10:00:00' + make_interval(0, 1) AS feb, TIMESTAMP'2024-03-31 00:00:00' - make_interval(0, 1, 0, 1) AS back, TIMESTAMP'2024-02-29 00:00:00' + make_interval(1) AS year

-- name: h11_make_interval_seconds_column
-- inputs: df=clicks
SELECT user_id, ts, ts + make_interval(0, 0, 0, 0, 0, 0, ms / 1000.0) AS ended FROM {df} WHERE user_id = 1 ORDER BY ts

-- name: h11_make_interval_date_plus
-- inputs: df=orders
SELECT order_id, ship_date + make_interval(0, 1, 0, 3) AS d FROM {df} WHERE ship_date IS NOT NULL ORDER BY order_id

-- name: h11_make_interval_as_string
-- inputs: df=nums
SELECT CAST(make_interval(1, 2, 3, 4, 5, 6, 7.5) AS STRING) AS a, CAST(make_interval(0, 0, 0, 0, 0, 0, 0) AS STRING) AS zero, CAST(make_interval(0, -1, 0, 1) AS STRING) AS mixed

-- name: h11_make_interval_output
-- inputs: df=nums
SELECT make_interval(0, 1, 0, 2) AS iv

-- name: h11_try_make_interval_overflow
-- inputs: df=nums
SELECT try_make_interval(178956971, 0) AS months_over, try_make_interval(0, 0, 0, 0, 2562047788, 0, 0) AS hours_over, TIMESTAMP'2024-01-01 00:00:00' + try_make_interval(0, 0, 0, 1) AS ok

-- name: h11_make_interval_overflow_ansi
-- inputs: df=nums
SELECT make_interval(178956971, 0) AS x

-- name: h11_make_interval_null_arg
-- inputs: df=nums
SELECT id, TIMESTAMP'2024-01-31 00:00:00' + make_interval(0, i) AS t FROM {df} WHERE id IN (3, 5, 6) ORDER BY id

-- name: h11_element_at_null_zero
-- inputs: df=orders
SELECT element_at(NULL, 0) AS x

-- name: h11_element_at_typed_null_zero
-- inputs: df=orders
SELECT element_at(CAST(NULL AS ARRAY<INT>), 0) AS x

-- name: h11_element_at_zero_column
-- inputs: df=orders
SELECT order_id, element_at(tags, 0) AS t FROM {df} ORDER BY order_id
