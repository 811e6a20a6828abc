package polarssql

import (
	"bytes"
	"errors"
	"go/format"
	"os"
	"os/exec"
	"strings"
	"testing"

	"github.com/laktory/workbench/runner/sqlfront"
)

// What Laktory's SQL parser accepts, names and types, and its messages for
// the rest, without DuckDB.
func TestLaktoryExpr(t *testing.T) {
	cols := []Column{{"i", mustType(t, "Int32")}, {"d", mustType(t, "Float64")}, {"s", mustType(t, "String")}, {"ok", mustType(t, "Boolean")},
		{"a", mustType(t, "Struct(city:String)")}, {"dt", mustType(t, "Date")}, {"f", mustType(t, "Float32")}}
	for _, tc := range []struct{ text, want string }{
		{"i / 2", "i:Float64"},
		{"2 * d", "literal:Float64"},
		{"i % 3", "i:Int32"},
		{"UPPER(s)", "s:String"},
		{"COUNT(s)", "s:UInt32 agg"},
		{"SUM(i)", "i:Int32 agg"},
		{"a.city = 'Paris'", "city:Boolean"},
		{"ok IS TRUE", "ok:Boolean"},
		{"i IN (1, 2)", "error Exception: expression i IN (1, 2) of type '<class 'sqlglot.expressions.core.In'>' is not currently supported"},
		{"i NOT IN (1, 2)", "error Exception: expression i IN (1, 2) of type"},
		{"i IS 5", "error Exception: IS expression with right-hand side 5 of type '<class 'sqlglot.expressions.core.Literal'>' is not currently supported"},
		{"i IS NOT s || 'x'", "error Exception: IS expression with right-hand side s || 'x' of type '<class 'sqlglot.expressions.core.DPipe'>'"},
		{"a.b.c IS 5", "error Exception: Column expression a.b.c with more than 2 parts"},
		{"ok = i IS NULL", "ok:Boolean"},
		{"ok IS UNKNOWN", "ok:Boolean"},
		{"+i", "i:Int32"},
		{"-(i)", "error Exception: expression -(i) of type '<class 'sqlglot.expressions.core.Neg'>'"},
		{"a.b.c || myfn(s)", "error Exception: Column expression a.b.c"},
		{"i <=> 1", "error ValueError: Unsupported binary operator <class 'sqlglot.expressions.core.NullSafeEQ'>"},
		{"s LIKE 'a%'", "error ValueError: Unsupported binary operator <class 'sqlglot.expressions.core.Like'>"},
		{"s || s", "error ValueError: Unsupported binary operator <class 'sqlglot.expressions.core.DPipe'>"},
		{"CAST(i AS TEXT)", "error AttributeError: module 'narwhals' has no attribute 'Utf8'"},
		{"ROUND(d, 1)", "error TypeError"},
		{"COALESCE(s, 'x')", "error ValueError: Unsupported function s of type <class 'sqlglot.expressions.functions.Coalesce'>"},
		{"SQRT(d)", "error ValueError: Unsupported function d of type <class 'sqlglot.expressions.math.Sqrt'>"},
		{"CONCAT(s, s)", "error ValueError: Unsupported function None of type <class 'sqlglot.expressions.string.Concat'>"},
		{"myfn(d)", "error ValueError: Unsupported function myfn of type <class 'sqlglot.expressions.core.Anonymous'>"},
		{"i > -1", "error Exception"},
		{"ok = TRUE", "error Exception"},
		{"a.b.c", "error Exception: Column expression a.b.c with more than 2 parts is not supported"},
		{"POWER(d, 2)", "d:Float64"},
		{"POWER(i, 2)", "i:Int32"},
		{"POWER(i, 0.5)", "i:Float64"},
		{"CBRT(i)", "i:Float64"},
		{"EXP(d)", "literal:Float64"},
		{"LN(d)", "error InvalidOperationError: Order-dependent expressions are not supported for use in LazyFrame."},
		{"dt > '2024-01-01'", "error InvalidOperationError: cannot compare 'date/datetime/time' to a string value"},
		{"'2024-01-01' <= dt", "error InvalidOperationError: cannot compare"},
		{"'x'", "unsupported"},
		{"2 * 3", "unsupported"},
		{"POWER(f, 2)", "f:Float32"},
		{"POWER(f, 1.5)", "unsupported"},
		{"POWER(i, 40)", "i:Int32"},
		{"POWER(i, 513)", "unsupported"},
		{"POWER(d, f)", "d:Float64"},
		{"f % 2", "f:Float32"},
		{"CEIL(d)", "unsupported"},
		{"SUM(i / 2)", "unsupported"},
	} {
		x, err := TranslateLaktoryExpr(tc.text, "", cols)
		var got string
		switch {
		case err != nil:
			var fe *sqlfront.Error
			if !errors.As(err, &fe) {
				t.Fatalf("%s: %v", tc.text, err)
			}
			got = "unsupported"
			if errors.Is(err, ErrPolars) {
				got = "error " + fe.Class + ": " + fe.Msg
			}
		default:
			got = x.Name + ":" + x.Type.String()
			if x.Aggregate {
				got += " agg"
			}
		}
		if !strings.HasPrefix(got, tc.want) {
			t.Errorf("%s:\n got  %s\n want %s", tc.text, got, tc.want)
		}
	}
}

// TestLaktoryFuncsCurrent: laktory_funcs_gen.go is what
// scripts/polars/sqlglot_functions.py prints for the installed sqlglot
// (the one laktory 0.13.1 runs with).
func TestLaktoryFuncsCurrent(t *testing.T) {
	py := os.Getenv("LAKTORY_PYTHON")
	if py == "" {
		if os.Getenv("LAKTORY_REQUIRE_INTEROP") == "1" {
			t.Fatal("LAKTORY_PYTHON is not set")
		}
		t.Skip("LAKTORY_PYTHON not set")
	}
	out, err := exec.Command(py, "../../scripts/polars/sqlglot_functions.py").Output()
	if err != nil {
		t.Fatalf("sqlglot_functions.py: %v", err)
	}
	want, err := format.Source(out)
	if err != nil {
		t.Fatal(err)
	}
	got, err := os.ReadFile("laktory_funcs_gen.go")
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(got, want) {
		t.Error("laktory_funcs_gen.go is not current: python scripts/polars/sqlglot_functions.py | gofmt > runner/polarssql/laktory_funcs_gen.go")
	}
}

// TestGeneratedCurrent: testdata/sqlglot/text.json,
// testdata/random/arith.json, variance.json, strptime.json and quantile.json are what their scripts compute with the
// installed laktory, sqlglot and polars (an upgrade shows what changed).
func TestGeneratedCurrent(t *testing.T) {
	py := os.Getenv("LAKTORY_PYTHON")
	if py == "" {
		if os.Getenv("LAKTORY_REQUIRE_INTEROP") == "1" {
			t.Fatal("LAKTORY_PYTHON is not set")
		}
		t.Skip("LAKTORY_PYTHON not set")
	}
	for script, file := range map[string]string{"sqlglot_text.py": "testdata/sqlglot/text.json", "random_arith.py": "testdata/random/arith.json", "random_variance.py": "testdata/random/variance.json", "strptime_cases.py": "testdata/random/strptime.json", "random_quantile.py": "testdata/random/quantile.json"} {
		out := t.TempDir() + "/out.json"
		if b, err := exec.Command(py, "../../scripts/polars/"+script, out).CombinedOutput(); err != nil {
			t.Fatalf("%s: %v\n%s", script, err, b)
		}
		got, err := os.ReadFile(out)
		if err != nil {
			t.Fatal(err)
		}
		want, err := os.ReadFile(file)
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(got, want) {
			t.Errorf("%s is not what scripts/polars/%s computes today: rerun it and read the diff", file, script)
		}
	}
}
