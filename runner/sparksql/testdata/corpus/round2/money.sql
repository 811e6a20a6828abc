-- Round 2: money arithmetic (decimals, rounding, currency conversion),
-- written before the round-2 fixes.

-- name: r2_money_line_total
-- inputs: df=money
SELECT id, price * qty AS total FROM {df}

-- name: r2_money_line_total_rounded
-- inputs: df=money
SELECT id, round(price * qty, 2) AS total FROM {df}

-- name: r2_money_unit_times_qty
-- inputs: df=money
SELECT id, unit_price * qty AS total FROM {df}

-- name: r2_money_small_decimals_mult
-- inputs: df=money
SELECT id, unit_price * rate AS v, amount * tax_pct / 100 AS tax FROM {df}

-- name: r2_money_tax_round_half_up
-- inputs: df=money
SELECT id, round(amount * tax_pct / 100, 2) AS tax, amount + round(amount * tax_pct / 100, 2) AS gross FROM {df}

-- name: r2_money_bround_decimal
-- inputs: df=money
SELECT id, bround(price, 2) AS b2, bround(unit_price, 2) AS bu, bround(amount, 1) AS ba FROM {df}

-- name: r2_money_bround_literals
-- inputs: df=money
SELECT bround(1.005, 2) AS a, bround(2.675, 2) AS b, bround(0.125, 2) AS c, bround(-0.5, 0) AS d, bround(2.5, 0) AS e, bround(3.5, 0) AS f FROM {df} WHERE id = 1

-- name: r2_money_round_literals
-- inputs: df=money
SELECT round(1.005, 2) AS a, round(2.675, 2) AS b, round(-0.125, 2) AS c, round(-2.5, 0) AS d, round(1234.5678, -2) AS e FROM {df} WHERE id = 1

-- name: r2_money_round_double
-- inputs: df=money
SELECT id, round(fx, 2) AS r, bround(fx, 2) AS b, round(fx * 100) / 100 AS r2 FROM {df}

-- name: r2_money_round_negative_scale
-- inputs: df=money
SELECT id, round(amount, -1) AS r, bround(amount, -1) AS b FROM {df}

-- name: r2_money_fx_double_to_decimal
-- inputs: df=money
SELECT id, CAST(amount * fx AS DECIMAL(18,2)) AS converted FROM {df}

-- name: r2_money_fx_decimal_cast_first
-- inputs: df=money
SELECT id, amount * CAST(fx AS DECIMAL(12,6)) AS converted FROM {df}

-- name: r2_money_cents_to_amount
-- inputs: df=money
SELECT id, cents / 100 AS a, CAST(cents AS DECIMAL(20,0)) / 100 AS b, cents DIV 100 AS whole, cents % 100 AS rest FROM {df}

-- name: r2_money_amount_to_cents
-- inputs: df=money
SELECT id, CAST(amount * 100 AS BIGINT) AS cents, CAST(round(amount * 100) AS BIGINT) AS cents_r FROM {df}

-- name: r2_money_division_decimal
-- inputs: df=money
SELECT id, amount / qty AS per_unit, price / 3 AS third FROM {df}

-- name: r2_money_division_by_zero
-- inputs: df=money
SELECT id, amount / (qty - qty) AS x FROM {df}

-- name: r2_money_try_divide
-- inputs: df=money
SELECT id, try_divide(amount, tax_pct) AS x, try_divide(cents, 0) AS y FROM {df}

-- name: r2_money_decimal38_mult_scale
-- inputs: df=money
SELECT id, price * price AS sq FROM {df}

-- name: r2_money_decimal38_mult_overflow
-- inputs: df=money
SELECT id, price * qty * 1000000000 AS big FROM {df}

-- name: r2_money_decimal38_add
-- inputs: df=money
SELECT id, price + qty AS s, price - unit_price AS d FROM {df}

-- name: r2_money_sum_decimal
-- inputs: df=money
SELECT currency, sum(amount) AS total, sum(price) AS total_price FROM {df} GROUP BY currency

-- name: r2_money_avg_decimal
-- inputs: df=money
SELECT avg(amount) AS a, avg(price) AS p, avg(unit_price) AS u FROM {df}

-- name: r2_money_sum_times
-- inputs: df=money
SELECT sum(unit_price * qty) AS revenue, sum(amount * tax_pct / 100) AS tax FROM {df}

-- name: r2_money_pct_of_total
-- inputs: df=money
SELECT id, round(100 * amount / sum(amount) OVER (), 4) AS pct FROM {df} WHERE id <> 4

-- name: r2_money_running_balance
-- inputs: df=money
SELECT id, sum(amount) OVER (ORDER BY id) AS balance FROM {df}

-- name: r2_money_discount_tiers
-- inputs: df=money
SELECT id, CASE WHEN amount >= 100 THEN amount * 0.9 WHEN amount >= 10 THEN amount * 0.95 ELSE amount END AS net FROM {df}

-- name: r2_money_currency_case_insensitive
-- inputs: df=money
SELECT upper(currency) AS ccy, count(*) AS n, sum(cents) AS cents FROM {df} GROUP BY upper(currency)

-- name: r2_money_cast_decimal_overflow
-- inputs: df=money
SELECT id, CAST(amount AS DECIMAL(5,2)) AS a FROM {df}

-- name: r2_money_try_cast_decimal_overflow
-- inputs: df=money
SELECT id, try_cast(amount AS DECIMAL(5,2)) AS a FROM {df}

-- name: r2_money_cast_rounds_half_up
-- inputs: df=money
SELECT id, CAST(price AS DECIMAL(10,2)) AS p, CAST(unit_price AS DECIMAL(8,1)) AS u FROM {df} WHERE id <> 4

-- name: r2_money_string_amount_to_decimal
-- inputs: df=strs
SELECT id, try_cast(trim(num_str) AS DECIMAL(10,2)) AS amount FROM {df}

-- name: r2_money_double_sum_precision
-- inputs: df=money
SELECT sum(fx) AS s, round(sum(fx), 6) AS r FROM {df}

-- name: r2_money_ceil_floor_decimal
-- inputs: df=money
SELECT id, ceil(amount) AS c, floor(amount) AS f, ceil(price, 1) AS c1, floor(unit_price, 2) AS f2 FROM {df}

-- name: r2_money_abs_sign
-- inputs: df=money
SELECT id, abs(amount) AS a, sign(amount) AS s, signum(cents) AS sg, negative(amount) AS n FROM {df}

-- name: r2_money_format_number
-- inputs: df=money
SELECT id, format_number(amount, 2) AS f, format_number(cents, 0) AS c FROM {df}

-- name: r2_money_format_number_pattern
-- inputs: df=money
SELECT id, format_number(amount, '#,##0.00') AS f FROM {df}

-- name: r2_money_concat_currency
-- inputs: df=money
SELECT id, concat(CAST(amount AS STRING), ' ', upper(currency)) AS label FROM {df}

-- name: r2_money_string_of_decimal
-- inputs: df=money
SELECT id, CAST(price AS STRING) AS p, CAST(rate AS STRING) AS r, CAST(unit_price * 0 AS STRING) AS z FROM {df}

-- name: r2_money_int_mult_overflow
-- inputs: df=money
SELECT id, cents * cents AS sq FROM {df}

-- name: r2_money_try_multiply
-- inputs: df=money
SELECT id, try_multiply(cents, cents) AS sq, try_add(cents, 9223372036854775807) AS big FROM {df}

-- name: r2_money_decimal_literal_mix
-- inputs: df=money
SELECT id, amount * 1.1 AS a, amount + 0.005 AS b, amount * 2 AS c, amount * 2.0D AS d FROM {df}

-- name: r2_money_mod_decimal
-- inputs: df=money
SELECT id, amount % 1 AS frac, pmod(cents, 7) AS pm, mod(cents, 7) AS m FROM {df}

-- name: r2_money_greatest_least_decimals
-- inputs: df=money
SELECT id, greatest(amount, unit_price, 0) AS g, least(amount, price) AS l FROM {df}

-- name: r2_money_sum_over_partition
-- inputs: df=money
SELECT id, upper(currency) AS ccy, amount, sum(amount) OVER (PARTITION BY upper(currency)) AS ccy_total FROM {df}

-- name: r2_money_decimal38_mult_scale_fits
-- inputs: df=money
SELECT id, price * price AS sq, price * rate AS pr FROM {df} WHERE id <> 4
