-- Round 5 (held out): time windows with a slide longer than the
-- duration (gaps between windows), written before their translation.

-- name: h5_win_gap_counts
-- inputs: df=clicks
SELECT window.start, window.end, count(*) AS n FROM {df} GROUP BY window(ts, '10 minutes', '1 hour') ORDER BY 1

-- name: h5_win_gap_per_user
-- inputs: df=clicks
SELECT user_id, window.start AS ws, sum(ms) AS total FROM {df} GROUP BY user_id, window(ts, '30 minutes', '2 hours') ORDER BY user_id, ws

-- name: h5_win_gap_offset
-- inputs: df=clicks
SELECT window.start, count(*) AS n FROM {df} GROUP BY window(ts, '1 hour', '3 hours', '30 minutes') ORDER BY 1

-- name: h5_win_gap_feed
-- inputs: df=feed
SELECT grp, window.start AS ws, max(v) AS mx FROM {df} GROUP BY grp, window(t0, '2 hours', '1 day') ORDER BY grp, ws

-- name: h5_win_gap_having
-- inputs: df=clicks
SELECT window(ts, '15 minutes', '1 hour').start AS ws, count(*) AS n FROM {df} GROUP BY window(ts, '15 minutes', '1 hour') HAVING count(*) > 1 ORDER BY 1
