package sparksql

import (
	"fmt"
	"strings"
)

// castMode is how a cast treats values it cannot convert.
type castMode int

const (
	castImplicit castMode = iota // inserted by coercion: ANSI errors
	castExplicit                 // CAST: ANSI errors
	castTry                      // TRY_CAST: NULL instead
)

// cast converts x to type to with Spark's ANSI cast semantics.
func (r *resolver) cast(x *rx, to *Type, mode castMode) (*rx, error) {
	if x.t.Equal(to) {
		return x, nil
	}
	sql, err := r.castSQL(x.sql, x.t, to, mode, x.name)
	if err != nil {
		if e, ok := err.(*Error); ok && e.Pos == 0 {
			e.Pos = x.pos
		}
		return nil, err
	}
	out := mk(to, sql, x.name, x)
	out.pos = x.pos
	if x.lit != nil && mode == castImplicit {
		out.lit = x.lit
	}
	return out, nil
}

// castSQL is the DuckDB SQL converting the value sql of type from to to.
func (r *resolver) castSQL(sql string, from, to *Type, mode castMode, name string) (string, error) {
	try := mode == castTry
	cast := func(t string) string {
		if try {
			return "TRY_CAST(" + sql + " AS " + t + ")"
		}
		return "CAST(" + sql + " AS " + t + ")"
	}
	bad := func() (string, error) {
		kw := "CAST"
		if try {
			kw = "TRY_CAST"
		}
		return "", sparkErr(0, "DATATYPE_MISMATCH.CAST_WITHOUT_SUGGESTION", "Cannot resolve \"%s(%s AS %s)\" due to data type mismatch: cannot cast %q to %q.", kw, name, to.sqlName(), strings.ToUpper(from.String()), strings.ToUpper(to.String()))
	}
	if from.Equal(to) {
		return sql, nil
	}
	if from.Kind == KVoid {
		return "CAST(" + sql + " AS " + to.DuckDB() + ")", nil
	}
	if from.Kind == KCalendar || to.Kind == KCalendar {
		// Spark casts a CalendarInterval to STRING only.
		if from.Kind == KCalendar && to.Kind == KString {
			return "spark_cal_string(" + sql + ")", nil
		}
		return bad()
	}
	if from.Kind == to.Kind && (from.Kind == KIntervalDT || from.Kind == KIntervalYM) && intervalRank[to.To] >= intervalRank[from.To] {
		// INTERVAL MINUTE to INTERVAL DAY TO SECOND and the like: the same
		// DuckDB INTERVAL (Spark widens them to compare and add them); a
		// cast to a coarser end field (which truncates) is not this.
		return sql, nil
	}
	switch to.Kind {
	case KString:
		return r.toStringSQL(sql, from, mode)
	case KBool:
		switch {
		case from.Kind == KString:
			return r.strCast(sql, to, mode, "spark_str_to_bool"), nil
		case from.isNumeric():
			return "(" + sql + " <> 0)", nil
		}
	case KByte, KShort, KInt, KLong:
		switch {
		case from.isIntegral() || from.Kind == KBool:
			return cast(to.DuckDB()), nil
		case from.isFractional() || from.Kind == KDecimal:
			return r.overflowCast("trunc("+sql+")", from, to, try), nil
		case from.Kind == KString:
			return r.strCast(sql, to, mode, "spark_str_to_integral"), nil
		case from.Kind == KTimestamp:
			return r.overflowCast("floor(epoch_us("+sql+") / 1000000)", tDouble, to, try), nil
		}
	case KFloat, KDouble:
		switch {
		case from.isNumeric() || from.Kind == KBool:
			return cast(to.DuckDB()), nil
		case from.Kind == KString:
			return r.strCast(sql, to, mode, "spark_str_to_double"), nil
		case from.Kind == KTimestamp:
			return "CAST(epoch_us(" + sql + ") / 1000000 AS " + to.DuckDB() + ")", nil
		}
	case KDecimal:
		switch {
		case widensTo(from, to):
			return cast(to.DuckDB()), nil
		case from.isIntegral() || from.Kind == KDecimal || from.Kind == KBool:
			return r.decimalCast(sql, to, try), nil
		case from.isFractional():
			// Spark converts through the double's shortest decimal text.
			return r.decimalCast("CAST("+sql+" AS VARCHAR)", to, try), nil
		case from.Kind == KString:
			return r.strCast(sql, to, mode, "spark_str_to_decimal"), nil
		}
	case KDate:
		switch from.Kind {
		case KString:
			return r.strCast(sql, to, mode, "spark_str_to_date"), nil
		case KTimestamp:
			return "CAST(" + r.wallClock(sql) + " AS DATE)", nil
		case KTimestampNTZ:
			return "CAST(" + sql + " AS DATE)", nil
		}
	case KTimestamp:
		switch from.Kind {
		case KString:
			fn := "spark_str_to_timestamp"
			if try {
				fn = "spark_try_str_to_timestamp"
			}
			return fn + "(" + sql + ", " + duckString(r.tz) + ")", nil
		case KDate:
			return r.instant("CAST(" + sql + " AS TIMESTAMP)"), nil
		case KTimestampNTZ:
			return r.instant(sql), nil
		}
		if mode != castImplicit && from.Kind == KDecimal {
			// Spark's decimalToTimestamp: micros truncated toward zero.
			micros := unscaled(sql, from.S, 6)
			if from.S > 6 {
				micros = "spark_trunc_div(" + unscaled(sql, from.S, from.S) + ", " + hugePow10(from.S-6) + ")"
			}
			bad := "error('[LOCALLY_UNSUPPORTED.TIMESTAMP_RANGE] ' || CAST(" + sql + " AS VARCHAR) || ' seconds since the epoch is beyond the timestamps the local engine holds')"
			if try {
				bad = "NULL"
			}
			return "CASE WHEN " + sql + " IS NULL THEN NULL WHEN abs(" + micros + ") > CAST('9223372036854775807' AS HUGEINT) THEN " + bad + " ELSE timezone('UTC', make_timestamp(CAST(" + micros + " AS BIGINT))) END", nil
		}
		if mode != castImplicit && (from.isIntegral() || from.isFractional()) {
			// Seconds since the epoch (Spark's longToTimestamp and
			// doubleToTimestamp: micros truncated toward zero); NaN and
			// infinities are CAST_INVALID_INPUT (NULL for TRY_CAST).
			micros := "CAST(" + sql + " AS HUGEINT) * 1000000"
			if from.isFractional() {
				micros = "CAST(trunc(CAST(" + sql + " AS DOUBLE) * 1000000) AS HUGEINT)"
			}
			ts := "timezone('UTC', make_timestamp(CAST(" + micros + " AS BIGINT)))"
			bad := "error('[LOCALLY_UNSUPPORTED.TIMESTAMP_RANGE] ' || CAST(" + sql + " AS VARCHAR) || ' seconds since the epoch is beyond the timestamps the local engine holds')"
			if try {
				bad = "NULL"
			}
			guard := "abs(" + micros + ") > CAST('9223372036854775807' AS HUGEINT)"
			if from.isFractional() {
				invalid := "error('[CAST_INVALID_INPUT] The value ' || CAST(" + sql + " AS VARCHAR) || ' of the type \"" + strings.ToUpper(from.String()) + "\" cannot be cast to \"TIMESTAMP\" because it is malformed. Correct the value as per the syntax, or change its target type. Use `try_cast` to tolerate malformed input and return NULL instead.')"
				if try {
					invalid = "NULL"
				}
				return "CASE WHEN " + sql + " IS NULL THEN NULL WHEN isnan(" + sql + ") OR isinf(" + sql + ") THEN " + invalid +
					" WHEN abs(CAST(" + sql + " AS DOUBLE)) >= 9.2e12 THEN " + bad + " ELSE " + ts + " END", nil
			}
			return "CASE WHEN " + sql + " IS NULL THEN NULL WHEN " + guard + " THEN " + bad + " ELSE " + ts + " END", nil
		}
	case KTimestampNTZ:
		switch from.Kind {
		case KString:
			fn := "spark_str_to_ntz"
			if try {
				fn = "spark_try_str_to_ntz"
			}
			return fn + "(" + sql + ")", nil
		case KDate:
			return "CAST(" + sql + " AS TIMESTAMP)", nil
		case KTimestamp:
			return r.wallClock(sql), nil
		}
	case KBinary:
		if from.Kind == KString {
			return "encode(" + sql + ")", nil
		}
	case KArray:
		if from.Kind == KArray {
			v := r.lambdaName()
			inner, err := r.castSQL(v, from.Elem, to.Elem, mode, name)
			if err != nil {
				return "", err
			}
			return "list_transform(" + sql + ", " + v + " -> " + inner + ")", nil
		}
	case KMap:
		if from.Kind == KMap {
			v := r.lambdaName()
			k, err := r.castSQL("struct_extract("+v+", 'key')", from.Key, to.Key, mode, name)
			if err != nil {
				return "", err
			}
			val, err := r.castSQL("struct_extract("+v+", 'value')", from.Val, to.Val, mode, name)
			if err != nil {
				return "", err
			}
			return "map_from_entries(list_transform(map_entries(" + sql + "), " + v + " -> {'key': " + k + ", 'value': " + val + "}))", nil
		}
	case KStruct:
		if from.Kind == KStruct && len(from.Fields) == len(to.Fields) {
			var parts []string
			for i, f := range to.Fields {
				fv, err := r.castSQL("struct_extract("+sql+", "+duckString(from.Fields[i].Name)+")", from.Fields[i].Type, f.Type, mode, name)
				if err != nil {
					return "", err
				}
				parts = append(parts, duckIdent(f.Name)+" := "+fv)
			}
			return "CASE WHEN " + sql + " IS NULL THEN NULL ELSE struct_pack(" + strings.Join(parts, ", ") + ") END", nil
		}
	}
	return bad()
}

// lambdaName is a fresh DuckDB lambda parameter name.
func (r *resolver) lambdaName() string {
	r.n++
	return fmt.Sprintf("lx%d", r.n)
}

// wallClock is the session-local wall clock (TIMESTAMP) of a TIMESTAMPTZ.
func (r *resolver) wallClock(sql string) string {
	return "timezone(" + duckString(r.tz) + ", " + sql + ")"
}

// instant is the TIMESTAMPTZ a session-local wall clock names.
func (r *resolver) instant(sql string) string {
	if r.tz == "UTC" {
		return "timezone('UTC', " + sql + ")"
	}
	return localToInstant(sql, duckString(r.tz))
}

// overflowCast truncates a fractional value to an integral type; out of
// range values raise CAST_OVERFLOW (NULL for TRY_CAST).
func (r *resolver) overflowCast(sql string, from, to *Type, try bool) string {
	if try {
		return "TRY_CAST(" + sql + " AS " + to.DuckDB() + ")"
	}
	return fmt.Sprintf("spark_cast_overflow(TRY_CAST(%s AS %s), %s, %s, %s)", sql, to.DuckDB(), sql, duckString(strings.ToUpper(from.String())), duckString(strings.ToUpper(to.String())))
}

// widensTo says whether every value of an integral or decimal type is a
// value of the decimal type to (no rounding, no overflow).
func widensTo(from, to *Type) bool {
	digits, scale := 0, 0
	switch from.Kind {
	case KByte:
		digits = 3
	case KShort:
		digits = 5
	case KInt:
		digits = 10
	case KLong:
		digits = 19
	case KDecimal:
		digits, scale = from.P, from.S
	default:
		return false
	}
	return scale <= to.S && digits-scale <= to.P-to.S
}

// decimalCast rounds half up to the target scale; values that do not fit
// raise NUMERIC_VALUE_OUT_OF_RANGE (NULL for TRY_CAST).
func (r *resolver) decimalCast(sql string, to *Type, try bool) string {
	if try {
		return "TRY_CAST(" + sql + " AS " + to.DuckDB() + ")"
	}
	return fmt.Sprintf("spark_decimal_out_of_range(TRY_CAST(%s AS %s), %s, %d, %d)", sql, to.DuckDB(), sql, to.P, to.S)
}

// strCast parses strings as Spark does (trimmed, only Spark's syntax):
// malformed values raise CAST_INVALID_INPUT, or give NULL for TRY_CAST.
func (r *resolver) strCast(sql string, to *Type, mode castMode, macro string) string {
	valid := ""
	switch macro {
	case "spark_str_to_integral":
		valid = "spark_integral_text(" + sql + ")"
	case "spark_str_to_double":
		valid = "spark_double_text(" + sql + ")"
	case "spark_str_to_decimal":
		valid = "spark_decimal_text(" + sql + ")"
	}
	conv := "TRY_CAST(" + valid + " AS " + to.DuckDB() + ")"
	switch macro {
	case "spark_str_to_bool":
		conv = "spark_to_bool(" + sql + ")"
	case "spark_str_to_date":
		conv = "spark_try_str_to_date(" + sql + ")"
	}
	if mode == castTry {
		return conv
	}
	return fmt.Sprintf("spark_cast_invalid(%s, %s, %s)", conv, sql, duckString(strings.ToUpper(to.String())))
}

// toStringSQL formats a value as Spark's CAST(... AS STRING) does.
func (r *resolver) toStringSQL(sql string, from *Type, mode castMode) (string, error) {
	switch from.Kind {
	case KString:
		return sql, nil
	case KBool, KByte, KShort, KInt, KLong, KDecimal, KDate:
		return "CAST(" + sql + " AS VARCHAR)", nil
	case KFloat, KDouble:
		return "spark_fp_to_string(" + sql + ")", nil
	case KTimestamp:
		return "spark_ntz_to_string(" + r.wallClock(sql) + ")", nil
	case KTimestampNTZ:
		return "spark_ntz_to_string(" + sql + ")", nil
	case KBinary:
		return "decode(" + sql + ")", nil
	case KIntervalYM:
		return ymIntervalString(sql, from), nil
	case KIntervalDT:
		return dtIntervalString(sql, from), nil
	case KArray:
		v := r.lambdaName()
		el, err := r.toStringSQL(v, from.Elem, mode)
		if err != nil {
			return "", err
		}
		return "('[' || array_to_string(list_transform(" + sql + ", " + v + " -> coalesce(" + el + ", 'null')), ', ') || ']')", nil
	case KMap:
		v := r.lambdaName()
		k, err := r.toStringSQL("struct_extract("+v+", 'key')", from.Key, mode)
		if err != nil {
			return "", err
		}
		val, err := r.toStringSQL("struct_extract("+v+", 'value')", from.Val, mode)
		if err != nil {
			return "", err
		}
		return "('{' || array_to_string(list_transform(map_entries(" + sql + "), " + v + " -> " + k + " || ' -> ' || coalesce(" + val + ", 'null')), ', ') || '}')", nil
	case KStruct:
		var parts []string
		for _, f := range from.Fields {
			fv, err := r.toStringSQL("struct_extract("+sql+", "+duckString(f.Name)+")", f.Type, mode)
			if err != nil {
				return "", err
			}
			parts = append(parts, "coalesce("+fv+", 'null')")
		}
		return "CASE WHEN " + sql + " IS NULL THEN NULL ELSE '{' || " + strings.Join(parts, " || ', ' || ") + " || '}' END", nil
	}
	return "", unsupported(0, "", "casting %s to STRING", strings.ToUpper(from.String()))
}

// ymIntervalString is Spark's cast of a YEAR TO MONTH interval (or YEAR,
// or MONTH) to STRING, IntervalUtils.toYearMonthIntervalString in ANSI
// style: INTERVAL '1-2' YEAR TO MONTH, INTERVAL '-1' YEAR (the years of
// the months, truncated), INTERVAL '14' MONTH.
func ymIntervalString(sql string, t *Type) string {
	m := "CAST(datepart('year', " + sql + ") * 12 + datepart('month', " + sql + ") AS BIGINT)"
	sign := "CASE WHEN " + m + " < 0 THEN '-' ELSE '' END"
	years := sign + " || CAST(abs(" + m + ") // 12 AS VARCHAR)"
	var body, fields string
	switch {
	case t.From == t.To && t.From == "MONTH":
		body, fields = "CAST("+m+" AS VARCHAR)", "MONTH"
	case t.From == t.To:
		body, fields = years, "YEAR"
	default:
		body, fields = years+" || '-' || CAST(abs("+m+") % 12 AS VARCHAR)", "YEAR TO MONTH"
	}
	return "CASE WHEN " + sql + " IS NULL THEN NULL ELSE 'INTERVAL ''' || " + body + " || ''' " + fields + "' END"
}

// dtIntervalString is Spark's cast of a DAY TO SECOND interval (or one of
// its sub-ranges) to STRING, IntervalUtils.toDayTimeIntervalString in
// ANSI style: the start field unpadded (hours and minutes at least two
// digits), the others two digits, seconds with the significant digits of
// their fraction and a leading zero below 10 (INTERVAL '3 04:05:06.789'
// DAY TO SECOND, INTERVAL '-00:01' HOUR TO MINUTE).
func dtIntervalString(sql string, t *Type) string {
	us := "epoch_us(" + sql + ")"
	a := "abs(" + us + ")"
	secs := func(rest string) string {
		// BigDecimal.valueOf(rest, 6).stripTrailingZeros.toPlainString.
		dec := "rtrim(rtrim(CAST(CAST(" + rest + " AS DECIMAL(24,6)) / 1000000 AS DECIMAL(24,6))::VARCHAR, '0'), '.')"
		return "CASE WHEN " + rest + " < 10000000 THEN '0' ELSE '' END || " + dec
	}
	two := func(v string) string { return "printf('%02d', " + v + ")" }
	unit := map[string]string{"DAY": "86400000000", "HOUR": "3600000000", "MINUTE": "60000000"}
	rank := map[string]int{"DAY": 0, "HOUR": 1, "MINUTE": 2, "SECOND": 3}
	from, to := rank[t.From], rank[t.To]
	var parts []string
	rest := a
	switch t.From {
	case "DAY":
		parts = append(parts, "CAST("+a+" // 86400000000 AS VARCHAR)")
	case "HOUR", "MINUTE":
		parts = append(parts, two(a+" // "+unit[t.From]))
	default:
		parts = append(parts, secs(a))
	}
	if u, ok := unit[t.From]; ok {
		rest = "(" + a + " % " + u + ")"
	}
	if from < 1 && 1 <= to {
		parts = append(parts, "' ' || "+two(rest+" // 3600000000"))
		rest = "(" + rest + " % 3600000000)"
	}
	if from < 2 && 2 <= to {
		parts = append(parts, "':' || "+two(rest+" // 60000000"))
		rest = "(" + rest + " % 60000000)"
	}
	if from < 3 && 3 <= to {
		parts = append(parts, "':' || "+secs(rest))
	}
	fields := t.From
	if t.From != t.To {
		fields += " TO " + t.To
	}
	return "CASE WHEN " + sql + " IS NULL THEN NULL ELSE 'INTERVAL ''' || CASE WHEN " + us + " < 0 THEN '-' ELSE '' END || " + strings.Join(parts, " || ") + " || ''' " + fields + "' END"
}
