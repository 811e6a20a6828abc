package delta

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strconv"
	"strings"
)

// DataType is a Delta (Spark SQL) data type: a PrimitiveType, a
// DecimalType, an *ArrayType, a *MapType or a *StructType.
type DataType interface {
	// TypeName is the type's name in Delta/Spark notation, e.g. "long",
	// "decimal(10,2)", "array<string>", "struct<a:int>" (for messages).
	TypeName() string
}

// PrimitiveType is a Delta primitive type, named as in the schemaString.
type PrimitiveType string

// The primitive types of the Delta protocol.
const (
	StringType       PrimitiveType = "string"
	LongType         PrimitiveType = "long"
	IntegerType      PrimitiveType = "integer"
	ShortType        PrimitiveType = "short"
	ByteType         PrimitiveType = "byte"
	FloatType        PrimitiveType = "float"
	DoubleType       PrimitiveType = "double"
	BooleanType      PrimitiveType = "boolean"
	BinaryType       PrimitiveType = "binary"
	DateType         PrimitiveType = "date"
	TimestampType    PrimitiveType = "timestamp"
	TimestampNTZType PrimitiveType = "timestamp_ntz"
	VariantType      PrimitiveType = "variant"
	VoidType         PrimitiveType = "void"
)

var primitiveTypes = map[PrimitiveType]bool{
	StringType: true, LongType: true, IntegerType: true, ShortType: true, ByteType: true,
	FloatType: true, DoubleType: true, BooleanType: true, BinaryType: true, DateType: true,
	TimestampType: true, TimestampNTZType: true, VariantType: true, VoidType: true,
}

// TypeName implements DataType.
func (p PrimitiveType) TypeName() string { return string(p) }

// DecimalType is decimal(Precision, Scale), precision up to 38.
type DecimalType struct{ Precision, Scale int }

// TypeName implements DataType.
func (d DecimalType) TypeName() string { return fmt.Sprintf("decimal(%d,%d)", d.Precision, d.Scale) }

// ArrayType is an array of ElementType.
type ArrayType struct {
	ElementType  DataType
	ContainsNull bool
}

// TypeName implements DataType.
func (a *ArrayType) TypeName() string { return "array<" + a.ElementType.TypeName() + ">" }

// MapType is a map from KeyType to ValueType.
type MapType struct {
	KeyType           DataType
	ValueType         DataType
	ValueContainsNull bool
}

// TypeName implements DataType.
func (m *MapType) TypeName() string {
	return "map<" + m.KeyType.TypeName() + "," + m.ValueType.TypeName() + ">"
}

// StructType is a struct (and the type of a table's schema).
type StructType struct {
	Fields []*StructField
}

// TypeName implements DataType.
func (s *StructType) TypeName() string {
	parts := make([]string, len(s.Fields))
	for i, f := range s.Fields {
		parts[i] = f.Name + ":" + f.Type.TypeName()
	}
	return "struct<" + strings.Join(parts, ",") + ">"
}

// Field returns the field named name: an exact match first, then a
// case-insensitive one (Delta column names are case-insensitive).
func (s *StructType) Field(name string) *StructField {
	for _, f := range s.Fields {
		if f.Name == name {
			return f
		}
	}
	for _, f := range s.Fields {
		if strings.EqualFold(f.Name, name) {
			return f
		}
	}
	return nil
}

// FieldNames lists the top-level field names in order.
func (s *StructType) FieldNames() []string {
	out := make([]string, len(s.Fields))
	for i, f := range s.Fields {
		out[i] = f.Name
	}
	return out
}

// StructField is one field of a struct: name, type, nullability and the
// field metadata (column mapping ids and physical names, invariants,
// generation expressions, comments...). Metadata numbers are json.Number.
type StructField struct {
	Name     string
	Type     DataType
	Nullable bool
	Metadata map[string]any
}

// Metadata keys of a StructField this package reads: column mapping and
// type changes.
const (
	MetaColumnMappingID           = "delta.columnMapping.id"
	MetaColumnMappingPhysicalName = "delta.columnMapping.physicalName"
	// MetaTypeChanges lists a column's type changes (typeWidening).
	MetaTypeChanges = "delta.typeChanges"
)

// ColumnMappingMode is the table property delta.columnMapping.mode.
type ColumnMappingMode string

// Column mapping modes.
const (
	ColumnMappingNone ColumnMappingMode = "none"
	ColumnMappingName ColumnMappingMode = "name"
	ColumnMappingID   ColumnMappingMode = "id"
)

// PhysicalName is the column's name in data files, partition values and
// stats: its physicalName metadata when column mapping is on, else Name.
func (f *StructField) PhysicalName(mode ColumnMappingMode) string {
	if mode == ColumnMappingName || mode == ColumnMappingID {
		if p, ok := f.Metadata[MetaColumnMappingPhysicalName].(string); ok && p != "" {
			return p
		}
	}
	return f.Name
}

// ColumnMappingID returns the field's delta.columnMapping.id metadata.
func (f *StructField) ColumnMappingID() (int64, bool) {
	switch v := f.Metadata[MetaColumnMappingID].(type) {
	case json.Number:
		n, err := v.Int64()
		return n, err == nil
	case float64:
		return int64(v), true
	case int64:
		return v, true
	case int:
		return int64(v), true
	}
	return 0, false
}

// ParseSchema parses a metaData schemaString (Spark StructType JSON).
func ParseSchema(s string) (*StructType, error) {
	var st StructType
	if err := json.Unmarshal([]byte(s), &st); err != nil {
		return nil, fmt.Errorf("%w: %v", ErrInvalidSchema, err)
	}
	return &st, nil
}

// String returns the schema as a schemaString (compact JSON).
func (s *StructType) String() string {
	b, err := json.Marshal(s)
	if err != nil {
		return ""
	}
	return string(b)
}

// MarshalJSON writes {"type":"struct","fields":[...]}.
func (s *StructType) MarshalJSON() ([]byte, error) {
	fields := s.Fields
	if fields == nil {
		fields = []*StructField{}
	}
	return json.Marshal(struct {
		Type   string         `json:"type"`
		Fields []*StructField `json:"fields"`
	}{"struct", fields})
}

// UnmarshalJSON reads a struct type object.
func (s *StructType) UnmarshalJSON(b []byte) error {
	dt, err := unmarshalDataType(b)
	if err != nil {
		return err
	}
	st, ok := dt.(*StructType)
	if !ok {
		return fmt.Errorf("%w: expected a struct type, got %s", ErrInvalidSchema, dt.TypeName())
	}
	*s = *st
	return nil
}

// MarshalJSON writes {"name","type","nullable","metadata"} as Spark does.
func (f *StructField) MarshalJSON() ([]byte, error) {
	tb, err := marshalDataType(f.Type)
	if err != nil {
		return nil, err
	}
	md := f.Metadata
	if md == nil {
		md = map[string]any{}
	}
	return json.Marshal(struct {
		Name     string          `json:"name"`
		Type     json.RawMessage `json:"type"`
		Nullable bool            `json:"nullable"`
		Metadata map[string]any  `json:"metadata"`
	}{f.Name, tb, f.Nullable, md})
}

// UnmarshalJSON reads a struct field.
func (f *StructField) UnmarshalJSON(b []byte) error {
	var w struct {
		Name     *string         `json:"name"`
		Type     json.RawMessage `json:"type"`
		Nullable *bool           `json:"nullable"`
		Metadata json.RawMessage `json:"metadata"`
	}
	if err := json.Unmarshal(b, &w); err != nil {
		return fmt.Errorf("%w: %v", ErrInvalidSchema, err)
	}
	if w.Name == nil || len(w.Type) == 0 {
		return fmt.Errorf("%w: a field needs a name and a type: %s", ErrInvalidSchema, truncate(string(b), 120))
	}
	dt, err := unmarshalDataType(w.Type)
	if err != nil {
		return fmt.Errorf("field %q: %w", *w.Name, err)
	}
	f.Name, f.Type, f.Nullable = *w.Name, dt, w.Nullable == nil || *w.Nullable
	f.Metadata = nil
	if len(w.Metadata) > 0 && string(w.Metadata) != "null" {
		dec := json.NewDecoder(bytes.NewReader(w.Metadata))
		dec.UseNumber()
		if err := dec.Decode(&f.Metadata); err != nil {
			return fmt.Errorf("%w: field %q metadata: %v", ErrInvalidSchema, *w.Name, err)
		}
	}
	return nil
}

func marshalDataType(dt DataType) (json.RawMessage, error) {
	switch t := dt.(type) {
	case PrimitiveType, DecimalType:
		return json.Marshal(t.TypeName())
	case *ArrayType:
		e, err := marshalDataType(t.ElementType)
		if err != nil {
			return nil, err
		}
		return json.Marshal(struct {
			Type         string          `json:"type"`
			ElementType  json.RawMessage `json:"elementType"`
			ContainsNull bool            `json:"containsNull"`
		}{"array", e, t.ContainsNull})
	case *MapType:
		k, err := marshalDataType(t.KeyType)
		if err != nil {
			return nil, err
		}
		v, err := marshalDataType(t.ValueType)
		if err != nil {
			return nil, err
		}
		return json.Marshal(struct {
			Type              string          `json:"type"`
			KeyType           json.RawMessage `json:"keyType"`
			ValueType         json.RawMessage `json:"valueType"`
			ValueContainsNull bool            `json:"valueContainsNull"`
		}{"map", k, v, t.ValueContainsNull})
	case *StructType:
		return t.MarshalJSON()
	case nil:
		return nil, fmt.Errorf("%w: nil type", ErrInvalidSchema)
	}
	return nil, fmt.Errorf("%w: unknown type %T", ErrInvalidSchema, dt)
}

func unmarshalDataType(b []byte) (DataType, error) {
	b = bytes.TrimSpace(b)
	if len(b) > 0 && b[0] == '"' {
		var name string
		if err := json.Unmarshal(b, &name); err != nil {
			return nil, fmt.Errorf("%w: %v", ErrInvalidSchema, err)
		}
		return ParseTypeName(name)
	}
	var w struct {
		Type              string          `json:"type"`
		ElementType       json.RawMessage `json:"elementType"`
		ContainsNull      *bool           `json:"containsNull"`
		KeyType           json.RawMessage `json:"keyType"`
		ValueType         json.RawMessage `json:"valueType"`
		ValueContainsNull *bool           `json:"valueContainsNull"`
		Fields            []*StructField  `json:"fields"`
	}
	if err := json.Unmarshal(b, &w); err != nil {
		return nil, fmt.Errorf("%w: %v", ErrInvalidSchema, err)
	}
	switch w.Type {
	case "struct":
		for _, f := range w.Fields {
			if f == nil {
				return nil, fmt.Errorf("%w: null field in struct", ErrInvalidSchema)
			}
		}
		return &StructType{Fields: w.Fields}, nil
	case "array":
		if len(w.ElementType) == 0 {
			return nil, fmt.Errorf("%w: array without elementType", ErrInvalidSchema)
		}
		e, err := unmarshalDataType(w.ElementType)
		if err != nil {
			return nil, err
		}
		return &ArrayType{ElementType: e, ContainsNull: w.ContainsNull == nil || *w.ContainsNull}, nil
	case "map":
		if len(w.KeyType) == 0 || len(w.ValueType) == 0 {
			return nil, fmt.Errorf("%w: map without keyType/valueType", ErrInvalidSchema)
		}
		k, err := unmarshalDataType(w.KeyType)
		if err != nil {
			return nil, err
		}
		v, err := unmarshalDataType(w.ValueType)
		if err != nil {
			return nil, err
		}
		return &MapType{KeyType: k, ValueType: v, ValueContainsNull: w.ValueContainsNull == nil || *w.ValueContainsNull}, nil
	}
	return nil, fmt.Errorf("%w: unknown complex type %q", ErrInvalidSchema, w.Type)
}

// ParseTypeName parses a primitive type name of a schemaString ("long",
// "decimal(10,2)", ...).
func ParseTypeName(name string) (DataType, error) {
	n := strings.TrimSpace(name)
	if p := PrimitiveType(n); primitiveTypes[p] {
		return p, nil
	}
	if n == "decimal" {
		return DecimalType{Precision: 10, Scale: 0}, nil
	}
	if inner, ok := strings.CutPrefix(n, "decimal("); ok && strings.HasSuffix(inner, ")") {
		ps := strings.Split(strings.TrimSuffix(inner, ")"), ",")
		if len(ps) == 2 {
			p, err1 := strconv.Atoi(strings.TrimSpace(ps[0]))
			s, err2 := strconv.Atoi(strings.TrimSpace(ps[1]))
			if err1 == nil && err2 == nil && p >= 1 && p <= 38 && s >= 0 && s <= p {
				return DecimalType{Precision: p, Scale: s}, nil
			}
		}
	}
	return nil, fmt.Errorf("%w: unknown type %q", ErrInvalidSchema, name)
}

// DuckDBType returns the DuckDB type that holds values of dt:
// timestamp -> TIMESTAMPTZ, timestamp_ntz -> TIMESTAMP, decimal(p,s) ->
// DECIMAL(p,s), array -> T[], map -> MAP(K, V), struct -> STRUCT(...).
// Struct fields keep their logical names.
func DuckDBType(dt DataType) (string, error) { return duckType(dt, ColumnMappingNone) }

// duckType is DuckDBType with struct fields named by their physical names
// under column mapping (the type of the column as stored in data files).
func duckType(dt DataType, mode ColumnMappingMode) (string, error) {
	switch t := dt.(type) {
	case PrimitiveType:
		switch t {
		case StringType:
			return "VARCHAR", nil
		case LongType:
			return "BIGINT", nil
		case IntegerType:
			return "INTEGER", nil
		case ShortType:
			return "SMALLINT", nil
		case ByteType:
			return "TINYINT", nil
		case FloatType:
			return "FLOAT", nil
		case DoubleType:
			return "DOUBLE", nil
		case BooleanType:
			return "BOOLEAN", nil
		case BinaryType:
			return "BLOB", nil
		case DateType:
			return "DATE", nil
		case TimestampType:
			return "TIMESTAMPTZ", nil
		case TimestampNTZType:
			return "TIMESTAMP", nil
		case VoidType:
			return `"NULL"`, nil
		}
		return "", fmt.Errorf("%w: type %s cannot be read", ErrUnsupportedFeature, t)
	case DecimalType:
		return fmt.Sprintf("DECIMAL(%d,%d)", t.Precision, t.Scale), nil
	case *ArrayType:
		e, err := duckType(t.ElementType, mode)
		if err != nil {
			return "", err
		}
		return e + "[]", nil
	case *MapType:
		k, err := duckType(t.KeyType, mode)
		if err != nil {
			return "", err
		}
		v, err := duckType(t.ValueType, mode)
		if err != nil {
			return "", err
		}
		return "MAP(" + k + ", " + v + ")", nil
	case *StructType:
		parts := make([]string, len(t.Fields))
		for i, f := range t.Fields {
			ft, err := duckType(f.Type, mode)
			if err != nil {
				return "", err
			}
			parts[i] = quoteIdent(f.PhysicalName(mode)) + " " + ft
		}
		return "STRUCT(" + strings.Join(parts, ", ") + ")", nil
	}
	return "", fmt.Errorf("%w: unknown type %T", ErrInvalidSchema, dt)
}

// ParseDuckDBType maps a DuckDB type, as DESCRIBE or typeof() print it, to
// the Delta type that stores it: VARCHAR/UUID/JSON/ENUM -> string,
// TIMESTAMPTZ -> timestamp, TIMESTAMP (any precision) -> timestamp_ntz,
// unsigned integers widen to the next signed type (UBIGINT ->
// decimal(20,0)), HUGEINT -> decimal(38,0), fixed-size arrays -> array.
// New nested fields and elements are nullable.
func ParseDuckDBType(s string) (DataType, error) {
	p := &duckTypeParser{s: s}
	dt, err := p.parseType()
	if err != nil {
		return nil, err
	}
	p.skipSpace()
	if p.i != len(p.s) {
		return nil, fmt.Errorf("%w: unexpected %q in DuckDB type %q", ErrInvalidSchema, p.s[p.i:], s)
	}
	return dt, nil
}

type duckTypeParser struct {
	s string
	i int
}

func (p *duckTypeParser) skipSpace() {
	for p.i < len(p.s) && (p.s[p.i] == ' ' || p.s[p.i] == '\t' || p.s[p.i] == '\n') {
		p.i++
	}
}

func (p *duckTypeParser) errorf(format string, args ...any) error {
	return fmt.Errorf("%w: DuckDB type %q: %s", ErrInvalidSchema, p.s, fmt.Sprintf(format, args...))
}

// word reads an identifier (quoted or not).
func (p *duckTypeParser) word() (string, error) {
	p.skipSpace()
	if p.i < len(p.s) && p.s[p.i] == '"' {
		var b strings.Builder
		p.i++
		for p.i < len(p.s) {
			c := p.s[p.i]
			if c == '"' {
				if p.i+1 < len(p.s) && p.s[p.i+1] == '"' {
					b.WriteByte('"')
					p.i += 2
					continue
				}
				p.i++
				return b.String(), nil
			}
			b.WriteByte(c)
			p.i++
		}
		return "", p.errorf("unterminated quoted name")
	}
	start := p.i
	for p.i < len(p.s) {
		c := p.s[p.i]
		if c == '(' || c == ')' || c == ',' || c == '[' || c == ']' || c == ' ' || c == '"' {
			break
		}
		p.i++
	}
	if start == p.i {
		return "", p.errorf("expected a name at offset %d", start)
	}
	return p.s[start:p.i], nil
}

func (p *duckTypeParser) expect(c byte) error {
	p.skipSpace()
	if p.i >= len(p.s) || p.s[p.i] != c {
		return p.errorf("expected %q at offset %d", c, p.i)
	}
	p.i++
	return nil
}

func (p *duckTypeParser) peek() byte {
	p.skipSpace()
	if p.i < len(p.s) {
		return p.s[p.i]
	}
	return 0
}

func (p *duckTypeParser) parseType() (DataType, error) {
	name, err := p.word()
	if err != nil {
		return nil, err
	}
	var dt DataType
	switch up := strings.ToUpper(name); up {
	case "STRUCT":
		if err := p.expect('('); err != nil {
			return nil, err
		}
		st := &StructType{}
		for {
			fname, err := p.word()
			if err != nil {
				return nil, err
			}
			ft, err := p.parseType()
			if err != nil {
				return nil, err
			}
			st.Fields = append(st.Fields, &StructField{Name: fname, Type: ft, Nullable: true})
			if p.peek() == ',' {
				p.i++
				continue
			}
			if err := p.expect(')'); err != nil {
				return nil, err
			}
			break
		}
		dt = st
	case "MAP":
		if err := p.expect('('); err != nil {
			return nil, err
		}
		k, err := p.parseType()
		if err != nil {
			return nil, err
		}
		if err := p.expect(','); err != nil {
			return nil, err
		}
		v, err := p.parseType()
		if err != nil {
			return nil, err
		}
		if err := p.expect(')'); err != nil {
			return nil, err
		}
		dt = &MapType{KeyType: k, ValueType: v, ValueContainsNull: true}
	case "DECIMAL", "NUMERIC":
		prec, scale := 18, 3
		if p.peek() == '(' {
			p.i++
			a, err := p.word()
			if err != nil {
				return nil, err
			}
			prec, err = strconv.Atoi(a)
			if err != nil {
				return nil, p.errorf("bad precision %q", a)
			}
			scale = 0
			if p.peek() == ',' {
				p.i++
				b, err := p.word()
				if err != nil {
					return nil, err
				}
				if scale, err = strconv.Atoi(b); err != nil {
					return nil, p.errorf("bad scale %q", b)
				}
			}
			if err := p.expect(')'); err != nil {
				return nil, err
			}
		}
		dt = DecimalType{Precision: prec, Scale: scale}
	case "TIMESTAMP":
		// "TIMESTAMP WITH TIME ZONE"
		rest := strings.ToUpper(p.s[p.i:])
		if t := strings.TrimLeft(rest, " "); strings.HasPrefix(t, "WITH TIME ZONE") {
			p.i += len(rest) - len(t) + len("WITH TIME ZONE")
			dt = TimestampType
		} else {
			dt = TimestampNTZType
		}
	default:
		prim, ok := duckPrimitives[up]
		if !ok {
			if strings.HasPrefix(up, "ENUM") {
				// ENUM('a', 'b'): skip the value list.
				depth := 0
				for p.i < len(p.s) {
					c := p.s[p.i]
					p.i++
					if c == '(' {
						depth++
					} else if c == ')' {
						depth--
						if depth == 0 {
							break
						}
					}
				}
				prim = StringType
			} else {
				return nil, p.errorf("type %s has no Delta equivalent", name)
			}
		}
		dt = prim
	}
	// Array suffixes: T[] or T[n], possibly repeated.
	for p.peek() == '[' {
		p.i++
		for p.i < len(p.s) && p.s[p.i] != ']' {
			p.i++
		}
		if err := p.expect(']'); err != nil {
			return nil, err
		}
		dt = &ArrayType{ElementType: dt, ContainsNull: true}
	}
	return dt, nil
}

var duckPrimitives = map[string]DataType{
	"VARCHAR": StringType, "TEXT": StringType, "STRING": StringType, "CHAR": StringType,
	"BPCHAR": StringType, "UUID": StringType, "JSON": StringType,
	"BIGINT": LongType, "INT8": LongType, "LONG": LongType,
	"INTEGER": IntegerType, "INT4": IntegerType, "INT": IntegerType, "SIGNED": IntegerType,
	"SMALLINT": ShortType, "INT2": ShortType, "SHORT": ShortType,
	"TINYINT": ByteType, "INT1": ByteType,
	"UTINYINT": ShortType, "USMALLINT": IntegerType, "UINTEGER": LongType,
	"UBIGINT": DecimalType{Precision: 20}, "HUGEINT": DecimalType{Precision: 38},
	"UHUGEINT": DecimalType{Precision: 38},
	"FLOAT":    FloatType, "FLOAT4": FloatType, "REAL": FloatType,
	"DOUBLE": DoubleType, "FLOAT8": DoubleType,
	"BOOLEAN": BooleanType, "BOOL": BooleanType, "LOGICAL": BooleanType,
	"BLOB": BinaryType, "BYTEA": BinaryType, "BINARY": BinaryType, "VARBINARY": BinaryType,
	"DATE":        DateType,
	"TIMESTAMPTZ": TimestampType,
	"TIMESTAMP_S": TimestampNTZType, "TIMESTAMP_MS": TimestampNTZType,
	"TIMESTAMP_NS": TimestampNTZType, "DATETIME": TimestampNTZType,
	"TIMESTAMP_US": TimestampNTZType,
	"NULL":         VoidType,
}

// quoteIdent quotes a SQL identifier for DuckDB.
func quoteIdent(s string) string { return `"` + strings.ReplaceAll(s, `"`, `""`) + `"` }

// quoteString quotes a SQL string literal for DuckDB.
func quoteString(s string) string { return "'" + strings.ReplaceAll(s, "'", "''") + "'" }

func truncate(s string, n int) string {
	if len(s) <= n {
		return s
	}
	return s[:n] + "..."
}

// someType reports whether pred holds for dt or for a type nested in it
// (struct fields, array elements, map keys and values).
func someType(dt DataType, pred func(DataType) bool) bool {
	if pred(dt) {
		return true
	}
	switch t := dt.(type) {
	case *StructType:
		for _, f := range t.Fields {
			if someType(f.Type, pred) {
				return true
			}
		}
	case *ArrayType:
		return someType(t.ElementType, pred)
	case *MapType:
		return someType(t.KeyType, pred) || someType(t.ValueType, pred)
	}
	return false
}
