-- Round 4 (held out): sliding window() in GROUP BY, written before its
-- translation.

-- name: h4_win_sliding_counts
-- inputs: df=clicks
SELECT window.start, window.end, count(*) AS n FROM {df} GROUP BY window(ts, '1 hour', '30 minutes') ORDER BY 1

-- name: h4_win_sliding_per_user
-- inputs: df=clicks
SELECT user_id, window(ts, '2 hours', '1 hour').start AS ws, sum(ms) AS total FROM {df} GROUP BY user_id, window(ts, '2 hours', '1 hour') ORDER BY user_id, ws

-- name: h4_win_sliding_start_offset
-- inputs: df=clicks
SELECT window.start, count(*) AS n FROM {df} GROUP BY window(ts, '1 day', '12 hours', '6 hours') ORDER BY 1

-- name: h4_win_sliding_slide_equals
-- inputs: df=clicks
SELECT window.start, count(*) AS n FROM {df} GROUP BY window(ts, '30 minutes', '30 minutes') ORDER BY 1

-- name: h4_win_sliding_bad_slide
-- inputs: df=clicks
SELECT window.start, count(*) AS n FROM {df} GROUP BY window(ts, '30 minutes', '1 hour') ORDER BY 1

-- name: h4_win_sliding_feed
-- inputs: df=feed
SELECT grp, window.start AS ws, max(v) AS mx FROM {df} GROUP BY grp, window(t0, '1 day', '6 hours') ORDER BY grp, ws
