-- Round 4 (development): max_by/min_by over rows tied on the key.

-- name: r4_agg_max_by_tie_same_value
-- inputs: df=history
SELECT id, max_by(op, ts) AS op_at_latest FROM {df} WHERE id IN (2, 4) GROUP BY id ORDER BY id

-- name: r4_agg_max_by_tie_breaker
-- inputs: df=history
SELECT id, max_by(status, struct(ts, seq)) AS latest, min_by(status, struct(ts, seq)) AS first FROM {df} GROUP BY id ORDER BY id

-- name: r4_agg_min_by_tie_differs
-- inputs: df=history
SELECT id, min_by(status, ts) AS first FROM {df} WHERE id = 2 GROUP BY id
