-- Round 2, verification: steps written after the round-2 fixes (not held
-- out) to check what they assume of Spark 4.2: half-even rounding of
-- doubles, decimal products rounded at 38 digits, timestampadd and
-- timestampdiff across a DST change, numbers cast to timestamps, pattern
-- edge cases, JSON conversions and printing, grouping sets and windows.

-- name: r2v_bround_double
-- inputs: df=money
SELECT bround(CAST(2.675 AS DOUBLE), 2) AS a, bround(2.5D, 0) AS b, bround(25.0D, -1) AS c, bround(-0.125D, 2) AS d, bround(1.005D, 2) AS e, bround(CAST(0.285 AS DOUBLE), 2) AS f FROM {df} WHERE id = 1

-- name: r2v_bround_long_negative
-- inputs: df=money
SELECT bround(CAST(25 AS BIGINT), -1) AS a, bround(CAST(35 AS BIGINT), -1) AS b, bround(CAST(-25 AS INT), -1) AS c, bround(CAST(9223372036854775805 AS BIGINT), -1) AS d FROM {df} WHERE id = 1

-- name: r2v_decimal_mult_tie
-- inputs: df=money
SELECT CAST('0.0000005' AS DECIMAL(38,10)) * CAST('1' AS DECIMAL(38,10)) AS a, CAST('-0.0000015' AS DECIMAL(38,10)) * CAST('1' AS DECIMAL(38,10)) AS b, CAST('12345678901234567890.1234567891' AS DECIMAL(38,10)) * CAST('3.0000000001' AS DECIMAL(38,10)) AS c FROM {df} WHERE id = 1

-- name: r2v_decimal_ceil_floor_scale
-- inputs: df=money
SELECT id, ceil(CAST(-1.25 AS DECIMAL(5,2)), 1) AS a, floor(CAST(-1.25 AS DECIMAL(5,2)), 1) AS b, ceil(CAST(1.21 AS DECIMAL(5,2)), -1) AS c, floor(price, 3) AS d, bround(price, 9) AS e FROM {df}

-- name: r2v_ts_add_dst
-- inputs: df=money
-- conf: spark.sql.session.timeZone=America/New_York
SELECT timestampadd(DAY, 1, TIMESTAMP '2024-03-09 12:00:00') AS a, timestampadd(HOUR, 24, TIMESTAMP '2024-03-09 12:00:00') AS b, timestampadd(MONTH, 1, TIMESTAMP '2024-01-31 10:00:00') AS c, timestampadd(WEEK, -1, TIMESTAMP '2024-03-12 01:30:00') AS d, timestampadd(MINUTE, 90, TIMESTAMP '2024-03-10 01:00:00') AS e FROM {df} WHERE id = 1

-- name: r2v_ts_diff_dst
-- inputs: df=money
-- conf: spark.sql.session.timeZone=America/New_York
SELECT timestampdiff(HOUR, TIMESTAMP '2024-03-09 12:00:00', TIMESTAMP '2024-03-10 12:00:00') AS h, timestampdiff(DAY, TIMESTAMP '2024-03-09 12:00:00', TIMESTAMP '2024-03-10 11:00:00') AS d, timestampdiff(MONTH, TIMESTAMP '2024-01-31 00:00:00', TIMESTAMP '2024-02-29 00:00:00') AS m, timestampdiff(MONTH, TIMESTAMP '2024-03-31 10:00:00', TIMESTAMP '2024-01-31 09:00:00') AS mneg, timestampdiff(YEAR, DATE '2020-02-29', DATE '2021-02-28') AS y, timestampdiff(SECOND, TIMESTAMP '2024-01-01 00:00:01', TIMESTAMP '2024-01-01 00:00:00.5') AS s FROM {df} WHERE id = 1

-- name: r2v_ts_diff_units
-- inputs: df=clicks
SELECT user_id, timestampdiff(QUARTER, TIMESTAMP '2023-11-15 00:00:00', ts) AS q, timestampdiff(WEEK, ts, TIMESTAMP '2024-03-01 00:00:00') AS w, timestampdiff(MILLISECOND, TIMESTAMP '2024-03-10 08:00:00', ts) AS ms, datediff(MINUTE, ts, TIMESTAMP '2024-03-10 09:00:00') AS mi FROM {df}

-- name: r2v_cast_nan_timestamp
-- inputs: df=money
SELECT CAST(CAST('NaN' AS DOUBLE) AS TIMESTAMP) AS t FROM {df} WHERE id = 1

-- name: r2v_cast_numeric_timestamp_edges
-- inputs: df=money
SELECT try_cast(CAST('Infinity' AS DOUBLE) AS TIMESTAMP) AS t, CAST(-1.9999999D AS TIMESTAMP) AS u, CAST(CAST(1.5 AS FLOAT) AS TIMESTAMP) AS v, CAST(CAST(-7 AS TINYINT) AS TIMESTAMP) AS w FROM {df} WHERE id = 1

-- name: r2v_cast_decimal_timestamp
-- inputs: df=money
SELECT id, CAST(amount AS TIMESTAMP) AS t FROM {df} WHERE id IN (1, 3)

-- name: r2v_pattern_edges
-- inputs: df=money
SELECT to_date('01/01/00', 'dd/MM/yy') AS a, to_date('31/12/99', 'dd/MM/yy') AS b, to_timestamp('2024-03-10 12:00', 'yyyy-MM-dd HH:mm[:ss]') AS c, to_timestamp('2024-03-10 12:00:30', 'yyyy-MM-dd HH:mm[:ss]') AS d, to_timestamp('20240310 120000.12', 'yyyyMMdd HHmmss.SSS') AS e, try_to_timestamp('2024-03-10 12:00:00.1234567', 'yyyy-MM-dd HH:mm:ss.SSSSSS') AS f FROM {df} WHERE id = 1

-- name: r2v_pattern_day_name_parse
-- inputs: df=money
SELECT try_to_timestamp('Sun 2024-03-10', 'EEE yyyy-MM-dd') AS t FROM {df} WHERE id = 1

-- name: r2v_json_schema_sorted
-- inputs: df=money
SELECT schema_of_json('{"b":1,"a":"x","c":[1,2.5],"d":[1,"a"],"e b":{"z":true,"y":null},"f":[]}') AS s FROM {df} WHERE id = 1

-- name: r2v_json_from_json_edges
-- inputs: df=money
SELECT from_json('[1,2]', 'a INT') AS a, from_json('5', 'ARRAY<INT>') AS b, from_json('{"a":null}', 'a INT') AS c, from_json('null', 'a INT') AS d, from_json('{"a":1.0}', 'a DOUBLE') AS e, from_json('{"a":"2024-03-10"}', 'a DATE') AS f FROM {df} WHERE id = 1

-- name: r2v_json_from_json_number_timestamp
-- inputs: df=money
SELECT from_json('{"a":1710072000}', 'a TIMESTAMP') AS g FROM {df} WHERE id = 1

-- name: r2v_json_from_json_nested_bad_array
-- inputs: df=money
SELECT from_json('{"a":[1,"x",3],"b":2}', 'a ARRAY<INT>, b INT') AS a FROM {df} WHERE id = 1

-- name: r2v_json_from_json_nested_bad_struct
-- inputs: df=money
SELECT from_json('{"s":{"b":"x","c":2},"t":1}', 's STRUCT<b: INT, c: INT>, t INT') AS a FROM {df} WHERE id = 1

-- name: r2v_json_from_json_conversions
-- inputs: df=money
SELECT from_json('{"a":3000000000}', 'a INT') AS a, from_json('{"a":"12.5"}', 'a DOUBLE') AS b, from_json('{"a":true}', 'a STRING') AS d, from_json('{"a":[1,{"b":2.50}]}', 'a STRING') AS e, from_json('{"a":"1.005"}', 'a DECIMAL(5,2)') AS f, from_json('{"a":123456.789}', 'a DECIMAL(5,2)') AS g FROM {df} WHERE id = 1

-- name: r2v_json_from_json_nan_string
-- inputs: df=money
SELECT from_json('{"a":"NaN"}', 'a DOUBLE') AS c FROM {df} WHERE id = 1

-- name: r2v_json_get_truncated
-- inputs: df=money
SELECT get_json_object('{"a":1,', '$.a') AS a, get_json_object('{"a":1} trailing', '$.a') AS b FROM {df} WHERE id = 1

-- name: r2v_json_get_numbers
-- inputs: df=money
SELECT get_json_object('{"a":12345678.5}', '$.a') AS a, get_json_object('{"a":0.0001}', '$.a') AS b, get_json_object('{"a":-0.0}', '$.a') AS d, get_json_object('{"a":[1.5,-2]}', '$.a') AS e, get_json_object('{"a":{"b":"\\u00e9\\n"}}', '$.a') AS f FROM {df} WHERE id = 1

-- name: r2v_json_get_exponent_subtree
-- inputs: df=money
SELECT get_json_object('{"a":[1e20]}', '$.a') AS c FROM {df} WHERE id = 1

-- name: r2v_json_get_big_integer
-- inputs: df=money
SELECT get_json_object('{"a":12345678901234567890}', '$.a') AS e FROM {df} WHERE id = 1

-- name: r2v_to_json_zone
-- inputs: df=money
-- conf: spark.sql.session.timeZone=Europe/Paris
SELECT to_json(named_struct('t', TIMESTAMP '2024-07-01 12:00:00', 'u', TIMESTAMP '2024-01-01 00:00:00.123456', 'd', CAST('1.5' AS DOUBLE), 'e', CAST(12345678.9 AS DOUBLE))) AS j FROM {df} WHERE id = 1

-- name: r2v_to_json_small_decimal
-- inputs: df=money
SELECT to_json(named_struct('f', CAST(0.0000001 AS DECIMAL(10,8)))) AS j FROM {df} WHERE id = 1

-- name: r2v_to_json_special
-- inputs: df=money
SELECT to_json(named_struct('s', concat('a"b\\c', chr(10), chr(1)), 'm', map('k', CAST(NULL AS INT)), 'a', array(CAST(NULL AS STRING)), 'e', named_struct('x', CAST(NULL AS INT)))) AS j FROM {df} WHERE id = 1

-- name: r2v_json_lengths_keys
-- inputs: df=money
SELECT json_array_length('[1,[2,3],{"a":1}]') AS a, json_array_length('{"a":1}') AS b, json_array_length(' [ ] ') AS c, json_object_keys('{}') AS d, json_object_keys('[1]') AS e FROM {df} WHERE id = 1

-- name: r2v_json_array_length_truncated
-- inputs: df=money
SELECT json_array_length('[1,2') AS a FROM {df} WHERE id = 1

-- name: r2v_grouping_id_cube
-- inputs: df=orders
SELECT channel, customer_id, grouping_id() AS g, grouping_id(customer_id, channel) AS g2, grouping(channel) AS gc, count(*) AS n FROM {df} GROUP BY CUBE (channel, customer_id)

-- name: r2v_grouping_having
-- inputs: df=orders
SELECT channel, count(*) AS n FROM {df} GROUP BY ROLLUP (channel) HAVING grouping(channel) = 0

-- name: r2v_windows_over_aggregates
-- inputs: df=orders
SELECT customer_id, max(amount) AS m, rank() OVER (ORDER BY max(amount) DESC) AS r, avg(sum(amount)) OVER () AS a FROM {df} GROUP BY customer_id

-- name: r2v_count_distinct_over_ordered
-- inputs: df=orders
SELECT order_id, count(DISTINCT channel) OVER (ORDER BY order_id) AS n FROM {df}

-- name: r2v_sum_sum_over_global
-- inputs: df=orders
SELECT sum(sum(amount)) OVER () AS t, count(*) AS n FROM {df}
