-- name: win_row_number_partition
-- inputs: df=orders
SELECT order_id, row_number() OVER (PARTITION BY channel ORDER BY amount DESC) AS rn FROM {df}

-- name: win_nulls_first_default
-- inputs: df=orders
SELECT order_id, row_number() OVER (ORDER BY discount, order_id) AS rn, row_number() OVER (ORDER BY discount DESC, order_id) AS rd FROM {df}

-- name: win_explicit_nulls
-- inputs: df=orders
SELECT order_id, rank() OVER (ORDER BY customer_id NULLS LAST) AS r FROM {df}

-- name: win_rank_ties
-- inputs: df=orders
SELECT order_id, rank() OVER (ORDER BY channel) AS r, dense_rank() OVER (ORDER BY channel) AS d, percent_rank() OVER (ORDER BY channel) AS p, cume_dist() OVER (ORDER BY channel) AS c FROM {df}

-- name: win_ntile
-- inputs: df=nums
SELECT id, ntile(3) OVER (ORDER BY id) AS t FROM {df}

-- name: win_lag_lead_defaults
-- inputs: df=nums
SELECT id, lag(i) OVER (ORDER BY id) AS a, lag(i, 2, -1) OVER (ORDER BY id) AS b, lead(d, 1) OVER (ORDER BY id) AS c, lead(t, 1, 0) OVER (ORDER BY id) AS e FROM {df}

-- name: win_running_sum_default_frame
-- inputs: df=nums
SELECT id, sum(i) OVER (ORDER BY id) AS s, count(*) OVER (ORDER BY t) AS c FROM {df}

-- name: win_partition_totals
-- inputs: df=orders
SELECT order_id, sum(amount) OVER (PARTITION BY channel) AS total, avg(quantity) OVER (PARTITION BY channel) AS aq, max(ordered_at) OVER (PARTITION BY customer_id) AS last_order FROM {df}

-- name: win_rows_frame
-- inputs: df=nums
SELECT id, sum(i) OVER (ORDER BY id ROWS BETWEEN 1 PRECEDING AND 1 FOLLOWING) AS s, max(d) OVER (ORDER BY id ROWS BETWEEN CURRENT ROW AND UNBOUNDED FOLLOWING) AS m, min(d) OVER (ORDER BY id ROWS 2 PRECEDING) AS n FROM {df}

-- name: win_range_frame_values
-- inputs: df=nums
SELECT id, count(*) OVER (ORDER BY t RANGE BETWEEN 2 PRECEDING AND 2 FOLLOWING) AS c FROM {df}

-- name: win_first_last_value
-- inputs: df=nums
SELECT id, first_value(i) OVER (ORDER BY id) AS f, last_value(i) OVER (ORDER BY id ROWS BETWEEN UNBOUNDED PRECEDING AND UNBOUNDED FOLLOWING) AS l, first_value(f) IGNORE NULLS OVER (ORDER BY id DESC) AS fi FROM {df}

-- name: win_nth_value
-- inputs: df=nums
SELECT id, nth_value(i, 2) OVER (ORDER BY id) AS n FROM {df}

-- name: win_decimal_sum_avg
-- inputs: df=orders
SELECT order_id, sum(amount) OVER (PARTITION BY channel ORDER BY order_id) AS s, avg(amount) OVER (PARTITION BY channel) AS a FROM {df}

-- name: win_named_window_refine
-- inputs: df=orders
SELECT order_id, row_number() OVER w AS rn, sum(quantity) OVER (w ROWS BETWEEN UNBOUNDED PRECEDING AND CURRENT ROW) AS q FROM {df} WINDOW w AS (PARTITION BY channel ORDER BY order_id)

-- name: win_qualify_dedupe
-- inputs: df=orders
SELECT order_id, channel FROM {df} QUALIFY rank() OVER (PARTITION BY channel ORDER BY amount DESC) = 1

-- name: win_over_aggregate
-- inputs: df=orders
SELECT channel, sum(amount) AS total, rank() OVER (ORDER BY sum(amount) DESC) AS r FROM {df} GROUP BY channel

-- name: win_without_order_ranking
-- inputs: df=orders
SELECT row_number() OVER (PARTITION BY channel) AS rn FROM {df}

-- name: win_in_where_rejected
-- inputs: df=orders
SELECT order_id FROM {df} WHERE row_number() OVER (ORDER BY order_id) = 1

-- name: win_names
-- inputs: df=orders
SELECT row_number() OVER (ORDER BY order_id), sum(quantity) OVER (PARTITION BY channel), sum(quantity) OVER (ORDER BY order_id), lag(quantity) OVER (ORDER BY order_id) FROM {df}

-- name: win_collect_list_running
-- inputs: df=nums
SELECT id, collect_list(t) OVER (ORDER BY id ROWS BETWEEN 2 PRECEDING AND CURRENT ROW) AS l FROM {df}

-- name: win_count_distinct_partition
-- inputs: df=orders
SELECT order_id, count(customer_id) OVER (PARTITION BY channel) AS n FROM {df}

-- name: win_filter_in_window
-- inputs: df=orders
SELECT order_id, sum(amount) FILTER (WHERE status = 'shipped') OVER (PARTITION BY channel) AS s FROM {df}
