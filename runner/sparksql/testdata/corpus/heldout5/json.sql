-- Round 5 (held out): get_json_object with `[*]` and nested paths,
-- from_json/to_json options, schema_of_json and json_tuple, written
-- before their translation.

-- name: h5_jpath_orders_totals
-- inputs: df=jdocs
SELECT id, get_json_object(doc, '$.orders[*].total') AS totals FROM {df}

-- name: h5_jpath_orders_first_n
-- inputs: df=jdocs
SELECT id, get_json_object(doc, '$.orders[0].n') AS n0, get_json_object(doc, '$.address.geo.lat') AS lat FROM {df}

-- name: h5_jpath_arr_star
-- inputs: df=jdocs
SELECT id, get_json_object(arr, '$[*]') AS a FROM {df}

-- name: h5_jpath_arr_star_field
-- inputs: df=jdocs
SELECT id, get_json_object(arr, '$[*].a') AS a FROM {df}

-- name: h5_jpath_items_star_sku
-- inputs: df=landing
SELECT rec_id, get_json_object(payload, '$.items[*].sku') AS skus, get_json_object(payload, '$.items[*].qty') AS qtys FROM {df}

-- name: h5_jpath_double_star
-- inputs: df=jdocs
SELECT id, get_json_object(arr, '$[*][*]') AS a FROM {df} WHERE id = 8

-- name: h5_jpath_bracket_key
-- inputs: df=landing
SELECT rec_id, get_json_object(payload, '$[\'device\'][\'os\']') AS os FROM {df}

-- name: h5_jpath_tags_index_star
-- inputs: df=feed
SELECT id, get_json_object(j, '$.tags[0]') AS t0, get_json_object(j, '$.order.lines[*]') AS lines FROM {df}

-- name: h5_jopt_allow_single_quotes
-- inputs: df=clicks
SELECT DISTINCT from_json('{\'a\': 1, \'b\': \'x\'}', 'a INT, b STRING') AS d, from_json('{\'a\': 1}', 'a INT', map('allowSingleQuotes', 'false')) AS f FROM {df}

-- name: h5_jopt_unquoted_names
-- inputs: df=clicks
SELECT DISTINCT from_json('{a: 1}', 'a INT', map('allowUnquotedFieldNames', 'true')) AS t, from_json('{a: 1}', 'a INT') AS d FROM {df}

-- name: h5_jopt_timestamp_format
-- inputs: df=clicks
SELECT DISTINCT from_json('{"t":"10/03/2024 08:05"}', 't TIMESTAMP', map('timestampFormat', 'dd/MM/yyyy HH:mm')) AS j FROM {df}

-- name: h5_jopt_timestamp_format_zone
-- inputs: df=clicks
-- conf: spark.sql.session.timeZone=Europe/Paris
SELECT DISTINCT CAST(from_json('{"t":"2024-03-31 02:30"}', 't TIMESTAMP', map('timestampFormat', 'yyyy-MM-dd HH:mm')).t AS STRING) AS s FROM {df}

-- name: h5_jopt_failfast_bad
-- inputs: df=jdocs
SELECT id, from_json(doc, 'id INT', map('mode', 'FAILFAST')) AS j FROM {df}

-- name: h5_jopt_dropmalformed
-- inputs: df=jdocs
SELECT id, from_json(doc, 'id INT', map('mode', 'DROPMALFORMED')) AS j FROM {df}

-- name: h5_jopt_to_json_timestamp_format
-- inputs: df=history
SELECT id, seq, to_json(named_struct('ts', ts), map('timestampFormat', 'yyyy/MM/dd HH:mm')) AS j FROM {df} WHERE id = 1

-- name: h5_jopt_to_json_date_format
-- inputs: df=fx
SELECT currency, to_json(named_struct('d', rate_date), map('dateFormat', 'dd.MM.yyyy')) AS j FROM {df} ORDER BY currency, j

-- name: h5_schema_of_json_object
-- inputs: df=clicks
SELECT DISTINCT schema_of_json('{"a": 1, "b": [1.5, 2], "c": {"d": "x", "e": null}, "f": true}') AS s FROM {df}

-- name: h5_schema_of_json_array
-- inputs: df=clicks
SELECT DISTINCT schema_of_json('[{"a": 1}, {"b": "x"}]') AS s, schema_of_json('[1, 2.5]') AS n FROM {df}

-- name: h5_schema_of_json_big_int
-- inputs: df=clicks
SELECT DISTINCT schema_of_json('{"n": 12345678901, "m": 123456789012345678901}') AS s FROM {df}

-- name: h5_schema_of_json_column
-- inputs: df=jdocs
SELECT id, schema_of_json(doc) AS s FROM {df} WHERE id = 1

-- name: h5_json_tuple_landing
-- inputs: df=landing
SELECT rec_id, json_tuple(payload, 'amount', 'device', 'tags') FROM {df}

-- name: h5_json_tuple_aliases
-- inputs: df=jdocs
SELECT id, json_tuple(doc, 'id', 'name', 'score') AS (k_id, k_name, k_score) FROM {df}

-- name: h5_json_tuple_lateral
-- inputs: df=feed
SELECT f.id, t.o, t.g FROM {df} f LATERAL VIEW json_tuple(f.j, 'order', 'tags') t AS o, g WHERE f.id < 5

-- name: h5_json_tuple_nested_call
-- inputs: df=feed
SELECT id, json_tuple(get_json_object(j, '$.order'), 'id', 'lines') FROM {df} WHERE id <= 4
