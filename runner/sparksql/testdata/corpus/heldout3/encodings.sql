-- Round 3 (held out): encode and decode, written before their
-- translation.

-- name: h3_enc_utf8_hex
-- inputs: df=texts
SELECT id, hex(encode(s, 'UTF-8')) AS h FROM {df}

-- name: h3_enc_decode_utf8
-- inputs: df=strs
SELECT id, decode(encode(s, 'utf-8'), 'UTF-8') AS back FROM {df}

-- name: h3_enc_latin1_ascii
-- inputs: df=strs
SELECT id, hex(encode(code, 'ISO-8859-1')) AS l1, hex(encode(code, 'US-ASCII')) AS a FROM {df}

-- name: h3_enc_latin1_unmappable
-- inputs: df=texts
SELECT id, hex(encode(s, 'ISO-8859-1')) AS l1 FROM {df}

-- name: h3_enc_utf16
-- inputs: df=strs
SELECT id, hex(encode(code, 'UTF-16BE')) AS be, hex(encode(code, 'UTF-16LE')) AS le, hex(encode(code, 'UTF-16')) AS bom FROM {df}

-- name: h3_enc_bad_charset
-- inputs: df=strs
SELECT id, encode(s, 'EBCDIC-XYZ') AS e FROM {df}

-- name: h3_enc_decode_invalid_utf8
-- inputs: df=clicks
SELECT DISTINCT decode(unhex('41FF42'), 'UTF-8') AS d FROM {df}

-- name: h3_enc_decode_latin1
-- inputs: df=clicks
SELECT DISTINCT decode(unhex('C9636F6C65'), 'ISO-8859-1') AS d FROM {df}

-- name: h3_enc_decode_case_form
-- inputs: df=orders
SELECT order_id, decode(status, 'shipped', 'S', 'pending', 'P', 'other') AS code FROM {df}
