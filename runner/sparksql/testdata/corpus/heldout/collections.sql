-- name: h_array_index
-- inputs: df=orders
SELECT order_id, tags[0] AS first_tag, element_at(tags, -1) AS last_tag FROM {df} WHERE size(tags) > 0

-- name: h_array_out_of_bounds
-- inputs: df=orders
SELECT order_id, tags[1] AS second_tag FROM {df}

-- name: h_array_contains
-- inputs: df=orders
SELECT order_id, array_contains(tags, 'promo') AS promo FROM {df}

-- name: h_explode_tags
-- inputs: df=orders
SELECT order_id, explode(tags) AS tag FROM {df}

-- name: h_lateral_view_outer
-- inputs: df=orders
SELECT order_id, tag FROM {df} LATERAL VIEW OUTER explode(tags) t AS tag

-- name: h_posexplode
-- inputs: df=orders
SELECT order_id, pos, tag FROM {df} LATERAL VIEW posexplode(tags) t AS pos, tag

-- name: h_array_funcs
-- inputs: df=orders
SELECT order_id, array_distinct(tags) AS d, array_sort(tags) AS s, array_join(tags, ';') AS j, array_max(tags) AS mx FROM {df}

-- name: h_transform_filter
-- inputs: df=orders
SELECT order_id, transform(tags, t -> upper(t)) AS up, filter(tags, t -> t LIKE 'p%') AS p FROM {df}

-- name: h_aggregate_lambda
-- inputs: df=events
SELECT event_id, aggregate(items, CAST(0 AS DECIMAL(10,2)), (acc, x) -> acc + x.price * x.qty) AS total FROM {df}

-- name: h_explode_structs
-- inputs: df=events
SELECT event_id, item.sku, item.qty FROM {df} LATERAL VIEW explode(items) t AS item

-- name: h_inline_items
-- inputs: df=events
SELECT event_id, inline(items) FROM {df}

-- name: h_map_access
-- inputs: df=orders
SELECT order_id, attrs['src'] AS src, element_at(attrs, 'coupon') AS coupon, map_keys(attrs) AS k FROM {df}

-- name: h_map_explode
-- inputs: df=events
SELECT event_id, key, value FROM {df} LATERAL VIEW explode(props) p AS key, value

-- name: h_struct_access
-- inputs: df=orders
SELECT order_id, address.city AS city, address.zip FROM {df}

-- name: h_struct_build
-- inputs: df=customers
SELECT customer_id, struct(name, country) AS info, named_struct('id', customer_id, 'tier', tier) AS t FROM {df}

-- name: h_collect_list_sorted
-- inputs: df=orders
SELECT customer_id, array_sort(collect_list(status)) AS statuses, sort_array(collect_set(channel)) AS channels FROM {df} GROUP BY customer_id

-- name: h_map_from_arrays
-- inputs: df=customers
SELECT customer_id, map_from_arrays(array('name', 'tier'), array(name, tier)) AS m FROM {df}

-- name: h_array_literal_ops
-- inputs: df=nums
SELECT id, array(i, l) AS a, slice(array(1, 2, 3, 4), 2, 2) AS s, array_position(array(7, -7, 0), i) AS p FROM {df}

-- name: h_exists_forall
-- inputs: df=events
SELECT event_id, exists(items, x -> x.qty > 1) AS any_multi, forall(items, x -> x.price IS NOT NULL) AS priced FROM {df}

-- name: h_get_json_object
-- inputs: df=events
SELECT event_id, get_json_object(payload, '$.page') AS page, get_json_object(payload, '$.ms') AS ms FROM {df}

-- name: h_from_json
-- inputs: df=events
SELECT event_id, from_json(payload, 'page STRING, ms INT') AS p FROM {df}

-- name: h_to_json
-- inputs: df=orders
SELECT order_id, to_json(address) AS j FROM {df}

-- name: h_size_of_null
-- inputs: df=orders
SELECT order_id, size(tags) AS n, cardinality(attrs) AS m FROM {df}

-- name: h_array_union_except
-- inputs: df=orders
SELECT order_id, array_union(tags, array('x')) AS u, array_except(tags, array('new')) AS e, arrays_overlap(tags, array('vip')) AS o FROM {df}
