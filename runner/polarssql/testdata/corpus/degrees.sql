-- Polars SQL's trigonometry in degrees.

-- name: deg_orders
-- inputs: df=orders
SELECT order_id, COSD(amount) AS c, ATAN2D(qty, customer_id) AS a, COTD(qty) AS ct FROM {df}

-- name: deg_texts_inverse
-- inputs: df=texts
SELECT id, ASIND(f / 1.5e300) AS a, ACOSD(f / 1.5e300) AS c FROM {df}
