-- name: e_filter_simple
-- inputs: df=orders
-- mode: filter
amount > 50 AND channel = 'web'

-- name: e_filter_or_null
-- inputs: df=orders
-- mode: filter
discount IS NULL OR discount = 0

-- name: e_filter_string_coercion
-- inputs: df=orders
-- mode: filter
quantity > '2'

-- name: e_filter_regex
-- inputs: df=customers
-- mode: filter
email RLIKE '@example\\.com$'

-- name: e_filter_not_boolean
-- inputs: df=orders
-- mode: filter
amount + 1

-- name: e_filter_subquery_rejected
-- inputs: df=orders
-- mode: filter
order_id IN (SELECT 1)

-- name: e_filter_aggregate_rejected
-- inputs: df=orders
-- mode: filter
sum(amount) > 0

-- name: e_filter_timestamp_compare
-- inputs: df=orders
-- mode: filter
ordered_at >= TIMESTAMP'2024-03-01 00:00:00' OR ship_date < DATE'2024-01-10'

-- name: e_filter_date_string
-- inputs: df=orders
-- mode: filter
ship_date = '2024-01-16'

-- name: e_expr_arith
-- inputs: df=orders
-- mode: expr
amount * quantity - coalesce(discount, 0)

-- name: e_expr_case
-- inputs: df=orders
-- mode: expr
CASE WHEN status IN ('shipped', 'SHIPPED') THEN 'done' WHEN status = 'pending' THEN 'open' ELSE 'other' END

-- name: e_expr_date_math
-- inputs: df=orders
-- mode: expr
date_add(CAST(ordered_at AS DATE), 7)

-- name: e_expr_struct_field
-- inputs: df=orders
-- mode: expr
concat(address.city, ' ', coalesce(address.zip, '-'))

-- name: e_expr_array_size
-- inputs: df=orders
-- mode: expr
size(tags) + cardinality(attrs)

-- name: e_expr_window_rejected
-- inputs: df=orders
-- mode: expr
row_number() OVER (ORDER BY order_id)

-- name: e_expr_unknown_column
-- inputs: df=orders
-- mode: expr
amount * qty

-- name: e_expr_cast_decimal
-- inputs: df=orders
-- mode: expr
CAST(amount * 1.1 AS DECIMAL(10, 2))

-- name: e_expr_timestamp_string
-- inputs: df=orders
-- mode: expr
date_format(ordered_at, 'yyyy-MM')

-- name: e_filter_in_and_like
-- inputs: df=customers
-- mode: filter
country IN ('FR', 'DE') AND name NOT LIKE 'b%'

-- name: e_filter_between_dates
-- inputs: df=customers
-- mode: filter
signup_date BETWEEN '2021-01-01' AND '2023-12-31'
