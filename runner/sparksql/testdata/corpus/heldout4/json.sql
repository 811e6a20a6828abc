-- Round 4 (held out): `[*]` paths, from_json/to_json options and `:` on
-- strings, written before their translation.

-- name: h4_jpath_lines_sku
-- inputs: df=feed
SELECT id, get_json_object(j, '$.order.lines[*].sku') AS skus FROM {df}

-- name: h4_jpath_lines_price
-- inputs: df=feed
SELECT id, get_json_object(j, '$.order.lines[*].p') AS prices FROM {df}

-- name: h4_jpath_root_array
-- inputs: df=feed
SELECT id, get_json_object(j, '$[*].sku') AS s FROM {df} WHERE id = 5

-- name: h4_jpath_nested_index
-- inputs: df=feed
SELECT id, get_json_object(j, '$.a.b.c[1][*]') AS c FROM {df} WHERE id = 7

-- name: h4_jpath_tags_all
-- inputs: df=feed
SELECT id, get_json_object(j, '$.tags[*]') AS t FROM {df}

-- name: h4_jopt_from_json_failfast_ok
-- inputs: df=feed
SELECT id, from_json(j, 'order STRUCT<id: INT>', map('mode', 'FAILFAST')).order.id AS oid FROM {df} WHERE id IN (1, 2, 3)

-- name: h4_jopt_from_json_permissive_corrupt
-- inputs: df=jdocs
SELECT id, from_json(doc, 'id INT, _corrupt_record STRING', map('columnNameOfCorruptRecord', '_corrupt_record')) AS j FROM {df} WHERE id IN (1, 5)

-- name: h4_jopt_from_json_ts_format_column
-- inputs: df=landing
SELECT rec_id, from_json(concat('{"t":"', event_date, '"}'), 't DATE', map('dateFormat', 'MM/dd/yyyy')) AS j FROM {df} WHERE rec_id = '02'

-- name: h4_jopt_to_json_pretty
-- inputs: df=fx
SELECT currency, to_json(named_struct('c', currency, 'r', rate), map('pretty', 'true')) AS j FROM {df} WHERE currency = 'EUR'

-- name: h4_jopt_to_json_null_fields
-- inputs: df=history
SELECT id, seq, to_json(named_struct('s', status, 'a', amount), map('ignoreNullFields', 'true')) AS j FROM {df} WHERE id = 2

-- name: h4_jopt_from_json_allow_comments
-- inputs: df=clicks
SELECT DISTINCT from_json('{"a": 1 /* c */}', 'a INT', map('allowComments', 'true')) AS j FROM {df}

-- name: h4_colon_string_path
-- inputs: df=feed
SELECT id, j:order.id AS oid FROM {df}

-- name: h4_colon_bracket_path
-- inputs: df=jdocs
SELECT id, doc:['name'] AS n FROM {df}

-- name: h4_colon_in_where
-- inputs: df=feed
SELECT id FROM {df} WHERE j:k = 'v'
