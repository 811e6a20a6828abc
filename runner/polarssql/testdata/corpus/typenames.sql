-- Type names of several words, with widths and UNSIGNED (development
-- cases; the held-out ones are heldout/typenames.sql).

-- name: tn_int2_unsigned
-- inputs: df=nums
SELECT id, CAST(id AS INT2 UNSIGNED) AS x FROM {df}

-- name: tn_bigint_width_unsigned_str
-- inputs: df=nums
SELECT id, CAST(str_num AS BIGINT(10) UNSIGNED) AS x FROM {df} WHERE id = 1

-- name: tn_char_varying_n
-- inputs: df=nums
SELECT id, CAST(b AS CHAR VARYING(10)) AS x FROM {df}

-- name: tn_float1
-- inputs: df=nums
SELECT id, CAST(i AS FLOAT(1)) AS x FROM {df}

-- name: tn_float53
-- inputs: df=nums
SELECT id, CAST(f AS FLOAT(53)) AS x FROM {df}

-- name: tn_int_two_params
-- inputs: df=nums
SELECT CAST(id AS INT(5, 2)) AS x FROM {df}

-- name: tn_varchar_unsigned
-- inputs: df=nums
SELECT CAST(id AS VARCHAR(10) UNSIGNED) AS x FROM {df}

-- name: tn_unsigned_width_after
-- inputs: df=nums
SELECT CAST(id AS INT UNSIGNED(5)) AS x FROM {df}

-- name: tn_int1_unsigned
-- inputs: df=nums
SELECT CAST(id AS INT1 UNSIGNED) AS x FROM {df}

-- name: tn_where_unsigned
-- inputs: df=nums
SELECT id FROM {df} WHERE CAST(id AS SMALLINT UNSIGNED) > 3

-- name: tn_double_precision_sum
-- inputs: df=nums
SELECT SUM(CAST(i AS DOUBLE PRECISION)) AS x FROM {df}

-- name: tn_timestamp_6
-- inputs: df=events
SELECT id, CAST(ts AS TIMESTAMP(6)) AS x FROM {df}

-- name: tn_timestamp_3
-- inputs: df=events
SELECT id, CAST(ts AS TIMESTAMP(3)) AS x FROM {df}

-- name: tn_timestamp_0
-- inputs: df=events
SELECT id, CAST(ts AS TIMESTAMP(0)) AS x FROM {df}

-- name: tn_datetime_5
-- inputs: df=events
SELECT id, CAST(d AS DATETIME(5)) AS x FROM {df}
