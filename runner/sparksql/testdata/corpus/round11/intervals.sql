-- Round 11 (development): make_interval in arithmetic, element_at at 0.

-- name: r11_iv_make_interval_days_hours
-- inputs: df=orders
SELECT order_id, ordered_at + make_interval(0, 0, 0, 1, 12) AS t FROM {df} ORDER BY order_id

-- name: r11_iv_make_interval_weeks_minus
-- inputs: df=orders
SELECT TIMESTAMP'2024-03-31 12:00:00' - make_interval(0, 1) AS a, TIMESTAMP'2024-03-31 12:00:00' + make_interval(0, 0, 2, 0, 0, 30) AS b, TIMESTAMP_NTZ'2024-01-31 00:00:00' + make_interval(0, 1, 0, 1) AS ntz

-- name: r11_iv_make_interval_zone
-- inputs: df=orders
-- conf: spark.sql.session.timeZone=America/New_York
SELECT TIMESTAMP'2024-03-09 12:00:00' + make_interval(0, 0, 0, 1) AS dst_day, TIMESTAMP'2024-03-09 12:00:00' + make_interval(0, 0, 0, 0, 24) AS dst_hours

-- name: r11_iv_make_interval_date_time_part
-- inputs: df=orders
SELECT DATE'2024-01-31' + make_interval(0, 0, 0, 0, 1) AS x

-- name: r11_iv_try_make_interval_in_filter
-- inputs: df=clicks
-- mode: filter
ts > TIMESTAMP'2024-03-10 00:00:00' + try_make_interval(0, 0, 0, 0, 9)

-- name: r11_iv_make_interval_string_neg
-- inputs: df=nums
SELECT CAST(make_interval(0, 0, 0, 0, -1, -30, -0.5) AS STRING) AS a, CAST(make_interval(2, 14) AS STRING) AS b

-- name: r11_iv_element_at_zero_null_map
-- inputs: df=orders
SELECT element_at(CAST(NULL AS MAP<INT, STRING>), 0) AS x

-- name: r11_iv_element_at_zero_empty
-- inputs: df=orders
SELECT element_at(array(), 0) AS x
