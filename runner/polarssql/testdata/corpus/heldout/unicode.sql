-- name: h_uni_trim
-- inputs: df=texts
SELECT id, TRIM(s) AS clean FROM {df}

-- name: h_uni_ltrim_rtrim
-- inputs: df=texts
SELECT id, LTRIM(s) AS l, RTRIM(s) AS r FROM {df}

-- name: h_uni_trim_length
-- inputs: df=texts
SELECT id, LENGTH(TRIM(s)) AS n FROM {df}

-- name: h_uni_trim_where
-- inputs: df=texts
SELECT id FROM {df} WHERE TRIM(s) = 'plain' OR TRIM(s) = 'nbsp'

-- name: h_uni_trim_chars
-- inputs: df=strs
SELECT id, TRIM(BOTH '-' FROM code) AS c, LTRIM(code, '0') AS z FROM {df}

-- name: h_uni_initcap
-- inputs: df=texts
SELECT id, INITCAP(s) AS title FROM {df}

-- name: h_uni_initcap_strs
-- inputs: df=strs
SELECT id, INITCAP(t) AS title FROM {df}

-- name: h_uni_reverse
-- inputs: df=texts
SELECT id, REVERSE(s) AS r FROM {df}

-- name: h_uni_upper_trim
-- inputs: df=texts
SELECT id, UPPER(TRIM(s)) AS k FROM {df}

-- name: h_uni_reverse_unaliased
-- inputs: df=strs
SELECT id, REVERSE(code) FROM {df}
