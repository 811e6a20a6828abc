-- Round 10 (development): named windows and RANGE frames.

-- name: r10_named_window_frame
-- inputs: df=clicks
SELECT user_id, ts, avg(ms) OVER w AS a FROM {df} WINDOW w AS (PARTITION BY user_id ORDER BY ts ROWS BETWEEN 1 PRECEDING AND CURRENT ROW)

-- name: r10_named_window_rank_and_agg
-- inputs: df=orders
SELECT order_id, channel, rank() OVER w AS r, sum(amount) OVER w AS s FROM {df} WINDOW w AS (PARTITION BY channel ORDER BY amount DESC)

-- name: r10_range_interval_day_ts
-- inputs: df=clicks
SELECT user_id, ts, count(*) OVER (ORDER BY ts RANGE BETWEEN INTERVAL 1 DAY PRECEDING AND CURRENT ROW) AS n FROM {df}

-- name: r10_range_unbounded_interval
-- inputs: df=clicks
SELECT user_id, ts, min(ms) OVER (PARTITION BY user_id ORDER BY ts RANGE BETWEEN UNBOUNDED PRECEDING AND INTERVAL '10' MINUTE PRECEDING) AS m FROM {df}

-- name: r10_range_desc_numeric
-- inputs: df=clicks
SELECT user_id, ms, sum(ms) OVER (ORDER BY ms DESC RANGE BETWEEN 50 PRECEDING AND CURRENT ROW) AS s FROM {df}

-- name: r10_range_date_interval_following
-- inputs: df=orders
SELECT order_id, ship_date, count(*) OVER (ORDER BY ship_date RANGE BETWEEN CURRENT ROW AND INTERVAL '3' DAY FOLLOWING) AS n FROM {df}
