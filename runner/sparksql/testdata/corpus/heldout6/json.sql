-- Round 6 (held out): options of from_json and to_json, written before
-- their translation.

-- name: h6_jopt_to_json_ts_date_formats
-- inputs: df=history
SELECT id, seq, to_json(named_struct('ts', ts, 'd', CAST(ts AS DATE)), map('timestampFormat', 'dd/MM/yyyy HH:mm:ss', 'dateFormat', 'yyyyMMdd')) AS j FROM {df} ORDER BY id, seq

-- name: h6_jopt_to_json_keep_nulls
-- inputs: df=history
SELECT id, seq, to_json(named_struct('status', status, 'amount', amount, 'by', updated_by), map('ignoreNullFields', 'false')) AS j FROM {df} ORDER BY id, seq

-- name: h6_jopt_to_json_nested_nulls
-- inputs: df=history
SELECT id, seq, to_json(named_struct('s', named_struct('status', status), 'tags', array(status, updated_by)), map('ignoreNullFields', 'false')) AS j FROM {df} WHERE id = 1 ORDER BY seq

-- name: h6_jopt_to_json_ts_zone_format
-- inputs: df=clicks
-- conf: spark.sql.session.timeZone=America/New_York
SELECT user_id, to_json(named_struct('t', ts), map('timestampFormat', 'yyyy-MM-dd HH:mm')) AS j FROM {df} ORDER BY user_id, j

-- name: h6_jopt_to_json_unknown_option
-- inputs: df=history
SELECT id, seq, to_json(named_struct('s', status), map('compression', 'gzip')) AS j FROM {df} ORDER BY id, seq

-- name: h6_jopt_from_json_permissive_mode
-- inputs: df=jdocs
SELECT id, from_json(doc, 'id INT, name STRING', map('mode', 'permissive')) AS j FROM {df}

-- name: h6_jopt_from_json_failfast_good
-- inputs: df=jdocs
SELECT id, from_json(doc, 'name STRING', map('mode', 'FAILFAST')) AS j FROM {df} WHERE id IN (1, 3, 8)

-- name: h6_jopt_from_json_failfast_type
-- inputs: df=jdocs
SELECT id, from_json(doc, 'id INT', map('mode', 'FAILFAST')) AS j FROM {df} WHERE id IN (1, 2)

-- name: h6_jopt_from_json_date_format
-- inputs: df=clicks
SELECT DISTINCT from_json('{"d":"10.03.2024","e":"2024-03-10"}', 'd DATE, e DATE', map('dateFormat', 'dd.MM.yyyy')) AS j FROM {df}

-- name: h6_jopt_from_json_ts_format
-- inputs: df=clicks
SELECT DISTINCT from_json('{"t":"2024/03/10 08:05:09","u":"2024-03-10 08:05:09"}', 't TIMESTAMP, u TIMESTAMP', map('timestampFormat', 'yyyy/MM/dd HH:mm:ss')) AS j FROM {df}

-- name: h6_jopt_from_json_bad_mode
-- inputs: df=jdocs
SELECT id, from_json(doc, 'name STRING', map('mode', 'LENIENT')) AS j FROM {df}

-- name: h6_jopt_from_json_options_column
-- inputs: df=jdocs
SELECT id, from_json(doc, 'name STRING', map('mode', arr)) AS j FROM {df}

-- name: h6_jopt_from_json_single_quotes_off
-- inputs: df=jdocs
SELECT id, from_json(doc, 'name STRING', map('allowSingleQuotes', 'false')) AS j FROM {df} WHERE id IN (1, 2, 3)
