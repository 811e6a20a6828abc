-- Polars SQL's derived tables: a query in FROM under an alias.

-- name: dt_union_inside
-- inputs: df=customers
SELECT country, COUNT(*) AS n FROM (SELECT country FROM {df} UNION ALL SELECT country FROM {df}) AS u GROUP BY country

-- name: dt_lateral
-- inputs: df=customers
SELECT x FROM LATERAL (SELECT tier AS x FROM {df}) AS l

-- name: dt_alias_count_mismatch
-- inputs: df=customers
SELECT a FROM (SELECT customer_id, name FROM {df}) AS t(a)

-- name: dt_cte_and_derived
-- inputs: df=orders
WITH big AS (SELECT * FROM {df} WHERE amount > 10) SELECT s, MAX(a) AS m FROM (SELECT status AS s, amount AS a FROM big) AS q GROUP BY s
