-- Round 6 (development): Spark's number format language.

-- name: r6_num_lowercase_letters
-- inputs: df=clicks
SELECT DISTINCT to_number('1,234.5-', '9g999d9mi') AS a, to_number('+7', 's9') AS b, to_number('<3>', '9pr') AS c FROM {df}

-- name: r6_num_both_signs
-- inputs: df=clicks
SELECT DISTINCT try_to_number('-5-', 'S9MI') AS a, try_to_number('<-5>', 'S9PR') AS b, try_to_number('<5', '9PR') AS c, try_to_number('5>', '9PR') AS d FROM {df}

-- name: r6_num_dollar_after
-- inputs: df=clicks
SELECT DISTINCT try_to_number('12.50$', '99.99$') AS a, try_to_number('$', '$9') AS b, try_to_number('', '9') AS c FROM {df}

-- name: r6_num_exact_zeros_groups
-- inputs: df=clicks
SELECT DISTINCT try_to_number('01,234', '00,000') AS a, try_to_number('1,234', '00,000') AS b, try_to_number('12,34', '99,99') AS c, try_to_number('1,2,3', '9,9,9') AS d FROM {df}

-- name: r6_num_tabs_and_nbsp
-- inputs: df=clicks
SELECT DISTINCT try_to_number(concat('1', char(9), '2'), '99') AS a, try_to_number(concat('1', char(160), '2'), '99') AS b, try_to_number(concat('1', char(8195), '2'), '99') AS c FROM {df}

-- name: r6_num_big_precision
-- inputs: df=clicks
SELECT DISTINCT to_number('12345678901234567890.123456789', '99999999999999999999.999999999') AS a FROM {df}

-- name: r6_num_dup_sign
-- inputs: df=clicks
SELECT DISTINCT to_number('1', 'S9S') AS a FROM {df}

-- name: r6_num_point_before_dollar
-- inputs: df=clicks
SELECT DISTINCT to_number('1', '9.$') AS a FROM {df}

-- name: r6_num_letter_only_sign
-- inputs: df=clicks
SELECT DISTINCT to_number('1', 'S') AS a FROM {df}

-- name: r6_char_signs_everywhere
-- inputs: df=money
SELECT id, to_char(amount, 'S99,999,999.99') AS a, to_char(amount, '99,999,999.99S') AS b, to_char(amount, '$99,999,999.99PR') AS c, to_char(amount, 'MI99,999,999.99') AS d FROM {df} ORDER BY id

-- name: r6_char_zeros_and_groups
-- inputs: df=money
SELECT id, to_char(cents, '000,000,000,000') AS a, to_char(unit_price, '0000.0000') AS b, to_char(rate, '.999999') AS c, to_char(rate, '0.9') AS d FROM {df} ORDER BY id

-- name: r6_char_unaliased_and_lower
-- inputs: df=money
SELECT id, to_char(amount, '9g999d99') , to_varchar(cents, '99999') FROM {df} ORDER BY id

-- name: r6_char_timestamp
-- inputs: df=orders
SELECT order_id, to_char(ordered_at, 'yyyy-MM-dd HH:mm') AS s, to_varchar(ship_date, 'dd/MM/yyyy') AS d FROM {df} ORDER BY order_id

-- name: r6_char_string_malformed
-- inputs: df=landing
SELECT rec_id, to_char(amount, '9999.99') AS s FROM {df}

-- name: r6_char_float_double
-- inputs: df=nums
SELECT id, to_char(d, '999.9999999') AS s FROM {df} WHERE id <> 4 ORDER BY id

-- name: r6_char_boolean
-- inputs: df=nums
SELECT id, to_char(b, '9') AS s FROM {df}

-- name: r6_char_null_value
-- inputs: df=clicks
SELECT DISTINCT to_char(NULL, '999') AS a, to_char(CAST(NULL AS DECIMAL(5,2)), '999.99') AS b FROM {df}

-- name: r6_num_to_char_roundtrip
-- inputs: df=money
SELECT id, to_number(to_char(amount, 'S99,999,999.99'), 'S99,999,999.99') AS back FROM {df} ORDER BY id
