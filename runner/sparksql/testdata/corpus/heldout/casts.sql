-- name: h_cast_amount_to_int
-- inputs: df=orders
SELECT order_id, CAST(amount AS INT) AS amount_int FROM {df}

-- name: h_cast_discount_string
-- inputs: df=orders
SELECT order_id, CAST(discount AS STRING) AS d FROM {df}

-- name: h_cast_numstr_decimal
-- inputs: df=strs
SELECT id, CAST(num_str AS DECIMAL(10,3)) AS v FROM {df} WHERE id IN (1, 2, 3, 5)

-- name: h_cast_numstr_double
-- inputs: df=strs
SELECT id, CAST(num_str AS DOUBLE) AS v FROM {df}

-- name: h_try_cast_code
-- inputs: df=strs
SELECT id, TRY_CAST(code AS INT) AS c, try_cast(num_str AS BIGINT) AS n FROM {df}

-- name: h_cast_dtstr_date
-- inputs: df=strs
SELECT id, CAST(dt_str AS DATE) AS d FROM {df} WHERE id <> 6

-- name: h_cast_ts_to_date_and_string
-- inputs: df=orders
SELECT order_id, CAST(ordered_at AS DATE) AS day, CAST(ordered_at AS STRING) AS s FROM {df}

-- name: h_cast_bool_to_int
-- inputs: df=customers
SELECT customer_id, CAST(is_active AS INT) AS active FROM {df}

-- name: h_cast_str_to_ts
-- inputs: df=events
SELECT event_id, CAST(ts_str AS TIMESTAMP) AS t FROM {df}

-- name: h_cast_int_decimal_sum
-- inputs: df=nums
SELECT id, CAST(i AS DECIMAL(12,2)) + dec AS total FROM {df} WHERE id <> 4

-- name: h_cast_bad_string_fails
-- inputs: df=bad
SELECT id, CAST(s AS INT) AS n FROM {df}

-- name: h_cast_double_overflow
-- inputs: df=nums
SELECT id, CAST(d AS INT) AS x FROM {df}

-- name: h_cast_colon_syntax
-- inputs: df=orders
SELECT order_id::string AS id, quantity::double AS q FROM {df}

-- name: h_cast_array_string
-- inputs: df=orders
SELECT order_id, CAST(tags AS STRING) AS t FROM {df}

-- name: h_cast_date_string_compare
-- inputs: df=orders
SELECT order_id FROM {df} WHERE ship_date >= '2024-03-01'
