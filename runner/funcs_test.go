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
	w := newWS(t, map[string]string{
		"pipelines/pl.yaml": `name: pl
dataframe_backend: POLARS
nodes:
- name: totals
  sources:
  - path: ../data/orders.jsonl
    format: JSONL
  - name: clients
    path: ../data/clients.jsonl
    format: JSONL
  transformer:
    nodes:
    - func_name: with_columns
      func_kwargs:
        ts: nw.col("ts").str.to_datetime("%Y-%m-%dT%H:%M:%S")
        value: nw.col("price") * nw.col("qty")
    - func_name: filter
      func_args: ['sql_expr("qty > 0")']
    - func_name: unique
      func_kwargs: {subset: [order_id], keep: first, order_by: [ts]}
    - func_name: join
      func_kwargs: {other: "{sources.clients}", "on": [client_id], how: left}
    - func_name: with_columns
      func_kwargs:
        day: nw.col("ts").dt.truncate("1d")
    - func_name: laktory.groupby_and_agg
      func_kwargs:
        groupby_columns: [name, day]
        agg_expressions:
        - expr: nw.len().alias("n")
        - expr: nw.col("value").sum().round(2).alias("total")
    - func_name: sort
      func_kwargs: {by: [name, day], nulls_last: true}
  expectations:
  - name: small
    expr: nw.col("total") < 20
    action: DROP
  - name: named
    expr: ~nw.col("name").is_null() | (nw.col("n") > 5)
  sinks:
  - path: ../lake/totals
    format: DELTA
    mode: OVERWRITE
`,
		"data/orders.jsonl": `{"order_id": 1, "client_id": 1, "price": 2.5, "qty": 2, "ts": "2026-01-01T09:00:00"}
{"order_id": 1, "client_id": 1, "price": 2.5, "qty": 2, "ts": "2026-01-01T10:00:00"}
{"order_id": 2, "client_id": 1, "price": 1.25, "qty": 4, "ts": "2026-01-01T23:59:59"}
{"order_id": 3, "client_id": 2, "price": 10.0, "qty": 1, "ts": "2026-01-02T00:00:00"}
{"order_id": 4, "client_id": 3, "price": 7.0, "qty": 3, "ts": "2026-01-02T08:00:00"}
{"order_id": 5, "client_id": 2, "price": 3.0, "qty": 0, "ts": "2026-01-03T08:00:00"}
`,
		"data/clients.jsonl": `{"client_id": 1, "name": "acme"}
{"client_id": 2, "name": "bolt"}
`,
	})
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
