-- Round 5 (held out): the predicates of shared sinks' `where`, source
-- filters, expectations and MERGE conditions over CSV string columns
-- (the BETWEEN symptom of issue 28 item 5), written before the code.

-- name: h5_pred_between_ints
-- inputs: df=csv5
-- mode: filter
client_id BETWEEN 2 AND 5

-- name: h5_pred_not_between
-- inputs: df=csv5
-- mode: filter
client_id NOT BETWEEN 2 AND 5

-- name: h5_pred_between_landing_error
-- inputs: df=landing
-- mode: filter
client_id BETWEEN 2 AND 5

-- name: h5_pred_eq_int
-- inputs: df=csv5
-- mode: filter
client_id = 5

-- name: h5_pred_eq_string
-- inputs: df=csv5
-- mode: filter
client_id = '5'

-- name: h5_pred_in_ints
-- inputs: df=csv5
-- mode: filter
client_id IN (1, 3, 10)

-- name: h5_pred_in_strings
-- inputs: df=csv5
-- mode: filter
client_id IN ('1', '05')

-- name: h5_pred_gt_decimal
-- inputs: df=csv5
-- mode: filter
amount > 10.5

-- name: h5_pred_ge_double
-- inputs: df=csv5
-- mode: filter
amount >= 1e1

-- name: h5_pred_between_decimals
-- inputs: df=csv5
-- mode: filter
amount BETWEEN 0.99 AND 12.345

-- name: h5_pred_string_order
-- inputs: df=csv5
-- mode: filter
amount > '7'

-- name: h5_pred_date_ge
-- inputs: df=csv5
-- mode: filter
event_date >= DATE'2024-03-01'

-- name: h5_pred_date_between
-- inputs: df=csv5
-- mode: filter
event_date BETWEEN DATE'2024-01-01' AND DATE'2024-02-29'

-- name: h5_pred_timestamp_lt
-- inputs: df=csv5
-- mode: filter
event_ts < TIMESTAMP'2024-03-01 08:00:00'

-- name: h5_pred_cast_boolean
-- inputs: df=csv5
-- mode: filter
CAST(flag AS BOOLEAN)

-- name: h5_pred_boolean_eq
-- inputs: df=csv5
-- mode: filter
flag = true

-- name: h5_pred_lower_in
-- inputs: df=csv5
-- mode: filter
lower(status) IN ('open', 'pending')

-- name: h5_pred_like_region
-- inputs: df=csv5
-- mode: filter
upper(region) LIKE 'E%'

-- name: h5_pred_expectation_amount_positive
-- inputs: df=csv5
-- mode: filter
amount > 0 AND qty IS NOT NULL

-- name: h5_pred_expectation_qty_range
-- inputs: df=csv5
-- mode: filter
qty BETWEEN 1 AND 10 OR qty IS NULL

-- name: h5_pred_merge_condition_closed
-- inputs: df=csv5
-- mode: filter
status = 'closed' OR status = 'CLOSED'

-- name: h5_pred_merge_condition_arith
-- inputs: df=csv5
-- mode: filter
amount * qty > 100

-- name: h5_pred_ownership_mod
-- inputs: df=csv5
-- mode: filter
client_id % 2 = 1

-- name: h5_pred_ownership_coalesce
-- inputs: df=csv5
-- mode: filter
coalesce(client_id, 0) < 3

-- name: h5_pred_ownership_try_cast
-- inputs: df=csv5
-- mode: filter
try_cast(client_id AS INT) BETWEEN 2 AND 5

-- name: h5_pred_ownership_not_boolean
-- inputs: df=csv5
-- mode: filter
client_id

-- name: h5_pred_ownership_null_safe
-- inputs: df=csv5
-- mode: filter
client_id <=> NULL
