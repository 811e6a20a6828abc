-- Round 3 (held out): try_to_number and to_number, written before their
-- translation.

-- name: h3_num_try_to_number_plain
-- inputs: df=strs
SELECT id, try_to_number(num_str, '999.99') AS n FROM {df}

-- name: h3_num_try_to_number_grouping
-- inputs: df=landing
SELECT rec_id, try_to_number(trim(amount), '9,999.99') AS n FROM {df}

-- name: h3_num_try_to_number_sign
-- inputs: df=landing
SELECT rec_id, try_to_number(trim(amount), 'S9999.99') AS n FROM {df}

-- name: h3_num_try_to_number_zeros
-- inputs: df=strs
SELECT id, try_to_number(code, '000') AS n, try_to_number('042', '000') AS z FROM {df}

-- name: h3_num_try_to_number_dollar
-- inputs: df=clicks
SELECT DISTINCT try_to_number('$1,234.50', '$9,999.99') AS a, try_to_number('12.3', '99.9') AS b, try_to_number('-12', '99MI') AS c, try_to_number('12-', '99MI') AS d FROM {df}

-- name: h3_num_to_number_fails
-- inputs: df=strs
SELECT id, to_number(num_str, '99.99') AS n FROM {df}

-- name: h3_num_try_to_number_bad_format
-- inputs: df=strs
SELECT id, try_to_number(num_str, 'abc') AS n FROM {df}

-- name: h3_num_try_to_number_type
-- inputs: df=clicks
SELECT DISTINCT typeof(try_to_number('1', '9')) AS a, typeof(try_to_number('1.5', '9,999.999')) AS b FROM {df}
