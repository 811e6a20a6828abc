package main

import (
	"fmt"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/laktory/workbench/delta"
	"github.com/laktory/workbench/workspace/workspacetest"
)

// TestInteropSparkViews runs VIEW sinks and a streaming COMPLETE
// aggregation on the local engine and on Spark (laktory run --engine
// spark) in two workspaces, and compares after each step: the view's file
// (its SQL, query, inputs and columns, DuckDB's types on both engines),
// the tables of the nodes reading it (by node_name from memory, and by
// table_name from another pipeline), the COMPLETE table (delta-rs), then a
// RESET DROP of the view, which leaves its table. Opt-in, as
// TestInteropSparkEngine (the same variables; LAKTORY_SPARK_REMOTE reuses a
// running server):
//
//	LAKTORY_SPARK_PYTHON=$PWD/.venv-spark/bin/python LAKTORY_PYTHON=$PWD/.venv/bin/python \
//	  go test ./cmd/laktory -run TestInteropSparkViews -timeout 30m -v
func TestInteropSparkViews(t *testing.T) {
	sparkPy := sparkOptIn(t)
	py := deltaPython(t)
	remote := sparkConnect(t, sparkPy).remote
	files := map[string]string{
		"pipelines/pl.yaml": `name: pl
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
  transformer:
    nodes:
    - expr: >-
        SELECT k, v * 2 AS v2, v / 4 AS q, CAST(v AS DECIMAL(10, 2)) AS d, v % 2 = 0 AS even,
        DATE '2024-01-02' AS day, CAST('2024-01-02 03:04:05' AS TIMESTAMP) AS ts FROM {df} WHERE v > 0
  sinks:
  - table_name: orders_v
    table_type: VIEW
- name: d
  sources:
  - node_name: v
  sinks:
  - table_name: d
    mode: OVERWRITE
- name: totals
  sources:
  - path: ../data/s/
    format: JSONL
    as_stream: true
  transformer:
    nodes:
    - expr: SELECT k, count(*) AS n, sum(v) AS s, max(v) AS top FROM {df} GROUP BY k
  sinks:
  - table_name: totals
    mode: COMPLETE
`,
		"pipelines/rd.yaml": `name: rd
nodes:
- name: e
  sources:
  - table_name: orders_v
  transformer:
    nodes:
    - expr: SELECT count(*) AS n, sum(v2) AS s, sum(d) AS sd FROM {df}
  sinks:
  - table_name: e
    mode: OVERWRITE
`,
		"data/a/1.jsonl": `{"k": "a", "v": 1}` + "\n" + `{"k": "b", "v": 2}` + "\n" + `{"k": "c", "v": 0}` + "\n",
		"data/s/1.jsonl": `{"k": "a", "v": 1}` + "\n" + `{"k": "a", "v": 2}` + "\n" + `{"k": "b", "v": 5}` + "\n",
	}
	more := map[string]string{
		"data/a/2.jsonl": `{"k": "d", "v": 7}` + "\n",
		"data/s/2.jsonl": `{"k": "b", "v": 1}` + "\n" + `{"k": "c", "v": 3}` + "\n",
	}
	dirs := map[string]string{}
	for _, e := range []string{"local", "spark"} {
		dirs[e] = t.TempDir()
		workspacetest.Write(t, dirs[e], files)
		workspacetest.Ordered(t, dirs[e], time.Now().Add(-time.Hour), "data/s/1.jsonl")
	}
	lake := func(e, table string) string {
		return filepath.Join(dirs[e], ".laktory", "lake", "main", "default", table)
	}
	runBoth := func(step string, args ...string) {
		t.Helper()
		for _, e := range []string{"local", "spark"} {
			a := append([]string{"run", dirs[e], "--yes"}, args...)
			if e == "spark" {
				a = append(a, "--engine", "spark", "--remote", remote)
			}
			if code, out, errb := runCLI(t, nil, a...); code != ExitOK {
				t.Fatalf("%s on the %s engine: exit %d\n%s\n%s", step, e, code, out, errb)
			}
		}
	}
	compareView := func(step string) {
		t.Helper()
		var vs [2]*delta.View
		for i, e := range []string{"local", "spark"} {
			v, err := delta.ReadView(lake(e, "orders_v"))
			if err != nil || v == nil {
				t.Fatalf("%s: the view on the %s engine: %v %v", step, e, v, err)
			}
			vs[i] = v
		}
		l, s := vs[0], vs[1]
		if l.SQL != s.SQL || l.Query != s.Query || fmt.Sprint(l.Inputs) != fmt.Sprint(s.Inputs) || fmt.Sprint(l.Columns) != fmt.Sprint(s.Columns) {
			t.Errorf("%s: the view differs:\n local %s %s %v %v\n spark %s %s %v %v", step, l.SQL, l.Query, l.Inputs, l.Columns, s.SQL, s.Query, s.Inputs, s.Columns)
		}
		t.Logf("%s: view columns %v", step, l.Columns)
	}
	wantRows := func(step, table string, want int64) {
		t.Helper()
		if n := compareEngineTables(t, py, step, table, lake("local", table), lake("spark", table)); n != want {
			t.Errorf("%s: %s has %d rows, want %d", step, table, n, want)
		}
	}

	runBoth("first run")
	compareView("first run")
	wantRows("first run", "d", 2)
	wantRows("first run", "e", 1)
	wantRows("first run", "totals", 2)

	for _, e := range []string{"local", "spark"} {
		workspacetest.Write(t, dirs[e], more)
	}
	runBoth("second run")
	compareView("second run")
	wantRows("second run", "d", 3)
	wantRows("second run", "e", 1)
	wantRows("second run", "totals", 3) // COMPLETE: every key so far, b's count 2

	runBoth("RESET DROP of the view", "--pipeline", "pl", "--select", "v", "--refresh", "RESET", "--reset-mode", "DROP")
	for _, e := range []string{"local", "spark"} {
		if _, err := os.Stat(lake(e, "orders_v")); !os.IsNotExist(err) {
			t.Errorf("the %s engine's RESET DROP left the view: %v", e, err)
		}
		if _, err := os.Stat(lake(e, "orders")); err != nil {
			t.Errorf("the %s engine's RESET DROP of the view: its table: %v", e, err)
		}
	}
}
