-- Round 2 held-out part: strings. Written before the round-2 fixes; its
-- figures are reported apart.

-- name: h2_str_levenshtein_names
-- inputs: df=texts
SELECT id, levenshtein(lower(s), lower(t)) AS d FROM {df}

-- name: h2_str_fuzzy_match
-- inputs: df=customers
SELECT customer_id FROM {df} WHERE levenshtein(lower(trim(name)), 'bob dupon') <= 2

-- name: h2_str_upper_german
-- inputs: df=texts
SELECT id, upper(t) AS u, lower(t) AS l FROM {df}

-- name: h2_str_reverse_ascii
-- inputs: df=customers
SELECT customer_id, reverse(name) AS r FROM {df}

-- name: h2_str_split_every_char
-- inputs: df=texts
SELECT id, split(t, '') AS c FROM {df}

-- name: h2_str_split_lookahead
-- inputs: df=strs
SELECT id, split(code, '(?=[0-9])') AS p FROM {df}

-- name: h2_str_not_like_any_filter
-- inputs: df=orders
SELECT order_id FROM {df} WHERE status NOT LIKE ANY ('ship%', 'pend%')

-- name: h2_str_not_ilike_all
-- inputs: df=orders
SELECT order_id FROM {df} WHERE status NOT ILIKE ALL ('%ED', '%ING')

-- name: h2_str_printf_padding_null
-- inputs: df=customers
SELECT customer_id, printf('%-10.4s|%5.1f', name, score) AS p FROM {df}

-- name: h2_str_format_string_positional
-- inputs: df=customers
SELECT customer_id, format_string('%2$s (%1$d)', customer_id, name) AS f FROM {df}

-- name: h2_str_regexp_instr_group
-- inputs: df=texts
SELECT id, regexp_instr(s, '[0-9]+') AS p FROM {df}

-- name: h2_str_url_parts_protocol
-- inputs: df=landing
SELECT rec_id, parse_url(src_file, 'PROTOCOL') AS proto, parse_url(src_file, 'REF') AS ref, parse_url(src_file, 'FILE') AS f FROM {df}

-- name: h2_str_crc32_bucket
-- inputs: df=customers
SELECT customer_id, crc32(email) % 4 AS bucket FROM {df}

-- name: h2_str_sha2_512_concat
-- inputs: df=customers
SELECT customer_id, sha2(concat_ws('|', name, email), 512) AS h FROM {df}

-- name: h2_str_decode_binary
-- inputs: df=texts
SELECT id, decode(unhex(hex(s)), 'UTF-8') AS d FROM {df}

-- name: h2_str_initcap_hyphen
-- inputs: df=customers
SELECT initcap('jean-luc o''brien mcdonald') AS i FROM {df} WHERE customer_id = 1
