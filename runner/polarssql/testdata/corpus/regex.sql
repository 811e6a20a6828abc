-- name: re_word_ascii
-- inputs: df=strs
SELECT id, code ~ '^\w+-\w+$' AS w FROM {df} WHERE id IN (1, 2, 3, 6)

-- name: re_word_unicode
-- inputs: df=strs
SELECT id, s ~ '\w+' AS w FROM {df}

-- name: re_bad_flag
-- inputs: df=strs
SELECT id, REGEXP_LIKE(s, 'a', 'c') AS x FROM {df}

-- name: re_column_pattern
-- inputs: df=strs
SELECT id, s ~ t AS x FROM {df}

-- name: re_null_pattern
-- inputs: df=strs
SELECT id, REGEXP_LIKE(s, NULL) AS x FROM {df}

-- name: re_flags_ms
-- inputs: df=texts
SELECT id, REGEXP_LIKE(s, '^tab.*newline$', 'ms') AS x, REGEXP_LIKE(s, 'and.newline', 's') AS y FROM {df}

-- name: re_class_digits
-- inputs: df=strs
SELECT id FROM {df} WHERE code ~ '[[:digit:]]{3}' OR code ~* '^[a-c]'

-- name: re_not_tilde_star
-- inputs: df=strs
SELECT id FROM {df} WHERE email !~* 'EXAMPLE|TEST'

-- name: re_split_negative
-- inputs: df=strs
SELECT id, SPLIT_PART(s, ' ', -1) AS last, SPLIT_PART(s, ' ', 0) AS zero, SPLIT_PART(s, ' ', 3) AS third FROM {df}

-- name: re_unclosed
-- inputs: df=strs
SELECT id, s ~ '(' AS x FROM {df}

-- name: re_unaliased
-- inputs: df=strs
SELECT id, email ~ '\.com$' FROM {df}
