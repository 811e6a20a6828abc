-- Round 11 (held out): Java regular expressions as landing-data cleaning
-- writes them (regexp_extract, regexp_extract_all, regexp_replace, rlike:
-- groups, $n references, inline flags, lookaround, Java's ASCII \w, empty
-- matches, bad patterns and group indexes), written before the round-11 code.

-- name: h11_rx_extract_groups
-- inputs: df=landing
SELECT rec_id, regexp_extract(trim(email), '^([^@]+)@(.+)$', 1) AS usr, regexp_extract(trim(email), '^([^@]+)@(.+)$', 2) AS dom, regexp_extract(email, '[A-Z]\\w+', 0) AS cap FROM {df} ORDER BY rec_id

-- name: h11_rx_extract_unmatched_group
-- inputs: df=strs
SELECT regexp_extract('abc', '(\\d+)', 1) AS nomatch, regexp_extract('ab', 'a(x)?b', 1) AS opt, regexp_extract(NULL, '(a)', 1) AS n, regexp_extract('a1b2', '[a-z](\\d)', 1) AS first, regexp_extract('AB-123', '([A-Z]+)-(\\d+)') AS dflt

-- name: h11_rx_extract_group_out_of_range
-- inputs: df=strs
SELECT regexp_extract('abc', '(a)', 2) AS x

-- name: h11_rx_extract_all_files
-- inputs: df=landing
SELECT rec_id, regexp_extract_all(src_file, '(\\d+)', 1) AS nums, regexp_extract_all(src_file, '/([a-z]+)', 1) AS dirs FROM {df} ORDER BY rec_id

-- name: h11_rx_extract_all_literals
-- inputs: df=strs
SELECT regexp_extract_all('a1b22c333', '\\d+', 0) AS a, regexp_extract_all('k1=v1;k2=v2', '(\\w+)=(\\w+)', 2) AS b, regexp_extract_all('none', '(\\d)', 1) AS c, regexp_extract_all('x', '(\\d)?x', 1) AS d

-- name: h11_rx_replace_backrefs
-- inputs: df=landing
SELECT rec_id, regexp_replace(event_date, '^(\\d{4})-(\\d{2})-(\\d{2})$', '$3/$2/$1') AS d, regexp_replace(phone, '[^0-9+]', '') AS digits, regexp_replace(phone, '(\\d{2})-(\\d{2})', '$2:$1') AS swapped FROM {df} ORDER BY rec_id

-- name: h11_rx_replace_dollar_escape
-- inputs: df=strs
SELECT regexp_replace('a.b.c', '\\.', '\\$') AS dollar, regexp_replace('price 10', '(\\d+)', '\\$$1') AS cur, regexp_replace('aXbXc', 'X', '\\\\') AS bs, regexp_replace('abc', '(b)', '[$0]') AS whole

-- name: h11_rx_replace_bad_group_ref
-- inputs: df=strs
SELECT regexp_replace('abc', '(b)', '$2') AS x

-- name: h11_rx_inline_flags
-- inputs: df=strs
SELECT regexp_replace('Hello HELLO hello', '(?i)hello', 'x') AS ci, 'line1\nline2' rlike '(?m)^line2$' AS ml, 'a\nb' rlike '(?s)a.b' AS dotall, 'a\nb' rlike 'a.b' AS nodot, regexp_extract('ABC def', '(?i)([a-c]+)', 1) AS cig

-- name: h11_rx_lookaround
-- inputs: df=strs
SELECT regexp_extract('price: 100USD 20EUR', '\\d+(?=EUR)', 0) AS ahead, regexp_replace('aaab', 'a(?!a)', 'X') AS neg, regexp_extract('USD100', '(?<=USD)\\d+', 0) AS behind, regexp_replace('a1b2', '(?<![a])\\d', '#') AS negbehind

-- name: h11_rx_java_classes
-- inputs: df=texts
SELECT id, regexp_replace(s, '\\w', '_') AS w, regexp_replace(s, '\\p{L}', '*') AS letters, regexp_replace(s, '\\s+', ' ') AS ws, s rlike '^\\p{Lu}' AS upper_start FROM {df} ORDER BY id

-- name: h11_rx_named_possessive
-- inputs: df=strs
SELECT regexp_extract('2024-03-10', '(?<y>\\d{4})-(?<m>\\d{2})', 2) AS m, regexp_extract('aaa1', 'a++1', 0) AS poss, regexp_extract('aaa', 'a{2,}?', 0) AS lazy, regexp_replace('x  y', '\\h+', '_') AS hspace

-- name: h11_rx_empty_matches
-- inputs: df=strs
SELECT regexp_replace('abc', '', '-') AS e, regexp_extract_all('abc', 'x*', 0) AS stars, regexp_replace('', '^$', 'EMPTY') AS empty_line, regexp_replace('a b', ' *', '_') AS star

-- name: h11_rx_replace_position
-- inputs: df=strs
SELECT regexp_replace('aaa', 'a', 'b', 2) AS p2, regexp_replace('abcabc', '^a', 'X', 4) AS anchored, regexp_replace('abc', 'c', 'Z', 10) AS beyond

-- name: h11_rx_invalid_pattern
-- inputs: df=strs
SELECT regexp_extract('a', '(a', 1) AS x

-- name: h11_rx_rlike_filter
-- inputs: df=landing
-- mode: filter
trim(email) rlike '^[a-z]+(\\+[a-z]+)?@[a-z.]+\\.[a-z]{2,}$'

-- name: h11_rx_raw_strings
-- inputs: df=strs
SELECT regexp_replace(code, r'[-_]\d+$', '') AS stem, regexp_extract(code, r'(\d+)', 1) AS n, code rlike r'^[A-Z]{2}-\d+$' AS std FROM {df} ORDER BY id
