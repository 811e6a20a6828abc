-- name: h_coalesce_defaults
-- inputs: df=orders
SELECT order_id, coalesce(discount, 0) AS d, nvl(note, 'n/a') AS n, ifnull(channel, 'unknown') AS ch FROM {df}

-- name: h_nullif_nvl2
-- inputs: df=orders
SELECT order_id, nullif(note, '') AS note, nvl2(ship_date, 'shipped', 'open') AS state FROM {df}

-- name: h_null_safe_equal
-- inputs: df=orders
SELECT order_id FROM {df} WHERE customer_id <=> NULL OR channel <=> 'store'

-- name: h_order_nulls_default
-- inputs: df=orders
SELECT order_id, discount FROM {df} ORDER BY discount, order_id

-- name: h_order_desc_nulls
-- inputs: df=orders
SELECT order_id, customer_id FROM {df} ORDER BY customer_id DESC, order_id

-- name: h_is_null_filters
-- inputs: df=customers
SELECT customer_id FROM {df} WHERE email IS NULL OR score IS NULL OR isnull(tier)

-- name: h_case_null
-- inputs: df=customers
SELECT customer_id, CASE WHEN score >= 90 THEN 'A' WHEN score >= 50 THEN 'B' WHEN score IS NULL THEN 'none' ELSE 'C' END AS grade FROM {df}

-- name: h_concat_with_null
-- inputs: df=customers
SELECT customer_id, concat(name, '-', tier) AS k FROM {df}

-- name: h_not_in_with_null
-- inputs: df=orders
SELECT order_id FROM {df} WHERE customer_id NOT IN (1, NULL)

-- name: h_if_iff
-- inputs: df=orders
SELECT order_id, if(quantity > 2, 'many', 'few') AS q FROM {df}

-- name: h_count_nulls
-- inputs: df=orders
SELECT count(*) - count(discount) AS missing_discount, sum(CASE WHEN note IS NULL THEN 1 ELSE 0 END) AS missing_note FROM {df}

-- name: h_nanvl_isnan
-- inputs: df=nums
SELECT id, isnan(d) AS nan, nanvl(CAST('NaN' AS DOUBLE), d) AS v FROM {df}
