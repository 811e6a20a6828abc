-- name: fn_coalesce_widen
-- inputs: df=nums
SELECT id, COALESCE(b, 1000) AS c, COALESCE(i, b) AS e, COALESCE(f, 1) AS g FROM {df}

-- name: fn_coalesce_three
-- inputs: df=orders
SELECT order_id, COALESCE(note, NULL, 'n/a') AS n FROM {df}

-- name: fn_nullif_str
-- inputs: df=orders
SELECT order_id, NULLIF(status, 'pending') AS s FROM {df}

-- name: fn_ifnull_int
-- inputs: df=orders
SELECT order_id, IFNULL(customer_id, -1) AS c FROM {df}

-- name: fn_case_no_else
-- inputs: df=orders
SELECT order_id, CASE WHEN qty > 2 THEN amount END AS big FROM {df}

-- name: fn_case_mixed_num
-- inputs: df=orders
SELECT order_id, CASE WHEN paid THEN 1 WHEN qty > 1 THEN 2.5 ELSE 0 END AS c FROM {df}

-- name: fn_case_unaliased
-- inputs: df=orders
SELECT order_id, CASE WHEN paid THEN status ELSE 'unpaid' END FROM {df}

-- name: fn_case_operand_null
-- inputs: df=orders
SELECT order_id, CASE customer_id WHEN 1 THEN 'one' WHEN 2 THEN 'two' END AS c FROM {df}

-- name: fn_case_type_clash
-- inputs: df=orders
SELECT order_id, CASE WHEN paid THEN 'yes' ELSE 0 END AS c FROM {df}

-- name: fn_round_float32
-- inputs: df=nums
SELECT id, ROUND(f) AS r, ROUND(f, 1) AS r1, FLOOR(f) AS fl, CEIL(f) AS ce FROM {df}

-- name: fn_round_int
-- inputs: df=nums
SELECT id, ROUND(i) AS r, FLOOR(s) AS f, CEIL(b) AS c FROM {df}

-- name: fn_round_half_even
-- inputs: df=nums
SELECT id, ROUND(d * 2 + 0.5) AS r, ROUND(d, 2) AS r2 FROM {df}

-- name: fn_abs_types
-- inputs: df=nums
SELECT id, ABS(b) AS a, ABS(f) AS c, ABS(d) AS e FROM {df}

-- name: fn_in_numbers
-- inputs: df=nums
SELECT id, i IN (7, 10) AS a, d NOT IN (2.5) AS b FROM {df}

-- name: fn_in_null_item
-- inputs: df=nums
SELECT id, i IN (7, NULL) AS a FROM {df}

-- name: fn_in_strings_where
-- inputs: df=orders
SELECT order_id FROM {df} WHERE status IN ('shipped', 'returned')

-- name: fn_is_null_forms
-- inputs: df=orders
SELECT order_id, note IS NULL AS a, ship_date IS NOT NULL AS b FROM {df}

-- name: fn_count_distinct
-- inputs: df=orders
SELECT COUNT(DISTINCT customer_id) AS n FROM {df}

-- name: fn_unknown_fn
-- inputs: df=orders
SELECT order_id, FOO(amount) AS x FROM {df}
