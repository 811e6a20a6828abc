-- Held out: written, and its expectations computed, before Polars SQL's
-- STDDEV and VARIANCE family was translated.

-- name: h_std_ints
-- inputs: df=nums
SELECT STDDEV(i) AS sd, VARIANCE(i) AS v, STDDEV_SAMP(s) AS sd2, VAR_SAMP(b) AS v2, STDEV(u) AS sd3, VAR(big) AS v3 FROM {df}

-- name: h_std_float_group
-- inputs: df=orders
SELECT status, STDDEV(amount) AS sd, VARIANCE(amount) AS v FROM {df} GROUP BY status

-- name: h_std_unaliased
-- inputs: df=orders
SELECT customer_id, STDEV_SAMP(qty) FROM {df} GROUP BY customer_id

-- name: h_std_f32
-- inputs: df=nums
SELECT STDDEV(f) AS sd, VARIANCE(f) AS v FROM {df}

-- name: h_std_huge
-- inputs: df=nums
SELECT VARIANCE(d) AS v, STDDEV(d) AS sd FROM {df}

-- name: h_std_window
-- inputs: df=orders
SELECT order_id, status, STDDEV(amount) OVER (PARTITION BY status) AS sd, VARIANCE(qty) OVER (PARTITION BY status) AS v FROM {df}

-- name: h_std_pop
-- inputs: df=orders
SELECT STDDEV_POP(amount) AS sd FROM {df}

-- name: h_std_string
-- inputs: df=orders
SELECT VARIANCE(status) AS v FROM {df}

-- name: h_var_bool
-- inputs: df=orders
SELECT VARIANCE(paid) AS v, STDDEV(paid) AS sd FROM {df}

-- name: h_std_expr
-- inputs: df=orders
SELECT customer_id, STDDEV(amount * 2) + 1 AS sd FROM {df} GROUP BY customer_id

-- name: h_std_no_rows
-- inputs: df=orders
SELECT STDDEV(amount) AS sd, VARIANCE(qty) AS v FROM {df} WHERE order_id > 5000

-- name: h_std_texts
-- inputs: df=texts
SELECT VARIANCE(f) AS v, STDDEV(g) AS sg, VARIANCE(g) AS vg FROM {df}

-- name: h_std_ddof_arg
-- inputs: df=orders
SELECT STDDEV(amount, 0) AS sd FROM {df}
