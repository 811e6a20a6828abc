package sparksql

import (
	"fmt"
	"strconv"
	"strings"
)

// Spark's format_string and printf are java.util.Formatter over the
// arguments' internal values: a DATE is its day number, a TIMESTAMP its
// microseconds, a DECIMAL Spark's Decimal (which %f refuses), NULL is
// "null" (false for %b). formatString translates a literal format to
// DuckDB string expressions conversion by conversion.

var formatMacros = []macro{
	// Digits of a non-negative integer string grouped by thousands.
	{"spark_group3", "d", "CASE WHEN length(d) <= 3 THEN d ELSE array_to_string(list_transform(generate_series(0, (length(d) - 1) // 3), m_group_i -> CASE WHEN m_group_i = 0 THEN left(d, length(d) - 3 * ((length(d) - 1) // 3)) ELSE substr(d, length(d) - 3 * ((length(d) - 1) // 3) + 3 * (m_group_i - 1) + 1, 3) END), ',') END"},
	// Java's %.nf of a finite double's magnitude: its shortest decimal
	// digits (Double.toString's) rounded half up at n places; beyond the
	// range of DECIMAL(38, n) the digits are padded with zeros.
	{"spark_fixed", "v, n", "CASE WHEN abs(v) < 1e20 THEN CAST(CAST(CAST(abs(v) AS VARCHAR) AS DECIMAL(38, 17)) AS VARCHAR) ELSE spark_fixed_big(CAST(abs(v) AS VARCHAR)) END"},
	{"spark_fixed_big", "s", "replace(regexp_extract(s, '^([0-9.]+)e', 1), '.', '') || repeat('0', CAST(regexp_extract(s, 'e\\+?(-?[0-9]+)$', 1) AS INTEGER) + 1 - length(replace(regexp_extract(s, '^([0-9.]+)e', 1), '.', '')))"},
}

type fmtSpec struct {
	flags, width, prec string
	conv               byte
	argIndex           int // 1-based; 0: the next argument
}

func (f fmtSpec) has(flag byte) bool { return strings.IndexByte(f.flags, flag) >= 0 }

// formatString translates format_string/printf with the literal format f.
func (r *resolver) formatString(c *fcall, f string) (*rx, error) {
	var parts []string
	var lit strings.Builder
	flush := func() {
		if lit.Len() > 0 {
			parts = append(parts, duckString(lit.String()))
			lit.Reset()
		}
	}
	next, last := 1, 0
	for i := 0; i < len(f); i++ {
		if f[i] != '%' {
			lit.WriteByte(f[i])
			continue
		}
		spec, end, err := parseFmtSpec(f, i)
		if err != nil {
			return nil, sparkErr(c.argPos(0), err.class, "%s", err.msg)
		}
		i = end
		switch spec.conv {
		case '%':
			lit.WriteString(padLiteralJava("%", spec))
			continue
		case 'n':
			lit.WriteString("\n")
			continue
		}
		k := spec.argIndex
		switch {
		case k == -1: // %<s: the previous argument
			k = last
		case k == 0:
			k = next
			next++
		}
		if k < 1 || k >= len(c.args) {
			return nil, sparkErr(c.argPos(0), "IllegalArgumentException", "Format specifier '%s'", f[i-len(spec.flags):i+1])
		}
		last = k
		v, cerr := r.fmtConversion(c, spec, k)
		if cerr != nil {
			return nil, cerr
		}
		flush()
		parts = append(parts, v)
	}
	flush()
	if len(parts) == 0 {
		return c.out(tString, "''"), nil
	}
	return c.out(tString, "("+strings.Join(parts, " || ")+")"), nil
}

type fmtErr struct{ class, msg string }

// parseFmtSpec parses %[index$][flags][width][.precision]conversion at i.
func parseFmtSpec(f string, i int) (fmtSpec, int, *fmtErr) {
	var s fmtSpec
	j := i + 1
	// An argument index: digits then $, or <.
	k := j
	for k < len(f) && isDigit(f[k]) {
		k++
	}
	if k < len(f) && f[k] == '$' && k > j {
		s.argIndex, _ = strconv.Atoi(f[j:k])
		if s.argIndex == 0 {
			return s, 0, &fmtErr{"java.util.IllegalFormatArgumentIndexException", "Illegal format argument index = 0"}
		}
		j = k + 1
	} else if j < len(f) && f[j] == '<' {
		s.argIndex = -1
		j++
	}
	k = j
	for k < len(f) && strings.IndexByte("-#+ 0,(", f[k]) >= 0 {
		k++
	}
	s.flags = f[j:k]
	j = k
	for k < len(f) && isDigit(f[k]) {
		k++
	}
	s.width = f[j:k]
	if k < len(f) && f[k] == '.' {
		m := k + 1
		for m < len(f) && isDigit(f[m]) {
			m++
		}
		s.prec, k = f[k+1:m], m
	}
	if k >= len(f) {
		return s, 0, &fmtErr{"java.util.UnknownFormatConversionException", "Conversion = '%'"}
	}
	s.conv = f[k]
	return s, k, nil
}

// padJava pads the SQL string v to the spec's width (spaces; on the right
// with the - flag).
func padJava(v string, s fmtSpec) string {
	if s.width == "" {
		return v
	}
	if s.has('-') {
		return "rpad(" + v + ", CAST(greatest(" + s.width + ", length(" + v + ")) AS INTEGER), ' ')"
	}
	return "lpad(" + v + ", CAST(greatest(" + s.width + ", length(" + v + ")) AS INTEGER), ' ')"
}

// padLiteral pads a literal string as padJava would.
func padLiteralJava(v string, s fmtSpec) string {
	n, _ := strconv.Atoi(s.width)
	for len([]rune(v)) < n {
		if s.has('-') {
			v += " "
		} else {
			v = " " + v
		}
	}
	return v
}

// fmtConversion is one conversion of argument k as a DuckDB string
// expression (never NULL).
func (r *resolver) fmtConversion(c *fcall, s fmtSpec, k int) (string, error) {
	a := c.args[k]
	pos := c.argPos(k)
	mismatch := func() error {
		return sparkErr(pos, javaFormatConversion, "%c != %s", s.conv, javaClassOf(a.t))
	}
	unsupportedConv := func(what string) error {
		return unsupported(c.argPos(0), "use %s, %d, %x, %o, %f, %b or %c", "%s in format_string", what)
	}
	// NULL prints "null", cut to the precision, for every conversion.
	nullText := "null"
	if n, err := strconv.Atoi(s.prec); err == nil && n < 4 {
		nullText = nullText[:n]
	}
	if s.conv >= 'A' && s.conv <= 'Z' {
		nullText = strings.ToUpper(nullText) // %S, %X, %B ... upper-case "null" too
	}
	null := padLiteralJava(nullText, s)
	isNull := a.sql + " IS NULL"
	switch s.conv {
	case 's', 'S':
		if s.has('#') || s.has('0') || s.has('+') || s.has(' ') || s.has(',') || s.has('(') {
			return "", sparkErr(c.argPos(0), "java.util.FormatFlagsConversionMismatchException", "Conversion = s, Flags = %s", s.flags)
		}
		var v string
		switch {
		case a.t.Kind == KVoid:
			return duckString(null), nil
		case a.t.Kind == KDate:
			v = "coalesce(CAST(date_diff('day', DATE '1970-01-01', " + a.sql + ") AS VARCHAR), 'null')"
		case a.t.Kind == KTimestamp, a.t.Kind == KTimestampNTZ:
			v = "coalesce(CAST(epoch_us(" + a.sql + ") AS VARCHAR), 'null')"
		case a.t.isAtomic() && a.t.Kind != KBinary && a.t.Kind != KIntervalDT && a.t.Kind != KIntervalYM:
			x, err := r.stringArg(a, pos)
			if err != nil {
				return "", err
			}
			v = "coalesce(" + x.sql + ", 'null')"
		default:
			return "", unsupportedConv("%s of a " + strings.ToUpper(a.t.String()) + " (Spark prints its internal form)")
		}
		if s.prec != "" {
			v = "left(" + v + ", " + s.prec + ")"
		}
		if s.conv == 'S' {
			v = "spark_upper(" + v + ")"
		}
		return padJava(v, s), nil
	case 'b', 'B':
		var v string
		switch a.t.Kind {
		case KBool:
			v = "CASE WHEN " + a.sql + " THEN 'true' ELSE 'false' END"
		case KVoid:
			v = "'false'"
		default:
			v = "CASE WHEN " + isNull + " THEN 'false' ELSE 'true' END"
		}
		if s.prec != "" {
			v = "left(" + v + ", " + s.prec + ")"
		}
		if s.conv == 'B' {
			v = "upper(" + v + ")"
		}
		return padJava(v, s), nil
	case 'c', 'C':
		if !a.t.isIntegral() && a.t.Kind != KVoid {
			return "", mismatch()
		}
		v := "chr(CAST(" + a.sql + " AS INTEGER))"
		if s.conv == 'C' {
			v = "spark_upper(" + v + ")"
		}
		return "CASE WHEN " + isNull + " THEN " + duckString(null) + " ELSE " + padJava(v, s) + " END", nil
	case 'd':
		if !a.t.isIntegral() {
			if a.t.Kind == KVoid {
				return duckString(null), nil
			}
			return "", mismatch()
		}
		v := "CAST(" + a.sql + " AS HUGEINT)"
		mag := "CAST(abs(" + v + ") AS VARCHAR)"
		if s.has(',') {
			mag = "spark_group3(" + mag + ")"
		}
		return "CASE WHEN " + isNull + " THEN " + duckString(null) + " ELSE " + signed(v+" < 0", mag, s) + " END", nil
	case 'x', 'X', 'o':
		if !a.t.isIntegral() {
			if a.t.Kind == KVoid {
				return duckString(null), nil
			}
			return "", mismatch()
		}
		if s.has('+') || s.has(' ') || s.has(',') || s.has('(') {
			return "", sparkErr(c.argPos(0), "java.util.FormatFlagsConversionMismatchException", "Conversion = %c, Flags = %s", s.conv, s.flags)
		}
		bits := map[Kind]int{KByte: 8, KShort: 16, KInt: 32, KLong: 64}[a.t.Kind]
		// Negative values as their two's complement of the type's width.
		u := fmt.Sprintf("CAST(CASE WHEN %[1]s < 0 THEN CAST(%[1]s AS HUGEINT) + (CAST(1 AS HUGEINT) << %[2]d) ELSE %[1]s END AS UBIGINT)", a.sql, bits)
		digits, prefix := "lower(hex("+u+"))", "0x"
		if s.conv == 'o' {
			digits, prefix = "printf('%o', "+u+")", "0"
		}
		if !s.has('#') {
			prefix = ""
		}
		var v string
		if s.has('0') {
			v = duckString(prefix) + " || lpad(" + digits + ", CAST(greatest(" + s.width + " - " + strconv.Itoa(len(prefix)) + ", length(" + digits + ")) AS INTEGER), '0')"
		} else {
			v = padJava(duckString(prefix)+" || "+digits, s)
		}
		if s.conv == 'X' {
			v = "upper(" + v + ")"
		}
		return "CASE WHEN " + isNull + " THEN " + duckString(null) + " ELSE " + v + " END", nil
	case 'f':
		if !a.t.isFractional() {
			if a.t.Kind == KVoid {
				return duckString(null), nil
			}
			return "", mismatch()
		}
		n := 6
		if s.prec != "" {
			n, _ = strconv.Atoi(s.prec)
		}
		if n > 17 {
			return "", unsupportedConv("a precision above 17 of %f")
		}
		d := "CAST(" + a.sql + " AS DOUBLE)" // a Float is formatted as the double it widens to
		fixed := "spark_fixed(" + d + ", " + strconv.Itoa(n) + ")"
		intPart := "split_part(" + fixed + ", '.', 1)"
		fracPart := "rpad(split_part(" + fixed + ", '.', 2), 17, '0')"
		// Round half up at n places from the 17-place digits.
		rounded := fmt.Sprintf("CAST(CAST(%s || '.' || %s AS DECIMAL(38, 17)) AS DECIMAL(38, %d))", intPart, fracPart, n)
		big := "abs(" + d + ") >= 1e20"
		ip := "CASE WHEN " + big + " THEN " + intPart + " ELSE split_part(CAST(" + rounded + " AS VARCHAR), '.', 1) END"
		fp := "''"
		if n > 0 {
			fp = "'.' || CASE WHEN " + big + " THEN " + duckString(strings.Repeat("0", n)) + " ELSE split_part(CAST(" + rounded + " AS VARCHAR), '.', 2) END"
		}
		if s.has(',') {
			ip = "spark_group3(" + ip + ")"
		}
		if s.has('#') && n == 0 {
			fp = "'.'"
		}
		neg := "starts_with(CAST(" + d + " AS VARCHAR), '-')" // -0.0 too, as Java's Double.compare
		nonFinite := "CASE WHEN isnan(" + d + ") THEN " + duckString(padLiteralJava("NaN", s)) + " WHEN " + d + " > 0 THEN " + duckString(padLiteralJava(infSign(s)+"Infinity", s)) + " ELSE " + duckString(padLiteralJava(ifParen(s, "(Infinity)", "-Infinity"), s)) + " END"
		return "CASE WHEN " + isNull + " THEN " + duckString(null) + " WHEN NOT isfinite(" + d + ") THEN " + nonFinite + " ELSE " + signed(neg, ip+" || "+fp, s) + " END", nil
	case 'e', 'E', 'g', 'G', 'a', 'A':
		return "", unsupportedConv("%" + string(s.conv) + " (Java rounds the shortest decimal digits, DuckDB the binary value)")
	case 'h', 'H', 't', 'T':
		return "", unsupportedConv("%" + string(s.conv))
	}
	return "", sparkErr(c.argPos(0), "java.util.UnknownFormatConversionException", "Conversion = '%c'", s.conv)
}

func infSign(s fmtSpec) string {
	if s.has('+') {
		return "+"
	}
	if s.has(' ') {
		return " "
	}
	return ""
}

func ifParen(s fmtSpec, paren, minus string) string {
	if s.has('(') {
		return paren
	}
	return minus
}

// signed lays out a number's magnitude mag (SQL) with Java's sign flags
// (+, space, ( ), zero padding after the sign, and the width.
func signed(neg, mag string, s fmtSpec) string {
	prefix := "CASE WHEN " + neg + " THEN " + duckString(ifParen(s, "(", "-")) + " ELSE " + duckString(infSign(s)) + " END"
	suffix := "''"
	if s.has('(') {
		suffix = "CASE WHEN " + neg + " THEN ')' ELSE '' END"
	}
	if s.has('0') && s.width != "" {
		return prefix + " || lpad(" + mag + ", CAST(greatest(" + s.width + " - length(" + prefix + ") - length(" + suffix + "), length(" + mag + ")) AS INTEGER), '0') || " + suffix
	}
	return padJava("("+prefix+" || "+mag+" || "+suffix+")", s)
}

// javaClassOf is the Java class Spark hands the formatter for a type.
func javaClassOf(t *Type) string {
	switch t.Kind {
	case KString:
		return "org.apache.spark.unsafe.types.UTF8String"
	case KDecimal:
		return "org.apache.spark.sql.types.Decimal"
	case KDouble:
		return "java.lang.Double"
	case KFloat:
		return "java.lang.Float"
	case KInt, KDate:
		return "java.lang.Integer"
	case KLong, KTimestamp, KTimestampNTZ:
		return "java.lang.Long"
	case KBool:
		return "java.lang.Boolean"
	}
	return t.String()
}
