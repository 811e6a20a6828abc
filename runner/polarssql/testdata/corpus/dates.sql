-- name: dt_extract_minute_second
-- inputs: df=events
SELECT id, EXTRACT(MINUTE FROM ts) AS mi, EXTRACT(SECOND FROM ts) AS s FROM {df}

-- name: dt_extract_date_dow
-- inputs: df=events
SELECT id, EXTRACT(DOW FROM d) AS w, EXTRACT(YEAR FROM d) AS y FROM {df}

-- name: dt_extract_utc_day
-- inputs: df=events
SELECT id, EXTRACT(DAY FROM ts_utc) AS dd, EXTRACT(MONTH FROM ts_utc) AS m FROM {df}

-- name: dt_extract_unaliased
-- inputs: df=events
SELECT id, EXTRACT(YEAR FROM ts) FROM {df}

-- name: dt_extract_quarter
-- inputs: df=events
SELECT id, EXTRACT(QUARTER FROM ts) AS q FROM {df}

-- name: dt_epoch_utc
-- inputs: df=events
SELECT id, EXTRACT(EPOCH FROM ts_utc) AS e FROM {df}

-- name: dt_date_part_month
-- inputs: df=events
SELECT id, DATE_PART('month', d) AS m FROM {df}

-- name: dt_strftime_datetime
-- inputs: df=events
SELECT id, STRFTIME(ts, '%d/%m/%Y %H:%M:%S') AS f FROM {df}

-- name: dt_strftime_date
-- inputs: df=events
SELECT id, STRFTIME(d, 'day %d') AS f FROM {df}

-- name: dt_ts_literal_time
-- inputs: df=events
SELECT id FROM {df} WHERE ts < '2024-02-29 12:00:00'

-- name: dt_date_string_cmp
-- inputs: df=events
SELECT id FROM {df} WHERE d = '2024-02-29'

-- name: dt_literal_left
-- inputs: df=events
SELECT id FROM {df} WHERE '2000-01-01' > d

-- name: dt_max_date_group
-- inputs: df=orders
SELECT customer_id, MAX(ship_date) AS last_ship FROM {df} GROUP BY customer_id
