-- Round 11 (held out): from_json options and to_json of maps and arrays,
-- written before the round-11 code.

-- name: h11_from_json_permissive_opts
-- inputs: df=landing
SELECT rec_id, from_json(payload, 'device STRUCT<os: STRING, ver: STRING>, amount DOUBLE', map('mode', 'PERMISSIVE')) AS p FROM {df} ORDER BY rec_id

-- name: h11_from_json_failfast
-- inputs: df=landing
SELECT from_json('not json', 'a INT', map('mode', 'FAILFAST')) AS x

-- name: h11_from_json_date_formats
-- inputs: df=strs
SELECT from_json('{"d":"10/03/2024","t":"10/03/2024 08:05"}', 'd DATE, t TIMESTAMP', map('dateFormat', 'dd/MM/yyyy', 'timestampFormat', 'dd/MM/yyyy HH:mm')) AS x, from_json('{"a":01,"b":NaN}', 'a INT, b DOUBLE', map('allowNumericLeadingZeros', 'true', 'allowNonNumericNumbers', 'true')) AS y

-- name: h11_from_json_map_array
-- inputs: df=jdocs
SELECT id, from_json(arr, 'ARRAY<INT>') AS ints, from_json(doc, 'MAP<STRING, STRING>') AS m FROM {df} ORDER BY id

-- name: h11_to_json_maps_arrays
-- inputs: df=orders
SELECT order_id, to_json(attrs) AS a, to_json(tags) AS t, to_json(named_struct('id', order_id, 'tags', tags, 'attrs', attrs)) AS s FROM {df} ORDER BY order_id

-- name: h11_to_json_literals
-- inputs: df=orders
SELECT to_json(map('a', array(1, 2))) AS ma, to_json(array(map('k', 1), map('k', 2))) AS am, to_json(named_struct('a', CAST(NULL AS INT), 'b', 1)) AS nulls, to_json(map('a', CAST(NULL AS STRING))) AS mnull, to_json(array(CAST(NULL AS INT), 1)) AS anull, to_json(array(named_struct('x', 1.5D, 'y', 'q"'))) AS as_

-- name: h11_to_json_options
-- inputs: df=orders
SELECT order_id, to_json(named_struct('ts', ordered_at, 'd', ship_date), map('timestampFormat', 'yyyy/MM/dd HH:mm', 'dateFormat', 'dd.MM.yyyy')) AS j, to_json(named_struct('n', note), map('ignoreNullFields', 'false')) AS keepnull FROM {df} ORDER BY order_id
