-- name: conv_str_timestamp_t
-- inputs: df=events
SELECT id, CAST(REPLACE(ts_str, ' ', 'T') AS TIMESTAMP) AS t FROM {df} WHERE id IN (1, 2, 5, 6)

-- name: conv_str_timestamp_space
-- inputs: df=events
SELECT id, CAST(ts_str AS TIMESTAMP) AS t FROM {df} WHERE id = 1

-- name: conv_try_cast_int
-- inputs: df=texts
SELECT id, TRY_CAST(n AS INT) AS i, TRY_CAST(n AS DOUBLE) AS x FROM {df}

-- name: conv_str_bool
-- inputs: df=texts
SELECT id, CAST(n AS BOOLEAN) AS b FROM {df}

-- name: conv_int_date
-- inputs: df=nums
SELECT id, CAST(i AS DATE) AS d FROM {df} WHERE id IN (1, 2, 3, 6, 7)

-- name: conv_date_int
-- inputs: df=events
SELECT id, CAST(d AS INT) AS days, CAST(ts AS BIGINT) AS us FROM {df}

-- name: conv_float_text_edges
-- inputs: df=nums
SELECT id, CAST(f AS VARCHAR) AS fs, CAST(d / 3 AS VARCHAR) AS ds FROM {df}

-- name: conv_aware_text
-- inputs: df=events
SELECT id, CAST(ts_utc AS VARCHAR) AS t FROM {df}

-- name: conv_str_float_special
-- inputs: df=texts
SELECT id, CAST(n AS DOUBLE) AS x FROM {df} WHERE id IN (7, 8)

-- name: conv_str_date_bad
-- inputs: df=events
SELECT id, CAST(d_str AS DATE) AS d FROM {df}

-- name: conv_real
-- inputs: df=texts
SELECT id, CAST(n AS REAL) AS r FROM {df} WHERE id IN (1, 5, 6)

-- name: conv_bool_text
-- inputs: df=orders
SELECT order_id, CAST(paid AS VARCHAR) AS p FROM {df}

-- name: conv_numeric_alias
-- inputs: df=texts
SELECT id, CAST(amt AS NUMERIC(14,2)) AS a, CAST(amt AS DECIMAL) AS b FROM {df}
