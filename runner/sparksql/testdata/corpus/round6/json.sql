-- Round 6 (development): options of from_json and to_json.

-- name: r6_jopt_to_json_array_of_structs_nulls
-- inputs: df=nested
SELECT id, to_json(items, map('ignoreNullFields', 'false')) AS j FROM {df} ORDER BY id

-- name: r6_jopt_to_json_ignore_true
-- inputs: df=history
SELECT id, seq, to_json(named_struct('s', status), map('ignoreNullFields', 'TRUE')) AS j FROM {df} WHERE id = 2 ORDER BY seq

-- name: r6_jopt_from_json_failfast_not_json
-- inputs: df=jdocs
SELECT id, from_json(doc, 'name STRING', map('mode', 'FAILFAST')) AS j FROM {df} WHERE id = 5

-- name: r6_jopt_from_json_failfast_array_schema
-- inputs: df=jdocs
SELECT id, from_json(arr, 'ARRAY<INT>', map('mode', 'FAILFAST')) AS j FROM {df} WHERE id IN (1, 2)

-- name: r6_jopt_from_json_date_in_struct
-- inputs: df=clicks
SELECT DISTINCT from_json('{"o":{"d":"03/10/2024"},"ds":["03/11/2024"]}', 'o STRUCT<d: DATE>, ds ARRAY<DATE>', map('dateFormat', 'MM/dd/yyyy')) AS j FROM {df}

-- name: r6_jopt_from_json_ts_format_zone
-- inputs: df=clicks
-- conf: spark.sql.session.timeZone=Europe/Paris
SELECT DISTINCT CAST(from_json('{"t":"31.03.2024 02:30"}', 't TIMESTAMP', map('timestampFormat', 'dd.MM.yyyy HH:mm')).t AS STRING) AS s FROM {df}

-- name: r6_jopt_dropmalformed_null_input
-- inputs: df=jdocs
SELECT id, from_json(doc, 'name STRING', map('mode', 'DROPMALFORMED')) AS j FROM {df} WHERE id = 7
