-- Round 8 (development): FROM-less generators nested as subqueries.

-- name: r8_gen_sub_posexplode_outer
-- inputs: df=clicks
SELECT pos, col FROM (SELECT posexplode_outer(array(7, NULL)))

-- name: r8_gen_sub_explode_filter
-- inputs: df=clicks
SELECT x FROM (SELECT explode(sequence(1, 6)) AS x) WHERE x % 2 = 0

-- name: r8_gen_sub_group
-- inputs: df=clicks
SELECT x % 2 AS odd, count(*) AS n FROM (SELECT explode(sequence(1, 5)) AS x) GROUP BY x % 2

-- name: r8_gen_left_join_lateral_values
-- inputs: df=clicks
SELECT c.page, s.n FROM {df} c JOIN (SELECT explode(array('home', 'cart')) AS p, 1 AS n) s ON c.page = s.p

-- name: r8_gen_exists
-- inputs: df=clicks
SELECT user_id FROM {df} c WHERE EXISTS (SELECT 1 FROM (SELECT explode(array(1, 3)) AS u) WHERE u = c.user_id) AND page = 'home'

-- name: r8_gen_cte_twice
-- inputs: df=clicks
WITH a AS (SELECT explode(array(1, 2)) AS x), b AS (SELECT explode(array(10, 20)) AS y) SELECT x, y FROM a CROSS JOIN b

-- name: r8_gen_inline_structs_sub
-- inputs: df=clicks
SELECT * FROM (SELECT inline(array(named_struct('k', 'a', 'v', 1), named_struct('k', 'b', 'v', 2))))

-- name: r8_gen_explode_map_sub_alias
-- inputs: df=clicks
SELECT k, v FROM (SELECT explode(map('x', 1)) AS (k, v))

-- name: r8_stack_err_n_not_int
-- inputs: df=clicks
SELECT stack('2', 1, 2)

-- name: r8_stack_err_n_zero
-- inputs: df=clicks
SELECT stack(0, 1, 2)

-- name: r8_stack_err_n_column
-- inputs: df=clicks
SELECT stack(ms, 1, 2) FROM {df}

-- name: r8_stack_err_mixed_types
-- inputs: df=clicks
SELECT stack(2, 1, 'a', 'b', 2)

-- name: r8_stack_err_mixed_types_columns
-- inputs: df=clicks
SELECT stack(2, page, ms) FROM {df}

-- name: r8_stack_uneven_padding
-- inputs: df=clicks
SELECT stack(2, 1, 2, 3)

-- name: r8_stack_null_and_int
-- inputs: df=clicks
SELECT stack(3, NULL, 1, 2L)

-- name: r8_stack_unaliased_names
-- inputs: df=clicks
SELECT stack(2, 'a', 1, 'b', 2)
