-- name: cs_float_trunc
-- inputs: df=nums
SELECT id, CAST(f AS INT) AS a, CAST(d AS SMALLINT) AS b FROM {df} WHERE id <> 4

-- name: cs_int_narrow_overflow
-- inputs: df=nums
SELECT id, CAST(s AS TINYINT) AS x FROM {df}

-- name: cs_int_to_text
-- inputs: df=nums
SELECT id, CAST(big AS TEXT) AS t, CAST(b AS STRING) AS s FROM {df}

-- name: cs_bool_text
-- inputs: df=orders
SELECT order_id, CAST(paid AS VARCHAR) AS p FROM {df}

-- name: cs_date_text
-- inputs: df=orders
SELECT order_id, CAST(ship_date AS VARCHAR) AS d FROM {df}

-- name: cs_ts_to_date
-- inputs: df=orders
SELECT order_id, CAST(ordered_at AS DATE) AS d FROM {df}

-- name: cs_null_cast
-- inputs: df=orders
SELECT order_id, CAST(NULL AS INT) AS x FROM {df}

-- name: cs_float4
-- inputs: df=nums
SELECT id, CAST(d AS FLOAT4) AS x, CAST(i AS FLOAT8) AS y FROM {df} WHERE id <> 4

-- name: cs_date_literal_cmp
-- inputs: df=customers
SELECT name FROM {df} WHERE signup >= DATE '2023-06-30'
