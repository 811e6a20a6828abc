-- Round 2: strings (character semantics, regexes, formatting), written
-- before the round-2 fixes.

-- name: r2_str_levenshtein_unicode
-- inputs: df=texts
SELECT id, levenshtein(s, t) AS d FROM {df}

-- name: r2_str_levenshtein_threshold
-- inputs: df=texts
SELECT id, levenshtein(s, t, 2) AS d FROM {df}

-- name: r2_str_levenshtein_ascii
-- inputs: df=customers
SELECT customer_id, levenshtein(lower(name), 'alice martin') AS d FROM {df}

-- name: r2_str_soundex
-- inputs: df=customers
SELECT customer_id, soundex(name) AS sx FROM {df}

-- name: r2_str_lower_upper_unicode
-- inputs: df=texts
SELECT id, lower(s) AS l, upper(s) AS u FROM {df}

-- name: r2_str_lower_dotted_i
-- inputs: df=texts
SELECT lower('İ') AS a, upper('ß') AS b, lower('ΣΑΣ') AS c, upper('ﬁ') AS d FROM {df} WHERE id = 1

-- name: r2_str_initcap_unicode
-- inputs: df=texts
SELECT id, initcap(s) AS i FROM {df}

-- name: r2_str_length_graphemes
-- inputs: df=texts
SELECT id, length(s) AS n, octet_length(s) AS o, bit_length(s) AS b FROM {df}

-- name: r2_str_reverse_graphemes
-- inputs: df=texts
SELECT id, reverse(s) AS r FROM {df}

-- name: r2_str_substring_unicode
-- inputs: df=texts
SELECT id, substring(s, 1, 3) AS a, substr(s, -2) AS b, left(s, 1) AS c, right(s, 1) AS d FROM {df}

-- name: r2_str_lpad_unicode
-- inputs: df=texts
SELECT id, lpad(s, 10, '·') AS l, rpad(s, 4, 'ab') AS r FROM {df}

-- name: r2_str_instr_unicode
-- inputs: df=texts
SELECT id, instr(s, 'o') AS i, locate('o', s, 3) AS l FROM {df}

-- name: r2_str_like_unicode_pattern
-- inputs: df=texts
SELECT id, s LIKE pat AS m, s ILIKE pat AS im FROM {df}

-- name: r2_str_like_escape
-- inputs: df=strs
SELECT id, code LIKE '%\\_%' AS has_us, code LIKE '%!_%' ESCAPE '!' AS has_us2 FROM {df}

-- name: r2_str_not_like_any
-- inputs: df=customers
SELECT customer_id FROM {df} WHERE name NOT LIKE ANY ('A%', 'b%')

-- name: r2_str_not_like_all
-- inputs: df=customers
SELECT customer_id FROM {df} WHERE name NOT LIKE ALL ('A%', 'b%')

-- name: r2_str_like_any_all
-- inputs: df=customers
SELECT customer_id, email LIKE ANY ('%.com', '%.de') AS anyc, email LIKE ALL ('%@%', '%example%') AS allc FROM {df}

-- name: r2_str_not_paren_like_all
-- inputs: df=customers
SELECT customer_id FROM {df} WHERE NOT (name LIKE ALL ('%e%', '%i%'))

-- name: r2_str_ilike_any
-- inputs: df=customers
SELECT customer_id FROM {df} WHERE email ILIKE ANY ('%EXAMPLE.COM', '%.DE')

-- name: r2_str_printf_formats
-- inputs: df=orders
SELECT order_id, printf('%08.2f|%-8s|%5d', amount, status, quantity) AS p FROM {df}

-- name: r2_str_printf_null
-- inputs: df=orders
SELECT order_id, printf('%.3s', note) AS p, format_string('%s/%s', channel, note) AS f FROM {df}

-- name: r2_str_printf_hex_sci
-- inputs: df=nums
SELECT id, printf('%x', l) AS hx, printf('%e', d) AS sci, printf('%,d', l) AS grp FROM {df} WHERE id IN (1, 2, 6)

-- name: r2_str_split_empty_regex
-- inputs: df=strs
SELECT id, split(code, '') AS chars FROM {df}

-- name: r2_str_split_limit
-- inputs: df=strs
SELECT id, split(csv, ',', 2) AS p2, split(csv, ',', -1) AS pall FROM {df}

-- name: r2_str_split_regex_spaces
-- inputs: df=strs
SELECT id, split(csv, '\\s*,\\s*') AS parts FROM {df}

-- name: r2_str_split_optional_regex
-- inputs: df=strs
SELECT id, split(s, 'x*') AS parts FROM {df} WHERE id IN (1, 3)

-- name: r2_str_regexp_extract_all
-- inputs: df=strs
SELECT id, regexp_extract_all(code, '([0-9])', 1) AS digits FROM {df}

-- name: r2_str_regexp_count_substr
-- inputs: df=strs
SELECT id, regexp_count(s, '[aeiou]') AS vowels, regexp_substr(code, '[0-9]+') AS num FROM {df}

-- name: r2_str_regexp_instr
-- inputs: df=strs
SELECT id, regexp_instr(code, '[0-9]') AS first_digit FROM {df}

-- name: r2_str_regexp_like
-- inputs: df=strs
SELECT id, regexp_like(code, '^[A-Z]{2}') AS up, regexp(code, '[0-9]$') AS d FROM {df}

-- name: r2_str_regexp_replace_backref
-- inputs: df=strs
SELECT id, regexp_replace(code, '([A-Za-z]+)-([0-9]+)', '$2/$1') AS swapped FROM {df}

-- name: r2_str_regexp_replace_position
-- inputs: df=strs
SELECT id, regexp_replace(code, '[0-9]', '#', 4) AS masked FROM {df}

-- name: r2_str_regexp_extract_no_match
-- inputs: df=strs
SELECT id, regexp_extract(code, 'ZZ(\\d+)', 1) AS m FROM {df}

-- name: r2_str_mask
-- inputs: df=landing
SELECT rec_id, mask(phone) AS m, mask(email, 'X', 'x', '9', '-') AS e FROM {df}

-- name: r2_str_overlay
-- inputs: df=strs
SELECT id, overlay(code PLACING '**' FROM 2 FOR 2) AS o FROM {df}

-- name: r2_str_translate_delete
-- inputs: df=strs
SELECT id, translate(code, '-_', '') AS t FROM {df}

-- name: r2_str_btrim_chars
-- inputs: df=strs
SELECT id, btrim(code, 'A-') AS b, trim(BOTH '-' FROM code) AS t, trim(LEADING 'A' FROM code) AS l FROM {df}

-- name: r2_str_contains_startswith
-- inputs: df=strs
SELECT id, contains(code, '-') AS c, startswith(code, 'A') AS s, endswith(code, '9') AS e FROM {df}

-- name: r2_str_find_in_set_elt
-- inputs: df=strs
SELECT id, find_in_set('b', csv) AS f, elt(2, 'x', code, 'z') AS e FROM {df}

-- name: r2_str_ascii_chr
-- inputs: df=texts
SELECT id, ascii(s) AS a, chr(65 + id) AS c, char(9731) AS snow FROM {df}

-- name: r2_str_base64_roundtrip
-- inputs: df=texts
SELECT id, base64(s) AS b, CAST(unbase64(base64(s)) AS STRING) AS back FROM {df}

-- name: r2_str_encode_decode
-- inputs: df=texts
SELECT id, hex(encode(s, 'UTF-8')) AS u8, decode(encode(s, 'UTF-8'), 'UTF-8') AS back FROM {df}

-- name: r2_str_encode_latin1
-- inputs: df=texts
SELECT id, hex(encode(t, 'ISO-8859-1')) AS l1 FROM {df} WHERE id IN (2, 3, 6, 9)

-- name: r2_str_sha2_512
-- inputs: df=texts
SELECT id, sha2(s, 512) AS h, sha2(s, 384) AS h384, sha2(s, 0) AS h0 FROM {df}

-- name: r2_str_crc32_sha1
-- inputs: df=texts
SELECT id, crc32(s) AS c, sha1(s) AS s1, md5(s) AS m FROM {df}

-- name: r2_str_hash_xxhash
-- inputs: df=texts
SELECT id, hash(s) AS h, xxhash64(s) AS x FROM {df}

-- name: r2_str_concat_null
-- inputs: df=texts
SELECT id, concat(s, '-', t) AS c, concat_ws('-', s, t) AS cw, s || '!' AS p FROM {df}

-- name: r2_str_repeat_space
-- inputs: df=texts
SELECT id, repeat(t, 2) AS r FROM {df}

-- name: r2_str_sentences_words
-- inputs: df=orders
SELECT order_id, size(split(trim(note), ' ')) AS words FROM {df}

-- name: r2_str_char_length_newline
-- inputs: df=texts
SELECT id, char_length(s) AS n, replace(s, '\n', ' ') AS flat FROM {df}

-- name: r2_str_url_parse
-- inputs: df=landing
SELECT rec_id, parse_url(src_file, 'HOST') AS host, parse_url(src_file, 'PATH') AS path, parse_url(src_file, 'QUERY') AS q, parse_url(src_file, 'QUERY', 'token') AS token FROM {df}

-- name: r2_str_url_encode_decode
-- inputs: df=landing
SELECT rec_id, url_encode(email) AS e, url_decode(url_encode(email)) AS back FROM {df}

-- name: r2_str_url_decode_plus
-- inputs: df=landing
SELECT url_decode('a%20b+c%2Fd') AS d FROM {df} WHERE rec_id = '1'

-- name: r2_str_to_char_number
-- inputs: df=money
SELECT id, to_char(amount, '999,999,990.00') AS c FROM {df}

-- name: r2_str_quote_literal_escapes
-- inputs: df=texts
SELECT 'it''s' AS a, 'tab\tx' AS b, "dq" AS c, 'uni\u00e9' AS d, r'raw\n' AS e FROM {df} WHERE id = 1

-- name: r2_str_compare_collation
-- inputs: df=texts
SELECT id, s < t AS lt, s = t AS eq FROM {df}

-- name: r2_str_substring_index
-- inputs: df=landing
SELECT rec_id, substring_index(src_file, '/', 3) AS pre, substring_index(src_file, '/', -2) AS post FROM {df}

-- name: r2_str_split_part_negative
-- inputs: df=landing
SELECT rec_id, split_part(src_file, '/', -1) AS last, split_part(src_file, '/', 10) AS none FROM {df}

-- name: r2_str_luhn_check
-- inputs: df=landing
SELECT rec_id, luhn_check(regexp_replace(phone, '[^0-9]', '')) AS ok FROM {df}

-- name: r2_str_is_valid_utf8
-- inputs: df=texts
SELECT id, is_valid_utf8(s) AS v, make_valid_utf8(s) = s AS same FROM {df}

-- name: r2_str_printf_double
-- inputs: df=orders
SELECT order_id, printf('%08.2f|%-8s|%5d', CAST(amount AS DOUBLE), status, quantity) AS p FROM {df}

-- name: r2_str_case_special_chars
-- inputs: df=texts
SELECT upper('ǆ ﬁ ß ŉ ǰ ΐ ᾀ ﬗ') AS u, lower('ǅ ΑΣ. ΑΣΑ Σ ΑΣ1 ΑΣ''Α') AS l, lower('ασ') AS l2, initcap('ǆemal ßtraße ﬁne İİ x  y ΑΣ ΣΑ') AS i FROM {df} WHERE id = 1

-- name: r2_str_levenshtein_mixed
-- inputs: df=texts
SELECT id, levenshtein(s, 'straße'), levenshtein(t, s, 3) AS th FROM {df}

-- name: r2_str_split_java_semantics
-- inputs: df=texts
SELECT split('axxb', 'x*') AS a, split('abc', 'x*') AS b, split('', 'x*') AS c, split('a,b,,', ',', 2) AS d, split('abc', '', 2) AS e, split('a1b22c', '[0-9]', 3) AS f, split(s, 'o*') AS g FROM {df}

-- name: r2_str_trim_two_args_names
-- inputs: df=landing
SELECT ltrim('0', rec_id), rtrim('0 ', amount), trim('0', client_id) FROM {df}

-- name: r2_str_printf_java_flags
-- inputs: df=nums
SELECT id, printf('%05d|%+d|%,d|%(d|%-6d|', i, i, l, i, t) AS a, printf('%x|%X|%o|%#x|%08x', i, l, s, t, i) AS b, printf('%,.2f|%+.1f|%(.1f|%08.2f|%-9.3f|', d, d, d, d, f) AS c, printf('%b|%c|%.2s|%5.1f|%S', b, 65 + id, str_num, d, str_num) AS d FROM {df}

-- name: r2_str_printf_positional_dates
-- inputs: df=orders
SELECT order_id, format_string('%2$s-%1$s-%2$s', order_id, status) AS p, printf('%s|%s', ship_date, ordered_at) AS internal FROM {df}

-- name: r2_str_printf_unsupported_e
-- inputs: df=nums
SELECT printf('%e', d) AS e FROM {df}
