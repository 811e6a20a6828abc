-- name: ar_int_plus_lit
-- inputs: df=nums
SELECT id, i + 1 AS a, b * 100 AS w, s - 1 AS c FROM {df}

-- name: ar_lit_widen
-- inputs: df=nums
SELECT id, b + 1000 AS x FROM {df}

-- name: ar_int_floor_div
-- inputs: df=nums
SELECT id, i / 3 AS q, i % 4 AS m, i / b AS qb FROM {df}

-- name: ar_int_div_neg
-- inputs: df=nums
SELECT id, -7 / 2 AS a, -7 % 3 AS b, 7 % -3 AS c FROM {df}

-- name: ar_float32
-- inputs: df=nums
SELECT id, f + b AS a, f + i AS c, f * 2.0 AS e, f / 2 AS g FROM {df}

-- name: ar_float_div_zero
-- inputs: df=nums
SELECT id, d / 0 AS z, d / i AS q FROM {df}

-- name: ar_unsigned_mix
-- inputs: df=nums
SELECT id, u * 2 AS m, u + b AS ub FROM {df}

-- name: ar_wrap_int64
-- inputs: df=nums
SELECT id, big * 2 AS x, big + big AS y FROM {df}

-- name: ar_wrap_int32
-- inputs: df=nums
SELECT id, i * i AS sq FROM {df}

-- name: ar_negate_unsigned
-- inputs: df=nums
SELECT id, -u AS n FROM {df}

-- name: ar_string_plus
-- inputs: df=strs
SELECT id, s + 1 AS x FROM {df}

-- name: ar_lit_left_name
-- inputs: df=nums
SELECT 10 - i, id FROM {df}

-- name: ar_paren_chain
-- inputs: df=orders
SELECT order_id, (amount - 1) * (qty + 1) / 2 AS v FROM {df}

-- name: ar_compare_mixed
-- inputs: df=nums
SELECT id FROM {df} WHERE f > i AND d <= 3

-- name: ar_bool_ops
-- inputs: df=orders
SELECT order_id, paid AND qty > 1 AS a, paid OR qty IS NULL AS b, NOT paid AS c FROM {df}

-- name: ar_float_mod
-- inputs: df=nums
SELECT id, d % 0.3 AS m, d % -2 AS n, i % 1.5 AS k, d % d AS z FROM {df}
