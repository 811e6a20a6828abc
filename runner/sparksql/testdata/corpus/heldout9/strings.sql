-- Round 9 (held out): translate, overlay, btrim and mask as landing-data
-- cleaning uses them, written before their translation.

-- name: h9_translate_basic
-- inputs: df=landing
SELECT rec_id, translate(phone, ' ()-+', '') AS digits, translate(amount, ',', '') AS a FROM {df} ORDER BY rec_id

-- name: h9_translate_map
-- inputs: df=strs
SELECT translate('AaBbCc', 'abc', 'xyz') AS a, translate('hello', 'lo', 'L') AS b, translate('aaa', 'aa', 'xy') AS c, translate('abc', '', 'x') AS d, translate(NULL, 'a', 'b') AS n

-- name: h9_translate_unicode
-- inputs: df=texts
SELECT id, translate(s, 'éöüñ', 'eoun') AS a, translate(s, 'Σ', 'S') AS b FROM {df} ORDER BY id

-- name: h9_translate_accents
-- inputs: df=strs
SELECT id, translate(s, 'Üïöé✓ß', 'UioeXs') AS a FROM {df} ORDER BY id

-- name: h9_overlay_strings
-- inputs: df=strs
SELECT overlay('Spark SQL' PLACING '_' FROM 6) AS a, overlay('Spark SQL' PLACING 'CORE' FROM 7) AS b, overlay('Spark SQL' PLACING 'ANSI ' FROM 7 FOR 0) AS c, overlay('Spark SQL' PLACING 'tructured' FROM 2 FOR 4) AS d

-- name: h9_overlay_edges
-- inputs: df=strs
SELECT overlay('abc' PLACING 'XY' FROM 10) AS beyond, overlay('abc' PLACING 'XY' FROM 0) AS zero, overlay('abc' PLACING 'XY' FROM -1) AS neg, overlay('abc' PLACING 'XY' FROM 2 FOR -1) AS neglen, overlay('abcdef' PLACING '' FROM 2 FOR 3) AS del

-- name: h9_overlay_function_form
-- inputs: df=strs
SELECT id, overlay(code, '**', 1, 2) AS a, overlay(s, '#', 3) AS b FROM {df} ORDER BY id

-- name: h9_overlay_binary
-- inputs: df=strs
SELECT hex(overlay(X'010203' PLACING X'FF' FROM 2)) AS a, hex(overlay(X'01020304' PLACING X'AABB' FROM 2 FOR 1)) AS b

-- name: h9_overlay_unicode
-- inputs: df=texts
SELECT id, overlay(s PLACING '*' FROM 2 FOR 2) AS o FROM {df} ORDER BY id

-- name: h9_btrim
-- inputs: df=strs
SELECT id, btrim(s) AS a, btrim(code, 'A-9') AS b, btrim(num_str, ' 0') AS c FROM {df} ORDER BY id

-- name: h9_btrim_literals
-- inputs: df=strs
SELECT btrim('  x  ') AS a, btrim('xxhixx', 'x') AS b, btrim('abcba', 'ab') AS c, btrim('\t x \n') AS d, btrim('x', '') AS e, btrim(NULL, 'x') AS n, btrim('éaé', 'é') AS u

-- name: h9_trim_family
-- inputs: df=landing
SELECT rec_id, btrim(email) AS a, trim(BOTH '+' FROM phone) AS b, ltrim('0', client_id) AS c FROM {df} ORDER BY rec_id

-- name: h9_mask_default
-- inputs: df=landing
SELECT rec_id, mask(email) AS m, mask(phone) AS p FROM {df} ORDER BY rec_id

-- name: h9_mask_custom
-- inputs: df=strs
SELECT mask('AbCd-123 é', 'X', 'x', '9', '#') AS a, mask('AbCd-123', NULL, NULL, NULL, NULL) AS b, mask('AbCd-123', 'Y') AS c, mask('AbCd-123', NULL, 'q') AS d, mask('abc', 'X', 'x', 'n', NULL) AS e

-- name: h9_mask_unicode
-- inputs: df=texts
SELECT id, mask(s) AS a, mask(s, 'U', 'l', 'd', '.') AS b FROM {df} ORDER BY id

-- name: h9_mask_bad_char
-- inputs: df=strs
SELECT mask('abc', 'XY') AS x

-- name: h9_mask_null
-- inputs: df=strs
SELECT mask(NULL) AS a, mask(CAST(NULL AS STRING), 'X') AS b
