-- Round 4 (held out): to_number / try_to_number formats, written before
-- their translation.

-- name: h4_num_grouping_dollar
-- inputs: df=feed
SELECT id, try_to_number(amt, '$9,999.99') AS n FROM {df}

-- name: h4_num_minus_trailing
-- inputs: df=feed
SELECT id, try_to_number(amt, '99MI') AS n FROM {df}

-- name: h4_num_angle_brackets
-- inputs: df=feed
SELECT id, try_to_number(amt, '99PR') AS n FROM {df}

-- name: h4_num_leading_sign
-- inputs: df=feed
SELECT id, try_to_number(trim(amt), 'S9.9') AS n FROM {df}

-- name: h4_num_to_number_ok
-- inputs: df=clicks
SELECT DISTINCT to_number('1,234,567.891', '9,999,999.999') AS a, to_number('0042', '0000') AS b, to_number('.5', '.9') AS c, to_number('12', '9999') AS d FROM {df}

-- name: h4_num_to_number_error
-- inputs: df=feed
SELECT id, to_number(amt, '9,999.99') AS n FROM {df}

-- name: h4_num_types
-- inputs: df=clicks
SELECT DISTINCT typeof(to_number('1', '$999')) AS a, typeof(to_number('1', '99.999')) AS b, typeof(to_number('1', '9G999D9')) AS c FROM {df}

-- name: h4_num_g_d_letters
-- inputs: df=clicks
SELECT DISTINCT try_to_number('1,234.5', '9G999D9') AS a, try_to_number('1234.5', '9G999D9') AS b FROM {df}

-- name: h4_num_bad_format_errors
-- inputs: df=clicks
SELECT DISTINCT try_to_number('12', '9.9.9') AS a FROM {df}

-- name: h4_num_null_inputs
-- inputs: df=strs
SELECT id, try_to_number(num_str, '99.999') AS n FROM {df}
