-- Round 2: mistakes data engineers make, where Spark raises an analysis
-- or runtime error (and near misses Spark accepts), written before the
-- round-2 fixes.

-- name: r2_err_missing_group_by_col
-- inputs: df=orders
SELECT customer_id, channel, sum(amount) AS s FROM {df} GROUP BY customer_id

-- name: r2_err_agg_without_group_by
-- inputs: df=orders
SELECT customer_id, count(*) AS n FROM {df}

-- name: r2_err_unresolved_column
-- inputs: df=orders
SELECT order_id, amout FROM {df}

-- name: r2_err_unresolved_function
-- inputs: df=orders
SELECT order_id, to_str(amount) AS s FROM {df}

-- name: r2_err_wrong_arg_count
-- inputs: df=orders
SELECT substring(status) AS s FROM {df}

-- name: r2_err_type_mismatch_plus_string
-- inputs: df=orders
SELECT status + 1 AS x FROM {df}

-- name: r2_err_type_mismatch_array_int
-- inputs: df=orders
SELECT tags + 1 AS x FROM {df}

-- name: r2_err_where_aggregate
-- inputs: df=orders
SELECT customer_id FROM {df} WHERE sum(amount) > 10 GROUP BY customer_id

-- name: r2_err_window_in_where
-- inputs: df=orders
SELECT order_id FROM {df} WHERE row_number() OVER (ORDER BY order_id) = 1

-- name: r2_err_window_without_order
-- inputs: df=orders
SELECT order_id, row_number() OVER (PARTITION BY customer_id) AS rn FROM {df}

-- name: r2_err_lag_without_order
-- inputs: df=orders
SELECT order_id, lag(amount) OVER (PARTITION BY customer_id) AS p FROM {df}

-- name: r2_err_count_distinct_over
-- inputs: df=orders
SELECT order_id, count(DISTINCT channel) OVER (PARTITION BY customer_id) AS n FROM {df}

-- name: r2_err_grouping_no_sets
-- inputs: df=orders
SELECT channel, grouping(channel) AS g, count(*) AS n FROM {df} GROUP BY channel

-- name: r2_err_nested_aggregate
-- inputs: df=orders
SELECT max(count(*)) AS m FROM {df} GROUP BY channel

-- name: r2_err_ambiguous_reference
-- inputs: df=orders, nodes.orders=orders
SELECT order_id FROM {df} a JOIN {nodes.orders} b ON a.order_id = b.order_id

-- name: r2_err_duplicate_alias_ok
-- inputs: df=orders
SELECT order_id AS x, amount AS x FROM {df}

-- name: r2_err_order_by_unselected_distinct
-- inputs: df=orders
SELECT DISTINCT channel FROM {df} ORDER BY amount

-- name: r2_err_cast_string_int_runtime
-- inputs: df=bad
SELECT id, CAST(s AS INT) AS n FROM {df}

-- name: r2_err_divide_by_zero_int
-- inputs: df=bad
SELECT id, 10 / n AS x FROM {df}

-- name: r2_err_div_int_zero
-- inputs: df=bad
SELECT id, 10 DIV n AS x FROM {df}

-- name: r2_err_mod_zero
-- inputs: df=bad
SELECT id, 10 % n AS x FROM {df}

-- name: r2_err_element_at_zero
-- inputs: df=bad
SELECT element_at(xs, 0) AS x FROM {df}

-- name: r2_err_array_index_out_of_bounds
-- inputs: df=bad
SELECT element_at(xs, 3) AS x FROM {df}

-- name: r2_err_subscript_out_of_bounds
-- inputs: df=bad
SELECT xs[5] AS x FROM {df}

-- name: r2_err_map_key_missing
-- inputs: df=orders
SELECT element_at(attrs, 'nope') AS x FROM {df}

-- name: r2_err_invalid_date_cast
-- inputs: df=strs
SELECT CAST(dt_str AS DATE) AS d FROM {df}

-- name: r2_err_int_overflow_sum
-- inputs: df=nums
SELECT sum(i) AS s FROM {df} WHERE id IN (4, 7)

-- name: r2_err_int_overflow_add
-- inputs: df=nums
SELECT i + 1 AS x FROM {df} WHERE id = 4

-- name: r2_err_abs_min_int
-- inputs: df=nums
SELECT abs(i) AS x FROM {df} WHERE id = 8

-- name: r2_err_invalid_regex
-- inputs: df=strs
SELECT regexp_extract(code, '([0-9]', 1) AS x FROM {df}

-- name: r2_err_regex_group_index
-- inputs: df=strs
SELECT regexp_extract(code, '([0-9])', 2) AS x FROM {df}

-- name: r2_err_lambda_wrong_args
-- inputs: df=nested
SELECT transform(scores, (a, b, c) -> a) AS x FROM {df}

-- name: r2_err_explode_nested_in_expr
-- inputs: df=nested
SELECT size(explode(scores)) AS x FROM {df}

-- name: r2_err_two_generators
-- inputs: df=nested
SELECT explode(scores) AS a, explode(tags) AS b FROM {df}

-- name: r2_err_join_condition_not_bool
-- inputs: df=orders, nodes.customers=customers
SELECT o.order_id FROM {df} o JOIN {nodes.customers} c ON o.customer_id

-- name: r2_err_group_by_position_out_of_range
-- inputs: df=orders
SELECT channel, count(*) AS n FROM {df} GROUP BY 3

-- name: r2_err_order_by_position_out_of_range
-- inputs: df=orders
SELECT channel FROM {df} ORDER BY 2

-- name: r2_err_star_in_aggregate_query
-- inputs: df=orders
SELECT *, count(*) OVER () AS n FROM {df} WHERE order_id = 1001

-- name: r2_err_having_without_group
-- inputs: df=orders
SELECT count(*) AS n FROM {df} HAVING count(*) > 1

-- name: r2_err_sum_string
-- inputs: df=orders
SELECT sum(status) AS s FROM {df}

-- name: r2_err_avg_of_numeric_string
-- inputs: df=nums
SELECT avg(str_num) AS a FROM {df} WHERE id IN (1, 2, 6)

-- name: r2_err_if_wrong_type
-- inputs: df=orders
SELECT if(status, 1, 0) AS x FROM {df}

-- name: r2_err_coalesce_incompatible
-- inputs: df=orders
SELECT coalesce(tags, status) AS x FROM {df}

-- name: r2_err_date_add_string
-- inputs: df=orders
SELECT date_add(ship_date, '1') AS d FROM {df}

-- name: r2_err_date_add_decimal
-- inputs: df=orders
SELECT date_add(ship_date, 1.5) AS d FROM {df}

-- name: r2_err_union_type_mismatch
-- inputs: df=orders
SELECT tags FROM {df} UNION ALL SELECT status FROM {df}

-- name: r2_err_from_json_bad_schema
-- inputs: df=jdocs
SELECT from_json(doc, 'not a schema') AS j FROM {df}

-- name: r2_err_datetime_pattern_unknown
-- inputs: df=landing
SELECT to_timestamp(event_time, 'yyyy-MM-dd HH:mm:ss qqqqq') AS t FROM {df}

-- name: r2_err_map_duplicate_key
-- inputs: df=orders
SELECT map('a', 1, 'a', 2) AS m FROM {df}

-- name: r2_err_struct_missing_field
-- inputs: df=orders
SELECT address.street AS s FROM {df}

-- name: r2_err_limit_negative
-- inputs: df=orders
SELECT order_id FROM {df} LIMIT -1

-- name: r2_err_sequence_wrong_step
-- inputs: df=orders
SELECT sequence(1, 5, -1) AS s FROM {df}

-- name: r2_err_percentile_out_of_range
-- inputs: df=orders
SELECT percentile(amount, 1.5) AS p FROM {df}

-- name: r2_err_approx_percentile_accuracy
-- inputs: df=orders
SELECT percentile_approx(amount, 0.5, 0) AS p FROM {df}

-- name: r2_err_window_frame_mismatch
-- inputs: df=orders
SELECT order_id, sum(amount) OVER (ORDER BY ordered_at RANGE BETWEEN 1 PRECEDING AND CURRENT ROW) AS s FROM {df}

-- name: r2_err_reserved_keyword_alias
-- inputs: df=orders
SELECT order_id AS select FROM {df}

-- name: r2_err_backtick_keyword_alias
-- inputs: df=orders
SELECT order_id AS `select`, amount AS `from` FROM {df}

-- name: r2_err_timestamp_cast_invalid
-- inputs: df=landing
SELECT CAST(event_time AS TIMESTAMP) AS t FROM {df}

-- name: r2_err_boolean_cast_invalid
-- inputs: df=landing
SELECT CAST(amount AS BOOLEAN) AS t FROM {df} WHERE rec_id = '4'

-- name: r2_err_array_of_mixed
-- inputs: df=orders
SELECT array(status, tags) AS x FROM {df}

-- name: r2_err_count_distinct_window_ok_size
-- inputs: df=orders
SELECT order_id, size(collect_set(channel) OVER (PARTITION BY customer_id)) AS n FROM {df}
