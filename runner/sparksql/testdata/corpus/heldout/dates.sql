-- name: h_date_parts
-- inputs: df=orders
SELECT order_id, year(ordered_at) AS y, month(ordered_at) AS m, day(ordered_at) AS d, hour(ordered_at) AS h, dayofweek(ordered_at) AS dow, weekofyear(ordered_at) AS w, quarter(ordered_at) AS q FROM {df}

-- name: h_date_format
-- inputs: df=orders
SELECT order_id, date_format(ordered_at, 'yyyy-MM-dd HH:mm') AS f1, date_format(ship_date, 'dd/MM/yyyy') AS f2, date_format(ordered_at, 'EEE') AS dn FROM {df}

-- name: h_to_date_formats
-- inputs: df=strs
SELECT id, to_date(dt_str) AS d FROM {df} WHERE id IN (1, 2, 3, 5)

-- name: h_to_date_pattern
-- inputs: df=strs
SELECT id, to_date(dt_str, 'yyyyMMdd') AS d FROM {df} WHERE id = 6

-- name: h_to_timestamp
-- inputs: df=events
SELECT event_id, to_timestamp(ts_str) AS t FROM {df}

-- name: h_date_trunc
-- inputs: df=orders
SELECT order_id, date_trunc('MONTH', ordered_at) AS m, date_trunc('hour', ordered_at) AS h, trunc(ship_date, 'MM') AS dm FROM {df}

-- name: h_datediff_add
-- inputs: df=orders
SELECT order_id, datediff(ship_date, CAST(ordered_at AS DATE)) AS days, date_add(ship_date, 30) AS due, date_sub(ship_date, 1) AS prev FROM {df}

-- name: h_add_months_last_day
-- inputs: df=orders
SELECT order_id, add_months(CAST(ordered_at AS DATE), 1) AS next_month, last_day(ship_date) AS eom FROM {df}

-- name: h_months_between
-- inputs: df=customers
SELECT customer_id, months_between(DATE'2024-06-30', signup_date) AS mb FROM {df}

-- name: h_unix_time
-- inputs: df=orders
SELECT order_id, unix_timestamp(ordered_at) AS u, from_unixtime(unix_timestamp(ordered_at)) AS back FROM {df}

-- name: h_session_tz_hour
-- inputs: df=orders
-- conf: spark.sql.session.timeZone=America/New_York
SELECT order_id, hour(ordered_at) AS h, CAST(ordered_at AS DATE) AS local_day FROM {df}

-- name: h_session_tz_parse
-- inputs: df=events
-- conf: spark.sql.session.timeZone=Europe/Paris
SELECT event_id, CAST(ts_str AS TIMESTAMP) AS t FROM {df}

-- name: h_ts_ntz_ops
-- inputs: df=events
SELECT event_id, ts_ntz + INTERVAL 1 HOUR AS later, CAST(ts_ntz AS DATE) AS d, hour(ts_ntz) AS h FROM {df}

-- name: h_interval_arith
-- inputs: df=orders
SELECT order_id, ordered_at + INTERVAL 2 DAYS AS due, ship_date - INTERVAL '1' MONTH AS prev FROM {df}

-- name: h_make_date
-- inputs: df=nums
SELECT id, make_date(2024, abs(t) % 12 + 1, 1) AS d FROM {df} WHERE t IS NOT NULL

-- name: h_date_literal_filter
-- inputs: df=orders
SELECT order_id FROM {df} WHERE ordered_at >= TIMESTAMP'2024-03-01 00:00:00' AND ship_date < DATE'2024-12-01'

-- name: h_from_utc
-- inputs: df=orders
SELECT order_id, from_utc_timestamp(ordered_at, 'Asia/Tokyo') AS tokyo, to_utc_timestamp(ordered_at, 'America/Los_Angeles') AS la FROM {df}

-- name: h_extract
-- inputs: df=orders
SELECT order_id, extract(YEAR FROM ordered_at) AS y, date_part('minute', ordered_at) AS mi FROM {df}

-- name: h_dayofyear_weekday
-- inputs: df=orders
SELECT order_id, dayofyear(ship_date) AS doy, weekday(ship_date) AS wd, dayofmonth(ship_date) AS dom FROM {df}

-- name: h_next_day
-- inputs: df=orders
SELECT order_id, next_day(ship_date, 'Mon') AS nm FROM {df}
