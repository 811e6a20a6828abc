-- Round 2: JSON in landing data, written before the round-2 fixes.

-- name: r2_json_get_object_scalar
-- inputs: df=jdocs
SELECT id, get_json_object(doc, '$.name') AS name, get_json_object(doc, '$.id') AS jid FROM {df}

-- name: r2_json_get_object_nested
-- inputs: df=jdocs
SELECT id, get_json_object(doc, '$.address.city') AS city, get_json_object(doc, '$.address.geo.lat') AS lat FROM {df}

-- name: r2_json_get_object_array_index
-- inputs: df=jdocs
SELECT id, get_json_object(doc, '$.tags[0]') AS t0, get_json_object(doc, '$.orders[1].total') AS t1 FROM {df}

-- name: r2_json_get_object_wildcard
-- inputs: df=jdocs
SELECT id, get_json_object(doc, '$.orders[*].total') AS totals, get_json_object(doc, '$.tags[*]') AS tags FROM {df}

-- name: r2_json_get_object_subtree
-- inputs: df=jdocs
SELECT id, get_json_object(doc, '$.address') AS addr, get_json_object(doc, '$') AS whole FROM {df} WHERE id IN (1, 3)

-- name: r2_json_get_object_bool_null
-- inputs: df=jdocs
SELECT id, get_json_object(doc, '$.active') AS active, get_json_object(doc, '$.score') AS score FROM {df}

-- name: r2_json_get_object_escaped
-- inputs: df=jdocs
SELECT id, get_json_object(doc, '$.name') AS name FROM {df} WHERE id = 2

-- name: r2_json_get_object_bracket_key
-- inputs: df=jdocs
SELECT id, get_json_object(doc, '$[\'address\'][\'city\']') AS city FROM {df}

-- name: r2_json_get_object_landing
-- inputs: df=landing
SELECT rec_id, get_json_object(payload, '$.device.os') AS os, CAST(get_json_object(payload, '$.amount') AS DOUBLE) AS amount FROM {df} WHERE rec_id <> '5'

-- name: r2_json_get_object_unicode_escape
-- inputs: df=landing
SELECT rec_id, get_json_object(payload, '$.note') AS note FROM {df} WHERE rec_id = '5'

-- name: r2_json_tuple
-- inputs: df=jdocs
SELECT id, j.name, j.active FROM {df} LATERAL VIEW json_tuple(doc, 'name', 'active') j AS name, active

-- name: r2_json_tuple_select
-- inputs: df=jdocs
SELECT json_tuple(doc, 'id', 'tags') FROM {df}

-- name: r2_json_from_json_struct
-- inputs: df=jdocs
SELECT id, from_json(doc, 'id INT, name STRING, active BOOLEAN') AS j FROM {df}

-- name: r2_json_from_json_fields
-- inputs: df=jdocs
SELECT id, from_json(doc, 'name STRING, address STRUCT<city: STRING, zip: STRING>').address.city AS city FROM {df}

-- name: r2_json_from_json_array_field
-- inputs: df=jdocs
SELECT id, from_json(doc, 'tags ARRAY<STRING>, orders ARRAY<STRUCT<n: INT, total: DOUBLE>>') AS j FROM {df}

-- name: r2_json_from_json_map
-- inputs: df=jdocs
SELECT id, from_json(get_json_object(doc, '$.extra'), 'MAP<STRING, STRING>') AS m FROM {df}

-- name: r2_json_from_json_array_top
-- inputs: df=jdocs
SELECT id, from_json(arr, 'ARRAY<INT>') AS a FROM {df}

-- name: r2_json_from_json_array_struct
-- inputs: df=jdocs
SELECT id, from_json(arr, 'ARRAY<STRUCT<a: INT, b: STRING>>') AS a FROM {df} WHERE id = 3

-- name: r2_json_from_json_types_coerce
-- inputs: df=jdocs
SELECT id, from_json(doc, 'id BIGINT, zip STRING') AS j FROM {df}

-- name: r2_json_from_json_timestamp
-- inputs: df=jdocs
SELECT id, from_json(doc, 'ts TIMESTAMP, d DATE') AS j FROM {df} WHERE id = 8

-- name: r2_json_from_json_ddl_schema_of
-- inputs: df=jdocs
SELECT id, from_json(doc, schema_of_json('{"id":1,"name":"x"}')) AS j FROM {df}

-- name: r2_json_from_json_failfast
-- inputs: df=jdocs
SELECT id, from_json(doc, 'id INT', map('mode', 'FAILFAST')) AS j FROM {df}

-- name: r2_json_from_json_explode
-- inputs: df=landing
SELECT rec_id, it.sku, it.qty FROM {df} LATERAL VIEW explode(from_json(payload, 'items ARRAY<STRUCT<sku: STRING, qty: INT>>').items) t AS it

-- name: r2_json_to_json_struct
-- inputs: df=orders
SELECT order_id, to_json(named_struct('id', order_id, 'amount', amount, 'tags', tags)) AS j FROM {df}

-- name: r2_json_to_json_map
-- inputs: df=orders
SELECT order_id, to_json(attrs) AS j FROM {df}

-- name: r2_json_to_json_nulls
-- inputs: df=orders
SELECT order_id, to_json(struct(note, ship_date, ordered_at)) AS j FROM {df}

-- name: r2_json_to_json_array
-- inputs: df=nested
SELECT id, to_json(items) AS j FROM {df}

-- name: r2_json_to_json_roundtrip
-- inputs: df=jdocs
SELECT id, to_json(from_json(doc, 'id INT, name STRING')) AS j FROM {df}

-- name: r2_json_schema_of_json
-- inputs: df=jdocs
SELECT schema_of_json('{"a":1,"b":[1.5],"c":{"d":"x"},"e":null}') AS s FROM {df} WHERE id = 1

-- name: r2_json_array_length
-- inputs: df=jdocs
SELECT id, json_array_length(arr) AS n FROM {df}

-- name: r2_json_object_keys
-- inputs: df=jdocs
SELECT id, json_object_keys(doc) AS k FROM {df}

-- name: r2_json_colon_path
-- inputs: df=jdocs
SELECT id, doc:name AS name, doc:address.city AS city FROM {df}

-- name: r2_json_parse_json_variant
-- inputs: df=jdocs
SELECT id, variant_get(parse_json(doc), '$.name', 'string') AS name FROM {df} WHERE id IN (1, 2, 4, 8)

-- name: r2_json_try_parse_json
-- inputs: df=jdocs
SELECT id, try_parse_json(doc) IS NULL AS bad FROM {df}

-- name: r2_json_to_json_options
-- inputs: df=orders
SELECT order_id, to_json(named_struct('t', ordered_at), map('timestampFormat', 'yyyy/MM/dd')) AS j FROM {df}

-- name: r2_json_get_object_filter
-- inputs: df=landing
SELECT rec_id FROM {df} WHERE get_json_object(payload, '$.device.os') = 'ios'

-- name: r2_json_count_by_path
-- inputs: df=landing
SELECT get_json_object(payload, '$.device.os') AS os, count(*) AS n FROM {df} GROUP BY get_json_object(payload, '$.device.os')

-- name: r2_json_invalid_schema
-- inputs: df=jdocs
SELECT from_json(doc, 'id INTT') AS j FROM {df}
