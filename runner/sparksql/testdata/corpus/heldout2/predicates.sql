-- Round 2 held-out part: predicates and column expressions. Written
-- before the round-2 fixes; its figures are reported apart.

-- name: h2_pred_where_between_dates
-- mode: filter
-- inputs: df=orders
ship_date BETWEEN '2024-01-01' AND '2024-03-31'

-- name: h2_pred_where_string_id_range
-- mode: filter
-- inputs: df=strs
num_str BETWEEN 1 AND 20

-- name: h2_pred_where_lower_in
-- mode: filter
-- inputs: df=orders
lower(status) IN ('shipped', 'returned')

-- name: h2_pred_where_not_like_any
-- mode: filter
-- inputs: df=orders
status NOT LIKE ANY ('ship%', 'pend%')

-- name: h2_pred_where_coalesce
-- mode: filter
-- inputs: df=orders
coalesce(channel, 'unknown') <> 'web'

-- name: h2_pred_expectation_json_valid
-- mode: expr
-- inputs: df=jdocs
get_json_object(doc, '$.id') IS NOT NULL

-- name: h2_pred_with_column_bround
-- mode: expr
-- inputs: df=money
bround(amount * rate, 2)

-- name: h2_pred_with_column_date_parse
-- mode: expr
-- inputs: df=landing
try_to_date(event_date, 'yyyy-MM-dd')

-- name: h2_pred_filter_timestamp_window
-- mode: filter
-- inputs: df=clicks
ts >= TIMESTAMP '2024-03-10 08:30:00' AND ts < TIMESTAMP '2024-03-11 00:00:00'

-- name: h2_pred_filter_string_int_eq
-- mode: filter
-- inputs: df=bad
s = 12
