package polarssql

import (
	"math"
	"strconv"

	"github.com/laktory/workbench/runner/sqlfront"
)

// Bounds of variance's paths, powers of two as DuckDB reads doubles.
var (
	// Below varSafe in magnitude, a sample's squared deviations add up to
	// far less than the largest double, whatever the row count, so
	// DuckDB's var_samp neither overflows nor fails.
	varSafe = dbl(math.Ldexp(1, 332))
	// From varHuge on, x - mean may overflow in polars.
	varHuge = dbl(math.Ldexp(1, 1021))
	// varScale brings huge values down, exactly (a power of two).
	varScale   = dbl(math.Ldexp(1, -600))
	varUnscale = dbl(math.Ldexp(1, 600))
	// The largest double scaled by varScale squared, and the margin
	// around it within which whether polars' sum overflowed is unknown.
	varMaxLo = dbl(math.Ldexp(math.MaxFloat64, -1200) * (1 - math.Ldexp(1, -40)))
	varMaxHi = dbl(math.Ldexp(math.MaxFloat64, -1200) * (1 + math.Ldexp(1, -40)))
	// f32Inf is where a double rounds to a Float32's infinity: the
	// midpoint of the largest Float32 and 2^128 (a tie goes to 2^128).
	// DuckDB's CAST fails there instead; NaN compares above it in DuckDB.
	f32Inf = dbl(math.Ldexp(1, 128) - math.Ldexp(1, 103))
)

// f32Const are Rust's f32 to_degrees factor (180/PI rounded to f32) and
// to_radians factor (PI as f32, divided by 180 in f32), as text.
var f32Const = func() map[string]string {
	pi := float32(math.Pi)
	rad := pi / float32(180)
	deg := float32(57.2957795130823208767981548141051703)
	return map[string]string{"degrees": strconv.FormatFloat(float64(deg), 'g', -1, 32), "radians": strconv.FormatFloat(float64(rad), 'g', -1, 32)}
}()

func dbl(f float64) string {
	return "CAST('" + strconv.FormatFloat(f, 'g', -1, 64) + "' AS DOUBLE)"
}

// variance is Polars SQL's STDDEV or VARIANCE (and their spellings) of
// x over the rows (a group, a window when over is an OVER clause, or the
// frame): the sample variance (ddof 1) by Welford's update in Float64,
// the square root of it for STDDEV, NULL below two non-NULL values, a
// Float32 kept (computed in Float64 and rounded). DuckDB's var_samp makes
// the same update in the same order but fails where the result is not
// finite, so each path is guarded:
//   - a NaN or an infinity among two values or more makes NaN (the update's
//     inf - inf);
//   - values below varSafe take var_samp as it is;
//   - larger ones take var_samp of the values times 2^-600 (every step of
//     the update scales exactly; values too small to scale exactly are
//     absorbed by the large ones as in polars), scaled back, inf where
//     polars' sum of squares overflows; a result within 2^-40 of that
//     bound, or a value from 2^1021 on, fails the query rather than risk
//     another value.
//
// polars computes a whole frame's variance (no GROUP BY, no window) in
// chunks of 128 rows combined pairwise, which agrees with Welford's
// update to a few units in the last place, not bit for bit.
func variance(n *sqlfront.Call, name string, x *rx, over string) (*Type, string, error) {
	if !x.t.isNumeric() && x.t.Kind != Boolean {
		return nil, "", unsupported(n.P, "", "%s of %s in Polars SQL", name, x.t)
	}
	v := "CAST(" + x.sql + " AS DOUBLE)"
	agg := func(f, arg string) string { return f + "(" + arg + ")" + over }
	count := agg("count", v)
	safe := agg("var_samp", "CASE WHEN abs("+v+") < "+varSafe+" THEN "+v+" END")
	scaled := agg("var_samp", "CASE WHEN abs("+v+") < "+varHuge+" THEN "+v+" * "+varScale+" END")
	maxAbs := agg("max", "abs("+v+")")
	fail := "error('[ComputeError] the variance of values near the largest double is not computed locally')"
	sql := "CASE WHEN " + count + " < 2 THEN CAST(NULL AS DOUBLE)" +
		" WHEN " + agg("bool_or", "NOT isfinite("+v+")") + " THEN CAST('nan' AS DOUBLE)" +
		" WHEN " + maxAbs + " < " + varSafe + " THEN " + safe +
		" WHEN " + maxAbs + " >= " + varHuge + " THEN " + fail +
		" WHEN " + scaled + " * (" + count + " - 1) > " + varMaxHi + " THEN CAST('inf' AS DOUBLE)" +
		" WHEN " + scaled + " * (" + count + " - 1) >= " + varMaxLo + " THEN " + fail +
		" ELSE " + scaled + " * " + varUnscale + " * " + varUnscale + " END"
	if name[:2] == "st" {
		sql = "sqrt(" + sql + ")"
	}
	if x.t.Kind == Float32 {
		return tFloat32, "CAST(CASE WHEN NOT isnan(" + sql + ") AND " + sql + " >= " + f32Inf + " THEN CAST('inf' AS DOUBLE) ELSE " + sql + " END AS FLOAT)", nil
	}
	return tFloat64, sql, nil
}
