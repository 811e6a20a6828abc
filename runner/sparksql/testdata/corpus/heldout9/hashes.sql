-- Round 9 (held out): Spark's Murmur3 hash() as landing-data pipelines use
-- it (bucketing, change detection, surrogate keys) over every type,
-- written before its translation.

-- name: h9_hash_integers
-- inputs: df=nums
SELECT id, hash(i) AS a, hash(l) AS b, hash(t) AS c, hash(s) AS d FROM {df} ORDER BY id

-- name: h9_hash_literals
-- inputs: df=nums
SELECT hash(1) AS i, hash(1L) AS l, hash(1Y) AS y, hash(1S) AS s, hash(-1) AS m, hash(0) AS z, hash(9223372036854775807L) AS mx, hash(-2147483648) AS mn

-- name: h9_hash_doubles_floats
-- inputs: df=nums
SELECT id, hash(f) AS a, hash(d) AS b FROM {df} ORDER BY id

-- name: h9_hash_signed_zero_nan
-- inputs: df=nums
SELECT hash(CAST(-0.0 AS DOUBLE)) AS dz, hash(CAST(0.0 AS DOUBLE)) AS pz, hash(CAST('NaN' AS DOUBLE)) AS n, hash(CAST('-Infinity' AS DOUBLE)) AS ninf, hash(CAST(-0.0 AS FLOAT)) AS fz, hash(CAST('NaN' AS FLOAT)) AS fn, hash(2.5D) AS d

-- name: h9_hash_decimals
-- inputs: df=nums
SELECT id, hash(dec) AS a, hash(dec2) AS b FROM {df} ORDER BY id

-- name: h9_hash_decimal_literals
-- inputs: df=nums
SELECT hash(1.5) AS a, hash(-0.01) AS b, hash(123456789012345678901.25) AS c, hash(CAST(-1 AS DECIMAL(38,0))) AS d, hash(CAST(128 AS DECIMAL(19,0))) AS e, hash(CAST(-128 AS DECIMAL(25,3))) AS f

-- name: h9_hash_money
-- inputs: df=money
SELECT id, hash(price) AS p, hash(unit_price) AS u, hash(cents) AS c FROM {df} ORDER BY id

-- name: h9_hash_strings
-- inputs: df=strs
SELECT id, hash(s) AS a, hash(code) AS b, hash(dt_str) AS c FROM {df} ORDER BY id

-- name: h9_hash_string_tails
-- inputs: df=strs
SELECT hash('') AS e, hash('a') AS l1, hash('ab') AS l2, hash('abc') AS l3, hash('abcd') AS l4, hash('abcde') AS l5, hash('abcdefgh') AS l8, hash('ü') AS u2, hash('€') AS u3, hash('😀x') AS u5

-- name: h9_hash_unicode_texts
-- inputs: df=texts
SELECT id, hash(s) AS a, hash(s, t) AS b FROM {df} ORDER BY id

-- name: h9_hash_several_nulls
-- inputs: df=nums
SELECT hash(NULL) AS n, hash(1, NULL, 2) AS a, hash(1, 2) AS b, hash(NULL, NULL) AS nn, hash(CAST(NULL AS INT), 'x') AS c, hash('x') AS d

-- name: h9_hash_booleans_dates
-- inputs: df=orders
SELECT order_id, hash(ship_date) AS d, hash(ordered_at) AS t, hash(ship_date > DATE'2024-01-01') AS b FROM {df} ORDER BY order_id

-- name: h9_hash_timestamp_literals
-- inputs: df=orders
SELECT hash(DATE'1970-01-01') AS e, hash(DATE'1900-01-01') AS old, hash(TIMESTAMP'2024-03-10 12:00:00') AS t, hash(TIMESTAMP_NTZ'2024-03-10 12:00:00') AS n, hash(true) AS tr, hash(false) AS fa

-- name: h9_hash_timestamp_zone
-- inputs: df=events
-- conf: spark.sql.session.timeZone=America/New_York
SELECT event_id, hash(ts) AS t, hash(ts_ntz) AS n FROM {df} ORDER BY event_id

-- name: h9_hash_binary
-- inputs: df=feed
SELECT id, hash(unhex(hx)) AS h, hash(encode(txt, 'UTF-8')) AS e FROM {df} ORDER BY id

-- name: h9_hash_arrays
-- inputs: df=nested
SELECT id, hash(tags) AS t, hash(scores) AS s, hash(array(id, NULL)) AS n FROM {df} ORDER BY id

-- name: h9_hash_structs
-- inputs: df=nested
SELECT id, hash(meta) AS m, hash(items) AS i, hash(named_struct('a', id, 'b', CAST(NULL AS STRING))) AS ns FROM {df} ORDER BY id

-- name: h9_hash_order_struct
-- inputs: df=orders
SELECT order_id, hash(address) AS a, hash(tags) AS t, hash(address, tags, status) AS all3 FROM {df} ORDER BY order_id

-- name: h9_hash_empty_array
-- inputs: df=nums
SELECT hash(array()) AS e, hash(CAST(array() AS ARRAY<INT>)) AS ei, hash(array(1)) AS a1, hash(1) AS one, hash(array(array(1, 2), array(3))) AS nested

-- name: h9_hash_map_error
-- inputs: df=orders
SELECT hash(attrs) AS h FROM {df}

-- name: h9_hash_no_args
-- inputs: df=nums
SELECT hash() AS h FROM {df}

-- name: h9_hash_bucketing
-- inputs: df=clicks
SELECT pmod(hash(user_id), 4) AS bucket, count(*) AS n FROM {df} GROUP BY 1 ORDER BY 1

-- name: h9_hash_change_detection
-- inputs: df=history
SELECT id, seq, hash(status, amount, deleted, ts) AS row_hash FROM {df} ORDER BY id, seq

-- name: h9_hash_landing_key
-- inputs: df=landing
SELECT rec_id, hash(trim(client_id), upper(currency)) AS k, abs(hash(email)) % 10 AS shard FROM {df} ORDER BY rec_id

-- name: h9_hash_intervals
-- inputs: df=nums
SELECT hash(INTERVAL '1-2' YEAR TO MONTH) AS ym, hash(INTERVAL '1 02:03:04.5' DAY TO SECOND) AS dt

-- name: h9_hash_filter
-- mode: filter
-- inputs: df=customers
hash(customer_id) % 2 = 0
