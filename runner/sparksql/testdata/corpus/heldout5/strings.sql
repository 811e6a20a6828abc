-- Round 5 (held out): format_number and regexp_instr, written before
-- their translation.

-- name: h5_fmt_decimal_places
-- inputs: df=money
SELECT id, format_number(amount, 2) AS a, format_number(price, 4) AS p, format_number(fx, 3) AS f FROM {df} ORDER BY id

-- name: h5_fmt_zero_places
-- inputs: df=money
SELECT id, format_number(cents, 0) AS c, format_number(rate, 0) AS r FROM {df} ORDER BY id

-- name: h5_fmt_pattern
-- inputs: df=money
SELECT id, format_number(amount, '#,##0.00') AS a, format_number(cents, '0000') AS c FROM {df} ORDER BY id

-- name: h5_fmt_ties_and_negative
-- inputs: df=clicks
SELECT DISTINCT format_number(2.5, 0) AS a, format_number(-1234.565, 2) AS b, format_number(CAST(1.005 AS DOUBLE), 2) AS c, format_number(1234567, -1) AS d FROM {df}

-- name: h5_fmt_floats
-- inputs: df=nums
SELECT id, format_number(f, 2) AS f2, format_number(d, 1) AS d1 FROM {df} ORDER BY id

-- name: h5_regexp_instr_basic
-- inputs: df=texts
SELECT id, regexp_instr(s, '[0-9]+') AS p FROM {df}

-- name: h5_regexp_instr_group
-- inputs: df=landing
SELECT rec_id, regexp_instr(email, '@([a-z]+)', 1) AS g1, regexp_instr(email, '@', 0) AS at FROM {df}

-- name: h5_regexp_instr_literals
-- inputs: df=clicks
SELECT DISTINCT regexp_instr('abcabc', 'c') AS a, regexp_instr('abc', 'z') AS b, regexp_instr('', '^$') AS c, regexp_instr('héllo wörld', 'w') AS d FROM {df}

-- name: h5_regexp_instr_bad_group
-- inputs: df=clicks
SELECT DISTINCT regexp_instr('abc', '(b)', 2) AS a FROM {df}

-- name: h5_regexp_instr_where
-- inputs: df=landing
SELECT rec_id FROM {df} WHERE regexp_instr(phone, '^\\+') > 0
