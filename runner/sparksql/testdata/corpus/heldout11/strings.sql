-- Round 11 (held out): string functions of landing data (format_string,
-- substring_index, locate/instr, lpad/rpad with multibyte text,
-- luhn_check), written before the round-11 code.

-- name: h11_format_string_flags
-- inputs: df=orders
SELECT order_id, format_string('%05d|%-8s|%.2f|%x|%,d', quantity, status, discount, order_id, order_id * 1000) AS f FROM {df} WHERE quantity IS NOT NULL ORDER BY order_id

-- name: h11_format_string_literals
-- inputs: df=orders
SELECT format_string('%1$s-%1$s', 'x') AS idx, format_string('%b %B', true, NULL) AS b, format_string('%e', 12345.678D) AS e, format_string('%10.3f|', 3.14159D) AS w, format_string('%s', 1.50) AS dec, format_string('%08.2f', -3.5D) AS neg, format_string('%%') AS pct

-- name: h11_substring_index
-- inputs: df=landing
SELECT rec_id, substring_index(src_file, '/', -1) AS fname, substring_index(trim(email), '@', 1) AS usr, substring_index(src_file, '/', 3) AS root, substring_index(src_file, '/', 0) AS zero, substring_index(src_file, '://', -1) AS nosch FROM {df} ORDER BY rec_id

-- name: h11_substring_index_edges
-- inputs: df=strs
SELECT substring_index('a.b.c', '.', -5) AS beyond, substring_index('a.b.c', '', 1) AS empty, substring_index('aXYbXYc', 'XY', 2) AS multi, substring_index('日本.語.x', '.', -2) AS mb, substring_index('a..b', '.', 2) AS dbl

-- name: h11_locate_instr
-- inputs: df=texts
SELECT id, locate('a', s) AS a, instr(s, 'ß') AS ss, locate('s', t, 3) AS from3, position('o' IN s) AS pos, locate('', s) AS empty FROM {df} ORDER BY id

-- name: h11_locate_edges
-- inputs: df=texts
SELECT locate('a', 'banana', 0) AS z, locate('a', 'banana', -1) AS neg, locate('é', 'école crème', 2) AS mb, locate('', 'abc', 5) AS emptybeyond, locate('', '', 1) AS ee, instr('🇫🇷 flag', 'flag') AS flag, locate('a', NULL) AS n

-- name: h11_pad_multibyte
-- inputs: df=texts
SELECT id, lpad(s, 10, '·') AS l, rpad(s, 8, '✓') AS r, lpad(t, 3) AS cut, rpad(s, 12, 'ab') AS r2 FROM {df} ORDER BY id

-- name: h11_pad_edges
-- inputs: df=texts
SELECT lpad('abc', 5, '') AS emptypad, rpad('日本', 5, 'ab') AS mb, lpad('abc', -1, 'x') AS negl, lpad('🇫🇷', 4, '*') AS flag, rpad('é', 3, 'é') AS acc, lpad(NULL, 3, 'x') AS n, lpad('abc', 2) AS trunc2

-- name: h11_luhn_literals
-- inputs: df=strs
SELECT luhn_check('79927398713') AS ok, luhn_check('79927398710') AS bad, luhn_check('') AS e, luhn_check('abc') AS alpha, luhn_check(NULL) AS n, luhn_check('0') AS zero, luhn_check(' 79927398713') AS sp, luhn_check('4111-1111-1111-1111') AS dash, luhn_check('4111111111111111') AS visa

-- name: h11_luhn_columns
-- inputs: df=landing
SELECT rec_id, luhn_check(phone) AS p, luhn_check(regexp_replace(phone, '[^0-9]', '')) AS digits, luhn_check(rec_id) AS r FROM {df} ORDER BY rec_id
