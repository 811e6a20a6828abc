-- Round 6 (held out): parse_url and try_parse_url as java.net.URI reads
-- them, written before their translation.

-- name: h6_url_feed_parts
-- inputs: df=feed
SELECT id, try_parse_url(url, 'PROTOCOL') AS p, try_parse_url(url, 'HOST') AS h, try_parse_url(url, 'PATH') AS path, try_parse_url(url, 'QUERY') AS q, try_parse_url(url, 'FILE') AS f, try_parse_url(url, 'AUTHORITY') AS a FROM {df}

-- name: h6_url_landing_query_keys
-- inputs: df=landing
SELECT rec_id, try_parse_url(src_file, 'QUERY', 'token') AS t, try_parse_url(src_file, 'REF') AS r, try_parse_url(src_file, 'USERINFO') AS u FROM {df}

-- name: h6_url_underscore_host
-- inputs: df=clicks
SELECT DISTINCT parse_url('https://my_bucket.s3.amazonaws.com/k/x.csv', 'HOST') AS h, parse_url('https://my_bucket.s3.amazonaws.com/k/x.csv', 'AUTHORITY') AS a, parse_url('https://my_bucket.s3.amazonaws.com/k/x.csv', 'PATH') AS p FROM {df}

-- name: h6_url_numeric_labels
-- inputs: df=clicks
SELECT DISTINCT parse_url('http://10.0.0.12:9000/a', 'HOST') AS ip, parse_url('http://1.2.3.4.5/a', 'HOST') AS five, parse_url('http://256.1.1.1/a', 'HOST') AS big, parse_url('http://example.com./a', 'HOST') AS dot, parse_url('http://a-b.c-d.org/a', 'HOST') AS dash FROM {df}

-- name: h6_url_ports
-- inputs: df=clicks
SELECT DISTINCT parse_url('http://h.com:/x', 'HOST') AS empty_port, parse_url('http://h.com:/x', 'AUTHORITY') AS a, parse_url('http://h.com:65536/x', 'HOST') AS big_port, parse_url('http://user@h.com:80', 'USERINFO') AS u FROM {df}

-- name: h6_url_bad_port
-- inputs: df=clicks
SELECT DISTINCT try_parse_url('http://h.com:8o/x', 'HOST') AS h, try_parse_url('http://h.com:8o/x', 'AUTHORITY') AS a FROM {df}

-- name: h6_url_empty_authority
-- inputs: df=clicks
SELECT DISTINCT parse_url('file:///tmp/landing/x.csv', 'HOST') AS h, parse_url('file:///tmp/landing/x.csv', 'PATH') AS p, parse_url('file:///tmp/landing/x.csv', 'AUTHORITY') AS a, parse_url('file:/tmp/y.csv', 'PATH') AS p2 FROM {df}

-- name: h6_url_opaque_fragment
-- inputs: df=clicks
SELECT DISTINCT parse_url('urn:isbn:0451450523#frag', 'PROTOCOL') AS s, parse_url('urn:isbn:0451450523#frag', 'REF') AS r, parse_url('urn:isbn:0451450523#frag', 'PATH') AS p, parse_url('urn:isbn:0451450523#frag', 'FILE') AS f FROM {df}

-- name: h6_url_malformed_escape
-- inputs: df=clicks
SELECT DISTINCT try_parse_url('http://h.com/a%zzb', 'PATH') AS p, try_parse_url('http://h.com/a%2', 'PATH') AS q, try_parse_url('http://h.com/a%2Fb', 'PATH') AS ok FROM {df}

-- name: h6_url_non_ascii
-- inputs: df=clicks
SELECT DISTINCT try_parse_url('http://h.com/café/ü', 'PATH') AS p, try_parse_url('http://bücher.de/x', 'HOST') AS h, try_parse_url('http://bücher.de/x', 'AUTHORITY') AS a FROM {df}

-- name: h6_url_brackets_in_query
-- inputs: df=clicks
SELECT DISTINCT try_parse_url('http://h.com/?a=[1]&b=2', 'QUERY', 'a') AS a, try_parse_url('http://h.com/x[1]', 'PATH') AS p FROM {df}

-- name: h6_url_key_regex
-- inputs: df=clicks
SELECT DISTINCT parse_url('http://h.com/?aab=1&a+b=2', 'QUERY', 'a+b') AS plus, parse_url('http://h.com/?xk=1&k=2', 'QUERY', 'k') AS k, parse_url('http://h.com/?k=1#k=2', 'QUERY', 'k') AS frag FROM {df}

-- name: h6_url_scheme_rules
-- inputs: df=clicks
SELECT DISTINCT try_parse_url('svn+ssh://h.com/r', 'PROTOCOL') AS plus, try_parse_url('1http://h.com/r', 'PROTOCOL') AS digit, try_parse_url('HTTP://H.COM/R', 'HOST') AS upper, try_parse_url(':x', 'PATH') AS colon FROM {df}

-- name: h6_url_invalid_fails
-- inputs: df=clicks
SELECT DISTINCT parse_url(' http://h.com/x', 'HOST') AS h FROM {df}

-- name: h6_url_null_and_empty
-- inputs: df=clicks
SELECT DISTINCT parse_url('', 'PATH') AS e, parse_url(NULL, 'HOST') AS n, parse_url('http://h.com/x', NULL) AS np, parse_url('?q=1', 'QUERY') AS q FROM {df}

-- name: h6_url_where_host
-- inputs: df=feed
SELECT id FROM {df} WHERE try_parse_url(url, 'HOST') LIKE '%example%' ORDER BY id
