-- Round 6 (held out): Spark's number format language in to_number,
-- try_to_number, to_char and to_varchar, written before its translation.

-- name: h6_num_landing_g_d
-- inputs: df=landing
SELECT rec_id, try_to_number(amount, '9G999D99') AS n, try_to_number(amount, 'S9,999.99') AS s FROM {df}

-- name: h6_num_feed_every_shape
-- inputs: df=feed
SELECT id, try_to_number(amt, '$9,999.99') AS a, try_to_number(amt, '9999.9MI') AS b, try_to_number(amt, '999PR') AS c, try_to_number(amt, 'S9999.99') AS d FROM {df}

-- name: h6_num_csv_sum
-- inputs: df=csv5
SELECT sum(try_to_number(amount, 'S9999.999')) AS total, count(try_to_number(amount, '999.99')) AS fits FROM {df}

-- name: h6_num_where_filter
-- inputs: df=csv5
SELECT row_no, amount FROM {df} WHERE try_to_number(amount, 'S999.99') > 5 ORDER BY row_no

-- name: h6_num_whitespace_inside
-- inputs: df=clicks
SELECT DISTINCT try_to_number('1 234', '9999') AS a, try_to_number(' 12', '99') AS b, try_to_number('12 ', '99') AS c, try_to_number('1, 234', '9,999') AS d, try_to_number('   ', '99') AS e FROM {df}

-- name: h6_num_unicode_digits
-- inputs: df=clicks
SELECT DISTINCT try_to_number('١٢', '99') AS a, try_to_number('１２', '99') AS b FROM {df}

-- name: h6_num_fraction_shapes
-- inputs: df=clicks
SELECT DISTINCT to_number('5.', '9.99') AS a, to_number('.25', '9.99') AS b, to_number('0.5', '0.00') AS c, try_to_number('1.234', '9.99') AS d, try_to_number('1.2', '9.000') AS e FROM {df}

-- name: h6_num_int_input
-- inputs: df=nums
SELECT id, try_to_number(i, 'S9999999999') AS n FROM {df}

-- name: h6_num_to_number_fails_money
-- inputs: df=landing
SELECT rec_id, to_number(amount, '9999.99') AS n FROM {df}

-- name: h6_num_format_currency_after_digit
-- inputs: df=clicks
SELECT DISTINCT try_to_number('12$', '99$') AS a FROM {df}

-- name: h6_num_format_dollar_late
-- inputs: df=clicks
SELECT DISTINCT try_to_number('12', '9$9') AS a FROM {df}

-- name: h6_num_format_thousands_edge
-- inputs: df=clicks
SELECT DISTINCT try_to_number('1,2', '9,,9') AS a FROM {df}

-- name: h6_num_format_thousands_after_point
-- inputs: df=clicks
SELECT DISTINCT try_to_number('1.2', '9.9,9') AS a FROM {df}

-- name: h6_num_format_column
-- inputs: df=texts
SELECT id, try_to_number(s, t) AS n FROM {df}

-- name: h6_num_format_empty
-- inputs: df=clicks
SELECT DISTINCT try_to_number('1', '') AS a FROM {df}

-- name: h6_num_format_letters
-- inputs: df=clicks
SELECT DISTINCT to_number('12', '99X') AS a FROM {df}

-- name: h6_char_money_amount
-- inputs: df=money
SELECT id, to_char(amount, '99,999,999.99') AS a, to_char(amount, '0000000000.00') AS b, to_char(amount, '9.9') AS c FROM {df} ORDER BY id

-- name: h6_char_money_price
-- inputs: df=money
SELECT id, to_char(price, 'S999,999,999,999,999,999,999.9999999999') AS p, to_varchar(tax_pct, '999.9') AS t FROM {df} ORDER BY id

-- name: h6_char_cents_bigint
-- inputs: df=money
SELECT id, to_char(cents, '9,999,999,999') AS a, to_char(cents, '$9999999999MI') AS b, to_char(cents, '99999PR') AS c FROM {df} ORDER BY id

-- name: h6_char_nums_int_dec
-- inputs: df=nums
SELECT id, to_char(i, 'S0000000000') AS a, to_char(dec, '99999999.9999') AS b, to_char(dec, '.99') AS c, to_char(dec, '9') AS d FROM {df} ORDER BY id

-- name: h6_char_zero_and_small
-- inputs: df=clicks
SELECT DISTINCT to_char(0, '999') AS a, to_char(0.0, '9.9') AS b, to_char(5, '9,999') AS c, to_char(-5, '9,999MI') AS d, to_char(0.5, '9.9') AS e, to_char(-0.5, 'S9.9') AS f, to_char(12, '0,000') AS g FROM {df}

-- name: h6_char_double
-- inputs: df=nums
SELECT id, to_char(d, '999.99') AS s FROM {df} ORDER BY id

-- name: h6_char_date
-- inputs: df=orders
SELECT order_id, to_char(ship_date, 'yyyy-MM-dd') AS s FROM {df} ORDER BY order_id

-- name: h6_char_bad_format
-- inputs: df=money
SELECT id, to_char(amount, '99.99.99') AS s FROM {df}

-- name: h6_char_string_input
-- inputs: df=csv5
SELECT row_no, to_char(amount, '9999.999') AS s FROM {df}
