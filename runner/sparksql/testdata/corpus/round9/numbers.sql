-- Round 9 (development): try_* functions, to_char, width_bucket.

-- name: r9_try_grid
-- inputs: df=nums
SELECT try_add(CAST(127 AS TINYINT), CAST(1 AS TINYINT)) AS a, try_multiply(CAST(200 AS SMALLINT), CAST(200 AS SMALLINT)) AS b, try_divide(0, 0) AS c, try_mod(-7, 3) AS d, try_subtract(1.5, 0.25) AS e

-- name: r9_try_element_at_map
-- inputs: df=orders
SELECT order_id, try_element_at(attrs, 'gift') AS a, try_element_at(tags, 2) AS b FROM {df} ORDER BY order_id

-- name: r9_try_to_number_grid
-- inputs: df=nums
SELECT try_to_number('123', '999') AS a, try_to_number('1,234', '9,999') AS b, try_to_number('abc', '999') AS c, try_to_number('-12.5', 'S99.9') AS d

-- name: r9_try_avg_overflow
-- inputs: df=nums
SELECT try_avg(l) AS a, try_sum(l) AS s FROM {df} WHERE id IN (1, 4)

-- name: r9_to_char_grid
-- inputs: df=nums
SELECT to_char(0, '9') AS a, to_char(0, '0') AS b, to_char(1.5, '9.99') AS c, to_char(-1, '9') AS d, to_varchar(1234567, '9,999,999') AS e, to_char(12, '0000') AS f

-- name: r9_width_bucket_grid
-- inputs: df=nums
SELECT width_bucket(1, 0, 10, 10) AS a, width_bucket(9.999, 0, 10, 10) AS b, width_bucket(-1, 0, 10, 10) AS c, width_bucket(11, 0, 10, 10) AS d, width_bucket(5, 10, 0, 10) AS e, width_bucket(5, 0, 10, 9223372036854775807) AS f

-- name: r9_width_bucket_column
-- inputs: df=nums
SELECT id, width_bucket(dec, -10, 100, 11) AS a, width_bucket(f, -5, 5, 2) AS b FROM {df} ORDER BY id

-- name: r9_width_bucket_inf
-- inputs: df=nums
SELECT width_bucket(CAST('Infinity' AS DOUBLE), 0, 10, 3) AS a, width_bucket(5, 0, CAST('Infinity' AS DOUBLE), 3) AS b, width_bucket(5, 0, 10, CAST(NULL AS INT)) AS c
