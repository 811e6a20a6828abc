-- Round 5 (held out): array_insert, zip_with, transform_keys,
-- transform_values and map_filter, written before their translation.

-- name: h5_array_insert_front_back
-- inputs: df=nested
SELECT id, array_insert(scores, 1, 0) AS f, array_insert(scores, -1, 99) AS b FROM {df}

-- name: h5_array_insert_beyond
-- inputs: df=nested
SELECT id, array_insert(tags, 5, 'z') AS t FROM {df}

-- name: h5_array_insert_negative_beyond
-- inputs: df=nested
SELECT id, array_insert(scores, -5, 7) AS s FROM {df}

-- name: h5_array_insert_zero
-- inputs: df=nested
SELECT id, array_insert(scores, 0, 1) AS s FROM {df}

-- name: h5_array_insert_null_pos
-- inputs: df=nested
SELECT id, array_insert(scores, CAST(NULL AS INT), 1) AS s, array_insert(scores, 2, NULL) AS n FROM {df}

-- name: h5_zip_with_sum
-- inputs: df=nested
SELECT id, zip_with(scores, scores, (a, b) -> a * b) AS sq FROM {df}

-- name: h5_zip_with_unequal
-- inputs: df=nested
SELECT id, zip_with(tags, scores, (t, s) -> concat(t, ':', CAST(s AS STRING))) AS z FROM {df}

-- name: h5_zip_with_structs
-- inputs: df=nested
SELECT id, zip_with(items, tags, (i, t) -> named_struct('sku', i.sku, 'tag', t)) AS z FROM {df}

-- name: h5_transform_keys_upper
-- inputs: df=nested
SELECT id, transform_keys(attrs, (k, v) -> upper(k)) AS m FROM {df}

-- name: h5_transform_keys_duplicate
-- inputs: df=nested
SELECT id, transform_keys(kv, (k, v) -> 'same') AS m FROM {df}

-- name: h5_transform_values_add
-- inputs: df=nested
SELECT id, transform_values(kv, (k, v) -> v + length(k)) AS m FROM {df}

-- name: h5_map_filter_values
-- inputs: df=nested
SELECT id, map_filter(kv, (k, v) -> v > 1) AS m, map_filter(attrs, (k, v) -> k LIKE 's%') AS a FROM {df}

-- name: h5_map_filter_orders_attrs
-- inputs: df=orders
SELECT order_id, map_filter(attrs, (k, v) -> v <> 'web') AS m FROM {df}

-- name: h5_transform_keys_null_key
-- inputs: df=nested
SELECT id, transform_keys(kv, (k, v) -> CASE WHEN v > 100 THEN NULL ELSE k END) AS m FROM {df}
