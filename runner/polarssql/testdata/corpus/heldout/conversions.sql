-- name: h_conv_str_int
-- inputs: df=texts
SELECT id, CAST(n AS INT) AS i FROM {df} WHERE id IN (1, 2, 4, 11)

-- name: h_conv_str_int_sign
-- inputs: df=texts
SELECT id, CAST(n AS BIGINT) AS i FROM {df} WHERE id = 3

-- name: h_conv_str_double
-- inputs: df=texts
SELECT id, CAST(n AS DOUBLE) AS x FROM {df} WHERE id IN (1, 2, 3, 5, 6, 7, 8)

-- name: h_conv_str_int_bad
-- inputs: df=texts
SELECT id, CAST(n AS INT) AS i FROM {df}

-- name: h_conv_double_str
-- inputs: df=texts
SELECT id, CAST(f AS VARCHAR) AS s FROM {df}

-- name: h_conv_float_str
-- inputs: df=texts
SELECT id, CAST(g AS VARCHAR) AS s FROM {df}

-- name: h_conv_decimal_str
-- inputs: df=texts
SELECT id, CAST(amt AS VARCHAR) AS s FROM {df}

-- name: h_conv_temporal_str
-- inputs: df=texts
SELECT id, CAST(ts AS VARCHAR) AS t, CAST(d AS VARCHAR) AS ds FROM {df}

-- name: h_conv_key
-- inputs: df=orders
SELECT order_id, 'order-' || CAST(order_id AS VARCHAR) AS k FROM {df}

-- name: h_conv_date_ts
-- inputs: df=texts
SELECT id, CAST(d AS TIMESTAMP) AS t FROM {df}

-- name: h_conv_str_float_colon
-- inputs: df=texts
SELECT id, n::float AS x FROM {df} WHERE id IN (5, 6)

-- name: h_conv_str_decimal
-- inputs: df=texts
SELECT id, CAST(n AS DECIMAL(10,2)) AS x FROM {df} WHERE id IN (1, 2, 5, 6)
