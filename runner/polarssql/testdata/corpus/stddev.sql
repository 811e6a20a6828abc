-- Polars SQL's STDDEV / VARIANCE family: sample (ddof 1) Welford
-- variance in Float64 (a Float32 kept), NULL below two values.

-- name: std_group_ints
-- inputs: df=orders
SELECT paid, STDDEV(qty) AS sd, VARIANCE(customer_id) AS v FROM {df} GROUP BY paid

-- name: std_whole_float
-- inputs: df=orders
SELECT STDDEV(amount) AS sd, VAR_SAMP(amount) AS v FROM {df}

-- name: std_window_customers
-- inputs: df=customers
SELECT customer_id, country, VARIANCE(tier) OVER (PARTITION BY country) AS v FROM {df}

-- name: std_nums_group
-- inputs: df=nums
SELECT b > 0 AS hi, STDDEV(d) AS sd, VARIANCE(f) AS vf, STDDEV(i) AS si FROM {df} GROUP BY b > 0

-- name: std_nums_partition
-- inputs: df=nums
SELECT id, s, STDDEV(d) OVER (PARTITION BY s) AS sd, VARIANCE(f) OVER (PARTITION BY s) AS vf, STDDEV(big) OVER (PARTITION BY s) AS sb FROM {df}

-- name: std_var_pop
-- inputs: df=nums
SELECT VAR_POP(d) AS v FROM {df}

-- name: std_decimal
-- inputs: df=nums
SELECT VARIANCE(dec) AS v FROM {df}

-- name: std_texts_group
-- inputs: df=texts
SELECT d, STDDEV(f) AS sd, VARIANCE(g) AS vg FROM {df} GROUP BY d

-- name: std_texts_whole
-- inputs: df=texts
SELECT STDDEV(f) AS sd, VARIANCE(f) AS v, STDDEV(g) AS sg FROM {df} WHERE id < 8
