-- Held out: written, and its expectations computed, before Polars SQL's
-- POWER, SQRT, SIGN, GREATEST, LEAST, IF and COUNT(DISTINCT) were
-- translated.

-- name: h_f2_power_int
-- inputs: df=nums
SELECT id, POWER(s, 2) AS p FROM {df}

-- name: h_f2_power_float_col
-- inputs: df=nums
SELECT id, POWER(d, i) AS p FROM {df}

-- name: h_f2_pow_f32
-- inputs: df=nums
SELECT id, POW(f, 3) AS p FROM {df}

-- name: h_f2_sqrt
-- inputs: df=nums
SELECT id, SQRT(d) AS r, SQRT(b) AS q FROM {df}

-- name: h_f2_sign
-- inputs: df=nums
SELECT id, SIGN(i) AS a, SIGN(f) AS b, SIGN(u) AS c FROM {df}

-- name: h_f2_greatest
-- inputs: df=nums
SELECT id, GREATEST(i, s, b) AS g FROM {df}

-- name: h_f2_least_mixed
-- inputs: df=nums
SELECT id, LEAST(d, i) AS l FROM {df}

-- name: h_f2_if
-- inputs: df=orders
SELECT order_id, IF(qty > 2, 'many', 'few') AS q FROM {df}

-- name: h_f2_if_null_cond
-- inputs: df=orders
SELECT order_id, IF(paid, amount, 0) AS a FROM {df}

-- name: h_f2_count_distinct
-- inputs: df=orders
SELECT COUNT(DISTINCT status) AS n FROM {df}

-- name: h_f2_count_distinct_group
-- inputs: df=orders
SELECT customer_id, COUNT(DISTINCT qty) AS n FROM {df} GROUP BY customer_id

-- name: h_f2_unaliased
-- inputs: df=nums
SELECT SIGN(d), GREATEST(s, 1) FROM {df}
