-- Round 9 (development): translate, overlay, btrim, mask.

-- name: r9_translate_grid
-- inputs: df=nums
SELECT translate('abcabc', 'ab', 'ba') AS a, translate('abc', 'abc', '') AS b, translate('abc', 'a', 'xyz') AS c, translate('a.b.c', '.', '_') AS d, translate('aaa', 'a', NULL) AS e

-- name: r9_translate_dup_from
-- inputs: df=nums
SELECT translate('abab', 'aba', 'xyz') AS a, translate('😀a😀', '😀', 'E') AS b, translate('straße', 'ß', 's') AS c

-- name: r9_overlay_grid
-- inputs: df=nums
SELECT overlay('hello' PLACING 'J' FROM 1 FOR 1) AS a, overlay('hello' PLACING 'p!' FROM 5) AS b, overlay('hello' PLACING 'XXXXXXXX' FROM 2) AS c, overlay('hello', 'Z', 6) AS d, overlay('hello', 'Z', 2, 10) AS e

-- name: r9_overlay_null
-- inputs: df=nums
SELECT overlay(CAST(NULL AS STRING) PLACING 'x' FROM 1) AS a, overlay('abc' PLACING CAST(NULL AS STRING) FROM 1) AS b

-- name: r9_btrim_grid
-- inputs: df=nums
SELECT btrim('aaa') AS a, btrim('') AS b, btrim('xyx', 'xy') AS c, btrim('  a b  ', ' ') AS d, btrim('😀a😀', '😀') AS e

-- name: r9_btrim_column
-- inputs: df=landing
SELECT rec_id, btrim(country) AS c, btrim(amount, ' 0') AS a FROM {df} ORDER BY rec_id

-- name: r9_mask_grid
-- inputs: df=nums
SELECT mask('Ab1!') AS a, mask('Ab1!', 'U', 'L', 'D', 'O') AS b, mask('') AS c, mask('ÀÉ ñ', 'X', 'x') AS d, mask('٣ 3', 'X', 'x', '#') AS e

-- name: r9_mask_column
-- inputs: df=customers
SELECT customer_id, mask(email, 'X', 'x', 'n', NULL) AS e, mask(name) AS n FROM {df} ORDER BY customer_id
