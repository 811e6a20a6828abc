-- Held out: written, and its expectations computed, before UNNEST was
-- translated (refused before): UNNEST of list columns and of literal
-- arrays, in the select list and in FROM, its names, integer widths,
-- NULL and empty lists, and the forms polars refuses.

-- name: h_unnest_tags
-- inputs: df=nested
SELECT UNNEST(tags) AS tag FROM {df}

-- name: h_unnest_scores_unaliased
-- inputs: df=nested
SELECT UNNEST(scores) FROM {df}

-- name: h_unnest_i8_width
-- inputs: df=lists
SELECT UNNEST(i8) AS x FROM {df}

-- name: h_unnest_u32_width
-- inputs: df=lists
SELECT UNNEST(u32) AS x FROM {df}

-- name: h_unnest_float
-- inputs: df=lists
SELECT UNNEST(f) AS x FROM {df}

-- name: h_unnest_bool
-- inputs: df=lists
SELECT UNNEST(b) AS x FROM {df}

-- name: h_unnest_where
-- inputs: df=lists
SELECT UNNEST(s) AS x FROM {df} WHERE id > 1

-- name: h_unnest_expr
-- inputs: df=nested
SELECT UNNEST(scores) * 10 AS x FROM {df}

-- name: h_unnest_upper
-- inputs: df=nested
SELECT UPPER(UNNEST(tags)) AS t FROM {df}

-- name: h_unnest_sum
-- inputs: df=nested
SELECT SUM(UNNEST(scores)) AS total FROM {df}

-- name: h_unnest_count
-- inputs: df=lists
SELECT COUNT(UNNEST(i8)) AS n FROM {df}

-- name: h_unnest_distinct
-- inputs: df=nested
SELECT DISTINCT UNNEST(tags) AS t FROM {df}

-- name: h_unnest_order
-- inputs: df=nested
SELECT UNNEST(scores) AS s FROM {df} ORDER BY s DESC

-- name: h_unnest_twice_same
-- inputs: df=lists
SELECT UNNEST(s) AS a, UNNEST(s) AS b FROM {df}

-- name: h_unnest_two_lists
-- inputs: df=nested
SELECT UNNEST(tags) AS t, UNNEST(scores) AS s FROM {df}

-- name: h_unnest_beside_col
-- inputs: df=nested
SELECT id, UNNEST(tags) AS t FROM {df}

-- name: h_unnest_beside_col_one
-- inputs: df=lists
SELECT id, UNNEST(one) AS x FROM {df}

-- name: h_unnest_cte
-- inputs: df=nested
WITH u AS (SELECT UNNEST(scores) AS s FROM {df}) SELECT s FROM u WHERE s > 1

-- name: h_unnest_alias_where
-- inputs: df=nested
SELECT UNNEST(scores) AS s FROM {df} WHERE s > 1

-- name: h_unnest_lit_select
-- inputs: df=nested
SELECT UNNEST([3, 1, 2]) AS x

-- name: h_unnest_lit_unaliased
-- inputs: df=nested
SELECT UNNEST([1, 2])

-- name: h_unnest_lit_strings
-- inputs: df=nested
SELECT UNNEST(['a', NULL, 'b']) AS x

-- name: h_unnest_lit_two
-- inputs: df=nested
SELECT UNNEST([1, 2]) AS x, UNNEST(['p', 'q']) AS y

-- name: h_unnest_lit_two_lengths
-- inputs: df=nested
SELECT UNNEST([1, 2]) AS x, UNNEST(['p', 'q', 'r']) AS y

-- name: h_unnest_lit_with_const
-- inputs: df=nested
SELECT UNNEST([1, 2]) AS x, 'k' AS y

-- name: h_unnest_from
-- inputs: df=nested
SELECT * FROM UNNEST([5, 6, 7]) AS t(v)

-- name: h_unnest_from_two
-- inputs: df=nested
SELECT * FROM UNNEST([1, 2], ['a', 'b']) AS t(n, s)

-- name: h_unnest_from_lengths
-- inputs: df=nested
SELECT * FROM UNNEST([1, 2], ['a', 'b', 'c']) AS t(n, s)

-- name: h_unnest_from_no_alias
-- inputs: df=nested
SELECT * FROM UNNEST([1, 2])

-- name: h_unnest_from_no_columns
-- inputs: df=nested
SELECT * FROM UNNEST([1, 2]) AS t

-- name: h_unnest_from_where
-- inputs: df=nested
SELECT v * 2 AS w FROM UNNEST([1, 2, 3]) AS t(v) WHERE v > 1

-- name: h_unnest_from_floats
-- inputs: df=nested
SELECT * FROM UNNEST([0.5, -1.25]) AS t(x)

-- name: h_unnest_from_mixed
-- inputs: df=nested
SELECT * FROM UNNEST([1, 2.5]) AS t(x)

-- name: h_unnest_from_nulls
-- inputs: df=nested
SELECT * FROM UNNEST([NULL, 4]) AS t(x)

-- name: h_unnest_from_empty
-- inputs: df=nested
SELECT * FROM UNNEST([]) AS t(x)

-- name: h_unnest_from_bools
-- inputs: df=nested
SELECT * FROM UNNEST([true, NULL, false]) AS t(x)

-- name: h_unnest_from_big
-- inputs: df=nested
SELECT * FROM UNNEST([9223372036854775807, -5]) AS t(x)

-- name: h_unnest_from_join
-- inputs: df=nested
SELECT id, v FROM {df} INNER JOIN UNNEST([1, 2, 9]) AS t(v) ON {df}.id = t.v

-- name: h_unnest_from_count
-- inputs: df=nested
SELECT COUNT(*) AS n FROM UNNEST(['a', 'b', 'c']) AS t(x)

-- name: h_unnest_from_column
-- inputs: df=nested
SELECT * FROM {df} CROSS JOIN UNNEST({df}.tags) AS t(x)
