-- UInt64 meeting signed integers, negative literals and casts, and the
-- unsigned values delta-rs writes (development part; heldout/unsigned.sql
-- was written first).

-- name: uns_big_arith
-- inputs: df=ubig
SELECT id, u - i AS a, i * u AS b, u = i AS c FROM {df}

-- name: uns_reversed
-- inputs: df=unums
SELECT id, i + u AS a, s - u AS b, b > u AS c FROM {df}

-- name: uns_float
-- inputs: df=unums
SELECT id, u * 1.5 AS a, u / 2 AS b FROM {df}

-- name: uns_wrap_add
-- inputs: df=ubig
SELECT id, u + 1 AS a FROM {df} WHERE id = 1

-- name: uns_wrap_mul
-- inputs: df=ubig
SELECT id, u * 2 AS a FROM {df} WHERE id = 2

-- name: uns_neg_compare
-- inputs: df=unums
SELECT id, u > -1 AS a, u <> -5 AS b FROM {df}

-- name: uns_coalesce_lit
-- inputs: df=unums
SELECT id, COALESCE(u, -1) AS a FROM {df}

-- name: uns_case_int8
-- inputs: df=unums
SELECT id, CASE WHEN b > 0 THEN b ELSE u END AS a FROM {df}

-- name: uns_cast_double
-- inputs: df=unums
SELECT id, CAST(u AS DOUBLE) AS a, CAST(u AS VARCHAR) AS b FROM {df}

-- name: uns_cast_neg
-- inputs: df=unums
SELECT id, CAST(s AS UBIGINT) AS a FROM {df}

-- name: uns_order
-- inputs: df=unums
SELECT id, u - i AS a FROM {df} ORDER BY a, id

-- name: uns_max
-- inputs: df=unums
SELECT MAX(u) AS a, MIN(u - s) AS b FROM {df}

-- name: uns_sum_write
-- inputs: df=ubig
SELECT SUM(u) AS a FROM {df}

-- name: uns_filter_lit
-- inputs: df=unums
-- mode: filter
u >= s

-- name: uns_join_big
-- inputs: df=ubig, nodes.other=unums
SELECT d.id, o.id AS oid FROM {df} d LEFT JOIN {nodes.other} o ON d.u = o.i

-- name: uns_join_widths
-- inputs: df=unums, nodes.other=nums
SELECT d.id, o.id AS oid FROM {df} d JOIN {nodes.other} o ON d.w = o.b
