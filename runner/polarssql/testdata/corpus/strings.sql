-- name: str_upper_sharp_s
-- inputs: df=strs
SELECT id, UPPER(t) AS u FROM {df}

-- name: str_lower_unicode
-- inputs: df=strs
SELECT id, LOWER(code) AS l FROM {df}

-- name: str_length_unicode
-- inputs: df=strs
SELECT id, LENGTH(s) AS n, CHAR_LENGTH(t) AS c FROM {df}

-- name: str_concat_nulls
-- inputs: df=strs
SELECT id, CONCAT(s, email) AS c, s || email AS p FROM {df}

-- name: str_replace_all
-- inputs: df=strs
SELECT id, REPLACE(s, ',', ';') AS r FROM {df}

-- name: str_like_underscore
-- inputs: df=strs
SELECT id FROM {df} WHERE code LIKE '__-%'

-- name: str_not_like
-- inputs: df=strs
SELECT id, email NOT LIKE '%.com' AS x FROM {df}

-- name: str_ilike_unicode
-- inputs: df=strs
SELECT id FROM {df} WHERE s ILIKE '%STRASSE%'

-- name: str_compare
-- inputs: df=strs
SELECT id FROM {df} WHERE s > t

-- name: str_starts_ends
-- inputs: df=strs
SELECT id, STARTS_WITH(email, 'a') AS a, ENDS_WITH(code, '9') AS b FROM {df}

-- name: str_quote_escape
-- inputs: df=strs
SELECT id FROM {df} WHERE s = 'O''Reilly'

-- name: str_double_quoted_ident
-- inputs: df=strs
SELECT "id", "s" AS "my col" FROM {df}

-- name: str_upper_unaliased
-- inputs: df=strs
SELECT UPPER(email), LOWER(email) FROM {df}

-- name: str_strpos_unicode
-- inputs: df=strs
SELECT id, STRPOS(s, 'e') AS p FROM {df}

-- name: str_substr_two_args
-- inputs: df=strs
SELECT id, SUBSTR(s, 3) AS x FROM {df}

-- name: str_left_unicode
-- inputs: df=strs
SELECT id, LEFT(s, 3) AS l, RIGHT(s, 4) AS r FROM {df}

-- name: str_substr_long
-- inputs: df=strs
SELECT id, SUBSTR(code, 2, 100) AS x FROM {df}
