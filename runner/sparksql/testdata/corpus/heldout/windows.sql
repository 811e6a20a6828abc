-- name: h_row_number_latest
-- inputs: df=orders
SELECT * FROM (SELECT order_id, customer_id, row_number() OVER (PARTITION BY customer_id ORDER BY ordered_at DESC) AS rn FROM {df}) WHERE rn = 1

-- name: h_dedupe_qualify
-- inputs: df=orders
SELECT order_id, customer_id FROM {df} QUALIFY row_number() OVER (PARTITION BY customer_id ORDER BY order_id) = 1

-- name: h_rank_dense_rank
-- inputs: df=orders
SELECT order_id, rank() OVER (ORDER BY amount DESC) AS r, dense_rank() OVER (PARTITION BY channel ORDER BY quantity) AS dr FROM {df}

-- name: h_running_total
-- inputs: df=orders
SELECT order_id, sum(amount) OVER (PARTITION BY customer_id ORDER BY ordered_at ROWS BETWEEN UNBOUNDED PRECEDING AND CURRENT ROW) AS running FROM {df}

-- name: h_lag_lead
-- inputs: df=orders
SELECT order_id, lag(amount) OVER (ORDER BY order_id) AS prev, lead(amount, 1, 0) OVER (ORDER BY order_id) AS next FROM {df}

-- name: h_moving_avg
-- inputs: df=events
SELECT event_id, avg(value) OVER (ORDER BY event_id ROWS BETWEEN 1 PRECEDING AND 1 FOLLOWING) AS ma FROM {df}

-- name: h_partition_count
-- inputs: df=orders
SELECT order_id, count(*) OVER (PARTITION BY status) AS same_status FROM {df}

-- name: h_first_last_value
-- inputs: df=orders
SELECT order_id, first_value(order_id) OVER (PARTITION BY channel ORDER BY order_id) AS f, last_value(order_id) OVER (PARTITION BY channel ORDER BY order_id ROWS BETWEEN UNBOUNDED PRECEDING AND UNBOUNDED FOLLOWING) AS l FROM {df}

-- name: h_ntile_percent_rank
-- inputs: df=nums
SELECT id, ntile(3) OVER (ORDER BY id) AS tile, percent_rank() OVER (ORDER BY id) AS pr, cume_dist() OVER (ORDER BY id) AS cd FROM {df}

-- name: h_window_null_order
-- inputs: df=orders
SELECT order_id, row_number() OVER (ORDER BY customer_id, order_id) AS rn FROM {df}

-- name: h_named_window
-- inputs: df=orders
SELECT order_id, sum(quantity) OVER w AS q, max(amount) OVER w AS m FROM {df} WINDOW w AS (PARTITION BY channel)

-- name: h_range_frame
-- inputs: df=nums
SELECT id, sum(i) OVER (ORDER BY id RANGE BETWEEN 1 PRECEDING AND CURRENT ROW) AS s FROM {df} WHERE id <> 4 AND id <> 8
