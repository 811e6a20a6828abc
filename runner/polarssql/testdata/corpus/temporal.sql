-- MIN and MAX of datetimes; EXTRACT and DATE_PART fields of dates and
-- datetimes (Polars SQL's dtypes: Int8, Int16, Int32, Float64).

-- name: tm_min_utc_window
-- inputs: df=events
SELECT id, MIN(ts_utc) OVER (PARTITION BY d_str) AS m FROM {df}

-- name: tm_nanos_isoweek
-- inputs: df=events
SELECT id, EXTRACT(NANOSECOND FROM ts) AS ns, EXTRACT(ISOWEEK FROM ts_utc) AS w, DATE_PART('doy', d) AS doy FROM {df}

-- name: tm_texts_fields
-- inputs: df=texts
SELECT id, EXTRACT(QUARTER FROM ts) AS q, EXTRACT(MILLISECONDS FROM ts) AS ms, EXTRACT(DAYOFYEAR FROM d) AS doy, EXTRACT(DECADE FROM ts) AS dec FROM {df}

-- name: tm_max_texts
-- inputs: df=texts
SELECT MAX(ts) AS a, MIN(ts) AS b, MAX(d) AS c FROM {df}
