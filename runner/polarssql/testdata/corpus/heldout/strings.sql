-- name: h_str_upper_lower
-- inputs: df=strs
SELECT id, UPPER(s) AS u, LOWER(s) AS l FROM {df}

-- name: h_str_length
-- inputs: df=strs
SELECT id, LENGTH(s) AS n, OCTET_LENGTH(s) AS b FROM {df}

-- name: h_str_trim
-- inputs: df=strs
SELECT id, TRIM(s) AS t, LTRIM(s) AS lt, RTRIM(s) AS rt FROM {df}

-- name: h_str_concat
-- inputs: df=strs
SELECT id, CONCAT(s, '-', t) AS c FROM {df}

-- name: h_str_pipes
-- inputs: df=strs
SELECT id, s || '/' || t AS c FROM {df}

-- name: h_str_substr
-- inputs: df=strs
SELECT id, SUBSTR(s, 2, 3) AS sub FROM {df}

-- name: h_str_left_right
-- inputs: df=strs
SELECT id, LEFT(code, 2) AS l, RIGHT(code, 3) AS r FROM {df}

-- name: h_str_replace
-- inputs: df=strs
SELECT id, REPLACE(s, 'l', 'L') AS r FROM {df}

-- name: h_str_like
-- inputs: df=strs
SELECT id FROM {df} WHERE email LIKE '%@example.com'

-- name: h_str_ilike
-- inputs: df=strs
SELECT id FROM {df} WHERE email ILIKE '%case%'

-- name: h_str_strpos
-- inputs: df=strs
SELECT id, STRPOS(email, '@') AS at FROM {df}

-- name: h_str_initcap
-- inputs: df=strs
SELECT id, INITCAP(s) AS ic FROM {df}

-- name: h_str_regexp_like
-- inputs: df=strs
SELECT id, REGEXP_LIKE(code, '^[A-Z]{2}-[0-9]+$') AS ok FROM {df}

-- name: h_str_starts
-- inputs: df=strs
SELECT id, STARTS_WITH(code, 'AB') AS a, ENDS_WITH(email, '.org') AS b FROM {df}

-- name: h_str_reverse_split
-- inputs: df=strs
SELECT id, REVERSE(t) AS r, SPLIT_PART(s, ',', 2) AS p FROM {df}

-- name: h_str_lpad
-- inputs: df=strs
SELECT id, LPAD(code, 6, '0') AS p FROM {df}
