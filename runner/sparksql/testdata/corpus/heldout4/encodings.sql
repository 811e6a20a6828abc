-- Round 4 (held out): encode/decode with charsets, hex/unhex, written
-- before their translation.

-- name: h4_enc_per_row_charset
-- inputs: df=feed
SELECT id, hex(encode(txt, cs)) AS h FROM {df}

-- name: h4_enc_roundtrip_latin1
-- inputs: df=feed
SELECT id, decode(encode(txt, 'ISO-8859-1'), 'ISO-8859-1') AS back FROM {df}

-- name: h4_enc_utf32
-- inputs: df=feed
SELECT id, hex(encode(txt, 'UTF-32')) AS h FROM {df} WHERE id IN (1, 3, 5)

-- name: h4_enc_length_bytes
-- inputs: df=texts
SELECT id, length(encode(s, 'UTF-8')) AS utf8_bytes, octet_length(s) AS octets, length(encode(s, 'UTF-16LE')) AS utf16_bytes FROM {df}

-- name: h4_enc_decode_utf16_bom
-- inputs: df=clicks
SELECT DISTINCT decode(unhex('FEFF00410042'), 'UTF-16') AS bom_be, decode(unhex('FFFE41004200'), 'UTF-16') AS bom_le, decode(unhex('00410042'), 'UTF-16') AS no_bom FROM {df}

-- name: h4_enc_decode_ascii_high_byte
-- inputs: df=clicks
SELECT DISTINCT decode(unhex('41E942'), 'US-ASCII') AS d FROM {df}

-- name: h4_enc_decode_charset_case
-- inputs: df=clicks
SELECT DISTINCT decode(unhex('C3A9'), 'utf-8') AS a, hex(encode('é', 'iso-8859-1')) AS b FROM {df}

-- name: h4_enc_decode_null_args
-- inputs: df=feed
SELECT id, decode(unhex(hx), cs) AS d FROM {df} WHERE id IN (1, 6)

-- name: h4_enc_decode_case_form_nulls
-- inputs: df=history
SELECT id, seq, decode(status, 'new', 1, 'paid', 2, NULL, -1, 0) AS code FROM {df}

-- name: h4_enc_decode_case_form_numbers
-- inputs: df=orders
SELECT order_id, decode(quantity, 1, 'one', 2, 'two') AS q FROM {df}

-- name: h4_hex_unhex_column
-- inputs: df=feed
SELECT id, unhex(hx) AS b, try_to_binary(hx, 'hex') AS tb FROM {df}

-- name: h4_hex_unhex_odd_length
-- inputs: df=clicks
SELECT DISTINCT hex(unhex('ABC')) AS odd, hex(unhex('1')) AS one, unhex('G1') AS bad FROM {df}

-- name: h4_hex_of_numbers
-- inputs: df=nums
SELECT id, hex(i) AS hi, hex(l) AS hl, hex(t) AS ht FROM {df}

-- name: h4_hex_decode_text
-- inputs: df=feed
SELECT id, decode(unhex(hx), 'UTF-8') AS txt FROM {df} WHERE id IN (1, 2, 7, 8)

-- name: h4_hex_unhex_type
-- inputs: df=clicks
SELECT DISTINCT typeof(unhex('00')) AS t, hex(unhex('')) AS e, length(unhex('0001FF')) AS n FROM {df}

-- name: h4_enc_bad_charset_column
-- inputs: df=feed
SELECT id, encode(txt, cs) AS e FROM {df} WHERE id = 8
