package runner

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"sort"
	"strings"
	"testing"

	"github.com/laktory/workbench/delta"
	"github.com/laktory/workbench/validate"
	"github.com/laktory/workbench/workspace"
	"github.com/laktory/workbench/workspace/workspacetest"
)

// laktorySpark is what Laktory 0.13.1 left on Spark 4.2 + Delta 4.4 for
// the scenarios of scripts/interop/laktory_views_spark.py, which wrote
// testdata/views/laktory_spark.json.
type laktorySpark struct {
	Laktory      string            `json:"laktory"`
	ViewRun      string            `json:"view_run"`
	ViewText     string            `json:"view_text"`
	ViewColumns  [][]string        `json:"view_columns"`
	ViewRows     [][]any           `json:"view_rows"`
	DRows        [][]any           `json:"d_rows"`
	ResetRun     string            `json:"reset_run"`
	AfterReset   map[string]bool   `json:"after_reset"`
	Errors       map[string]string `json:"errors"`
	CompleteRuns []string          `json:"complete_runs"`
	CompleteRows [][][]any         `json:"complete_rows"`
}

// sparkTypes are Spark's names of the DuckDB types a view's columns have
// here.
var sparkTypes = map[string]string{"VARCHAR": "string", "BIGINT": "bigint", "DOUBLE": "double", "INTEGER": "int", "BOOLEAN": "boolean"}

// TestViewsLaktoryParity: the same scenarios as Laktory 0.13.1's run on
// Spark (testdata/views/laktory_spark.json, the default suite needs no
// JVM) leave the same here: the view's SQL, columns and rows, its reader's
// rows (the source's filter left out, as to_sql leaves it), RESET DROP
// removing the view and not its table, the streaming COMPLETE aggregation
// after each run; what Laktory's run fails on is refused at validate with
// its error's text.
func TestViewsLaktoryParity(t *testing.T) {
	b, err := os.ReadFile("testdata/views/laktory_spark.json")
	if err != nil {
		t.Fatal(err)
	}
	var want laktorySpark
	if err := json.Unmarshal(b, &want); err != nil {
		t.Fatal(err)
	}
	if want.ViewRun != "" || want.ResetRun != "" || strings.Join(want.CompleteRuns, "") != "" {
		t.Fatalf("Laktory's runs failed: %+v", want)
	}
	src := func(from, to int) string {
		var b strings.Builder
		for i := from; i < to; i++ {
			k := "a"
			if i == 5 {
				k = "b"
			}
			fmt.Fprintf(&b, `{"k": "%s-%d", "v": %d}`+"\n", k, i, i)
		}
		return b.String()
	}
	w := newWS(t, map[string]string{
		// src, as Laktory's scenarios have it, appended by a stream of files.
		"pipelines/seed.yaml": `name: seed
nodes:
- name: seed
  sources: [{path: ../data/src/, format: JSONL, as_stream: true}]
  sinks: [{mode: APPEND, table_name: src}]
`,
		"pipelines/pl.yaml": `name: pl
nodes:
- name: t
  sources: [{table_name: src}]
  sinks: [{table_name: orders, mode: OVERWRITE}]
- name: v
  sources: [{node_name: t, filter: "v > 100"}]
  transformer: {nodes: [{expr: "SELECT k, v * 2 AS v2 FROM {df} WHERE v > 0"}]}
  sinks: [{table_name: orders_v, table_type: VIEW}]
- name: d
  sources: [{node_name: v}]
  sinks: [{table_name: d, mode: OVERWRITE}]
`,
		"pipelines/agg.yaml": `name: agg
nodes:
- name: agg
  sources: [{table_name: src, as_stream: true}]
  transformer: {nodes: [{expr: "SELECT substr(k, 1, 1) AS g, count(*) AS n, sum(v) AS s FROM {df} GROUP BY 1"}]}
  sinks: [{table_name: totals, mode: COMPLETE}]
`,
		"data/src/1.jsonl": src(0, 4),
	})
	r := testRunner(t)
	snap := w.load()
	mustRun(t, r, snap, Request{Pipelines: []string{"seed"}})
	mustRun(t, r, snap, Request{Pipelines: []string{"pl"}})
	v, err := delta.ReadView(w.table("orders_v"))
	if err != nil || v == nil {
		t.Fatalf("view: %v %v", v, err)
	}
	if text := strings.TrimPrefix(v.SQL, "CREATE OR REPLACE VIEW orders_v AS "); text != want.ViewText {
		t.Errorf("view text %q, Laktory's %q", text, want.ViewText)
	}
	var cols [][]string
	for _, c := range v.Columns {
		cols = append(cols, []string{c.Name, sparkTypes[c.Type]})
	}
	if fmt.Sprint(cols) != fmt.Sprint(want.ViewColumns) {
		t.Errorf("view columns %v, Laktory's %v", cols, want.ViewColumns)
	}
	vs, err := r.ScanView(context.Background(), w.table("orders_v"), nil, "", 0)
	if err != nil {
		t.Fatal(err)
	}
	got := scanRows(t, vs)
	if got != sortedRows(want.ViewRows) {
		t.Errorf("view rows %s, Laktory's %s", got, sortedRows(want.ViewRows))
	}
	if got := viewTableRows(t, r, w.table("d")); got != sortedRows(want.DRows) {
		t.Errorf("d rows %s, Laktory's %s", got, sortedRows(want.DRows))
	}
	mustRun(t, r, snap, Request{Pipelines: []string{"pl"}, Selectors: []string{"v"}, Refresh: "RESET", ResetMode: "DROP"})
	if delta.IsView(w.table("orders_v")) != want.AfterReset["view"] || pathExists(w.table("orders")) != want.AfterReset["table"] {
		t.Errorf("after RESET DROP: view %v table %v, Laktory's %v", delta.IsView(w.table("orders_v")), pathExists(w.table("orders")), want.AfterReset)
	}

	mustRun(t, r, snap, Request{Pipelines: []string{"agg"}})
	if got := viewTableRows(t, r, w.table("totals")); got != sortedRows(want.CompleteRows[0]) {
		t.Errorf("COMPLETE after run 1: %s, Laktory's %s", got, sortedRows(want.CompleteRows[0]))
	}
	w.write(map[string]string{"data/src/2.jsonl": src(4, 6)})
	mustRun(t, r, snap, Request{Pipelines: []string{"seed"}})
	mustRun(t, r, snap, Request{Pipelines: []string{"agg"}})
	if got := viewTableRows(t, r, w.table("totals")); got != sortedRows(want.CompleteRows[1]) {
		t.Errorf("COMPLETE after run 2: %s, Laktory's %s", got, sortedRows(want.CompleteRows[1]))
	}

	failing := map[string]string{
		"view_and_table_sinks": `name: pl
nodes:
- name: v
  sources: [{table_name: src}]
  transformer: {nodes: [{expr: "SELECT k FROM {df}"}]}
  sinks: [{table_name: v2, table_type: VIEW}, {table_name: t2}]
`,
		"view_over_file_sink_node": `name: pl
nodes:
- name: a
  sources: [{table_name: src}]
  sinks: [{path: out_a, format: PARQUET, mode: OVERWRITE}]
- name: v
  sources: [{node_name: a}]
  transformer: {nodes: [{expr: "SELECT k FROM {df}"}]}
  sinks: [{table_name: v3, table_type: VIEW}]
`,
		"view_over_file_sink_ref": `name: pl
nodes:
- name: a
  sources: [{table_name: src}]
  sinks: [{path: out_b, format: PARQUET, mode: OVERWRITE}]
- name: v
  sources: [{table_name: src}]
  transformer: {nodes: [{expr: "SELECT k FROM {df} JOIN {nodes.a} USING (k)"}]}
  sinks: [{table_name: v4, table_type: VIEW}]
`,
		"complete_without_aggregation": `name: pl
nodes:
- name: raw
  sources: [{table_name: src, as_stream: true}]
  sinks: [{table_name: raw, mode: COMPLETE}]
`,
	}
	for name, yaml := range failing {
		msg, ok := want.Errors[name]
		if !ok || msg == "" {
			t.Errorf("%s: Laktory recorded no failure", name)
			continue
		}
		// What Laktory says after the exception's name, without Spark's
		// SQLSTATE suffix.
		_, text, _ := strings.Cut(msg, ": ")
		text, _, _ = strings.Cut(text, " SQLSTATE:")
		s := workspacetest.Load(t, map[string]string{"pl.yaml": yaml}, workspace.Options{})
		var said []string
		found := false
		for _, d := range validate.Check(s, validate.Options{}) {
			said = append(said, d.Code+" "+d.Message)
			found = found || d.Severity == workspace.SeverityError && strings.Contains(d.Message, text)
		}
		if !found {
			t.Errorf("%s: Laktory's run fails with %q; validate says %v", name, msg, said)
		}
	}
}

// sortedRows prints rows sorted, as Laktory's are.
func sortedRows(rows [][]any) string {
	out := make([]string, len(rows))
	for i, r := range rows {
		out[i] = strings.TrimSpace(fmt.Sprintln(r...))
	}
	sort.Strings(out)
	return strings.Join(out, "; ")
}

func scanRows(t *testing.T, vs *ViewScan) string {
	t.Helper()
	defer vs.Close()
	cols, _ := vs.Rows.Columns()
	var rows [][]any
	for vs.Rows.Next() {
		vals := make([]any, len(cols))
		ptrs := make([]any, len(cols))
		for i := range vals {
			ptrs[i] = &vals[i]
		}
		if err := vs.Rows.Scan(ptrs...); err != nil {
			t.Fatal(err)
		}
		rows = append(rows, vals)
	}
	return sortedRows(rows)
}

func viewTableRows(t *testing.T, r *Runner, path string) string {
	t.Helper()
	rows := query(t, r, path, "SELECT * FROM t")
	out := make([][]any, len(rows))
	for i, row := range rows {
		for _, v := range row {
			out[i] = append(out[i], v)
		}
	}
	return sortedRows(out)
}
