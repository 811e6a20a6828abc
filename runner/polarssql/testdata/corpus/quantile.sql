-- Polars SQL's QUANTILE_CONT (linear) and QUANTILE_DISC (equiprobable).

-- name: q_nums_ints
-- inputs: df=nums
SELECT QUANTILE_CONT(i, 0.37) AS c, QUANTILE_DISC(s, 0.37) AS d, QUANTILE_CONT(u, 0.9) AS cu, QUANTILE_DISC(big, 0.5) AS db FROM {df}

-- name: q_customers_group
-- inputs: df=customers
SELECT country, QUANTILE_CONT(tier, 0.5) AS c, QUANTILE_DISC(customer_id, 0.5) AS d FROM {df} GROUP BY country

-- name: q_decimal
-- inputs: df=orders
SELECT QUANTILE_CONT(price, 0.5) AS c FROM {df}
