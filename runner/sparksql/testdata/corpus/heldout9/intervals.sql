-- Round 9 (held out): intervals cast to STRING (YEAR TO MONTH, DAY TO
-- SECOND and their sub-ranges), make_interval, make_dt_interval,
-- make_ym_interval, written before their translation.

-- name: h9_iv_ym_to_string
-- inputs: df=nums
SELECT CAST(INTERVAL '1-2' YEAR TO MONTH AS STRING) AS a, CAST(INTERVAL '-3-11' YEAR TO MONTH AS STRING) AS b, CAST(INTERVAL '5' YEAR AS STRING) AS c, CAST(INTERVAL '14' MONTH AS STRING) AS d, CAST(INTERVAL '0-0' YEAR TO MONTH AS STRING) AS z

-- name: h9_iv_dt_to_string
-- inputs: df=nums
SELECT CAST(INTERVAL '3 04:05:06.789' DAY TO SECOND AS STRING) AS a, CAST(INTERVAL '-1 00:00:00.000001' DAY TO SECOND AS STRING) AS b, CAST(INTERVAL '10' DAY AS STRING) AS c, CAST(INTERVAL '25' HOUR AS STRING) AS d, CAST(INTERVAL '90' MINUTE AS STRING) AS e, CAST(INTERVAL '61.5' SECOND AS STRING) AS f

-- name: h9_iv_subranges_to_string
-- inputs: df=nums
SELECT CAST(INTERVAL '1 02' DAY TO HOUR AS STRING) AS a, CAST(INTERVAL '1 02:03' DAY TO MINUTE AS STRING) AS b, CAST(INTERVAL '02:03' HOUR TO MINUTE AS STRING) AS c, CAST(INTERVAL '02:03:04' HOUR TO SECOND AS STRING) AS d, CAST(INTERVAL '03:04.25' MINUTE TO SECOND AS STRING) AS e

-- name: h9_iv_ts_diff_to_string
-- inputs: df=feed
SELECT id, CAST(t1 - t0 AS STRING) AS d FROM {df} ORDER BY id

-- name: h9_iv_date_diff_string
-- inputs: df=orders
SELECT order_id, CAST(ship_date - DATE'2024-01-01' AS STRING) AS d FROM {df} ORDER BY order_id

-- name: h9_iv_concat
-- inputs: df=nums
SELECT concat('took ', INTERVAL '1 02:00:00' DAY TO SECOND) AS s, INTERVAL '2' HOUR || '' AS t

-- name: h9_make_dt_interval
-- inputs: df=nums
SELECT CAST(make_dt_interval(1, 2, 3, 4.5) AS STRING) AS a, CAST(make_dt_interval(0, 25) AS STRING) AS b, CAST(make_dt_interval(-1) AS STRING) AS c, CAST(make_dt_interval() AS STRING) AS z

-- name: h9_make_ym_interval
-- inputs: df=nums
SELECT CAST(make_ym_interval(1, 2) AS STRING) AS a, CAST(make_ym_interval(0, 14) AS STRING) AS b, CAST(make_ym_interval(-2) AS STRING) AS c

-- name: h9_make_interval_string
-- inputs: df=nums
SELECT CAST(make_interval(1, 2, 3, 4, 5, 6, 7.5) AS STRING) AS a, CAST(make_interval(0, 0, 0, 1) AS STRING) AS b, CAST(make_interval(0, 0, 0, 0, 36) AS STRING) AS c

-- name: h9_make_interval_add
-- inputs: df=orders
SELECT order_id, ordered_at + make_interval(0, 1, 0, 2, 3) AS t FROM {df} ORDER BY order_id

-- name: h9_make_interval_date
-- inputs: df=orders
SELECT order_id, ship_date + make_interval(0, 0, 1) AS d FROM {df} ORDER BY order_id

-- name: h9_try_make_interval
-- inputs: df=nums
SELECT CAST(try_make_interval(2147483647, 1) AS STRING) AS o, CAST(try_make_interval(1) AS STRING) AS a

-- name: h9_make_interval_overflow
-- inputs: df=nums
SELECT make_interval(2147483647, 1) AS x

-- name: h9_iv_column_to_string
-- inputs: df=nums
SELECT id, CAST(make_dt_interval(0, 0, i) AS STRING) AS m, CAST(make_ym_interval(0, t) AS STRING) AS y FROM {df} ORDER BY id
