package main

import (
	"context"
	"encoding/json"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/laktory/workbench/workspace/workspacetest"
)

// sdpPipeline is a declarative pipeline of two append flows into one
// table, each streaming a Delta table of the landing folder. It lives in
// pipelines/pl-sdp/, the folder Laktory runs spark-pipelines in (its root
// path), so its relative paths mean the same to both.
const sdpPipeline = `name: pl-sdp
orchestrator:
  type: SPARK_DECLARATIVE_PIPELINE
nodes:
- name: a
  sources:
  - path: ../../landing/a
    format: DELTA
    as_stream: true
  sinks:
  - table_name: events
- name: b
  sources:
  - path: ../../landing/b
    format: DELTA
    as_stream: true
  sinks:
  - table_name: events
`

// sdpSecondRun is how Laktory 0.13.1's local declarative runs (pyspark
// 4.2.0, delta-spark 4.4.0) fail after the first: incremental or
// --full-refresh-all alike.
const sdpSecondRun = "DELTA_CREATE_TABLE_WITH_NON_EMPTY_LOCATION"

// tableContent is a Delta table as laktory table describe and scan read it.
type tableContent struct {
	Columns []map[string]any
	Rows    []string
}

func readTable(t *testing.T, path string) tableContent {
	t.Helper()
	code, out, errs := runCLI(t, nil, "table", "describe", path, "--json")
	var d struct {
		Columns []map[string]any `json:"columns"`
	}
	if code != ExitOK || json.Unmarshal([]byte(out), &d) != nil {
		t.Fatalf("table describe %s: exit %d\n%s%s", path, code, out, errs)
	}
	code, out, errs = runCLI(t, nil, "table", "scan", path, "--format", "jsonl")
	if code != ExitOK {
		t.Fatalf("table scan %s: exit %d\n%s%s", path, code, out, errs)
	}
	rows := strings.Split(strings.TrimSpace(out), "\n")
	slices.Sort(rows)
	return tableContent{Columns: d.Columns, Rows: rows}
}

// TestInteropSparkDeclarative runs a SPARK_DECLARATIVE_PIPELINE pipeline of
// two append flows with Laktory 0.13.1 the way it runs one locally,
// through `spark-pipelines run` (scripts/interop/laktory_sdp.py), and with
// laktory run, step by step: a first run, new commits in a source, a FULL
// refresh (--full-refresh-all), a run after it. The table must have the
// same columns and rows after each step Laktory can run: with pyspark
// 4.2.0 and delta-spark 4.4.0 only the first (see sdpSecondRun); the test
// says so, and compares the later steps once Laktory runs them. Opt-in like TestInteropSpark:
// LAKTORY_SPARK_PYTHON is a Python with scripts/interop/requirements-spark.txt
// (pyspark[pipelines], delta-spark, laktory); Java 17+. Several minutes:
//
//	LAKTORY_SPARK_PYTHON=$PWD/.venv-spark/bin/python go test ./cmd/laktory -run TestInteropSparkDeclarative -timeout 30m -v
func TestInteropSparkDeclarative(t *testing.T) {
	py := os.Getenv("LAKTORY_SPARK_PYTHON")
	if py == "" {
		t.Skip("LAKTORY_SPARK_PYTHON not set: the Spark Declarative Pipelines check is opt-in")
	}
	if testing.Short() {
		t.Skip("the Spark Declarative Pipelines check takes minutes: not in -short")
	}
	if b, err := exec.Command(py, "-c", "import laktory, delta, pyspark.pipelines").CombinedOutput(); err != nil {
		t.Fatalf("%s lacks laktory, delta-spark or pyspark[pipelines] (pip install -r scripts/interop/requirements-spark.txt): %v\n%s", py, err, b)
	}
	root := t.TempDir()

	// The landing tables, built once with our runner: version k of a
	// landing table is a copy after k+1 appends, so copying a later version
	// over an earlier one adds commits, as a writer would.
	src := filepath.Join(root, "landing-ws")
	appends := 0
	landing := func(name string, rows ...string) string {
		t.Helper()
		appends++
		file := fmt.Sprintf("data/%d.jsonl", appends)
		workspacetest.Write(t, src, map[string]string{
			file: strings.Join(rows, "\n") + "\n",
			"pipelines/setup.yaml": "name: setup\nnodes:\n- name: w\n  sources:\n  - path: ../" + file +
				"\n    format: JSONL\n  sinks:\n  - path: ../landing/" + name + "\n    format: DELTA\n    mode: APPEND\n",
		})
		if code, out, errs := runCLI(t, nil, "run", src); code != ExitOK {
			t.Fatalf("landing %s: exit %d\n%s%s", name, code, out, errs)
		}
		dst := filepath.Join(root, "landing-versions", fmt.Sprint(appends))
		if err := os.CopyFS(dst, os.DirFS(filepath.Join(src, "landing", name))); err != nil {
			t.Fatal(err)
		}
		return dst
	}
	a0 := landing("a", `{"id": 1, "v": "a1"}`, `{"id": 2, "v": "a2"}`)
	b0 := landing("b", `{"id": 10, "v": "b1"}`)
	a1 := landing("a", `{"id": 3, "v": "a3"}`)
	b1 := landing("b", `{"id": 11, "v": "b2"}`)
	type step struct {
		Name    string            `json:"name"`
		Refresh string            `json:"refresh,omitempty"`
		Landing map[string]string `json:"landing,omitempty"`
	}
	steps := []step{
		{Name: "first run", Landing: map[string]string{"landing/a": a0, "landing/b": b0}},
		{Name: "a new commit in a's source", Landing: map[string]string{"landing/a": a1}},
		{Name: "FULL refresh", Refresh: "FULL"},
		{Name: "a new commit in b's source", Landing: map[string]string{"landing/b": b1}},
	}

	files := map[string]string{"pipelines/pl-sdp/pl-sdp.yaml": sdpPipeline}
	ours, theirs := filepath.Join(root, "ours"), filepath.Join(root, "laktory")
	workspacetest.Write(t, ours, files)
	workspacetest.Write(t, theirs, files)
	var want []tableContent
	for _, st := range steps {
		for dst, from := range st.Landing {
			copyOver(t, filepath.Join(ours, dst), from)
		}
		args := []string{"run", ours, "--pipeline", "pl-sdp", "--yes"}
		if st.Refresh != "" {
			args = append(args, "--refresh", st.Refresh)
		}
		if code, out, errs := runCLI(t, nil, args...); code != ExitOK {
			t.Fatalf("%s: exit %d\n%s%s", st.Name, code, out, errs)
		}
		want = append(want, readTable(t, filepath.Join(ours, ".laktory", "lake", "main", "default", "events")))
	}

	plan, err := json.Marshal(map[string]any{
		"workspace": theirs, "pipeline": "pipelines/pl-sdp/pl-sdp.yaml", "table": "pipelines/pl-sdp/spark-warehouse/events",
		"snapshots": filepath.Join(root, "snapshots"), "steps": steps,
	})
	if err != nil {
		t.Fatal(err)
	}
	planFile, outFile := filepath.Join(root, "plan.json"), filepath.Join(root, "out.json")
	if err := os.WriteFile(planFile, plan, 0o644); err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	if d, ok := t.Deadline(); ok {
		var cancel context.CancelFunc
		ctx, cancel = context.WithDeadline(ctx, d.Add(-30*time.Second))
		defer cancel()
	}
	script := filepath.Join("..", "..", "scripts", "interop", "laktory_sdp.py")
	if b, err := exec.CommandContext(ctx, py, script, planFile, outFile).CombinedOutput(); err != nil {
		t.Fatalf("laktory_sdp.py: %v\n%s", err, tail(string(b), 40))
	}
	b, err := os.ReadFile(outFile)
	if err != nil {
		t.Fatal(err)
	}
	var res []struct{ Name, Error, Table string }
	if err := json.Unmarshal(b, &res); err != nil {
		t.Fatal(err)
	}
	for k, st := range steps {
		if k > 0 && k < len(res) && strings.Contains(res[k].Error, sdpSecondRun) {
			// Known (docs/development.md, "Declarative pipelines on
			// Spark"): each spark-pipelines run has its own in-memory
			// catalog, so a second run does not find the table the first
			// created and fails creating it over its folder.
			t.Logf("%s and after: not compared, Laktory 0.13.1 cannot run them locally (%s)", st.Name, sdpSecondRun)
			break
		}
		if k >= len(res) || res[k].Error != "" || res[k].Table == "" {
			t.Fatalf("%s: Laktory's run did not complete: %+v", st.Name, res)
		}
		got := readTable(t, res[k].Table)
		if !reflect.DeepEqual(got.Columns, want[k].Columns) {
			t.Errorf("%s: columns\n Laktory (spark-pipelines) %v\n ours                      %v", st.Name, got.Columns, want[k].Columns)
		}
		if !slices.Equal(got.Rows, want[k].Rows) {
			t.Errorf("%s: rows\n Laktory (spark-pipelines) %v\n ours                      %v", st.Name, got.Rows, want[k].Rows)
		}
		t.Logf("%s: %d rows, the same", st.Name, len(got.Rows))
	}
}

// copyOver copies the files of folder src into dst, replacing those of
// the same name (a Delta table's later version over an earlier one).
func copyOver(t *testing.T, dst, src string) {
	t.Helper()
	err := filepath.WalkDir(src, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		rel, _ := filepath.Rel(src, p)
		b, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		if err := os.MkdirAll(filepath.Dir(filepath.Join(dst, rel)), 0o755); err != nil {
			return err
		}
		return os.WriteFile(filepath.Join(dst, rel), b, 0o644)
	})
	if err != nil {
		t.Fatal(err)
	}
}

// tail is the last n lines of s.
func tail(s string, n int) string {
	lines := strings.Split(s, "\n")
	return strings.Join(lines[max(0, len(lines)-n):], "\n")
}
