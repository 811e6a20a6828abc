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
	sparkPy := os.Getenv("LAKTORY_SPARK_PYTHON")
	if sparkPy == "" {
		t.Skip("LAKTORY_SPARK_PYTHON not set: the Spark engine check is opt-in (scripts/interop/spark_connect.sh)")
	}
	if testing.Short() {
		t.Skip("the Spark engine check takes minutes: not in -short")
	}
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
		parts, err := filepath.Glob(filepath.Join(dir, "out", "*.jsonl"))
		if err != nil {
			t.Fatal(err)
		}
		got[e] = map[string][]string{}
		for _, p := range parts {
			b, err := os.ReadFile(p)
			if err != nil {
				t.Fatal(err)
			}
			lines := strings.Split(strings.TrimSpace(string(b)), "\n")
			slices.Sort(lines)
			got[e][strings.TrimSuffix(filepath.Base(p), ".jsonl")] = lines
		}
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
