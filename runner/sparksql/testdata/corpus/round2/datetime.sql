-- Round 2: dates and timestamps with patterns, written before the round-2
-- fixes.

-- name: r2_dt_to_timestamp_default
-- inputs: df=landing
SELECT rec_id, try_to_timestamp(event_time) AS ts FROM {df}

-- name: r2_dt_to_timestamp_pattern
-- inputs: df=landing
SELECT rec_id, try_to_timestamp(event_time, 'yyyy-MM-dd HH:mm:ss') AS ts FROM {df}

-- name: r2_dt_to_timestamp_fraction_fewer
-- inputs: df=landing
SELECT rec_id, try_to_timestamp(event_time, 'yyyy-MM-dd HH:mm:ss.SSS') AS ts FROM {df}

-- name: r2_dt_to_timestamp_optional_fraction
-- inputs: df=landing
SELECT rec_id, try_to_timestamp(event_time, 'yyyy-MM-dd HH:mm:ss[.SSSSSS]') AS ts FROM {df}

-- name: r2_dt_to_timestamp_iso_zulu
-- inputs: df=landing
SELECT rec_id, try_to_timestamp(event_time, "yyyy-MM-dd'T'HH:mm:ss.SSSX") AS ts FROM {df}

-- name: r2_dt_to_timestamp_yy
-- inputs: df=landing
SELECT rec_id, try_to_timestamp(event_time, 'dd/MM/yy HH:mm') AS ts FROM {df}

-- name: r2_dt_to_timestamp_epoch_string
-- inputs: df=landing
SELECT rec_id, CAST(try_cast(event_time AS BIGINT) AS TIMESTAMP) AS ts FROM {df}

-- name: r2_dt_to_timestamp_strict_fails
-- inputs: df=landing
SELECT rec_id, to_timestamp(event_time, 'yyyy-MM-dd HH:mm:ss') AS ts FROM {df}

-- name: r2_dt_to_date_formats
-- inputs: df=landing
SELECT rec_id, coalesce(try_to_date(event_date, 'yyyy-MM-dd'), try_to_date(event_date, 'MM/dd/yyyy'), try_to_date(event_date, 'dd-MMM-yyyy'), try_to_date(event_date, 'yyyy/MM/dd'), try_to_date(event_date, 'yyyyMMdd')) AS d FROM {df}

-- name: r2_dt_to_date_invalid_day
-- inputs: df=landing
SELECT rec_id, try_to_date(event_date) AS d FROM {df}

-- name: r2_dt_to_date_strict
-- inputs: df=landing
SELECT rec_id, to_date(event_date, 'yyyy-MM-dd') AS d FROM {df} WHERE rec_id = '6'

-- name: r2_dt_to_date_mmm
-- inputs: df=landing
SELECT rec_id, try_to_date(event_date, 'dd-MMM-yyyy') AS d FROM {df}

-- name: r2_dt_to_date_single_letter
-- inputs: df=strs
SELECT id, try_to_date(dt_str, 'yyyy-M-d') AS d FROM {df}

-- name: r2_dt_cast_string_date
-- inputs: df=strs
SELECT id, try_cast(dt_str AS DATE) AS d, try_cast(dt_str AS TIMESTAMP) AS ts FROM {df}

-- name: r2_dt_cast_bigint_timestamp
-- inputs: df=money
SELECT id, CAST(cents AS TIMESTAMP) AS ts FROM {df} WHERE id <> 4

-- name: r2_dt_cast_double_timestamp
-- inputs: df=money
SELECT id, CAST(fx AS TIMESTAMP) AS ts FROM {df}

-- name: r2_dt_cast_timestamp_long
-- inputs: df=clicks
SELECT user_id, CAST(ts AS BIGINT) AS epoch, CAST(ts AS DOUBLE) AS epoch_d FROM {df}

-- name: r2_dt_timestamp_seconds_millis
-- inputs: df=money
SELECT id, timestamp_seconds(cents) AS s, timestamp_millis(cents) AS ms, timestamp_micros(cents) AS us FROM {df}

-- name: r2_dt_unix_functions
-- inputs: df=clicks
SELECT user_id, unix_seconds(ts) AS s, unix_millis(ts) AS ms, unix_micros(ts) AS us FROM {df}

-- name: r2_dt_from_unixtime_pattern
-- inputs: df=money
SELECT id, from_unixtime(cents, 'yyyy-MM-dd HH:mm') AS t FROM {df}

-- name: r2_dt_unix_timestamp_pattern
-- inputs: df=landing
SELECT rec_id, unix_timestamp(event_date, 'yyyyMMdd') AS u FROM {df} WHERE rec_id = '8'

-- name: r2_dt_date_format_patterns
-- inputs: df=clicks
SELECT user_id, ts, date_format(ts, 'yyyy-MM-dd') AS d, date_format(ts, 'EEE, d MMM yyyy HH:mm') AS rfc, date_format(ts, 'hh:mm a') AS ampm FROM {df}

-- name: r2_dt_date_format_fraction
-- inputs: df=clicks
SELECT user_id, date_format(ts, 'HH:mm:ss.SSS') AS ms, date_format(ts, 'HH:mm:ss.SSSSSS') AS us FROM {df}

-- name: r2_dt_date_format_quarter_week
-- inputs: df=clicks
SELECT user_id, date_format(ts, 'QQQ yyyy') AS q, date_format(ts, 'EEEE') AS day, date_format(ts, 'D') AS doy FROM {df}

-- name: r2_dt_date_format_zone
-- inputs: df=clicks
SELECT user_id, date_format(ts, 'yyyy-MM-dd HH:mm:ssXXX') AS iso, date_format(ts, 'z') AS z FROM {df}

-- name: r2_dt_date_format_week_based
-- inputs: df=clicks
SELECT date_format(ts, 'YYYY-ww') AS w FROM {df}

-- name: r2_dt_date_format_literal_text
-- inputs: df=clicks
SELECT user_id, date_format(ts, "'day' dd 'of' MMMM") AS t FROM {df}

-- name: r2_dt_date_format_session_zone
-- conf: spark.sql.session.timeZone=America/New_York
-- inputs: df=clicks
SELECT user_id, date_format(ts, 'yyyy-MM-dd HH:mm') AS local_time, hour(ts) AS h FROM {df}

-- name: r2_dt_date_trunc_units
-- inputs: df=clicks
SELECT user_id, date_trunc('HOUR', ts) AS h, date_trunc('week', ts) AS w, date_trunc('QUARTER', ts) AS q, trunc(CAST(ts AS DATE), 'MM') AS m FROM {df}

-- name: r2_dt_datediff_months_between
-- inputs: df=customers
SELECT customer_id, datediff(DATE '2024-03-10', signup_date) AS days, months_between(DATE '2024-03-10', signup_date) AS months, round(months_between(DATE '2024-03-10', signup_date) / 12, 1) AS years FROM {df}

-- name: r2_dt_add_months_last_day
-- inputs: df=customers
SELECT customer_id, add_months(signup_date, 1) AS next_m, last_day(signup_date) AS eom, next_day(signup_date, 'MO') AS next_mon FROM {df}

-- name: r2_dt_date_add_sub
-- inputs: df=customers
SELECT customer_id, date_add(signup_date, 30) AS a, date_sub(signup_date, 1) AS s, signup_date + 7 AS p, dateadd(DAY, 2, signup_date) AS da FROM {df}

-- name: r2_dt_timestampdiff
-- inputs: df=clicks
SELECT user_id, timestampdiff(MINUTE, TIMESTAMP '2024-03-10 08:00:00', ts) AS mins, timestampdiff(HOUR, ts, TIMESTAMP '2024-03-11 00:00:00') AS hours FROM {df}

-- name: r2_dt_timestampadd
-- inputs: df=clicks
SELECT user_id, timestampadd(HOUR, 2, ts) AS plus2h, timestampadd(MONTH, 1, ts) AS plus1m FROM {df}

-- name: r2_dt_datediff_units
-- inputs: df=clicks
SELECT user_id, datediff(DAY, TIMESTAMP '2024-03-01 00:00:00', ts) AS d FROM {df}

-- name: r2_dt_extract_parts
-- inputs: df=clicks
SELECT user_id, year(ts) AS y, quarter(ts) AS q, month(ts) AS m, dayofweek(ts) AS dow, weekday(ts) AS wd, weekofyear(ts) AS woy, dayofyear(ts) AS doy FROM {df}

-- name: r2_dt_extract_syntax
-- inputs: df=clicks
SELECT user_id, EXTRACT(HOUR FROM ts) AS h, EXTRACT(SECOND FROM ts) AS s, date_part('minute', ts) AS m, EXTRACT(DOW FROM ts) AS dow FROM {df}

-- name: r2_dt_make_timestamp
-- inputs: df=nums
SELECT id, make_timestamp(2024, 3, 10, 12, 30, 45.5) AS ts, make_date(2024, 2, 29) AS d FROM {df} WHERE id = 1

-- name: r2_dt_make_date_invalid
-- inputs: df=nums
SELECT make_date(2023, 2, 29) AS d FROM {df} WHERE id = 1

-- name: r2_dt_try_make_timestamp
-- inputs: df=nums
SELECT try_make_timestamp(2023, 2, 29, 0, 0, 0) AS ts FROM {df} WHERE id = 1

-- name: r2_dt_from_utc_to_utc
-- inputs: df=clicks
SELECT user_id, from_utc_timestamp(ts, 'Europe/Paris') AS paris, to_utc_timestamp(ts, 'America/New_York') AS utc FROM {df}

-- name: r2_dt_convert_timezone
-- inputs: df=clicks
SELECT user_id, convert_timezone('UTC', 'Asia/Tokyo', CAST(ts AS TIMESTAMP_NTZ)) AS tokyo FROM {df}

-- name: r2_dt_ntz_vs_ltz
-- conf: spark.sql.session.timeZone=Europe/Paris
-- inputs: df=events
SELECT event_id, CAST(ts AS STRING) AS ltz, CAST(ts_ntz AS STRING) AS ntz, CAST(ts_ntz AS TIMESTAMP) AS ntz_as_ltz FROM {df}

-- name: r2_dt_string_with_offset
-- inputs: df=events
SELECT event_id, try_to_timestamp(ts_str) AS t FROM {df}

-- name: r2_dt_sequence_dates
-- inputs: df=fx
SELECT currency, sequence(rate_date, date_add(rate_date, 3)) AS days FROM {df}

-- name: r2_dt_sequence_dates_step
-- inputs: df=fx
SELECT currency, sequence(DATE '2024-01-31', DATE '2024-05-01', INTERVAL 1 MONTH) AS months FROM {df} WHERE currency = 'EUR'

-- name: r2_dt_sequence_timestamps
-- inputs: df=fx
SELECT sequence(TIMESTAMP '2024-03-10 00:00:00', TIMESTAMP '2024-03-10 03:00:00', INTERVAL 1 HOUR) AS hours FROM {df} WHERE currency = 'EUR'

-- name: r2_dt_window_tumbling
-- inputs: df=clicks
SELECT window.start, window.end, count(*) AS n FROM {df} GROUP BY window(ts, '1 hour')

-- name: r2_dt_window_tumbling_alias
-- inputs: df=clicks
SELECT w.start AS start, user_id, count(*) AS n FROM (SELECT window(ts, '30 minutes') AS w, user_id FROM {df}) GROUP BY w.start, user_id

-- name: r2_dt_window_sliding
-- inputs: df=clicks
SELECT window.start, count(*) AS n FROM {df} GROUP BY window(ts, '1 hour', '30 minutes')

-- name: r2_dt_session_window
-- inputs: df=clicks
SELECT user_id, session_window.start AS s, count(*) AS n FROM {df} GROUP BY user_id, session_window(ts, '30 minutes')

-- name: r2_dt_hourly_bucket_trunc
-- inputs: df=clicks
SELECT date_trunc('hour', ts) AS hour, count(*) AS n, sum(ms) AS total_ms FROM {df} GROUP BY date_trunc('hour', ts)

-- name: r2_dt_daily_partition_col
-- inputs: df=clicks
SELECT CAST(ts AS DATE) AS event_date, count(DISTINCT user_id) AS users FROM {df} GROUP BY CAST(ts AS DATE)

-- name: r2_dt_interval_arith
-- inputs: df=clicks
SELECT user_id, ts + INTERVAL '1' DAY AS t1, ts - INTERVAL 90 MINUTES AS t2, ts + INTERVAL '1-2' YEAR TO MONTH AS t3 FROM {df}

-- name: r2_dt_timestamp_subtract
-- inputs: df=clicks
SELECT user_id, ts - TIMESTAMP '2024-03-10 00:00:00' AS since_midnight FROM {df}

-- name: r2_dt_date_subtract
-- inputs: df=customers
SELECT customer_id, DATE '2024-03-10' - signup_date AS age FROM {df}

-- name: r2_dt_current_date_type
-- inputs: df=clicks
SELECT typeof(current_date()) AS a, typeof(current_timestamp()) AS b, typeof(now()) AS c FROM {df} WHERE user_id = 1 AND page = 'home' AND ms = 120

-- name: r2_dt_date_from_parts_strings
-- inputs: df=landing
SELECT rec_id, make_date(CAST(substr(event_date, 1, 4) AS INT), CAST(substr(event_date, 6, 2) AS INT), CAST(substr(event_date, 9, 2) AS INT)) AS d FROM {df} WHERE rec_id = '1'

-- name: r2_dt_to_timestamp_invalid_pattern
-- inputs: df=landing
SELECT to_timestamp(event_time, 'yyyy-MM-dd HH:mm:ss.SSSSSSSSSSS') AS ts FROM {df}

-- name: r2_dt_date_format_invalid_letter
-- inputs: df=clicks
SELECT date_format(ts, 'yyyy-MM-dd b') AS x FROM {df}

-- name: r2_dt_to_timestamp_ntz
-- inputs: df=landing
SELECT rec_id, try_to_timestamp_ntz(event_time, 'yyyy-MM-dd HH:mm:ss') AS t FROM {df}

-- name: r2_dt_to_timestamp_month_name
-- inputs: df=texts
SELECT try_to_timestamp('Mar 10, 2024 5:07 PM', 'MMM d, yyyy h:mm a') AS t FROM {df} WHERE id = 1

-- name: r2_dt_to_date_full_month_name
-- inputs: df=texts
SELECT try_to_date('10 March 2024', 'd MMMM yyyy') AS d, try_to_date('Sunday 10 March 2024', 'EEEE d MMMM yyyy') AS e FROM {df} WHERE id = 1

-- name: r2_dt_date_format_from_string
-- inputs: df=landing
SELECT rec_id, date_format(event_date, 'dd.MM.yyyy') AS d FROM {df} WHERE rec_id IN ('1', '8')
