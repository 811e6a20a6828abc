-- Round 3 (held out): mode and percentile_approx, written before their
-- translation.

-- name: h3_mode_strings_unique
-- inputs: df=clicks
SELECT mode(page) AS m FROM {df}

-- name: h3_mode_grouped_ties
-- inputs: df=clicks
SELECT user_id, mode(page) AS m FROM {df} GROUP BY user_id

-- name: h3_mode_numbers_nulls
-- inputs: df=clicks
SELECT mode(ref) AS m, mode(ms) AS n FROM {df} WHERE ref IS NULL OR ref = 'google'

-- name: h3_mode_deterministic
-- inputs: df=clicks
SELECT user_id, mode(page, true) AS m FROM {df} GROUP BY user_id

-- name: h3_mode_within_group
-- inputs: df=clicks
SELECT mode() WITHIN GROUP (ORDER BY ms) AS m FROM {df}

-- name: h3_mode_all_null
-- inputs: df=clicks
SELECT mode(ref) AS m FROM {df} WHERE ref IS NULL

-- name: h3_pct_approx_single
-- inputs: df=clicks
SELECT percentile_approx(ms, 0.5) AS p FROM {df}

-- name: h3_pct_approx_array
-- inputs: df=orders
SELECT percentile_approx(quantity, array(0.1, 0.5, 0.9), 100) AS p FROM {df}
