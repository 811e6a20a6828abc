-- Round 5 (development): percentile_cont(p) WITHIN GROUP (ORDER BY x).

-- name: r5_pct_cont_name
-- inputs: df=clicks
SELECT percentile_cont(0.25) WITHIN GROUP (ORDER BY ms) FROM {df}

-- name: r5_pct_cont_grouped
-- inputs: df=clicks
SELECT user_id, percentile_cont(0.9) WITHIN GROUP (ORDER BY ms) AS p90, percentile_cont(0) WITHIN GROUP (ORDER BY ms) AS p0 FROM {df} GROUP BY user_id ORDER BY user_id

-- name: r5_pct_cont_decimal
-- inputs: df=money
SELECT percentile_cont(0.5) WITHIN GROUP (ORDER BY amount) AS m, percentile_cont(0.5) WITHIN GROUP (ORDER BY cents) AS c FROM {df}

-- name: r5_pct_cont_desc
-- inputs: df=clicks
SELECT percentile_cont(0.9) WITHIN GROUP (ORDER BY ms DESC) AS p FROM {df}

-- name: r5_pct_cont_out_of_range
-- inputs: df=clicks
SELECT percentile_cont(1.5) WITHIN GROUP (ORDER BY ms) AS p FROM {df}

-- name: r5_pct_cont_string
-- inputs: df=clicks
SELECT percentile_cont(0.5) WITHIN GROUP (ORDER BY page) AS p FROM {df}

-- name: r5_pct_interpolation_doubles
-- inputs: df=clicks
SELECT g, percentile(x, 0.3) AS p3, percentile(x, 0.7) AS p7, percentile(x, 0.33) AS p33, median(x) AS m, percentile_cont(0.1) WITHIN GROUP (ORDER BY x) AS c1 FROM VALUES (1, 0.1D), (1, 0.7D), (2, 1.1D), (2, 2.3D), (2, 7.9D), (3, 1e10D), (3, 3.3333D), (4, -0.3D), (4, 0.2D), (4, 1e-9D), (4, 123.456D) AS t(g, x) GROUP BY g ORDER BY g

-- name: r5_pct_interpolation_ints
-- inputs: df=clicks
SELECT percentile(ms, 0.37) AS a, percentile(ms, 0.61) AS b, percentile(ms, array(0.13, 0.77)) AS c FROM {df}
