-- Held out: written, and its expectations computed, before Polars SQL's
-- STRPTIME, DATE(x, format) and TIMESTAMP(x, format) took a meridiem with
-- a 24-hour clock, a 12-hour clock without a meridiem, an hour without
-- minutes and seconds without an hour (polars' format checks) and an
-- offset (%z, %:z) before other items of the format.

-- name: h_strp3_p_with_h
-- inputs: df=words
SELECT id, STRPTIME(ampm, '%Y-%m-%d %H:%M %p') AS t FROM {df}

-- name: h_strp3_i_without_p
-- inputs: df=words
SELECT id, TIMESTAMP(ampm, '%Y-%m-%d %I:%M') AS t FROM {df}

-- name: h_strp3_date_i_without_p
-- inputs: df=words
SELECT id, DATE(ampm, '%Y-%m-%d %I:%M PM') AS d FROM {df}

-- name: h_strp3_p_first_h
-- inputs: df=words
SELECT id, STRPTIME(ampm, '%p %H:%M %Y-%m-%d') AS t FROM {df} WHERE id > 100

-- name: h_strp3_hour_without_minute
-- inputs: df=words
SELECT id, STRPTIME(mon, '%d %b %Y %H') AS t FROM {df}

-- name: h_strp3_seconds_without_hour
-- inputs: df=words
SELECT id, DATE(mon, '%d %b %Y %S') AS d FROM {df}

-- name: h_strp3_z_first
-- inputs: df=words
SELECT id, STRPTIME(CASE WHEN id < 4 THEN '+0100 2024-01-14 08:30' WHEN id = 5 THEN '-05:30 1999-12-31 23:59' END, '%z %Y-%m-%d %H:%M') AS t FROM {df}

-- name: h_strp3_z_then_literal
-- inputs: df=words
SELECT id, TIMESTAMP(CONCAT(tz, ' UTC'), '%Y-%m-%dT%H:%M:%S%z UTC') AS t FROM {df}

-- name: h_strp3_colon_z_then_seconds
-- inputs: df=words
SELECT id, STRPTIME(CASE WHEN id = 1 THEN '2024-01-14 08:30+01:00:05' WHEN id = 2 THEN '2024-01-14 08:30-0000:59' END, '%Y-%m-%d %H:%M%:z:%S') AS t FROM {df}

-- name: h_strp3_z_middle_bad
-- inputs: df=words
SELECT id, STRPTIME(CASE WHEN id = 1 THEN '14 08:30 +01 01 2024' END, '%d %H:%M %z %m %Y') AS t FROM {df}

-- name: h_strp3_z_middle
-- inputs: df=words
SELECT id, STRPTIME(CASE WHEN id <= 2 THEN '14 08:30 +01 00 01 2024' WHEN id = 3 THEN '29 23:00 -1159 02 2000' END, '%d %H:%M %z %m %Y') AS t FROM {df}
