-- Polars SQL over Float32 (REAL) values: polars keeps Float32.

-- name: f32_median_group
-- inputs: df=orders
SELECT status, MEDIAN(CAST(amount AS REAL)) AS m, AVG(CAST(qty AS REAL)) AS a FROM {df} GROUP BY status

-- name: f32_degrees_cast
-- inputs: df=orders
SELECT order_id, RADIANS(CAST(amount AS REAL)) AS r, DEGREES(CAST(qty AS REAL)) AS d FROM {df}

-- name: f32_tan
-- inputs: df=nums
SELECT TAN(f) AS t FROM {df}

-- name: f32_avg_unaliased
-- inputs: df=texts
SELECT AVG(g), MEDIAN(f) AS mf FROM {df}
