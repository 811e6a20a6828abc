-- Held out: written, and its expectations computed, before Polars SQL's
-- supertypes of integer literals that do not fit the column's dtype, of
-- unsigned integers with negative literals, and of strings with other
-- values in one column (CASE, COALESCE) were translated.

-- name: h_sup_lit_int8
-- inputs: df=nums
SELECT id, b + 200 AS x, b * 1000 AS y FROM {df}

-- name: h_sup_lit_int16
-- inputs: df=nums
SELECT id, s + 100000 AS x, s - 40000 AS y FROM {df}

-- name: h_sup_lit_int32
-- inputs: df=nums
SELECT id, i + 3000000000 AS x FROM {df}

-- name: h_sup_unsigned_neg
-- inputs: df=nums
SELECT id, u + -1 AS a, u * -2 AS c, u - 1 AS d FROM {df}

-- name: h_sup_unsigned_big
-- inputs: df=nums
SELECT id, u + 5000000000 AS x FROM {df}

-- name: h_sup_coalesce_lit
-- inputs: df=nums
SELECT id, COALESCE(s, 100000) AS a, COALESCE(b, -200) AS c FROM {df}

-- name: h_sup_case_lit
-- inputs: df=nums
SELECT id, CASE WHEN id > 3 THEN b ELSE 1000 END AS x FROM {df}

-- name: h_sup_case_string
-- inputs: df=orders
SELECT order_id, CASE WHEN paid THEN status ELSE qty END AS c FROM {df}

-- name: h_sup_coalesce_string
-- inputs: df=nums
SELECT id, COALESCE(str_num, i) AS x, COALESCE(s, 'none') AS y FROM {df}

-- name: h_sup_case_float_str
-- inputs: df=nums
SELECT id, CASE WHEN d > 0 THEN d ELSE 'neg' END AS x, CASE WHEN f > 0 THEN f ELSE 'neg' END AS y FROM {df}

-- name: h_sup_case_date_str
-- inputs: df=orders
SELECT order_id, CASE WHEN paid THEN ship_date ELSE 'none' END AS x, COALESCE(ordered_at, 'never') AS y FROM {df}

-- name: h_sup_case_bool_int
-- inputs: df=orders
SELECT order_id, CASE WHEN qty > 1 THEN paid ELSE 0 END AS x FROM {df}

-- name: h_sup_compare_lit
-- inputs: df=nums
SELECT id FROM {df} WHERE b < 1000 AND s > -100000
