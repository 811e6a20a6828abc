package polarssql

import (
	"context"
	"strings"
)

// macros are the DuckDB macros the translated SQL calls: polars'
// integer division and modulo (floored, NULL by zero), IEEE division of
// floats (inf, -inf, NaN by zero) and Unicode's full upper and lower case
// as Rust computes them (ß upper-cases to SS; letters whose special case
// mappings DuckDB does not apply are refused at run time rather than
// converted differently).
var macros = []string{
	`CREATE OR REPLACE MACRO polars_floor_mod(a, b) AS CASE WHEN b = 0 THEN NULL ELSE ((a % b) + b) % b END`,
	`CREATE OR REPLACE MACRO polars_floor_div(a, b) AS CASE WHEN b = 0 THEN NULL ELSE (a - polars_floor_mod(a, b)) // b END`,
	`CREATE OR REPLACE MACRO polars_div(a, b) AS CASE WHEN b = 0 THEN (CASE WHEN a > 0 THEN CAST('inf' AS DOUBLE) WHEN a < 0 THEN CAST('-inf' AS DOUBLE) WHEN a = 0 THEN CAST('nan' AS DOUBLE) END) ELSE a / b END`,
	// DuckDB's round_even(x, n) (CASE (abs(x) * 10^(n+1)) % 10 WHEN 5 THEN
	// round(x / 2, n) * 2 ELSE round(x, n) END) with its test computed
	// without fmod, which took 6-7% of the CPU of a 4M-row pipeline that
	// rounds one column (DuckDB's round_even took 5x its round): fmod(z, 10)
	// is exact, so it is 5 just where z is an integer whose last digit is
	// 5; past 2^53 every double is an even integer (its BIGINT cast exact
	// or NULL), and NaN and infinities cast to NULL.
	`CREATE OR REPLACE MACRO polars_round_even(x, n) AS CASE WHEN abs(x) * power(10, n + 1) = trunc(abs(x) * power(10, n + 1)) AND TRY_CAST(abs(x) * power(10, n + 1) AS BIGINT) % 10 = 5 THEN round(x / 2, n) * 2 ELSE round(x, n) END`,
	// polars' linear quantile of s, the sorted non-NULL values (NaN
	// last), with nc NULLs: float_idx = (n - 1) * q + nc, lo and hi the
	// values at its floor and ceiling, lo where they are equal, else
	// (float_idx - floor) * (hi - lo) + lo, in that order of operations.
	`CREATE OR REPLACE MACRO polars_stable_sort(l) AS list_transform(list_sort(list_transform(l, (e, i) -> {'v': e, 'i': i})), e -> e.v)`,
	// polars' equiprobable quantile: the value at ceil(n * q) - 1 (0 at
	// least) of the sorted values.
	`CREATE OR REPLACE MACRO polars_quantile_equiprobable(s, q) AS CASE WHEN len(s) = 0 THEN NULL ELSE s[greatest(CAST(ceil(CAST(len(s) AS DOUBLE) * q) AS BIGINT), 1)] END`,
	`CREATE OR REPLACE MACRO polars_qlin3(lo, hi, fr) AS CASE WHEN lo = hi THEN lo ELSE fr * (hi - lo) + lo END`,
	`CREATE OR REPLACE MACRO polars_qlin2(s, fpos, nc) AS polars_qlin3(s[CAST(floor(fpos) AS BIGINT) - nc + 1], s[CAST(ceil(fpos) AS BIGINT) - nc + 1], fpos - floor(fpos))`,
	`CREATE OR REPLACE MACRO polars_quantile_linear(s, nc, q) AS CASE WHEN len(s) = 0 THEN NULL ELSE polars_qlin2(s, (CAST(len(s) AS DOUBLE) - 1) * q + CAST(nc AS DOUBLE), nc) END`,
	`CREATE OR REPLACE MACRO polars_upper(s) AS CASE WHEN strlen(s) = length(s) THEN upper(s) WHEN regexp_matches(s, '[ŉǰΐΰևẖ-ẚ` + "\u1f50-\u1fff" + `ﬀ-ﬆﬓ-ﬗ]') THEN error('[ComputeError] upper-casing ' || s || ' with Unicode''s special case mappings is not supported locally') ELSE upper(replace(s, 'ß', 'ss')) END`,
	`CREATE OR REPLACE MACRO polars_lower(s) AS CASE WHEN regexp_matches(s, '[İΣ]') THEN error('[ComputeError] lower-casing ' || s || ' with Unicode''s special case mappings (İ, final Σ) is not supported locally') ELSE lower(s) END`,
}

func init() { macros = append(macros, initcapMacro) }

// Install creates the macros on a DuckDB connection through exec.
func Install(ctx context.Context, exec func(ctx context.Context, sql string) error) error {
	return exec(ctx, strings.Join(macros, ";\n"))
}
