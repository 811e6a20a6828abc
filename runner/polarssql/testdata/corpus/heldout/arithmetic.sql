-- name: h_ar_total
-- inputs: df=orders
SELECT order_id, amount * qty AS total FROM {df}

-- name: h_ar_int_div
-- inputs: df=nums
SELECT id, i / 2 AS half, i % 3 AS m FROM {df}

-- name: h_ar_float_div
-- inputs: df=nums
SELECT id, d / 4 AS q FROM {df}

-- name: h_ar_div_zero
-- inputs: df=nums
SELECT id, i / 0 AS z FROM {df}

-- name: h_ar_mixed_widths
-- inputs: df=nums
SELECT id, b + s AS bs, s * i AS si FROM {df}

-- name: h_ar_unsigned
-- inputs: df=nums
SELECT id, u + 1 AS u1, u - i AS ui FROM {df}

-- name: h_ar_decimal_mul
-- inputs: df=orders
SELECT order_id, price * qty AS line FROM {df}

-- name: h_ar_decimal_add_float
-- inputs: df=orders
SELECT order_id, price + amount AS mix FROM {df}

-- name: h_ar_negate
-- inputs: df=nums
SELECT id, -d AS neg, ABS(i) AS a FROM {df}

-- name: h_ar_literal_only
-- inputs: df=nums
SELECT id, 7 / 2 AS x, 2.0 * 3 AS y FROM {df}

-- name: h_ar_unaliased
-- inputs: df=nums
SELECT id, d * 2 FROM {df}

-- name: h_ar_power
-- inputs: df=nums
SELECT id, POWER(d, 2) AS p, SQRT(ABS(d)) AS r FROM {df}
