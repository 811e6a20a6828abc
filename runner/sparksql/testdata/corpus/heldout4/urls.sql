-- Round 4 (held out): parse_url over landing URLs, written before its
-- translation.

-- name: h4_url_parts_feed
-- inputs: df=feed
SELECT id, parse_url(url, 'PROTOCOL') AS proto, parse_url(url, 'HOST') AS host, parse_url(url, 'PATH') AS path FROM {df} WHERE id <> 5

-- name: h4_url_query_ref_file
-- inputs: df=feed
SELECT id, parse_url(url, 'QUERY') AS q, parse_url(url, 'REF') AS r, parse_url(url, 'FILE') AS f FROM {df} WHERE id <> 5

-- name: h4_url_query_keys
-- inputs: df=feed
SELECT id, parse_url(url, 'QUERY', 'a') AS a, parse_url(url, 'QUERY', 'b') AS b, parse_url(url, 'QUERY', 'c') AS c, parse_url(url, 'QUERY', 'id') AS qid FROM {df} WHERE id <> 5

-- name: h4_url_userinfo_authority
-- inputs: df=feed
SELECT id, parse_url(url, 'USERINFO') AS u, parse_url(url, 'AUTHORITY') AS a FROM {df} WHERE id <> 5

-- name: h4_url_invalid_row
-- inputs: df=feed
SELECT id, parse_url(url, 'HOST') AS host FROM {df}

-- name: h4_url_try_parse
-- inputs: df=feed
SELECT id, try_parse_url(url, 'HOST') AS host FROM {df}

-- name: h4_url_group_by_host
-- inputs: df=landing
SELECT parse_url(src_file, 'HOST') AS host, count(*) AS n FROM {df} WHERE src_file LIKE 'http%' OR src_file LIKE 's3%' GROUP BY 1 ORDER BY 1

-- name: h4_url_encoded_path
-- inputs: df=clicks
SELECT DISTINCT parse_url('http://h.com/a%20b/c?x=%41', 'PATH') AS p, parse_url('http://h.com/a%20b/c?x=%41', 'QUERY', 'x') AS x FROM {df}
