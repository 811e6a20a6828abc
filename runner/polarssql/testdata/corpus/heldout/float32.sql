-- Held out: written, and its expectations computed, before Polars SQL's
-- functions of Float32 arguments were translated (polars keeps Float32).

-- name: h_f32_median
-- inputs: df=texts
SELECT MEDIAN(g) AS m, MEDIAN(f) AS mf FROM {df}

-- name: h_f32_avg
-- inputs: df=nums
SELECT AVG(f) AS a FROM {df}

-- name: h_f32_avg_texts
-- inputs: df=texts
SELECT AVG(g) AS a, SUM(g) AS s FROM {df}

-- name: h_f32_avg_group
-- inputs: df=orders
SELECT status, AVG(CAST(amount AS REAL)) AS a FROM {df} GROUP BY status

-- name: h_f32_degrees
-- inputs: df=nums
SELECT DEGREES(f) AS dg, RADIANS(f) AS rd FROM {df}

-- name: h_f32_degrees_texts
-- inputs: df=texts
SELECT id, DEGREES(g) AS dg, RADIANS(g) AS rd FROM {df}

-- name: h_f32_ln
-- inputs: df=nums
SELECT LN(f) AS l FROM {df}

-- name: h_f32_exp
-- inputs: df=texts
SELECT EXP(g) AS e FROM {df}

-- name: h_f32_power
-- inputs: df=nums
SELECT POWER(f, 0.3) AS p FROM {df}

-- name: h_f32_trig
-- inputs: df=texts
SELECT SIN(g) AS s, COS(g) AS c, ATAN(g) AS a FROM {df}

-- name: h_f32_cbrt
-- inputs: df=nums
SELECT CBRT(f) AS c FROM {df}

-- name: h_f32_median_window
-- inputs: df=orders
SELECT order_id, MEDIAN(CAST(amount AS REAL)) OVER (PARTITION BY status) AS m FROM {df}

-- name: h_int_median_window
-- inputs: df=orders
SELECT order_id, MEDIAN(qty) OVER (PARTITION BY status) AS m FROM {df}

-- name: h_f32_avg_window
-- inputs: df=nums
SELECT id, AVG(f) OVER (PARTITION BY b) AS a FROM {df}
