-- Held out: written, and its expectations computed, before Polars SQL's
-- STRPTIME, DATE(x, format) and TIMESTAMP(x, format) read chrono's month
-- and weekday names (%b %B %a %A), 12-hour clocks (%I %p), offsets (%z
-- %:z), nanoseconds (%f) and days of the year (%j); the fixture table
-- words was added with them.

-- name: h_strp2_b
-- inputs: df=words
SELECT id, DATE(mon, '%d %b %Y') AS d FROM {df}

-- name: h_strp2_long_month
-- inputs: df=words
SELECT id, DATE(full, '%B %d, %Y') AS d FROM {df}

-- name: h_strp2_pm
-- inputs: df=words
SELECT id, STRPTIME(ampm, '%Y-%m-%d %I:%M %p') AS t FROM {df}

-- name: h_strp2_z
-- inputs: df=words
SELECT id, STRPTIME(tz, '%Y-%m-%dT%H:%M:%S%z') AS t FROM {df}

-- name: h_strp2_colon_z
-- inputs: df=words
SELECT id, STRPTIME(tzc, '%Y-%m-%dT%H:%M:%S%:z') AS t FROM {df}

-- name: h_strp2_z_on_colon
-- inputs: df=words
SELECT id, STRPTIME(tzc, '%Y-%m-%dT%H:%M:%S%z') AS t FROM {df}

-- name: h_strp2_f
-- inputs: df=words
SELECT id, STRPTIME(nanos, '%Y-%m-%d %H:%M:%S.%f') AS t FROM {df}

-- name: h_strp2_j
-- inputs: df=words
SELECT id, DATE(doy, '%Y-%j') AS d FROM {df}

-- name: h_strp2_a
-- inputs: df=words
SELECT id, DATE(wd, '%a, %d %b %Y') AS d FROM {df}

-- name: h_strp2_long_weekday
-- inputs: df=words
SELECT id, DATE(wd, '%A, %d %b %Y') AS d FROM {df}

-- name: h_strp2_b_timestamp
-- inputs: df=words
SELECT id, STRPTIME(mon, '%d %b %Y') AS t FROM {df}

-- name: h_strp2_month_extract
-- inputs: df=words
SELECT id, EXTRACT(MONTH FROM DATE(full, '%B %d, %Y')) AS m FROM {df} WHERE id > 1

-- name: h_strp2_bad_leap
-- inputs: df=words
SELECT id, DATE(bad, '%d %b %Y') AS d FROM {df} WHERE id = 1

-- name: h_strp2_bad_sept
-- inputs: df=words
SELECT id, DATE(bad, '%B %d, %Y') AS d FROM {df} WHERE id = 2

-- name: h_strp2_bad_13pm
-- inputs: df=words
SELECT id, STRPTIME(bad, '%Y-%m-%d %I:%M %p') AS t FROM {df} WHERE id = 3

-- name: h_strp2_bad_weekday
-- inputs: df=words
SELECT id, DATE(bad, '%a, %d %b %Y') AS d FROM {df} WHERE id = 5

-- name: h_strp2_bad_doy
-- inputs: df=words
SELECT id, DATE(bad, '%Y-%j') AS d FROM {df} WHERE id = 6
