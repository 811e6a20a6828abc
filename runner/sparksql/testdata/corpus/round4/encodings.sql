-- Round 4 (development): unhex, to_binary, try_to_binary.

-- name: r4_enc_to_binary_formats
-- inputs: df=feed
SELECT id, to_binary(hx, 'hex') AS h, to_binary(txt, 'utf-8') AS u, try_to_binary(hx) AS d FROM {df} WHERE id IN (1, 2, 3, 6, 8)

-- name: r4_enc_to_binary_malformed
-- inputs: df=feed
SELECT id, to_binary(hx, 'hex') AS h FROM {df}

-- name: r4_enc_to_binary_bad_format
-- inputs: df=feed
SELECT id, to_binary(hx, 'base32') AS h FROM {df}

-- name: r4_enc_unhex_number_and_sha2
-- inputs: df=nums
SELECT id, hex(unhex(i)) AS h, sha2(unhex(hex(str_num)), 256) AS s FROM {df}
