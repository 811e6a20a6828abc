-- name: dec_div_floor
-- inputs: df=nums
SELECT id, dec / 3 AS q, dec / -7 AS r FROM {df}

-- name: dec_triple_product
-- inputs: df=nums
SELECT id, dec * dec * dec AS c FROM {df}

-- name: dec_modulo
-- inputs: df=nums
SELECT id, dec % 2 AS m FROM {df}

-- name: dec_literal_truncated
-- inputs: df=nums
SELECT id FROM {df} WHERE dec = 1.0051 OR dec IN (12.345, 0.0)

-- name: dec_int_literal_overflow
-- inputs: df=orders
SELECT order_id, price + 100000000000 AS p FROM {df}

-- name: dec_coalesce_case
-- inputs: df=nums
SELECT id, COALESCE(dec, 0) AS c, CASE WHEN id > 3 THEN dec ELSE 1.23456 END AS k FROM {df}

-- name: dec_cast_truncates
-- inputs: df=nums
SELECT id, CAST(dec AS DECIMAL(10,2)) AS a, CAST(dec AS DECIMAL(12,5)) AS b FROM {df}

-- name: dec_str_to_decimal
-- inputs: df=nums
SELECT id, CAST(str_num AS DECIMAL(8,1)) AS x FROM {df} WHERE id IN (1, 2, 3)

-- name: dec_float_to_decimal
-- inputs: df=nums
SELECT id, CAST(d AS DECIMAL(20,3)) AS x FROM {df} WHERE id <> 4

-- name: dec_float_overflow
-- inputs: df=nums
SELECT id, CAST(d AS DECIMAL(20,3)) AS x FROM {df}

-- name: dec_neg_abs_floor
-- inputs: df=nums
SELECT id, -dec AS n, ABS(dec) AS a, FLOOR(dec) AS f, CEIL(dec) AS c FROM {df}

-- name: dec_round_half_even
-- inputs: df=nums
SELECT id, ROUND(dec, 2) AS r2, ROUND(dec, 1) AS r1, ROUND(dec) AS r0 FROM {df} WHERE id <> 4

-- name: dec_sum_window
-- inputs: df=orders
SELECT order_id, SUM(price) OVER (PARTITION BY customer_id) AS spent FROM {df}

-- name: dec_mul_decimals
-- inputs: df=orders
SELECT order_id, price * price AS sq, price / price AS one FROM {df}

-- name: dec_int_column_compare
-- inputs: df=orders
SELECT order_id FROM {df} WHERE price > qty

-- name: dec_group_avg
-- inputs: df=orders
SELECT customer_id, AVG(price) AS a, MAX(price) AS m FROM {df} GROUP BY customer_id
