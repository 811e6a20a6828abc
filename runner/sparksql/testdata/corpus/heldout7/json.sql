-- Round 7 (held out): the JSON family's last refusals - wildcards in
-- get_json_object paths, `:` after a string, the from_json options
-- allowComments, allowUnquotedFieldNames, columnNameOfCorruptRecord and
-- pretty (and to_json's pretty), single-quoted JSON - written, and their
-- results computed by Spark 4.2, before their translation.

-- name: h7_jpath_lines_all_skus
-- inputs: df=feed
SELECT id, get_json_object(j, '$.order.lines[*].sku') AS skus FROM {df} ORDER BY id

-- name: h7_jpath_lines_all_prices
-- inputs: df=feed
SELECT id, get_json_object(j, '$.order.lines[*].p') AS p FROM {df} ORDER BY id

-- name: h7_jpath_lines_star
-- inputs: df=feed
SELECT id, get_json_object(j, '$.order.lines[*]') AS l FROM {df} ORDER BY id

-- name: h7_jpath_root_star_sku
-- inputs: df=feed
SELECT id, get_json_object(j, '$[*].sku') AS s FROM {df} ORDER BY id

-- name: h7_jpath_tags_star
-- inputs: df=feed
SELECT id, get_json_object(j, '$.tags[*]') AS t FROM {df} ORDER BY id

-- name: h7_jpath_nested_star_star
-- inputs: df=feed
SELECT id, get_json_object(j, '$.a.b.c[*][*]') AS c FROM {df} ORDER BY id

-- name: h7_jpath_nested_index_star
-- inputs: df=feed
SELECT id, get_json_object(j, '$.a.b.c[1][*]') AS c FROM {df} ORDER BY id

-- name: h7_jpath_landing_items_qty
-- inputs: df=landing
SELECT rec_id, get_json_object(payload, '$.items[*].qty') AS q, get_json_object(payload, '$.items[*].sku') AS s FROM {df} ORDER BY rec_id

-- name: h7_jpath_jdocs_orders_totals
-- inputs: df=jdocs
SELECT id, get_json_object(doc, '$.orders[*].total') AS t, get_json_object(doc, '$.orders[*].n') AS n FROM {df} ORDER BY id

-- name: h7_jpath_jdocs_arr_star
-- inputs: df=jdocs
SELECT id, get_json_object(arr, '$[*]') AS a, get_json_object(arr, '$[*].a') AS aa, get_json_object(arr, '$[*][*]') AS ss FROM {df} ORDER BY id

-- name: h7_jpath_star_single_string
-- inputs: df=clicks
SELECT DISTINCT get_json_object('{"a":["only"]}', '$.a[*]') AS one, get_json_object('{"a":["x","y"]}', '$.a[*]') AS two, get_json_object('{"a":[]}', '$.a[*]') AS none FROM {df}

-- name: h7_jpath_star_nulls
-- inputs: df=clicks
SELECT DISTINCT get_json_object('{"a":[null]}', '$.a[*]') AS n1, get_json_object('{"a":[1,null]}', '$.a[*]') AS n2, get_json_object('{"a":[{"b":null},{"b":2}]}', '$.a[*].b') AS n3, get_json_object('{"a":[{"b":null}]}', '$.a[*].b') AS n4 FROM {df}

-- name: h7_jpath_star_numbers_reprinted
-- inputs: df=clicks
SELECT DISTINCT get_json_object('{"a":[1.50, 2e3, -0.0, 10, 1E-2]}', '$.a[*]') AS a, get_json_object('[{"x":1.0},{"x":3}]', '$[*].x') AS x FROM {df}

-- name: h7_jpath_star_objects_kept
-- inputs: df=clicks
SELECT DISTINCT get_json_object('{"a":[{"k":"v", "n" : [1, 2]},{"k":"w"}]}', '$.a[*]') AS a, get_json_object('{"a":[{"k":"v"}]}', '$.a[*]') AS one FROM {df}

-- name: h7_jpath_star_deep_fields
-- inputs: df=clicks
SELECT DISTINCT get_json_object('{"o":[{"l":[{"s":"a"},{"s":"b"}]},{"l":[{"s":"c"}]}]}', '$.o[*].l[*].s') AS s, get_json_object('{"o":[{"l":[{"s":"a"}]},{"l":[]}]}', '$.o[*].l[*].s') AS s1 FROM {df}

-- name: h7_jpath_star_then_index
-- inputs: df=clicks
SELECT DISTINCT get_json_object('{"m":[[1,2],[3,4],[5]]}', '$.m[*][0]') AS first, get_json_object('{"m":[[1,2],[3,4],[5]]}', '$.m[*][1]') AS second, get_json_object('{"m":[[1,2]]}', '$.m[*][1]') AS only FROM {df}

-- name: h7_jpath_index_then_star_field
-- inputs: df=clicks
SELECT DISTINCT get_json_object('{"m":[{"v":[{"x":1},{"x":2}]}]}', '$.m[0].v[*].x') AS xs, get_json_object('{"m":[{"v":[{"x":1}]}]}', '$.m[0].v[*].x') AS x1, get_json_object('{"m":[[["a"]]]}', '$.m[0][*]') AS a FROM {df}

-- name: h7_jpath_triple_star
-- inputs: df=clicks
SELECT DISTINCT get_json_object('[[[1,2],[3]],[[4]]]', '$[*][*][*]') AS t, get_json_object('[[[1,2],[3]],[[4]]]', '$[*][*]') AS d FROM {df}

-- name: h7_jpath_star_mixed_kinds
-- inputs: df=clicks
SELECT DISTINCT get_json_object('{"a":[1,"two",true,null,{"x":1},[2]]}', '$.a[*]') AS a, get_json_object('{"a":[1,"two",{"x":1},{"x":"s"}]}', '$.a[*].x') AS x FROM {df}

-- name: h7_jpath_star_on_object_and_scalar
-- inputs: df=clicks
SELECT DISTINCT get_json_object('{"a":{"b":1}}', '$.a[*]') AS obj, get_json_object('{"a":5}', '$.a[*]') AS num, get_json_object('{"a":"s"}', '$.a[*]') AS str FROM {df}

-- name: h7_jpath_field_wildcards
-- inputs: df=clicks
SELECT DISTINCT get_json_object('{"a":1,"b":2}', '$.*') AS f1, get_json_object('{"a":{"x":1}}', '$.a.*') AS f2, get_json_object('{"a":[1]}', '$[\'*\']') AS f3, get_json_object('{"a":[{"x":1}]}', '$.a[*].*') AS f4 FROM {df}

-- name: h7_jpath_star_malformed_after
-- inputs: df=clicks
SELECT DISTINCT get_json_object('{"a":[1,2], "b": }', '$.a[*]') AS broken_after, get_json_object('{"a":[1,2]} trailing', '$.a[*]') AS trailing, get_json_object('{"a":[1,2,}', '$.a[*]') AS broken_in FROM {df}

-- name: h7_jpath_star_strings_escaped
-- inputs: df=clicks
SELECT DISTINCT get_json_object('{"a":["q\\"uote","tab\\there","\\u00e9"]}', '$.a[*]') AS a, get_json_object('{"a":["line\\nbreak"]}', '$.a[*]') AS b FROM {df}

-- name: h7_jpath_star_where_filter
-- inputs: df=feed
SELECT id FROM {df} WHERE get_json_object(j, '$.order.lines[*].sku') LIKE '[%' ORDER BY id

-- name: h7_jpath_star_cast_count
-- inputs: df=feed
SELECT id, size(from_json(get_json_object(j, '$.order.lines[*].q'), 'ARRAY<INT>')) AS n FROM {df} WHERE id IN (1, 4) ORDER BY id

-- name: h7_jpath_star_group
-- inputs: df=feed
SELECT grp, count(get_json_object(j, '$.order.lines[*].sku')) AS n FROM {df} GROUP BY grp ORDER BY grp

-- name: h7_jpath_bad_paths
-- inputs: df=clicks
SELECT DISTINCT get_json_object('{"a":[1,2]}', '$.a[*') AS unclosed, get_json_object('{"a":[1,2]}', '$.a[-1]') AS neg, get_json_object('{"a":[1,2]}', 'a[*]') AS noroot, get_json_object('{"a":[1,2]}', '$..a') AS dotdot FROM {df}

-- name: h7_jpath_single_quoted_doc
-- inputs: df=clicks
SELECT DISTINCT get_json_object('{\'a\':[\'x\',\'y\']}', '$.a[*]') AS a, get_json_object('{\'a\':\'v\'}', '$.a') AS v FROM {df}

-- name: h7_jpath_star_null_path
-- inputs: df=feed
SELECT id, get_json_object(j, CAST(NULL AS STRING)) AS n FROM {df} WHERE id = 1

-- name: h7_colon_path_string
-- inputs: df=feed
SELECT id, j:order.id AS oid FROM {df} ORDER BY id

-- name: h7_colon_path_bracket
-- inputs: df=feed
SELECT id, j:tags[0] AS t FROM {df} ORDER BY id

-- name: h7_jopt_allow_comments_true
-- inputs: df=clicks
SELECT DISTINCT from_json('{"a": 1 /* c */, "b": "x" // end\n}', 'a INT, b STRING', map('allowComments', 'true')) AS j FROM {df}

-- name: h7_jopt_allow_comments_default
-- inputs: df=clicks
SELECT DISTINCT from_json('{"a": 1 /* c */}', 'a INT') AS j FROM {df}

-- name: h7_jopt_allow_comments_hash
-- inputs: df=clicks
SELECT DISTINCT from_json('{"a": 1 # c\n}', 'a INT', map('allowComments', 'true')) AS j FROM {df}

-- name: h7_jopt_allow_comments_failfast
-- inputs: df=clicks
SELECT DISTINCT from_json('{"a": /* c */ 1}', 'a INT', map('mode', 'FAILFAST')) AS j FROM {df}

-- name: h7_jopt_allow_comments_column
-- inputs: df=jdocs
SELECT id, from_json(doc, 'id INT, name STRING', map('allowComments', 'true')) AS j FROM {df} ORDER BY id

-- name: h7_jopt_unquoted_names_true
-- inputs: df=clicks
SELECT DISTINCT from_json('{a: 1, b_2: "x", $c: true}', 'a INT, b_2 STRING, `$c` BOOLEAN', map('allowUnquotedFieldNames', 'true')) AS j FROM {df}

-- name: h7_jopt_unquoted_names_default
-- inputs: df=clicks
SELECT DISTINCT from_json('{a: 1}', 'a INT') AS j FROM {df}

-- name: h7_jopt_unquoted_names_failfast
-- inputs: df=clicks
SELECT DISTINCT from_json('{a: 1}', 'a INT', map('mode', 'FAILFAST')) AS j FROM {df}

-- name: h7_jopt_unquoted_names_nested
-- inputs: df=clicks
SELECT DISTINCT from_json('{o: {k: [1, 2]}, "q": 3}', 'o STRUCT<k: ARRAY<INT>>, q INT', map('allowUnquotedFieldNames', 'true')) AS j FROM {df}

-- name: h7_jopt_corrupt_record_permissive
-- inputs: df=jdocs
SELECT id, from_json(doc, 'id INT, name STRING, _corrupt_record STRING', map('columnNameOfCorruptRecord', '_corrupt_record')) AS j FROM {df} ORDER BY id

-- name: h7_jopt_corrupt_record_default_name
-- inputs: df=jdocs
SELECT id, from_json(doc, 'name STRING, _corrupt_record STRING') AS j FROM {df} ORDER BY id

-- name: h7_jopt_corrupt_record_custom
-- inputs: df=landing
SELECT rec_id, from_json(payload, 'amount STRING, bad STRING', map('columnNameOfCorruptRecord', 'bad')) AS j FROM {df} ORDER BY rec_id

-- name: h7_jopt_corrupt_record_not_in_schema
-- inputs: df=jdocs
SELECT id, from_json(doc, 'id INT', map('columnNameOfCorruptRecord', 'bad')) AS j FROM {df} ORDER BY id

-- name: h7_jopt_corrupt_record_wrong_type
-- inputs: df=jdocs
SELECT id, from_json(doc, 'id INT, bad INT', map('columnNameOfCorruptRecord', 'bad')) AS j FROM {df} ORDER BY id

-- name: h7_jopt_corrupt_record_failfast
-- inputs: df=jdocs
SELECT id, from_json(doc, 'id INT, bad STRING', map('columnNameOfCorruptRecord', 'bad', 'mode', 'FAILFAST')) AS j FROM {df} WHERE id IN (1, 2)

-- name: h7_jopt_corrupt_record_type_mismatch_row
-- inputs: df=clicks
SELECT DISTINCT from_json('{"a":"x","b":1}', 'a INT, b INT, c STRING', map('columnNameOfCorruptRecord', 'c')) AS j FROM {df}

-- name: h7_jopt_pretty_to_json
-- inputs: df=nested
SELECT id, to_json(named_struct('id', id, 'tags', tags, 'meta', meta), map('pretty', 'true')) AS j FROM {df} WHERE id IN (1, 2) ORDER BY id

-- name: h7_jopt_pretty_false
-- inputs: df=nested
SELECT id, to_json(named_struct('id', id, 'kv', kv), map('pretty', 'false')) AS j FROM {df} WHERE id = 1

-- name: h7_jopt_pretty_array_top
-- inputs: df=nested
SELECT id, to_json(items, map('pretty', 'true')) AS j FROM {df} WHERE id IN (1, 2, 4) ORDER BY id

-- name: h7_jopt_pretty_map_empty
-- inputs: df=nested
SELECT id, to_json(named_struct('a', attrs, 's', scores), map('pretty', 'true')) AS j FROM {df} WHERE id IN (2, 4) ORDER BY id

-- name: h7_jopt_pretty_from_json
-- inputs: df=jdocs
SELECT id, from_json(doc, 'id INT', map('pretty', 'true')) AS j FROM {df} WHERE id IN (1, 3) ORDER BY id

-- name: h7_jopt_single_quotes_default
-- inputs: df=clicks
SELECT DISTINCT from_json('{\'a\': 1, \'b\': \'x\'}', 'a INT, b STRING') AS j FROM {df}

-- name: h7_jopt_single_quotes_false
-- inputs: df=clicks
SELECT DISTINCT from_json('{\'a\': 1}', 'a INT', map('allowSingleQuotes', 'false')) AS j FROM {df}

-- name: h7_jopt_single_quotes_false_failfast
-- inputs: df=clicks
SELECT DISTINCT from_json('{\'a\': 1}', 'a INT', map('allowSingleQuotes', 'false', 'mode', 'FAILFAST')) AS j FROM {df}

-- name: h7_jopt_single_quotes_mixed
-- inputs: df=clicks
SELECT DISTINCT from_json('{"a": \'it"s\', \'b\': [\'p\', "q"]}', 'a STRING, b ARRAY<STRING>') AS j FROM {df}

-- name: h7_jopt_single_quotes_array_schema
-- inputs: df=clicks
SELECT DISTINCT from_json('[\'a\', \'b\']', 'ARRAY<STRING>') AS j, from_json('{\'k\': 1}', 'MAP<STRING, INT>') AS m FROM {df}

-- name: h7_jopt_single_quotes_failfast
-- inputs: df=clicks
SELECT DISTINCT from_json('{\'a\': \'x\'}', 'a STRING', map('mode', 'FAILFAST')) AS j FROM {df}
