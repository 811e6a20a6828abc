-- Held out: written, and its expectations computed, before Polars SQL's
-- UInt64 with a signed integer (Float64 in polars 1.32.0: arithmetic,
-- comparisons, CASE, COALESCE, GREATEST, joins), UInt64 with negative
-- literals (Int64, a value beyond it NULL), casts between signed and
-- unsigned, and the unsigned values delta-rs cannot write (Delta has no
-- unsigned types) were translated.

-- name: h_uns_arith
-- inputs: df=unums
SELECT id, u + i AS a, u - s AS b, u * b AS c FROM {df}

-- name: h_uns_div_mod
-- inputs: df=unums
SELECT id, u / i AS a, u % s AS b FROM {df}

-- name: h_uns_compare
-- inputs: df=unums
SELECT id, u = i AS a, u < s AS b, u >= b AS c, i <> u AS d FROM {df}

-- name: h_uns_where
-- inputs: df=unums
SELECT id FROM {df} WHERE u > i AND u <= 100

-- name: h_uns_case
-- inputs: df=unums
SELECT id, CASE WHEN id > 2 THEN u ELSE i END AS a FROM {df}

-- name: h_uns_coalesce
-- inputs: df=unums
SELECT id, COALESCE(u, s) AS a, COALESCE(b, u) AS c FROM {df}

-- name: h_uns_small_unsigned
-- inputs: df=unums
SELECT id, u + w AS a, u * v AS c, w - b AS d FROM {df}

-- name: h_uns_float32
-- inputs: df=unums
SELECT id, u + f AS a, u - 0.5 AS b FROM {df}

-- name: h_uns_neg_literal
-- inputs: df=unums
SELECT id, u + -1 AS a, u * -2 AS b FROM {df}

-- name: h_uns_neg_literal_big
-- inputs: df=ubig
SELECT id, u + -1 AS a, u - 3 AS b FROM {df}

-- name: h_uns_cast_signed
-- inputs: df=unums
SELECT id, CAST(u AS BIGINT) AS a, CAST(w AS SMALLINT) AS c FROM {df}

-- name: h_uns_cast_signed_big
-- inputs: df=ubig
SELECT id, CAST(u AS BIGINT) AS a FROM {df}

-- name: h_uns_cast_unsigned
-- inputs: df=unums
SELECT id, CAST(i AS UBIGINT) AS a FROM {df}

-- name: h_uns_write_big
-- inputs: df=ubig
SELECT id, u FROM {df}

-- name: h_uns_write_small
-- inputs: df=unums
SELECT id, w FROM {df}

-- name: h_uns_write_fits
-- inputs: df=unums
SELECT id, u, v FROM {df} WHERE id <> 4

-- name: h_uns_greatest
-- inputs: df=unums
SELECT id, GREATEST(u, i) AS a, LEAST(u, s) AS b FROM {df}

-- name: h_uns_join
-- inputs: df=unums, nodes.other=unums
SELECT d.id, o.id AS oid FROM {df} d JOIN {nodes.other} o ON d.u = o.i

-- name: h_uns_aggregates
-- inputs: df=unums
SELECT SUM(u) AS a, AVG(u) AS d, MIN(u + i) AS m FROM {df}

-- name: h_uns_between
-- inputs: df=unums
SELECT id FROM {df} WHERE u BETWEEN i AND 100

-- name: h_uns_filter
-- inputs: df=unums
-- mode: filter
u > i

-- name: h_uns_select
-- inputs: df=unums
-- mode: select
u - i
