-- name: h_cast_float_int
-- inputs: df=nums
SELECT id, CAST(d AS INT) AS di, CAST(f AS BIGINT) AS fi FROM {df} WHERE id <> 4

-- name: h_cast_int_float
-- inputs: df=nums
SELECT id, CAST(i AS FLOAT) AS x, CAST(i AS DOUBLE) AS y FROM {df}

-- name: h_cast_str_int
-- inputs: df=nums
SELECT id, CAST(str_num AS INT) AS n FROM {df} WHERE id IN (1, 2, 5)

-- name: h_cast_str_int_bad
-- inputs: df=nums
SELECT id, CAST(str_num AS INT) AS n FROM {df}

-- name: h_cast_try
-- inputs: df=nums
SELECT id, TRY_CAST(str_num AS DOUBLE) AS n FROM {df}

-- name: h_cast_to_varchar
-- inputs: df=nums
SELECT id, CAST(i AS VARCHAR) AS a, CAST(d AS VARCHAR) AS b FROM {df}

-- name: h_cast_date_str
-- inputs: df=events
SELECT id, CAST(d AS VARCHAR) AS ds, CAST(ts AS VARCHAR) AS tss FROM {df}

-- name: h_cast_str_date
-- inputs: df=events
SELECT id, CAST(d_str AS DATE) AS d2 FROM {df} WHERE id IN (1, 5, 6)

-- name: h_cast_colon
-- inputs: df=nums
SELECT id, d::int AS x, i::text AS y FROM {df} WHERE id <> 4

-- name: h_cast_bool
-- inputs: df=orders
SELECT order_id, CAST(paid AS INT) AS p FROM {df}

-- name: h_cast_decimal
-- inputs: df=nums
SELECT id, CAST(d AS DECIMAL(10,2)) AS x FROM {df} WHERE id <> 4

-- name: h_cast_ts_date
-- inputs: df=events
SELECT id, CAST(ts AS DATE) AS day FROM {df}
