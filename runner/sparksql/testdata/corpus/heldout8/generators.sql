-- Held-out round 8: FROM-less generators nested as subqueries (in FROM,
-- in a CTE, in a join, in IN), written, and run through Spark 4.2,
-- before the code it tests.

-- name: h8_gen_sub_explode
-- inputs: df=clicks
SELECT x * 10 AS y FROM (SELECT explode(array(1, 2, 3)) AS x)

-- name: h8_gen_sub_inline_alias
-- inputs: df=clicks
SELECT a, b FROM (SELECT inline(array(struct(1, 'x'), struct(2, 'y'))) AS (a, b)) ORDER BY a

-- name: h8_gen_sub_stack
-- inputs: df=clicks
SELECT n, s FROM (SELECT stack(2, 1, 'a', 2, 'b') AS (n, s))

-- name: h8_gen_cross_join
-- inputs: df=clicks
SELECT c.user_id, g.k FROM {df} c CROSS JOIN (SELECT explode(sequence(1, 2)) AS k) g WHERE c.page = 'cart'

-- name: h8_gen_cte_posexplode
-- inputs: df=clicks
WITH g AS (SELECT posexplode(array('a', 'b', 'c')) AS (p, v)) SELECT p, v FROM g WHERE p > 0

-- name: h8_gen_in_subquery
-- inputs: df=clicks
SELECT user_id, ms FROM {df} WHERE ms IN (SELECT explode(array(120, 45)))

-- name: h8_gen_twice_nested_map
-- inputs: df=clicks
SELECT key, value FROM (SELECT * FROM (SELECT explode(map('a', 1, 'b', 2))))

-- name: h8_gen_join_dates
-- inputs: df=clicks
SELECT d, count(c.user_id) AS n FROM (SELECT explode(sequence(DATE '2024-03-10', DATE '2024-03-12')) AS d) days LEFT JOIN {df} c ON to_date(c.ts) = days.d GROUP BY d

-- name: h8_gen_explode_outer_empty
-- inputs: df=clicks
SELECT count(*) AS n, count(x) AS nx FROM (SELECT explode_outer(CAST(array() AS ARRAY<INT>)) AS x)

-- name: h8_gen_union_generators
-- inputs: df=clicks
SELECT x FROM (SELECT explode(array(1, 2)) AS x UNION ALL SELECT explode(array(3)) AS x)

-- name: h8_gen_scalar_subquery
-- inputs: df=clicks
SELECT user_id, (SELECT max(x) FROM (SELECT explode(array(3, 9, 4)) AS x)) AS m FROM {df} WHERE page = 'cart'

-- name: h8_gen_select_star_extra
-- inputs: df=clicks
SELECT * FROM (SELECT 'k' AS tag, explode(array(10, 20)) AS v)
