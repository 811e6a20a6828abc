-- Round 11 (development): string functions of landing data.

-- name: r11_str_format_string_columns
-- inputs: df=customers
SELECT customer_id, format_string('%-10s|%6.1f|%s', name, score, is_active) AS f, format_string('%03d', customer_id) AS id3 FROM {df} ORDER BY customer_id

-- name: r11_str_substring_index_columns
-- inputs: df=feed
SELECT id, substring_index(url, '/', 3) AS base, substring_index(substring_index(url, '?', 1), '/', -1) AS leaf FROM {df} ORDER BY id

-- name: r11_str_locate_columns
-- inputs: df=landing
SELECT rec_id, locate('@', email) AS at, instr(src_file, '/') AS slash, locate('/', src_file, 10) AS slash10 FROM {df} ORDER BY rec_id

-- name: r11_str_pad_ids
-- inputs: df=landing
SELECT rec_id, lpad(trim(client_id), 5, '0') AS cid, rpad(coalesce(currency, '?'), 4, '.') AS cur, lpad(country, 4, 'é') AS c FROM {df} ORDER BY rec_id

-- name: r11_str_luhn_numbers
-- inputs: df=nums
SELECT id, luhn_check(CAST(l AS STRING)) AS l, luhn_check(str_num) AS s FROM {df} ORDER BY id

-- name: r11_str_format_string_missing_arg
-- inputs: df=orders
SELECT format_string('%s %s', 'a') AS x
