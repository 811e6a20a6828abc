-- Round 4 (held out): sha2 with 224, 384 and 512 bits, written before
-- their translation.

-- name: h4_sha2_512_feed
-- inputs: df=feed
SELECT id, sha2(txt, 512) AS h FROM {df}

-- name: h4_sha2_384_url
-- inputs: df=feed
SELECT id, sha2(url, 384) AS h FROM {df}

-- name: h4_sha2_224_binary
-- inputs: df=feed
SELECT id, sha2(unhex(hx), 224) AS h FROM {df}

-- name: h4_sha2_512_surrogate_key
-- inputs: df=landing
SELECT rec_id, substr(sha2(concat_ws('|', coalesce(client_id, ''), coalesce(currency, '')), 512), 1, 16) AS sk FROM {df}

-- name: h4_sha2_512_long_input
-- inputs: df=clicks
SELECT DISTINCT sha2(repeat('abc', 100), 512) AS h, sha2('', 384) AS e FROM {df}
