package sparksql

import (
	"errors"
	"flag"
	"os"
	"reflect"
	"sort"
	"strings"
	"testing"
)

var updateDocs = flag.Bool("update-docs", false, "rewrite the function table of docs/spark-sql.md")

// callsIn lists the functions a step calls (lower-case names), found by
// walking its syntax tree.
func callsIn(sql, mode string) []string {
	var root any
	var err error
	if mode == "query" {
		root, err = ParseQuery(sql)
	} else {
		root, err = ParseExpr(sql)
	}
	if err != nil {
		return nil
	}
	var out []string
	var walk func(v reflect.Value)
	walk = func(v reflect.Value) {
		switch v.Kind() {
		case reflect.Pointer, reflect.Interface:
			if v.IsNil() {
				return
			}
			if c, ok := v.Interface().(*Call); ok {
				out = append(out, strings.ToLower(c.Name.Name))
			}
			if lv, ok := v.Interface().(*LateralView); ok {
				out = append(out, strings.ToLower(lv.Func.Name.Name))
			}
			walk(v.Elem())
		case reflect.Struct:
			for i := 0; i < v.NumField(); i++ {
				walk(v.Field(i))
			}
		case reflect.Slice:
			for i := 0; i < v.Len(); i++ {
				walk(v.Index(i))
			}
		}
	}
	walk(reflect.ValueOf(root))
	return out
}

// TestFunctionTableUnsupported: every function the table marks
// unsupported, and every Spark function it does not list, is rejected at
// translation naming it.
func TestFunctionTableUnsupported(t *testing.T) {
	for _, f := range Functions() {
		if f.Support != Unsupported {
			continue
		}
		sql := "SELECT " + f.Name + "(1) FROM {df}"
		_, err := Translate(sql, []Input{{Ref: "df", SQL: "x", Schema: []Column{{Name: "a", Type: tInt}}}}, Options{})
		var pe *Error
		if !errors.As(err, &pe) || !errors.Is(err, ErrUnsupported) || !strings.Contains(pe.Msg, "Spark function `"+f.Name+"` is not supported locally") || pe.Pos != 7 {
			// Functions with their own syntax may fail earlier (parse), naming them.
			if errors.As(err, &pe) && (strings.Contains(pe.Msg, f.Name) || strings.Contains(pe.Msg, strings.ToUpper(f.Name))) {
				continue
			}
			t.Errorf("%s: %v, want the unsupported-function error at offset 7", f.Name, err)
		}
	}
}

// TestFunctionTableKnownToSpark: the table lists only Spark's functions.
func TestFunctionTableKnownToSpark(t *testing.T) {
	for name, d := range table() {
		if !sparkFunctions()[name] {
			t.Errorf("the table has %s (%s), which is not a Spark 4.2 built-in function", name, d.support)
		}
	}
}

// TestFunctionsDocCurrent: docs/spark-sql.md lists the function table as
// it is (regenerate with -update-docs).
func TestFunctionsDocCurrent(t *testing.T) {
	path := "../../docs/spark-sql.md"
	raw, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	const begin, end = "<!-- functions:begin -->\n", "<!-- functions:end -->"
	doc := string(raw)
	i, j := strings.Index(doc, begin), strings.Index(doc, end)
	if i < 0 || j < i {
		t.Fatalf("%s has no %q ... %q section", path, strings.TrimSpace(begin), end)
	}
	want := doc[:i+len(begin)] + FunctionsMarkdown() + doc[j:]
	if *updateDocs {
		if err := os.WriteFile(path, []byte(want), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	if want != doc {
		t.Errorf("%s's function table is not current: run go test ./runner/sparksql -run TestFunctionsDocCurrent -update-docs", path)
	}
}

// coverage checks that every supported function of the table is called by
// at least one corpus step whose outcome was checked against Spark.
func checkCoverage(t *testing.T, results []result) {
	verified := map[string]bool{}
	for _, r := range results {
		if r.status != okExact && r.status != okError {
			continue
		}
		for _, f := range callsIn(r.c.sql, r.c.mode) {
			verified[f] = true
		}
	}
	var missing []string
	for name, d := range table() {
		if d.support != Unsupported && !verified[name] && !strings.HasPrefix(d.note, "SQL syntax") {
			missing = append(missing, name)
		}
	}
	sort.Strings(missing)
	if len(missing) > 0 {
		t.Errorf("supported functions no corpus step checks against Spark (add steps, or mark them unsupported): %s", strings.Join(missing, ", "))
	}
}
