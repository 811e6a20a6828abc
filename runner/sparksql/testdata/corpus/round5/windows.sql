-- Round 5 (development): time windows whose slide is longer than the
-- duration fail as in Spark (the call's type check, or the column
-- `window` it does not make).

-- name: r5_win_gap_no_window_ref
-- inputs: df=clicks
SELECT user_id, count(*) AS n FROM {df} GROUP BY user_id, window(ts, '10 minutes', '20 minutes')

-- name: r5_win_gap_other_unresolved
-- inputs: df=clicks
SELECT nope, count(*) AS n FROM {df} GROUP BY window(ts, '1 minute', '2 minutes')

-- name: r5_win_gap_call_end
-- inputs: df=clicks
SELECT window(ts, '5 minutes', '1 hour').end AS we FROM {df} GROUP BY window(ts, '5 minutes', '1 hour')

-- name: r5_win_gap_in_subquery
-- inputs: df=clicks
SELECT count(*) AS n FROM (SELECT window.start AS ws FROM {df} GROUP BY window(ts, '10 minutes', '1 hour'))
