-- Round 3 (held out): window() tumbling (and sliding) time windows in
-- GROUP BY, written before their translation.

-- name: h3_tw_hourly_counts
-- inputs: df=clicks
SELECT window.start AS s, window.end AS e, count(*) AS n FROM {df} GROUP BY window(ts, '1 hour') ORDER BY s

-- name: h3_tw_per_user_10m
-- inputs: df=clicks
SELECT user_id, window.start AS s, sum(ms) AS total FROM {df} GROUP BY user_id, window(ts, '10 minutes') ORDER BY user_id, s

-- name: h3_tw_alias_struct
-- inputs: df=clicks
SELECT window(ts, '1 day') AS w, count(*) AS n FROM {df} GROUP BY window(ts, '1 day')

-- name: h3_tw_start_offset
-- inputs: df=clicks
SELECT window.start AS s, count(*) AS n FROM {df} GROUP BY window(ts, '1 hour', '1 hour', '15 minutes') ORDER BY s

-- name: h3_tw_interval_literal
-- inputs: df=clicks
SELECT window.start AS s, count(*) AS n FROM {df} GROUP BY window(ts, INTERVAL 30 MINUTES) ORDER BY s

-- name: h3_tw_session_zone
-- inputs: df=clicks
-- conf: spark.sql.session.timeZone=America/New_York
SELECT window.start AS s, count(*) AS n FROM {df} GROUP BY window(ts, '1 day') ORDER BY s

-- name: h3_tw_sliding
-- inputs: df=clicks
SELECT window.start AS s, count(*) AS n FROM {df} GROUP BY window(ts, '1 hour', '30 minutes') ORDER BY s

-- name: h3_tw_ntz
-- inputs: df=events
SELECT window.start AS s, count(*) AS n FROM {df} GROUP BY window(ts_ntz, '1 day') ORDER BY s

-- name: h3_tw_bad_duration
-- inputs: df=clicks
SELECT window.start AS s, count(*) AS n FROM {df} GROUP BY window(ts, '1 fortnight')

-- name: h3_tw_string_column
-- inputs: df=events
SELECT window.start AS s, count(*) AS n FROM {df} GROUP BY window(ts_str, '1 hour')

-- name: h3_tw_having
-- inputs: df=clicks
SELECT window.end AS e, max(ms) AS m FROM {df} GROUP BY window(ts, '2 hours') HAVING count(*) > 1 ORDER BY e
