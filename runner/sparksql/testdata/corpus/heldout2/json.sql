-- Round 2 held-out part: JSON. Written before the round-2 fixes; its
-- figures are reported apart.

-- name: h2_json_get_nested_array_field
-- inputs: df=landing
SELECT rec_id, get_json_object(payload, '$.items[0].sku') AS first_sku, get_json_object(payload, '$.tags[1]') AS t1 FROM {df}

-- name: h2_json_get_object_number_formats
-- inputs: df=jdocs
SELECT id, get_json_object(doc, '$.orders[0].total') AS t, get_json_object(doc, '$.address.zip') AS zip FROM {df}

-- name: h2_json_tuple_missing_key
-- inputs: df=landing
SELECT rec_id, j.amount, j.missing FROM {df} LATERAL VIEW json_tuple(payload, 'amount', 'missing') j AS amount, missing

-- name: h2_json_from_json_nested_struct
-- inputs: df=landing
SELECT rec_id, from_json(payload, 'device STRUCT<os: STRING, ver: STRING>').device AS device FROM {df}

-- name: h2_json_from_json_decimal
-- inputs: df=landing
SELECT rec_id, from_json(payload, 'amount DECIMAL(10,2)').amount AS amount FROM {df}

-- name: h2_json_from_json_array_of_arrays
-- inputs: df=jdocs
SELECT id, from_json(arr, 'ARRAY<ARRAY<INT>>') AS a FROM {df} WHERE id = 8

-- name: h2_json_to_json_nested
-- inputs: df=nested
SELECT id, to_json(named_struct('meta', meta, 'kv', kv)) AS j FROM {df}

-- name: h2_json_to_json_decimal_date
-- inputs: df=money
SELECT id, to_json(named_struct('amount', amount, 'd', DATE '2024-03-10')) AS j FROM {df}

-- name: h2_json_array_length_payload
-- inputs: df=landing
SELECT rec_id, json_array_length(get_json_object(payload, '$.items')) AS n FROM {df}

-- name: h2_json_object_keys_sorted
-- inputs: df=landing
SELECT rec_id, array_sort(json_object_keys(payload)) AS k FROM {df}

-- name: h2_json_schema_of_json_array
-- inputs: df=jdocs
SELECT schema_of_json('[{"a":1,"b":"x"}]') AS s FROM {df} WHERE id = 1

-- name: h2_json_get_object_missing_path
-- inputs: df=jdocs
SELECT id, get_json_object(doc, '$.nope.deeper') AS x, get_json_object(doc, 'bad path') AS y FROM {df}
