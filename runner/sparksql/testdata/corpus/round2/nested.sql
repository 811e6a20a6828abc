-- Round 2: nested data (arrays, maps, structs, explode), written before
-- the round-2 fixes.

-- name: r2_nest_explode_items
-- inputs: df=nested
SELECT id, it.sku, it.qty, it.price FROM {df} LATERAL VIEW explode(items) t AS it

-- name: r2_nest_explode_outer_items
-- inputs: df=nested
SELECT id, it.sku FROM {df} LATERAL VIEW OUTER explode(items) t AS it

-- name: r2_nest_inline_items
-- inputs: df=nested
SELECT id, sku, qty FROM {df} LATERAL VIEW inline(items) t AS sku, qty, price

-- name: r2_nest_inline_select
-- inputs: df=nested
SELECT inline(items) FROM {df} WHERE id IN (1, 6)

-- name: r2_nest_posexplode_tags
-- inputs: df=nested
SELECT id, pos, tag FROM {df} LATERAL VIEW posexplode(tags) t AS pos, tag

-- name: r2_nest_explode_map
-- inputs: df=nested
SELECT id, k, v FROM {df} LATERAL VIEW explode(attrs) t AS k, v

-- name: r2_nest_explode_select_list
-- inputs: df=nested
SELECT id, explode(scores) AS score FROM {df}

-- name: r2_nest_line_value
-- inputs: df=nested
SELECT id, sum(it.qty * it.price) AS total FROM {df} LATERAL VIEW explode(items) t AS it GROUP BY id

-- name: r2_nest_aggregate_lambda
-- inputs: df=nested
SELECT id, aggregate(items, CAST(0 AS DECIMAL(20,2)), (acc, x) -> acc + coalesce(x.qty * x.price, 0)) AS total FROM {df}

-- name: r2_nest_transform_struct
-- inputs: df=nested
SELECT id, transform(items, x -> x.sku) AS skus FROM {df}

-- name: r2_nest_transform_index
-- inputs: df=nested
SELECT id, transform(scores, (x, i) -> x * (i + 1)) AS w FROM {df}

-- name: r2_nest_filter_nulls
-- inputs: df=nested
SELECT id, filter(tags, x -> x IS NOT NULL) AS t, array_compact(scores) AS s FROM {df}

-- name: r2_nest_exists_forall
-- inputs: df=nested
SELECT id, exists(scores, x -> x > 5) AS any_big, forall(scores, x -> x > 0) AS all_pos FROM {df}

-- name: r2_nest_array_contains_null
-- inputs: df=nested
SELECT id, array_contains(tags, 'x') AS has_x, array_position(tags, 'b') AS pos_b FROM {df}

-- name: r2_nest_array_distinct_sort
-- inputs: df=nested
SELECT id, array_distinct(tags) AS d, sort_array(tags) AS s, sort_array(tags, false) AS sd, array_sort(tags) AS a FROM {df}

-- name: r2_nest_array_sort_comparator
-- inputs: df=nested
SELECT id, array_sort(scores, (l, r) -> CASE WHEN l IS NULL THEN 1 WHEN r IS NULL THEN -1 WHEN l < r THEN 1 WHEN l > r THEN -1 ELSE 0 END) AS desc_scores FROM {df}

-- name: r2_nest_array_sort_by_field
-- inputs: df=nested
SELECT id, array_sort(filter(items, x -> x IS NOT NULL), (a, b) -> CASE WHEN a.sku < b.sku THEN -1 WHEN a.sku > b.sku THEN 1 ELSE 0 END) AS by_sku FROM {df}

-- name: r2_nest_array_join
-- inputs: df=nested
SELECT id, array_join(tags, ',') AS j, array_join(tags, ',', '?') AS jn FROM {df}

-- name: r2_nest_array_min_max
-- inputs: df=nested
SELECT id, array_min(scores) AS mn, array_max(scores) AS mx, size(scores) AS n, cardinality(tags) AS c FROM {df}

-- name: r2_nest_element_at
-- inputs: df=nested
SELECT id, element_at(tags, 1) AS first, element_at(tags, -1) AS last, try_element_at(tags, 5) AS fifth FROM {df}

-- name: r2_nest_element_at_out_of_range
-- inputs: df=nested
SELECT id, element_at(scores, 3) AS third FROM {df}

-- name: r2_nest_subscript
-- inputs: df=nested
SELECT id, tags[0] AS t0, scores[1] AS s1 FROM {df}

-- name: r2_nest_get_function
-- inputs: df=nested
SELECT id, get(tags, 0) AS t0, get(tags, 10) AS t10 FROM {df}

-- name: r2_nest_slice
-- inputs: df=nested
SELECT id, slice(scores, 1, 2) AS head2, slice(scores, -2, 2) AS tail2 FROM {df}

-- name: r2_nest_array_append_prepend
-- inputs: df=nested
SELECT id, array_append(scores, 0) AS app, array_prepend(scores, 0) AS pre FROM {df}

-- name: r2_nest_array_append_null_array
-- inputs: df=nested
SELECT id, array_append(CAST(NULL AS ARRAY<INT>), 1) AS a, array_prepend(CAST(NULL AS ARRAY<INT>), 1) AS b FROM {df} WHERE id = 1

-- name: r2_nest_array_insert
-- inputs: df=nested
SELECT id, array_insert(scores, 1, 99) AS first, array_insert(scores, -1, 99) AS last FROM {df}

-- name: r2_nest_array_remove_except
-- inputs: df=nested
SELECT id, array_remove(tags, 'b') AS r, array_except(tags, array('x')) AS e, array_intersect(tags, array('a', 'x')) AS i, array_union(tags, array('z')) AS u FROM {df}

-- name: r2_nest_arrays_overlap
-- inputs: df=nested
SELECT id, arrays_overlap(tags, array('a', 'y')) AS o FROM {df}

-- name: r2_nest_arrays_zip
-- inputs: df=nested
SELECT id, arrays_zip(tags, scores) AS z FROM {df}

-- name: r2_nest_arrays_zip_null
-- inputs: df=nested
SELECT id, arrays_zip(CAST(NULL AS ARRAY<INT>), scores) AS z FROM {df} WHERE id = 1

-- name: r2_nest_zip_with
-- inputs: df=nested
SELECT id, zip_with(scores, scores, (a, b) -> a * b) AS sq, zip_with(tags, scores, (t, s) -> concat(t, ':', s)) AS ts FROM {df}

-- name: r2_nest_flatten_sequence
-- inputs: df=nested
SELECT id, flatten(array(scores, array(100))) AS f, sequence(1, size(scores)) AS idx FROM {df} WHERE id IN (1, 5, 6)

-- name: r2_nest_array_repeat
-- inputs: df=nested
SELECT id, array_repeat(id, 3) AS r FROM {df}

-- name: r2_nest_shuffle_free_reverse
-- inputs: df=nested
SELECT id, reverse(scores) AS r, reverse(tags) AS t FROM {df}

-- name: r2_nest_map_access
-- inputs: df=nested
SELECT id, attrs['color'] AS color, element_at(attrs, 'size') AS size, try_element_at(kv, 'a') AS a FROM {df}

-- name: r2_nest_map_keys_values
-- inputs: df=nested
SELECT id, array_sort(map_keys(attrs)) AS k, array_sort(map_values(kv)) AS v FROM {df}

-- name: r2_nest_map_entries
-- inputs: df=nested
SELECT id, array_sort(map_entries(kv)) AS e FROM {df}

-- name: r2_nest_map_contains_key
-- inputs: df=nested
SELECT id, map_contains_key(attrs, 'color') AS has_color FROM {df}

-- name: r2_nest_map_filter
-- inputs: df=nested
SELECT id, map_filter(kv, (k, v) -> v > 0) AS pos FROM {df}

-- name: r2_nest_transform_values
-- inputs: df=nested
SELECT id, transform_values(kv, (k, v) -> v * 10) AS x10 FROM {df}

-- name: r2_nest_transform_keys
-- inputs: df=nested
SELECT id, transform_keys(attrs, (k, v) -> upper(k)) AS up FROM {df}

-- name: r2_nest_map_from_arrays
-- inputs: df=nested
SELECT id, map_from_arrays(array('a', 'b'), array(id, id * 2)) AS m FROM {df}

-- name: r2_nest_map_from_entries
-- inputs: df=nested
SELECT id, map_from_entries(transform(filter(items, x -> x IS NOT NULL AND x.sku IS NOT NULL), x -> struct(x.sku, x.qty))) AS m FROM {df} WHERE id IN (2, 4, 5, 6)

-- name: r2_nest_map_concat
-- inputs: df=nested
SELECT id, map_concat(kv, map('zz', 9)) AS m FROM {df}

-- name: r2_nest_str_to_map
-- inputs: df=strs
SELECT id, str_to_map(csv, ';', '=') AS m FROM {df} WHERE id = 7

-- name: r2_nest_struct_fields
-- inputs: df=nested
SELECT id, meta.src.sys AS sys, meta.src.ver AS ver, meta.labels AS labels FROM {df}

-- name: r2_nest_struct_star
-- inputs: df=nested
SELECT id, meta.src.* FROM {df}

-- name: r2_nest_named_struct_build
-- inputs: df=orders
SELECT order_id, named_struct('id', order_id, 'city', address.city, 'tags', tags) AS s FROM {df}

-- name: r2_nest_struct_compare
-- inputs: df=nested
SELECT id, meta.src = named_struct('sys', 'crm', 'ver', 2) AS is_crm2 FROM {df}

-- name: r2_nest_array_of_struct_field
-- inputs: df=nested
SELECT id, items.sku AS skus, items.qty AS qtys FROM {df}

-- name: r2_nest_size_null
-- inputs: df=nested
SELECT id, size(items) AS n, size(attrs) AS m FROM {df}

-- name: r2_nest_concat_arrays
-- inputs: df=nested
SELECT id, concat(tags, array('new')) AS c, concat(scores, scores) AS s FROM {df}

-- name: r2_nest_explode_then_collect
-- inputs: df=nested
SELECT id, array_sort(collect_set(upper(tag))) AS tags FROM {df} LATERAL VIEW explode(tags) t AS tag GROUP BY id

-- name: r2_nest_posexplode_outer
-- inputs: df=nested
SELECT id, pos, s FROM {df} LATERAL VIEW OUTER posexplode(scores) t AS pos, s

-- name: r2_nest_explode_sequence_dates
-- inputs: df=fx
SELECT currency, d FROM {df} LATERAL VIEW explode(sequence(rate_date, date_add(rate_date, 2))) t AS d WHERE currency = 'USD'

-- name: r2_nest_two_lateral_views
-- inputs: df=nested
SELECT id, t, s FROM {df} LATERAL VIEW explode(tags) a AS t LATERAL VIEW explode(scores) b AS s WHERE id IN (1, 6)

-- name: r2_nest_array_literal_types
-- inputs: df=nested
SELECT id, array(1, 2.5, NULL) AS a, array('a', NULL) AS b, array() AS e FROM {df} WHERE id = 1

-- name: r2_nest_element_at_nonempty
-- inputs: df=nested
SELECT id, element_at(tags, 1) AS first, element_at(tags, -1) AS last, try_element_at(tags, 5) AS fifth FROM {df} WHERE size(tags) > 0

-- name: r2_nest_subscript_nonempty
-- inputs: df=nested
SELECT id, tags[0] AS t0, scores[1] AS s1 FROM {df} WHERE size(scores) > 1

-- name: r2_nest_aggregate_lambda_typed
-- inputs: df=nested
SELECT id, aggregate(items, CAST(0 AS DECIMAL(22,2)), (acc, x) -> acc + coalesce(x.qty * x.price, 0)) AS total FROM {df}

-- name: r2_nest_aggregate_lambda_cast_acc
-- inputs: df=nested
SELECT id, aggregate(items, CAST(0 AS DECIMAL(22,2)), (acc, x) -> CAST(acc + coalesce(x.qty * x.price, 0) AS DECIMAL(22,2))) AS total FROM {df}

-- name: r2_nest_sort_array_struct_null_fields
-- inputs: df=nested
SELECT id, sort_array(items) AS a, sort_array(items, false) AS d, array_sort(items) AS s FROM {df}

-- name: r2_nest_array_sort_comparator_strings
-- inputs: df=nested
SELECT id, array_sort(tags, (a, b) -> CASE WHEN a IS NULL AND b IS NULL THEN 0 WHEN a IS NULL THEN -1 WHEN b IS NULL THEN 1 WHEN lower(a) < lower(b) THEN -1 WHEN lower(a) > lower(b) THEN 1 ELSE 0 END) AS ci FROM {df}

-- name: r2_nest_array_sort_comparator_null_result
-- inputs: df=nested
SELECT id, array_sort(scores, (a, b) -> a - b) AS s FROM {df}

-- name: r2_nest_null_arrays_family
-- inputs: df=nested
SELECT id, flatten(array(tags, CAST(NULL AS ARRAY<STRING>))) AS f, concat(tags, CAST(NULL AS ARRAY<STRING>)) AS c, array_union(tags, CAST(NULL AS ARRAY<STRING>)) AS u, array_distinct(tags) AS d FROM {df}

-- name: r2_nest_null_elements_family
-- inputs: df=nested
SELECT id, array_union(scores, array(NULL, 1)) AS u, array_intersect(scores, array(NULL, 5)) AS i, array_except(scores, array(CAST(NULL AS INT))) AS e, array_remove(scores, 10) AS r FROM {df}

-- name: r2_nest_null_scalar_args
-- inputs: df=nested
SELECT id, array_repeat('x', CAST(NULL AS INT)) AS r, slice(scores, 1, CAST(NULL AS INT)) AS s, array_position(scores, CAST(NULL AS INT)) AS p, array_join(tags, CAST(NULL AS STRING)) AS j FROM {df}

-- name: r2_nest_aggregate_null_array
-- inputs: df=nested
SELECT id, aggregate(scores, 0, (acc, x) -> acc + coalesce(x, 0)) AS s, transform(scores, x -> x + 1) AS t, filter(scores, x -> x > 1) AS f, exists(scores, x -> x IS NULL) AS e FROM {df}

-- name: r2_nest_map_null_semantics
-- inputs: df=nested
SELECT id, map_keys(attrs) IS NULL AS k, map_concat(kv, CAST(NULL AS MAP<STRING, INT>)) AS c, element_at(kv, CAST(NULL AS STRING)) AS e FROM {df}

-- name: r2_nest_aggregate_captures_row
-- inputs: df=nested
SELECT id, aggregate(scores, 0L, (acc, x) -> acc + coalesce(x, 0) * id) AS w, aggregate(tags, '', (acc, t) -> concat(acc, coalesce(t, '?'), CAST(size(scores) AS STRING))) AS s, transform(scores, y -> aggregate(tags, 0, (a, t) -> a + y)) AS n FROM {df}
