package sparksql

import (
	"fmt"
	"regexp"
	"strconv"
	"strings"
)

// Kind is a Spark data type's kind.
type Kind int

const (
	KVoid Kind = iota // the type of NULL
	KBool
	KByte // tinyint
	KShort
	KInt
	KLong
	KFloat
	KDouble
	KDecimal
	KString
	KBinary
	KDate
	KTimestamp    // TIMESTAMP WITH LOCAL TIME ZONE: an instant, shown in the session time zone
	KTimestampNTZ // a wall-clock date and time
	KIntervalDT   // interval day to second (and narrower)
	KIntervalYM   // interval year to month (and narrower)
	KArray
	KMap
	KStruct
	// KCalendar is Spark's CalendarIntervalType (make_interval): months,
	// days and microseconds apart, held in a DuckDB INTERVAL, which keeps
	// the three apart too. Spark can add it to dates and timestamps and
	// cast it to STRING, but cannot collect it or write it to a table.
	KCalendar
)

// Type is a Spark data type.
type Type struct {
	Kind   Kind
	P, S   int // decimal precision and scale
	Elem   *Type
	Key    *Type
	Val    *Type
	Fields []Field
	// From and To are an interval's first and last fields (DAY, HOUR,
	// MINUTE, SECOND; YEAR, MONTH).
	From, To string
}

// Field is a struct field.
type Field struct {
	Name string
	Type *Type
}

var (
	tVoid   = &Type{Kind: KVoid}
	tBool   = &Type{Kind: KBool}
	tByte   = &Type{Kind: KByte}
	tShort  = &Type{Kind: KShort}
	tInt    = &Type{Kind: KInt}
	tLong   = &Type{Kind: KLong}
	tFloat  = &Type{Kind: KFloat}
	tDouble = &Type{Kind: KDouble}
	tString = &Type{Kind: KString}
	tBinary = &Type{Kind: KBinary}
	tDate   = &Type{Kind: KDate}
	tTS     = &Type{Kind: KTimestamp}
	tTSNTZ  = &Type{Kind: KTimestampNTZ}
	tDaySec = &Type{Kind: KIntervalDT, From: "DAY", To: "SECOND"}
)

func decimalType(p, s int) *Type { return &Type{Kind: KDecimal, P: p, S: s} }
func arrayOf(t *Type) *Type      { return &Type{Kind: KArray, Elem: t} }
func mapOf(k, v *Type) *Type     { return &Type{Kind: KMap, Key: k, Val: v} }

// String is Spark's simpleString: int, decimal(10,2), array<int>,
// struct<a:int>, interval day to second.
func (t *Type) String() string {
	switch t.Kind {
	case KVoid:
		return "void"
	case KBool:
		return "boolean"
	case KByte:
		return "tinyint"
	case KShort:
		return "smallint"
	case KInt:
		return "int"
	case KLong:
		return "bigint"
	case KFloat:
		return "float"
	case KDouble:
		return "double"
	case KDecimal:
		return fmt.Sprintf("decimal(%d,%d)", t.P, t.S)
	case KString:
		return "string"
	case KBinary:
		return "binary"
	case KDate:
		return "date"
	case KTimestamp:
		return "timestamp"
	case KTimestampNTZ:
		return "timestamp_ntz"
	case KCalendar:
		return "interval"
	case KIntervalDT, KIntervalYM:
		if t.From == t.To {
			return "interval " + strings.ToLower(t.From)
		}
		return "interval " + strings.ToLower(t.From) + " to " + strings.ToLower(t.To)
	case KArray:
		return "array<" + t.Elem.String() + ">"
	case KMap:
		return "map<" + t.Key.String() + "," + t.Val.String() + ">"
	case KStruct:
		fs := make([]string, len(t.Fields))
		for i, f := range t.Fields {
			fs[i] = f.Name + ":" + f.Type.String()
		}
		return "struct<" + strings.Join(fs, ",") + ">"
	}
	return "?"
}

// sqlName is the type as Spark prints it in SQL text (names of CAST
// columns): INT, DECIMAL(10,2), ARRAY<INT>.
func (t *Type) sqlName() string {
	switch t.Kind {
	case KArray:
		return "ARRAY<" + t.Elem.sqlName() + ">"
	case KMap:
		return "MAP<" + t.Key.sqlName() + ", " + t.Val.sqlName() + ">"
	case KStruct:
		fs := make([]string, len(t.Fields))
		for i, f := range t.Fields {
			fs[i] = f.Name + ": " + f.Type.sqlName()
		}
		return "STRUCT<" + strings.Join(fs, ", ") + ">"
	case KDecimal:
		return fmt.Sprintf("DECIMAL(%d,%d)", t.P, t.S)
	}
	return strings.ToUpper(t.String())
}

// DuckDB is the DuckDB type holding the Spark type's values.
func (t *Type) DuckDB() string {
	switch t.Kind {
	case KVoid:
		return "INTEGER"
	case KBool:
		return "BOOLEAN"
	case KByte:
		return "TINYINT"
	case KShort:
		return "SMALLINT"
	case KInt:
		return "INTEGER"
	case KLong:
		return "BIGINT"
	case KFloat:
		return "FLOAT"
	case KDouble:
		return "DOUBLE"
	case KDecimal:
		return fmt.Sprintf("DECIMAL(%d,%d)", t.P, t.S)
	case KString:
		return "VARCHAR"
	case KBinary:
		return "BLOB"
	case KDate:
		return "DATE"
	case KTimestamp:
		return "TIMESTAMPTZ"
	case KTimestampNTZ:
		return "TIMESTAMP"
	case KIntervalDT, KIntervalYM, KCalendar:
		return "INTERVAL"
	case KArray:
		return t.Elem.DuckDB() + "[]"
	case KMap:
		return "MAP(" + t.Key.DuckDB() + ", " + t.Val.DuckDB() + ")"
	case KStruct:
		fs := make([]string, len(t.Fields))
		for i, f := range t.Fields {
			fs[i] = duckIdent(f.Name) + " " + f.Type.DuckDB()
		}
		return "STRUCT(" + strings.Join(fs, ", ") + ")"
	}
	return "?"
}

// Equal reports whether two types are the same (struct field names
// compared exactly).
func (t *Type) Equal(u *Type) bool {
	if t.Kind != u.Kind {
		return false
	}
	switch t.Kind {
	case KDecimal:
		return t.P == u.P && t.S == u.S
	case KArray:
		return t.Elem.Equal(u.Elem)
	case KMap:
		return t.Key.Equal(u.Key) && t.Val.Equal(u.Val)
	case KStruct:
		if len(t.Fields) != len(u.Fields) {
			return false
		}
		for i := range t.Fields {
			if t.Fields[i].Name != u.Fields[i].Name || !t.Fields[i].Type.Equal(u.Fields[i].Type) {
				return false
			}
		}
		return true
	case KIntervalDT, KIntervalYM:
		return t.From == u.From && t.To == u.To
	}
	return true
}

func (t *Type) isIntegral() bool {
	return t.Kind == KByte || t.Kind == KShort || t.Kind == KInt || t.Kind == KLong
}
func (t *Type) isFractional() bool { return t.Kind == KFloat || t.Kind == KDouble }
func (t *Type) isNumeric() bool    { return t.isIntegral() || t.isFractional() || t.Kind == KDecimal }
func (t *Type) isDatetime() bool {
	return t.Kind == KDate || t.Kind == KTimestamp || t.Kind == KTimestampNTZ
}
func (t *Type) isAtomic() bool { return t.Kind != KArray && t.Kind != KMap && t.Kind != KStruct }

// integralDecimal is the decimal type holding every value of an integral
// type (Spark's DecimalType.forType).
func integralDecimal(t *Type) *Type {
	switch t.Kind {
	case KByte:
		return decimalType(3, 0)
	case KShort:
		return decimalType(5, 0)
	case KInt:
		return decimalType(10, 0)
	case KLong:
		return decimalType(20, 0)
	}
	return t
}

// asDecimal is t as a decimal type for decimal arithmetic (integral types
// widen to their decimal; decimals stay).
func asDecimal(t *Type) *Type {
	if t.isIntegral() {
		return integralDecimal(t)
	}
	return t
}

// ParseType parses a Spark type as written in DDL (decimal(10,2),
// array<string>, struct<a:int,b:string>, long, integer, ...).
func ParseType(s string) (*Type, error) {
	tn, err := sparkSyntax.ParseTypeName(s)
	if err != nil {
		return nil, err
	}
	return typeOf(tn)
}

// typeOf converts a parsed type name.
func typeOf(tn *TypeName) (*Type, error) {
	switch tn.Name {
	case "boolean":
		return tBool, nil
	case "tinyint":
		return tByte, nil
	case "smallint":
		return tShort, nil
	case "int":
		return tInt, nil
	case "bigint":
		return tLong, nil
	case "float":
		return tFloat, nil
	case "double":
		return tDouble, nil
	case "string":
		return tString, nil
	case "varchar", "char":
		return nil, unsupported(tn.P, "use STRING", "the %s(n) type", strings.ToUpper(tn.Name))
	case "binary":
		return tBinary, nil
	case "date":
		return tDate, nil
	case "timestamp":
		return tTS, nil
	case "timestamp_ntz":
		return tTSNTZ, nil
	case "void":
		return tVoid, nil
	case "decimal":
		p, s := 10, 0
		switch len(tn.Params) {
		case 0:
		case 1:
			p = tn.Params[0]
		case 2:
			p, s = tn.Params[0], tn.Params[1]
		default:
			return nil, errAt(tn.P, "DECIMAL takes a precision and a scale")
		}
		if p < 1 || p > 38 {
			return nil, sparkErr(tn.P, "DECIMAL_PRECISION_EXCEEDS_MAX_PRECISION", "Decimal precision %d exceeds max precision 38.", p)
		}
		if s < 0 || s > p {
			return nil, sparkErr(tn.P, "INVALID_PARAMETER_VALUE", "Decimal scale (%d) cannot be greater than precision (%d).", s, p)
		}
		return decimalType(p, s), nil
	case "array":
		el, err := typeOf(tn.Elem)
		if err != nil {
			return nil, err
		}
		return arrayOf(el), nil
	case "map":
		k, err := typeOf(tn.Key)
		if err != nil {
			return nil, err
		}
		v, err := typeOf(tn.Value)
		if err != nil {
			return nil, err
		}
		return mapOf(k, v), nil
	case "struct":
		st := &Type{Kind: KStruct}
		for _, f := range tn.Fields {
			ft, err := typeOf(f.Type)
			if err != nil {
				return nil, err
			}
			st.Fields = append(st.Fields, Field{Name: f.Name.Name, Type: ft})
		}
		return st, nil
	}
	return nil, unsupported(tn.P, "", "the %s type", strings.ToUpper(tn.Name))
}

var (
	duckDecimalRe = regexp.MustCompile(`^DECIMAL\((\d+),\s*(\d+)\)$`)
)

// FromDuckDB maps a DuckDB column type (as DESCRIBE prints it) to the
// Spark type a Spark reader gives the same data.
func FromDuckDB(s string) (*Type, error) {
	s = strings.TrimSpace(s)
	up := strings.ToUpper(s)
	if strings.HasSuffix(up, "[]") {
		el, err := FromDuckDB(s[:len(s)-2])
		if err != nil {
			return nil, err
		}
		return arrayOf(el), nil
	}
	if m := duckDecimalRe.FindStringSubmatch(up); m != nil {
		p, _ := strconv.Atoi(m[1])
		sc, _ := strconv.Atoi(m[2])
		return decimalType(p, sc), nil
	}
	if strings.HasPrefix(up, "MAP(") && strings.HasSuffix(up, ")") {
		parts := splitTopLevel(s[4 : len(s)-1])
		if len(parts) != 2 {
			return nil, fmt.Errorf("cannot read DuckDB type %s", s)
		}
		k, err := FromDuckDB(parts[0])
		if err != nil {
			return nil, err
		}
		v, err := FromDuckDB(parts[1])
		if err != nil {
			return nil, err
		}
		return mapOf(k, v), nil
	}
	if strings.HasPrefix(up, "STRUCT(") && strings.HasSuffix(up, ")") {
		st := &Type{Kind: KStruct}
		for _, part := range splitTopLevel(s[7 : len(s)-1]) {
			name, rest := splitFieldName(strings.TrimSpace(part))
			ft, err := FromDuckDB(rest)
			if err != nil {
				return nil, err
			}
			st.Fields = append(st.Fields, Field{Name: name, Type: ft})
		}
		return st, nil
	}
	switch up {
	case "BOOLEAN":
		return tBool, nil
	case "TINYINT":
		return tByte, nil
	case "SMALLINT", "UTINYINT":
		return tShort, nil
	case "INTEGER", "USMALLINT":
		return tInt, nil
	case "BIGINT", "UINTEGER":
		return tLong, nil
	case "HUGEINT", "UBIGINT", "UHUGEINT":
		return decimalType(38, 0), nil
	case "FLOAT":
		return tFloat, nil
	case "DOUBLE":
		return tDouble, nil
	case "VARCHAR", "UUID", "JSON":
		return tString, nil
	case "BLOB":
		return tBinary, nil
	case "DATE":
		return tDate, nil
	case "TIMESTAMP WITH TIME ZONE", "TIMESTAMPTZ":
		return tTS, nil
	case "TIMESTAMP", "TIMESTAMP_S", "TIMESTAMP_MS", "TIMESTAMP_NS", "DATETIME":
		return tTSNTZ, nil
	case "INTERVAL":
		return tDaySec, nil
	case `"NULL"`, "NULL":
		return tVoid, nil
	}
	return nil, fmt.Errorf("DuckDB type %s has no Spark equivalent", s)
}

// splitTopLevel splits a comma list outside brackets and quotes.
func splitTopLevel(s string) []string {
	var out []string
	depth, start := 0, 0
	inQ := false
	for i := 0; i < len(s); i++ {
		switch c := s[i]; {
		case c == '"':
			inQ = !inQ
		case inQ:
		case c == '(' || c == '[':
			depth++
		case c == ')' || c == ']':
			depth--
		case c == ',' && depth == 0:
			out = append(out, strings.TrimSpace(s[start:i]))
			start = i + 1
		}
	}
	return append(out, strings.TrimSpace(s[start:]))
}

// splitFieldName splits `"name" TYPE` or `name TYPE`.
func splitFieldName(s string) (string, string) {
	if strings.HasPrefix(s, `"`) {
		var b strings.Builder
		for i := 1; i < len(s); i++ {
			if s[i] == '"' {
				if i+1 < len(s) && s[i+1] == '"' {
					b.WriteByte('"')
					i++
					continue
				}
				return b.String(), strings.TrimSpace(s[i+1:])
			}
			b.WriteByte(s[i])
		}
	}
	name, rest, _ := strings.Cut(s, " ")
	return name, strings.TrimSpace(rest)
}

// duckIdent quotes a DuckDB identifier.
func duckIdent(s string) string { return `"` + strings.ReplaceAll(s, `"`, `""`) + `"` }

// duckString quotes a DuckDB string literal.
func duckString(s string) string {
	if strings.IndexByte(s, 0) >= 0 {
		parts := strings.Split(s, "\x00")
		for i, p := range parts {
			parts[i] = duckString(p)
		}
		return "(" + strings.Join(parts, " || chr(0) || ") + ")"
	}
	return "'" + strings.ReplaceAll(s, "'", "''") + "'"
}

// ------------------------------------------------------------ coercion

// numericRank orders the non-decimal numeric kinds for widening.
var numericRank = map[Kind]int{KByte: 1, KShort: 2, KInt: 3, KLong: 4, KFloat: 5, KDouble: 6}

// widerDecimal is Spark's DecimalPrecision.widerDecimalType.
func widerDecimal(a, b *Type) *Type {
	s := max(a.S, b.S)
	r := max(a.P-a.S, b.P-b.S)
	return boundedDecimal(r+s, s)
}

// boundedDecimal caps precision and scale at 38.
func boundedDecimal(p, s int) *Type { return decimalType(min(p, 38), min(s, 38)) }

// adjustedDecimal is Spark's DecimalType.adjustPrecisionScale with
// spark.sql.decimalOperations.allowPrecisionLoss (the default).
func adjustedDecimal(p, s int) *Type {
	if p <= 38 {
		return decimalType(p, s)
	}
	if s < 0 {
		return decimalType(38, s)
	}
	intDigits := p - s
	minScale := min(s, 6)
	return decimalType(38, max(38-intDigits, minScale))
}

// widerType is Spark's findWiderTypeForTwo under ANSI rules, without
// string promotion: nil when the types have no common type.
func widerType(a, b *Type) *Type {
	switch {
	case a.Equal(b):
		return a
	case a.Kind == KVoid:
		return b
	case b.Kind == KVoid:
		return a
	}
	if a.isNumeric() && b.isNumeric() {
		switch {
		case a.Kind == KDecimal && b.Kind == KDecimal:
			return widerDecimal(a, b)
		case a.Kind == KDecimal && b.isIntegral():
			return widerDecimal(a, integralDecimal(b))
		case b.Kind == KDecimal && a.isIntegral():
			return widerDecimal(integralDecimal(a), b)
		case a.Kind == KDecimal || b.Kind == KDecimal:
			return tDouble
		case (a.Kind == KFloat && b.isIntegral()) || (b.Kind == KFloat && a.isIntegral()):
			return tDouble
		}
		if numericRank[a.Kind] >= numericRank[b.Kind] {
			return a
		}
		return b
	}
	if a.isDatetime() && b.isDatetime() {
		switch {
		case a.Kind == KTimestamp || b.Kind == KTimestamp:
			return tTS
		case a.Kind == KTimestampNTZ || b.Kind == KTimestampNTZ:
			return tTSNTZ
		}
	}
	if a.Kind == KIntervalDT && b.Kind == KIntervalDT {
		return &Type{Kind: KIntervalDT, From: earlierField(a.From, b.From), To: laterField(a.To, b.To)}
	}
	if a.Kind == b.Kind {
		switch a.Kind {
		case KArray:
			if e := widerType(a.Elem, b.Elem); e != nil {
				return arrayOf(e)
			}
		case KMap:
			k, v := widerType(a.Key, b.Key), widerType(a.Val, b.Val)
			if k != nil && v != nil {
				return mapOf(k, v)
			}
		case KStruct:
			if len(a.Fields) != len(b.Fields) {
				return nil
			}
			st := &Type{Kind: KStruct}
			for i := range a.Fields {
				if !strings.EqualFold(a.Fields[i].Name, b.Fields[i].Name) {
					return nil
				}
				ft := widerType(a.Fields[i].Type, b.Fields[i].Type)
				if ft == nil {
					return nil
				}
				st.Fields = append(st.Fields, Field{Name: a.Fields[i].Name, Type: ft})
			}
			return st
		}
	}
	return nil
}

var intervalFields = []string{"YEAR", "MONTH", "DAY", "HOUR", "MINUTE", "SECOND"}

func fieldRank(f string) int {
	for i, x := range intervalFields {
		if x == f {
			return i
		}
	}
	return -1
}

func earlierField(a, b string) string {
	if fieldRank(a) <= fieldRank(b) {
		return a
	}
	return b
}

func laterField(a, b string) string {
	if fieldRank(a) >= fieldRank(b) {
		return a
	}
	return b
}

// stringPromotion is the type a string is implicitly cast to when it
// meets a value of type other (Spark 4's ANSI coercion of a string with
// a non-string: bigint for integral values, double for fractional and
// decimal ones, the other type for dates, timestamps and booleans).
func stringPromotion(other *Type) *Type {
	switch {
	case other.isIntegral():
		return tLong
	case other.isFractional(), other.Kind == KDecimal:
		return tDouble
	case other.isDatetime(), other.Kind == KBool, other.Kind == KBinary:
		return other
	}
	return nil
}

// commonType is the type several values are coerced to (CASE, COALESCE,
// IN, UNION, array(...)): the wider type of all, a string meeting
// another atomic type promoting as in stringPromotion. nil when none.
func commonType(ts []*Type) *Type {
	var acc *Type
	for _, t := range ts {
		if acc == nil {
			acc = t
			continue
		}
		w := widerType(acc, t)
		if w == nil {
			switch {
			case acc.Kind == KString && t.isAtomic():
				w = stringCommon(t)
			case t.Kind == KString && acc.isAtomic():
				w = stringCommon(acc)
			}
		}
		if w == nil {
			return nil
		}
		acc = w
	}
	return acc
}

// stringCommon: a string with a value of type t in CASE, COALESCE and
// set operations (Spark widens to the non-string type, with integral
// types going to bigint).
func stringCommon(t *Type) *Type {
	switch {
	case t.isIntegral():
		return tLong
	case t.Kind == KString:
		return t
	}
	return stringPromotion(t)
}

// hasCalendar reports whether t is or holds a CalendarInterval.
func (t *Type) hasCalendar() bool {
	switch t.Kind {
	case KCalendar:
		return true
	case KArray:
		return t.Elem.hasCalendar()
	case KMap:
		return t.Key.hasCalendar() || t.Val.hasCalendar()
	case KStruct:
		for _, f := range t.Fields {
			if f.Type.hasCalendar() {
				return true
			}
		}
	}
	return false
}
