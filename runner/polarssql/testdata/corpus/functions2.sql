-- POWER, SQRT, SIGN, GREATEST, LEAST, IF and COUNT(DISTINCT) in Polars SQL.

-- name: f2_power
-- inputs: df=nums
SELECT id, POWER(i, 2) AS a, POWER(d, 2) AS b, POWER(i, 0.5) AS c FROM {df}

-- name: f2_power_big
-- inputs: df=nums
SELECT id, POWER(b, 11) AS p FROM {df}

-- name: f2_sqrt
-- inputs: df=nums
SELECT id, SQRT(i) AS a, SQRT(f) AS b FROM {df}

-- name: f2_sign
-- inputs: df=nums
SELECT id, SIGN(d) AS a, SIGN(s) AS b, SIGN(big) AS c FROM {df}

-- name: f2_greatest
-- inputs: df=nums
SELECT id, GREATEST(i, d) AS a, GREATEST(i, 3) AS b, LEAST(i, u) AS c FROM {df}

-- name: f2_least_str
-- inputs: df=strs
SELECT id, LEAST(s, t) AS m FROM {df}

-- name: f2_if
-- inputs: df=nums
SELECT id, IF(i > 0, i, 0) AS a, IF(i > 0, d, i) AS b FROM {df}

-- name: f2_count_distinct
-- inputs: df=nums
SELECT COUNT(DISTINCT i) AS n, COUNT(DISTINCT b) AS m FROM {df}

-- name: f2_count_distinct_str
-- inputs: df=orders
SELECT paid, COUNT(DISTINCT customer_id) AS n FROM {df} GROUP BY paid
