package frame

import (
	"fmt"
	"strings"
)

// cast is Polars' cast(x, to, strict): values that do not convert fail
// the run when strict (an InvalidOperationError in Polars, an error()
// here) and are null otherwise.
func (e *plEngine) cast(x *plExpr, to *DType, strict bool, pos int) (*plExpr, error) {
	from := x.t
	if x.lit && x.dyn != "" {
		from = e.typed(x, to)
		if from.Kind == DInt32 && to.IsInteger() {
			from = to
		}
	}
	out := x.derive(to, "")
	out.lit, out.litv = x.lit, x.litv
	src := castSQL(x.sql, x.t, from)
	fail := func(cond, what string) string {
		msg := quoteString(fmt.Sprintf("InvalidOperationError: conversion from `%s` to `%s` failed in column '%s'", shortDtype(from), shortDtype(to), x.name))
		if strict {
			return fmt.Sprintf("CASE WHEN %s IS NULL THEN NULL WHEN %s THEN %s ELSE error(%s) END", src, cond, what, msg)
		}
		return fmt.Sprintf("CASE WHEN %s THEN %s END", cond, what)
	}
	tryCast := func() string {
		return fail(fmt.Sprintf("TRY_CAST(%s AS %s) IS NOT NULL", src, to.Duck()), fmt.Sprintf("TRY_CAST(%s AS %s)", src, to.Duck()))
	}
	switch {
	case from.Equal(to):
		out.sql = src
	case from.Kind == DNull:
		out.sql = "CAST(NULL AS " + to.Duck() + ")"
	case to.Kind == DUnknown || from.Kind == DUnknown:
		return nil, unsupportedAt(pos, "", "a cast from %s to %s", from, to)
	case from.IsInteger() && to.IsInteger(), from.Kind == DBool && to.IsNumeric():
		out.sql = tryCast()
	case from.IsFloat() && to.IsInteger():
		// Polars truncates toward zero; NaN, inf and out-of-range values fail.
		out.sql = fail(fmt.Sprintf("NOT isnan(%[1]s) AND NOT isinf(%[1]s) AND TRY_CAST(trunc(%[1]s) AS %[2]s) IS NOT NULL", src, to.Duck()),
			fmt.Sprintf("CAST(trunc(%s) AS %s)", src, to.Duck()))
	case from.IsNumeric() && to.IsFloat(), from.IsInteger() && to.Kind == DDecimal, from.Kind == DDecimal && to.Kind == DDecimal:
		out.sql = "CAST(" + src + " AS " + to.Duck() + ")"
	case from.IsFloat() && to.Kind == DDecimal:
		out.sql = tryCast()
	case from.IsNumeric() && to.Kind == DBool:
		out.sql = "(" + src + " <> 0)"
	case from.Kind == DString && to.IsInteger():
		out.sql = fail(fmt.Sprintf("regexp_full_match(%[1]s, '[+-]?[0-9]+') AND TRY_CAST(%[1]s AS %[2]s) IS NOT NULL", src, to.Duck()),
			fmt.Sprintf("CAST(%s AS %s)", src, to.Duck()))
	case from.Kind == DString && to.IsFloat():
		out.sql = fail(fmt.Sprintf(`regexp_full_match(%s, '[+-]?([0-9]+\.?[0-9]*([eE][+-]?[0-9]+)?|\.[0-9]+([eE][+-]?[0-9]+)?|inf|infinity|nan)', 'i')`, src),
			fmt.Sprintf("CAST(%s AS %s)", src, to.Duck()))
	case from.Kind == DString && to.Kind == DDecimal:
		out.sql = fail(fmt.Sprintf(`regexp_full_match(%[1]s, '[+-]?([0-9]+\.?[0-9]*|\.[0-9]+)') AND TRY_CAST(%[1]s AS %[2]s) IS NOT NULL`, src, to.Duck()),
			fmt.Sprintf("CAST(%s AS %s)", src, to.Duck()))
	case from.Kind == DString && to.Kind == DDate:
		out.sql = fail(fmt.Sprintf(`regexp_full_match(%[1]s, '[0-9]{4}-[0-9]{2}-[0-9]{2}') AND TRY_CAST(%[1]s AS DATE) IS NOT NULL`, src),
			fmt.Sprintf("CAST(%s AS DATE)", src))
	case from.Kind == DString && to.Kind == DDatetime:
		// Polars' cast reads ISO 8601 with a T between date and time.
		cond := fmt.Sprintf(`regexp_full_match(%[1]s, '[0-9]{4}-[0-9]{2}-[0-9]{2}(T[0-9]{2}:[0-9]{2}(:[0-9]{2}(\.[0-9]{1,9})?)?)?') AND TRY_CAST(%[1]s AS TIMESTAMP) IS NOT NULL`, src)
		v := fmt.Sprintf("CAST(%s AS TIMESTAMP)", src)
		if to.Zone != "" {
			v = "timezone('UTC', " + v + ")"
		}
		out.sql = fail(cond, v)
	case to.Kind == DString:
		s, err := toStringSQL(src, from, pos)
		if err != nil {
			return nil, err
		}
		out.sql = s
	case from.Kind == DDate && to.Kind == DDatetime:
		out.sql = "CAST(" + src + " AS TIMESTAMP)"
		if to.Zone != "" {
			out.sql = "timezone('UTC', " + out.sql + ")"
		}
	case from.Kind == DDatetime && to.Kind == DDate:
		if from.Zone != "" {
			out.sql = "CAST(timezone(" + quoteString(from.Zone) + ", " + src + ") AS DATE)"
		} else {
			out.sql = "CAST(" + src + " AS DATE)"
		}
	case from.Kind == DDatetime && to.Kind == DDatetime:
		switch {
		case from.Zone == "" && to.Zone != "":
			out.sql = "timezone('UTC', " + src + ")"
		case from.Zone != "" && to.Zone == "":
			out.sql = "timezone('UTC', " + src + ")"
		default:
			out.sql = "CAST(" + src + " AS " + to.Duck() + ")"
		}
	case from.IsInteger() && to.Kind == DDatetime:
		// An integer is a count of the type's unit since the epoch.
		us := src
		switch to.Unit {
		case "ms":
			us = "(" + src + " * 1000)"
		case "ns":
			us = "(" + src + " // 1000)"
		}
		out.sql = "make_timestamp(CAST(" + us + " AS BIGINT))"
		if to.Zone != "" {
			out.sql = "timezone('UTC', " + out.sql + ")"
		}
	case from.IsInteger() && to.Kind == DDate:
		out.sql = "(DATE '1970-01-01' + CAST(" + src + " AS INTEGER))"
	case from.Kind == DDatetime && to.IsInteger():
		out.sql = "CAST(epoch_us(" + src + ") AS " + to.Duck() + ")"
		if from.Unit == "ms" {
			out.sql = "CAST(epoch_ms(" + src + ") AS " + to.Duck() + ")"
		}
	case from.Kind == DDate && to.IsInteger():
		out.sql = "CAST((" + src + " - DATE '1970-01-01') AS " + to.Duck() + ")"
	default:
		return nil, unsupportedAt(pos, "", "a cast from %s to %s", from, to)
	}
	return out, nil
}

// toStringSQL formats values as Polars' cast to String does.
func toStringSQL(src string, from *DType, pos int) (string, error) {
	switch {
	case from.IsInteger(), from.Kind == DString, from.Kind == DDate, from.Kind == DDecimal:
		return "CAST(" + src + " AS VARCHAR)", nil
	case from.Kind == DBool:
		return "CAST(" + src + " AS VARCHAR)", nil
	case from.Kind == DFloat64:
		return floatString("CAST(" + src + " AS VARCHAR)"), nil
	case from.Kind == DDatetime:
		f := "%Y-%m-%d %H:%M:%S.%f"
		if from.Unit == "ms" {
			f = "%Y-%m-%d %H:%M:%S.%g"
		}
		if from.Zone != "" {
			return "strftime(timezone(" + quoteString(from.Zone) + ", " + src + "), " + quoteString(f) + ") || '+00:00'", nil
		}
		return "strftime(" + src + ", " + quoteString(f) + ")", nil
	}
	return "", unsupportedAt(pos, "", "a cast from %s to String", from)
}

// floatString rewrites DuckDB's text of a double (s) as Polars writes it:
// the same shortest digits, in exponent form only below 1e-5 and from
// 1e16, the exponent without '+' or leading zeros; NaN and inf as Polars.
func floatString(s string) string {
	exp := "CAST(split_part(" + s + ", 'e', 2) AS INTEGER)"
	mant := "split_part(" + s + ", 'e', 1)"
	return strings.Join([]string{
		"CASE WHEN " + s + " = 'nan' THEN 'NaN'",
		"WHEN " + s + " NOT LIKE '%e%' THEN " + s,
		"WHEN " + exp + " >= 16 OR " + exp + " < -5 THEN " + mant + " || 'e' || CAST(" + exp + " AS VARCHAR)",
		"WHEN " + exp + " < 0 THEN (CASE WHEN " + s + " LIKE '-%' THEN '-' ELSE '' END) || '0.' || repeat('0', -" + exp + " - 1) || replace(ltrim(" + mant + ", '-'), '.', '')",
		"ELSE " + s + " END",
	}, " ")
}
