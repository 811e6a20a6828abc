-- name: h_dec_line_total
-- inputs: df=orders
SELECT order_id, price * qty AS total FROM {df}

-- name: h_dec_revenue
-- inputs: df=orders
SELECT SUM(price) AS revenue FROM {df}

-- name: h_dec_revenue_by_status
-- inputs: df=orders
SELECT status, SUM(price) AS revenue FROM {df} GROUP BY status ORDER BY status

-- name: h_dec_add_sub
-- inputs: df=texts
SELECT id, amt + 1 AS a, amt - amt AS z FROM {df}

-- name: h_dec_round
-- inputs: df=texts
SELECT id, ROUND(amt, 2) AS r FROM {df}

-- name: h_dec_to_double
-- inputs: df=texts
SELECT id, CAST(amt AS DOUBLE) AS x FROM {df}

-- name: h_dec_to_int
-- inputs: df=texts
SELECT id, CAST(amt AS INT) AS x FROM {df}

-- name: h_dec_compare
-- inputs: df=texts
SELECT id FROM {df} WHERE amt > 1

-- name: h_dec_times_float_lit
-- inputs: df=texts
SELECT id, amt * 0.5 AS half FROM {df}

-- name: h_dec_min_max
-- inputs: df=texts
SELECT MAX(amt) AS mx, MIN(amt) AS mn FROM {df}

-- name: h_dec_avg
-- inputs: df=orders
SELECT AVG(price) AS avg_price FROM {df}

-- name: h_dec_div
-- inputs: df=texts
SELECT id, amt / 4 AS q FROM {df}
