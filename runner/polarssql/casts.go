package polarssql

import (
	"strings"

	"github.com/laktory/workbench/runner/sqlfront"
)

// castTargets are the dtypes of Polars SQL's type names (FLOAT is
// Float64 in polars' SQL, REAL Float32).
var castTargets = map[string]*Type{
	"boolean": tBool, "tinyint": {Kind: Int8}, "smallint": {Kind: Int16}, "int": tInt32, "bigint": tInt64,
	"float": tFloat32, "double": tFloat64, "string": tString, "date": {Kind: Date},
	"timestamp": {Kind: Datetime, Unit: "us"},
	"utinyint":  {Kind: UInt8}, "usmallint": {Kind: UInt16}, "uint": tUInt32, "ubigint": {Kind: UInt64},
}

// castTarget is the dtype a CAST names: DECIMAL without precision is
// polars' Decimal(38,9).
func castTarget(n *sqlfront.Cast) (*Type, error) {
	if n.Type.Name == "decimal" {
		switch len(n.Type.Params) {
		case 0:
			return decType(38, 9), nil
		case 2:
			p, s := n.Type.Params[0], n.Type.Params[1]
			if p < 1 || p > 38 || s > p {
				return nil, unsupported(n.P, "", "DECIMAL(%d,%d) in Polars SQL", p, s)
			}
			return decType(p, s), nil
		}
		return nil, unsupported(n.P, "", "DECIMAL with %d parameters in Polars SQL", len(n.Type.Params))
	}
	switch {
	case n.Type.Name == "timestamp with time zone":
		// sqlparser-rs reads WITHOUT TIME ZONE as a zone too.
		return nil, rejected(n.Type.P, "SQLInterfaceError", "`timestamp` with timezone is not (yet) supported")
	case n.Type.Name == "timestamp" && len(n.Type.Params) == 1:
		// TIMESTAMP(p): milliseconds up to 3 digits, microseconds up to
		// 6, nanoseconds up to 9.
		switch p := n.Type.Params[0]; {
		case p < 1 || p > 9:
			return nil, rejected(n.Type.P, "SQLSyntaxError", "invalid temporal type precision (expected 1-9, found %d)", p)
		case p < 4 || p > 6:
			return nil, unsupported(n.P, "cast to TIMESTAMP", "TIMESTAMP(%d) (a Datetime of another unit than us) in Polars SQL", p)
		}
		return castTargets["timestamp"], nil
	case n.Type.Written == "float" && len(n.Type.Params) == 1:
		// FLOAT(p): p binary digits, Float32 up to 24.
		switch p := n.Type.Params[0]; {
		case p < 1 || p > 53:
			return nil, rejected(n.Type.P, "SQLSyntaxError", "unsupported `float` size (expected a value between 1 and 53, found %d)", p)
		case p <= 24:
			return tFloat32, nil
		}
		return tFloat64, nil
	}
	t := castTargets[n.Type.Name]
	if t != nil && len(n.Type.Params) == 1 && n.Type.Written != "" && (t.isInt() || t.Kind == String) {
		return t, nil // INT(11), VARCHAR(10): the width changes nothing
	}
	if t == nil || len(n.Type.Params) > 0 {
		return nil, unsupported(n.P, "", "a cast to %s in Polars SQL", strings.ToUpper(n.Type.Name))
	}
	return t, nil
}

// Text polars parses as numbers and dates when casting strings (strictly:
// anything else fails the query; TRY_CAST gives NULL). DuckDB's casts
// accept more (spaces, 1_000, 0x1F, 2024/01/05), so the translation checks
// the text first.
const (
	intText   = `^[+-]?[0-9]+$`
	uintText  = `^[+]?[0-9]+$` // "-0" is not an unsigned integer
	floatText = `^[+-]?(([0-9]+\.?[0-9]*|\.[0-9]+)([eE][+-]?[0-9]+)?|(?i:nan|inf|infinity))$`
	dateCast  = `^[0-9]{4}-[0-9]{1,2}-[0-9]{1,2} *$`
	// A datetime takes a T, optional seconds and fraction (digits past
	// microseconds dropped) and an ignored Z or offset.
	datetimeCast = `^([0-9]{4}-[0-9]{1,2}-[0-9]{1,2})T([0-9]{1,2}:[0-9]{1,2})(:[0-9]{1,2}(\.[0-9]{1,6})?[0-9]*)?(Z|[+-][0-9]{2}:?[0-9]{2})?$`
	// isoSeconds (a GLOB) is the common datetime text: no fraction, no zone.
	isoSeconds = `[0-9][0-9][0-9][0-9]-[0-9][0-9]-[0-9][0-9]T[0-9][0-9]:[0-9][0-9]:[0-9][0-9]`
)

// castFailed is the SQL failing the query as polars' strict cast does.
func castFailed(x *rx, from, to string) string {
	return "error('[InvalidOperationError] conversion from `" + from + "` to `" + to + "` failed for the value ' || " + x.sql + ")"
}

// guardedCast casts x when its text matches re: otherwise the query fails
// (CAST) or the value is NULL (TRY_CAST).
func guardedCast(x *rx, re, conv string, try bool, from, to string) string {
	fail := castFailed(x, from, to)
	if try {
		fail = "NULL"
		conv = "TRY_" + conv
	}
	return "CASE WHEN " + x.sql + " IS NULL THEN NULL WHEN NOT regexp_matches(" + x.sql + ", '" + re + "') THEN " + fail + " ELSE " + conv + " END"
}

// canonicalFirst is a cast of text to a number that skips the regular
// expression of guarded (1-2 us a row, most of a CSV pipeline's cost
// beyond DuckDB's read) where the text is DuckDB's own rendering of the
// number it casts to: such text is digits (a sign, a point, an exponent,
// inf or nan) that the expression accepts, and guarded's cast gives that
// number. Any other text takes guarded, its checks and its error.
func canonicalFirst(x *rx, duckType, guarded string) string {
	try := "TRY_CAST(" + x.sql + " AS " + duckType + ")"
	return "CASE WHEN CAST(" + try + " AS VARCHAR) = " + x.sql + " THEN " + try + " ELSE " + guarded + " END"
}

var rustIntName = map[Kind]string{Int8: "i8", Int16: "i16", Int32: "i32", Int64: "i64", UInt8: "u8", UInt16: "u16", UInt32: "u32", UInt64: "u64", Float32: "f32", Float64: "f64"}

func cast(n *sqlfront.Cast, x *rx) (*rx, error) {
	t, err := castTarget(n)
	if err != nil {
		return nil, err
	}
	from := x.t
	if n.Try && from.Kind != String {
		return nil, unsupported(n.P, "", "TRY_CAST from %s in Polars SQL", from)
	}
	var sql string
	switch {
	case from.Equal(t):
		sql = x.sql
	case from.Kind == Null:
		sql = "CAST(NULL AS " + t.DuckDB() + ")"
	case t.isDecimal():
		if n.Try {
			return nil, unsupported(n.P, "", "TRY_CAST to a decimal in Polars SQL")
		}
		if sql, err = decCast(n.P, x, t); err != nil {
			return nil, err
		}
	case from.isDecimal() && t.isInt():
		// Truncated toward zero.
		sql = "CAST(trunc(" + x.sql + ") AS " + t.DuckDB() + ")"
	case from.isDecimal() && t.isFloat():
		sql = "CAST(" + x.sql + " AS " + t.DuckDB() + ")"
	case (from.isNumeric() || from.Kind == Boolean) && t.isNumeric():
		if from.isFloat() && t.isInt() {
			// polars truncates toward zero (DuckDB would round).
			sql = "CAST(trunc(" + x.sql + ") AS " + t.DuckDB() + ")"
		} else {
			sql = "CAST(" + x.sql + " AS " + t.DuckDB() + ")"
		}
	case from.isNumeric() && t.Kind == Boolean:
		sql = "(" + x.sql + " <> 0)"
	case t.Kind == String:
		if sql, err = castToText(n.P, x); err != nil {
			return nil, err
		}
	case from.Kind == String && t.isInt():
		re := intText
		if t.isUnsigned() {
			re = uintText
		}
		sql = canonicalFirst(x, t.DuckDB(), guardedCast(x, re, "CAST("+x.sql+" AS "+t.DuckDB()+")", n.Try, "str", rustIntName[t.Kind]))
	case from.Kind == String && t.isFloat():
		sql = canonicalFirst(x, t.DuckDB(), guardedCast(x, floatText, "CAST("+x.sql+" AS "+t.DuckDB()+")", n.Try, "str", rustIntName[t.Kind]))
	case from.Kind == String && t.Kind == Date:
		sql = guardedCast(x, dateCast, "CAST(rtrim("+x.sql+", ' ') AS DATE)", n.Try, "str", "date")
	case from.Kind == String && t.Kind == Datetime:
		norm := "regexp_replace(" + x.sql + ", '" + datetimeCast + "', '\\1 \\2\\3')"
		// The fraction past microseconds is dropped, not rounded.
		norm = "regexp_replace(" + norm + ", '(\\.[0-9]{6})[0-9]+$', '\\1')"
		sql = guardedCast(x, datetimeCast, "CAST("+norm+" AS TIMESTAMP)", n.Try, "str", "datetime[μs]")
		// Text of exactly YYYY-MM-DDTHH:MM:SS matches datetimeCast, and its
		// normal form differs from it only by the separator DuckDB reads
		// either way: cast as it is, without the three regular expressions
		// (4.5 us a row); the guarded cast says what a bad field is.
		sql = "CASE WHEN " + x.sql + " GLOB '" + isoSeconds + "' THEN coalesce(TRY_CAST(" + x.sql + " AS TIMESTAMP), " + sql + ") ELSE " + sql + " END"
	case from.Kind == String && t.Kind == Boolean:
		return nil, rejected(n.P, "InvalidOperationError", "casting from Utf8View to Boolean not supported")
	case n.Try:
		return nil, unsupported(n.P, "", "TRY_CAST from %s to %s in Polars SQL", from, t)
	case from.Kind == Datetime && from.Zone == "" && t.Kind == Date:
		sql = "CAST(" + x.sql + " AS DATE)"
	case from.Kind == Date && t.Kind == Datetime:
		sql = "CAST(" + x.sql + " AS " + t.DuckDB() + ")"
	case from.isInt() && t.Kind == Date:
		sql = "CAST(DATE '1970-01-01' + CAST(" + x.sql + " AS INTEGER) AS DATE)"
	case from.Kind == Date && t.isInt():
		sql = "CAST(" + x.sql + " - DATE '1970-01-01' AS " + t.DuckDB() + ")"
	case from.Kind == Datetime && from.Unit == "us" && from.Zone == "" && t.Kind == Int64:
		sql = "epoch_us(" + x.sql + ")"
	case from.isInt() && t.Kind == Datetime:
		sql = "make_timestamp(CAST(" + x.sql + " AS BIGINT))"
	default:
		return nil, unsupported(n.P, "", "a cast from %s to %s in Polars SQL", from, t)
	}
	return derive(x, t, sql), nil
}

// castToText is x as polars writes it as a string: floats as the
// shortest digits that read back (Rust's ryu, 1e16, 1e-7, 0.00001),
// decimals at their scale, datetimes with their fraction (and offset).
func castToText(pos int, x *rx) (string, error) {
	switch t := x.t; {
	case t.isInt(), t.Kind == Boolean, t.Kind == Date, t.isDecimal():
		return "CAST(" + x.sql + " AS VARCHAR)", nil
	case t.Kind == Float64:
		return "polars_float_text(CAST(" + x.sql + " AS VARCHAR), 16, -5)", nil
	case t.Kind == Float32:
		return "polars_float_text(CAST(" + x.sql + " AS VARCHAR), 13, -6)", nil
	case t.Kind == Datetime && (t.Zone == "" || t.Zone == "UTC"):
		frac := map[string]string{"ms": "%g", "us": "%f", "ns": "%n"}[t.Unit]
		suffix := ""
		v := x.sql
		if t.Zone != "" {
			suffix = " || '+00:00'"
			v = "(" + v + " AT TIME ZONE 'UTC')"
		}
		return "(strftime(" + v + ", '%Y-%m-%d %H:%M:%S." + frac + "')" + suffix + ")", nil
	}
	return "", unsupported(pos, "", "a cast from %s to String in Polars SQL", x.t)
}

// floatTextMacros format DuckDB's shortest digits of a float (its VARCHAR
// cast: 1e+16, 1e-07, 0.3333333333333333) as Rust's ryu, which polars
// uses: a plain number while the decimal point stays within lim digits
// (16 for Float64, 13 for Float32) or the number is above 10^lo, else
// scientific with a bare exponent (1e16, 1.5e-7); NaN, inf, -0.0.
var floatTextMacros = []string{
	`CREATE OR REPLACE MACRO polars_float_text4(sg, d, kk, lim, lo) AS CASE
		WHEN d = '' THEN sg || '0.0'
		WHEN kk - length(d) >= 0 AND kk <= lim THEN sg || d || repeat('0', kk - length(d)) || '.0'
		WHEN kk > 0 AND kk <= lim THEN sg || substr(d, 1, kk) || '.' || substr(d, kk + 1)
		WHEN kk > lo AND kk <= 0 THEN sg || '0.' || repeat('0', -kk) || d
		WHEN length(d) = 1 THEN sg || d || 'e' || CAST(kk - 1 AS VARCHAR)
		ELSE sg || substr(d, 1, 1) || '.' || substr(d, 2) || 'e' || CAST(kk - 1 AS VARCHAR) END`,
	`CREATE OR REPLACE MACRO polars_float_text3(sg, dg, kk, lim, lo) AS
		polars_float_text4(sg, rtrim(ltrim(dg, '0'), '0'), kk - (length(dg) - length(ltrim(dg, '0'))), lim, lo)`,
	`CREATE OR REPLACE MACRO polars_float_text2(sg, a, lim, lo) AS polars_float_text3(sg,
		replace(split_part(a, 'e', 1), '.', ''),
		strpos(split_part(a, 'e', 1) || '.', '.') - 1 + CASE WHEN contains(a, 'e') THEN CAST(split_part(a, 'e', 2) AS INTEGER) ELSE 0 END,
		lim, lo)`,
	`CREATE OR REPLACE MACRO polars_float_text(t, lim, lo) AS CASE
		WHEN t IS NULL THEN NULL
		WHEN lower(t) = 'nan' THEN 'NaN'
		WHEN lower(t) IN ('inf', 'infinity') THEN 'inf'
		WHEN lower(t) IN ('-inf', '-infinity') THEN '-inf'
		ELSE polars_float_text2(CASE WHEN starts_with(t, '-') THEN '-' ELSE '' END, ltrim(t, '-'), lim, lo) END`,
}

func init() { macros = append(macros, floatTextMacros...) }
