-- Round 9 (held out): try_* functions, to_char/to_varchar and
-- width_bucket in cleaning steps, written before their translation.

-- name: h9_try_arith
-- inputs: df=nums
SELECT id, try_add(i, 1) AS a, try_subtract(i, 1) AS s, try_multiply(l, 2) AS m, try_divide(i, t) AS d, try_mod(i, t) AS r FROM {df} ORDER BY id

-- name: h9_try_arith_literals
-- inputs: df=nums
SELECT try_add(2147483647, 1) AS a, try_add(2147483647L, 1) AS b, try_divide(1, 0) AS c, try_divide(1.0, 0) AS d, try_mod(5, 0) AS e, try_multiply(9223372036854775807L, 2) AS f, try_subtract(-2147483648, 1) AS g

-- name: h9_try_add_dates
-- inputs: df=orders
SELECT order_id, try_add(ship_date, 3) AS a, try_add(ship_date, INTERVAL '1' MONTH) AS b, try_subtract(ship_date, 1) AS c FROM {df} ORDER BY order_id

-- name: h9_try_add_intervals
-- inputs: df=orders
SELECT try_add(INTERVAL '1' DAY, INTERVAL '2' HOUR) AS a, try_add(TIMESTAMP'2024-01-31 00:00:00', INTERVAL '1' MONTH) AS b, try_add(DATE'2024-01-31', INTERVAL '2' HOUR) AS c

-- name: h9_try_divide_decimals
-- inputs: df=money
SELECT id, try_divide(amount, qty) AS a, try_divide(price, 0) AS z, try_multiply(price, qty) AS m FROM {df} ORDER BY id

-- name: h9_try_element_at
-- inputs: df=nested
SELECT id, try_element_at(tags, 1) AS a, try_element_at(tags, 10) AS b, try_element_at(kv, 'a') AS c, try_element_at(scores, -1) AS d FROM {df} ORDER BY id

-- name: h9_try_element_at_zero
-- inputs: df=nested
SELECT try_element_at(tags, 0) AS x FROM {df}

-- name: h9_try_to_number
-- inputs: df=landing
SELECT rec_id, try_to_number(trim(amount), '9999.99') AS a, try_to_number(amount, '9,999.99') AS b FROM {df} ORDER BY rec_id

-- name: h9_try_to_timestamp
-- inputs: df=landing
SELECT rec_id, try_to_timestamp(event_time) AS a, try_to_timestamp(event_time, 'yyyy-MM-dd HH:mm:ss') AS b, try_to_date(event_date, 'yyyy-MM-dd') AS c FROM {df} ORDER BY rec_id

-- name: h9_try_cast_sum_avg
-- inputs: df=nums
SELECT try_sum(l) AS s, try_avg(l) AS a, try_sum(i) AS si, try_avg(dec) AS ad FROM {df}

-- name: h9_try_sum_overflow_group
-- inputs: df=nums
SELECT b, try_sum(l) AS s FROM {df} GROUP BY b ORDER BY b

-- name: h9_try_make_timestamp
-- inputs: df=nums
SELECT try_make_timestamp(2024, 2, 30, 0, 0, 0) AS bad, try_make_timestamp(2024, 2, 29, 12, 30, 45.5) AS ok, try_make_timestamp(2024, 13, 1, 0, 0, 0) AS m

-- name: h9_to_char_numbers
-- inputs: df=money
SELECT id, to_char(amount, '999,999.99') AS a, to_varchar(amount, '000000.00') AS b, to_char(cents, '9999999999') AS c FROM {df} ORDER BY id

-- name: h9_to_char_signs
-- inputs: df=nums
SELECT to_char(-12.5, 'S999.99') AS a, to_char(12.5, '999.99MI') AS b, to_char(-12.5, '999.99PR') AS c, to_char(1234, '$9,999') AS d, to_char(12345, '999') AS e

-- name: h9_to_char_dates
-- inputs: df=orders
SELECT order_id, to_char(ship_date, 'yyyy/MM/dd') AS a, to_varchar(ordered_at, 'yyyy-MM-dd HH:mm') AS b FROM {df} ORDER BY order_id

-- name: h9_to_char_binary
-- inputs: df=feed
SELECT id, to_char(unhex(hx), 'hex') AS h, to_varchar(encode(txt, 'utf-8'), 'base64') AS b FROM {df} ORDER BY id

-- name: h9_to_char_bad_format
-- inputs: df=nums
SELECT to_char(12, 'xyz') AS x

-- name: h9_width_bucket
-- inputs: df=nums
SELECT id, width_bucket(d, -20, 20, 4) AS a, width_bucket(i, 0, 10, 5) AS b FROM {df} ORDER BY id

-- name: h9_width_bucket_edges
-- inputs: df=nums
SELECT width_bucket(5.3, 0.2, 10.6, 5) AS a, width_bucket(-2.1, 1.3, 3.4, 3) AS b, width_bucket(8.1, 0.0, 5.7, 4) AS c, width_bucket(-0.9, 5.2, 0.5, 2) AS d, width_bucket(10, 0, 10, 5) AS e, width_bucket(0, 0, 10, 5) AS f

-- name: h9_width_bucket_invalid
-- inputs: df=nums
SELECT width_bucket(5, 0, 10, 0) AS a, width_bucket(5, 10, 10, 3) AS b, width_bucket(CAST('NaN' AS DOUBLE), 0, 10, 3) AS c, width_bucket(5, 0, 10, -1) AS d, width_bucket(NULL, 0, 10, 3) AS e

-- name: h9_width_bucket_intervals
-- inputs: df=nums
SELECT width_bucket(INTERVAL '5' DAY, INTERVAL '0' DAY, INTERVAL '10' DAY, 2) AS a, width_bucket(INTERVAL '3' MONTH, INTERVAL '0' YEAR, INTERVAL '1' YEAR, 4) AS b

-- name: h9_width_bucket_money
-- inputs: df=money
SELECT id, width_bucket(amount, 0, 1000, 10) AS b FROM {df} ORDER BY id
