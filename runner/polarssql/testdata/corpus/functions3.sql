-- LN, LOG10, LOG2, EXP, CBRT, trigonometry, DEGREES, RADIANS and MOD in
-- Polars SQL.

-- name: f3_ln
-- inputs: df=nums
SELECT id, LN(u) AS a, LOG10(d) AS b, LOG2(i) AS c FROM {df}

-- name: f3_exp_cbrt
-- inputs: df=nums
SELECT id, EXP(i) AS a, CBRT(d) AS b FROM {df}

-- name: f3_trig
-- inputs: df=nums
SELECT id, COS(d) AS a, SIN(b) AS b, ATAN(d) AS c, TAN(s) AS t FROM {df}

-- name: f3_degrees
-- inputs: df=nums
SELECT id, DEGREES(i) AS a, RADIANS(d) AS b FROM {df}

-- name: f3_mod
-- inputs: df=nums
SELECT id, MOD(b, 2) AS a, MOD(d, -1.5) AS c, MOD(i, 0) AS z FROM {df}

-- name: f3_exp_f32
-- inputs: df=nums
SELECT id, EXP(f) AS a FROM {df}
