-- Round 2 held-out part: money arithmetic. Written before the round-2
-- fixes; its figures are reported apart.

-- name: h2_money_vat_inclusive_net
-- inputs: df=money
SELECT id, round(amount / (1 + tax_pct / 100), 2) AS net FROM {df}

-- name: h2_money_bround_half_even_amount
-- inputs: df=money
SELECT id, bround(amount * rate, 2) AS b FROM {df}

-- name: h2_money_round_half_up_price
-- inputs: df=money
SELECT id, round(price, 2) AS r, round(price, 0) AS r0 FROM {df}

-- name: h2_money_decimal_mult_then_sum
-- inputs: df=money
SELECT sum(price * qty) AS total FROM {df} WHERE id <> 4

-- name: h2_money_decimal_mult_rate
-- inputs: df=money
SELECT id, price * rate AS v FROM {df}

-- name: h2_money_split_evenly
-- inputs: df=money
SELECT id, amount / 3 AS share, amount - 2 * round(amount / 3, 2) AS remainder FROM {df}

-- name: h2_money_cents_bround
-- inputs: df=money
SELECT id, bround(cents / 100.0, 1) AS b FROM {df}

-- name: h2_money_avg_round
-- inputs: df=money
SELECT upper(currency) AS ccy, round(avg(amount), 2) AS avg_amount FROM {df} GROUP BY upper(currency)

-- name: h2_money_cast_double_to_decimal_round
-- inputs: df=money
SELECT id, CAST(fx AS DECIMAL(6,3)) AS f FROM {df}

-- name: h2_money_decimal_power
-- inputs: df=money
SELECT id, power(amount, 2) AS p, sqrt(abs(amount)) AS s FROM {df}

-- name: h2_money_format_number_grouped
-- inputs: df=money
SELECT id, format_number(price, 4) AS f FROM {df}

-- name: h2_money_decimal38_product_scale
-- inputs: df=money
SELECT id, qty * qty AS q2, qty * price AS qp FROM {df}

-- name: h2_money_interest_compound
-- inputs: df=money
SELECT id, round(amount * power(1 + CAST(rate AS DOUBLE), 2), 2) AS compounded FROM {df}
