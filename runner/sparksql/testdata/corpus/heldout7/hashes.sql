-- Round 7 (held out): xxhash64 as data engineers use it (surrogate keys,
-- bucketing, change detection), to_char/to_varchar of BINARY, and IPv6
-- hosts with a scope id in parse_url, written before their translation.

-- name: h7_xx_integers
-- inputs: df=nums
SELECT id, xxhash64(i) AS a, xxhash64(l) AS b, xxhash64(t) AS c, xxhash64(s) AS d FROM {df} ORDER BY id

-- name: h7_xx_int_vs_long_literals
-- inputs: df=nums
SELECT xxhash64(1) AS i, xxhash64(1L) AS l, xxhash64(1Y) AS y, xxhash64(1S) AS s, xxhash64(-1) AS m, xxhash64(9223372036854775807L) AS mx, xxhash64(-2147483648) AS mn

-- name: h7_xx_floats_doubles
-- inputs: df=nums
SELECT id, xxhash64(f) AS a, xxhash64(d) AS b FROM {df} ORDER BY id

-- name: h7_xx_signed_zero_nan
-- inputs: df=nums
SELECT xxhash64(CAST(-0.0 AS DOUBLE)) AS dz, xxhash64(CAST(0.0 AS DOUBLE)) AS pz, xxhash64(CAST('NaN' AS DOUBLE)) AS n, xxhash64(CAST(-0.0 AS FLOAT)) AS fz, xxhash64(1.5F) AS f, xxhash64(CAST('Infinity' AS DOUBLE)) AS inf

-- name: h7_xx_decimals
-- inputs: df=nums
SELECT id, xxhash64(dec) AS a, xxhash64(dec2) AS b FROM {df} ORDER BY id

-- name: h7_xx_decimal_literals
-- inputs: df=nums
SELECT xxhash64(1.5) AS a, xxhash64(-0.01) AS b, xxhash64(12345678901234567890.5) AS c, xxhash64(CAST(-1 AS DECIMAL(38,0))) AS d, xxhash64(CAST(0 AS DECIMAL(20,2))) AS e, xxhash64(CAST(999999999999999999 AS DECIMAL(18,0))) AS f

-- name: h7_xx_money_amounts
-- inputs: df=money
SELECT id, xxhash64(price) AS p, xxhash64(amount) AS a, xxhash64(rate) AS r FROM {df} ORDER BY id

-- name: h7_xx_strings
-- inputs: df=strs
SELECT id, xxhash64(s) AS a, xxhash64(code) AS b FROM {df} ORDER BY id

-- name: h7_xx_string_lengths
-- inputs: df=strs
SELECT xxhash64('') AS e, xxhash64('a') AS a, xxhash64('abcd') AS b4, xxhash64('abcdefg') AS b7, xxhash64('abcdefghijklmnopqrstuvwxyz01234') AS b31, xxhash64('abcdefghijklmnopqrstuvwxyz012345') AS b32, xxhash64(repeat('xyz', 40)) AS b120, xxhash64('é😀') AS u

-- name: h7_xx_several_columns
-- inputs: df=customers
SELECT customer_id, xxhash64(customer_id, name, country) AS k FROM {df} ORDER BY customer_id

-- name: h7_xx_nulls_skipped
-- inputs: df=nums
SELECT xxhash64(NULL) AS n, xxhash64(1, NULL, 2) AS a, xxhash64(1, 2) AS b, xxhash64(NULL, NULL) AS nn, xxhash64(CAST(NULL AS STRING), 'x') AS c, xxhash64('x') AS d

-- name: h7_xx_booleans
-- inputs: df=customers
SELECT customer_id, xxhash64(is_active) AS a, xxhash64(true) AS t, xxhash64(false) AS f FROM {df} ORDER BY customer_id

-- name: h7_xx_dates_timestamps
-- inputs: df=orders
SELECT order_id, xxhash64(ship_date) AS d, xxhash64(ordered_at) AS t FROM {df} ORDER BY order_id

-- name: h7_xx_timestamp_ntz
-- inputs: df=events
SELECT event_id, xxhash64(ts_ntz) AS n, xxhash64(ts) AS t FROM {df} ORDER BY event_id

-- name: h7_xx_date_literals
-- inputs: df=orders
SELECT xxhash64(DATE'1970-01-01') AS e, xxhash64(DATE'2024-02-29') AS d, xxhash64(TIMESTAMP_NTZ'2024-01-01 00:00:00') AS n, xxhash64(DATE'1969-12-31') AS b

-- name: h7_xx_binary
-- inputs: df=feed
SELECT xxhash64(CAST('abc' AS BINARY)) AS a, xxhash64(unhex('00ff')) AS b, xxhash64(X'') AS e, xxhash64('abc') AS s

-- name: h7_xx_surrogate_key_landing
-- inputs: df=landing
SELECT rec_id, xxhash64(concat_ws('|', client_id, currency, event_date)) AS sk, xxhash64(client_id, amount) AS k2 FROM {df} ORDER BY rec_id

-- name: h7_xx_bucketing
-- inputs: df=clicks
SELECT pmod(xxhash64(user_id), 8) AS bucket, count(*) AS n FROM {df} GROUP BY 1 ORDER BY 1

-- name: h7_xx_change_detection
-- inputs: df=history
SELECT id, seq, xxhash64(status, amount, deleted) AS row_hash FROM {df} ORDER BY id, seq

-- name: h7_xx_distinct_keys
-- inputs: df=orders
SELECT count(DISTINCT xxhash64(customer_id, status)) AS n FROM {df}

-- name: h7_xx_arrays
-- inputs: df=nested
SELECT id, xxhash64(scores) AS a, xxhash64(tags) AS b FROM {df} ORDER BY id

-- name: h7_xx_struct
-- inputs: df=orders
SELECT order_id, xxhash64(address) AS a, xxhash64(named_struct('x', 1, 'y', 'b')) AS s FROM {df} ORDER BY order_id

-- name: h7_xx_map_rejected
-- inputs: df=orders
SELECT xxhash64(attrs) AS h FROM {df}

-- name: h7_xx_no_arguments
-- inputs: df=orders
SELECT xxhash64() AS h FROM {df}

-- name: h7_xx_intervals
-- inputs: df=orders
SELECT xxhash64(INTERVAL '1' DAY) AS d, xxhash64(INTERVAL '2' MONTH) AS m

-- name: h7_xx_in_where
-- inputs: df=customers
SELECT customer_id FROM {df} WHERE pmod(xxhash64(email), 3) = 0 ORDER BY customer_id

-- name: h7_bin_char_formats
-- inputs: df=feed
SELECT to_char(CAST('abc' AS BINARY), 'base64') AS b, to_char(CAST('abc' AS BINARY), 'hex') AS h, to_char(CAST('abc' AS BINARY), 'utf-8') AS u

-- name: h7_bin_varchar_formats
-- inputs: df=feed
SELECT to_varchar(unhex('00ff10'), 'hex') AS h, to_varchar(unhex('00ff10'), 'base64') AS b, to_varchar(X'', 'base64') AS e, to_varchar(X'', 'hex') AS eh

-- name: h7_bin_char_format_case
-- inputs: df=feed
SELECT to_char(X'4142', 'HEX') AS h, to_char(X'4142', 'Base64') AS b, to_char(X'4142', 'UTF-8') AS u

-- name: h7_bin_char_utf8_no_dash
-- inputs: df=feed
SELECT to_char(X'4142', 'utf8') AS u

-- name: h7_bin_char_bad_format
-- inputs: df=feed
SELECT to_char(X'01', 'base32') AS x

-- name: h7_bin_char_null
-- inputs: df=feed
SELECT to_char(CAST(NULL AS BINARY), 'hex') AS h, to_char(X'01', NULL) AS f

-- name: h7_bin_char_invalid_utf8
-- inputs: df=feed
SELECT to_char(unhex('ff41'), 'utf-8') AS u, to_char(unhex('c3a9'), 'utf-8') AS e

-- name: h7_bin_char_hash_digest
-- inputs: df=strs
SELECT id, to_char(unhex(md5(s)), 'base64') AS b, to_char(unhex(sha1(s)), 'hex') AS h FROM {df} ORDER BY id

-- name: h7_bin_char_long_base64
-- inputs: df=feed
SELECT to_char(CAST(repeat('0123456789', 10) AS BINARY), 'base64') AS b

-- name: h7_bin_char_column_format
-- inputs: df=feed
SELECT to_char(CAST(txt AS BINARY), grp) AS x FROM {df}

-- name: h7_bin_char_column_values
-- inputs: df=feed
SELECT id, to_char(CAST(txt AS BINARY), 'hex') AS h, to_varchar(CAST(cs AS BINARY), 'utf-8') AS u FROM {df} ORDER BY id

-- name: h7_url_zone_host
-- inputs: df=clicks
SELECT DISTINCT parse_url('http://[fe80::1%eth0]:8080/a?x=1', 'HOST') AS h, parse_url('http://[fe80::1%eth0]:8080/a?x=1', 'AUTHORITY') AS a FROM {df}

-- name: h7_url_zone_bad_chars
-- inputs: df=clicks
SELECT DISTINCT try_parse_url('http://[fe80::1%e-x]/a', 'HOST') AS h, try_parse_url('http://[fe80::1%]/a', 'HOST') AS e, try_parse_url('http://[%eth0]/a', 'HOST') AS z FROM {df}

-- name: h7_url_zone_dots_underscores
-- inputs: df=clicks
SELECT DISTINCT parse_url('https://u@[fe80::a:b%en_0.1]/p', 'HOST') AS h, parse_url('https://u@[fe80::a:b%en_0.1]/p', 'USERINFO') AS u FROM {df}

-- name: h7_url_zone_ansi_error
-- inputs: df=clicks
SELECT DISTINCT parse_url('http://[fe80::1%]/a', 'HOST') AS h FROM {df}
