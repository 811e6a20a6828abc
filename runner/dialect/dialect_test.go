package dialect

import (
	"context"
	"slices"
	"strings"
	"testing"

	"github.com/laktory/workbench/workspace"
)

func TestPlaceholders(t *testing.T) {
	got := Placeholders("SELECT * FROM {df} JOIN { sources.meta } USING (id) WHERE x IN (SELECT x FROM {nodes.a})")
	want := []Ref{{Name: "df", Off: 14, Len: 4}, {Name: "sources.meta", Off: 24, Len: 16}, {Name: "nodes.a", Off: 78, Len: 9}}
	if !slices.Equal(got, want) {
		t.Fatalf("got %+v\nwant %+v", got, want)
	}
}

func TestDuckDB(t *testing.T) {
	ins := []Input{{Ref: "df", Relation: "lk1_2_src"}, {Ref: "sources.meta", Relation: `m"x`}}
	tests := []struct {
		name string
		step Step
		sql  string
		diag string
	}{
		{"query", Step{Kind: Query, Text: "SELECT * FROM {df} d JOIN { sources.meta } m USING (id)", Inputs: ins},
			`SELECT * FROM "lk1_2_src" d JOIN "m""x" m USING (id)`, ""},
		{"expression", Step{Kind: Expression, Text: "price > 0", Inputs: ins[:1]}, "price > 0", ""},
		{"unknown placeholder", Step{Kind: Query, Text: "SELECT * FROM {nodes.zz}", Inputs: ins}, "", "{nodes.zz} names no input"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			res, err := DuckDB{}.Translate(context.Background(), tt.step)
			if err != nil {
				t.Fatal(err)
			}
			if res.SQL != tt.sql {
				t.Fatalf("SQL %q, want %q", res.SQL, tt.sql)
			}
			if tt.diag == "" {
				if len(res.Diagnostics) > 0 {
					t.Fatalf("diagnostics %+v", res.Diagnostics)
				}
				return
			}
			if !res.Failed() || len(res.Diagnostics) != 1 || !strings.HasPrefix(res.Diagnostics[0].Message, tt.diag) || res.Diagnostics[0].Offset != 14 {
				t.Fatalf("diagnostics %+v, want %q at 14", res.Diagnostics, tt.diag)
			}
		})
	}
}

// TestSource: offsets of the translated SQL map back into the text, a
// replaced placeholder to the end of the text before it.
func TestSource(t *testing.T) {
	text := "SELECT prise FROM {df} WHERE qty > 0"
	res, err := DuckDB{}.Translate(context.Background(), Step{Kind: Query, Text: text, Inputs: []Input{{Ref: "df", Relation: "a_long_view_name"}}})
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		word string
		in   int
	}{{"prise", 7}, {"qty", 29}, {"a_long", 18}, {"SELECT", 0}} {
		out := strings.Index(res.SQL, tc.word)
		if got := res.Source(out); got != tc.in {
			t.Errorf("%s: SQL offset %d maps to %d, want %d", tc.word, out, got, tc.in)
		}
	}
	if got := (Result{}).Source(5); got != 0 {
		t.Errorf("no spans: %d", got)
	}
	if (Result{Diagnostics: []Diagnostic{{Severity: workspace.SeverityWarning}}}).Failed() {
		t.Error("a warning does not fail a step")
	}
}

// TestTypeNames: each spelling of a declared type maps to the DuckDB and
// the Spark type of the same values.
func TestTypeNames(t *testing.T) {
	for _, c := range []struct{ in, duck, spark string }{
		{"String", "VARCHAR", "STRING"},
		{"str", "VARCHAR", "STRING"},
		{"Int8", "TINYINT", "TINYINT"},
		{"short", "SMALLINT", "SMALLINT"},
		{"UInt8", "SMALLINT", "SMALLINT"},
		{"Int32", "INTEGER", "INT"},
		{"integer", "INTEGER", "INT"},
		{"long", "BIGINT", "BIGINT"},
		{"Int64", "BIGINT", "BIGINT"},
		{"UInt32", "BIGINT", "BIGINT"},
		{"Float32", "FLOAT", "FLOAT"},
		{"Float64", "DOUBLE", "DOUBLE"},
		{"Boolean", "BOOLEAN", "BOOLEAN"},
		{"Date", "DATE", "DATE"},
		{"Datetime", "TIMESTAMPTZ", "TIMESTAMP"},
		{" timestamp ", "TIMESTAMPTZ", "TIMESTAMP"},
		{"timestamp_ntz", "TIMESTAMP", "TIMESTAMP_NTZ"},
		{"binary", "BLOB", "BINARY"},
		{"Decimal", "DECIMAL(10,0)", "DECIMAL(10,0)"},
		{"decimal( 12 , 2 )", "DECIMAL(12,2)", "DECIMAL(12,2)"},
		{"interval", "interval", "interval"},
	} {
		if g := DuckDBTypeName(c.in); g != c.duck {
			t.Errorf("DuckDBTypeName(%q) = %s, want %s", c.in, g, c.duck)
		}
		if g := SparkTypeName(c.in); g != c.spark {
			t.Errorf("SparkTypeName(%q) = %s, want %s", c.in, g, c.spark)
		}
	}
}
