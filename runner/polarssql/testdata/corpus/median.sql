-- MEDIAN in Polars SQL.

-- name: med_float
-- inputs: df=nums
SELECT MEDIAN(d) AS m, MEDIAN(big) AS b FROM {df}

-- name: med_group
-- inputs: df=orders
SELECT paid, MEDIAN(qty) AS m, MEDIAN(amount) AS a FROM {df} GROUP BY paid
