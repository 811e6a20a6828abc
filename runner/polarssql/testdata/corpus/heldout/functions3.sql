-- Held out: written, and its expectations computed, before Polars SQL's
-- LN, LOG10, LOG2, EXP, CBRT, SIN, COS, TAN, ATAN, DEGREES, RADIANS and
-- MOD were translated.

-- name: h_f3_ln
-- inputs: df=nums
SELECT id, LN(d) AS a, LN(i) AS b FROM {df}

-- name: h_f3_log10_log2
-- inputs: df=nums
SELECT id, LOG10(u) AS a, LOG2(big) AS b FROM {df}

-- name: h_f3_exp
-- inputs: df=nums
SELECT id, EXP(d) AS e, EXP(b) AS f FROM {df}

-- name: h_f3_cbrt
-- inputs: df=nums
SELECT id, CBRT(s) AS c FROM {df}

-- name: h_f3_trig
-- inputs: df=nums
SELECT id, SIN(d) AS s, COS(i) AS c, TAN(d) AS t, ATAN(i) AS a FROM {df}

-- name: h_f3_degrees
-- inputs: df=nums
SELECT id, DEGREES(d) AS g, RADIANS(i) AS r FROM {df}

-- name: h_f3_mod
-- inputs: df=nums
SELECT id, MOD(i, 3) AS a, MOD(i, -4) AS b, MOD(d, 0.3) AS c FROM {df}

-- name: h_f3_ln_f32
-- inputs: df=nums
SELECT id, LN(f) AS a FROM {df}

-- name: h_f3_unaliased
-- inputs: df=nums
SELECT LN(i + 1), EXP(0.5 * d) FROM {df}
