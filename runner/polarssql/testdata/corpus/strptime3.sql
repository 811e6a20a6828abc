-- STRPTIME, DATE(x, format) and TIMESTAMP(x, format) with a meridiem and
-- a 24-hour clock, a 12-hour clock without a meridiem (polars' format
-- checks) and an offset before other items.

-- name: strp3_p_with_h
-- inputs: df=words
SELECT id, TIMESTAMP(ampm, '%Y-%m-%d %H:%M %p') AS t FROM {df}

-- name: strp3_i_without_p
-- inputs: df=words
SELECT id, STRPTIME(ampm, '%Y-%m-%d %I:%M') AS t FROM {df} WHERE id IS NULL

-- name: strp3_minute_without_hour
-- inputs: df=words
SELECT id, DATE(mon, '%d %b %Y %M') AS d FROM {df}

-- name: strp3_z_first
-- inputs: df=words
SELECT id, STRPTIME(CASE WHEN id = 1 THEN '+0100 2024-01-14 08:30' WHEN id = 2 THEN '+01002024-01-14 08:30' END, '%z %Y-%m-%d %H:%M') AS t FROM {df}

-- name: strp3_z_then_seconds
-- inputs: df=words
SELECT id, STRPTIME(CASE WHEN id = 1 THEN '202401140830+010005' WHEN id = 3 THEN '199912312359-115959' END, '%Y%m%d%H%M%z%S') AS t FROM {df}

-- name: strp3_z_then_literal_bad
-- inputs: df=words
SELECT id, STRPTIME(CASE WHEN id = 1 THEN '2024-01-14 08:30 +01 UTC' END, '%Y-%m-%d %H:%M %z UTC') AS t FROM {df}
