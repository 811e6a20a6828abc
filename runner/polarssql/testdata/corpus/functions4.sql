-- Polars SQL's CONCAT of any values, CONCAT_WS, ASIN, ACOS, ATAN2, COT,
-- PI and LOG(x, base).

-- name: f4_concat_null_literal
-- inputs: df=customers
SELECT CONCAT(name, NULL, tier) AS x, CONCAT_WS('/', country, NULL, signup) AS y FROM {df}

-- name: f4_concat_decimal
-- inputs: df=orders
SELECT CONCAT('$', price) AS p FROM {df}

-- name: f4_texts_trig
-- inputs: df=texts
SELECT id, ACOS(f / 1e300) AS a, ATAN2(f, -1) AS t, COT(f) AS c, LOG(f, 10) AS l FROM {df}

-- name: f4_log_half
-- inputs: df=nums
SELECT LOG(d, 0.5) AS l FROM {df}
