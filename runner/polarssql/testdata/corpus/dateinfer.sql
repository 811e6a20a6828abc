-- Polars SQL's DATE(x) without a format: the formats inferred from the
-- values.

-- name: di_dotted
-- inputs: df=stamps
SELECT id, DATE(REPLACE(eu, '/', '.')) AS d FROM {df}

-- name: di_grouped_key
-- inputs: df=events
SELECT d_str, COUNT(*) AS n FROM {df} WHERE id = 1 GROUP BY d_str

-- name: di_all_null
-- inputs: df=events
SELECT id, DATE(d_str) AS d FROM {df} WHERE id = 4
