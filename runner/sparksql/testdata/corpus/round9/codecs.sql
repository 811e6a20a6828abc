-- Round 9 (development): unbase64, to_binary, conv, bin, hex, unhex.

-- name: r9_unb64_grid
-- inputs: df=nums
SELECT hex(unbase64('QQ==')) AS a, hex(unbase64('QUI=')) AS b, hex(unbase64('QUJD')) AS c, hex(unbase64('QQ')) AS d, hex(unbase64('QUI')) AS e, hex(unbase64('Q\tU\nJ\rD')) AS f

-- name: r9_unb64_urlsafe
-- inputs: df=nums
SELECT unbase64('_-8=') AS a

-- name: r9_unb64_bad_pad
-- inputs: df=nums
SELECT unbase64('QQ=a') AS a

-- name: r9_unb64_only_pad
-- inputs: df=nums
SELECT hex(unbase64('====')) AS a

-- name: r9_unb64_mime_column
-- inputs: df=feed
SELECT id, cast(unbase64(base64(repeat(coalesce(txt, ''), 20))) AS STRING) = repeat(coalesce(txt, ''), 20) AS ok FROM {df} ORDER BY id

-- name: r9_conv_grid
-- inputs: df=nums
SELECT conv('0', 10, 2) AS a, conv('1010', 2, 10) AS b, conv('FFFFFFFFFFFFFFFF', 16, 10) AS c, conv('9223372036854775807', 10, 16) AS d, conv('18446744073709551615', 10, 16) AS e, conv('-9223372036854775808', 10, -10) AS f

-- name: r9_conv_case
-- inputs: df=nums
SELECT conv('aBc', 16, 10) AS a, conv('abc', 16, 16) AS b, conv('255', 10, -2) AS c, conv('-255', 10, -2) AS d, conv('1.5', 10, 10) AS e

-- name: r9_conv_null
-- inputs: df=nums
SELECT conv(NULL, 10, 2) AS a, conv('10', NULL, 2) AS b

-- name: r9_conv_overflow2
-- inputs: df=nums
SELECT conv('18446744073709551616', 10, 16) AS a

-- name: r9_bin_grid
-- inputs: df=nums
SELECT bin(1) AS a, bin(255) AS b, bin(-255) AS c, bin(9223372036854775807) AS d, bin(-9223372036854775808) AS e, bin(1.5) AS f

-- name: r9_hex_grid
-- inputs: df=nums
SELECT hex(0) AS a, hex(255) AS b, hex(-255) AS c, hex(CAST(-1 AS TINYINT)) AS d, hex('') AS e, hex('Ω') AS f, hex(X'00ff') AS g

-- name: r9_unhex_grid
-- inputs: df=nums
SELECT hex(unhex('1')) AS a, hex(unhex('123')) AS b, unhex('g0') AS c, hex(unhex('FFff')) AS d
