-- Round 5 (held out): sha2 with 224, 384 and 512 bits and crc32, written
-- before their translation.

-- name: h5_sha2_224_email
-- inputs: df=landing
SELECT rec_id, sha2(lower(trim(email)), 224) AS h FROM {df}

-- name: h5_sha2_384_payload
-- inputs: df=landing
SELECT rec_id, sha2(payload, 384) AS h FROM {df}

-- name: h5_sha2_512_unicode
-- inputs: df=texts
SELECT id, sha2(s, 512) AS h FROM {df}

-- name: h5_sha2_zero_and_bad_bits
-- inputs: df=clicks
SELECT DISTINCT sha2('abc', 0) AS z, sha2('abc', 256) AS s, sha2('abc', 100) AS bad, sha2(CAST(NULL AS STRING), 512) AS n FROM {df}

-- name: h5_sha2_bits_column
-- inputs: df=feed
SELECT id, sha2(grp, CASE WHEN id % 2 = 0 THEN 512 ELSE 384 END) AS h FROM {df}

-- name: h5_crc32_landing
-- inputs: df=landing
SELECT rec_id, crc32(src_file) AS c, crc32(email) AS e FROM {df}

-- name: h5_crc32_binary_and_bucket
-- inputs: df=feed
SELECT id, crc32(unhex(hx)) AS c, crc32(txt) % 16 AS bucket FROM {df}

-- name: h5_crc32_typeof_number
-- inputs: df=clicks
SELECT DISTINCT typeof(crc32('a')) AS t, crc32('The quick brown fox jumps over the lazy dog') AS c FROM {df}
