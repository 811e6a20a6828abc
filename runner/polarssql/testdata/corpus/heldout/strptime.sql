-- Held out: written, and its expectations computed, before Polars SQL's
-- STRPTIME, DATE(x, format) and TIMESTAMP(x, format) were translated
-- (chrono's format language, strict parsing).

-- name: h_strp_iso
-- inputs: df=stamps
SELECT id, STRPTIME(iso, '%Y-%m-%d %H:%M:%S') AS t FROM {df}

-- name: h_strp_eu_date
-- inputs: df=stamps
SELECT id, DATE(eu, '%d/%m/%Y') AS d FROM {df}

-- name: h_strp_frac
-- inputs: df=stamps
SELECT id, STRPTIME(frac, '%Y-%m-%dT%H:%M:%S%.f') AS t FROM {df}

-- name: h_strp_compact
-- inputs: df=stamps
SELECT id, DATE(compact, '%Y%m%d') AS d FROM {df}

-- name: h_strp_unaliased
-- inputs: df=stamps
SELECT STRPTIME(iso, '%Y-%m-%d %H:%M:%S') FROM {df}

-- name: h_strp_bad_value
-- inputs: df=events
SELECT id, STRPTIME(ts_str, '%Y-%m-%d %H:%M:%S') AS t FROM {df}

-- name: h_strp_date_bad
-- inputs: df=events
SELECT id, DATE(d_str, '%Y-%m-%d') AS d FROM {df}

-- name: h_strp_timestamp_fmt
-- inputs: df=stamps
SELECT id, TIMESTAMP(hm, '%Y-%m-%d %H:%M') AS t FROM {df}

-- name: h_strp_non_string
-- inputs: df=stamps
SELECT STRPTIME(id, '%Y') AS t FROM {df}

-- name: h_strp_one_arg
-- inputs: df=stamps
SELECT STRPTIME(iso) AS t FROM {df}

-- name: h_strp_roundtrip
-- inputs: df=stamps
SELECT id, STRFTIME(STRPTIME(iso, '%Y-%m-%d %H:%M:%S'), '%d.%m.%Y %H:%M') AS s FROM {df}

-- name: h_strp_short_year
-- inputs: df=stamps
SELECT id, DATE(short, '%d/%m/%y') AS d FROM {df}

-- name: h_strp_extract
-- inputs: df=stamps
SELECT id, EXTRACT(YEAR FROM DATE(eu, '%d/%m/%Y')) AS y, EXTRACT(HOUR FROM STRPTIME(hm, '%Y-%m-%d %H:%M')) AS h FROM {df}

-- name: h_strp_wrong_format
-- inputs: df=stamps
SELECT id, DATE(eu, '%Y-%m-%d') AS d FROM {df}

-- name: h_strp_where
-- inputs: df=stamps
SELECT id FROM {df} WHERE DATE(eu, '%d/%m/%Y') >= DATE('2024-01-01')
