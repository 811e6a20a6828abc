-- name: fn_trig_more
SELECT acos(0.5) AS a, asin(0.5) AS b, atan(1) AS c, cbrt(27) AS d, cosh(1) AS e, sinh(1) AS f, tanh(0.5) AS g, hypot(3, 4) AS h

-- name: fn_exp_log_more
SELECT expm1(1) AS a, log1p(1) AS b, log1p(-1) AS c, power(2, 10) AS d, negative(5) AS e, positive(-3) AS f, 7 div 2 AS g, div(7, 2) AS h

-- name: fn_aliases
-- inputs: df=strs
SELECT id, len(code) AS a, rlike(code, '^[A-Z]') AS b, regexp(code, '[0-9]$') AS c, sha(code) AS e FROM {df}

-- name: fn_cast_functions
-- inputs: df=nums
SELECT id, int(d), bigint(str_num), string(i), double(dec), date('2024-01-05'), boolean(i) AS bi, smallint(t), tinyint(t) AS tt, float(i) AS fi, decimal(d) AS dd FROM {df} WHERE id IN (1, 2, 3, 6)

-- name: fn_cast_function_timestamp
SELECT timestamp('2024-01-05 10:00:00') AS a, binary('ab') AS b

-- name: fn_aggregates_more
-- inputs: df=customers
SELECT any(is_active) AS a, stddev_samp(score) AS b, try_avg(score) AS c FROM {df}

-- name: fn_grouping_id
-- inputs: df=orders
SELECT channel, status, grouping_id(channel, status) AS g, count(*) AS n FROM {df} GROUP BY CUBE(channel, status)

-- name: fn_reduce_try_mod
SELECT reduce(array(1, 2, 3), 0, (acc, x) -> acc + x) AS a, try_mod(7, 0) AS b, try_mod(7, 3) AS c

-- name: fn_datetime_aliases
-- inputs: df=orders
SELECT order_id, datepart('YEAR', ordered_at) AS a, to_unix_timestamp(ordered_at) AS b, unix_micros(ordered_at) AS c, to_timestamp_ntz('2024-01-05 10:00:00') AS e, to_timestamp_ltz('2024-01-05 10:00:00') AS f FROM {df}

-- name: fn_nondeterministic
SELECT curdate() = current_date() AS a, localtimestamp() IS NOT NULL AS b, rand() >= 0 AS c, length(uuid()) AS e

-- name: fn_array_size_like_call
-- inputs: df=orders
SELECT order_id, array_size(tags) AS a, like(status, 'ship%') AS b, ilike(status, 'SHIP%') AS c FROM {df}
