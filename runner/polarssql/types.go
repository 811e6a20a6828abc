package polarssql

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/laktory/workbench/runner/dialect"
)

// Kind is a Polars dtype's kind.
type Kind int

// The dtypes a Laktory pipeline on POLARS meets.
const (
	Null Kind = iota
	Boolean
	Int8
	Int16
	Int32
	Int64
	UInt8
	UInt16
	UInt32
	UInt64
	Float32
	Float64
	Decimal
	String
	Binary
	Date
	Datetime
	Duration
	Time
	List
	Struct
)

var kindNames = [...]string{"Null", "Boolean", "Int8", "Int16", "Int32", "Int64", "UInt8", "UInt16", "UInt32", "UInt64",
	"Float32", "Float64", "Decimal", "String", "Binary", "Date", "Datetime", "Duration", "Time", "List", "Struct"}

// Type is a Polars dtype.
type Type struct {
	Kind Kind
	// P and S are a Decimal's precision (0: None, unbounded as Polars
	// says, written by delta-rs as 38) and scale.
	P, S int
	// Unit and Zone are a Datetime's time unit (ns, us, ms) and time zone
	// ("" for none); Unit is a Duration's too.
	Unit, Zone string
	Elem       *Type   // List
	Fields     []Field // Struct
}

// Field is a Struct field.
type Field struct {
	Name string
	Type *Type
}

// String is the dtype as the corpus and messages write it: Int64,
// Decimal(10,2), Datetime(us), Datetime(us,UTC), List(String),
// Struct(city:String,zip:String).
func (t *Type) String() string {
	switch t.Kind {
	case Decimal:
		p := "None"
		if t.P > 0 {
			p = strconv.Itoa(t.P)
		}
		return fmt.Sprintf("Decimal(%s,%d)", p, t.S)
	case Datetime:
		if t.Zone != "" {
			return "Datetime(" + t.Unit + "," + t.Zone + ")"
		}
		return "Datetime(" + t.Unit + ")"
	case Duration:
		return "Duration(" + t.Unit + ")"
	case List:
		return "List(" + t.Elem.String() + ")"
	case Struct:
		fs := make([]string, len(t.Fields))
		for i, f := range t.Fields {
			fs[i] = f.Name + ":" + f.Type.String()
		}
		return "Struct(" + strings.Join(fs, ",") + ")"
	}
	return kindNames[t.Kind]
}

// DuckDB is the DuckDB type holding the dtype's values.
func (t *Type) DuckDB() string {
	switch t.Kind {
	case Null:
		return "INTEGER"
	case Boolean:
		return "BOOLEAN"
	case Int8:
		return "TINYINT"
	case Int16:
		return "SMALLINT"
	case Int32:
		return "INTEGER"
	case Int64:
		return "BIGINT"
	case UInt8:
		return "UTINYINT"
	case UInt16:
		return "USMALLINT"
	case UInt32:
		return "UINTEGER"
	case UInt64:
		return "UBIGINT"
	case Float32:
		return "FLOAT"
	case Float64:
		return "DOUBLE"
	case Decimal:
		return fmt.Sprintf("DECIMAL(%d,%d)", t.precision(), t.S)
	case String:
		return "VARCHAR"
	case Binary:
		return "BLOB"
	case Date:
		return "DATE"
	case Datetime:
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
	case Duration:
		return "INTERVAL"
	case Time:
		return "TIME"
	case List:
		return t.Elem.DuckDB() + "[]"
	case Struct:
		fs := make([]string, len(t.Fields))
		for i, f := range t.Fields {
			fs[i] = dialect.QuoteIdent(f.Name) + " " + f.Type.DuckDB()
		}
		return "STRUCT(" + strings.Join(fs, ", ") + ")"
	}
	return "?"
}

func (t *Type) precision() int {
	if t.P == 0 {
		return 38
	}
	return t.P
}

// Delta is the Delta type delta-rs writes for the dtype (Spark's
// notation), or an error naming the dtype delta-rs refuses (Null,
// Duration, Time).
func (t *Type) Delta() (string, error) {
	switch t.Kind {
	case Boolean:
		return "boolean", nil
	case Int8, UInt8:
		return "byte", nil
	case Int16, UInt16:
		return "short", nil
	case Int32, UInt32:
		return "integer", nil
	case Int64, UInt64:
		return "long", nil
	case Float32:
		return "float", nil
	case Float64:
		return "double", nil
	case Decimal:
		return fmt.Sprintf("decimal(%d,%d)", t.precision(), t.S), nil
	case String:
		return "string", nil
	case Binary:
		return "binary", nil
	case Date:
		return "date", nil
	case Datetime:
		if t.Zone != "" {
			return "timestamp", nil
		}
		return "timestamp_ntz", nil
	case List:
		e, err := t.Elem.Delta()
		if err != nil {
			return "", err
		}
		return "array<" + e + ">", nil
	case Struct:
		fs := make([]string, len(t.Fields))
		for i, f := range t.Fields {
			ft, err := f.Type.Delta()
			if err != nil {
				return "", err
			}
			fs[i] = f.Name + ":" + ft
		}
		return "struct<" + strings.Join(fs, ",") + ">", nil
	}
	return "", fmt.Errorf("delta-rs cannot write the Polars dtype %s to a Delta table", t)
}

// ParseType reads a dtype as String writes it.
func ParseType(s string) (*Type, error) {
	s = strings.TrimSpace(s)
	name, arg, hasArg := strings.Cut(s, "(")
	if hasArg {
		if !strings.HasSuffix(arg, ")") {
			return nil, fmt.Errorf("dtype %q: unbalanced brackets", s)
		}
		arg = arg[:len(arg)-1]
	}
	for k, n := range kindNames {
		if n != name {
			continue
		}
		t := &Type{Kind: Kind(k)}
		switch t.Kind {
		case Decimal:
			p, sc, _ := strings.Cut(arg, ",")
			if strings.TrimSpace(p) != "None" {
				t.P, _ = strconv.Atoi(strings.TrimSpace(p))
			}
			t.S, _ = strconv.Atoi(strings.TrimSpace(sc))
		case Datetime, Duration:
			u, z, _ := strings.Cut(arg, ",")
			t.Unit, t.Zone = strings.TrimSpace(u), strings.TrimSpace(z)
			if t.Unit == "" {
				t.Unit = "us"
			}
		case List:
			e, err := ParseType(arg)
			if err != nil {
				return nil, err
			}
			t.Elem = e
		case Struct:
			for _, f := range splitTop(arg) {
				fn, ft, ok := strings.Cut(f, ":")
				if !ok {
					return nil, fmt.Errorf("dtype %q: a field without a dtype", s)
				}
				e, err := ParseType(ft)
				if err != nil {
					return nil, err
				}
				t.Fields = append(t.Fields, Field{Name: fn, Type: e})
			}
		}
		return t, nil
	}
	return nil, fmt.Errorf("%q is not a Polars dtype", s)
}

// splitTop splits s at the commas outside brackets.
func splitTop(s string) []string {
	var out []string
	depth, start := 0, 0
	for i := 0; i < len(s); i++ {
		switch s[i] {
		case '(':
			depth++
		case ')':
			depth--
		case ',':
			if depth == 0 {
				out = append(out, s[start:i])
				start = i + 1
			}
		}
	}
	return append(out, s[start:])
}
