package runner

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/laktory/workbench/delta"
	"github.com/laktory/workbench/runner/engine"
	"github.com/laktory/workbench/workspace"
)

const viewPipelines = `name: pl
nodes:
- name: t
  sources:
  - path: ../data/a/
    format: JSONL
  sinks:
  - table_name: orders
    mode: OVERWRITE
- name: v
  sources:
  - node_name: t
    filter: v > 100
  transformer:
    nodes:
    - expr: SELECT k, v * 2 AS v2 FROM {df} WHERE v > 0
  sinks:
  - table_name: orders_v
    table_type: VIEW
- name: d
  sources:
  - node_name: v
  sinks:
  - table_name: d
    mode: OVERWRITE
`

const viewReader = `name: rd
nodes:
- name: vv
  sources:
  - name: v
    table_name: orders_v
  transformer:
    nodes:
    - expr: SELECT * FROM {sources.v} WHERE v2 >= 0
  sinks:
  - table_name: orders_vv
    table_type: VIEW
- name: e
  sources:
  - node_name: vv
  transformer:
    nodes:
    - expr: SELECT count(*) AS n, sum(v2) AS s FROM {df}
  sinks:
  - table_name: e
    mode: OVERWRITE
`

// TestViewSink: a VIEW sink writes its definition to the lake's local
// catalog (Laktory's CREATE OR REPLACE VIEW statement and the query
// readers evaluate), holds no rows, and is read by name: by a node source
// of the view node in the same run (Laktory's output_df is the view read
// back: the source's filter, which to_sql leaves out, does not apply), and
// by a table source of another pipeline and a view over it (a view of a
// view), which see the tables as they are when they run. RESET with reset_mode DROP removes it, and a reader then
// fails naming it.
func TestViewSink(t *testing.T) {
	w := newWS(t, map[string]string{
		"pipelines/pl.yaml": viewPipelines,
		"pipelines/rd.yaml": viewReader,
		"data/a/1.jsonl":    jsonl("a", 0, 4, ""),
	})
	r := testRunner(t)
	snap := w.load()
	o := mustRun(t, r, snap, Request{Pipelines: []string{"pl"}})
	dir := w.table("orders_v")
	v, err := delta.ReadView(dir)
	if err != nil || v == nil {
		t.Fatalf("view %s: %v %v", dir, v, err)
	}
	if want := "CREATE OR REPLACE VIEW orders_v AS SELECT k, v * 2 AS v2 FROM orders WHERE v > 0"; v.SQL != want {
		t.Fatalf("view SQL\n got %s\nwant %s", v.SQL, want)
	}
	if v.Query != "SELECT k, v * 2 AS v2 FROM {sources.t0} WHERE v > 0" || len(v.Inputs) != 1 || v.Inputs[0].Path != "../orders" || v.Dialect != "PYSPARK" {
		t.Fatalf("view %+v", v)
	}
	if fmt.Sprint(v.Columns) != "[{k VARCHAR} {v2 BIGINT}]" {
		t.Fatalf("view columns %v", v.Columns)
	}
	if entries, _ := os.ReadDir(dir); len(entries) != 1 {
		t.Fatalf("the view's folder holds %v: want its file only", entries)
	}
	var created bool
	for _, ts := range o.sum.Tasks {
		for _, op := range ts.Operations {
			created = created || op.Operation == "CREATE VIEW" && op.Detail == v.SQL
		}
	}
	if !created {
		t.Fatalf("no CREATE VIEW operation in %+v", o.sum.Tasks)
	}
	said := false
	for _, e := range o.events {
		if strings.HasPrefix(e.Message, "CREATE VIEW") {
			said = true
			if e.Message != "CREATE VIEW main.default.orders_v" {
				t.Fatalf("the run says %q: a view holds no rows", e.Message)
			}
		}
	}
	if !said {
		t.Fatal("the run does not say it created the view")
	}
	if got := query(t, r, w.table("d"), "SELECT k, v2 FROM t ORDER BY k"); fmt.Sprint(got) != "[[a-1 2] [a-2 4] [a-3 6]]" {
		t.Fatalf("d (the view's rows through {nodes.v}): %v", got)
	}

	// The view reads orders as it is when it is read.
	w.write(map[string]string{"data/a/2.jsonl": jsonl("b", 4, 6, "")})
	mustRun(t, r, snap, Request{Pipelines: []string{"pl"}, Selectors: []string{"t"}})
	mustRun(t, r, snap, Request{Pipelines: []string{"rd"}})
	if got := query(t, r, w.table("e"), "SELECT n, s FROM t"); fmt.Sprint(got) != "[[5 30]]" {
		t.Fatalf("e (the view read by table_name): %v", got)
	}

	mustRun(t, r, snap, Request{Pipelines: []string{"pl"}, Selectors: []string{"v"}, Refresh: "RESET", ResetMode: "DROP"})
	if _, err := os.Stat(dir); !os.IsNotExist(err) {
		t.Fatalf("RESET DROP left %s: %v", dir, err)
	}
	if _, err := os.Stat(w.table("orders")); err != nil {
		t.Fatalf("the table the view read: %v", err)
	}
	o = run(t, r, snap, Request{Pipelines: []string{"rd"}})
	if o.err == nil || !strings.Contains(fmt.Sprint(o.sum.Tasks), "view main.default.orders_v does not exist yet: run node 'v' of pipeline 'pl', which defines it, first") {
		t.Fatalf("reading the dropped view: %v %+v", o.err, o.sum.Tasks)
	}
}

// TestViewOverTable: a view is not written over a Delta table of its name
// (Spark refuses to replace a table by a view), nor DropView drop one.
func TestViewOverTable(t *testing.T) {
	w := newWS(t, map[string]string{
		"pipelines/pl.yaml": viewPipelines,
		"data/a/1.jsonl":    jsonl("a", 0, 4, ""),
	})
	r := testRunner(t)
	mustRun(t, r, w.load(), Request{})
	// The view now takes the name of d's table.
	yaml := strings.Replace(viewPipelines, "table_name: orders_v", "table_name: d", 1)
	w.write(map[string]string{"pipelines/pl.yaml": yaml[:strings.Index(yaml, "- name: d\n")]})
	o := run(t, r, w.load(), Request{Selectors: []string{"v"}})
	if o.err == nil || !strings.Contains(fmt.Sprint(o.sum.Tasks), "a Delta table is at") {
		t.Fatalf("a view over a table: %v %+v", o.err, o.sum.Tasks)
	}
	if _, err := os.Stat(filepath.Join(w.table("d"), delta.LogDirName)); err != nil {
		t.Fatal(err)
	}
	if delta.IsView(w.table("d")) {
		t.Fatal("a view file was written into the table's folder")
	}
	if err := delta.DropView(context.Background(), w.table("d"), guardOf(w.load())); err == nil {
		t.Fatal("DropView dropped a Delta table")
	}
}

// TestViewStreamRead: a streaming read of a view is refused, by table
// name as by node.
func TestViewStreamRead(t *testing.T) {
	w := newWS(t, map[string]string{
		"pipelines/pl.yaml": viewPipelines,
		"pipelines/st.yaml": `name: st
nodes:
- name: s
  sources:
  - table_name: orders_v
    as_stream: true
  sinks:
  - table_name: s
    mode: APPEND
`,
		"data/a/1.jsonl": jsonl("a", 0, 4, ""),
	})
	r := testRunner(t)
	mustRun(t, r, w.load(), Request{Pipelines: []string{"pl"}})
	o := run(t, r, w.load(), Request{Pipelines: []string{"st"}})
	if o.err == nil || !strings.Contains(fmt.Sprint(o.sum.Tasks), "which is a view") {
		t.Fatalf("streaming a view: %v %+v", o.err, o.sum.Tasks)
	}
}

// TestViewEngines: local runs run a view node (no LK183) in a local lake,
// not in a lake on object storage; the Spark engine refuses it by name.
func TestViewEngines(t *testing.T) {
	w := newWS(t, map[string]string{"pipelines/pl.yaml": viewPipelines, "data/a/1.jsonl": jsonl("a", 0, 4, "")})
	snap := w.load()
	p := snap.Pipeline("pl")
	n := p.Node("v")
	if ds := unsupported(p, n); len(ds) != 0 {
		t.Fatalf("local runs refuse the view node: %v", ds)
	}
	if ds := engineUnsupported(engine.Info{Name: engine.Local}, p, n); len(ds) != 0 {
		t.Fatalf("the local engine refuses the view node: %v", ds)
	}
	// A lake in a bucket: views live in a local lake only.
	remote := *n
	sk := *n.Sinks[0]
	sk.Table = "s3://bucket/lake/main/default/orders_v"
	remote.Sinks = []*workspace.Sink{&sk}
	if ds := unsupported(p, &remote); len(ds) != 1 || !strings.Contains(ds[0].Message, "a VIEW sink in a lake on object storage") {
		t.Fatalf("a view in a bucket lake: %v", ds)
	}
	// The Spark engine runs it (TestInteropSparkViews, opt-in).
	if ds := engineUnsupported(engine.Info{Name: "spark"}, p, n); len(ds) != 0 {
		t.Fatalf("the spark engine refuses the view node: %v", ds)
	}
}

// TestViewColumnsSpark: a view the Spark engine creates keeps its columns
// in DuckDB's names, as the local engine's (TestInteropSparkViews compares
// them on a server).
func TestViewColumnsSpark(t *testing.T) {
	cols := []engine.Column{{Name: "k", Type: "String"}, {Name: "n", Type: "Long"}, {Name: "i", Type: "Integer"}, {Name: "d", Type: "Decimal(10,2)"},
		{Name: "ts", Type: "Timestamp"}, {Name: "ntz", Type: "TimestampNtz"}, {Name: "a", Type: "Array<Long>"}, {Name: "m", Type: "Map<String,Double>"},
		{Name: "s", Type: "Struct"}}
	want := "[{k VARCHAR} {n BIGINT} {i INTEGER} {d DECIMAL(10,2)} {ts TIMESTAMP WITH TIME ZONE} {ntz TIMESTAMP} {a BIGINT[]} {m MAP(VARCHAR, DOUBLE)} {s Struct}]"
	if got := fmt.Sprint(viewColumns(cols, true)); got != want {
		t.Fatalf("got  %s\nwant %s", got, want)
	}
	if got := fmt.Sprint(viewColumns([]engine.Column{{Name: "k", Type: "VARCHAR"}}, false)); got != "[{k VARCHAR}]" {
		t.Fatalf("the local engine's columns: %s", got)
	}
}

// TestPipelineViewSink: a pipeline_view_name sink stores nothing (Laktory
// 0.13.1's PipelineViewDataSink.write only logs its name); the nodes of
// the same run read the node's output from memory. A later run of a
// reader alone computes it in a declarative pipeline (a temporary view of
// the pipeline, which its readers compute) and fails elsewhere, as
// Laktory's as_source does, naming the selection that computes it.
func TestPipelineViewSink(t *testing.T) {
	for _, orch := range []string{"", "SPARK_DECLARATIVE_PIPELINE"} {
		t.Run(cmpOr(orch, "no orchestrator"), func(t *testing.T) {
			head := "name: pl\n"
			if orch != "" {
				head += "orchestrator:\n  type: " + orch + "\n"
			}
			w := newWS(t, map[string]string{
				"pipelines/pl.yaml": head + `nodes:
- name: a
  sources:
  - path: ../data/a/
    format: JSONL
  transformer:
    nodes:
    - expr: SELECT k, v + 1 AS v FROM {df}
  sinks:
  - pipeline_view_name: a_view
- name: b
  sources:
  - node_name: a
  sinks:
  - table_name: b
    mode: APPEND
`,
				"data/a/1.jsonl": jsonl("a", 0, 3, ""),
			})
			r := testRunner(t)
			snap := w.load()
			mustRun(t, r, snap, Request{})
			if got := query(t, r, w.table("b"), "SELECT sum(v), count(*) FROM t"); fmt.Sprint(got) != "[[6 3]]" {
				t.Fatalf("b: %v", got)
			}
			if entries, _ := os.ReadDir(filepath.Join(w.dir, ".laktory", "lake", "main", "default")); len(entries) != 1 {
				t.Fatalf("the lake holds %v: want b only", entries)
			}
			if orch == "" {
				// Refused at plan, before any task (LK143).
				if _, err := r.Plan(t.Context(), snap, Request{Selectors: []string{"b"}}); err == nil ||
					!strings.Contains(err.Error(), "node 'b' reads node 'a', whose sink is the pipeline view a_view, and the run does not execute 'a'") {
					t.Fatalf("b alone: %v", err)
				}
				return
			}
			o := run(t, r, snap, Request{Selectors: []string{"b"}})
			if o.err != nil {
				t.Fatalf("b alone: %v %+v", o.err, o.sum.Tasks)
			}
			// b's task computed a (one task) and appended its 3 rows again.
			if len(o.plan.Tasks) != 1 || len(o.sum.Tasks) != 1 || o.sum.Tasks[0].RowsWritten != 3 {
				t.Fatalf("b alone: tasks %+v, %+v", o.plan.Tasks, o.sum.Tasks)
			}
		})
	}
}

// TestViewCrash: a run killed after a view's new file is written and
// before it is renamed into place leaves the old view (or none) readable;
// the next run replaces the file it left.
func TestViewCrash(t *testing.T) {
	if testing.Short() {
		t.Skip("re-executes the test binary")
	}
	w := newWS(t, map[string]string{"pipelines/pl.yaml": viewPipelines, "data/a/1.jsonl": jsonl("a", 0, 4, "")})
	r := testRunner(t)
	dir := w.table("orders_v")
	crashAt(t, w.dir, delta.FailViewWritten, Request{Pipelines: []string{"pl"}, Parallel: 1})
	if v, err := delta.ReadView(dir); v != nil || err != nil {
		t.Fatalf("a view before its rename: %v %v", v, err)
	}
	mustRun(t, r, w.load(), Request{Pipelines: []string{"pl"}})
	old, err := delta.ReadView(dir)
	if err != nil || old == nil {
		t.Fatal(old, err)
	}
	w.write(map[string]string{"pipelines/pl.yaml": strings.Replace(viewPipelines, "WHERE v > 0", "WHERE v > 1", 1)})
	crashAt(t, w.dir, delta.FailViewWritten, Request{Pipelines: []string{"pl"}, Selectors: []string{"v"}})
	if v, err := delta.ReadView(dir); err != nil || v == nil || v.SQL != old.SQL {
		t.Fatalf("after the crash: %+v %v, want the old view", v, err)
	}
	mustRun(t, r, w.load(), Request{Pipelines: []string{"pl"}})
	if v, _ := delta.ReadView(dir); v == nil || !strings.HasSuffix(v.SQL, "WHERE v > 1") {
		t.Fatalf("after the rerun: %+v", v)
	}
	if entries, _ := os.ReadDir(dir); len(entries) != 1 {
		t.Fatalf("the view's folder holds %v", entries)
	}
	if got := query(t, r, w.table("d"), "SELECT count(*) FROM t"); fmt.Sprint(got) != "[[2]]" {
		t.Fatalf("d: %v", got)
	}
}
