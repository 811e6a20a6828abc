-- Round 2: conditionals and NULL handling, written before the round-2
-- fixes.

-- name: r2_cond_case_mixed_numeric
-- inputs: df=orders
SELECT order_id, CASE WHEN quantity > 2 THEN amount WHEN quantity > 0 THEN 1 ELSE 0.5D END AS v FROM {df}

-- name: r2_cond_case_string_number
-- inputs: df=orders
SELECT order_id, CASE WHEN quantity > 2 THEN 'many' ELSE quantity END AS v FROM {df}

-- name: r2_cond_case_no_else
-- inputs: df=orders
SELECT order_id, CASE status WHEN 'shipped' THEN 1 WHEN 'pending' THEN 2 END AS code FROM {df}

-- name: r2_cond_case_null_operand
-- inputs: df=orders
SELECT order_id, CASE channel WHEN NULL THEN 'null?' ELSE 'other' END AS c FROM {df}

-- name: r2_cond_if_iff
-- inputs: df=orders
SELECT order_id, if(amount > 100, 'big', 'small') AS a, iff(quantity IS NULL, -1, quantity) AS q FROM {df}

-- name: r2_cond_nvl2_nullif
-- inputs: df=orders
SELECT order_id, nvl2(ship_date, 'shipped', 'open') AS s, nullif(quantity, 0) AS q, ifnull(note, '-') AS n FROM {df}

-- name: r2_cond_coalesce_types
-- inputs: df=orders
SELECT order_id, coalesce(discount, 0) AS d, coalesce(amount, 0) AS a, coalesce(ship_date, ordered_at) AS t FROM {df}

-- name: r2_cond_greatest_least_nulls
-- inputs: df=nums
SELECT id, greatest(i, l, 0) AS g, least(d, f) AS l FROM {df}

-- name: r2_cond_in_with_null
-- inputs: df=orders
SELECT order_id, customer_id IN (1, NULL) AS a, customer_id NOT IN (1, NULL) AS b FROM {df}

-- name: r2_cond_between_symmetric_like
-- inputs: df=orders
SELECT order_id FROM {df} WHERE amount NOT BETWEEN 50 AND 500

-- name: r2_cond_decode_function
-- inputs: df=orders
SELECT order_id, decode(channel, 'web', 1, 'app', 2, 0) AS c FROM {df}

-- name: r2_cond_equal_null
-- inputs: df=orders
SELECT order_id, equal_null(channel, 'web') AS e, channel <=> NULL AS n FROM {df}

-- name: r2_cond_is_true_false_unknown
-- inputs: df=customers
SELECT customer_id, is_active IS TRUE AS t, is_active IS NOT FALSE AS nf, (score > 50) IS UNKNOWN AS u FROM {df}

-- name: r2_cond_and_or_null
-- inputs: df=customers
SELECT customer_id, is_active AND score > 50 AS a, is_active OR score > 50 AS o, NOT is_active AS n FROM {df}

-- name: r2_cond_nanvl_isnan
-- inputs: df=nums
SELECT id, isnan(d / d) AS nan, nanvl(CAST('NaN' AS DOUBLE), d) AS v FROM {df} WHERE id IN (1, 3)

-- name: r2_cond_zeroifnull_nullifzero
-- inputs: df=nums
SELECT id, zeroifnull(i) AS z, nullifzero(i) AS n FROM {df}

-- name: r2_cond_case_in_aggregate
-- inputs: df=orders
SELECT sum(CASE WHEN status = 'shipped' THEN amount END) AS shipped, count(CASE WHEN ship_date IS NULL THEN 1 END) AS unshipped FROM {df}

-- name: r2_cond_nested_if
-- inputs: df=customers
SELECT customer_id, if(score IS NULL, 'unknown', if(score >= 80, 'A', if(score >= 50, 'B', 'C'))) AS grade FROM {df}

-- name: r2_cond_case_types_date_string
-- inputs: df=orders
SELECT order_id, CASE WHEN ship_date IS NULL THEN 'n/a' ELSE ship_date END AS d FROM {df}

-- name: r2_cond_bool_string_compare
-- inputs: df=customers
SELECT customer_id FROM {df} WHERE is_active = 'true'

-- name: r2_cond_number_string_compare
-- inputs: df=nums
SELECT id FROM {df} WHERE str_num > 10

-- name: r2_cond_number_string_equal_fails
-- inputs: df=bad
SELECT id FROM {df} WHERE s = 12

-- name: r2_cond_assert_true_ok
-- inputs: df=orders
SELECT order_id, assert_true(order_id > 0) AS ok FROM {df}

-- name: r2_cond_raise_error
-- inputs: df=orders
SELECT CASE WHEN amount < 0 THEN raise_error('negative amount') ELSE amount END AS a FROM {df}

-- name: r2_cond_typeof
-- inputs: df=orders
SELECT typeof(amount) AS a, typeof(amount * 2) AS b, typeof(quantity / 2) AS c, typeof(1L + 1) AS d FROM {df} WHERE order_id = 1001

-- name: r2_cond_case_when_bool_null
-- inputs: df=customers
SELECT customer_id, CASE WHEN is_active THEN 'on' WHEN NOT is_active THEN 'off' ELSE 'unknown' END AS state FROM {df}

-- name: r2_cond_in_subquery_types
-- inputs: df=orders
SELECT order_id FROM {df} WHERE quantity IN (1L, 2.0)

-- name: r2_cond_if_plain
-- inputs: df=orders
SELECT order_id, if(amount > 100, 'big', 'small') AS a, if(quantity IS NULL, -1, quantity) AS q FROM {df}
