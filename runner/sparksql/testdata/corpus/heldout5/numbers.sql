-- Round 5 (held out): to_number, try_to_number and to_char formats,
-- written before their translation.

-- name: h5_num_plain_digits
-- inputs: df=csv5
SELECT row_no, try_to_number(qty, '999') AS n FROM {df}

-- name: h5_num_scale_two
-- inputs: df=csv5
SELECT row_no, try_to_number(amount, '9999.99') AS n FROM {df}

-- name: h5_num_scale_three_sign
-- inputs: df=csv5
SELECT row_no, try_to_number(amount, 'S9999.999') AS n FROM {df}

-- name: h5_num_to_number_fails
-- inputs: df=csv5
SELECT row_no, to_number(amount, '999.99') AS n FROM {df}

-- name: h5_num_grouping_literals
-- inputs: df=clicks
SELECT DISTINCT try_to_number('12,345', '99,999') AS a, try_to_number('1,2345', '99,999') AS b, try_to_number('345', '99,999') AS c, try_to_number('2,345', '9,999') AS d FROM {df}

-- name: h5_num_zero_padded
-- inputs: df=clicks
SELECT DISTINCT to_number('007', '000') AS a, try_to_number('7', '000') AS b, to_number('07.50', '00.00') AS c FROM {df}

-- name: h5_num_dollar_minus
-- inputs: df=clicks
SELECT DISTINCT to_number('$45.10', '$99.99') AS a, to_number('45.10-', '99.99MI') AS b, to_number('<45.10>', '99.99PR') AS c FROM {df}

-- name: h5_num_plus_sign
-- inputs: df=clicks
SELECT DISTINCT to_number('+12', 'S99') AS a, to_number('-12', 'S99') AS b, to_number('12-', '99S') AS c FROM {df}

-- name: h5_num_typeof
-- inputs: df=clicks
SELECT DISTINCT typeof(to_number('1', '999,999.0000')) AS a, typeof(try_to_number('1', 'S0.9')) AS b, typeof(to_number('1', '9')) AS c FROM {df}

-- name: h5_num_null_input
-- inputs: df=csv5
SELECT row_no, to_number(qty, '99') AS n FROM {df} WHERE row_no = '6'

-- name: h5_to_char_decimal
-- inputs: df=money
SELECT id, to_char(amount, '999,999.99') AS s FROM {df} ORDER BY id

-- name: h5_to_char_dollar_sign
-- inputs: df=money
SELECT id, to_char(amount, '$999999.00') AS s, to_char(amount, 'S999999.99') AS t FROM {df} ORDER BY id

-- name: h5_to_char_int
-- inputs: df=nums
SELECT id, to_char(i, '000000') AS s FROM {df} ORDER BY id

-- name: h5_to_char_mi_pr
-- inputs: df=money
SELECT id, to_char(amount, '99999.99MI') AS a, to_char(amount, '99999.99PR') AS b FROM {df} ORDER BY id

-- name: h5_to_varchar_overflow
-- inputs: df=money
SELECT id, to_varchar(amount, '99.9') AS s FROM {df} ORDER BY id
