-- name: h_upper_lower_initcap
-- inputs: df=customers
SELECT customer_id, upper(name) AS u, lower(email) AS e, initcap(name) AS ic FROM {df}

-- name: h_concat_fields
-- inputs: df=customers
SELECT customer_id, concat(name, ' <', email, '>') AS contact, concat_ws(' | ', name, country, tier) AS summary FROM {df}

-- name: h_trim_pad
-- inputs: df=strs
SELECT id, trim(s) AS t, ltrim(s) AS l, rtrim(s) AS r, lpad(code, 8, '0') AS lp, rpad(code, 3, '*') AS rp FROM {df}

-- name: h_substring_forms
-- inputs: df=strs
SELECT id, substring(code, 1, 2) AS pre, substr(code, -3) AS suf, substring(code, 0, 3) AS z, left(code, 2) AS lf, right(code, 2) AS rt FROM {df}

-- name: h_regexp_extract_code
-- inputs: df=strs
SELECT id, regexp_extract(code, '([A-Za-z]+)[-_]([0-9]+)', 2) AS num, regexp_replace(code, '[^0-9]', '') AS digits FROM {df}

-- name: h_split_csv
-- inputs: df=strs
SELECT id, split(csv, ',') AS parts, size(split(csv, ',')) AS n FROM {df}

-- name: h_split_pipe_regex
-- inputs: df=strs
SELECT id, split(csv, '\\|') AS parts FROM {df} WHERE id = 5

-- name: h_email_domain
-- inputs: df=customers
SELECT customer_id, lower(substring_index(email, '@', -1)) AS domain FROM {df}

-- name: h_length_reverse
-- inputs: df=strs
SELECT id, length(s) AS n, char_length(s) AS c, reverse(s) AS r, octet_length(s) AS o FROM {df}

-- name: h_instr_locate
-- inputs: df=strs
SELECT id, instr(code, '-') AS i, locate('-', code) AS l, position('-' IN code) AS p FROM {df}

-- name: h_replace_translate
-- inputs: df=strs
SELECT id, replace(code, '-', '_') AS r, translate(code, 'ABC', 'abc') AS t FROM {df}

-- name: h_like_filters
-- inputs: df=customers
SELECT customer_id FROM {df} WHERE email LIKE '%@example.com' OR name ILIKE 'bob%'

-- name: h_rlike_filter
-- inputs: df=strs
SELECT id FROM {df} WHERE code RLIKE '^[A-Z]{2}-[0-9]+$'

-- name: h_format_number_string
-- inputs: df=orders
SELECT order_id, format_number(amount, 1) AS f, format_string('%s-%05d', status, order_id) AS fs FROM {df}

-- name: h_repeat_and_space
-- inputs: df=strs
SELECT id, repeat(code, 2) AS r, concat(code, space(2), '|') AS sp FROM {df}

-- name: h_md5_sha
-- inputs: df=customers
SELECT customer_id, md5(email) AS m, sha2(email, 256) AS s2, sha1(name) AS s1 FROM {df}

-- name: h_double_quoted_string
-- inputs: df=customers
SELECT customer_id, "name" AS label FROM {df}

-- name: h_string_escapes
-- inputs: df=customers
SELECT customer_id, concat(name, '\'s') AS possessive, 'a\tb' AS tab FROM {df}

-- name: h_split_part_and_startswith
-- inputs: df=strs
SELECT id, split_part(code, '-', 1) AS p1, startswith(code, 'AB') AS sw, endswith(code, '7') AS ew, contains(s, 'o') AS ct FROM {df}

-- name: h_regexp_like_count
-- inputs: df=strs
SELECT id, regexp_like(s, '[aeiou]') AS v, regexp_count(s, 'l') AS nl FROM {df}
