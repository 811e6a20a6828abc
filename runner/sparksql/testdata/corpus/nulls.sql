-- name: null_coalesce_types
-- inputs: df=nums
SELECT id, coalesce(i, l) AS a, coalesce(dec, d) AS b, coalesce(t, 0) AS c, coalesce(str_num, 'x') AS e FROM {df}

-- name: null_coalesce_string_int
-- inputs: df=nums
SELECT coalesce(i, str_num) AS a FROM {df}

-- name: null_nvl_ifnull_nvl2
-- inputs: df=orders
SELECT order_id, nvl(discount, -1) AS a, ifnull(note, '?') AS b, nvl2(note, 'has', 'none') AS c FROM {df}

-- name: null_nullif
-- inputs: df=orders
SELECT order_id, nullif(quantity, 0) AS a, nullif(note, '') AS b, nullif(customer_id, '2') AS c FROM {df}

-- name: null_isnull_isnotnull
-- inputs: df=orders
SELECT order_id, isnull(discount) AS a, isnotnull(note) AS b, discount IS NULL AS c FROM {df}

-- name: null_three_valued_logic
SELECT NULL AND false AS a, NULL AND true AS b, NULL OR true AS c, NULL OR false AS e, NOT NULL AS f, NULL = NULL AS g, NULL <=> NULL AS h

-- name: null_in_lists
-- inputs: df=orders
SELECT order_id, customer_id IN (1, 2) AS a, customer_id IN (1, NULL) AS b, customer_id NOT IN (9, NULL) AS c FROM {df}

-- name: null_case_without_else
-- inputs: df=orders
SELECT order_id, CASE WHEN quantity > 2 THEN 'big' END AS a, CASE channel WHEN 'web' THEN 1 WHEN 'app' THEN 2 ELSE 0 END AS b FROM {df}

-- name: null_case_type_widening
-- inputs: df=orders
SELECT order_id, CASE WHEN quantity > 2 THEN quantity ELSE amount END AS a, CASE WHEN quantity > 2 THEN 1 ELSE '2' END AS b FROM {df}

-- name: null_is_true_false
-- inputs: df=customers
SELECT customer_id, is_active IS TRUE AS a, is_active IS NOT FALSE AS b, is_active IS UNKNOWN AS c FROM {df}

-- name: null_distinct_from
-- inputs: df=customers
SELECT customer_id FROM {df} WHERE tier IS DISTINCT FROM 'gold'

-- name: null_if_function
-- inputs: df=orders
SELECT order_id, if(discount > 0.1, 'hi', 'lo') AS a, if(channel IS NULL, 0, 1) AS b FROM {df}

-- name: null_order_by_nulls
-- inputs: df=orders
SELECT order_id, customer_id FROM {df} ORDER BY customer_id ASC, order_id DESC

-- name: null_order_by_nulls_last
-- inputs: df=orders
SELECT order_id FROM {df} ORDER BY discount DESC NULLS FIRST, order_id

-- name: null_equal_null_zeroifnull
-- inputs: df=orders
SELECT order_id, equal_null(customer_id, NULL) AS a, zeroifnull(discount) AS b, nullifzero(quantity) AS c FROM {df}

-- name: null_literal_types
SELECT NULL AS a, CAST(NULL AS INT) AS b, coalesce(NULL, 1) AS c, NULL + 1 AS e, concat('a', NULL) AS f

-- name: null_nan_semantics
SELECT CAST('NaN' AS DOUBLE) = CAST('NaN' AS DOUBLE) AS a, CAST('NaN' AS DOUBLE) > 1e308 AS b, isnan(CAST('NaN' AS DOUBLE)) AS c, isnan(NULL) AS e
