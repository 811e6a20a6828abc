-- Round 3 (held out): URL functions, written before their translation.

-- name: h3_url_parse_host_path
-- inputs: df=landing
SELECT rec_id, parse_url(src_file, 'HOST') AS host, parse_url(src_file, 'PATH') AS path FROM {df}

-- name: h3_url_parse_query_key
-- inputs: df=landing
SELECT rec_id, parse_url(src_file, 'QUERY', 'x') AS x, parse_url(src_file, 'QUERY', 'v') AS v, parse_url(src_file, 'QUERY', 'nope') AS nope FROM {df}

-- name: h3_url_parse_userinfo_authority
-- inputs: df=strs
SELECT id, parse_url(concat('https://user:pw@host.example.com:8443/a/b.csv?q=', coalesce(code, '')), 'AUTHORITY') AS a, parse_url(concat('https://user:pw@host.example.com:8443/a/b.csv?q=', coalesce(code, '')), 'USERINFO') AS u FROM {df}

-- name: h3_url_parse_literals
-- inputs: df=clicks
SELECT DISTINCT parse_url('http://example.com/p?a=1&b=2&a=3', 'QUERY', 'a') AS a, parse_url('http://example.com/p#top', 'REF') AS r, parse_url('http://example.com', 'PATH') AS p, parse_url('mailto:x@y.z', 'HOST') AS h FROM {df}

-- name: h3_url_parse_bad_part
-- inputs: df=clicks
SELECT DISTINCT parse_url('http://example.com/p', 'host') AS lower_part, parse_url('http://example.com/p', 'PORT') AS port FROM {df}

-- name: h3_url_parse_invalid
-- inputs: df=clicks
SELECT DISTINCT parse_url('http://exa mple.com/p', 'HOST') AS h FROM {df}

-- name: h3_url_encode_unicode
-- inputs: df=texts
SELECT id, url_encode(s) AS e FROM {df}

-- name: h3_url_encode_specials
-- inputs: df=strs
SELECT id, url_encode(s) AS e, url_encode(csv) AS c FROM {df}

-- name: h3_url_decode_roundtrip
-- inputs: df=texts
SELECT id, url_decode(url_encode(t)) = t AS same FROM {df}

-- name: h3_url_decode_literals
-- inputs: df=clicks
SELECT DISTINCT url_decode('%E2%9C%93+ok%21') AS a, url_decode('100%25') AS b, url_decode('plain') AS c FROM {df}

-- name: h3_url_decode_malformed
-- inputs: df=clicks
SELECT DISTINCT url_decode('bad%2') AS a FROM {df}

-- name: h3_url_try_url_decode
-- inputs: df=clicks
SELECT DISTINCT try_url_decode('bad%zz') AS a, try_url_decode('a%20b') AS b FROM {df}
