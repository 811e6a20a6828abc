-- name: dt_parts_ltz
-- inputs: df=orders
SELECT order_id, year(ordered_at) AS y, quarter(ordered_at) AS q, month(ordered_at) AS m, day(ordered_at) AS d, hour(ordered_at) AS h, minute(ordered_at) AS mi, second(ordered_at) AS s FROM {df}

-- name: dt_parts_date
-- inputs: df=orders
SELECT order_id, dayofweek(ship_date) AS dow, weekday(ship_date) AS wd, dayofyear(ship_date) AS doy, weekofyear(ship_date) AS woy, dayofmonth(ship_date) AS dom FROM {df}

-- name: dt_dayofweek_sunday
SELECT dayofweek(DATE'2024-01-14') AS a, weekday(DATE'2024-01-14') AS b, weekofyear(DATE'2024-12-30') AS c, weekofyear(DATE'2021-01-03') AS e

-- name: dt_parts_ntz
-- inputs: df=events
SELECT event_id, year(ts_ntz) AS y, hour(ts_ntz) AS h, minute(ts_ntz) AS m FROM {df}

-- name: dt_parts_from_string
-- inputs: df=strs
SELECT id, year(dt_str) AS y, month(dt_str) AS m FROM {df} WHERE id IN (1, 2, 3, 5)

-- name: dt_session_tz_parts
-- inputs: df=orders
-- conf: spark.sql.session.timeZone=Asia/Kolkata
SELECT order_id, hour(ordered_at) AS h, minute(ordered_at) AS m, CAST(ordered_at AS DATE) AS d, CAST(ordered_at AS STRING) AS s FROM {df}

-- name: dt_session_tz_literal
-- conf: spark.sql.session.timeZone=America/New_York
SELECT TIMESTAMP'2024-07-01 12:00:00' AS t, CAST(TIMESTAMP'2024-07-01 12:00:00' AS STRING) AS s, hour(TIMESTAMP'2024-07-01 12:00:00') AS h

-- name: dt_session_tz_dst_overlap
-- conf: spark.sql.session.timeZone=America/New_York
SELECT CAST('2024-11-03 01:30:00' AS TIMESTAMP) AS t, CAST('2024-03-10 02:30:00' AS TIMESTAMP) AS g

-- name: dt_cast_string_ts_offsets
SELECT CAST('2024-03-10 12:00:00+02:00' AS TIMESTAMP) AS a, CAST('2024-03-10T12:00:00Z' AS TIMESTAMP) AS b, CAST('2024-03-10 12:00:00.123' AS TIMESTAMP) AS c, CAST('2024-03-10' AS TIMESTAMP) AS d, CAST('2024-03-10 12:00:00 Europe/Paris' AS TIMESTAMP) AS e

-- name: dt_cast_string_ts_malformed
SELECT CAST('2024-13-10 12:00:00' AS TIMESTAMP) AS a

-- name: dt_date_literal_forms
SELECT DATE'2024-1-5' AS a, DATE'2024' AS b, DATE'2024-02' AS c, CAST('2024-01-14 23:59:59' AS DATE) AS d, CAST('2024-01-14T10:00' AS DATE) AS e

-- name: dt_date_literal_invalid
SELECT DATE'2024-02-30' AS a

-- name: dt_date_add_sub
-- inputs: df=orders
SELECT order_id, date_add(ship_date, 10) AS a, date_sub(ship_date, 10) AS b, ship_date + 1 AS c, ship_date - 1 AS e, date_add(ordered_at, 1) AS f FROM {df}

-- name: dt_date_add_bigint_rejected
-- inputs: df=orders
SELECT date_add(ship_date, order_id) AS a FROM {df}

-- name: dt_datediff
-- inputs: df=orders
SELECT order_id, datediff(ship_date, ordered_at) AS a, datediff('2024-12-31', ship_date) AS b, ship_date - DATE'2024-01-01' AS c FROM {df}

-- name: dt_timestamp_diff
-- inputs: df=orders
SELECT order_id, ordered_at - TIMESTAMP'2024-01-01 00:00:00' AS d FROM {df} WHERE ordered_at IS NOT NULL

-- name: dt_add_months
-- inputs: df=orders
SELECT order_id, add_months(ship_date, 1) AS a, add_months(ship_date, -2) AS b, add_months(DATE'2024-01-31', 1) AS c FROM {df}

-- name: dt_months_between
-- inputs: df=orders
SELECT order_id, months_between(ship_date, DATE'2024-01-01') AS a, months_between(ordered_at, TIMESTAMP'2023-12-15 12:00:00') AS b, months_between(DATE'2024-03-31', DATE'2024-02-29') AS c, months_between(ordered_at, ship_date, false) AS e FROM {df}

-- name: dt_last_next_day
-- inputs: df=orders
SELECT order_id, last_day(ship_date) AS a, next_day(ship_date, 'TU') AS b, next_day(ship_date, 'Sunday') AS c FROM {df}

-- name: dt_next_day_invalid
-- inputs: df=orders
SELECT next_day(ship_date, 'xx') AS a FROM {df}

-- name: dt_trunc_date
-- inputs: df=orders
SELECT order_id, trunc(ship_date, 'YEAR') AS a, trunc(ship_date, 'MM') AS b, trunc(ship_date, 'WEEK') AS c, trunc(ship_date, 'Q') AS e, trunc(ship_date, 'QUARTER') AS f FROM {df}

-- name: dt_date_trunc_ts
-- inputs: df=orders
SELECT order_id, date_trunc('YEAR', ordered_at) AS a, date_trunc('mon', ordered_at) AS b, date_trunc('DD', ordered_at) AS c, date_trunc('HOUR', ordered_at) AS e, date_trunc('WEEK', ordered_at) AS f, date_trunc('minute', ordered_at) AS g FROM {df}

-- name: dt_date_trunc_session_tz
-- inputs: df=orders
-- conf: spark.sql.session.timeZone=Europe/Paris
SELECT order_id, date_trunc('DAY', ordered_at) AS d, date_trunc('MONTH', ordered_at) AS m FROM {df}

-- name: dt_date_format_patterns
-- inputs: df=orders
SELECT order_id, date_format(ordered_at, 'yyyy-MM-dd') AS a, date_format(ordered_at, 'dd/MM/yy HH:mm:ss') AS b, date_format(ordered_at, 'MMM d, yyyy h:mm a') AS c, date_format(ordered_at, 'EEEE') AS e, date_format(ship_date, 'yyyyMMdd') AS f, date_format(ordered_at, 'HH:mm:ss.SSS') AS g FROM {df}

-- name: dt_date_format_quoted
-- inputs: df=orders
SELECT order_id, date_format(ordered_at, "yyyy-MM-dd'T'HH:mm") AS a, date_format(ordered_at, 'D') AS b FROM {df}

-- name: dt_to_date_to_timestamp
-- inputs: df=strs
SELECT id, to_date(dt_str) AS a, to_timestamp(dt_str) AS b FROM {df} WHERE id IN (1, 2, 3, 5, 7)

-- name: dt_to_date_pattern
SELECT to_date('14/01/2024', 'dd/MM/yyyy') AS a, to_date('2024.01.14', 'yyyy.MM.dd') AS b, to_timestamp('2024-01-14 08:30', 'yyyy-MM-dd HH:mm') AS c, to_timestamp('14-01-2024 08:30:15', 'dd-MM-yyyy HH:mm:ss') AS e

-- name: dt_to_date_pattern_mismatch
SELECT to_date('2024-1-5', 'yyyy-MM-dd') AS a

-- name: dt_try_to_timestamp
SELECT try_to_timestamp('2024-01-14', 'yyyy-MM-dd') AS a, try_to_timestamp('garbage', 'yyyy-MM-dd') AS b, try_to_timestamp('2024-01-14 10:11:12') AS c

-- name: dt_unix_time
-- inputs: df=orders
SELECT order_id, unix_timestamp(ordered_at) AS a, from_unixtime(unix_timestamp(ordered_at), 'yyyy-MM-dd HH:mm') AS b, unix_seconds(ordered_at) AS c, unix_millis(ordered_at) AS e, unix_date(ship_date) AS f FROM {df}

-- name: dt_unix_timestamp_string
SELECT unix_timestamp('2024-01-14 08:30:00') AS a, unix_timestamp('2024/01/14', 'yyyy/MM/dd') AS b, from_unixtime(0) AS c

-- name: dt_timestamp_from_numbers
SELECT timestamp_seconds(1700000000) AS a, timestamp_millis(1700000000123) AS b, timestamp_micros(1700000000123456) AS c, date_from_unix_date(19000) AS d, timestamp_seconds(1.5D) AS e

-- name: dt_make_date_timestamp
SELECT make_date(2024, 2, 29) AS a, make_timestamp(2024, 3, 10, 12, 30, 45.5) AS b, make_timestamp(2024, 3, 10, 12, 0, 0, 'Asia/Tokyo') AS c

-- name: dt_make_date_invalid
SELECT make_date(2023, 2, 29) AS a

-- name: dt_from_to_utc
-- inputs: df=orders
SELECT order_id, from_utc_timestamp(ordered_at, 'America/New_York') AS a, to_utc_timestamp(ordered_at, 'Europe/Paris') AS b FROM {df}

-- name: dt_intervals
-- inputs: df=orders
SELECT order_id, ordered_at + INTERVAL 1 HOUR AS a, ordered_at - INTERVAL '30' MINUTE AS b, ship_date + INTERVAL 2 DAYS AS c, ship_date + INTERVAL '1' MONTH AS e, ordered_at + INTERVAL '1-2' YEAR TO MONTH AS f FROM {df}

-- name: dt_interval_session_tz
-- inputs: df=orders
-- conf: spark.sql.session.timeZone=America/New_York
SELECT order_id, ordered_at + INTERVAL 1 DAY AS a, ordered_at + INTERVAL 1 MONTH AS b FROM {df} WHERE order_id IN (1004, 1008)

-- name: dt_interval_names
SELECT INTERVAL '1' DAY AS a, INTERVAL 2 HOURS AS b, INTERVAL 1 DAY 2 HOURS AS c, INTERVAL '1 02:03:04' DAY TO SECOND AS e, INTERVAL 90 MINUTES AS f

-- name: dt_extract_date_part
-- inputs: df=orders
SELECT order_id, EXTRACT(YEAR FROM ordered_at) AS a, EXTRACT(MONTH FROM ship_date) AS b, date_part('HOUR', ordered_at) AS c, EXTRACT(DOW FROM ship_date) AS e, EXTRACT(SECOND FROM ordered_at) AS f FROM {df}

-- name: dt_compare_with_strings
-- inputs: df=orders
SELECT order_id FROM {df} WHERE ordered_at BETWEEN '2024-01-01' AND '2024-03-31 23:59:59' AND ship_date > '2024-01-10'

-- name: dt_date_vs_timestamp_compare
-- inputs: df=orders
SELECT order_id, ship_date < ordered_at AS a, ship_date = CAST(ordered_at AS DATE) AS b FROM {df}

-- name: dt_current_functions
SELECT current_date() = current_date AS a, current_timestamp() IS NOT NULL AS b, now() >= TIMESTAMP'2024-01-01 00:00:00' AS c, current_timezone() AS d

-- name: dt_date_literal_names
SELECT DATE'2024-01-01', TIMESTAMP'2024-01-01 10:00:00', TIMESTAMP_NTZ'2024-01-01 10:00:00'
