-- Round 4 (held out): variations on the silent-difference classes of
-- issue 28 (NULLs in max_by/min_by, yy, bround of decimals, levenshtein of
-- multibyte text, NOT LIKE ALL, array functions on NULL arrays).

-- name: h4_sil_max_by_null_value
-- inputs: df=history
SELECT id, max_by(status, seq) AS latest, min_by(updated_by, seq) AS first_by FROM {df} GROUP BY id ORDER BY id

-- name: h4_sil_max_by_null_ordering
-- inputs: df=history
SELECT id, max_by(status, ts) AS latest_by_ts FROM {df} GROUP BY id ORDER BY id

-- name: h4_sil_max_by_window
-- inputs: df=history
SELECT id, seq, max_by(amount, seq) OVER (PARTITION BY id) AS last_amount FROM {df} ORDER BY id, seq

-- name: h4_sil_min_by_struct
-- inputs: df=history
SELECT id, min_by(named_struct('s', status, 'a', amount), ts) AS first_state FROM {df} GROUP BY id ORDER BY id

-- name: h4_sil_max_struct_nulls
-- inputs: df=history
SELECT id, max(struct(seq, status)).status AS latest FROM {df} GROUP BY id ORDER BY id

-- name: h4_sil_yy_parse
-- inputs: df=clicks
SELECT DISTINCT to_date('31/12/69', 'dd/MM/yy') AS a, to_date('01/01/00', 'dd/MM/yy') AS b, to_timestamp('99-06-15 10:00', 'yy-MM-dd HH:mm') AS c FROM {df}

-- name: h4_sil_yy_format
-- inputs: df=fx
SELECT currency, date_format(rate_date, 'dd.MM.yy') AS d FROM {df}

-- name: h4_sil_fraction_optional
-- inputs: df=clicks
SELECT DISTINCT to_timestamp('2024-03-10 12:00:00.5', 'yyyy-MM-dd HH:mm:ss[.SSS]') AS a, to_timestamp('2024-03-10 12:00:00', 'yyyy-MM-dd HH:mm:ss[.SSS]') AS b FROM {df}

-- name: h4_sil_bround_decimal_ties
-- inputs: df=money
SELECT id, bround(price, 2) AS p2, bround(amount, 1) AS a1, bround(rate, 3) AS r3 FROM {df}

-- name: h4_sil_bround_negative_scale
-- inputs: df=money
SELECT id, bround(amount, -1) AS tens, round(amount, -1) AS rtens FROM {df}

-- name: h4_sil_bround_literal
-- inputs: df=clicks
SELECT DISTINCT bround(2.5, 0) AS a, bround(3.5, 0) AS b, bround(-2.5, 0) AS c, bround(0.125, 2) AS d FROM {df}

-- name: h4_sil_levenshtein_multibyte
-- inputs: df=texts
SELECT id, levenshtein(s, t) AS d FROM {df}

-- name: h4_sil_levenshtein_threshold
-- inputs: df=texts
SELECT id, levenshtein(s, t, 2) AS d FROM {df}

-- name: h4_sil_not_like_all
-- inputs: df=landing
SELECT rec_id FROM {df} WHERE src_file NOT LIKE ALL ('s3://%', '%.csv')

-- name: h4_sil_not_like_any
-- inputs: df=landing
SELECT rec_id FROM {df} WHERE email NOT LIKE ANY ('%@example.com', '%.org')

-- name: h4_sil_not_ilike_all
-- inputs: df=landing
SELECT rec_id, email NOT ILIKE ALL ('%EXAMPLE%', '%bob%') AS x FROM {df}

-- name: h4_sil_array_append_null
-- inputs: df=nested
SELECT id, array_append(tags, 'new') AS a, array_prepend(scores, 0) AS p FROM {df}

-- name: h4_sil_array_null_funcs
-- inputs: df=nested
SELECT id, array_distinct(tags) AS d, array_compact(tags) AS c, array_union(tags, array('z')) AS u FROM {df}

-- name: h4_sil_arrays_zip_null
-- inputs: df=nested
SELECT id, arrays_zip(tags, scores) AS z FROM {df}

-- name: h4_sil_array_size_null
-- inputs: df=nested
SELECT id, size(tags) AS s, array_size(tags) AS a, cardinality(scores) AS c FROM {df}

-- name: h4_sil_array_contains_null
-- inputs: df=nested
SELECT id, array_contains(tags, 'x') AS has_x, array_position(scores, 5) AS pos, array_remove(scores, 10) AS r FROM {df}

-- name: h4_sil_concat_null_array
-- inputs: df=nested
SELECT id, concat(tags, array('q')) AS c, flatten(array(tags, array('w'))) AS f FROM {df}

-- name: h4_sil_lower_dotted_i
-- inputs: df=texts
SELECT id, lower(s) AS l, upper(t) AS u, initcap(s) AS i FROM {df}
