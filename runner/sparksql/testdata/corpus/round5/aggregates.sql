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
