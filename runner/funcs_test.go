package runner

import (
	"fmt"
	"path/filepath"
	"strings"
	"testing"

	"github.com/laktory/workbench/delta"
	"github.com/laktory/workbench/validate"
	"github.com/laktory/workbench/workspace"
	"github.com/laktory/workbench/workspace/workspacetest"
)

// TestValidateFrameLaktoryRules: the func_name steps Laktory 0.13.1 fails
// on at run time (docs/laktory-rules.md) are validation errors at the
// step, with Laktory's message, found by the schema flow through
// runner/frame.
func TestValidateFrameLaktoryRules(t *testing.T) {
	tests := []struct {
		name, step string
		want       W
	}{
		{"DataFrameMethod.execute#2", "    - func_name: no_such_method\n",
			D("pipelines/pl.yaml", 10, 18, validate.CodeFrameFails, "Function no_such_method is not available on dataframe of type <class 'narwhals.dataframe.LazyFrame'> with NARWHALS API")},
		{"DataFrameMethod.execute#1", "    - func_name: nope.no_such_method\n",
			D("pipelines/pl.yaml", 10, 18, validate.CodeFrameFails, "Function nope.no_such_method is not available on dataframe of type <class 'narwhals.dataframe.LazyFrame'> with NARWHALS API: the dataframe has no attribute 'nope'")},
		{"window_filter#1", "    - func_name: laktory.window_filter\n      func_kwargs: {partition_by: [symbol], order_by: [{sql_expression: qty, desc: true}], rows_to_keep: 0}\n",
			D("pipelines/pl.yaml", 10, 18, validate.CodeFrameFails, "`rows_to_keep` must be >= 1")},
		{"with_row_index#1", "    - func_name: laktory.with_row_index\n",
			D("pipelines/pl.yaml", 10, 18, validate.CodeFrameFails, "Argument `order_by` is required for LazyFrames")},
		{"groupby_and_agg#1", "    - func_name: laktory.groupby_and_agg\n      func_kwargs: {groupby_columns: [symbol]}\n",
			D("pipelines/pl.yaml", 10, 18, validate.CodeFrameFails, "`agg_expressions` must be specified")},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			w := newWS(t, map[string]string{"pipelines/pl.yaml": node("  transformer:\n    nodes:\n" + tt.step), "data/prices.csv": sqlData["data/prices.csv"]})
			s := w.load()
			ds, err := testRunner(t).Validate(t.Context(), s, validate.Options{})
			if err != nil {
				t.Fatal(err)
			}
			workspacetest.Expect(t, s, ds, []W{tt.want})
		})
	}
}

// TestFuncNamePipelineToDelta: a POLARS pipeline of NARWHALS func_name
// steps (narwhals expressions, a {sources.x} join, laktory.groupby_and_agg
// with narwhals aggregations, Laktory's sql_expr, unique, sort) and
// expectations written as narwhals expressions (a ROW DROP, a WARN) runs
// end to end into a Delta table with the rows and the Delta types Laktory 0.13.1
// writes (len() is Polars' UInt32, which delta-rs writes as integer; a
// truncated naive datetime is timestamp_ntz). The same workspace runs
// side by side with Laktory's Pipeline.execute in TestLaktoryExecution
// (cmd/laktory, scenario "narwhals func_name steps"), which gave these
// rows and types.
func TestFuncNamePipelineToDelta(t *testing.T) {
	w := newWS(t, workspacetest.ReadTree(t, "testdata/narwhals-funcname"))
	r := testRunner(t)
	s := w.load()
	ds, err := r.Validate(t.Context(), s, validate.Options{})
	if err != nil {
		t.Fatal(err)
	}
	for _, d := range ds {
		if d.Severity == workspace.SeverityError {
			t.Errorf("validate: %s", d)
		}
	}
	// Twice: the second run's sink check compares the table's integer
	// with the integer the sink writes (not Polars' UInt32).
	mustRun(t, r, s, Request{})
	mustRun(t, r, w.load(), Request{})
	path := filepath.Join(w.dir, "lake/totals")
	snap, err := delta.LoadSnapshot(t.Context(), path)
	if err != nil {
		t.Fatal(err)
	}
	var schema []string
	for _, f := range snap.Schema().Fields {
		schema = append(schema, fmt.Sprintf("%s:%v", f.Name, f.Type))
	}
	if got, want := strings.Join(schema, " "), "name:string day:timestamp_ntz n:integer total:double"; got != want {
		t.Errorf("Delta schema %s, want %s", got, want)
	}
	got := query(t, r, path, "SELECT * FROM t")
	want := "[[acme 2026-01-01T00:00:00 2 10] [bolt 2026-01-02T00:00:00 1 10]]"
	if fmt.Sprint(got) != want {
		t.Errorf("rows %v, want %s", got, want)
	}
}
