-- Round 6 (development): parse_url and try_parse_url.

-- name: r6_url_ipv6_zone
-- inputs: df=clicks
SELECT DISTINCT parse_url('http://[fe80::1%25eth0]:80/x', 'HOST') AS h FROM {df}

-- name: r6_url_key_group
-- inputs: df=clicks
SELECT DISTINCT parse_url('http://h.com/?a=1', 'QUERY', '(a)') AS a FROM {df}

-- name: r6_url_part_column
-- inputs: df=feed
SELECT id, parse_url(url, grp) AS p FROM {df} WHERE id <> 5

-- name: r6_url_key_dot_and_case
-- inputs: df=clicks
SELECT DISTINCT parse_url('http://h.com/?axb=1&K=2', 'QUERY', 'a.b') AS dot, parse_url('http://h.com/?axb=1&K=2', 'QUERY', 'k') AS lower, parse_url('http://h.com/?axb=1&K=2', 'PATH', 'K') AS not_query FROM {df}

-- name: r6_url_unaliased
-- inputs: df=feed
SELECT id, parse_url(url, 'HOST'), try_parse_url(url, 'QUERY', 'id') FROM {df} WHERE id IN (1, 2) ORDER BY id

-- name: r6_url_non_string
-- inputs: df=clicks
SELECT DISTINCT parse_url(ms, 'PATH') AS p FROM {df}

-- name: r6_url_group_by_authority
-- inputs: df=landing
SELECT try_parse_url(src_file, 'AUTHORITY') AS a, count(*) AS n FROM {df} GROUP BY 1 ORDER BY 1
