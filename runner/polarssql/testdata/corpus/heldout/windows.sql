-- name: h_win_sum_partition
-- inputs: df=orders
SELECT order_id, SUM(amount) OVER (PARTITION BY customer_id) AS cust_total FROM {df}

-- name: h_win_row_number
-- inputs: df=orders
SELECT order_id, ROW_NUMBER() OVER (PARTITION BY customer_id ORDER BY ordered_at) AS rn FROM {df}

-- name: h_win_cumsum
-- inputs: df=orders
SELECT order_id, SUM(qty) OVER (PARTITION BY customer_id ORDER BY order_id) AS running FROM {df}

-- name: h_win_count
-- inputs: df=orders
SELECT order_id, COUNT(*) OVER (PARTITION BY status) AS n FROM {df}

-- name: h_win_rank
-- inputs: df=orders
SELECT order_id, RANK() OVER (ORDER BY amount DESC) AS r FROM {df}

-- name: h_win_lag
-- inputs: df=orders
SELECT order_id, LAG(amount) OVER (PARTITION BY customer_id ORDER BY order_id) AS prev FROM {df}

-- name: h_win_max_whole
-- inputs: df=orders
SELECT order_id, MAX(amount) OVER () AS m FROM {df}

-- name: h_win_qualify
-- inputs: df=orders
SELECT order_id, customer_id FROM {df} QUALIFY ROW_NUMBER() OVER (PARTITION BY customer_id ORDER BY order_id DESC) = 1

-- name: h_win_avg_partition
-- inputs: df=orders
SELECT order_id, status, AVG(amount) OVER (PARTITION BY status) AS avg_status FROM {df}
