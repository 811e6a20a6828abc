-- Round 5 (held out): parse_url with every part and query keys, written
-- before its translation.

-- name: h5_url_all_parts_landing
-- inputs: df=landing
SELECT rec_id, parse_url(src_file, 'PROTOCOL') AS p, parse_url(src_file, 'HOST') AS h, parse_url(src_file, 'PATH') AS path, parse_url(src_file, 'QUERY') AS q, parse_url(src_file, 'REF') AS r FROM {df}

-- name: h5_url_file_authority_userinfo_landing
-- inputs: df=landing
SELECT rec_id, parse_url(src_file, 'FILE') AS f, parse_url(src_file, 'AUTHORITY') AS a, parse_url(src_file, 'USERINFO') AS u FROM {df}

-- name: h5_url_query_key_token
-- inputs: df=landing
SELECT rec_id, parse_url(src_file, 'QUERY', 'token') AS token, parse_url(src_file, 'QUERY', 'x') AS x, parse_url(src_file, 'QUERY', 'v') AS v FROM {df}

-- name: h5_url_literals_ports
-- inputs: df=clicks
SELECT DISTINCT parse_url('http://h.example:8080/a/b.html?k=1', 'AUTHORITY') AS a, parse_url('http://h.example:8080/a/b.html?k=1', 'HOST') AS h, parse_url('http://h.example:8080/a/b.html?k=1', 'FILE') AS f FROM {df}

-- name: h5_url_ipv6_host
-- inputs: df=clicks
SELECT DISTINCT parse_url('http://[::1]:8080/x', 'HOST') AS h, parse_url('http://[::1]:8080/x', 'AUTHORITY') AS a FROM {df}

-- name: h5_url_bad_part
-- inputs: df=clicks
SELECT DISTINCT parse_url('http://h.com/p', 'PORT') AS p, parse_url('http://h.com/p', 'host') AS h FROM {df}

-- name: h5_url_key_regex_chars
-- inputs: df=clicks
SELECT DISTINCT parse_url('http://h.com/?a.b=1&a_b=2&ab=3', 'QUERY', 'a.b') AS dot, parse_url('http://h.com/?a.b=1&a_b=2&ab=3', 'QUERY', 'a_b') AS us FROM {df}

-- name: h5_url_key_repeated_empty
-- inputs: df=clicks
SELECT DISTINCT parse_url('http://h.com/?k=&k=2&m', 'QUERY', 'k') AS k, parse_url('http://h.com/?k=&k=2&m', 'QUERY', 'm') AS m, parse_url('http://h.com/?k=&k=2&m', 'QUERY', 'z') AS z FROM {df}

-- name: h5_url_space_invalid
-- inputs: df=clicks
SELECT DISTINCT try_parse_url('http://h.com/a b', 'PATH') AS p FROM {df}

-- name: h5_url_relative_and_mailto
-- inputs: df=clicks
SELECT DISTINCT parse_url('/just/a/path?q=1', 'PATH') AS p, parse_url('/just/a/path?q=1', 'HOST') AS h, parse_url('mailto:a@b.com', 'PROTOCOL') AS m, parse_url('mailto:a@b.com', 'PATH') AS mp FROM {df}

-- name: h5_url_group_by_protocol
-- inputs: df=feed
SELECT parse_url(url, 'PROTOCOL') AS proto, count(*) AS n FROM {df} WHERE id NOT IN (5, 6) GROUP BY 1 ORDER BY 1
