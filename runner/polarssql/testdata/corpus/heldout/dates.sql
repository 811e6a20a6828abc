-- name: h_dt_extract
-- inputs: df=events
SELECT id, EXTRACT(YEAR FROM ts) AS y, EXTRACT(MONTH FROM ts) AS m, EXTRACT(DAY FROM d) AS dd FROM {df}

-- name: h_dt_date_part
-- inputs: df=events
SELECT id, DATE_PART('hour', ts) AS h FROM {df}

-- name: h_dt_dow
-- inputs: df=events
SELECT id, EXTRACT(DOW FROM d) AS dow, EXTRACT(ISODOW FROM d) AS idow FROM {df}

-- name: h_dt_trunc
-- inputs: df=events
SELECT id, DATE_TRUNC('month', ts) AS m FROM {df}

-- name: h_dt_strftime
-- inputs: df=events
SELECT id, STRFTIME(ts, '%Y/%m/%d') AS f FROM {df}

-- name: h_dt_strptime
-- inputs: df=events
SELECT id, STRPTIME(d_str, '%Y-%m-%d') AS p FROM {df} WHERE id IN (1, 5, 6)

-- name: h_dt_date_fn
-- inputs: df=events
SELECT id, DATE(d_str) AS p FROM {df} WHERE id IN (1, 5, 6)

-- name: h_dt_diff
-- inputs: df=orders
SELECT order_id, ship_date - CAST(ordered_at AS DATE) AS lag FROM {df}

-- name: h_dt_datediff
-- inputs: df=orders
SELECT order_id, DATEDIFF('day', CAST(ordered_at AS DATE), ship_date) AS days FROM {df}

-- name: h_dt_compare_literal
-- inputs: df=orders
SELECT order_id FROM {df} WHERE ordered_at >= '2024-01-15'

-- name: h_dt_date_literal
-- inputs: df=orders
SELECT order_id FROM {df} WHERE ship_date < DATE '2024-02-01'

-- name: h_dt_interval
-- inputs: df=events
SELECT id, ts + INTERVAL '1 day' AS next FROM {df}

-- name: h_dt_tz
-- inputs: df=events
SELECT id, EXTRACT(HOUR FROM ts_utc) AS h FROM {df}

-- name: h_dt_epoch
-- inputs: df=events
SELECT id, EXTRACT(EPOCH FROM ts) AS e FROM {df}
