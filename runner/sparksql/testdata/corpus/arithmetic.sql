-- name: int_arith_types
-- inputs: df=nums
SELECT id, t + t AS tt, t * 2 AS t2, s + i AS si, i - l AS il, i * 2 AS i2 FROM {df} WHERE id IN (1, 2, 3, 6, 7)

-- name: tinyint_overflow
-- inputs: df=nums
SELECT id, t + t AS tt FROM {df}

-- name: int_multiply_overflow
-- inputs: df=nums
SELECT id, i * 2 AS x FROM {df}

-- name: bigint_overflow
-- inputs: df=nums
SELECT id, l * 2 AS x FROM {df}

-- name: negate_min_int
-- inputs: df=nums
SELECT id, -i AS x FROM {df}

-- name: abs_min_int
-- inputs: df=nums
SELECT id, abs(i) AS x FROM {df}

-- name: divide_always_double
-- inputs: df=nums
SELECT id, i / 2 AS a, l / 3 AS b, t / s AS c FROM {df} WHERE s <> 0

-- name: divide_by_zero_int
-- inputs: df=nums
SELECT id, 1 / i AS x FROM {df}

-- name: divide_by_zero_double
-- inputs: df=nums
SELECT id, d / 0.0D AS x FROM {df} WHERE id = 1

-- name: divide_decimal
-- inputs: df=nums
SELECT id, dec / 4 AS a, dec / CAST(3 AS DECIMAL(5,2)) AS b FROM {df} WHERE id <> 4

-- name: divide_decimal_by_zero
-- inputs: df=nums
SELECT id, dec / dec AS a FROM {df}

-- name: try_divide_forms
-- inputs: df=nums
SELECT id, try_divide(i, l) AS a, try_divide(dec, dec) AS b, try_divide(d, 0) AS c FROM {df}

-- name: div_operator
-- inputs: df=nums
SELECT id, i DIV 3 AS a, l DIV -3 AS b, d DIV 2 AS c FROM {df} WHERE id NOT IN (4, 5)

-- name: div_by_zero
-- inputs: df=nums
SELECT id, i DIV l AS a FROM {df}

-- name: modulo_signs
-- inputs: df=nums
SELECT id, i % 3 AS a, i % -3 AS b, pmod(i, 3) AS c, pmod(i, -3) AS d, mod(l, 7) AS e FROM {df} WHERE id NOT IN (4, 5)

-- name: modulo_double_decimal
-- inputs: df=nums
SELECT id, d % 1.5 AS a, dec % 0.7 AS b, pmod(d, 2.0D) AS c FROM {df} WHERE id NOT IN (4, 5)

-- name: modulo_by_zero
-- inputs: df=nums
SELECT id, 5 % l AS a FROM {df}

-- name: decimal_add_sub
-- inputs: df=nums
SELECT id, dec + dec2 AS a, dec - 1.5 AS b, dec + i AS c FROM {df} WHERE id NOT IN (4)

-- name: decimal_multiply
-- inputs: df=nums
SELECT id, dec * dec AS a, dec * 3 AS b, dec * l AS c FROM {df} WHERE id NOT IN (4)

-- name: decimal_multiply_precision_loss
-- inputs: df=nums
SELECT id, dec2 * 1.5 AS a FROM {df} WHERE id NOT IN (4)

-- name: decimal_double_mix
-- inputs: df=nums
SELECT id, dec + d AS a, dec * f AS b FROM {df} WHERE id NOT IN (4)

-- name: float_arith
-- inputs: df=nums
SELECT id, f + f AS a, f * 2 AS b, f + 1.5 AS c FROM {df} WHERE id NOT IN (4)

-- name: decimal_literals
SELECT 1.1 * 2.22 AS a, 1.1 + 2.22 AS b, 10 / 4 AS c, 10.5 / 3 AS d, 0.1 + 0.2 AS e, 1.0 / 3.0 AS f

-- name: round_variants
-- inputs: df=nums
SELECT id, round(d) AS a, round(d, 1) AS b, round(dec, 3) AS c, round(i, -1) AS e, bround(d, 0) AS f FROM {df} WHERE id NOT IN (4)

-- name: round_half_cases
SELECT round(2.5) AS a, round(-2.5) AS b, round(2.5D) AS c, round(-2.5D) AS d, bround(2.5D) AS e, bround(3.5) AS f, round(2.675D, 2) AS g, round(1.005D, 2) AS h, round(0.125D, 2) AS i

-- name: ceil_floor
-- inputs: df=nums
SELECT id, ceil(d) AS a, floor(d) AS b, ceil(dec) AS c, floor(dec) AS e, ceiling(i) AS f FROM {df} WHERE id NOT IN (4)

-- name: math_funcs
-- inputs: df=nums
SELECT id, sqrt(abs(d)) AS a, exp(t) AS b, ln(abs(d) + 1) AS c, log10(abs(l) + 1) AS e, log2(abs(i) + 1) AS f, pow(2, t) AS g FROM {df} WHERE id NOT IN (4, 8)

-- name: log_of_nonpositive
-- inputs: df=nums
SELECT id, ln(d) AS a, log10(i) AS b, log(2, d) AS c FROM {df}

-- name: sqrt_negative
-- inputs: df=nums
SELECT id, sqrt(d) AS a FROM {df} WHERE id IN (1, 2)

-- name: trig_funcs
SELECT sin(1) AS a, cos(0) AS b, tan(0.5) AS c, atan2(1, 2) AS d, degrees(pi()) AS e, radians(180) AS f, e() AS g

-- name: sign_abs
-- inputs: df=nums
SELECT id, signum(d) AS a, sign(i) AS b, abs(dec) AS c, abs(f) AS e FROM {df} WHERE id NOT IN (8)

-- name: greatest_least_mixed
-- inputs: df=nums
SELECT id, greatest(t, s, i) AS a, least(dec, i) AS b, greatest(d, f) AS c FROM {df}

-- name: bitwise_ops
-- inputs: df=nums
SELECT id, i & 6 AS a, i | 1 AS b, i ^ 3 AS c, ~t AS e FROM {df} WHERE id < 4

-- name: unary_and_names
-- inputs: df=nums
SELECT -i, +i, -d, i + 1, i * 2 - 1, (i + 1) * 2 FROM {df} WHERE id IN (1, 2)

-- name: try_add_overflow
-- inputs: df=nums
SELECT id, try_add(i, 1) AS a, try_multiply(l, 2) AS b, try_subtract(t, 100) AS c FROM {df}

-- name: factorial_nanvl
-- inputs: df=nums
SELECT id, factorial(t) AS a, nanvl(d, 0) AS b FROM {df} WHERE id IN (1, 3, 6, 7)

-- name: int_and_bigint_literals
SELECT 2147483647 AS a, 2147483648 AS b, 100L AS c, 5S AS d, 3Y AS e, -128Y AS f, 99999999999999999999 AS g
