-- name: h_fn_round
-- inputs: df=nums
SELECT id, ROUND(d) AS r0, ROUND(d, 1) AS r1 FROM {df}

-- name: h_fn_round_half
-- inputs: df=nums
SELECT id, ROUND(f, 0) AS r FROM {df}

-- name: h_fn_coalesce
-- inputs: df=orders
SELECT order_id, COALESCE(note, status) AS n FROM {df}

-- name: h_fn_coalesce_unaliased
-- inputs: df=orders
SELECT order_id, COALESCE(customer_id, 0) FROM {df}

-- name: h_fn_nullif
-- inputs: df=orders
SELECT order_id, NULLIF(qty, 0) AS q FROM {df}

-- name: h_fn_case
-- inputs: df=orders
SELECT order_id, CASE WHEN amount >= 100 THEN 'large' WHEN amount > 0 THEN 'small' ELSE 'none' END AS size FROM {df}

-- name: h_fn_case_simple
-- inputs: df=orders
SELECT order_id, CASE status WHEN 'shipped' THEN 1 WHEN 'pending' THEN 2 ELSE 0 END AS code FROM {df}

-- name: h_fn_greatest
-- inputs: df=nums
SELECT id, GREATEST(i, s, b) AS g, LEAST(i, s, b) AS l FROM {df}

-- name: h_fn_floor_ceil
-- inputs: df=nums
SELECT id, FLOOR(d) AS fl, CEIL(d) AS ce FROM {df}

-- name: h_fn_sign_mod
-- inputs: df=nums
SELECT id, SIGN(i) AS sg, MOD(i, 4) AS md FROM {df}

-- name: h_fn_ln_log
-- inputs: df=nums
SELECT id, LN(ABS(d) + 1) AS l1, LOG10(ABS(d) + 1) AS l2 FROM {df}

-- name: h_fn_if
-- inputs: df=orders
SELECT order_id, IF(paid, 'yes', 'no') AS p FROM {df}

-- name: h_fn_ifnull
-- inputs: df=orders
SELECT order_id, IFNULL(amount, -1) AS a FROM {df}

-- name: h_fn_select_null
-- inputs: df=orders
SELECT order_id, NULL AS nothing FROM {df}

-- name: h_fn_unknown
-- inputs: df=orders
SELECT order_id, NVL2(note, 1, 0) AS x FROM {df}
