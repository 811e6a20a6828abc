-- Held out: written, and its expectations computed, before Polars SQL's
-- QUANTILE_CONT and QUANTILE_DISC were translated.

-- name: h_q_cont_disc
-- inputs: df=texts
SELECT QUANTILE_CONT(f, 0.7) AS c7, QUANTILE_DISC(f, 0.7) AS d7, QUANTILE_CONT(id, 0.1) AS c1, QUANTILE_DISC(id, 0.1) AS d1, QUANTILE_DISC(id, 0.9) AS d9 FROM {df}

-- name: h_q_group
-- inputs: df=orders
SELECT status, QUANTILE_CONT(amount, 0.25) AS p25, QUANTILE_DISC(qty, 0.75) AS p75 FROM {df} GROUP BY status

-- name: h_q_f32
-- inputs: df=nums
SELECT QUANTILE_CONT(f, 0.33) AS c, QUANTILE_DISC(f, 0.33) AS d FROM {df}

-- name: h_q_bounds
-- inputs: df=nums
SELECT QUANTILE_CONT(d, 0) AS lo, QUANTILE_CONT(d, 1) AS hi, QUANTILE_DISC(i, 0.0) AS dlo, QUANTILE_DISC(i, 1.0) AS dhi FROM {df}

-- name: h_q_out_of_range
-- inputs: df=nums
SELECT QUANTILE_CONT(d, 1.5) AS q FROM {df}

-- name: h_q_column_q
-- inputs: df=nums
SELECT QUANTILE_DISC(d, d) AS q FROM {df}

-- name: h_q_window
-- inputs: df=orders
SELECT order_id, QUANTILE_CONT(amount, 0.5) OVER (PARTITION BY status) AS m FROM {df}

-- name: h_q_unaliased
-- inputs: df=texts
SELECT QUANTILE_CONT(g, 0.61) FROM {df}
