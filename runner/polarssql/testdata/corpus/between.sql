-- x [NOT] BETWEEN lo AND hi, polars' is_between: both comparisons with
-- their own supertypes, NULLs as AND combines them.

-- name: btw_int
-- inputs: df=nums
SELECT id, i BETWEEN -7 AND 7 AS a, b NOT BETWEEN 0 AND 5 AS c FROM {df}

-- name: btw_columns
-- inputs: df=nums
SELECT id, i BETWEEN b AND s AS a FROM {df}

-- name: btw_unaliased
-- inputs: df=nums
SELECT id, d BETWEEN -1 AND 3 FROM {df}

-- name: btw_reversed
-- inputs: df=nums
SELECT id FROM {df} WHERE i BETWEEN 7 AND -7

-- name: btw_float_bounds
-- inputs: df=nums
SELECT id, i BETWEEN 1.5 AND 10 AS a, f BETWEEN -2.25 AND 1.5 AS c FROM {df}

-- name: btw_strings
-- inputs: df=strs
SELECT id, s BETWEEN 'A' AND 'Z' AS a, t NOT BETWEEN 'a' AND 'p' AS b FROM {df}

-- name: btw_dates
-- inputs: df=orders
SELECT order_id FROM {df} WHERE ship_date BETWEEN '2024-01-01' AND '2024-03-31'

-- name: btw_string_int
-- inputs: df=nums
SELECT id, i BETWEEN '1' AND '3' AS a FROM {df}

-- name: btw_case
-- inputs: df=orders
SELECT order_id, CASE WHEN qty BETWEEN 2 AND 3 THEN 'few' ELSE 'other' END AS k FROM {df}

-- name: btw_decimal
-- inputs: df=orders
SELECT order_id, price BETWEEN 10 AND 100 AS a FROM {df}
