package frame

import (
	"fmt"
	"regexp"
	"strconv"
	"strings"
)

// The .str, .dt, .list, .struct and .laktory namespaces on POLARS.

func (e *plEngine) needType(x *plExpr, ok bool, op string, pos int) error {
	if !ok {
		return laktoryErr(pos, "InvalidOperationError: `%s` operation not supported for dtype `%s`", op, shortDtype(x.t))
	}
	return nil
}

// strFn registers a string method taking the signature s.
func strFn(name, s string, fn func(e *plEngine, c *call, x *plExpr, a *args) (*plExpr, error)) {
	reg(func(e *plEngine, c *call, x *plExpr) (value, error) {
		a, err := c.bind(s)
		if err != nil {
			return nil, err
		}
		if x.t.Kind != DString && x.t.Kind != DNull {
			return nil, laktoryErr(c.at, "SchemaError: invalid series dtype: expected `String`, got `%s` for `%s`", shortDtype(x.t), x.name)
		}
		return fn(e, c, x, a)
	}, "*.Expr.str."+name)
}

func intArg(a *args, name string) (int64, error) {
	v, ok := a.get(name).(int64)
	if !ok {
		return 0, laktoryErr(a.posOf(name), "TypeError: '%s' must be an integer, got %s", name, pyType(a.get(name)))
	}
	return v, nil
}

func strArg(a *args, name string) (string, error) {
	v, ok := a.get(name).(string)
	if !ok {
		return "", unsupportedAt(a.posOf(name), "pass a string", "%s as a %s", name, pyType(a.get(name)))
	}
	return v, nil
}

// rustRegex checks a pattern that Polars (Rust's regex) and DuckDB (RE2)
// read alike: no lookaround or backreferences (neither has them) and no
// Perl classes RE2 lacks.
func rustRegex(p string, pos int) error {
	if _, err := regexp.Compile(p); err != nil {
		return laktoryErr(pos, "ComputeError: regex error: %v", err)
	}
	return nil
}

// replacement converts a Polars replacement ($1, ${name}) to RE2's (\1).
func replacement(v string, literal bool) string {
	if literal {
		return strings.ReplaceAll(v, `\`, `\\`)
	}
	var b strings.Builder
	for i := 0; i < len(v); i++ {
		switch {
		case v[i] == '\\':
			b.WriteString(`\\`)
		case v[i] == '$' && i+1 < len(v) && v[i+1] == '$':
			b.WriteByte('$')
			i++
		case v[i] == '$' && i+1 < len(v) && v[i+1] >= '0' && v[i+1] <= '9':
			j := i + 1
			for j < len(v) && v[j] >= '0' && v[j] <= '9' {
				j++
			}
			b.WriteString(`\` + v[i+1:j])
			i = j - 1
		case v[i] == '$' && i+1 < len(v) && v[i+1] == '{':
			j := strings.IndexByte(v[i:], '}')
			if j > 0 {
				b.WriteString(`\` + v[i+2:i+j])
				i += j
			} else {
				b.WriteByte('$')
			}
		default:
			b.WriteByte(v[i])
		}
	}
	return b.String()
}

// chronoFormat checks a strftime/strptime format against the specifiers
// chrono (Polars) and DuckDB read alike.
func chronoFormat(f string, pos int) error {
	for i := 0; i < len(f); i++ {
		if f[i] != '%' {
			continue
		}
		if i+1 >= len(f) {
			return laktoryErr(pos, "ComputeError: invalid format string %s", pyStr(f))
		}
		switch f[i+1] {
		case 'Y', 'm', 'd', 'H', 'M', 'S', 'y', 'j', 'b', 'B', 'a', 'A', 'I', 'p', '%', 'e':
			i++
		default:
			return unsupportedAt(pos, "use %Y, %m, %d, %H, %M, %S and literal text", "the format specifier %%%c", f[i+1])
		}
	}
	return nil
}

func init() {
	strFn("len_chars", "", func(e *plEngine, c *call, x *plExpr, a *args) (*plExpr, error) {
		return x.derive(dUInt32, "CAST(length("+x.sql+") AS UINTEGER)"), nil
	})
	strFn("len_bytes", "", func(e *plEngine, c *call, x *plExpr, a *args) (*plExpr, error) {
		return x.derive(dUInt32, "CAST(octet_length(encode("+x.sql+")) AS UINTEGER)"), nil
	})
	strFn("to_uppercase", "", func(e *plEngine, c *call, x *plExpr, a *args) (*plExpr, error) {
		return x.derive(dString, "upper("+x.sql+")"), nil
	})
	strFn("to_lowercase", "", func(e *plEngine, c *call, x *plExpr, a *args) (*plExpr, error) {
		return x.derive(dString, "lower("+x.sql+")"), nil
	})
	for _, side := range []string{"", "_start", "_end"} {
		side := side
		strFn("strip_chars"+side, "characters=None", func(e *plEngine, c *call, x *plExpr, a *args) (*plExpr, error) {
			chars := a.get("characters")
			if chars == nil {
				re := map[string]string{"": `^\s+|\s+$`, "_start": `^\s+`, "_end": `\s+$`}[side]
				return x.derive(dString, "regexp_replace("+x.sql+", "+quoteString(re)+", '', 'g')"), nil
			}
			s, err := strArg(a, "characters")
			if err != nil {
				return nil, err
			}
			fn := map[string]string{"": "trim", "_start": "ltrim", "_end": "rtrim"}[side]
			return x.derive(dString, fn+"("+x.sql+", "+quoteString(s)+")"), nil
		})
	}
	for _, f := range []string{"starts_with", "ends_with"} {
		f := f
		param := map[string]string{"starts_with": "prefix", "ends_with": "suffix"}[f]
		strFn(f, param, func(e *plEngine, c *call, x *plExpr, a *args) (*plExpr, error) {
			p, err := e.exprArg(x.fam, a.get(param), a.posOf(param), false)
			if err != nil {
				return nil, err
			}
			return combine(x.derive(dBool, f+"("+x.sql+", "+p.sql+")"), x, p), nil
		})
	}
	strFn("contains", "pattern, *, literal=False, strict=True", func(e *plEngine, c *call, x *plExpr, a *args) (*plExpr, error) {
		p, err := strArg(a, "pattern")
		if err != nil {
			return nil, err
		}
		if a.boolean("literal") {
			return x.derive(dBool, "contains("+x.sql+", "+quoteString(p)+")"), nil
		}
		if err := rustRegex(p, a.posOf("pattern")); err != nil {
			return nil, err
		}
		return x.derive(dBool, "regexp_matches("+x.sql+", "+quoteString(p)+")"), nil
	})
	for _, all := range []bool{false, true} {
		all := all
		name, s := "replace", "pattern, value, *, literal=False, n=1"
		if all {
			name, s = "replace_all", "pattern, value, *, literal=False"
		}
		strFn(name, s, func(e *plEngine, c *call, x *plExpr, a *args) (*plExpr, error) {
			p, err := strArg(a, "pattern")
			if err != nil {
				return nil, err
			}
			v, err := strArg(a, "value")
			if err != nil {
				return nil, err
			}
			if n, ok := a.get("n").(int64); ok && n != 1 {
				return nil, unsupportedAt(a.posOf("n"), "use replace_all", "replace with n=%d", n)
			}
			lit := a.boolean("literal")
			pat := p
			if lit {
				pat = regexp.QuoteMeta(p)
			} else if err := rustRegex(p, a.posOf("pattern")); err != nil {
				return nil, err
			}
			flags := ""
			if all {
				flags = ", 'g'"
			}
			return x.derive(dString, "regexp_replace("+x.sql+", "+quoteString(pat)+", "+quoteString(replacement(v, lit))+flags+")"), nil
		})
	}
	strFn("slice", "offset, length=None", func(e *plEngine, c *call, x *plExpr, a *args) (*plExpr, error) {
		off, err := intArg(a, "offset")
		if err != nil {
			return nil, err
		}
		start := fmt.Sprintf("%d", off+1)
		if off < 0 {
			start = fmt.Sprintf("greatest(length(%s) + %d, 0) + 1", x.sql, off)
		}
		if a.get("length") == nil {
			return x.derive(dString, "substring("+x.sql+", "+start+")"), nil
		}
		n, err := intArg(a, "length")
		if err != nil {
			return nil, err
		}
		if off < 0 {
			// A window starting before the string is cut at its start.
			end := fmt.Sprintf("(length(%s) + %d + %d)", x.sql, off, n)
			return x.derive(dString, fmt.Sprintf("substring(%s, %s, greatest(%s - greatest(length(%s) + %d, 0), 0))", x.sql, start, end, x.sql, off)), nil
		}
		return x.derive(dString, fmt.Sprintf("substring(%s, %s, %d)", x.sql, start, max(n, 0))), nil
	})
	strFn("head", "n=5", func(e *plEngine, c *call, x *plExpr, a *args) (*plExpr, error) {
		n, err := intArg(a, "n")
		if err != nil {
			return nil, err
		}
		if n < 0 {
			return x.derive(dString, fmt.Sprintf("left(%s, greatest(length(%s) - %d, 0))", x.sql, x.sql, -n)), nil
		}
		return x.derive(dString, fmt.Sprintf("left(%s, %d)", x.sql, n)), nil
	})
	strFn("tail", "n=5", func(e *plEngine, c *call, x *plExpr, a *args) (*plExpr, error) {
		n, err := intArg(a, "n")
		if err != nil {
			return nil, err
		}
		if n < 0 {
			return x.derive(dString, fmt.Sprintf("right(%s, greatest(length(%s) - %d, 0))", x.sql, x.sql, -n)), nil
		}
		return x.derive(dString, fmt.Sprintf("right(%s, %d)", x.sql, n)), nil
	})
	strFn("split", "by, *, inclusive=False", func(e *plEngine, c *call, x *plExpr, a *args) (*plExpr, error) {
		by, err := strArg(a, "by")
		if err != nil {
			return nil, err
		}
		if a.boolean("inclusive") {
			return nil, unsupportedAt(a.posOf("inclusive"), "", "split(inclusive=True)")
		}
		return x.derive(listOf(dString), "string_split("+x.sql+", "+quoteString(by)+")"), nil
	})
	strFn("zfill", "length", func(e *plEngine, c *call, x *plExpr, a *args) (*plExpr, error) {
		n, err := intArg(a, "length")
		if err != nil {
			return nil, err
		}
		s := x.sql
		return x.derive(dString, fmt.Sprintf("CASE WHEN length(%[1]s) >= %[2]d THEN %[1]s WHEN left(%[1]s, 1) IN ('-', '+') THEN left(%[1]s, 1) || lpad(substring(%[1]s, 2), %[2]d - 1, '0') ELSE lpad(%[1]s, %[2]d, '0') END", s, n)), nil
	})
	for _, side := range []string{"start", "end"} {
		side := side
		strFn("pad_"+side, "length, fill_char=' '", func(e *plEngine, c *call, x *plExpr, a *args) (*plExpr, error) {
			n, err := intArg(a, "length")
			if err != nil {
				return nil, err
			}
			fc, err := strArg(a, "fill_char")
			if err != nil {
				return nil, err
			}
			fn := map[string]string{"start": "lpad", "end": "rpad"}[side]
			return x.derive(dString, fmt.Sprintf("CASE WHEN length(%[1]s) >= %[2]d THEN %[1]s ELSE %[3]s(%[1]s, %[2]d, %[4]s) END", x.sql, n, fn, quoteString(fc))), nil
		})
	}
	toTemporal := func(name string, t *DType) {
		strFn(name, "format=None", func(e *plEngine, c *call, x *plExpr, a *args) (*plExpr, error) {
			if a.get("format") == nil {
				return nil, unsupportedAt(c.at, "pass the format, e.g. \"%Y-%m-%d %H:%M:%S\"", "%s without a format (Polars infers one)", name)
			}
			f, err := strArg(a, "format")
			if err != nil {
				return nil, err
			}
			if err := chronoFormat(f, a.posOf("format")); err != nil {
				return nil, err
			}
			return e.parseTemporal(x, f, t, true), nil
		})
	}
	toTemporal("to_datetime", dDatetUs)
	toTemporal("to_date", dDate)
	reg(func(e *plEngine, c *call, x *plExpr) (value, error) {
		a, err := c.bind("dtype, format=None, *, strict=True, exact=True, cache=True, ambiguous='raise'")
		if err != nil {
			return nil, err
		}
		t, err := plType(a.get("dtype"), a.posOf("dtype"))
		if err != nil {
			return nil, err
		}
		if t.Kind != DDate && t.Kind != DDatetime {
			return nil, unsupportedAt(a.posOf("dtype"), "", "strptime to %s", t)
		}
		if a.get("format") == nil {
			return nil, unsupportedAt(c.at, "pass the format", "strptime without a format")
		}
		f, err := strArg(a, "format")
		if err != nil {
			return nil, err
		}
		if err := chronoFormat(f, a.posOf("format")); err != nil {
			return nil, err
		}
		return e.parseTemporal(x, f, t, a.boolean("strict")), nil
	}, "pl.Expr.str.strptime")

	// --- .dt
	part := func(name string, t *DType, sql func(string) string) {
		reg(func(e *plEngine, c *call, x *plExpr) (value, error) {
			if _, err := c.bind(""); err != nil {
				return nil, err
			}
			if x.t.Kind != DDate && x.t.Kind != DDatetime {
				if x.t.Kind == DTime && (name == "hour" || name == "minute" || name == "second") {
					return x.derive(t, "CAST("+sql(x.sql)+" AS "+t.Duck()+")"), nil
				}
				return nil, laktoryErr(c.at, "InvalidOperationError: `%s` operation not supported for dtype `%s`", name, shortDtype(x.t))
			}
			if x.t.Kind == DDate && (name == "hour" || name == "minute" || name == "second" || name == "millisecond" || name == "microsecond" || name == "nanosecond") {
				return nil, laktoryErr(c.at, "InvalidOperationError: `%s` operation not supported for dtype `date`", name)
			}
			return x.derive(t, "CAST("+sql(localTime(x))+" AS "+t.Duck()+")"), nil
		}, "*.Expr.dt."+name)
	}
	part("year", dInt32, func(s string) string { return "year(" + s + ")" })
	part("month", dInt8, func(s string) string { return "month(" + s + ")" })
	part("day", dInt8, func(s string) string { return "day(" + s + ")" })
	part("hour", dInt8, func(s string) string { return "hour(" + s + ")" })
	part("minute", dInt8, func(s string) string { return "minute(" + s + ")" })
	part("second", dInt8, func(s string) string { return "second(" + s + ")" })
	part("millisecond", dInt32, func(s string) string { return "(microsecond(" + s + ") // 1000) % 1000" })
	part("microsecond", dInt32, func(s string) string { return "microsecond(" + s + ") % 1000000" })
	part("nanosecond", dInt32, func(s string) string { return "(microsecond(" + s + ") % 1000000) * 1000" })
	part("weekday", dInt8, func(s string) string { return "isodow(" + s + ")" })
	part("ordinal_day", dInt16, func(s string) string { return "dayofyear(" + s + ")" })
	part("quarter", dInt8, func(s string) string { return "quarter(" + s + ")" })
	reg(func(e *plEngine, c *call, x *plExpr) (value, error) {
		if _, err := c.bind(""); err != nil {
			return nil, err
		}
		if x.t.Kind != DDatetime && x.t.Kind != DDate {
			return nil, laktoryErr(c.at, "InvalidOperationError: `date` operation not supported for dtype `%s`", shortDtype(x.t))
		}
		return x.derive(dDate, "CAST("+localTime(x)+" AS DATE)"), nil
	}, "*.Expr.dt.date")
	reg(func(e *plEngine, c *call, x *plExpr) (value, error) {
		a, err := c.bind("every")
		if err != nil {
			return nil, err
		}
		every, ok := a.get("every").(string)
		if !ok {
			return nil, unsupportedAt(a.posOf("every"), "pass a string such as \"1d\"", "truncate by a %s", pyType(a.get("every")))
		}
		return e.truncate(x, every, c.fn.key, a.posOf("every"))
	}, "*.Expr.dt.truncate")
	for _, name := range []string{"to_string", "strftime"} {
		name := name
		reg(func(e *plEngine, c *call, x *plExpr) (value, error) {
			s := "format"
			if famOf(c.fn.key) == "pl" && name == "to_string" {
				s = "format='iso'"
			}
			a, err := c.bind(s)
			if err != nil {
				return nil, err
			}
			f, err := strArg(a, "format")
			if err != nil {
				return nil, err
			}
			if x.t.Kind != DDatetime && x.t.Kind != DDate {
				return nil, laktoryErr(c.at, "InvalidOperationError: `to_string` operation not supported for dtype `%s`", shortDtype(x.t))
			}
			if err := chronoFormat(f, a.posOf("format")); err != nil {
				return nil, err
			}
			return x.derive(dString, "strftime("+localTime(x)+", "+quoteString(f)+")"), nil
		}, "*.Expr.dt."+name)
	}
	reg(func(e *plEngine, c *call, x *plExpr) (value, error) {
		a, err := c.bind("time_unit='us'")
		if err != nil {
			return nil, err
		}
		u := a.str("time_unit")
		fn := map[string]string{"us": "epoch_us", "ms": "epoch_ms", "ns": "epoch_ns"}[u]
		if fn == "" {
			return nil, laktoryErr(a.posOf("time_unit"), "ValueError: invalid `time_unit`: %s", pyStr(u))
		}
		src := x.sql
		switch x.t.Kind {
		case DDate:
			src = "CAST(" + x.sql + " AS TIMESTAMP)"
		case DDatetime:
		default:
			return nil, laktoryErr(c.at, "InvalidOperationError: `timestamp` operation not supported for dtype `%s`", shortDtype(x.t))
		}
		return x.derive(dInt64, "CAST("+fn+"("+src+") AS BIGINT)"), nil
	}, "*.Expr.dt.timestamp")
	reg(func(e *plEngine, c *call, x *plExpr) (value, error) {
		a, err := c.bind("by")
		if err != nil {
			return nil, err
		}
		by, ok := a.get("by").(string)
		if !ok {
			return nil, unsupportedAt(a.posOf("by"), "", "offset_by with a %s", pyType(a.get("by")))
		}
		iv, err := polarsInterval(by, a.posOf("by"), true)
		if err != nil {
			return nil, err
		}
		if x.t.Kind != DDatetime && x.t.Kind != DDate {
			return nil, laktoryErr(c.at, "InvalidOperationError: `offset_by` operation not supported for dtype `%s`", shortDtype(x.t))
		}
		return x.derive(x.t, "CAST("+x.sql+" + "+iv+" AS "+x.t.Duck()+")"), nil
	}, "*.Expr.dt.offset_by")
	for _, u := range []struct {
		name string
		per  string
	}{{"total_seconds", "1000000"}, {"total_minutes", "60000000"}, {"total_milliseconds", "1000"}, {"total_microseconds", "1"}} {
		u := u
		reg(func(e *plEngine, c *call, x *plExpr) (value, error) {
			if _, err := c.bind(""); err != nil {
				return nil, err
			}
			if x.t.Kind != DDuration {
				return nil, laktoryErr(c.at, "InvalidOperationError: `%s` operation not supported for dtype `%s`", u.name, shortDtype(x.t))
			}
			return x.derive(dInt64, "CAST(trunc(epoch_us("+x.sql+") / "+u.per+") AS BIGINT)"), nil
		}, "*.Expr.dt."+u.name)
	}

	// --- .list
	listFn := func(name, s string, fn func(e *plEngine, c *call, x *plExpr, a *args) (*plExpr, error)) {
		reg(func(e *plEngine, c *call, x *plExpr) (value, error) {
			a, err := c.bind(s)
			if err != nil {
				return nil, err
			}
			if x.t.Kind != DList {
				return nil, laktoryErr(c.at, "SchemaError: invalid series dtype: expected `List`, got `%s` for `%s`", shortDtype(x.t), x.name)
			}
			return fn(e, c, x, a)
		}, "*.Expr.list."+name)
	}
	listFn("len", "", func(e *plEngine, c *call, x *plExpr, a *args) (*plExpr, error) {
		return x.derive(dUInt32, "CAST(len("+x.sql+") AS UINTEGER)"), nil
	})
	listFn("contains", "item", func(e *plEngine, c *call, x *plExpr, a *args) (*plExpr, error) {
		v, err := e.exprArg(x.fam, a.get("item"), a.posOf("item"), false)
		if err != nil {
			return nil, err
		}
		return x.derive(dBool, "list_contains("+x.sql+", "+castSQL(v.sql, v.t, x.t.Inner)+")"), nil
	})
	listFn("get", "index, *, null_on_oob=False", func(e *plEngine, c *call, x *plExpr, a *args) (*plExpr, error) {
		i, err := intArg(a, "index")
		if err != nil {
			return nil, err
		}
		idx := fmt.Sprintf("%d", i+1)
		inRange := fmt.Sprintf("len(%s) > %d", x.sql, i)
		if i < 0 {
			idx = fmt.Sprintf("len(%s) + %d", x.sql, i+1)
			inRange = fmt.Sprintf("len(%s) >= %d", x.sql, -i)
		}
		elem := x.sql + "[" + idx + "]"
		if a.boolean("null_on_oob") {
			return x.derive(x.t.Inner, "CASE WHEN "+inRange+" THEN "+elem+" END"), nil
		}
		return x.derive(x.t.Inner, "CASE WHEN "+x.sql+" IS NULL THEN NULL WHEN "+inRange+" THEN "+elem+" ELSE error('ComputeError: get index is out of bounds') END"), nil
	})
	for _, f := range []string{"sum", "max", "min", "mean"} {
		f := f
		listFn(f, "", func(e *plEngine, c *call, x *plExpr, a *args) (*plExpr, error) {
			it := x.t.Inner
			if !it.IsNumeric() {
				return nil, laktoryErr(c.at, "InvalidOperationError: `list.%s` operation not supported for dtype `%s`", f, shortDtype(x.t))
			}
			t := it
			agg := "list_" + f
			switch f {
			case "mean":
				t, agg = dFloat64, "list_avg"
			case "sum":
				if it.IsInteger() && it.bits() < 32 {
					t = dInt64
				}
				return x.derive(t, "CASE WHEN "+x.sql+" IS NULL THEN NULL ELSE CAST(coalesce(list_sum("+x.sql+"), 0) AS "+t.Duck()+") END"), nil
			}
			return x.derive(t, "CAST("+agg+"("+x.sql+") AS "+t.Duck()+")"), nil
		})
	}

	// --- .struct
	reg(func(e *plEngine, c *call, x *plExpr) (value, error) {
		s := "name"
		if famOf(c.fn.key) == "pl" {
			s = "name, *more_names"
		}
		a, err := c.bind(s)
		if err != nil {
			return nil, err
		}
		if len(a.rest) > 0 {
			return nil, unsupportedAt(c.at, "take the fields one by one", "struct.field with several names")
		}
		name, ok := a.get("name").(string)
		if !ok {
			return nil, laktoryErr(a.posOf("name"), "TypeError: field name must be a string, got %s", pyType(a.get("name")))
		}
		if x.t.Kind != DStruct {
			return nil, laktoryErr(c.at, "SchemaError: invalid series dtype: expected `Struct`, got `%s` for `%s`", shortDtype(x.t), x.name)
		}
		for _, f := range x.t.Fields {
			if f.Name == name {
				out := x.derive(f.Type, "struct_extract("+x.sql+", "+quoteString(f.Name)+")")
				out.name = f.Name
				return out, nil
			}
		}
		err2 := laktoryErr(a.posOf("name"), "StructFieldNotFoundError: %s", name)
		var names []string
		for _, f := range x.t.Fields {
			names = append(names, f.Name)
		}
		err2.Hint = candidates(name, names)
		return nil, err2
	}, "*.Expr.struct.field")

	// --- Laktory's expression namespace
	reg(func(e *plEngine, c *call, x *plExpr) (value, error) {
		a, err := c.bind("p=1.0")
		if err != nil {
			return nil, err
		}
		p, err := e.operand(x.fam, a.get("p"), a.posOf("p"))
		if err != nil {
			return nil, err
		}
		q, err := e.arith("/", x, p, c.at)
		if err != nil {
			return nil, err
		}
		r, err := e.call(&call{ev: e.ev, fn: &callable{key: x.fam + ".Expr.round", name: "round", recv: q}, pos: c.pos, at: c.at})
		if err != nil {
			return nil, err
		}
		return e.arith("*", r.(*plExpr), p, c.at)
	}, "nw.Expr.laktory.roundp")
	reg(func(e *plEngine, c *call, x *plExpr) (value, error) {
		return nil, laktoryErr(c.at, "NotImplementedError: string_split")
	}, "nw.Expr.laktory.string_split")
	reg(func(e *plEngine, c *call, x *plExpr) (value, error) {
		if _, err := c.bind(""); err != nil {
			return nil, err
		}
		// Laktory's current_timestamp is a literal of the time of the call.
		return &plExpr{fam: "nw", t: &DType{Kind: DDatetime, Unit: "us", Zone: "UTC"}, sql: "get_current_timestamp()", name: "literal", pos: c.at, lit: true, scalar: true}, nil
	}, "nw.laktory.current_timestamp")
}

// localTime is a datetime's wall-clock time in its zone (a naive
// TIMESTAMP) or the date itself.
func localTime(x *plExpr) string {
	if x.t.Kind == DDatetime && x.t.Zone != "" {
		return "timezone(" + quoteString(x.t.Zone) + ", " + x.sql + ")"
	}
	return x.sql
}

// parseTemporal is str.to_datetime/to_date/strptime(format).
func (e *plEngine) parseTemporal(x *plExpr, format string, t *DType, strict bool) *plExpr {
	v := "try_strptime(" + x.sql + ", " + quoteString(format) + ")"
	if t.Kind == DDate {
		v = "CAST(" + v + " AS DATE)"
	}
	msg := quoteString(fmt.Sprintf("InvalidOperationError: conversion from `str` to `%s` failed in column '%s'", shortDtype(t), x.name))
	sql := "CASE WHEN " + x.sql + " IS NULL THEN NULL WHEN " + v + " IS NOT NULL THEN " + v
	if strict {
		sql += " ELSE error(" + msg + ") END"
	} else {
		sql += " END"
	}
	return x.derive(t, sql)
}

var everyRe = regexp.MustCompile(`^(\d+)(ns|us|ms|s|m|h|d|w|mo|q|y)$`)

// polarsInterval converts a Polars duration string ("1d", "15m", "1mo")
// into a DuckDB interval.
func polarsInterval(every string, pos int, allowWeeks bool) (string, error) {
	m := everyRe.FindStringSubmatch(every)
	if m == nil || !allowWeeks && m[2] == "w" {
		return "", laktoryErr(pos, "ValueError: Invalid `every` string: %s. Expected string of kind <number><unit>, where 'unit' is one of: ('ns', 'us', 'ms', 's', 'm', 'h', 'd', 'mo', 'q', 'y').", every)
	}
	n, _ := strconv.Atoi(m[1])
	unit := map[string]string{"us": "microseconds", "ms": "milliseconds", "s": "seconds", "m": "minutes", "h": "hours", "d": "days", "w": "days", "mo": "months", "q": "months", "y": "years"}[m[2]]
	switch m[2] {
	case "w":
		n *= 7
	case "q":
		n *= 3
	case "ns":
		return "", unsupportedAt(pos, "", "a duration in nanoseconds")
	}
	return fmt.Sprintf("INTERVAL '%d %s'", n, unit), nil
}

// truncate is dt.truncate(every): windows aligned on the epoch, as Polars.
func (e *plEngine) truncate(x *plExpr, every, key string, pos int) (*plExpr, error) {
	if x.t.Kind != DDatetime && x.t.Kind != DDate {
		return nil, laktoryErr(pos, "InvalidOperationError: `truncate` operation not supported for dtype `%s`", shortDtype(x.t))
	}
	// narwhals checks the string itself and has no weeks.
	iv, err := polarsInterval(every, pos, famOf(key) == "pl")
	if err != nil {
		return nil, err
	}
	origin := "TIMESTAMP '1970-01-01'"
	if x.t.Kind == DDate {
		origin = "DATE '1970-01-01'"
	}
	m := everyRe.FindStringSubmatch(every)
	if m[2] == "w" {
		// Polars' weeks start on Monday (1970-01-05).
		origin = strings.Replace(origin, "01-01", "01-05", 1)
	}
	src := localTime(x)
	sql := "time_bucket(" + iv + ", " + src + ", " + origin + ")"
	if x.t.Kind == DDatetime && x.t.Zone != "" {
		sql = "timezone(" + quoteString(x.t.Zone) + ", " + sql + ")"
	}
	return x.derive(x.t, "CAST("+sql+" AS "+x.t.Duck()+")"), nil
}
