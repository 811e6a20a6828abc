-- Round 5 (development): format_number of doubles as Java's DecimalFormat
-- formats them (the shortest digits, padded; not the binary expansion).

-- name: r5_fmt_double_padding
-- inputs: df=clicks
SELECT DISTINCT format_number(CAST(0.1 AS DOUBLE), 20) AS a, format_number(CAST(123456.789 AS DOUBLE), 5) AS c, format_number(-1e-7, 10) AS d, format_number(CAST(-2.5 AS DOUBLE), 3) AS e, format_number(1e15, 2) AS f FROM {df}

-- name: r5_fmt_double_rounding
-- inputs: df=clicks
SELECT DISTINCT format_number(1e-7, 3) AS a, format_number(2.5e-5, 5) AS b, format_number(-0.125, 2) AS c, format_number(0.375, 2) AS d, format_number(1234567.891, 1) AS e, format_number(CAST(0.1 AS DOUBLE) + CAST(0.2 AS DOUBLE), 3) AS f FROM {df}

-- name: r5_fmt_double_special
-- inputs: df=clicks
SELECT DISTINCT format_number(CAST('NaN' AS DOUBLE), 2) AS a, format_number(CAST('Infinity' AS DOUBLE), 2) AS b, format_number(CAST('-Infinity' AS DOUBLE), 0) AS c, format_number(CAST(-0.0 AS DOUBLE), 2) AS z FROM {df}

-- name: r5_fmt_float_column
-- inputs: df=nums
SELECT id, format_number(f, 6) AS f6, format_number(d, 12) AS d12, format_number(f, 0) AS f0 FROM {df} WHERE id <> 4

-- name: r5_fmt_group_boundaries
-- inputs: df=clicks
SELECT DISTINCT format_number(1e5, 1) AS a, format_number(1e6, 1) AS b, format_number(123e0, 30) AS c, format_number(999999.5e0, 0) AS d FROM {df}

-- name: r5_fmt_double_beyond_2p53
-- inputs: df=clicks
SELECT DISTINCT format_number(1e22, 2) AS a, format_number(9.999999999999999e22, 1) AS b, format_number(12345678901234567e0, 0) AS c FROM {df}

-- name: r5_fmt_double_many_digits
-- inputs: df=clicks
SELECT DISTINCT format_number(CAST(0.1 AS DOUBLE) + CAST(0.2 AS DOUBLE), 20) AS a FROM {df}

-- name: r5_regexp_instr_group_index
-- inputs: df=clicks
SELECT DISTINCT regexp_instr('abcabc', '(c)(a)', 2) AS a, regexp_instr('xyz', 'y', 5) AS b, regexp_instr('a-b', '-(b)', 1) AS c, regexp_instr(CAST(NULL AS STRING), '(a)', 1) AS d FROM {df}

-- name: r5_regexp_instr_group_column
-- inputs: df=clicks
SELECT page, regexp_instr(page, '(o)(m|d)', 2) AS p FROM {df}

-- name: r5_regexp_instr_negative_group
-- inputs: df=clicks
SELECT DISTINCT regexp_instr('abc', '(b)', -1) AS a FROM {df}

-- name: r5_schema_of_json_not_foldable
-- inputs: df=texts
SELECT id, schema_of_json(concat('{"a":', t, '}')) AS s FROM {df}

-- name: r5_schema_of_json_foldable_expr
-- inputs: df=texts
SELECT DISTINCT schema_of_json(concat('{"a":', '1}')) AS s FROM {df}
