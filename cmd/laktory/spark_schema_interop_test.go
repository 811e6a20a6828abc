package main

import (
	"maps"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"testing"

	"github.com/laktory/workbench/delta"
	"github.com/laktory/workbench/workspace/workspacetest"
)

// TestInteropSparkSourceSchema reads JSON, JSONL (a stream), CSV and
// Parquet sources with a declared schema on the local engine and on Spark (laktory run
// --engine spark: Spark's reader given the schema, as Laktory's
// spark.read.schema(...)) and compares the tables row for row: the
// declared columns in their order and types, JSON keys by name, Parquet
// columns by name without case, CSV values by position, absent ones null,
// others dropped. Opt-in,
// as TestInteropSparkEngine (the same variables).
func TestInteropSparkSourceSchema(t *testing.T) {
	sparkPy := sparkOptIn(t)
	py := deltaPython(t)
	remote := sparkConnect(t, sparkPy).remote
	files := map[string]string{
		"pipelines/pl.yaml": `name: pl
nodes:
- name: j
  source:
    path: ../data/j/
    format: JSON
    schema: {columns: {id: bigint, name: string, day: date, at: timestamp, amount: double, price: double, missing: string, ok: boolean}}
  sinks: [{table_name: j, mode: APPEND}]
- name: l
  source:
    path: ../data/l/
    format: JSONL
    as_stream: true
    schema: {columns: {at: Datetime, id: Int32, name: String, missing: Int64, amount: Float64, day: Date}}
  sinks: [{table_name: l, mode: APPEND}]
- name: c
  source:
    path: ../data/c/
    format: CSV
    schema: {columns: {id: bigint, name: string, amount: double, day: date, flag: boolean}}
  sinks: [{table_name: c, mode: APPEND}]
- name: c2
  source:
    path: ../data/c2/
    format: CSV
    schema: {columns: {id: Int64, name: String, note: String}}
  sinks: [{table_name: c2, mode: APPEND}]
- name: p
  source:
    path: ../data/p/
    format: PARQUET
    schema: {columns: {amount: double, id: bigint, Name: string, missing: double}}
  sinks: [{table_name: p, mode: APPEND}]
`,
		"data/j/1.json": `[{"name": "a", "id": 1, "amount": 1.5, "price": 2.25, "day": "2024-01-02", "at": "2024-01-02T03:04:05Z", "extra": "x", "ok": true},
 {"id": 2, "name": "b", "amount": 3}]`,
		"data/l/1.jsonl": `{"name": "a", "id": 1, "amount": 1.5, "day": "2024-01-02", "at": "2024-01-02 03:04:05", "extra": {"z": 1}}` + "\n" +
			`{"ID": 2, "name": "b"}` + "\n",
		"data/c/1.csv":  "id,name,amount,day,flag,extra\n1,a,1.5,2024-01-02,true,x\n2,b,,2024-01-03,false,y\n",
		"data/c2/1.csv": "id,name\n1,a\n2,b\n",
	}
	want := map[string][]string{
		"j":  {"id", "name", "day", "at", "amount", "price", "missing", "ok"},
		"l":  {"at", "id", "name", "missing", "amount", "day"},
		"c":  {"id", "name", "amount", "day", "flag"},
		"c2": {"id", "name", "note"},
		"p":  {"amount", "id", "Name", "missing"},
	}
	dirs := map[string]string{}
	for _, e := range []string{"local", "spark"} {
		dir := t.TempDir()
		workspacetest.Write(t, dir, files)
		parquet := filepath.Join(dir, "data", "p", "1.parquet")
		if err := os.MkdirAll(filepath.Dir(parquet), 0o755); err != nil {
			t.Fatal(err)
		}
		if out, err := exec.Command(py, "-c", `import sys, pyarrow as pa, pyarrow.parquet as pq
pq.write_table(pa.table({"name": ["a", "b"], "id": pa.array([1, 2], pa.int32()), "amount": [1.5, None], "extra": ["x", "y"]}), sys.argv[1])`,
			parquet).CombinedOutput(); err != nil {
			t.Fatalf("write %s: %v\n%s", parquet, err, out)
		}
		args := []string{"run", dir, "--yes"}
		if e == "spark" {
			args = append(args, "--engine", "spark", "--remote", remote)
		}
		if code, out, errb := runCLI(t, nil, args...); code != ExitOK {
			t.Fatalf("the %s engine: exit %d\n%s\n%s", e, code, out, errb)
		}
		dirs[e] = dir
	}
	for _, table := range slices.Sorted(maps.Keys(want)) {
		snap, err := delta.LoadSnapshot(t.Context(), tablePath(dirs["local"], table))
		if err != nil {
			t.Fatal(err)
		}
		if got := snap.Schema().FieldNames(); !slices.Equal(got, want[table]) {
			t.Errorf("table %s: the columns %v locally, want the declared %v", table, got, want[table])
		}
		if n := compareEngineTables(t, py, "source schema", table, tablePath(dirs["local"], table), tablePath(dirs["spark"], table)); n != 2 {
			t.Errorf("table %s: %d rows, want 2", table, n)
		}
	}
}
