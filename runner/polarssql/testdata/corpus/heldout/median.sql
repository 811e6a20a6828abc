-- Held out: written, and its expectations computed, before Polars SQL's
-- MEDIAN was translated.

-- name: h_med_int
-- inputs: df=nums
SELECT MEDIAN(i) AS m, MEDIAN(s) AS n FROM {df}

-- name: h_med_float_group
-- inputs: df=orders
SELECT status, MEDIAN(amount) AS m FROM {df} GROUP BY status

-- name: h_med_unaliased
-- inputs: df=orders
SELECT customer_id, MEDIAN(qty) FROM {df} GROUP BY customer_id

-- name: h_med_f32
-- inputs: df=nums
SELECT MEDIAN(f) AS m FROM {df}
