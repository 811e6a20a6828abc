-- Held out: written, and its expectations computed, before MIN and MAX of
-- datetimes and the EXTRACT fields QUARTER, WEEK, DOY, ISOYEAR, DECADE,
-- CENTURY, MILLENNIUM, MILLISECOND, MICROSECOND were translated.

-- name: h_tm_max_ts
-- inputs: df=events
SELECT MAX(ts) AS last_ts, MIN(ts) AS first_ts, MAX(ts_utc) AS last_utc FROM {df}

-- name: h_tm_max_group
-- inputs: df=orders
SELECT status, MAX(ordered_at) AS last_order, MIN(ordered_at) AS first_order FROM {df} GROUP BY status

-- name: h_tm_max_window
-- inputs: df=orders
SELECT order_id, MAX(ordered_at) OVER (PARTITION BY customer_id) AS last_order FROM {df}

-- name: h_tm_max_unaliased
-- inputs: df=events
SELECT MIN(ts_utc) FROM {df}

-- name: h_tm_quarter
-- inputs: df=events
SELECT id, EXTRACT(QUARTER FROM ts) AS q, EXTRACT(QUARTER FROM d) AS qd, DATE_PART('quarter', ts_utc) AS qu FROM {df}

-- name: h_tm_week_doy
-- inputs: df=events
SELECT id, EXTRACT(WEEK FROM d) AS w, EXTRACT(DOY FROM ts) AS doy, EXTRACT(ISOYEAR FROM d) AS iy FROM {df}

-- name: h_tm_century
-- inputs: df=events
SELECT id, EXTRACT(DECADE FROM d) AS dec, EXTRACT(CENTURY FROM ts) AS c, EXTRACT(MILLENNIUM FROM d) AS m FROM {df}

-- name: h_tm_subsecond
-- inputs: df=events
SELECT id, EXTRACT(MILLISECOND FROM ts) AS ms, EXTRACT(MICROSECOND FROM ts_utc) AS us FROM {df}

-- name: h_tm_ms_date
-- inputs: df=events
SELECT EXTRACT(MILLISECOND FROM d) AS ms FROM {df}

-- name: h_tm_orders_quarter
-- inputs: df=orders
SELECT EXTRACT(QUARTER FROM ordered_at) AS q, COUNT(*) AS n FROM {df} GROUP BY EXTRACT(QUARTER FROM ordered_at)

-- name: h_tm_max_date_group
-- inputs: df=orders
SELECT customer_id, MAX(ship_date) AS last_ship, MAX(ordered_at) AS last_order FROM {df} GROUP BY customer_id
