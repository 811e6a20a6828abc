-- Round 3 (held out): json_tuple, JSON path wildcards and from_json /
-- to_json options, written before their translation.

-- name: h3_jt_lateral_view
-- inputs: df=jdocs
SELECT id, t.name, t.addr FROM {df} LATERAL VIEW json_tuple(doc, 'name', 'address') t AS name, addr

-- name: h3_jt_values_kinds
-- inputs: df=jdocs
SELECT id, t.* FROM {df} LATERAL VIEW json_tuple(doc, 'id', 'tags', 'active', 'score') t AS a, b, c, d

-- name: h3_jt_select_list
-- inputs: df=landing
SELECT json_tuple(payload, 'amount', 'note') FROM {df}

-- name: h3_jt_select_aliases
-- inputs: df=landing
SELECT json_tuple(payload, 'amount', 'tags') AS (amount, tags) FROM {df}

-- name: h3_jt_outer
-- inputs: df=jdocs
SELECT id, t.c0 FROM {df} LATERAL VIEW OUTER json_tuple(arr, 'a') t

-- name: h3_jt_non_string
-- inputs: df=jdocs
SELECT id, t.x FROM {df} LATERAL VIEW json_tuple(id, 'a') t AS x

-- name: h3_jpath_wildcard_fields
-- inputs: df=jdocs
SELECT id, get_json_object(doc, '$.orders[*].n') AS ns FROM {df}

-- name: h3_jpath_wildcard_elements
-- inputs: df=jdocs
SELECT id, get_json_object(arr, '$[*]') AS all_elems FROM {df}

-- name: h3_jpath_wildcard_objects
-- inputs: df=jdocs
SELECT id, get_json_object(arr, '$[*].a') AS a FROM {df}

-- name: h3_jpath_wildcard_landing
-- inputs: df=landing
SELECT rec_id, get_json_object(payload, '$.items[*].sku') AS skus, get_json_object(payload, '$.items[*].qty') AS qtys FROM {df}

-- name: h3_jopt_failfast
-- inputs: df=jdocs
SELECT id, from_json(doc, 'id INT, name STRING', map('mode', 'FAILFAST')) AS j FROM {df} WHERE id IN (1, 3)

-- name: h3_jopt_failfast_bad
-- inputs: df=jdocs
SELECT id, from_json(doc, 'id INT, name STRING', map('mode', 'FAILFAST')) AS j FROM {df}

-- name: h3_jopt_permissive_explicit
-- inputs: df=jdocs
SELECT id, from_json(doc, 'name STRING', map('mode', 'PERMISSIVE')) AS j FROM {df}

-- name: h3_jopt_date_format
-- inputs: df=strs
SELECT id, from_json(concat('{"d":"', coalesce(dt_str, ''), '"}'), 'd DATE', map('dateFormat', 'yyyy-MM-dd')) AS j FROM {df}

-- name: h3_jopt_timestamp_format
-- inputs: df=clicks
SELECT DISTINCT from_json('{"t":"10/03/2024 08:05"}', 't TIMESTAMP', map('timestampFormat', 'dd/MM/yyyy HH:mm')) AS j FROM {df}

-- name: h3_jopt_to_json_ts_format
-- inputs: df=clicks
SELECT user_id, to_json(named_struct('t', ts), map('timestampFormat', 'yyyy/MM/dd HH:mm')) AS j FROM {df}

-- name: h3_jopt_to_json_ignore_nulls
-- inputs: df=clicks
SELECT user_id, to_json(named_struct('ref', ref, 'ms', ms), map('ignoreNullFields', 'false')) AS j FROM {df}

-- name: h3_jopt_to_json_date_format
-- inputs: df=fx
SELECT currency, to_json(named_struct('d', rate_date), map('dateFormat', 'dd.MM.yyyy')) AS j FROM {df}

-- name: h3_jopt_unknown_option
-- inputs: df=jdocs
SELECT id, from_json(doc, 'name STRING', map('allowSingleQuotes', 'false')) AS j FROM {df}

-- name: h3_jopt_bad_mode
-- inputs: df=jdocs
SELECT id, from_json(doc, 'name STRING', map('mode', 'DROPMALFORMED')) AS j FROM {df}
