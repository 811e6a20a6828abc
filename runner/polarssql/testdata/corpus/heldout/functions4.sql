-- Held out: written, and its expectations computed, before Polars SQL's
-- CONCAT of non-strings, CONCAT_WS, ASIN, ACOS, ATAN2, COT, PI and
-- LOG(x, base) were translated.

-- name: h_f4_concat_mixed
-- inputs: df=orders
SELECT order_id, CONCAT(status, '#', order_id, ':', qty) AS label FROM {df}

-- name: h_f4_concat_types
-- inputs: df=orders
SELECT CONCAT(amount, '|', paid, '|', ship_date, '|', ordered_at) AS t FROM {df}

-- name: h_f4_concat_ws
-- inputs: df=customers
SELECT customer_id, CONCAT_WS(', ', name, country, tier) AS who FROM {df}

-- name: h_f4_concat_ws_unaliased
-- inputs: df=strs
SELECT CONCAT_WS('-', s, t, code) FROM {df}

-- name: h_f4_concat_ws_column_sep
-- inputs: df=strs
SELECT CONCAT_WS(t, s, code) AS x FROM {df}

-- name: h_f4_concat_ints
-- inputs: df=nums
SELECT CONCAT(i, s, b) AS x, CONCAT(d, f) AS y FROM {df}

-- name: h_f4_trig_inverse
-- inputs: df=nums
SELECT id, ASIN(d) AS a, ACOS(d / 4) AS c, ATAN2(d, i) AS t FROM {df}

-- name: h_f4_pi_cot
-- inputs: df=nums
SELECT id, PI() * d AS p, COT(d) AS ct FROM {df}

-- name: h_f4_log_base
-- inputs: df=nums
SELECT id, LOG(d, 2) AS l2, LOG(i, 10) AS l10, LOG(big, 3) AS l3 FROM {df}

-- name: h_f4_haversine
-- inputs: df=texts
SELECT id, 2 * 6371 * ASIN(SQRT(POWER(SIN(RADIANS(f / 2)), 2) + COS(RADIANS(f)) * POWER(SIN(RADIANS(f / 4)), 2))) AS km FROM {df}

-- name: h_f4_atan2_f32
-- inputs: df=nums
SELECT ATAN2(f, d) AS t FROM {df}
