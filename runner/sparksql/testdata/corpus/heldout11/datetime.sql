-- Round 11 (held out): datetime functions of landing data (date_format,
-- to_timestamp, unix_timestamp, from_unixtime with many patterns,
-- date_trunc/trunc, next_day, last_day, months_between, add_months at
-- month ends, make_timestamp of invalid dates), written before the
-- round-11 code.

-- name: h11_dt_format_patterns
-- inputs: df=events
SELECT event_id, date_format(ts, 'yyyy-MM-dd''T''HH:mm:ss.SSSXXX') AS iso, date_format(ts, 'EEE, d MMM yyyy') AS rfc, date_format(ts, 'EEEE') AS dow, date_format(ts, 'D') AS doy, date_format(ts, 'h:mm a') AS ampm, date_format(ts, 'QQQ') AS q, date_format(ts, 'LLLL') AS mon FROM {df} ORDER BY event_id

-- name: h11_dt_format_zones
-- inputs: df=events
-- conf: spark.sql.session.timeZone=America/New_York
SELECT event_id, date_format(ts, 'yyyy-MM-dd HH:mm z') AS z, date_format(ts, 'VV') AS vv, date_format(ts, 'xxx') AS x, date_format(ts, 'ZZZZZ') AS zz, date_format(ts, 'O') AS o FROM {df} ORDER BY event_id

-- name: h11_dt_format_fraction_kk
-- inputs: df=orders
SELECT order_id, date_format(ordered_at, 'yyyyMMddHHmmssSSSSSS') AS compact, date_format(ordered_at, 'kk:mm K') AS kk, date_format(ordered_at, 'yy-M-d') AS short, date_format(ship_date, 'MMMM dd, yyyy') AS longdate FROM {df} ORDER BY order_id

-- name: h11_to_ts_patterns
-- inputs: df=strs
SELECT to_timestamp('10/03/24 08:05', 'dd/MM/yy HH:mm') AS a, to_timestamp('2024-03-10T12:00:00.123Z', 'yyyy-MM-dd''T''HH:mm:ss.SSSX') AS b, to_timestamp('20240310', 'yyyyMMdd') AS c, to_timestamp('10-Mar-2024', 'dd-MMM-yyyy') AS d, to_timestamp('2024-03-10 1:2:3', 'yyyy-MM-dd H:m:s') AS e, to_timestamp('Sun, 10 Mar 2024 12:00:00 +0100', 'EEE, dd MMM yyyy HH:mm:ss Z') AS f

-- name: h11_to_ts_landing
-- inputs: df=landing
SELECT rec_id, try_to_timestamp(event_time, 'yyyy-MM-dd HH:mm:ss') AS plain, try_to_timestamp(event_time, 'yyyy-MM-dd HH:mm:ss[.SSS]') AS frac, try_to_timestamp(event_date, 'dd-MMM-yyyy') AS mon, try_to_timestamp(event_date, 'yyyyMMdd') AS compact FROM {df} ORDER BY rec_id

-- name: h11_to_ts_invalid_ansi
-- inputs: df=strs
SELECT to_timestamp('2024-13-01 00:00:00', 'yyyy-MM-dd HH:mm:ss') AS x

-- name: h11_unix_timestamp
-- inputs: df=events
SELECT event_id, unix_timestamp(ts) AS u, unix_timestamp(ts_str, 'yyyy-MM-dd HH:mm:ss') AS s, unix_timestamp('10/03/2024', 'dd/MM/yyyy') AS lit FROM {df} WHERE event_id IN ('e1', 'e4', 'e6') ORDER BY event_id

-- name: h11_from_unixtime
-- inputs: df=strs
SELECT from_unixtime(0) AS epoch, from_unixtime(1710072000, 'yyyy-MM-dd HH:mm') AS a, from_unixtime(1710072000, 'EEE MMM dd HH:mm:ss yyyy') AS b, from_unixtime(-86400, 'yyyy-MM-dd') AS neg, from_unixtime(1710072000, 'D w') AS bad

-- name: h11_from_unixtime_zone
-- inputs: df=clicks
-- conf: spark.sql.session.timeZone=Europe/Paris
SELECT user_id, ts, from_unixtime(unix_timestamp(ts), 'yyyy-MM-dd HH:mm:ss XXX') AS local FROM {df} WHERE user_id = 3 ORDER BY ts

-- name: h11_date_trunc_units
-- inputs: df=orders
SELECT order_id, date_trunc('WEEK', ordered_at) AS wk, date_trunc('QUARTER', ordered_at) AS q, date_trunc('HOUR', ordered_at) AS h, date_trunc('dd', ordered_at) AS d, date_trunc('MILLISECOND', ordered_at) AS ms, date_trunc('bogus', ordered_at) AS bad FROM {df} ORDER BY order_id

-- name: h11_trunc_dates
-- inputs: df=orders
SELECT order_id, trunc(ship_date, 'MM') AS m, trunc(ship_date, 'Q') AS q, trunc(ship_date, 'WEEK') AS w, trunc(ship_date, 'yy') AS y, trunc(ship_date, 'DD') AS bad FROM {df} ORDER BY order_id

-- name: h11_next_last_day
-- inputs: df=orders
SELECT next_day(DATE'2024-03-10', 'Sun') AS same_dow, next_day(DATE'2024-03-10', 'MONDAY') AS mon, next_day(DATE'2024-03-10', 'fr') AS fr, last_day(DATE'2024-02-10') AS leap, last_day(DATE'2023-02-28') AS nonleap, last_day(TIMESTAMP'2024-12-15 10:00:00') AS ts

-- name: h11_next_day_invalid
-- inputs: df=orders
SELECT next_day(DATE'2024-03-10', 'someday') AS x

-- name: h11_months_between
-- inputs: df=orders
SELECT months_between(TIMESTAMP'2024-03-31 00:00:00', TIMESTAMP'2024-02-29 00:00:00') AS ends, months_between(DATE'2024-03-15', DATE'2024-02-10') AS mid, months_between(TIMESTAMP'2024-03-15 12:00:00', TIMESTAMP'2024-02-10 00:00:00', false) AS raw, months_between(DATE'2024-01-01', DATE'2024-03-31') AS neg, months_between('2024-03-10', '2023-03-10') AS str

-- name: h11_months_between_columns
-- inputs: df=orders
SELECT order_id, months_between(ship_date, ordered_at) AS m, months_between(ordered_at, TIMESTAMP'2024-01-31 00:00:00', false) AS raw FROM {df} ORDER BY order_id

-- name: h11_add_months_ends
-- inputs: df=orders
SELECT add_months(DATE'2024-01-31', 1) AS feb, add_months(DATE'2024-02-29', 12) AS nextyear, add_months(DATE'2024-03-31', -1) AS back, add_months(DATE'2023-02-28', 1) AS notend, add_months(DATE'2024-01-31', 13) AS far, add_months('2024-05-31', 1) AS str

-- name: h11_make_timestamp_invalid_ansi
-- inputs: df=nums
SELECT make_timestamp(2024, 2, 30, 0, 0, 0) AS x

-- name: h11_make_timestamp_try_invalid
-- inputs: df=nums
SELECT try_make_timestamp(2024, 2, 30, 0, 0, 0) AS feb30, try_make_timestamp(2023, 2, 29, 12, 0, 0) AS nonleap, try_make_timestamp(2024, 2, 29, 24, 0, 0) AS h24, try_make_timestamp(2024, 4, 31, 0, 0, 0, 'UTC') AS apr31

-- name: h11_make_date_invalid_ansi
-- inputs: df=nums
SELECT make_date(2023, 2, 29) AS x
