-- Round 11 (development): Java-regex specifics of the regexp family.

-- name: r11_rx_extract_email_parts
-- inputs: df=customers
SELECT customer_id, regexp_extract(email, '@([a-z]+)\\.', 1) AS host, regexp_extract(email, '\\.([a-z]{2,3})$', 1) AS tld FROM {df} ORDER BY customer_id

-- name: r11_rx_replace_collapse
-- inputs: df=orders
SELECT order_id, regexp_replace(note, '\\s{2,}', ' ') AS n1, regexp_replace(note, '^\\s+|\\s+$', '') AS tr, regexp_replace(note, '(\\w)(\\w*)', '$2$1') AS pig FROM {df} ORDER BY order_id

-- name: r11_rx_extract_all_groups
-- inputs: df=feed
SELECT id, regexp_extract_all(url, '[?&]([a-z]+)=', 1) AS keys, regexp_extract_all(url, '[?&][a-z]+=([^&#]*)', 1) AS vals FROM {df} ORDER BY id

-- name: r11_rx_case_insensitive_rlike
-- inputs: df=orders
SELECT order_id, status rlike '(?i)^shipped$' AS s, note rlike '(?i)GIFT' AS g FROM {df} ORDER BY order_id

-- name: r11_rx_group_index_negative
-- inputs: df=strs
SELECT regexp_extract('abc', '(a)', -1) AS x

-- name: r11_rx_extract_all_bad_group
-- inputs: df=strs
SELECT regexp_extract_all('a1b2', '(\\d)', 3) AS x

-- name: r11_rx_unicode_words
-- inputs: df=texts
SELECT id, regexp_extract_all(s, '\\p{L}+', 0) AS words, regexp_replace(s, '(?U)\\w', '_') AS uw, regexp_replace(s, '[^\\x00-\\x7F]', '?') AS ascii FROM {df} ORDER BY id

-- name: r11_rx_quote_literal
-- inputs: df=strs
SELECT regexp_replace('a.b*c', '\\Q.b*\\E', '_') AS q, regexp_replace('1+1=2', '\\+', ' plus ') AS plus, regexp_extract('[tag] rest', '^\\[(.*?)\\]', 1) AS tag

-- name: r11_rx_replace_null_args
-- inputs: df=strs
SELECT regexp_replace(NULL, 'a', 'b') AS n1, regexp_replace('abc', NULL, 'b') AS n2, regexp_replace('abc', 'b', NULL) AS n3, 'x' rlike NULL AS n4

-- name: r11_rx_lookahead_password
-- inputs: df=strs
SELECT id, s rlike '^(?=.*[A-Z])(?=.*\\d).+$' AS strong, code rlike '^(?![a-z]).*' AS notlower FROM {df} ORDER BY id
