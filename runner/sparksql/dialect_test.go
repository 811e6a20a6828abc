package sparksql

import (
	"errors"
	"testing"

	"github.com/laktory/workbench/runner/sqlfront"
)

// An expression built with the core's Builder resolves as the same Spark
// SQL text does: same DuckDB SQL, type and Spark name, same errors.
func TestBuilderMatchesText(t *testing.T) {
	cols := []sqlfront.Column{{Name: "a", Type: tString}, {Name: "n", Type: tInt}, {Name: "d", Type: decimalType(10, 2)}, {Name: "g", Type: tString}}
	var schema []Column
	for _, c := range cols {
		schema = append(schema, Column{Name: c.Name, Type: c.Type.(*Type)})
	}
	b := sqlfront.NewBuilder(Dialect(Options{}), cols, true)
	must := func(v *sqlfront.Value, err error) *sqlfront.Value {
		t.Helper()
		if err != nil {
			t.Fatal(err)
		}
		return v
	}
	a := must(b.Column(0, "a"))
	n := must(b.Column(0, "n"))
	d := must(b.Column(0, "d"))
	g := must(b.Column(0, "g"))
	one := must(b.Literal(0, 1))
	for _, tc := range []struct {
		sql   string
		built func() (*sqlfront.Value, error)
	}{
		{"upper(a)", func() (*sqlfront.Value, error) { return b.Call(0, "upper", a) }},
		{"n + 1", func() (*sqlfront.Value, error) { return b.Op(0, "+", n, one) }},
		{"d * 2.5D", func() (*sqlfront.Value, error) { return b.Op(0, "*", d, must(b.Literal(0, 2.5))) }},
		{"CAST(d AS INT)", func() (*sqlfront.Value, error) { return b.Cast(0, d, "int", false) }},
		{"TRY_CAST(a AS BIGINT)", func() (*sqlfront.Value, error) { return b.Cast(0, a, "bigint", true) }},
		{"a IS NULL", func() (*sqlfront.Value, error) { return b.IsNull(0, a, false) }},
		{"n IN (1, 2)", func() (*sqlfront.Value, error) { return b.In(0, n, false, one, must(b.Literal(0, 2))) }},
		{"CASE WHEN n > 1 THEN 'x' ELSE NULL END", func() (*sqlfront.Value, error) {
			return b.When(0, []*sqlfront.Value{must(b.Op(0, ">", n, one))}, []*sqlfront.Value{must(b.Literal(0, "x"))}, must(b.Literal(0, nil)))
		}},
		{"sum(n)", func() (*sqlfront.Value, error) { return b.Aggregate(0, "sum", false, n) }},
		{"count(*)", func() (*sqlfront.Value, error) { return b.Aggregate(0, "count", false) }},
		{"count(DISTINCT a)", func() (*sqlfront.Value, error) { return b.Aggregate(0, "count", true, a) }},
		{"sum(n) OVER (PARTITION BY g ORDER BY a DESC)", func() (*sqlfront.Value, error) {
			return b.Window(0, must(b.Aggregate(0, "sum", false, n)), []*sqlfront.Value{g}, []sqlfront.Order{{X: a, Desc: true}}, nil)
		}},
		{"NOT (n > 1)", func() (*sqlfront.Value, error) { return b.Op(0, "not", must(b.Op(0, ">", n, one)), nil) }},
		{"nosuchfn(a)", func() (*sqlfront.Value, error) { return b.Call(0, "nosuchfn", a) }},
		{"upper(zz)", func() (*sqlfront.Value, error) { return b.Column(0, "zz") }},
		{"CAST(a AS money)", func() (*sqlfront.Value, error) { return b.Cast(0, a, "money", false) }},
	} {
		want, werr := TranslateExpr(tc.sql, ExprInput{Schema: schema}, Options{}, true)
		got, gerr := tc.built()
		if (werr != nil) != (gerr != nil) {
			t.Errorf("%s: built error %v, text error %v", tc.sql, gerr, werr)
			continue
		}
		if werr != nil {
			var we, ge *Error
			if !errors.As(werr, &we) || !errors.As(gerr, &ge) || we.Class != ge.Class || errors.Is(werr, ErrSpark) != errors.Is(gerr, ErrSpark) {
				t.Errorf("%s: built error %v, text error %v", tc.sql, gerr, werr)
			}
			continue
		}
		if got.SQL != want.SQL || got.Type.String() != want.Type.String() || got.Name != want.Name {
			t.Errorf("%s:\n built %s %s %q\n text  %s %s %q", tc.sql, got.SQL, got.Type, got.Name, want.SQL, want.Type, want.Name)
		}
	}
}
