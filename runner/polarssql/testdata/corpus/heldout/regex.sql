-- name: h_re_like_email
-- inputs: df=strs
SELECT id FROM {df} WHERE REGEXP_LIKE(email, '^[a-z.]+@[a-z]+\.(com|org)$')

-- name: h_re_tilde
-- inputs: df=strs
SELECT id, email ~ '@' AS has_at FROM {df}

-- name: h_re_tilde_star
-- inputs: df=strs
SELECT id FROM {df} WHERE code ~* '^[a-z]{2}[-_]'

-- name: h_re_digits
-- inputs: df=strs
SELECT id, REGEXP_LIKE(code, '^\d+$') AS digits FROM {df}

-- name: h_re_not_match
-- inputs: df=strs
SELECT id FROM {df} WHERE s !~ 'o'

-- name: h_re_rlike
-- inputs: df=strs
SELECT id, s RLIKE 'l{2}' AS ll FROM {df}

-- name: h_re_flag_i
-- inputs: df=texts
SELECT id, REGEXP_LIKE(s, 'WORLD', 'i') AS w FROM {df}

-- name: h_re_split_part
-- inputs: df=strs
SELECT id, SPLIT_PART(email, '@', 2) AS domain FROM {df}

-- name: h_re_unicode_class
-- inputs: df=texts
SELECT id, REGEXP_LIKE(s, '^\s') AS lead_space FROM {df}

-- name: h_re_replace
-- inputs: df=strs
SELECT id, REGEXP_REPLACE(code, '[0-9]', '#') AS masked FROM {df}
