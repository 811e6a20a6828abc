-- Held out: written, and its expectations computed, before the parser
-- read Polars SQL's type names of more than one word (BIGINT UNSIGNED,
-- DOUBLE PRECISION, CHARACTER VARYING, ...) and type names with a width
-- (INT(11), VARCHAR(10), FLOAT(24)): a syntax error before.

-- name: h_tn_bigint_unsigned
-- inputs: df=nums
SELECT id, CAST(id AS BIGINT UNSIGNED) AS x FROM {df}

-- name: h_tn_int_unsigned_u
-- inputs: df=nums
SELECT id, CAST(u AS INT UNSIGNED) AS x FROM {df}

-- name: h_tn_integer_unsigned_neg
-- inputs: df=nums
SELECT id, CAST(i AS INTEGER UNSIGNED) AS x FROM {df}

-- name: h_tn_smallint_unsigned
-- inputs: df=nums
SELECT id, CAST(id * 1000 AS SMALLINT UNSIGNED) AS x FROM {df}

-- name: h_tn_tinyint_unsigned_over
-- inputs: df=nums
SELECT id, CAST(id * 100 AS TINYINT UNSIGNED) AS x FROM {df}

-- name: h_tn_tinyint_unsigned_ok
-- inputs: df=nums
SELECT id, CAST(id AS TINYINT UNSIGNED) AS x FROM {df} WHERE id < 3

-- name: h_tn_int8_unsigned
-- inputs: df=nums
SELECT id, CAST(id AS INT8 UNSIGNED) AS x FROM {df}

-- name: h_tn_int4_unsigned_str
-- inputs: df=nums
SELECT id, CAST(str_num AS INT4 UNSIGNED) AS x FROM {df} WHERE id = 1

-- name: h_tn_mediumint_unsigned
-- inputs: df=nums
SELECT id, CAST(id AS MEDIUMINT UNSIGNED) AS x FROM {df}

-- name: h_tn_mediumint
-- inputs: df=nums
SELECT id, CAST(s AS MEDIUMINT) AS x FROM {df}

-- name: h_tn_int_width
-- inputs: df=nums
SELECT id, CAST(d AS INT(11)) AS x FROM {df} WHERE id <> 4

-- name: h_tn_integer_width_unsigned
-- inputs: df=nums
SELECT id, CAST(id AS INTEGER(11) UNSIGNED) AS x FROM {df}

-- name: h_tn_bigint_width
-- inputs: df=nums
SELECT id, CAST(i AS BIGINT(20)) AS x FROM {df}

-- name: h_tn_double_precision
-- inputs: df=nums
SELECT id, CAST(i AS DOUBLE PRECISION) AS x, CAST(f AS DOUBLE PRECISION) AS y FROM {df}

-- name: h_tn_double_precision_str
-- inputs: df=nums
SELECT id, CAST(str_num AS DOUBLE PRECISION) AS x FROM {df} WHERE id IN (1, 2, 3, 7)

-- name: h_tn_character_varying
-- inputs: df=nums
SELECT id, CAST(i AS CHARACTER VARYING) AS x FROM {df}

-- name: h_tn_character_varying_n
-- inputs: df=nums
SELECT id, CAST(d AS CHARACTER VARYING(5)) AS x FROM {df}

-- name: h_tn_char_varying
-- inputs: df=strs
SELECT id, CAST(s AS CHAR VARYING) AS x FROM {df}

-- name: h_tn_varchar_n
-- inputs: df=strs
SELECT id, CAST(s AS VARCHAR(3)) AS x FROM {df}

-- name: h_tn_char_n
-- inputs: df=nums
SELECT id, CAST(id AS CHAR(2)) AS x FROM {df}

-- name: h_tn_character
-- inputs: df=nums
SELECT id, CAST(b AS CHARACTER) AS x FROM {df}

-- name: h_tn_string_n
-- inputs: df=nums
SELECT id, CAST(s AS STRING(4)) AS x FROM {df}

-- name: h_tn_float24
-- inputs: df=nums
SELECT id, CAST(d AS FLOAT(24)) AS x FROM {df} WHERE id <> 4

-- name: h_tn_float25
-- inputs: df=nums
SELECT id, CAST(f AS FLOAT(25)) AS x FROM {df}

-- name: h_tn_float_zero
-- inputs: df=nums
SELECT CAST(d AS FLOAT(0)) AS x FROM {df}

-- name: h_tn_float_54
-- inputs: df=nums
SELECT CAST(d AS FLOAT(54)) AS x FROM {df}

-- name: h_tn_bigint_signed
-- inputs: df=nums
SELECT CAST(id AS BIGINT SIGNED) AS x FROM {df}

-- name: h_tn_unsigned_bigint
-- inputs: df=nums
SELECT CAST(id AS UNSIGNED BIGINT) AS x FROM {df}

-- name: h_tn_double_unsigned
-- inputs: df=nums
SELECT CAST(id AS DOUBLE UNSIGNED) AS x FROM {df}

-- name: h_tn_decimal_unsigned
-- inputs: df=nums
SELECT CAST(id AS DECIMAL(10,2) UNSIGNED) AS x FROM {df}

-- name: h_tn_double_width
-- inputs: df=nums
SELECT CAST(id AS DOUBLE(10)) AS x FROM {df}

-- name: h_tn_timestamp_tz
-- inputs: df=events
SELECT CAST(ts AS TIMESTAMP WITH TIME ZONE) AS x FROM {df}

-- name: h_tn_timestamp_no_tz
-- inputs: df=events
SELECT CAST(ts AS TIMESTAMP WITHOUT TIME ZONE) AS x FROM {df}

-- name: h_tn_try_cast_unsigned
-- inputs: df=nums
SELECT id, TRY_CAST(i AS INT UNSIGNED) AS x FROM {df}

-- name: h_tn_unsigned_arith
-- inputs: df=nums
SELECT id, CAST(id AS INT UNSIGNED) + 1 AS x FROM {df}

-- name: h_tn_lower_case
-- inputs: df=nums
SELECT id, cast(id as bigint unsigned) AS x, cast(i as double precision) AS y FROM {df}
