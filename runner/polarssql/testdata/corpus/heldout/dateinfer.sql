-- Held out: written, and its expectations computed, before Polars SQL's
-- DATE(x) without a format (polars infers day-month-year or
-- year-month-day from the values) was translated.

-- name: h_di_iso
-- inputs: df=events
SELECT id, DATE(d_str) AS d FROM {df} WHERE id IN (1, 5, 6)

-- name: h_di_mixed_separators
-- inputs: df=stamps
SELECT id, DATE(REPLACE(eu, '/', '-')) AS d FROM {df}

-- name: h_di_eu
-- inputs: df=stamps
SELECT id, DATE(eu) AS d FROM {df}

-- name: h_di_bad
-- inputs: df=events
SELECT id, DATE(d_str) AS d FROM {df}

-- name: h_di_no_format
-- inputs: df=stamps
SELECT id, DATE(compact) AS d FROM {df}

-- name: h_di_unaliased
-- inputs: df=events
SELECT DATE(d_str) FROM {df} WHERE d_str LIKE '____-__-__'

-- name: h_di_timestamp_text
-- inputs: df=stamps
SELECT id, DATE(iso) AS d FROM {df}
