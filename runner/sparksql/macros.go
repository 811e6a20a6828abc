package sparksql

import (
	"context"
	"fmt"
	"regexp"
	"strings"
)

// macro is a DuckDB macro the emitted SQL calls (spark_*): Spark
// semantics DuckDB has no function for.
type macro struct {
	name   string
	params string
	body   string
}

// Messages of the errors Spark raises at run time, with its classes.
const (
	msgDivideByZero = `[DIVIDE_BY_ZERO] Division by zero. Use ` + "`try_divide`" + ` to tolerate divisor being 0 and return NULL instead. If necessary set "spark.sql.ansi.enabled" to "false" to bypass this error.`
	msgRemainder    = `[REMAINDER_BY_ZERO] Remainder by zero. Use ` + "`try_mod`" + ` to tolerate divisor being 0 and return NULL instead. If necessary set "spark.sql.ansi.enabled" to "false" to bypass this error.`
)

// Spark's syntax of numbers, dates and timestamps in strings (blanks
// around them are trimmed).
const (
	blanks      = " \t\n\v\f\r"
	ws          = `[ \t\n\v\f\r]`
	reIntegral  = `[+-]?[0-9]+`
	reDouble    = `[+-]?((([0-9]+\.?[0-9]*|\.[0-9]+)([eE][+-]?[0-9]+)?[dDfF]?)|(?i:inf|infinity|nan))`
	reDecimal   = `[+-]?([0-9]+\.?[0-9]*|\.[0-9]+)([eE][+-]?[0-9]+)?`
	reDate      = `([+-]?[0-9]{4,7})(?:-([0-9]{1,2})(?:-([0-9]{1,2})(?:[ T].*)?)?)?`
	reTSLocal   = `[+-]?[0-9]{4,7}(?:-[0-9]{1,2}(?:-[0-9]{1,2}(?:[ T][0-9]{1,2}(?::[0-9]{1,2}(?::[0-9]{1,2}(?:\.[0-9]{0,9})?)?)?)?)?)?`
	reTSZone    = `Z|[+-][0-9]{1,2}(?::?[0-9]{2}){0,2}|(?:UTC|GMT|UT)[+-][0-9]{1,2}(?::?[0-9]{2})?|[A-Za-z][A-Za-z0-9_/+-]*`
	reTimestamp = `(` + reTSLocal + `)\s*(` + reTSZone + `)?`
)

func sqlq(s string) string { return "'" + strings.ReplaceAll(s, "'", "''") + "'" }

var macros = []macro{
	// Arithmetic with Spark's ANSI errors.
	{"spark_divide", "a, b", "CASE WHEN b = 0 THEN error(" + sqlq(msgDivideByZero) + ") ELSE a / b END"},
	{"spark_div_integral", "a, b", "CASE WHEN b = 0 THEN error(" + sqlq(msgDivideByZero) + ") ELSE a // b END"},
	{"spark_mod", "a, b", "CASE WHEN b = 0 THEN error(" + sqlq(msgRemainder) + ") ELSE a % b END"},
	// DuckDB's % on doubles is C's fmod (the sign of a); its fmod() is not.
	{"spark_fmod", "a, b", "CASE WHEN b = 0 THEN error(" + sqlq(msgRemainder) + ") ELSE a % b END"},
	// n / d on HUGEINTs rounded half up (away from zero).
	{"spark_round_div", "n, d", "CASE WHEN d = 0 THEN error(" + sqlq(msgDivideByZero) + ") ELSE " +
		"CAST(sign(n) * sign(d) AS HUGEINT) * (abs(n) // abs(d) + CASE WHEN abs(n) % abs(d) >= abs(d) - abs(n) % abs(d) THEN 1 ELSE 0 END) END"},
	{"spark_mul_abs", "a, b, f", "a * (b // f) + (a // f) * (b % f) + spark_round_div((a % f) * (b % f), f)"},
	// The unscaled product of unscaled decimals a and b divided by f
	// (10^k, k <= 19) rounded half up, exactly (see decimalMultiplySQL);
	// s is the result's scale, for the message.
	{"spark_decimal_mul", "a, b, f, s", "CASE WHEN a IS NULL OR b IS NULL THEN NULL " +
		"WHEN abs(CAST(a AS DOUBLE)) * abs(CAST(b AS DOUBLE)) / CAST(f AS DOUBLE) >= 1.6e38 THEN error('[NUMERIC_VALUE_OUT_OF_RANGE.WITH_SUGGESTION] the product ' || " +
		"CAST(CAST(a AS DOUBLE) * CAST(b AS DOUBLE) / CAST(f AS DOUBLE) AS VARCHAR) || ' (unscaled) cannot be represented as Decimal(38, ' || s || '). If necessary set \"spark.sql.ansi.enabled\" to \"false\" to bypass this error, and return NULL instead.') " +
		"ELSE CAST(sign(a) * sign(b) AS HUGEINT) * spark_mul_abs(abs(a), abs(b), f) END"},
	// n / d (d > 0) rounded half to even, toward +infinity, toward -infinity.
	{"spark_div_half_even", "n, d", "CAST(sign(n) AS HUGEINT) * (abs(n) // d + CASE WHEN abs(n) % d > d - abs(n) % d OR (abs(n) % d = d - abs(n) % d AND (abs(n) // d) % 2 = 1) THEN 1 ELSE 0 END)"},
	{"spark_div_ceil", "n, d", "CASE WHEN n >= 0 THEN n // d + CASE WHEN n % d > 0 THEN 1 ELSE 0 END ELSE -(abs(n) // d) END"},
	{"spark_div_floor", "n, d", "CASE WHEN n >= 0 THEN n // d ELSE -(abs(n) // d + CASE WHEN abs(n) % d > 0 THEN 1 ELSE 0 END) END"},
	// java.time's LocalDateTime.until for date-based units: the end date,
	// moved one day toward the start when its time of day has not
	// reached the start's; months between two dates as LocalDate.until
	// counts them (packed year*12+month and day, truncated toward zero).
	{"spark_until_end_date", "a, b", "CASE WHEN CAST(b AS DATE) > CAST(a AS DATE) AND epoch_us(b) - epoch_us(date_trunc('day', b)) < epoch_us(a) - epoch_us(date_trunc('day', a)) THEN CAST(b AS DATE) - 1 " +
		"WHEN CAST(b AS DATE) < CAST(a AS DATE) AND epoch_us(b) - epoch_us(date_trunc('day', b)) > epoch_us(a) - epoch_us(date_trunc('day', a)) THEN CAST(b AS DATE) + 1 ELSE CAST(b AS DATE) END"},
	{"spark_months_until", "a, e", "(((year(e) * 12 + month(e)) * 32 + day(e)) - ((year(a) * 12 + month(a)) * 32 + day(a))) // 32"},
	{"spark_trunc_div", "n, d", "CASE WHEN d = 0 THEN error(" + sqlq(msgDivideByZero) + ") ELSE " +
		"CAST(sign(n) * sign(d) AS HUGEINT) * (abs(n) // abs(d)) END"},

	// Casts. DuckDB inlines macros, so a macro refers to an argument that
	// may be an expression once: values needed twice are bound with
	// list_transform([v], x -> ...)[1]. Spark's canonical forms take a
	// fast path (one GLOB or regex and DuckDB's cast, which trims blanks);
	// the other forms Spark accepts are normalised first.
	// Integral text that is DuckDB's rendering of a BIGINT (digits, a
	// minus) matches the expression and skips it: 4M such values take
	// 230 ms instead of 400 through the expression (the round trip of a
	// double's text costs more than its expression: doubles keep theirs).
	{"spark_integral_text", "s", "CASE WHEN CAST(TRY_CAST(s AS BIGINT) AS VARCHAR) = s THEN s WHEN regexp_full_match(s, " + sqlq(ws+`*`+reIntegral+ws+`*`) + ") THEN s END"},
	{"spark_double_text", "s", "CASE WHEN regexp_full_match(s, " + sqlq(ws+`*[+-]?([0-9]+\.?[0-9]*|\.[0-9]+)([eE][+-]?[0-9]+)?`+ws+`*`) + ") THEN s " +
		"WHEN regexp_full_match(s, " + sqlq(ws+`*`+reDouble+ws+`*`) + ") THEN regexp_replace(trim(s, " + sqlq(blanks) + "), '([0-9.])[dDfF]$', '\\1') END"},
	{"spark_decimal_text", "s", "CASE WHEN regexp_full_match(s, " + sqlq(ws+`*`+reDecimal+ws+`*`) + ") THEN s END"},
	{"spark_to_bool", "s", "(list_position(['t', 'true', 'y', 'yes', '1', 'f', 'false', 'n', 'no', '0'], lower(trim(s, " + sqlq(blanks) + "))) <= 5)"},
	// 2024, 2024-1, 2024-1-5, 2024-01-14 10:00 and 2024-01-14T... are dates.
	{"spark_date_norm", "t", "CASE WHEN regexp_full_match(t, " + sqlq(reDate) + ") THEN " +
		"regexp_replace(regexp_replace(regexp_replace(t, '^([+-]?[0-9]{4,7}-[0-9]{1,2}-[0-9]{1,2})[ T].*$', '\\1'), '^([+-]?[0-9]{4,7})$', '\\1-1-1'), '^([+-]?[0-9]{4,7}-[0-9]{1,2})$', '\\1-1') END"},
	{"spark_try_str_to_date", "s", "CASE WHEN s GLOB '[0-9][0-9][0-9][0-9]-[0-9][0-9]-[0-9][0-9]' THEN TRY_CAST(s AS DATE) " +
		"WHEN s GLOB '[0-9][0-9][0-9][0-9]-[0-9][0-9]-[0-9][0-9][ T]*' THEN TRY_CAST(left(s, 10) AS DATE) " +
		"ELSE TRY_CAST(spark_date_norm(trim(s, " + sqlq(blanks) + ")) AS DATE) END"},
	{"spark_cast_invalid", "v, s, ty", "coalesce(v, CASE WHEN s IS NULL THEN NULL ELSE error('[CAST_INVALID_INPUT] The value ''' || s || ''' of the type \"STRING\" cannot be cast to \"' || ty || '\" because it is malformed. Correct the value as per the syntax, or change its target type. Use `try_cast` to tolerate malformed input and return NULL instead.') END)"},
	{"spark_cast_overflow", "v, x, fromty, toty", "coalesce(v, CASE WHEN x IS NULL THEN NULL ELSE error('[CAST_OVERFLOW] The value ' || CAST(x AS VARCHAR) || ' of the type \"' || fromty || '\" cannot be cast to \"' || toty || '\" due to an overflow. Use `try_cast` to tolerate overflow and return NULL instead.') END)"},
	{"spark_decimal_out_of_range", "v, x, p, s", "coalesce(v, CASE WHEN x IS NULL THEN NULL ELSE error('[NUMERIC_VALUE_OUT_OF_RANGE.WITH_SUGGESTION] ' || CAST(x AS VARCHAR) || ' cannot be represented as Decimal(' || p || ', ' || s || '). If necessary set \"spark.sql.ansi.enabled\" to \"false\" to bypass this error, and return NULL instead.') END)"},

	// Timestamps. A wall clock in a zone names the earlier instant when it
	// occurs twice, and moves forward when it falls in a gap (java.time).
	{"spark_local_to_instant", "t, z", "CASE WHEN z = 'UTC' THEN timezone('UTC', t) ELSE list_transform([{'t': t, 'u': timezone(z, t)}], m_li -> CASE WHEN timezone(z, m_li.u - INTERVAL 1 HOUR) = m_li.t THEN m_li.u - INTERVAL 1 HOUR ELSE m_li.u END)[1] END"},
	// Spark's local date-time text as DuckDB reads it (2024 and 2024-1 are
	// midnight of the first day).
	{"spark_ts_local", "l", "TRY_CAST(CASE WHEN regexp_full_match(l, '[+-]?[0-9]{4,7}(-[0-9]{1,2})?') THEN spark_date_norm(l) ELSE l END AS TIMESTAMP)"},
	{"spark_ts_offset", "z", "CASE WHEN upper(z) = 'Z' THEN '+00' WHEN regexp_full_match(z, '(?:UTC|GMT|UT)?[+-][0-9]{1,2}(?::?[0-9]{2}){0,2}') THEN " +
		"list_transform([replace(regexp_replace(z, '^(?:UTC|GMT|UT)', ''), ':', '')], m_off -> CASE WHEN length(m_off) % 2 = 0 THEN left(m_off, 1) || '0' || substr(m_off, 2) ELSE m_off END)[1] END"},
	// +hh, +hhmm, +hhmmss as DuckDB reads an offset.
	{"spark_ts_offset_text", "o", "left(o, 3) || ':' || CASE WHEN length(o) = 3 THEN '00' ELSE substr(o, 4, 2) END || CASE WHEN length(o) = 7 THEN ':' || right(o, 2) ELSE '' END"},
	{"spark_ts_parts", "g, tz", "CASE WHEN g.z = '' THEN spark_local_to_instant(spark_ts_local(g.l), tz) " +
		"WHEN spark_ts_offset(g.z) IS NOT NULL THEN TRY_CAST(CAST(spark_ts_local(g.l) AS VARCHAR) || spark_ts_offset_text(spark_ts_offset(g.z)) AS TIMESTAMPTZ) " +
		"WHEN upper(g.z) IN ('UTC', 'GMT', 'UT') THEN timezone('UTC', spark_ts_local(g.l)) " +
		"ELSE spark_local_to_instant(spark_ts_local(g.l), g.z) END"},
	{"spark_ts_slow", "s, tz", "list_transform([trim(s, " + sqlq(blanks) + ")], m_tst -> CASE WHEN regexp_full_match(m_tst, " + sqlq(reTimestamp) + ") THEN " +
		"list_transform([regexp_extract(m_tst, " + sqlq(reTimestamp) + ", ['l', 'z'])], m_tsg -> spark_ts_parts(m_tsg, tz))[1] END)[1]"},
	// In UTC the wall clock's microseconds are the instant's: no text
	// appended and no zone parsed (4M values: 0.25 s of CPU instead of
	// 0.38 through s || '+00' AS TIMESTAMPTZ).
	{"spark_try_str_to_timestamp", "s, tz", "CASE WHEN s GLOB '[0-9][0-9][0-9][0-9]-[0-9][0-9]-[0-9][0-9][ T][0-1][0-9]:[0-5][0-9]:[0-5][0-9]' OR s GLOB '[0-9][0-9][0-9][0-9]-[0-9][0-9]-[0-9][0-9][ T]2[0-3]:[0-5][0-9]:[0-5][0-9]' " +
		"THEN CASE WHEN tz = 'UTC' THEN make_timestamptz(epoch_us(TRY_CAST(s AS TIMESTAMP))) ELSE spark_local_to_instant(TRY_CAST(s AS TIMESTAMP), tz) END ELSE spark_ts_slow(s, tz) END"},
	{"spark_str_to_timestamp", "s, tz", "spark_cast_invalid(spark_try_str_to_timestamp(s, tz), s, 'TIMESTAMP')"},
	{"spark_try_str_to_ntz", "s", "list_transform([trim(s, " + sqlq(blanks) + ")], m_ntz -> CASE WHEN regexp_full_match(m_ntz, " + sqlq(reTSLocal) + ") THEN spark_ts_local(m_ntz) END)[1]"},
	{"spark_str_to_ntz", "s", "spark_cast_invalid(spark_try_str_to_ntz(s), s, 'TIMESTAMP_NTZ')"},
	{"spark_fraction", "us", "CASE WHEN us % 1000000 = 0 THEN '' ELSE '.' || rtrim(lpad(CAST(((us % 1000000) + 1000000) % 1000000 AS VARCHAR), 6, '0'), '0') END"},
	{"spark_ntz_to_string", "t", "list_transform([t], m_nts -> strftime(m_nts, '%Y-%m-%d %H:%M:%S') || spark_fraction(epoch_us(m_nts)))[1]"},

	// Java's Double.toString / Float.toString from DuckDB's shortest
	// representation.
	{"spark_fp_digits", "s", "CASE WHEN contains(s, 'e') THEN {'d': rtrim(replace(split_part(s, 'e', 1), '.', ''), '0'), 'e': CAST(split_part(s, 'e', 2) AS INTEGER)} " +
		"WHEN split_part(s, '.', 1) <> '0' THEN {'d': rtrim(replace(s, '.', ''), '0'), 'e': length(split_part(s, '.', 1)) - 1} " +
		"ELSE {'d': ltrim(split_part(s, '.', 2), '0'), 'e': length(ltrim(split_part(s, '.', 2), '0')) - length(split_part(s, '.', 2)) - 1} END"},
	// Java's DecimalFormat of a double with n decimals (format_number):
	// rounded half even on the exact value where n cuts its shortest
	// digits; where n is beyond them DecimalFormat pads the digits
	// FloatingDecimal gives with zeros (0.1 with 20 decimals is
	// 0.10000000000000000000, not the binary expansion). Those are the
	// shortest digits up to 15 of them below 2^53; elsewhere they may not
	// be (1E23 is 99,999,999,999,999,990,000,000 in Spark), so the run
	// stops (LOCALLY_UNSUPPORTED.FORMAT_NUMBER) rather than differ.
	{"spark_format_double", "x, n", "list_transform([x], m_fdx -> CASE WHEN m_fdx IS NULL THEN NULL WHEN isnan(m_fdx) THEN 'NaN' " +
		"WHEN isinf(m_fdx) THEN CASE WHEN m_fdx > 0 THEN '∞' ELSE '-∞' END " +
		"WHEN m_fdx = 0 THEN format('{:,.' || n || 'f}', m_fdx) " +
		"ELSE list_transform([spark_fp_digits(CAST(abs(m_fdx) AS VARCHAR))], m_fdg -> CASE WHEN length(m_fdg.d) - 1 - m_fdg.e > n THEN format('{:,.' || n || 'f}', m_fdx) " +
		"WHEN abs(m_fdx) >= 9007199254740992 OR length(m_fdg.d) > 15 THEN error('[LOCALLY_UNSUPPORTED.FORMAT_NUMBER] format_number of the double ' || CAST(m_fdx AS VARCHAR) || ' with ' || n || ' decimals: Java reads its digits with FloatingDecimal, which beyond 15 digits or 2^53 may give others than its shortest representation') " +
		"ELSE CASE WHEN m_fdx < 0 THEN '-' ELSE '' END || list_transform([CASE WHEN m_fdg.e >= 0 THEN m_fdg.d || repeat('0', greatest(m_fdg.e + 1 - length(m_fdg.d), 0)) ELSE repeat('0', -m_fdg.e) || m_fdg.d END], " +
		"m_fdm -> spark_group3(left(m_fdm, greatest(m_fdg.e, 0) + 1)) || CASE WHEN n > 0 THEN '.' || rpad(substr(m_fdm, greatest(m_fdg.e, 0) + 2), n, '0') ELSE '' END)[1] END)[1] END)[1]"},
	// Digits grouped by three with commas, from the right.
	{"spark_group3", "s", "reverse(rtrim(regexp_replace(reverse(s), '([0-9]{3})', '\\1,', 'g'), ','))"},
	{"spark_fp_format", "g, plain", "CASE WHEN NOT plain THEN left(g.d, 1) || '.' || CASE WHEN length(g.d) = 1 THEN '0' ELSE substr(g.d, 2) END || 'E' || g.e " +
		"WHEN g.e >= 0 THEN list_transform([g.d || repeat('0', greatest(g.e + 2 - length(g.d), 0))], m_fpp -> left(m_fpp, g.e + 1) || '.' || substr(m_fpp, g.e + 2))[1] " +
		"ELSE '0.' || repeat('0', -g.e - 1) || g.d END"},
	{"spark_fp_to_string", "x", "list_transform([x], m_fpx -> CASE WHEN m_fpx IS NULL THEN NULL WHEN isnan(m_fpx) THEN 'NaN' WHEN isinf(m_fpx) THEN CASE WHEN m_fpx > 0 THEN 'Infinity' ELSE '-Infinity' END " +
		"WHEN m_fpx = 0 THEN CASE WHEN signbit(m_fpx) THEN '-0.0' ELSE '0.0' END " +
		"ELSE CASE WHEN m_fpx < 0 THEN '-' ELSE '' END || list_transform([spark_fp_digits(CAST(abs(m_fpx) AS VARCHAR))], m_fpg -> spark_fp_format(m_fpg, abs(m_fpx) >= 0.001 AND abs(m_fpx) < 10000000))[1] END)[1]"},

	// Collections.
	{"spark_array_get", "a, i", "CASE WHEN i < 0 OR i >= len(a) THEN error('[INVALID_ARRAY_INDEX] The index ' || i || ' is out of bounds. The array has ' || len(a) || ' elements. Use the SQL function `get()` to tolerate accessing element at invalid index and return NULL instead. If necessary set \"spark.sql.ansi.enabled\" to \"false\" to bypass this error.') ELSE a[i + 1] END"},
}

func allMacros() []macro { return append(append([]macro{}, macros...), extraMacros...) }

// Macros returns the statements that create the macros translated SQL
// calls. Run them once in a DuckDB database before translated queries
// (CREATE OR REPLACE: running them again is harmless).
func Macros() []string {
	all := allMacros()
	byName := map[string]macro{}
	for _, m := range all {
		byName[m.name] = m
	}
	// DuckDB checks a macro's body when it is created: create the macros
	// a body calls first.
	var out []string
	done := map[string]bool{}
	var visit func(m macro)
	visit = func(m macro) {
		if done[m.name] {
			return
		}
		done[m.name] = true
		for _, name := range macroRef.FindAllString(m.body, -1) {
			if dep, ok := byName[name]; ok && name != m.name {
				visit(dep)
			}
		}
		out = append(out, fmt.Sprintf("CREATE OR REPLACE MACRO %s(%s) AS %s", m.name, m.params, m.body))
	}
	for _, m := range all {
		visit(m)
	}
	return out
}

var macroRef = regexp.MustCompile(`\bspark_[a-z0-9_]+`)

// Install creates the macros with exec (a function running one statement).
func Install(ctx context.Context, exec func(ctx context.Context, stmt string) error) error {
	for _, s := range Macros() {
		if err := exec(ctx, s); err != nil {
			return fmt.Errorf("sparksql: create macro: %w (%s)", err, s)
		}
	}
	return nil
}
