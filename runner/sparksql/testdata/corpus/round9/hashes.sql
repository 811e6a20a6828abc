-- Round 9 (development): Spark's Murmur3 hash() over every type.

-- name: r9_hash_int_grid
-- inputs: df=nums
SELECT hash(2) AS a, hash(3) AS b, hash(42) AS c, hash(-42) AS d, hash(1000000) AS e, hash(2147483647) AS f, hash(CAST(-128 AS TINYINT)) AS g, hash(CAST(32767 AS SMALLINT)) AS h

-- name: r9_hash_long_grid
-- inputs: df=nums
SELECT hash(0L) AS a, hash(-1L) AS b, hash(4294967296L) AS c, hash(-9223372036854775808L) AS d, hash(1234567890123L) AS e

-- name: r9_hash_double_grid
-- inputs: df=nums
SELECT hash(0.5D) AS a, hash(-1.0D) AS b, hash(1e300D) AS c, hash(CAST('Infinity' AS DOUBLE)) AS d, hash(4.9e-324D) AS e, hash(CAST(1.1 AS FLOAT)) AS f, hash(CAST('Infinity' AS FLOAT)) AS g

-- name: r9_hash_decimal_grid
-- inputs: df=nums
SELECT hash(0.0) AS a, hash(CAST(1 AS DECIMAL(18,0))) AS b, hash(CAST(1 AS DECIMAL(19,0))) AS c, hash(CAST(-255 AS DECIMAL(30,0))) AS d, hash(CAST(32768 AS DECIMAL(20,0))) AS e, hash(99999999999999999999999999999999999999) AS f, hash(CAST(-32769 AS DECIMAL(22,2))) AS g

-- name: r9_hash_string_grid
-- inputs: df=nums
SELECT hash('x') AS a, hash('hello') AS b, hash('hello world') AS c, hash('ÿ') AS d, hash(repeat('ab', 50)) AS e, hash('abcdefg') AS f, hash(' ') AS g

-- name: r9_hash_binary_grid
-- inputs: df=nums
SELECT hash(X'') AS a, hash(X'00') AS b, hash(X'FF') AS c, hash(X'80FF7F') AS d, hash(X'0102030405') AS e, hash(CAST('abc' AS BINARY)) AS f

-- name: r9_hash_mixed
-- inputs: df=customers
SELECT customer_id, hash(customer_id, name, country, signup_date, score, is_active) AS h FROM {df} ORDER BY customer_id

-- name: r9_hash_array_struct_grid
-- inputs: df=nums
SELECT hash(array('a', 'b')) AS a, hash(array(CAST(NULL AS STRING))) AS b, hash(struct(1, 'a')) AS c, hash(named_struct('x', CAST(NULL AS INT))) AS d, hash(array(struct(1.5D, 2L))) AS e, hash(struct(array(1), array())) AS f

-- name: r9_hash_events_items
-- inputs: df=events
SELECT event_id, hash(items) AS i, hash(user_id, event_type) AS k FROM {df} ORDER BY event_id

-- name: r9_hash_nested_map_error
-- inputs: df=nested
SELECT hash(struct(id, kv)) AS h FROM {df}

-- name: r9_hash_history
-- inputs: df=history
SELECT id, seq, hash(op, updated_by) AS h FROM {df} ORDER BY id, seq

-- name: r9_hash_where
-- inputs: df=clicks
SELECT user_id, count(*) AS n FROM {df} WHERE pmod(hash(page), 3) = 1 GROUP BY user_id ORDER BY user_id

-- name: r9_hash_xxhash_together
-- inputs: df=strs
SELECT id, hash(s) AS m, xxhash64(s) AS x FROM {df} ORDER BY id
