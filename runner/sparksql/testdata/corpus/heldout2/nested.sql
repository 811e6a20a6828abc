-- Round 2 held-out part: nested data. Written before the round-2 fixes;
-- its figures are reported apart.

-- name: h2_nest_items_count_qty
-- inputs: df=nested
SELECT id, aggregate(items, 0, (acc, x) -> acc + coalesce(x.qty, 0)) AS units FROM {df}

-- name: h2_nest_filter_struct_array
-- inputs: df=nested
SELECT id, filter(items, x -> x.price > 5) AS pricey FROM {df}

-- name: h2_nest_transform_to_struct
-- inputs: df=nested
SELECT id, transform(scores, x -> named_struct('v', x, 'big', x > 5)) AS s FROM {df}

-- name: h2_nest_array_insert_middle
-- inputs: df=nested
SELECT id, array_insert(tags, 2, 'new') AS t FROM {df}

-- name: h2_nest_array_prepend_null_elem
-- inputs: df=nested
SELECT id, array_prepend(tags, CAST(NULL AS STRING)) AS t FROM {df}

-- name: h2_nest_zip_with_unequal
-- inputs: df=nested
SELECT id, zip_with(scores, array(1, 2), (a, b) -> coalesce(a, 0) + coalesce(b, 0)) AS z FROM {df}

-- name: h2_nest_map_filter_values
-- inputs: df=nested
SELECT id, map_filter(attrs, (k, v) -> v IS NOT NULL) AS m FROM {df}

-- name: h2_nest_transform_values_concat
-- inputs: df=nested
SELECT id, transform_values(attrs, (k, v) -> concat(k, '=', v)) AS m FROM {df}

-- name: h2_nest_explode_map_outer
-- inputs: df=nested
SELECT id, k, v FROM {df} LATERAL VIEW OUTER explode(kv) t AS k, v

-- name: h2_nest_array_position_struct
-- inputs: df=nested
SELECT id, array_position(scores, 10) AS p, array_contains(scores, NULL) AS n FROM {df}

-- name: h2_nest_sort_array_nulls
-- inputs: df=nested
SELECT id, sort_array(scores) AS a, sort_array(scores, false) AS d, array_sort(scores) AS s FROM {df}

-- name: h2_nest_element_at_map_missing
-- inputs: df=nested
SELECT id, element_at(kv, 'zz') AS v FROM {df}

-- name: h2_nest_arrays_zip_three
-- inputs: df=nested
SELECT id, arrays_zip(tags, scores, transform(scores, x -> x * 2)) AS z FROM {df} WHERE id IN (1, 4, 6)
