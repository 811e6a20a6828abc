package frame

import (
	"fmt"
	"strconv"
	"strings"
)

// DKind is the kind of a Polars data type.
type DKind int

// Polars data types.
const (
	DNull DKind = iota
	DBool
	DInt8
	DInt16
	DInt32
	DInt64
	DUInt8
	DUInt16
	DUInt32
	DUInt64
	DFloat32
	DFloat64
	DDecimal
	DString
	DBinary
	DDate
	DDatetime
	DDuration
	DTime
	DList
	DStruct
	DUnknown // a type local runs do not model (kept as DuckDB's)
)

// DType is a Polars data type (what narwhals and Polars expressions on
// the POLARS backend compute).
type DType struct {
	Kind  DKind
	P, S  int    // decimal precision and scale
	Unit  string // datetime and duration: "us", "ns", "ms"
	Zone  string // datetime: the time zone ("" for none)
	Inner *DType // list
	// Fields are a struct's fields, in order.
	Fields []DField
	// Other is the DuckDB type of a DUnknown.
	Other string
}

// DField is a struct field.
type DField struct {
	Name string
	Type *DType
}

var (
	dNull    = &DType{Kind: DNull}
	dBool    = &DType{Kind: DBool}
	dInt8    = &DType{Kind: DInt8}
	dInt16   = &DType{Kind: DInt16}
	dInt32   = &DType{Kind: DInt32}
	dInt64   = &DType{Kind: DInt64}
	dUInt8   = &DType{Kind: DUInt8}
	dUInt16  = &DType{Kind: DUInt16}
	dUInt32  = &DType{Kind: DUInt32}
	dUInt64  = &DType{Kind: DUInt64}
	dFloat32 = &DType{Kind: DFloat32}
	dFloat64 = &DType{Kind: DFloat64}
	dString  = &DType{Kind: DString}
	dBinary  = &DType{Kind: DBinary}
	dDate    = &DType{Kind: DDate}
	dTime    = &DType{Kind: DTime}
	dDatetUs = &DType{Kind: DDatetime, Unit: "us"}
	dDurUs   = &DType{Kind: DDuration, Unit: "us"}
)

func listOf(t *DType) *DType { return &DType{Kind: DList, Inner: t} }

// IsInteger reports a signed or unsigned integer type.
func (t *DType) IsInteger() bool { return t.Kind >= DInt8 && t.Kind <= DUInt64 }

// IsSigned reports a signed integer.
func (t *DType) IsSigned() bool { return t.Kind >= DInt8 && t.Kind <= DInt64 }

// IsFloat reports Float32 or Float64.
func (t *DType) IsFloat() bool { return t.Kind == DFloat32 || t.Kind == DFloat64 }

// IsNumeric reports an integer, float or decimal type.
func (t *DType) IsNumeric() bool { return t.IsInteger() || t.IsFloat() || t.Kind == DDecimal }

// IsTemporal reports Date, Datetime, Duration or Time.
func (t *DType) IsTemporal() bool {
	return t.Kind == DDate || t.Kind == DDatetime || t.Kind == DDuration || t.Kind == DTime
}

// bits is an integer type's width.
func (t *DType) bits() int {
	switch t.Kind {
	case DInt8, DUInt8:
		return 8
	case DInt16, DUInt16:
		return 16
	case DInt32, DUInt32, DFloat32:
		return 32
	}
	return 64
}

// String is Polars' str(dtype): Int64, Datetime(time_unit='us',
// time_zone=None), List(String), Struct({'a': Int64}), Decimal(precision=10, scale=2).
func (t *DType) String() string {
	switch t.Kind {
	case DNull:
		return "Null"
	case DBool:
		return "Boolean"
	case DInt8, DInt16, DInt32, DInt64:
		return "Int" + strconv.Itoa(t.bits())
	case DUInt8, DUInt16, DUInt32, DUInt64:
		return "UInt" + strconv.Itoa(t.bits())
	case DFloat32:
		return "Float32"
	case DFloat64:
		return "Float64"
	case DDecimal:
		return fmt.Sprintf("Decimal(precision=%d, scale=%d)", t.P, t.S)
	case DString:
		return "String"
	case DBinary:
		return "Binary"
	case DDate:
		return "Date"
	case DTime:
		return "Time"
	case DDatetime:
		z := "None"
		if t.Zone != "" {
			z = "'" + t.Zone + "'"
		}
		return fmt.Sprintf("Datetime(time_unit='%s', time_zone=%s)", t.Unit, z)
	case DDuration:
		return fmt.Sprintf("Duration(time_unit='%s')", t.Unit)
	case DList:
		return "List(" + t.Inner.String() + ")"
	case DStruct:
		fs := make([]string, len(t.Fields))
		for i, f := range t.Fields {
			fs[i] = "'" + f.Name + "': " + f.Type.String()
		}
		return "Struct({" + strings.Join(fs, ", ") + "})"
	}
	return "Unknown(" + t.Other + ")"
}

// Equal reports whether two types are the same.
func (t *DType) Equal(u *DType) bool {
	if t.Kind != u.Kind || t.P != u.P || t.S != u.S || t.Unit != u.Unit || t.Zone != u.Zone || t.Other != u.Other {
		return false
	}
	if t.Kind == DList {
		return t.Inner.Equal(u.Inner)
	}
	if len(t.Fields) != len(u.Fields) {
		return false
	}
	for i := range t.Fields {
		if t.Fields[i].Name != u.Fields[i].Name || !t.Fields[i].Type.Equal(u.Fields[i].Type) {
			return false
		}
	}
	return true
}

// Duck is the DuckDB type holding the type's values.
func (t *DType) Duck() string {
	switch t.Kind {
	case DNull:
		return "INTEGER" // a column of nulls only
	case DBool:
		return "BOOLEAN"
	case DInt8:
		return "TINYINT"
	case DInt16:
		return "SMALLINT"
	case DInt32:
		return "INTEGER"
	case DInt64:
		return "BIGINT"
	case DUInt8:
		return "UTINYINT"
	case DUInt16:
		return "USMALLINT"
	case DUInt32:
		return "UINTEGER"
	case DUInt64:
		return "UBIGINT"
	case DFloat32:
		return "FLOAT"
	case DFloat64:
		return "DOUBLE"
	case DDecimal:
		return fmt.Sprintf("DECIMAL(%d,%d)", t.P, t.S)
	case DString:
		return "VARCHAR"
	case DBinary:
		return "BLOB"
	case DDate:
		return "DATE"
	case DTime:
		return "TIME"
	case DDatetime:
		if t.Zone != "" {
			return "TIMESTAMPTZ"
		}
		switch t.Unit {
		case "ns":
			return "TIMESTAMP_NS"
		case "ms":
			return "TIMESTAMP_MS"
		}
		return "TIMESTAMP"
	case DDuration:
		return "INTERVAL"
	case DList:
		return t.Inner.Duck() + "[]"
	case DStruct:
		fs := make([]string, len(t.Fields))
		for i, f := range t.Fields {
			fs[i] = quoteIdent(f.Name) + " " + f.Type.Duck()
		}
		return "STRUCT(" + strings.Join(fs, ", ") + ")"
	}
	return t.Other
}

// FromDuckDB is the Polars type of a DuckDB column as the runner reads
// it (a TIMESTAMP WITH TIME ZONE is a UTC Datetime; HUGEINT has no Polars
// type and stays Unknown).
func FromDuckDB(s string) *DType {
	s = strings.TrimSpace(s)
	u := strings.ToUpper(s)
	if strings.HasSuffix(u, "[]") {
		return listOf(FromDuckDB(s[:len(s)-2]))
	}
	if strings.HasPrefix(u, "STRUCT(") && strings.HasSuffix(u, ")") {
		t := &DType{Kind: DStruct}
		for _, f := range splitTop(s[7 : len(s)-1]) {
			name, typ := splitField(f)
			t.Fields = append(t.Fields, DField{Name: name, Type: FromDuckDB(typ)})
		}
		return t
	}
	if strings.HasPrefix(u, "DECIMAL") || strings.HasPrefix(u, "NUMERIC") {
		p, sc := 18, 3
		if i := strings.IndexByte(u, '('); i >= 0 {
			parts := strings.Split(strings.Trim(u[i:], "()"), ",")
			p, _ = strconv.Atoi(strings.TrimSpace(parts[0]))
			sc = 0
			if len(parts) > 1 {
				sc, _ = strconv.Atoi(strings.TrimSpace(parts[1]))
			}
		}
		return &DType{Kind: DDecimal, P: p, S: sc}
	}
	switch u {
	case "BOOLEAN", "BOOL":
		return dBool
	case "TINYINT", "INT1":
		return dInt8
	case "SMALLINT", "INT2":
		return dInt16
	case "INTEGER", "INT", "INT4":
		return dInt32
	case "BIGINT", "INT8":
		return dInt64
	case "UTINYINT":
		return dUInt8
	case "USMALLINT":
		return dUInt16
	case "UINTEGER":
		return dUInt32
	case "UBIGINT":
		return dUInt64
	case "FLOAT", "REAL", "FLOAT4":
		return dFloat32
	case "DOUBLE", "FLOAT8":
		return dFloat64
	case "VARCHAR", "TEXT", "STRING":
		return dString
	case "BLOB", "BYTEA":
		return dBinary
	case "DATE":
		return dDate
	case "TIME":
		return dTime
	case "TIMESTAMP", "DATETIME":
		return dDatetUs
	case "TIMESTAMP_NS":
		return &DType{Kind: DDatetime, Unit: "ns"}
	case "TIMESTAMP_MS":
		return &DType{Kind: DDatetime, Unit: "ms"}
	case "TIMESTAMP_S":
		return &DType{Kind: DDatetime, Unit: "ms"}
	case "TIMESTAMPTZ", "TIMESTAMP WITH TIME ZONE":
		return &DType{Kind: DDatetime, Unit: "us", Zone: "UTC"}
	case "INTERVAL":
		return dDurUs
	case `"NULL"`, "NULL":
		return dNull
	}
	return &DType{Kind: DUnknown, Other: s}
}

// splitTop splits s at commas outside parentheses and quotes.
func splitTop(s string) []string {
	var out []string
	depth, start := 0, 0
	inQ := false
	for i := 0; i < len(s); i++ {
		switch c := s[i]; {
		case c == '"':
			inQ = !inQ
		case inQ:
		case c == '(':
			depth++
		case c == ')':
			depth--
		case c == ',' && depth == 0:
			out = append(out, strings.TrimSpace(s[start:i]))
			start = i + 1
		}
	}
	if strings.TrimSpace(s[start:]) != "" {
		out = append(out, strings.TrimSpace(s[start:]))
	}
	return out
}

// splitField splits a DuckDB struct field `"name" TYPE` or `name TYPE`.
func splitField(f string) (string, string) {
	f = strings.TrimSpace(f)
	if strings.HasPrefix(f, `"`) {
		for i := 1; i < len(f); i++ {
			if f[i] == '"' {
				if i+1 < len(f) && f[i+1] == '"' {
					i++
					continue
				}
				return strings.ReplaceAll(f[1:i], `""`, `"`), strings.TrimSpace(f[i+1:])
			}
		}
	}
	name, typ, _ := strings.Cut(f, " ")
	return name, strings.TrimSpace(typ)
}

// quoteIdent quotes a DuckDB identifier.
func quoteIdent(s string) string { return `"` + strings.ReplaceAll(s, `"`, `""`) + `"` }

// quoteString quotes a DuckDB string literal.
func quoteString(s string) string { return "'" + strings.ReplaceAll(s, "'", "''") + "'" }
