-- UNNEST (development cases; the held-out ones are heldout/unnest.sql).

-- name: unnest_value
-- inputs: df=nested
SELECT UNNEST(id) AS x FROM {df}

-- name: unnest_value_beside
-- inputs: df=nested
SELECT id, UNNEST(id) AS x FROM {df}

-- name: unnest_string_const
-- inputs: df=nested
SELECT UNNEST('abc') AS t

-- name: unnest_lit_sum
-- inputs: df=nested
SELECT SUM(UNNEST([1, 2, 4])) AS x

-- name: unnest_lit_from_ignored
-- inputs: df=nested
SELECT UNNEST([1, 2, 3]) AS x FROM {df}

-- name: unnest_lit_three
-- inputs: df=nested
SELECT UNNEST([1, 2]) AS x, UNNEST([3, 4, 5]) AS y, UNNEST([6]) AS z

-- name: unnest_lit_empty
-- inputs: df=nested
SELECT UNNEST([]) AS x

-- name: unnest_lit_neg
-- inputs: df=nested
SELECT UNNEST([-1, +2, -0.5]) AS x

-- name: unnest_lit_neg_ints
-- inputs: df=nested
SELECT UNNEST([-1, +2, 3]) AS x

-- name: unnest_lit_quote
-- inputs: df=nested
SELECT UNNEST(['it''s', 'b']) AS x

-- name: unnest_lit_array_kw
-- inputs: df=nested
SELECT UNNEST(ARRAY[7, 8]) AS x

-- name: unnest_list_outside
-- inputs: df=nested
SELECT [1, 2] AS x

-- name: unnest_u32_sum
-- inputs: df=lists
SELECT SUM(UNNEST(u32)) AS x FROM {df}

-- name: unnest_cast
-- inputs: df=lists
SELECT CAST(UNNEST(i8) AS VARCHAR) AS x FROM {df}

-- name: unnest_case
-- inputs: df=lists
SELECT CASE WHEN UNNEST(f) > 1 THEN 'big' ELSE 'small' END AS x FROM {df}

-- name: unnest_limit_order
-- inputs: df=lists
SELECT UNNEST(s) AS x FROM {df} ORDER BY x LIMIT 2

-- name: unnest_in_where
-- inputs: df=lists
SELECT id FROM {df} WHERE UNNEST(one) > 15

-- name: unnest_group
-- inputs: df=lists
SELECT UNNEST(s) AS x, COUNT(*) AS n FROM {df} GROUP BY id

-- name: unnest_derived
-- inputs: df=nested
SELECT t, COUNT(*) AS n FROM (SELECT UNNEST(tags) AS t FROM {df}) AS u GROUP BY t

-- name: unnest_union
-- inputs: df=nested
SELECT UNNEST(tags) AS t FROM {df} UNION ALL SELECT name AS t FROM {df} WHERE id = 0

-- name: unnest_from_dup
-- inputs: df=nested
SELECT * FROM UNNEST([1, 2], [3, 4]) AS t(a, a)

-- name: unnest_from_cols
-- inputs: df=nested
SELECT * FROM UNNEST([1, 2]) AS t(a, b)

-- name: unnest_from_exp
-- inputs: df=nested
SELECT * FROM UNNEST([1e3]) AS t(x)

-- name: unnest_from_toobig
-- inputs: df=nested
SELECT * FROM UNNEST([9223372036854775808]) AS t(x)

-- name: unnest_from_str_int
-- inputs: df=nested
SELECT * FROM UNNEST([1, 'a']) AS t(x)

-- name: unnest_from_bool_int
-- inputs: df=nested
SELECT * FROM UNNEST([true, 1]) AS t(x)

-- name: unnest_from_all_null
-- inputs: df=nested
SELECT x IS NULL AS n FROM UNNEST([NULL, NULL]) AS t(x)

-- name: unnest_from_join_left
-- inputs: df=nested
SELECT t.x, d.id FROM UNNEST([1, 2, 7]) AS t(x) LEFT JOIN {df} AS d ON t.x = d.id

-- name: unnest_from_expr_elem
-- inputs: df=nested
SELECT * FROM UNNEST([1 + 1]) AS t(x)

-- name: unnest_from_order
-- inputs: df=nested
SELECT x FROM UNNEST([2, 3, 1]) AS t(x) ORDER BY x DESC

-- name: unnest_from_three
-- inputs: df=nested
SELECT * FROM UNNEST([1, 2], [2], [4, 5, 6]) AS t(a, b, c)

-- name: unnest_i8_plus
-- inputs: df=lists
SELECT UNNEST(i8) + 1 AS x FROM {df}

-- name: unnest_nested_fn
-- inputs: df=lists
SELECT LENGTH(UNNEST(s)) AS n FROM {df}
