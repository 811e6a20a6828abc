-- Round 2 held-out part: conditionals. Written before the round-2 fixes;
-- its figures are reported apart.

-- name: h2_cond_case_decimal_int
-- inputs: df=money
SELECT id, CASE WHEN amount > 10 THEN amount ELSE 0 END AS a FROM {df}

-- name: h2_cond_coalesce_decimal_double
-- inputs: df=money
SELECT id, coalesce(amount, fx) AS c FROM {df}

-- name: h2_cond_greatest_strings
-- inputs: df=texts
SELECT id, greatest(s, t) AS g, least(s, t) AS l FROM {df}

-- name: h2_cond_if_null_branch
-- inputs: df=money
SELECT id, if(amount IS NULL, NULL, amount * 2) AS a FROM {df}

-- name: h2_cond_case_bool_result
-- inputs: df=money
SELECT id, CASE WHEN cents > 0 THEN true WHEN cents < 0 THEN false END AS pos FROM {df}

-- name: h2_cond_nvl_types
-- inputs: df=money
SELECT id, nvl(cents, 0L) AS c, nvl(currency, 'N/A') AS ccy FROM {df}

-- name: h2_cond_in_list_mixed_types
-- inputs: df=money
SELECT id FROM {df} WHERE cents IN (1, 15, 267.0)

-- name: h2_cond_string_compare_number_col
-- inputs: df=nums
SELECT id, str_num < 5 AS small FROM {df} WHERE id IN (1, 2, 6, 7, 8)

-- name: h2_cond_case_when_string_to_int_fails
-- inputs: df=bad
SELECT id, CASE WHEN n > 1 THEN s ELSE 0 END + 1 AS x FROM {df}

-- name: h2_cond_nullif_strings
-- inputs: df=texts
SELECT id, nullif(s, '') AS s FROM {df}
