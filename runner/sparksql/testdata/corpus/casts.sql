-- name: cast_double_int_trunc
-- inputs: df=nums
SELECT id, CAST(d AS INT) AS x, CAST(d AS BIGINT) AS y FROM {df} WHERE id <> 4

-- name: cast_decimal_int_trunc
-- inputs: df=nums
SELECT id, CAST(dec AS INT) AS x, CAST(dec AS SMALLINT) AS y FROM {df} WHERE id <> 4

-- name: cast_float_to_double
-- inputs: df=nums
SELECT id, CAST(f AS DOUBLE) AS x FROM {df}

-- name: cast_int_to_decimal
-- inputs: df=nums
SELECT id, CAST(i AS DECIMAL(12,2)) AS x, CAST(t AS DECIMAL(5,1)) AS y FROM {df}

-- name: cast_decimal_rounding
-- inputs: df=nums
SELECT id, CAST(dec AS DECIMAL(10,2)) AS r2, CAST(dec AS DECIMAL(10,0)) AS r0 FROM {df}

-- name: cast_double_to_decimal
-- inputs: df=nums
SELECT id, CAST(d AS DECIMAL(10,3)) AS x FROM {df} WHERE id <> 4

-- name: cast_double_decimal_overflow
-- inputs: df=nums
SELECT id, CAST(d AS DECIMAL(10,3)) AS x FROM {df}

-- name: cast_narrowing_overflow
-- inputs: df=nums
SELECT id, CAST(s AS TINYINT) AS x FROM {df}

-- name: try_cast_narrowing
-- inputs: df=nums
SELECT id, TRY_CAST(s AS TINYINT) AS x, TRY_CAST(d AS INT) AS y FROM {df}

-- name: cast_string_int_valid
-- inputs: df=nums
SELECT id, CAST(str_num AS INT) AS x, CAST(str_num AS BIGINT) AS y FROM {df}

-- name: cast_string_double_forms
-- inputs: df=strs
SELECT id, TRY_CAST(num_str AS DOUBLE) AS x FROM {df}

-- name: cast_string_decimal_forms
-- inputs: df=strs
SELECT id, TRY_CAST(num_str AS DECIMAL(10,2)) AS x FROM {df}

-- name: cast_string_int_malformed
-- inputs: df=strs
SELECT id, CAST(num_str AS INT) AS x FROM {df}

-- name: try_cast_string_int
-- inputs: df=strs
SELECT id, TRY_CAST(num_str AS INT) AS x, TRY_CAST(code AS BIGINT) AS y FROM {df}

-- name: cast_string_bool
-- inputs: df=strs
SELECT CAST(x AS BOOLEAN) AS b FROM VALUES ('t'), ('true'), (' YES '), ('n'), ('0'), ('1'), ('False'), (NULL) AS v(x)

-- name: cast_string_bool_bad
-- inputs: df=strs
SELECT CAST(s AS BOOLEAN) AS b FROM {df}

-- name: cast_bool_to_string_and_int
-- inputs: df=customers
SELECT customer_id, CAST(is_active AS STRING) AS s, CAST(is_active AS BIGINT) AS n, CAST(is_active AS DOUBLE) AS d FROM {df}

-- name: cast_int_to_bool
-- inputs: df=nums
SELECT id, CAST(i AS BOOLEAN) AS b, CAST(d AS BOOLEAN) AS c FROM {df}

-- name: cast_numbers_to_string
-- inputs: df=nums
SELECT id, CAST(i AS STRING) AS si, CAST(l AS STRING) AS sl, CAST(dec AS STRING) AS sd, CAST(dec2 AS STRING) AS sd2 FROM {df}

-- name: cast_double_to_string
-- inputs: df=nums
SELECT id, CAST(d AS STRING) AS sd, CAST(f AS STRING) AS sf FROM {df}

-- name: cast_double_string_literals
SELECT CAST(1e20 AS STRING) AS a, CAST(0.1D AS STRING) AS b, CAST(1234567.0D AS STRING) AS c, CAST(12345678.0D AS STRING) AS d, CAST(0.001D AS STRING) AS e, CAST(0.0001D AS STRING) AS f, CAST(-2.5e-8D AS STRING) AS g, CAST(100.0D AS STRING) AS h

-- name: cast_string_to_date
-- inputs: df=strs
SELECT id, TRY_CAST(dt_str AS DATE) AS d FROM {df}

-- name: cast_string_date_malformed
-- inputs: df=strs
SELECT id, CAST(dt_str AS DATE) AS d FROM {df}

-- name: cast_string_to_timestamp
-- inputs: df=strs
SELECT id, TRY_CAST(dt_str AS TIMESTAMP) AS t FROM {df}

-- name: cast_string_to_timestamp_ntz
-- inputs: df=strs
SELECT id, TRY_CAST(dt_str AS TIMESTAMP_NTZ) AS t FROM {df} WHERE id <> 7

-- name: cast_timestamp_to_string
-- inputs: df=orders
SELECT order_id, CAST(ordered_at AS STRING) AS s FROM {df}

-- name: cast_ntz_to_string
-- inputs: df=events
SELECT event_id, CAST(ts_ntz AS STRING) AS s FROM {df}

-- name: cast_timestamp_to_date
-- inputs: df=orders
SELECT order_id, CAST(ordered_at AS DATE) AS d FROM {df}

-- name: cast_date_to_timestamp
-- inputs: df=orders
SELECT order_id, CAST(ship_date AS TIMESTAMP) AS t, CAST(ship_date AS TIMESTAMP_NTZ) AS n FROM {df}

-- name: cast_timestamp_ntz_roundtrip
-- inputs: df=events
SELECT event_id, CAST(ts AS TIMESTAMP_NTZ) AS n, CAST(ts_ntz AS TIMESTAMP) AS t FROM {df}

-- name: cast_date_to_string
-- inputs: df=orders
SELECT order_id, CAST(ship_date AS STRING) AS s FROM {df}

-- name: cast_timestamp_to_long
-- inputs: df=orders
SELECT order_id, CAST(ordered_at AS BIGINT) AS secs, CAST(ordered_at AS DOUBLE) AS fsecs FROM {df}

-- name: cast_map_struct_to_string
-- inputs: df=orders
SELECT order_id, CAST(attrs AS STRING) AS m, CAST(address AS STRING) AS a FROM {df}

-- name: cast_array_of_int_to_string
-- inputs: df=bad
SELECT id, CAST(xs AS STRING) AS s, CAST(xs AS ARRAY<STRING>) AS a FROM {df}

-- name: cast_array_elements
-- inputs: df=orders
SELECT order_id, CAST(tags AS ARRAY<STRING>) AS t FROM {df}

-- name: cast_date_to_int_fails
-- inputs: df=orders
SELECT CAST(ship_date AS INT) AS x FROM {df}

-- name: cast_colon_and_names
-- inputs: df=nums
SELECT i::bigint, CAST(d AS DECIMAL(8,2)), d::string AS ds FROM {df} WHERE id < 3

-- name: cast_literals
SELECT CAST('12' AS INT) AS a, CAST(' 7 ' AS SMALLINT) AS b, CAST('1.5' AS DOUBLE) AS c, CAST('1e2' AS DECIMAL(5,1)) AS d, CAST('2024-02-29' AS DATE) AS e

-- name: cast_literal_malformed_int
SELECT CAST('12.7' AS INT) AS a

-- name: cast_literal_overflow
SELECT CAST(300 AS TINYINT) AS a

-- name: cast_decimal_out_of_range
SELECT CAST(123.45 AS DECIMAL(3,1)) AS a

-- name: cast_binary_roundtrip
-- inputs: df=strs
SELECT id, CAST(CAST(code AS BINARY) AS STRING) AS s FROM {df}

-- name: implicit_string_to_number_compare
-- inputs: df=nums
SELECT id FROM {df} WHERE str_num > 5

-- name: implicit_string_number_arith
-- inputs: df=nums
SELECT id, str_num + 1 AS plus, str_num * 1.5 AS times FROM {df}

-- name: implicit_string_malformed_compare
-- inputs: df=strs
SELECT id FROM {df} WHERE code = 5
