-- Round 4 (development): sliding window() in GROUP BY.

-- name: r4_win_sliding_not_multiple
-- inputs: df=clicks
SELECT window.start, window.end, count(*) AS n, sum(ms) AS ms FROM {df} WHERE page <> 'cart' GROUP BY window(ts, '1 hour', '25 minutes') ORDER BY 1

-- name: r4_win_sliding_having
-- inputs: df=clicks
SELECT user_id, window.start AS ws, count(*) AS n FROM {df} GROUP BY user_id, window(ts, '90 minutes', '30 minutes', '10 minutes') HAVING count(*) > 1 ORDER BY user_id, ws

-- name: r4_win_sliding_null_ts
-- inputs: df=history
SELECT window.start, count(*) AS n FROM {df} GROUP BY window(ts, '2 days', '1 day') ORDER BY 1
