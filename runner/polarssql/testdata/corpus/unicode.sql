-- name: uni_trim_both_from
-- inputs: df=texts
SELECT id, TRIM(BOTH FROM s) AS a, TRIM(LEADING FROM s) AS b, TRIM(TRAILING FROM s) AS c FROM {df}

-- name: uni_trim_custom_chars
-- inputs: df=strs
SELECT id, TRIM(code, '0') AS c FROM {df}

-- name: uni_trim_multibyte_chars
-- inputs: df=strs
SELECT id, LTRIM(s, 'Üß') AS l, RTRIM(s, 'eß') AS r FROM {df}

-- name: uni_initcap_mark
-- inputs: df=strs
SELECT id, INITCAP(email) AS e FROM {df}

-- name: uni_reverse_twice
-- inputs: df=texts
SELECT id, REVERSE(REVERSE(s)) = s AS same FROM {df}

-- name: uni_trim_unaliased
-- inputs: df=texts
SELECT id, TRIM(s) FROM {df}

-- name: uni_initcap_null
-- inputs: df=texts
SELECT id, INITCAP(NULL) AS x FROM {df} WHERE id = 1
