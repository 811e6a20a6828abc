-- name: str_upper_lower
-- inputs: df=strs
SELECT id, upper(s) AS u, lower(s) AS l, ucase(code) AS uc, lcase(code) AS lc FROM {df}

-- name: str_initcap
-- inputs: df=strs
SELECT id, initcap(s) AS a, initcap(code) AS b FROM {df}

-- name: str_length_family
-- inputs: df=strs
SELECT id, length(s) AS a, char_length(s) AS b, character_length(s) AS c, octet_length(s) AS e, bit_length(s) AS f FROM {df}

-- name: str_substring_positions
-- inputs: df=strs
SELECT id, substring(code, 2) AS a, substring(code, -2) AS b, substring(code, 0) AS c, substring(code, 2, 2) AS e, substring(code, -3, 2) AS f, substring(code, 10, 2) AS g, substring(code, 1, 0) AS h, substring(code, 1, -1) AS i FROM {df}

-- name: str_substr_from_for
-- inputs: df=strs
SELECT id, SUBSTRING(code FROM 2 FOR 3) AS a, substr(code, 3) AS b FROM {df}

-- name: str_left_right
-- inputs: df=strs
SELECT id, left(code, 3) AS a, right(code, 3) AS b, left(code, 0) AS c, right(code, -1) AS e, left(code, 100) AS f FROM {df}

-- name: str_trim_family
-- inputs: df=strs
SELECT id, trim(s) AS a, ltrim(s) AS b, rtrim(s) AS c, trim(BOTH 'a' FROM code) AS e, TRIM(LEADING 'A' FROM code) AS f, TRIM(TRAILING '9' FROM code) AS g, btrim(s) AS h FROM {df}

-- name: str_trim_only_spaces
SELECT trim(concat(chr(9), ' x ', chr(10))) AS a, length(trim('  x  ')) AS b

-- name: str_pad
-- inputs: df=strs
SELECT id, lpad(code, 6, '*') AS a, rpad(code, 6, '-') AS b, lpad(code, 2, '*') AS c, lpad(code, 8) AS e, rpad(code, 3, '') AS f, lpad(code, 0, 'x') AS g FROM {df}

-- name: str_concat_variants
-- inputs: df=strs
SELECT id, concat(code, '/', s) AS a, code || '-' || id AS b, concat() AS c, concat(code) AS e FROM {df}

-- name: str_concat_ws_nulls
-- inputs: df=strs
SELECT id, concat_ws(',', code, s, NULL, num_str) AS a, concat_ws(NULL, code) AS b, concat_ws('-', array(code, s), id) AS c FROM {df}

-- name: str_concat_numbers
-- inputs: df=nums
SELECT id, concat('n=', i, ', d=', d, ', dec=', dec, ', b=', b) AS a FROM {df}

-- name: str_replace_translate
-- inputs: df=strs
SELECT id, replace(s, 'l', 'L') AS a, replace(s, ' ') AS b, replace(s, '', 'x') AS c, translate(code, '-_', '.') AS e FROM {df}

-- name: str_instr_locate
-- inputs: df=strs
SELECT id, instr(s, 'o') AS a, locate('o', s) AS b, locate('o', s, 6) AS c, locate('', s) AS e, locate('o', s, 0) AS f FROM {df}

-- name: str_position_syntax
-- inputs: df=strs
SELECT id, POSITION('-' IN code) AS p FROM {df}

-- name: str_reverse_repeat
-- inputs: df=strs
SELECT id, reverse(code) AS a, repeat(code, 3) AS b, repeat('x', -1) AS c, space(3) AS e FROM {df}

-- name: str_split_regex
-- inputs: df=strs
SELECT id, split(csv, ',') AS a, split(csv, '[,;|=]') AS b, split(s, '') AS c FROM {df}

-- name: str_split_escaped_literal
-- inputs: df=strs
SELECT id, split(csv, '\\|') AS a, split(csv, '\\s*,\\s*') AS b FROM {df}

-- name: str_split_part
-- inputs: df=strs
SELECT id, split_part(code, '-', 1) AS a, split_part(code, '-', 2) AS b, split_part(code, '-', 5) AS c, split_part(code, '-', -1) AS e FROM {df}

-- name: str_split_part_zero
-- inputs: df=strs
SELECT split_part(code, '-', 0) AS a FROM {df}

-- name: str_substring_index
-- inputs: df=strs
SELECT id, substring_index(csv, ',', 2) AS a, substring_index(csv, ',', -2) AS b, substring_index(csv, ',', 0) AS c, substring_index(csv, ',', 10) AS e FROM {df}

-- name: str_regexp_extract_groups
-- inputs: df=strs
SELECT id, regexp_extract(code, '([A-Za-z]+)[-_]?([0-9]*)', 1) AS a, regexp_extract(code, '([0-9]+)', 0) AS b, regexp_extract(code, 'zz(z)') AS c FROM {df}

-- name: str_regexp_extract_bad_group
-- inputs: df=strs
SELECT regexp_extract(code, '([0-9]+)', 2) AS a FROM {df}

-- name: str_regexp_extract_all
-- inputs: df=strs
SELECT id, regexp_extract_all(s, '([a-z])o', 1) AS a, regexp_extract_all(csv, '[0-9]', 0) AS b FROM {df}

-- name: str_regexp_replace_all
-- inputs: df=strs
SELECT id, regexp_replace(s, '[aeiou]', '*') AS a, regexp_replace(code, '([A-Z]+)-([0-9]+)', '$2:$1') AS b, regexp_replace(s, '\\s+', ' ') AS c FROM {df}

-- name: str_regexp_dot_and_classes
-- inputs: df=strs
SELECT id, regexp_replace(s, '.', 'x') AS a, s RLIKE '\\d' AS b, regexp_like(code, '^[a-z]{2}') AS c FROM {df}

-- name: str_rlike_anchor
-- inputs: df=strs
SELECT id, code RLIKE '[0-9]$' AS a, code REGEXP '^[A-Z]' AS b FROM {df}

-- name: str_regexp_lookahead_rejected
-- inputs: df=strs
SELECT regexp_extract(code, '(?=A)A', 0) AS a FROM {df}

-- name: str_regexp_backref_rejected
-- inputs: df=strs
SELECT regexp_replace(s, '(l)\\1', 'L') AS a FROM {df}

-- name: str_like_patterns
-- inputs: df=strs
SELECT id, code LIKE 'A%' AS a, code LIKE '__-%' AS b, code LIKE '%\\_%' AS c, code NOT LIKE '%-%' AS e, s ILIKE '%WORLD%' AS f FROM {df}

-- name: str_like_escape
-- inputs: df=strs
SELECT id, code LIKE 'gh!_%' ESCAPE '!' AS a FROM {df}

-- name: str_like_any
-- inputs: df=strs
SELECT id FROM {df} WHERE code LIKE ANY ('AB%', 'cd%', 'gh%')

-- name: str_like_invalid_escape
-- inputs: df=strs
SELECT code LIKE 'a\\b%' AS a FROM {df}

-- name: str_starts_ends_contains
-- inputs: df=strs
SELECT id, startswith(code, 'AB') AS a, endswith(s, 'd') AS b, contains(csv, ',') AS c FROM {df}

-- name: str_ascii_chr
-- inputs: df=strs
SELECT id, ascii(code) AS a, chr(65) AS b, chr(321) AS c, char(97) AS e FROM {df}

-- name: str_hash_funcs
-- inputs: df=strs
SELECT id, md5(code) AS a, sha1(code) AS b, sha2(code, 256) AS c, sha2(code, 0) AS e FROM {df}

-- name: str_base64_hex
-- inputs: df=strs
SELECT id, base64(code) AS a, CAST(unbase64(base64(code)) AS STRING) AS b, hex(code) AS c, hex(id) AS e FROM {df}

-- name: str_hex_negative
SELECT hex(-1) AS a, hex(255) AS b

-- name: str_format_number
-- inputs: df=nums
SELECT id, format_number(d, 2) AS a, format_number(dec, 1) AS b, format_number(l, 0) AS c, format_number(i, 3) AS e FROM {df} WHERE id NOT IN (4)

-- name: str_format_string
-- inputs: df=nums
SELECT id, format_string('%d|%5d|%-4d|%s', i, t, s, str_num) AS a, printf('%05d', l) AS b, format_string('%.2f', dec) AS c, format_string('%s', d) AS e FROM {df} WHERE id NOT IN (4)

-- name: str_levenshtein_overlay
-- inputs: df=strs
SELECT id, levenshtein(code, 'AB-124') AS a, overlay(code PLACING 'ZZ' FROM 2) AS b, overlay(code PLACING 'Z' FROM 1 FOR 2) AS c FROM {df}

-- name: str_find_in_set
-- inputs: df=strs
SELECT id, find_in_set('b', csv) AS a, find_in_set('c', csv) AS b, find_in_set('a,b', 'a,b') AS c FROM {df}

-- name: str_double_quotes_are_strings
-- inputs: df=strs
SELECT id, "code" AS a, "it's" AS b FROM {df}

-- name: str_escapes_literals
SELECT 'a\tb' AS a, 'c\nd' AS b, 'e\\f' AS c, '\'q\'' AS e, 'x\%y' AS f, r'\d+' AS g, 'A\u00e9' AS h, 'a' 'b' AS i, 'it''s' AS j

-- name: str_comparison_bytes
-- inputs: df=strs
SELECT id FROM {df} WHERE s > 'Z' ORDER BY id

-- name: str_unicode_functions
-- inputs: df=strs
SELECT upper(s) AS u, length(s) AS n, reverse(s) AS r, substring(s, 3, 4) AS sub FROM {df} WHERE id = 5

-- name: str_typeof
-- inputs: df=orders
SELECT typeof(amount) AS a, typeof(tags) AS b, typeof(attrs) AS c, typeof(address) AS e, typeof(ordered_at) AS f FROM {df} LIMIT 1

-- name: str_regexp_substr_count
-- inputs: df=strs
SELECT id, regexp_substr(code, '[0-9]+') AS a, regexp_count(csv, ',') AS b FROM {df}

-- name: str_not_a_function
-- inputs: df=strs
SELECT no_such_function(code) AS a FROM {df}

-- name: str_unsupported_function
-- inputs: df=strs
SELECT soundex(code) AS a FROM {df}
