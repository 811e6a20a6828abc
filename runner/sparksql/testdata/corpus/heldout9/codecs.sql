-- Round 9 (held out): unbase64 of line-broken (MIME) and invalid base64,
-- to_binary/try_to_binary, conv, bin, hex and unhex edge cases, written
-- before their translation.

-- name: h9_unb64_plain
-- inputs: df=strs
SELECT hex(unbase64('SGVsbG8=')) AS a, hex(unbase64('SGVsbG8')) AS nopad, hex(unbase64('')) AS e, unbase64(NULL) AS n

-- name: h9_unb64_line_breaks
-- inputs: df=strs
SELECT hex(unbase64('SGVs\nbG8=')) AS lf, hex(unbase64('SGVs\r\nbG8=')) AS crlf, hex(unbase64('SGVs bG8=')) AS sp, hex(unbase64('  SGVsbG8=  ')) AS edge, hex(unbase64('SGVsbG8=\n')) AS trail

-- name: h9_unb64_mime_roundtrip
-- inputs: df=strs
SELECT cast(unbase64(base64(repeat('landing data ', 10))) AS STRING) AS r, length(base64(repeat('x', 100))) AS n

-- name: h9_unb64_mime_literal
-- inputs: df=strs
SELECT length(unbase64('QUJDREVGR0hJSktMTU5PUFFSU1RVVldYWVphYmNkZWZnaGlqa2xtbm9wcXJzdHV2d3h5ejAxMjM0\r\nNTY3ODk=')) AS n, cast(unbase64('QUJDREVGR0hJSktMTU5PUFFSU1RVVldYWVphYmNkZWZnaGlqa2xtbm9wcXJzdHV2d3h5ejAxMjM0\r\nNTY3ODk=') AS STRING) AS s

-- name: h9_unb64_invalid_char
-- inputs: df=strs
SELECT unbase64('SGV$bG8=') AS x

-- name: h9_unb64_invalid_length
-- inputs: df=strs
SELECT unbase64('SGVsb') AS x

-- name: h9_unb64_column
-- inputs: df=strs
SELECT id, hex(unbase64(base64(s))) AS rt FROM {df} ORDER BY id

-- name: h9_to_binary_base64
-- inputs: df=strs
SELECT hex(to_binary('SGVs\nbG8=', 'base64')) AS a, hex(try_to_binary('SGVsbG8', 'base64')) AS b, try_to_binary('SG!sbG8=', 'base64') AS bad, hex(to_binary('48656c6c6f', 'hex')) AS h

-- name: h9_to_binary_hex_bad
-- inputs: df=strs
SELECT to_binary('4865zz', 'hex') AS x

-- name: h9_try_to_binary_formats
-- inputs: df=feed
SELECT id, hex(try_to_binary(hx, 'hex')) AS h, hex(try_to_binary(txt, 'utf-8')) AS u FROM {df} ORDER BY id

-- name: h9_conv_basic
-- inputs: df=nums
SELECT conv('ff', 16, 10) AS a, conv('255', 10, 16) AS b, conv('777', 8, 2) AS c, conv('z', 36, 10) AS d, conv('10', 10, 36) AS e, conv('ZZ', 36, 16) AS f

-- name: h9_conv_negative
-- inputs: df=nums
SELECT conv('-1', 10, 16) AS a, conv('-15', 10, -16) AS b, conv('ff', 16, -10) AS c, conv('-ff', 16, 10) AS d

-- name: h9_conv_invalid_digits
-- inputs: df=nums
SELECT conv('12x4', 10, 16) AS a, conv('xyz', 10, 16) AS b, conv('', 10, 2) AS c, conv('9', 8, 10) AS d, conv(' 12', 10, 10) AS e

-- name: h9_conv_bad_base
-- inputs: df=nums
SELECT conv('10', 1, 10) AS a, conv('10', 10, 37) AS b, conv('10', 40, 10) AS c

-- name: h9_conv_overflow
-- inputs: df=nums
SELECT conv('FFFFFFFFFFFFFFFFFFFF', 16, 10) AS x

-- name: h9_conv_columns
-- inputs: df=nums
SELECT id, conv(i, 10, 16) AS a, conv(l, 10, 2) AS b, conv(str_num, 10, 8) AS c FROM {df} ORDER BY id

-- name: h9_bin
-- inputs: df=nums
SELECT id, bin(i) AS a, bin(l) AS b, bin(t) AS c FROM {df} ORDER BY id

-- name: h9_bin_literals
-- inputs: df=nums
SELECT bin(13) AS a, bin(-1) AS b, bin(0) AS c, bin(NULL) AS d, bin(2.9D) AS e, bin('7') AS f

-- name: h9_hex_numbers
-- inputs: df=nums
SELECT id, hex(i) AS a, hex(l) AS b, hex(s) AS c FROM {df} ORDER BY id

-- name: h9_hex_strings_binary
-- inputs: df=feed
SELECT id, hex(txt) AS a, hex(unhex(hx)) AS b, lower(hex(cs)) AS c FROM {df} ORDER BY id

-- name: h9_unhex_edges
-- inputs: df=feed
SELECT hex(unhex('abc')) AS odd, unhex('zz') AS bad, hex(unhex('')) AS e, hex(unhex('0aFF')) AS mixed, hex(unhex(' 0a')) AS sp

-- name: h9_hex_double_decimal
-- inputs: df=nums
SELECT hex(2.9D) AS d, hex(12.5) AS dec, hex(-2.5D) AS neg
