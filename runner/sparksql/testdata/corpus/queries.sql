-- name: q_cte_chain
-- inputs: df=orders
WITH a AS (SELECT customer_id, amount FROM {df} WHERE amount > 10), b AS (SELECT customer_id, sum(amount) AS t FROM a GROUP BY customer_id) SELECT * FROM b WHERE t > 50

-- name: q_cte_columns
-- inputs: df=orders
WITH c(id, amt) AS (SELECT order_id, amount FROM {df}) SELECT id, amt FROM c WHERE id < 1003

-- name: q_cte_reused_twice
-- inputs: df=orders
WITH c AS (SELECT customer_id, count(*) AS n FROM {df} GROUP BY customer_id) SELECT a.customer_id, a.n, b.n AS m FROM c a JOIN c b ON a.customer_id = b.customer_id

-- name: q_nested_subqueries
-- inputs: df=orders
SELECT * FROM (SELECT * FROM (SELECT order_id, amount * 2 AS x FROM {df}) t WHERE x > 100) u

-- name: q_subquery_without_alias
-- inputs: df=orders
SELECT order_id FROM (SELECT order_id FROM {df})

-- name: q_union_all_types
-- inputs: df=nums
SELECT i AS v FROM {df} UNION ALL SELECT dec FROM {df}

-- name: q_union_distinct
-- inputs: df=orders
SELECT channel FROM {df} UNION SELECT status FROM {df}

-- name: q_intersect_except
-- inputs: df=orders, nodes.c=customers
SELECT customer_id FROM {df} INTERSECT SELECT customer_id FROM {nodes.c} EXCEPT SELECT 2

-- name: q_except_all
SELECT x FROM VALUES (1), (1), (2) AS t(x) EXCEPT ALL SELECT 1

-- name: q_union_column_count
-- inputs: df=orders
SELECT order_id FROM {df} UNION ALL SELECT order_id, status FROM {df}

-- name: q_union_incompatible
-- inputs: df=orders
SELECT ship_date FROM {df} UNION ALL SELECT quantity FROM {df}

-- name: q_union_order_limit
-- inputs: df=orders
SELECT order_id FROM {df} WHERE order_id < 1003 UNION ALL SELECT order_id FROM {df} WHERE order_id > 1006 ORDER BY order_id DESC LIMIT 3

-- name: q_order_by_alias_ordinal_expr
-- inputs: df=orders
SELECT order_id AS id, amount FROM {df} ORDER BY amount DESC, 1 LIMIT 4

-- name: q_order_by_non_selected
-- inputs: df=orders
SELECT order_id FROM {df} ORDER BY quantity, order_id

-- name: q_limit_offset
-- inputs: df=orders
SELECT order_id FROM {df} ORDER BY order_id LIMIT 2 OFFSET 3

-- name: q_star_except
-- inputs: df=customers
SELECT * EXCEPT (email, score, signup_date) FROM {df}

-- name: q_star_except_unknown
-- inputs: df=customers
SELECT * EXCEPT (nope) FROM {df}

-- name: q_qualified_star
-- inputs: df=orders, nodes.c=customers
SELECT c.*, o.order_id FROM {df} o JOIN {nodes.c} c ON o.customer_id = c.customer_id WHERE o.order_id = 1001

-- name: q_group_by_all_and_having
-- inputs: df=orders
SELECT channel, status, count(*) AS n FROM {df} GROUP BY ALL HAVING n >= 1

-- name: q_lateral_column_alias
-- inputs: df=orders
SELECT amount * 2 AS dbl, dbl + 1 AS plus FROM {df}

-- name: q_case_insensitive_columns
-- inputs: df=orders
SELECT ORDER_ID, Amount, o.STATUS FROM {df} o

-- name: q_backtick_columns
-- inputs: df=orders
SELECT `order_id`, `amount` AS `total amount` FROM {df}

-- name: q_unresolved_column
-- inputs: df=orders
SELECT order_idx FROM {df}

-- name: q_values_query
SELECT * FROM VALUES (1, 'a'), (2, NULL) AS t(id, name)

-- name: q_values_type_widening
SELECT * FROM VALUES (1), (2.5), (NULL) AS t(x)

-- name: q_values_default_names
SELECT * FROM VALUES (1, 'a')

-- name: q_scalar_subquery
-- inputs: df=orders
SELECT order_id, (SELECT max(amount) FROM {df}) AS mx FROM {df} WHERE order_id = 1001

-- name: q_correlated_scalar_subquery
-- inputs: df=orders, nodes.c=customers
SELECT c.customer_id, (SELECT count(*) FROM {df} o WHERE o.customer_id = c.customer_id) AS n FROM {nodes.c} c

-- name: q_scalar_subquery_many_rows
-- inputs: df=orders
SELECT (SELECT order_id FROM {df}) AS x

-- name: q_in_subquery_null
-- inputs: df=customers, nodes.o=orders
SELECT customer_id FROM {df} WHERE customer_id NOT IN (SELECT customer_id FROM {nodes.o})

-- name: q_exists_correlated
-- inputs: df=customers, nodes.o=orders
SELECT customer_id FROM {df} c WHERE EXISTS (SELECT 1 FROM {nodes.o} o WHERE o.customer_id = c.customer_id AND o.status = 'returned')

-- name: q_select_no_from
SELECT 1 AS a, 'x' AS b, 1 + 1, true AND false

-- name: q_distinct_on_expression
-- inputs: df=orders
SELECT DISTINCT lower(status) AS s FROM {df}

-- name: q_where_string_boolean
-- inputs: df=customers
SELECT customer_id FROM {df} WHERE 'true'

-- name: q_where_not_boolean
-- inputs: df=customers
SELECT customer_id FROM {df} WHERE customer_id

-- name: q_duplicate_output_names
-- inputs: df=orders
SELECT order_id, order_id FROM {df}

-- name: q_hints_and_comments
-- inputs: df=orders
SELECT /*+ REPARTITION(2) */ order_id -- the id
FROM {df} /* all orders */ WHERE order_id = 1001

-- name: q_range_table
SELECT id, id * 2 AS d FROM range(1, 4)

-- name: q_range_partitions
SELECT count(*) AS n, sum(id) AS s FROM range(0, 10, 2, 3)

-- name: q_range_too_many_args
SELECT id FROM range(0, 10, 1, 2, 5)

-- name: q_limit_non_constant
-- inputs: df=orders
SELECT order_id FROM {df} LIMIT quantity

-- name: q_sort_by_rejected
-- inputs: df=orders
SELECT order_id FROM {df} SORT BY order_id

-- name: q_multiple_statements
-- inputs: df=orders
SELECT 1; SELECT 2

-- name: q_syntax_error
-- inputs: df=orders
SELECT order_id FROM {df} WHERE AND order_id > 1

-- name: q_pivot_rejected
-- inputs: df=orders
SELECT * FROM {df} PIVOT (sum(amount) FOR channel IN ('web', 'app'))

-- name: q_between_names
-- inputs: df=orders
SELECT quantity BETWEEN 1 AND 3, quantity NOT BETWEEN 1 AND 3, quantity IN (1, 2), channel = 'web', channel <> 'web', NOT (quantity > 1) FROM {df} WHERE order_id = 1001

-- name: q_is_null_names
-- inputs: df=orders
SELECT discount IS NULL, discount IS NOT NULL, note LIKE 'a%', note RLIKE 'a', note ILIKE 'A%' FROM {df} WHERE order_id = 1001

-- name: q_function_names
-- inputs: df=orders
SELECT upper(status), substring(status, 1, 2), coalesce(note, 'x'), round(amount, 1), CAST(quantity AS STRING), cast(amount as int) FROM {df} WHERE order_id = 1001
