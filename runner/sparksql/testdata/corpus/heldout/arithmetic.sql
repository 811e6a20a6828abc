-- name: h_net_amount
-- inputs: df=orders
SELECT order_id, amount * (1 - discount) AS net FROM {df}

-- name: h_line_total_decimal
-- inputs: df=orders
SELECT order_id, amount * quantity AS total, amount / quantity AS unit FROM {df} WHERE quantity > 0

-- name: h_int_division
-- inputs: df=nums
SELECT id, i / 2 AS half, i DIV 2 AS half_int, i % 3 AS m, pmod(i, 3) AS pm FROM {df} WHERE id <> 8

-- name: h_decimal_rounding
-- inputs: df=nums
SELECT id, round(dec, 2) AS r2, round(d, 0) AS r0, bround(dec, 1) AS b1, floor(dec) AS fl, ceil(d) AS ce FROM {df} WHERE id <> 4

-- name: h_mixed_types
-- inputs: df=nums
SELECT id, t + s AS ts, i + l AS il, f + d AS fd, dec * 2 AS dec2x, l * 1.5 AS lx FROM {df} WHERE id NOT IN (4, 8)

-- name: h_overflow_add
-- inputs: df=nums
SELECT id, i + 1 AS next FROM {df}

-- name: h_divide_by_zero
-- inputs: df=bad
SELECT id, 10 / n AS q FROM {df}

-- name: h_try_divide
-- inputs: df=bad
SELECT id, try_divide(10, n) AS q, try_add(n, 1) AS a FROM {df}

-- name: h_abs_sign_power
-- inputs: df=nums
SELECT id, abs(d) AS a, signum(d) AS sg, power(d, 2) AS p2, sqrt(abs(d)) AS sq FROM {df} WHERE id <> 4

-- name: h_log_exp
-- inputs: df=nums
SELECT id, ln(d) AS l, log10(d) AS l10, log(2, d) AS l2, exp(1) AS e FROM {df} WHERE d > 0 AND id <> 4

-- name: h_greatest_least
-- inputs: df=nums
SELECT id, greatest(i, t, s) AS g, least(d, f) AS lst FROM {df}

-- name: h_percent_of_total
-- inputs: df=orders
SELECT order_id, round(100 * amount / sum(amount) OVER (), 2) AS pct FROM {df}

-- name: h_bitwise
-- inputs: df=nums
SELECT id, i & 3 AS a, i | 8 AS o, i ^ 5 AS x, ~i AS n FROM {df} WHERE id < 4

-- name: h_negative_mod
-- inputs: df=nums
SELECT id, d % 2 AS dm, dec % 1 AS frac FROM {df} WHERE id <> 4

-- name: h_decimal_div_precision
-- inputs: df=nums
SELECT id, dec / 3 AS third, dec2 / dec AS ratio FROM {df} WHERE dec <> 0 AND id <> 4
