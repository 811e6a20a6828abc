package delta

import (
	"encoding/json"
	"errors"
	"reflect"
	"testing"
)

const allTypesSchema = `{"type":"struct","fields":[` +
	`{"name":"s","type":"string","nullable":true,"metadata":{}},` +
	`{"name":"l","type":"long","nullable":false,"metadata":{"comment":"id"}},` +
	`{"name":"i","type":"integer","nullable":true,"metadata":{}},` +
	`{"name":"sh","type":"short","nullable":true,"metadata":{}},` +
	`{"name":"b","type":"byte","nullable":true,"metadata":{}},` +
	`{"name":"f","type":"float","nullable":true,"metadata":{}},` +
	`{"name":"d","type":"double","nullable":true,"metadata":{}},` +
	`{"name":"bo","type":"boolean","nullable":true,"metadata":{}},` +
	`{"name":"bi","type":"binary","nullable":true,"metadata":{}},` +
	`{"name":"dt","type":"date","nullable":true,"metadata":{}},` +
	`{"name":"ts","type":"timestamp","nullable":true,"metadata":{}},` +
	`{"name":"tn","type":"timestamp_ntz","nullable":true,"metadata":{}},` +
	`{"name":"dec","type":"decimal(38,18)","nullable":true,"metadata":{}},` +
	`{"name":"arr","type":{"type":"array","elementType":"long","containsNull":false},"nullable":true,"metadata":{}},` +
	`{"name":"m","type":{"type":"map","keyType":"string","valueType":{"type":"array","elementType":"integer","containsNull":true},"valueContainsNull":true},"nullable":true,"metadata":{}},` +
	`{"name":"st","type":{"type":"struct","fields":[{"name":"a b","type":"integer","nullable":true,"metadata":{"delta.columnMapping.id":7,"delta.columnMapping.physicalName":"col-7"}}]},"nullable":true,"metadata":{"delta.columnMapping.id":6,"delta.columnMapping.physicalName":"col-6"}}` +
	`]}`

func TestSchemaRoundTrip(t *testing.T) {
	s, err := ParseSchema(allTypesSchema)
	if err != nil {
		t.Fatal(err)
	}
	if got := s.String(); got != allTypesSchema {
		t.Fatalf("round trip:\n got %s\nwant %s", got, allTypesSchema)
	}
	if f := s.Field("L"); f == nil || f.Name != "l" || f.Nullable {
		t.Fatalf("case-insensitive lookup: %+v", f)
	}
	st := s.Field("st")
	if id, ok := st.ColumnMappingID(); !ok || id != 6 {
		t.Fatalf("column mapping id %d %v", id, ok)
	}
	if st.PhysicalName(ColumnMappingName) != "col-6" || st.PhysicalName(ColumnMappingNone) != "st" {
		t.Fatal("physical name")
	}
	if d := s.Field("dec").Type; d != (DecimalType{38, 18}) {
		t.Fatalf("decimal %v", d)
	}
}

func TestSchemaErrors(t *testing.T) {
	for _, in := range []string{
		`{"type":"struct","fields":[{"name":"x","type":"uint128","nullable":true}]}`,
		`{"type":"struct","fields":[{"name":"x","type":"decimal(40,2)","nullable":true}]}`,
		`{"type":"struct","fields":[{"type":"long"}]}`,
		`{"type":"array","elementType":"long"}`,
		`{"type":"struct","fields":[{"name":"x","type":{"type":"tuple"}}]}`,
		`not json`,
	} {
		if _, err := ParseSchema(in); !errors.Is(err, ErrInvalidSchema) {
			t.Errorf("ParseSchema(%s) = %v, want ErrInvalidSchema", in, err)
		}
	}
}

func TestDuckDBTypeMapping(t *testing.T) {
	s, err := ParseSchema(allTypesSchema)
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]string{
		"s": "VARCHAR", "l": "BIGINT", "i": "INTEGER", "sh": "SMALLINT", "b": "TINYINT",
		"f": "FLOAT", "d": "DOUBLE", "bo": "BOOLEAN", "bi": "BLOB", "dt": "DATE",
		"ts": "TIMESTAMPTZ", "tn": "TIMESTAMP", "dec": "DECIMAL(38,18)", "arr": "BIGINT[]",
		"m": "MAP(VARCHAR, INTEGER[])", "st": `STRUCT("a b" INTEGER)`,
	}
	for _, f := range s.Fields {
		got, err := DuckDBType(f.Type)
		if err != nil || got != want[f.Name] {
			t.Errorf("%s: got %q (%v), want %q", f.Name, got, err, want[f.Name])
		}
	}
	phys, err := duckType(s.Field("st").Type, ColumnMappingName)
	if err != nil || phys != `STRUCT("col-7" INTEGER)` {
		t.Fatalf("physical struct type %q %v", phys, err)
	}
	if _, err := DuckDBType(VariantType); !errors.Is(err, ErrUnsupportedFeature) {
		t.Fatalf("variant: %v", err)
	}
}

func TestParseDuckDBType(t *testing.T) {
	tests := []struct {
		in   string
		want DataType
	}{
		{"VARCHAR", StringType},
		{"BIGINT", LongType},
		{"TIMESTAMP WITH TIME ZONE", TimestampType},
		{"TIMESTAMP", TimestampNTZType},
		{"TIMESTAMP_NS", TimestampNTZType},
		{"DECIMAL(10,2)", DecimalType{10, 2}},
		{"UBIGINT", DecimalType{20, 0}},
		{"UUID", StringType},
		{"ENUM('a', 'b')", StringType},
		{"INTEGER[]", &ArrayType{ElementType: IntegerType, ContainsNull: true}},
		{"INTEGER[3][]", &ArrayType{ElementType: &ArrayType{ElementType: IntegerType, ContainsNull: true}, ContainsNull: true}},
		{"MAP(VARCHAR, DOUBLE[])", &MapType{KeyType: StringType, ValueType: &ArrayType{ElementType: DoubleType, ContainsNull: true}, ValueContainsNull: true}},
		{`STRUCT("a b" INTEGER, c STRUCT(d DATE)[])`, &StructType{Fields: []*StructField{
			{Name: "a b", Type: IntegerType, Nullable: true},
			{Name: "c", Type: &ArrayType{ElementType: &StructType{Fields: []*StructField{{Name: "d", Type: DateType, Nullable: true}}}, ContainsNull: true}, Nullable: true},
		}}},
	}
	for _, tt := range tests {
		t.Run(tt.in, func(t *testing.T) {
			got, err := ParseDuckDBType(tt.in)
			if err != nil {
				t.Fatal(err)
			}
			if !reflect.DeepEqual(got, tt.want) {
				gj, _ := marshalDataType(got)
				wj, _ := marshalDataType(tt.want)
				t.Fatalf("got %s, want %s", gj, wj)
			}
			// Mapping back gives a DuckDB type that parses to the same Delta type.
			back, err := DuckDBType(got)
			if err != nil {
				t.Fatal(err)
			}
			again, err := ParseDuckDBType(back)
			if err != nil || !reflect.DeepEqual(again, got) {
				t.Fatalf("DuckDBType round trip %q -> %v (%v)", back, again, err)
			}
		})
	}
	for _, bad := range []string{"INTERVAL", "STRUCT(a INTEGER", "MAP(VARCHAR)", "DECIMAL(x)", "BIGINT junk"} {
		if _, err := ParseDuckDBType(bad); !errors.Is(err, ErrInvalidSchema) {
			t.Errorf("ParseDuckDBType(%q) = %v, want ErrInvalidSchema", bad, err)
		}
	}
}

func TestStructFieldMetadataNumbersPreserved(t *testing.T) {
	var f StructField
	if err := json.Unmarshal([]byte(`{"name":"x","type":"long","nullable":true,"metadata":{"delta.columnMapping.id":12345678901234}}`), &f); err != nil {
		t.Fatal(err)
	}
	b, _ := json.Marshal(&f)
	if string(b) != `{"name":"x","type":"long","nullable":true,"metadata":{"delta.columnMapping.id":12345678901234}}` {
		t.Fatalf("got %s", b)
	}
}
