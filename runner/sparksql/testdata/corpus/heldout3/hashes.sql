-- Round 3 (held out): hashes and checksums, written before their
-- translation (sha2 with 512 and 384 bits, crc32).

-- name: h3_hash_sha2_512_email
-- inputs: df=customers
SELECT customer_id, sha2(email, 512) AS h FROM {df}

-- name: h3_hash_sha2_384_unicode
-- inputs: df=texts
SELECT id, sha2(s, 384) AS h FROM {df}

-- name: h3_hash_sha2_224_and_0
-- inputs: df=texts
SELECT id, sha2(t, 224) AS h224, sha2(t, 0) AS h0, sha2(t, 100) AS bad FROM {df}

-- name: h3_hash_sha2_binary
-- inputs: df=strs
SELECT id, sha2(unhex(hex(s)), 512) AS h FROM {df}

-- name: h3_hash_sha2_bits_column
-- inputs: df=strs
SELECT id, sha2(s, CASE WHEN id % 2 = 0 THEN 256 ELSE 512 END) AS h FROM {df}

-- name: h3_hash_crc32_unicode
-- inputs: df=texts
SELECT id, crc32(s) AS c, crc32(t) AS ct FROM {df}

-- name: h3_hash_crc32_binary_type
-- inputs: df=strs
SELECT id, crc32(unhex(hex(code))) AS c, typeof(crc32(code)) AS ty FROM {df}

-- name: h3_hash_crc32_bucket_pmod
-- inputs: df=landing
SELECT rec_id, pmod(crc32(coalesce(email, '')), 8) AS bucket FROM {df}

-- name: h3_hash_crc32_number_arg
-- inputs: df=nums
SELECT id, crc32(i) AS c FROM {df}
