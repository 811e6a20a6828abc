package main

import (
	"fmt"
	"maps"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/laktory/workbench/workspace/workspacetest"
)

// TestInteropSparkForEach runs a streaming node into a ForEach sink on the
// local engine and on Spark (laktory run --engine spark) and compares what
// the sink's command writers received: the same rows (typed values in the
// same JSON form), in the same partitions, with the same (partition, epoch)
// ids. The first micro-batch is large enough to be split into two
// partitions; the second is one. Opt-in, as TestInteropSparkEngine (the
// same variables; LAKTORY_SPARK_REMOTE reuses a running server):
//
//	LAKTORY_SPARK_PYTHON=$PWD/.venv-spark/bin/python \
//	  go test ./cmd/laktory -run TestInteropSparkForEach -timeout 30m -v
func TestInteropSparkForEach(t *testing.T) {
	sparkPy := sparkOptIn(t)
	remote := sparkConnect(t, sparkPy).remote
	var big strings.Builder
	for i := range 60_001 {
		fmt.Fprintf(&big, `{"k": "o-%d", "v": %d}`+"\n", i, i)
	}
	files := map[string]string{
		"pipelines/pl.yaml": `name: pl
nodes:
- name: orders
  sources:
  - path: ../data/in/
    format: JSONL
    as_stream: true
    reader_kwargs: {maxFilesPerTrigger: 1}
  transformer:
    nodes:
    - expr: >-
        SELECT k, v, v / 4 AS x, CAST(v AS DECIMAL(10, 2)) AS d, v % 2 = 0 AS even,
        CASE WHEN v % 3 = 0 THEN NULL ELSE k END AS maybe,
        DATE '2024-01-02' AS day, CAST('2024-01-02 03:04:05' AS TIMESTAMP) AS ts FROM {df}
  sinks:
  - foreach:
      name: out
      command: ["sh", "-c", "cat > ../out/$LAKTORY_FOREACH_EPOCH_ID-$LAKTORY_FOREACH_PARTITION_ID.jsonl"]
`,
		"data/in/1.jsonl": big.String(),
		"data/in/2.jsonl": `{"k": "p-0", "v": 0}` + "\n" + `{"k": "p-1", "v": 1}` + "\n",
		"out/.keep":       "",
	}
	got := map[string]map[string][]string{}
	for _, e := range []string{"local", "spark"} {
		dir := t.TempDir()
		workspacetest.Write(t, dir, files)
		workspacetest.Ordered(t, dir, time.Now().Add(-time.Hour), "data/in/1.jsonl", "data/in/2.jsonl")
		args := []string{"run", dir, "--yes"}
		if e == "spark" {
			args = append(args, "--engine", "spark", "--remote", remote)
		}
		start := time.Now()
		if code, out, errb := runCLI(t, nil, args...); code != ExitOK {
			t.Fatalf("the %s engine: exit %d\n%s\n%s", e, code, out, errb)
		}
		t.Logf("the %s engine: %s", e, time.Since(start).Round(10*time.Millisecond))
		got[e] = outboxLines(t, dir)
	}
	want := "[0-0 0-1 1-0]" // 60,001 rows: two partitions on two cores or more
	if runtime.NumCPU() == 1 {
		want = "[0-0 1-0]"
	}
	if keys := slices.Sorted(maps.Keys(got["local"])); fmt.Sprint(keys) != want {
		t.Fatalf("the local engine's (epoch-partition)s: %v", keys)
	}
	for id, want := range got["local"] {
		have := got["spark"][id]
		if len(have) != len(want) {
			t.Errorf("epoch-partition %s: %d rows on Spark, %d locally", id, len(have), len(want))
			continue
		}
		for i := range want {
			if have[i] != want[i] {
				t.Errorf("epoch-partition %s, row %d:\nspark %s\nlocal %s", id, i, have[i], want[i])
				break
			}
		}
	}
	t.Logf("a row of epoch 1: %s", got["spark"]["1-0"][1])
	if len(got["spark"]) != len(got["local"]) {
		t.Errorf("Spark wrote the partitions %v", slices.Sorted(maps.Keys(got["spark"])))
	}
}

// TestInteropSparkUpdateFlow runs a declarative update flow into a ForEach
// sink three times (a new landing file before each), on the local engine,
// on Spark, and switching engines between runs (Spark, local, Spark: the
// state is Parquet files either engine reads), and compares the changed
// rows the sink's command writers received per (epoch, partition): counts,
// a sum whose type widens when a later file brings integers, a timestamp,
// a column only the second file has. Opt-in, as TestInteropSparkForEach.
func TestInteropSparkUpdateFlow(t *testing.T) {
	sparkPy := sparkOptIn(t)
	remote := sparkConnect(t, sparkPy).remote
	files := map[string]string{
		"pipelines/decl.yaml": `name: decl
orchestrator: {type: SPARK_DECLARATIVE_PIPELINE}
nodes:
- name: counts
  flow: {kind: update}
  source: {path: ../data/in/, format: JSONL, as_stream: true}
  transformer:
    nodes:
    - expr: >-
        SELECT user_id, count(*) AS n, count(src) AS web, sum(v) AS v, max(CAST(t AS TIMESTAMP)) AS last
        FROM {df} GROUP BY user_id
  sinks:
  - foreach:
      name: out
      command: ["sh", "-c", "cat > ../out/$LAKTORY_FOREACH_EPOCH_ID-$LAKTORY_FOREACH_PARTITION_ID.jsonl"]
`,
		"out/.keep": "",
	}
	landings := []string{
		`{"user_id": "u1", "src": "web", "v": 1.5, "t": "2024-01-02 03:04:05"}` + "\n" + `{"user_id": "u2", "src": "web"}` + "\n" + `{"user_id": "u1", "v": 2}` + "\n",
		`{"user_id": "u2", "v": 1, "t": "2024-01-03 00:00:00"}` + "\n" + `{"user_id": "u3", "at": "x"}` + "\n",
		`{"user_id": "u1", "src": "app"}` + "\n",
	}
	got := map[string]map[string][]string{}
	for name, engines := range map[string][]string{"local": {"local", "local", "local"}, "spark": {"spark", "spark", "spark"}, "switch": {"spark", "local", "spark"}} {
		dir := t.TempDir()
		workspacetest.Write(t, dir, files)
		for i, e := range engines { // one new landing file each run, newer than the last
			workspacetest.Write(t, dir, map[string]string{fmt.Sprintf("data/in/%d.jsonl", i+1): landings[i]})
			args := []string{"run", dir, "--yes"}
			if e == "spark" {
				args = append(args, "--engine", "spark", "--remote", remote)
			}
			if code, out, errb := runCLI(t, nil, args...); code != ExitOK {
				t.Fatalf("%s, run %d on the %s engine: exit %d\n%s\n%s", name, i+1, e, code, out, errb)
			}
		}
		got[name] = outboxLines(t, dir)
	}
	want := map[string][]string{
		"0-0": {`{"user_id":"u1","n":2,"web":1,"v":3.5,"last":"2024-01-02T03:04:05.000000Z"}`, `{"user_id":"u2","n":1,"web":1,"v":null,"last":null}`},
		"1-0": {`{"user_id":"u2","n":2,"web":1,"v":1.0,"last":"2024-01-03T00:00:00.000000Z"}`, `{"user_id":"u3","n":1,"web":0,"v":null,"last":null}`},
		"2-0": {`{"user_id":"u1","n":3,"web":2,"v":3.5,"last":"2024-01-02T03:04:05.000000Z"}`},
	}
	for _, name := range []string{"local", "spark", "switch"} {
		t.Logf("%s: %v", name, got[name])
		if fmt.Sprint(got[name]) != fmt.Sprint(got["local"]) {
			t.Errorf("%s: the writers got %v, locally %v", name, got[name], got["local"])
		}
	}
	if fmt.Sprint(got["local"]) != fmt.Sprint(want) {
		t.Errorf("locally the writers got %v, want %v", got["local"], want)
	}
}

// outboxLines reads what the command sink of dir wrote: the sorted lines
// of each out/<epoch>-<partition>.jsonl, by its name.
func outboxLines(t *testing.T, dir string) map[string][]string {
	t.Helper()
	parts, err := filepath.Glob(filepath.Join(dir, "out", "*.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	out := map[string][]string{}
	for _, p := range parts {
		b, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		lines := strings.Split(strings.TrimSpace(string(b)), "\n")
		slices.Sort(lines)
		out[strings.TrimSuffix(filepath.Base(p), ".jsonl")] = lines
	}
	return out
}
