package runner

import (
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/laktory/workbench/runner/history"
	"github.com/laktory/workbench/validate"
)

// The reader pipeline's name sorts before the writer's: tasks are built
// pipelines by name, so without an order across pipelines its task would
// start first.
const orderReader = `name: a-report
nodes:
- name: from_table
  sources:
  - table_name: z_orders
  transformer:
    nodes:
    - expr: SELECT count(*) AS n, sum(v) AS s FROM {df}
  sinks:
  - table_name: report_t
    mode: OVERWRITE
- name: from_view
  sources:
  - table_name: z_orders_v
  transformer:
    nodes:
    - expr: SELECT count(*) AS n, sum(v2) AS s FROM {df}
  sinks:
  - table_name: report_v
    mode: OVERWRITE
`

const orderWriter = `name: z-load
nodes:
- name: orders
  sources:
  - path: ../data/a/
    format: JSONL
  sinks:
  - table_name: z_orders
    mode: APPEND
- name: orders_v
  sources:
  - node_name: orders
  transformer:
    nodes:
    - expr: SELECT k, v * 2 AS v2 FROM {df}
  sinks:
  - table_name: z_orders_v
    table_type: VIEW
`

// TestCrossPipelineOrder: on a first run of every pipeline, a node reading
// a table or a view another pipeline writes runs after that writer (its
// task depends on the writer's, and the plan lists it after), one task at
// a time or two; a run of the reader alone orders nothing.
func TestCrossPipelineOrder(t *testing.T) {
	for _, parallel := range []int{1, 2} {
		t.Run(fmt.Sprint("parallel=", parallel), func(t *testing.T) {
			w := newWS(t, map[string]string{
				"pipelines/a.yaml": orderReader,
				"pipelines/z.yaml": orderWriter,
				"data/a/1.jsonl":   jsonl("a", 0, 4, ""),
			})
			r := testRunner(t)
			snap := w.load()
			o := mustRun(t, r, snap, Request{Parallel: parallel})
			deps := map[string][]string{}
			var order []string
			for _, tk := range o.plan.Tasks {
				deps[tk.Key] = tk.DependsOn
				order = append(order, tk.Key)
			}
			if !slices.Contains(deps["a-report.from_table"], "z-load.orders") || !slices.Contains(deps["a-report.from_view"], "z-load.orders_v") {
				t.Fatalf("depends_on %v", deps)
			}
			if slices.Index(order, "a-report.from_table") < slices.Index(order, "z-load.orders") || slices.Index(order, "a-report.from_view") < slices.Index(order, "z-load.orders_v") {
				t.Fatalf("plan order %v: readers before their writers", order)
			}
			for _, w := range o.plan.Warnings {
				if w.Code == validate.CodeCrossCycle {
					t.Fatalf("no cycle here: %v", w)
				}
			}
			if got := query(t, r, w.table("report_t"), "SELECT n, s FROM t"); fmt.Sprint(got) != "[[4 6]]" {
				t.Fatalf("report_t: %v", got)
			}
			if got := query(t, r, w.table("report_v"), "SELECT n, s FROM t"); fmt.Sprint(got) != "[[4 12]]" {
				t.Fatalf("report_v: %v", got)
			}
			p, err := r.Plan(t.Context(), snap, Request{Pipelines: []string{"a-report"}})
			if err != nil {
				t.Fatal(err)
			}
			for _, tk := range p.Tasks {
				if len(tk.DependsOn) != 0 {
					t.Fatalf("a run of the reader alone: %s depends on %v", tk.Key, tk.DependsOn)
				}
			}
		})
	}
}

const cycleA = `name: a
nodes:
- name: x
  sources:
  - table_name: tb
  sinks:
  - table_name: ta
    mode: APPEND
`

const cycleB = `name: b
nodes:
- name: y
  sources:
  - table_name: ta
  sinks:
  - table_name: tb
    mode: APPEND
`

// TestCrossPipelineCycle: pipelines reading each other's tables in a cycle
// are ordered but for one read, which the plan names with the cycle
// (LK240), so the run ends instead of waiting forever: b.y runs first, and
// fails on a first run since ta does not exist yet (as it would alone),
// and a.x is skipped.
func TestCrossPipelineCycle(t *testing.T) {
	w := newWS(t, map[string]string{"pipelines/a.yaml": cycleA, "pipelines/b.yaml": cycleB})
	r := testRunner(t)
	snap := w.load()
	o := run(t, r, snap, Request{Parallel: 1})
	var warned []string
	for _, d := range o.plan.Warnings {
		if d.Code == validate.CodeCrossCycle {
			warned = append(warned, d.String())
		}
	}
	if len(warned) != 1 || !strings.Contains(warned[0], "b.yaml:5:") || !strings.Contains(warned[0], "b.y reads main.default.ta, which a.x writes") || !strings.Contains(warned[0], "(a.x -> b.y -> a.x)") {
		t.Fatalf("LK240 warnings %q", warned)
	}
	status := map[string]history.Status{}
	for _, ts := range o.sum.Tasks {
		status[ts.Key] = ts.Status
	}
	if status["b.y"] != history.StatusFailed || status["a.x"] != history.StatusSkipped {
		t.Fatalf("statuses %v (%v)", status, o.err)
	}
}

// A declarative pipeline: a batch node writing a table alone (a
// materialized view in Laktory's define_table), a batch node reading it, and
// two streaming nodes appending to one table (a streaming table).
const declarativeMV = `name: decl
orchestrator: {type: SPARK_DECLARATIVE_PIPELINE}
nodes:
- name: totals
  sources:
  - path: ../data/a/
    format: JSONL
  transformer:
    nodes:
    - expr: SELECT count(*) AS n, sum(v) AS s FROM {df}
  sinks:
  - table_name: totals
    mode: APPEND
- name: report
  sources:
  - table_name: totals
  sinks:
  - table_name: report
    mode: APPEND
- name: feed_a
  sources:
  - path: ../data/a/
    format: JSONL
    as_stream: true
  sinks:
  - table_name: events
    mode: APPEND
- name: feed_b
  sources:
  - path: ../data/b/
    format: JSONL
    as_stream: true
  sinks:
  - table_name: events
    mode: APPEND
`

// TestDeclarativeMaterializedView: in a declarative pipeline a batch
// node's table, which it alone writes, is replaced on each run with the
// node's result (Spark recomputes a materialized view on each update),
// whatever the sink's mode (APPEND here); the streaming table
// several flows append to keeps being appended to.
func TestDeclarativeMaterializedView(t *testing.T) {
	w := newWS(t, map[string]string{
		"pipelines/decl.yaml": declarativeMV,
		"data/a/1.jsonl":      jsonl("a", 0, 4, ""),
		"data/b/1.jsonl":      jsonl("b", 10, 12, ""),
	})
	r := testRunner(t)
	mustRun(t, r, w.load(), Request{})
	w.write(map[string]string{"data/a/2.jsonl": jsonl("a", 4, 6, "")})
	o := mustRun(t, r, w.load(), Request{})
	if got := query(t, r, w.table("totals"), "SELECT n, s FROM t"); fmt.Sprint(got) != "[[6 15]]" {
		t.Fatalf("totals after two runs: %v, want the second run's result only", got)
	}
	if got := query(t, r, w.table("report"), "SELECT n, s FROM t"); fmt.Sprint(got) != "[[6 15]]" {
		t.Fatalf("report after two runs: %v", got)
	}
	if got := query(t, r, w.table("events"), "SELECT count(*) FROM t"); fmt.Sprint(got) != "[[8]]" {
		t.Fatalf("events (the streaming table): %v", got)
	}
	var ops []string
	for _, ts := range o.sum.Tasks {
		for _, op := range ts.Operations {
			if ts.Key == "decl.totals" {
				ops = append(ops, op.Operation+" "+op.Detail)
			}
		}
	}
	if len(ops) != 1 || !strings.Contains(ops[0], "OVERWRITE") {
		t.Fatalf("the second run's operations on totals: %q", ops)
	}
}

// writerFirst: the writer of raw is declared first, its reader second; no
// DAG edge links them (a table_name source is none, in Laktory too).
const writerFirst = `name: pl
nodes:
- name: raw
  sources:
  - path: ../data/a/
    format: JSONL
  sinks:
  - table_name: raw
    mode: APPEND
- name: summary
  sources:
  - table_name: raw
  transformer:
    nodes:
    - expr: SELECT count(*) AS n, sum(v) AS s FROM {df}
  sinks:
  - table_name: summary
    mode: OVERWRITE
`

// readerFirst: the same nodes, the reader declared first.
const readerFirst = `name: pl
nodes:
- name: summary
  sources:
  - table_name: raw
  transformer:
    nodes:
    - expr: SELECT count(*) AS n, sum(v) AS s FROM {df}
  sinks:
  - table_name: summary
    mode: OVERWRITE
- name: raw
  sources:
  - path: ../data/a/
    format: JSONL
  sinks:
  - table_name: raw
    mode: APPEND
`

// TestPipelineTableReadOrder: within a pipeline a table read follows
// Laktory's order (its nodes one at a time in DAG order, declaration order
// where no edge links them). A reader declared after the writer waits for
// it, at parallel 2, on a first run and on a FULL refresh of the writer; a
// reader declared first runs before the writer, which waits for it, so a
// first run fails as Laktory's does (and the writer is skipped, as Laktory
// stops at the failing node).
func TestPipelineTableReadOrder(t *testing.T) {
	deps := func(o outcome) map[string][]string {
		m := map[string][]string{}
		for _, tk := range o.plan.Tasks {
			m[tk.Key] = tk.DependsOn
		}
		return m
	}
	t.Run("writer first", func(t *testing.T) {
		w := newWS(t, map[string]string{"pipelines/pl.yaml": writerFirst, "data/a/1.jsonl": jsonl("a", 0, 4, "")})
		r := testRunner(t)
		for _, req := range []Request{{Parallel: 2}, {Parallel: 2}, {Parallel: 2, Selectors: []string{"raw", "summary"}, Refresh: validate.RefreshFull}} {
			o := mustRun(t, r, w.load(), req)
			if d := deps(o); !slices.Contains(d["pl.summary"], "pl.raw") || len(d["pl.raw"]) != 0 {
				t.Fatalf("%+v: depends_on %v", req, d)
			}
		}
		// Two APPEND runs then a FULL refresh: raw holds the file once.
		if got := query(t, r, w.table("summary"), "SELECT n, s FROM t"); fmt.Sprint(got) != "[[4 6]]" {
			t.Fatalf("summary: %v", got)
		}
	})
	t.Run("reader first", func(t *testing.T) {
		w := newWS(t, map[string]string{"pipelines/pl.yaml": readerFirst, "data/a/1.jsonl": jsonl("a", 0, 4, "")})
		r := testRunner(t)
		o := run(t, r, w.load(), Request{Parallel: 2})
		if d := deps(o); !slices.Contains(d["pl.raw"], "pl.summary") || len(d["pl.summary"]) != 0 {
			t.Fatalf("depends_on %v", d)
		}
		status := map[string]history.Status{}
		for _, ts := range o.sum.Tasks {
			status[ts.Key] = ts.Status
		}
		if status["pl.summary"] != history.StatusFailed || status["pl.raw"] != history.StatusSkipped {
			t.Fatalf("statuses %v (%v)", status, o.err)
		}
	})
}
