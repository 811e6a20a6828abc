-- Round 5 (held out): percentile, median and mode, written before their
-- translation.

-- name: h5_pct_per_user
-- inputs: df=clicks
SELECT user_id, percentile(ms, 0.5) AS p50, percentile(ms, 0.9) AS p90 FROM {df} GROUP BY user_id ORDER BY user_id

-- name: h5_pct_array
-- inputs: df=clicks
SELECT percentile(ms, array(0.1, 0.5, 1.0)) AS ps FROM {df}

-- name: h5_pct_decimal
-- inputs: df=money
SELECT percentile(amount, 0.25) AS p, median(amount) AS m FROM {df}

-- name: h5_pct_frequency
-- inputs: df=clicks
SELECT percentile(ms, 0.5, user_id) AS p FROM {df} WHERE user_id IS NOT NULL

-- name: h5_pct_bad_fraction
-- inputs: df=clicks
SELECT percentile(ms, 1.5) AS p FROM {df}

-- name: h5_median_window
-- inputs: df=clicks
SELECT user_id, ts, median(ms) OVER (PARTITION BY user_id) AS m FROM {df} ORDER BY user_id, ts

-- name: h5_median_empty_group
-- inputs: df=clicks
SELECT median(ms) AS m, percentile(ms, 0.5) AS p FROM {df} WHERE ms > 100000

-- name: h5_mode_strings
-- inputs: df=history
SELECT mode(updated_by) AS m FROM {df}

-- name: h5_mode_per_group_deterministic
-- inputs: df=clicks
SELECT user_id, mode(page, true) AS m FROM {df} GROUP BY user_id ORDER BY user_id

-- name: h5_mode_within_group_desc
-- inputs: df=history
SELECT id, mode() WITHIN GROUP (ORDER BY seq DESC) AS m FROM {df} GROUP BY id ORDER BY id

-- name: h5_percentile_cont_within
-- inputs: df=clicks
SELECT percentile_cont(0.5) WITHIN GROUP (ORDER BY ms) AS c, percentile_disc(0.5) WITHIN GROUP (ORDER BY ms) AS d FROM {df}
