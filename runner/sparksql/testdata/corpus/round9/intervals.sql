-- Round 9 (development): intervals cast to STRING, make_*interval.

-- name: r9_iv_ym_grid
-- inputs: df=nums
SELECT CAST(INTERVAL '0-1' YEAR TO MONTH AS STRING) AS a, CAST(INTERVAL '-0-1' YEAR TO MONTH AS STRING) AS b, CAST(INTERVAL '100' YEAR AS STRING) AS c, CAST(INTERVAL '-5' MONTH AS STRING) AS d, CAST(INTERVAL '178956970-7' YEAR TO MONTH AS STRING) AS e

-- name: r9_iv_dt_grid
-- inputs: df=nums
SELECT CAST(INTERVAL '0 00:00:00' DAY TO SECOND AS STRING) AS a, CAST(INTERVAL '0 00:00:01.5' DAY TO SECOND AS STRING) AS b, CAST(INTERVAL '-0 00:00:01' DAY TO SECOND AS STRING) AS c, CAST(INTERVAL '1' SECOND AS STRING) AS d, CAST(INTERVAL '0.000001' SECOND AS STRING) AS e, CAST(INTERVAL '-100' DAY AS STRING) AS f

-- name: r9_iv_dt_sub_grid
-- inputs: df=nums
SELECT CAST(INTERVAL '-1 02' DAY TO HOUR AS STRING) AS a, CAST(INTERVAL '100' HOUR AS STRING) AS b, CAST(INTERVAL '-02:30' HOUR TO MINUTE AS STRING) AS c, CAST(INTERVAL '1000' MINUTE AS STRING) AS d, CAST(INTERVAL '-10:20.123456' MINUTE TO SECOND AS STRING) AS e, CAST(INTERVAL '12:00:00.1' HOUR TO SECOND AS STRING) AS f

-- name: r9_iv_from_ts
-- inputs: df=clicks
SELECT user_id, CAST(max(ts) - min(ts) AS STRING) AS span FROM {df} GROUP BY user_id ORDER BY user_id

-- name: r9_iv_string_compare
-- inputs: df=nums
SELECT CAST(INTERVAL '1' DAY AS STRING) = 'INTERVAL \'1\' DAY' AS a, upper(CAST(INTERVAL '2' HOUR AS STRING)) AS b

-- name: r9_make_intervals_grid
-- inputs: df=nums
SELECT CAST(make_dt_interval(2) AS STRING) AS a, CAST(make_dt_interval(0, 0, 90) AS STRING) AS b, CAST(make_dt_interval(0, 0, 0, 0.000001) AS STRING) AS c, CAST(make_ym_interval(0) AS STRING) AS d, CAST(make_ym_interval(-1, -1) AS STRING) AS e

-- name: r9_make_interval_grid
-- inputs: df=nums
SELECT CAST(make_interval(0, 13) AS STRING) AS a, CAST(make_interval(1) AS STRING) AS b, CAST(make_interval(0, 0, 2, 1, 0, 0, 0.5) AS STRING) AS c, CAST(make_interval() AS STRING) AS d, CAST(make_interval(-1, 0, 0, -1) AS STRING) AS e

-- name: r9_make_dt_interval_column
-- inputs: df=clicks
SELECT user_id, ts + make_dt_interval(0, 0, 0, ms / 1000.0) AS t FROM {df} ORDER BY user_id, ts

-- name: r9_make_ym_interval_add
-- inputs: df=orders
SELECT order_id, add_months(ship_date, 1) = ship_date + make_ym_interval(0, 1) AS same FROM {df} ORDER BY order_id
