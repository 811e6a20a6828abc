-- Round 2 held-out part: dates and timestamps. Written before the
-- round-2 fixes; its figures are reported apart.

-- name: h2_dt_parse_compact
-- inputs: df=texts
SELECT try_to_timestamp('20240310123045', 'yyyyMMddHHmmss') AS t, try_to_timestamp('20240310 1230', 'yyyyMMdd HHmm') AS u FROM {df} WHERE id = 1

-- name: h2_dt_parse_two_digit_year
-- inputs: df=texts
SELECT try_to_date('01/02/69', 'dd/MM/yy') AS a, try_to_date('31/12/99', 'dd/MM/yy') AS b, try_to_date('15-Jun-70', 'dd-MMM-yy') AS c FROM {df} WHERE id = 1

-- name: h2_dt_parse_fraction_variants
-- inputs: df=texts
SELECT try_to_timestamp('2024-03-10 12:00:00.1', 'yyyy-MM-dd HH:mm:ss.SSS') AS a, try_to_timestamp('2024-03-10 12:00:00.12', 'yyyy-MM-dd HH:mm:ss.SSSSSS') AS b, try_to_timestamp('2024-03-10 12:00:00', 'yyyy-MM-dd HH:mm:ss[.SSS]') AS c FROM {df} WHERE id = 1

-- name: h2_dt_parse_offset
-- inputs: df=texts
SELECT try_to_timestamp('2024-03-10T12:00:00+0530', "yyyy-MM-dd'T'HH:mm:ssZ") AS a, try_to_timestamp('2024-03-10T12:00:00-03:00', "yyyy-MM-dd'T'HH:mm:ssXXX") AS b FROM {df} WHERE id = 1

-- name: h2_dt_parse_12_hour
-- inputs: df=texts
SELECT try_to_timestamp('03/10/2024 12:15:00 AM', 'MM/dd/yyyy hh:mm:ss a') AS a, try_to_timestamp('03/10/2024 01:15:00 PM', 'MM/dd/yyyy hh:mm:ss a') AS b FROM {df} WHERE id = 1

-- name: h2_dt_format_month_names
-- inputs: df=customers
SELECT customer_id, date_format(signup_date, 'MMMM yyyy') AS m, date_format(signup_date, 'MMM dd') AS s, date_format(signup_date, 'E') AS d FROM {df}

-- name: h2_dt_format_padding
-- inputs: df=customers
SELECT customer_id, date_format(signup_date, 'd/M/yy') AS a, date_format(signup_date, 'dd/MM/yyyy') AS b FROM {df}

-- name: h2_dt_cast_int_timestamp
-- inputs: df=nums
SELECT id, CAST(i AS TIMESTAMP) AS t FROM {df} WHERE id IN (1, 2, 3, 6)

-- name: h2_dt_timestampdiff_days
-- inputs: df=customers
SELECT customer_id, timestampdiff(DAY, signup_date, DATE '2024-03-10') AS d, timestampdiff(MONTH, signup_date, DATE '2024-03-10') AS m FROM {df}

-- name: h2_dt_sequence_month_ends
-- inputs: df=customers
SELECT customer_id, size(sequence(signup_date, DATE '2024-12-31', INTERVAL 1 MONTH)) AS n FROM {df} WHERE signup_date IS NOT NULL

-- name: h2_dt_window_tumbling_15m
-- inputs: df=clicks
SELECT window.start AS s, sum(ms) AS total FROM {df} GROUP BY window(ts, '15 minutes')

-- name: h2_dt_window_day_by_user
-- inputs: df=clicks
SELECT user_id, window(ts, '1 day').start AS day, count(*) AS n FROM {df} GROUP BY user_id, window(ts, '1 day')

-- name: h2_dt_from_unixtime_default
-- inputs: df=money
SELECT id, from_unixtime(cents) AS t FROM {df}

-- name: h2_dt_to_unix_timestamp_iso
-- inputs: df=landing
SELECT rec_id, to_unix_timestamp(event_time, "yyyy-MM-dd'T'HH:mm:ss.SSSX") AS u FROM {df} WHERE rec_id = '02'

-- name: h2_dt_date_trunc_session_zone
-- conf: spark.sql.session.timeZone=Asia/Kolkata
-- inputs: df=clicks
SELECT user_id, date_trunc('DAY', ts) AS d, date_format(ts, 'yyyy-MM-dd HH:mm:ss') AS local FROM {df}
