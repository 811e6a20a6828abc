-- Round 2: predicates and column expressions as writers' `where`,
-- source filters, expectations and with_columns give them (modes filter
-- and expr), written before the round-2 fixes.

-- name: r2_pred_where_writer_string_eq
-- mode: filter
-- inputs: df=orders
channel = 'web'

-- name: r2_pred_where_writer_in
-- mode: filter
-- inputs: df=orders
channel IN ('web', 'app')

-- name: r2_pred_where_string_between_ints
-- mode: filter
-- inputs: df=strs
id BETWEEN 2 AND 5 AND num_str BETWEEN 0 AND 10

-- name: r2_pred_where_int_string_literal
-- mode: filter
-- inputs: df=orders
customer_id = '1'

-- name: r2_pred_where_string_col_int_literal
-- mode: filter
-- inputs: df=landing
rec_id = 1

-- name: r2_pred_where_string_col_between_clean
-- mode: filter
-- inputs: df=nums
str_num BETWEEN 0 AND 50

-- name: r2_pred_filter_date_string
-- mode: filter
-- inputs: df=orders
ship_date >= '2024-03-01'

-- name: r2_pred_filter_timestamp_string
-- mode: filter
-- inputs: df=orders
ordered_at < '2024-02-01'

-- name: r2_pred_filter_date_literal_cast
-- mode: filter
-- inputs: df=orders
CAST(ordered_at AS DATE) = DATE '2024-01-14'

-- name: r2_pred_filter_not_null_and
-- mode: filter
-- inputs: df=orders
customer_id IS NOT NULL AND amount > 0

-- name: r2_pred_filter_like
-- mode: filter
-- inputs: df=customers
email LIKE '%@example.com'

-- name: r2_pred_filter_rlike
-- mode: filter
-- inputs: df=customers
email RLIKE '(?i)example\\.com$'

-- name: r2_pred_filter_array_contains
-- mode: filter
-- inputs: df=orders
array_contains(tags, 'promo')

-- name: r2_pred_filter_map_key
-- mode: filter
-- inputs: df=orders
attrs['src'] = 'web'

-- name: r2_pred_filter_struct_field
-- mode: filter
-- inputs: df=orders
address.city = 'Paris'

-- name: r2_pred_filter_decimal_compare
-- mode: filter
-- inputs: df=money
amount > 0.1

-- name: r2_pred_filter_boolean_col
-- mode: filter
-- inputs: df=customers
is_active

-- name: r2_pred_filter_not_boolean_col
-- mode: filter
-- inputs: df=customers
NOT is_active

-- name: r2_pred_filter_not_like_all
-- mode: filter
-- inputs: df=customers
name NOT LIKE ALL ('A%', 'b%')

-- name: r2_pred_filter_in_null
-- mode: filter
-- inputs: df=customers
referrer_id NOT IN (1, 2)

-- name: r2_pred_filter_non_boolean
-- mode: filter
-- inputs: df=customers
score

-- name: r2_pred_filter_unknown_column
-- mode: filter
-- inputs: df=customers
countr = 'FR'

-- name: r2_pred_expectation_amount_positive
-- mode: expr
-- inputs: df=orders
amount > 0

-- name: r2_pred_expectation_email_valid
-- mode: expr
-- inputs: df=customers
email IS NOT NULL AND email RLIKE '^[^@]+@[^@]+$'

-- name: r2_pred_expectation_date_range
-- mode: expr
-- inputs: df=customers
signup_date BETWEEN DATE '2021-01-01' AND current_date()

-- name: r2_pred_with_column_clean_amount
-- mode: expr
-- inputs: df=landing
try_cast(regexp_replace(amount, '[^0-9.-]', '') AS DECIMAL(12,2))

-- name: r2_pred_with_column_ts_parse
-- mode: expr
-- inputs: df=landing
coalesce(try_to_timestamp(event_time, 'yyyy-MM-dd HH:mm:ss'), try_to_timestamp(event_time, "yyyy-MM-dd'T'HH:mm:ss.SSSX"))

-- name: r2_pred_with_column_json
-- mode: expr
-- inputs: df=landing
get_json_object(payload, '$.device.os')

-- name: r2_pred_with_column_window
-- mode: expr
-- inputs: df=orders
row_number() OVER (PARTITION BY customer_id ORDER BY order_id)

-- name: r2_pred_with_column_hash
-- mode: expr
-- inputs: df=customers
sha2(concat_ws('|', customer_id, email), 256)

-- name: r2_pred_with_column_struct
-- mode: expr
-- inputs: df=customers
named_struct('name', name, 'tier', coalesce(tier, 'none'))

-- name: r2_pred_with_column_max_by_window
-- mode: expr
-- inputs: df=history
max_by(status, seq) OVER (PARTITION BY id)

-- name: r2_pred_filter_string_num_equality
-- mode: filter
-- inputs: df=nums
str_num = 42

-- name: r2_pred_filter_like_any
-- mode: filter
-- inputs: df=orders
status LIKE ANY ('ship%', 'pend%')

-- name: r2_pred_filter_ilike
-- mode: filter
-- inputs: df=orders
status ILIKE 'shipped'

-- name: r2_pred_filter_exists_lambda
-- mode: filter
-- inputs: df=nested
exists(scores, x -> x > 5)

-- name: r2_pred_filter_date_func
-- mode: filter
-- inputs: df=clicks
date_format(ts, 'yyyy-MM-dd') = '2024-03-11'

-- name: r2_pred_filter_hour_range
-- mode: filter
-- inputs: df=clicks
hour(ts) BETWEEN 8 AND 9
