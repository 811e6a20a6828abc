-- name: arr_index_zero_based
-- inputs: df=bad
SELECT id, xs[0] AS a FROM {df} WHERE size(xs) > 0

-- name: arr_index_out_of_range
-- inputs: df=bad
SELECT id, xs[2] AS a FROM {df}

-- name: arr_index_negative
-- inputs: df=bad
SELECT xs[-1] AS a FROM {df}

-- name: arr_element_at
-- inputs: df=bad
SELECT id, element_at(xs, 1) AS a, element_at(xs, -1) AS b FROM {df} WHERE size(xs) > 0

-- name: arr_element_at_out_of_range
-- inputs: df=bad
SELECT id, element_at(xs, 3) AS a FROM {df}

-- name: arr_try_element_at_get
-- inputs: df=bad
SELECT id, try_element_at(xs, 3) AS a, get(xs, 1) AS b, get(xs, -1) AS c FROM {df}

-- name: arr_size_cardinality
-- inputs: df=orders
SELECT order_id, size(tags) AS a, cardinality(tags) AS b, size(attrs) AS c FROM {df}

-- name: arr_contains_nulls
-- inputs: df=orders
SELECT order_id, array_contains(tags, 'new') AS a, array_contains(tags, 'zzz') AS b FROM {df}

-- name: arr_position_remove
-- inputs: df=orders
SELECT order_id, array_position(tags, 'promo') AS a, array_remove(tags, 'new') AS b FROM {df}

-- name: arr_distinct_order
SELECT array_distinct(array(3, 1, 3, NULL, 2, NULL, 1)) AS a, array_distinct(array('b', 'a', 'b')) AS b

-- name: arr_set_ops
SELECT array_union(array(1, 2, 2), array(3, 1)) AS a, array_intersect(array(1, 2, 2, NULL), array(2, NULL)) AS b, array_except(array(1, 2, 2, 3), array(2)) AS c, arrays_overlap(array(1, 2), array(2)) AS e, arrays_overlap(array(1, NULL), array(3)) AS f, arrays_overlap(array(1), array(3)) AS g

-- name: arr_join
-- inputs: df=orders
SELECT order_id, array_join(tags, ',') AS a, array_join(tags, ',', '?') AS b FROM {df}

-- name: arr_max_min_sort
-- inputs: df=orders
SELECT order_id, array_max(tags) AS a, array_min(tags) AS b, array_sort(tags) AS c, sort_array(tags) AS e, sort_array(tags, false) AS f FROM {df}

-- name: arr_sort_nulls
SELECT array_sort(array(3, NULL, 1)) AS a, sort_array(array(3, NULL, 1)) AS b, sort_array(array(3, NULL, 1), false) AS c

-- name: arr_slice
SELECT slice(array(1, 2, 3, 4, 5), 2, 3) AS a, slice(array(1, 2, 3, 4, 5), -2, 2) AS b, slice(array(1, 2, 3), 5, 1) AS c, slice(array(1, 2, 3), -5, 2) AS e

-- name: arr_slice_zero_start
SELECT slice(array(1, 2, 3), 0, 1) AS a

-- name: arr_flatten_sequence
SELECT flatten(array(array(1, 2), array(3))) AS a, flatten(array(array(1), NULL)) AS b, sequence(1, 5) AS c, sequence(5, 1) AS e, sequence(0, 10, 5) AS f

-- name: arr_repeat_append
SELECT array_repeat('x', 3) AS a, array_repeat(1, 0) AS b, array_append(array(1, 2), 3) AS c, array_prepend(array(1, 2), 0) AS e, array_compact(array(1, NULL, 2)) AS f

-- name: arr_concat
SELECT concat(array(1, 2), array(3)) AS a, array(1, 2) || array(3, 4) AS b, concat(array(1), CAST(NULL AS ARRAY<INT>)) AS c

-- name: arr_literals_types
SELECT array(1, 2.5) AS a, array(1, 2L) AS b, array('a', NULL) AS c, array() AS e, array(array(1), array(2, 3)) AS f

-- name: arr_transform_index
SELECT transform(array(10, 20, 30), x -> x + 1) AS a, transform(array(10, 20, 30), (x, i) -> x * i) AS b, filter(array(1, 2, 3, 4), x -> x % 2 = 0) AS c, filter(array(1, 2, 3), (x, i) -> i > 0) AS e

-- name: arr_exists_forall_nulls
SELECT exists(array(1, 2), x -> x > 1) AS a, exists(array(1, NULL), x -> x > 1) AS b, forall(array(1, 2), x -> x > 0) AS c, forall(array(1, NULL), x -> x > 0) AS e, exists(array(1), x -> x > 5) AS f

-- name: arr_aggregate
SELECT aggregate(array(1, 2, 3), 0, (acc, x) -> acc + x) AS a, aggregate(array(1, 2, 3), 0, (acc, x) -> acc + x, acc -> acc * 10) AS b, aggregate(array(1.5D, 2.5D), 0D, (acc, x) -> acc + x) AS c

-- name: arr_aggregate_type_mismatch
SELECT aggregate(array(1, 2), 0L, (acc, x) -> acc + x * 1.5) AS a

-- name: arr_lambda_over_column
-- inputs: df=events
SELECT event_id, transform(items, it -> upper(it.sku)) AS skus, filter(items, it -> it.qty > 1) AS big FROM {df}

-- name: arr_struct_field_of_array
-- inputs: df=events
SELECT event_id, items.sku AS skus, items.price AS prices FROM {df}

-- name: arr_explode_select
-- inputs: df=bad
SELECT id, explode(xs) FROM {df}

-- name: arr_explode_outer_select
-- inputs: df=bad
SELECT id, explode_outer(xs) AS x FROM {df}

-- name: arr_posexplode_select
-- inputs: df=bad
SELECT id, posexplode(xs) FROM {df}

-- name: arr_posexplode_outer_alias
-- inputs: df=bad
SELECT id, posexplode_outer(xs) AS (p, v) FROM {df}

-- name: arr_lateral_view_chain
-- inputs: df=orders
SELECT o.order_id, t.tag, k.key FROM {df} o LATERAL VIEW explode(tags) t AS tag LATERAL VIEW explode(attrs) k AS key, val WHERE t.tag <> 'new'

-- name: arr_lateral_view_outer_map
-- inputs: df=events
SELECT event_id, p.key, p.value FROM {df} LATERAL VIEW OUTER explode(props) p AS key, value

-- name: arr_lateral_view_inline
-- inputs: df=events
SELECT event_id, sku, qty, price FROM {df} LATERAL VIEW inline(items) it AS sku, qty, price

-- name: arr_inline_outer
-- inputs: df=events
SELECT event_id, it.* FROM {df} LATERAL VIEW OUTER inline(items) it

-- name: arr_explode_from_clause
SELECT * FROM explode(array(1, 2, 3)) AS t(x)

-- name: arr_two_generators
-- inputs: df=bad
SELECT explode(xs) AS a, explode(xs) AS b FROM {df}

-- name: arr_zip
SELECT arrays_zip(array(1, 2), array('a', 'b', 'c')) AS z

-- name: map_access
-- inputs: df=orders
SELECT order_id, attrs['src'] AS a, attrs['nope'] AS b, element_at(attrs, 'gift') AS c, try_element_at(attrs, 'coupon') AS e FROM {df}

-- name: map_keys_values_entries
-- inputs: df=events
SELECT event_id, map_keys(props) AS k, map_values(props) AS v, map_entries(props) AS e, map_contains_key(props, 'x') AS c FROM {df}

-- name: map_build
SELECT map('a', 1, 'b', 2) AS a, map_from_arrays(array('x', 'y'), array(1.5, 2.5)) AS b, map_from_entries(array(struct('k', 1), struct('l', 2))) AS c, map() AS e

-- name: map_duplicate_key
SELECT map('a', 1, 'a', 2) AS a

-- name: map_null_key
SELECT map(CAST(NULL AS STRING), 1) AS a

-- name: map_concat_dup
SELECT map_concat(map('a', 1), map('a', 2)) AS a

-- name: map_concat_ok
SELECT map_concat(map('a', 1), map('b', 2)) AS a, map_concat(map('a', 1), CAST(NULL AS MAP<STRING, INT>)) AS b

-- name: map_str_to_map
-- inputs: df=strs
SELECT id, str_to_map(csv, ';', '=') AS m FROM {df} WHERE id = 7

-- name: map_str_to_map_defaults
SELECT str_to_map('a:1,b:2,c') AS m

-- name: struct_access_and_names
-- inputs: df=orders
SELECT order_id, address.city, address['zip'] AS zip, upper(address.city) AS uc FROM {df}

-- name: struct_build_names
-- inputs: df=customers
SELECT struct(customer_id, name) AS a, struct(customer_id + 1, name AS n) AS b, named_struct('x', 1, 'y', name) AS c FROM {df} WHERE customer_id < 3

-- name: struct_star_expand
-- inputs: df=orders
SELECT order_id, address.* FROM {df}

-- name: struct_nested_field_missing
-- inputs: df=orders
SELECT address.country FROM {df}

-- name: struct_compare_and_group
-- inputs: df=orders
SELECT address, count(*) AS n FROM {df} GROUP BY address

-- name: struct_in_array_literal
SELECT array(named_struct('a', 1), named_struct('a', 2))[1].a AS x
