package main

import (
	"encoding/json"
	"os/exec"
	"path/filepath"
	"testing"
	"time"

	"github.com/laktory/workbench/workspace/workspacetest"
)

// sinksPipeline has a MERGE sink of each SCD type (delete_where, order_by)
// and a file sink of each format (PARQUET partitioned by writer_methods,
// one CSV file, a folder of JSON lines), all from the same changes.
const sinksPipeline = `name: pl
nodes:
- name: scd1
  source: {path: ../data/changes.jsonl, format: JSONL}
  sinks:
  - table_name: scd1
    mode: MERGE
    merge_cdc_options: {primary_keys: [id], order_by: seq, delete_where: op = 'D'}
- name: scd2
  source: {path: ../data/changes.jsonl, format: JSONL}
  sinks:
  - table_name: scd2
    mode: MERGE
    merge_cdc_options: {primary_keys: [id], order_by: seq, scd_type: 2, delete_where: op = 'D'}
- name: files
  source: {path: ../data/changes.jsonl, format: JSONL}
  sinks:
  - path: ../out/parts
    format: PARQUET
    mode: APPEND
    writer_methods:
    - name: partitionBy
      args: [op]
  - {path: ../out/one.csv, format: CSV, mode: OVERWRITE}
  - {path: ../out/lines, format: JSON, mode: OVERWRITE}
`

// The two batches of changes: inserts, then an update, a delete, an
// insert and a stale update (older seq) of a key.
var sinksBatches = []string{
	`{"id": 1, "v": "a", "seq": 1, "op": "I"}` + "\n" + `{"id": 2, "v": "b", "seq": 1, "op": "I"}` + "\n" + `{"id": 3, "v": "c", "seq": 1, "op": "I"}` + "\n",
	`{"id": 1, "v": "a2", "seq": 2, "op": "U"}` + "\n" + `{"id": 2, "v": null, "seq": 2, "op": "D"}` + "\n" +
		`{"id": 4, "v": "d", "seq": 1, "op": "I"}` + "\n" + `{"id": 3, "v": "old", "seq": 0, "op": "U"}` + "\n",
}

// readSinkFiles reads a file sink's rows with polars (Parquet with its
// Hive partitions, CSV, JSON lines) into sorted JSON texts.
const readSinkFiles = `
import glob, json, sys
import polars as pl
kind, path = sys.argv[1], sys.argv[2]
if kind == "parquet":
    df = pl.read_parquet(path + "/**/*.parquet", hive_partitioning=True)
elif kind == "csv":
    df = pl.read_csv(path)
else:
    df = pl.concat([pl.read_ndjson(f) for f in sorted(glob.glob(path + "/*.json"))], how="diagonal_relaxed")
df = df.select(sorted(df.columns))
print(json.dumps(sorted(json.dumps(r, sort_keys=True, default=str) for r in df.to_dicts())))
`

// TestInteropSparkSinks runs MERGE sinks (SCD type 1 and 2) and file sinks
// (PARQUET, CSV, JSON) on the local engine and on Spark (laktory run
// --engine spark: Delta's MERGE INTO, Spark's DataFrame writer) over two
// batches of changes, and compares what each wrote after each run: the
// MERGE tables row for row with delta-rs (the SCD type 2 hash column
// included: DuckDB's emulation of Spark's sha2(concat_ws)), the files'
// rows as polars reads them. Opt-in, as TestInteropSparkEngine (the same
// variables; LAKTORY_SPARK_REMOTE reuses a running server):
//
//	LAKTORY_PYTHON=$PWD/.venv/bin/python LAKTORY_SPARK_PYTHON=$PWD/.venv-spark/bin/python \
//	  go test ./cmd/laktory -run TestInteropSparkSinks -timeout 30m -v
func TestInteropSparkSinks(t *testing.T) {
	sparkPy := sparkOptIn(t)
	py := deltaPython(t)
	remote := sparkConnect(t, sparkPy).remote
	dirs := map[string]string{"local": t.TempDir(), "spark": t.TempDir()}
	for _, dir := range dirs {
		workspacetest.Write(t, dir, map[string]string{"pipelines/pl.yaml": sinksPipeline, "out/.keep": ""})
	}
	for i, batch := range sinksBatches {
		step := []string{"first batch", "second batch"}[i]
		for _, e := range []string{"local", "spark"} {
			dir := dirs[e]
			workspacetest.Write(t, dir, map[string]string{"data/changes.jsonl": batch})
			args := []string{"run", dir, "--yes"}
			if e == "spark" {
				args = append(args, "--engine", "spark", "--remote", remote)
			}
			start := time.Now()
			if code, out, errb := runCLI(t, nil, args...); code != ExitOK {
				t.Fatalf("%s, the %s engine: exit %d\n%s\n%s", step, e, code, out, errb)
			}
			t.Logf("%s, the %s engine: %s", step, e, time.Since(start).Round(10*time.Millisecond))
		}
		for _, table := range []string{"scd1", "scd2"} {
			compareEngineTables(t, py, step, table, tablePath(dirs["local"], table), tablePath(dirs["spark"], table))
		}
		for _, f := range []struct{ kind, path string }{{"parquet", "out/parts"}, {"csv", "out/one.csv"}, {"json", "out/lines"}} {
			var rows [2][]string
			for j, e := range []string{"local", "spark"} {
				out, err := exec.Command(py, "-c", readSinkFiles, f.kind, filepath.Join(dirs[e], f.path)).Output()
				if err != nil {
					t.Fatalf("%s: read %s of the %s engine: %v: %s", step, f.path, e, err, out)
				}
				if err := json.Unmarshal(out, &rows[j]); err != nil {
					t.Fatalf("%s: %s: %v: %s", step, f.path, err, out)
				}
			}
			if len(rows[0]) == 0 || len(rows[0]) != len(rows[1]) {
				t.Errorf("%s: %s: %d rows locally, %d on Spark", step, f.path, len(rows[0]), len(rows[1]))
				continue
			}
			for k := range rows[0] {
				if rows[0][k] != rows[1][k] {
					t.Errorf("%s: %s, row %d:\nlocal %s\nspark %s", step, f.path, k, rows[0][k], rows[1][k])
				}
			}
			t.Logf("%s: %s: the same %d rows on both engines", step, f.path, len(rows[0]))
		}
	}
}

// TestInteropSparkMergeStream runs a streaming MERGE sink (SCD type 2, one
// landing file per micro-batch: each merge's commits carry the flow's
// txnAppId/txnVersion) on both engines: two micro-batches in the first
// run, one in the second, then a FULL refresh (reset_mode TRUNCATE: the
// truncate before the first merge of the new data), and compares the
// tables row for row after each run. Opt-in, as TestInteropSparkSinks.
func TestInteropSparkMergeStream(t *testing.T) {
	sparkPy := sparkOptIn(t)
	py := deltaPython(t)
	remote := sparkConnect(t, sparkPy).remote
	files := map[string]string{"pipelines/pl.yaml": `name: pl
nodes:
- name: versions
  source: {path: ../data/in/, format: JSONL, as_stream: true, reader_kwargs: {maxFilesPerTrigger: 1}}
  sinks:
  - table_name: versions
    mode: MERGE
    reset_mode: TRUNCATE
    merge_cdc_options: {primary_keys: [id], order_by: seq, scd_type: 2, delete_where: op = 'D'}
`,
		"data/in/1.jsonl": `{"id": 1, "v": "a", "seq": 1, "op": "I"}` + "\n" + `{"id": 2, "v": "b", "seq": 1, "op": "I"}` + "\n",
		"data/in/2.jsonl": `{"id": 1, "v": "a2", "seq": 2, "op": "U"}` + "\n" + `{"id": 3, "v": "c", "seq": 1, "op": "I"}` + "\n",
	}
	dirs := map[string]string{"local": t.TempDir(), "spark": t.TempDir()}
	for _, dir := range dirs {
		workspacetest.Write(t, dir, files)
		workspacetest.Ordered(t, dir, time.Now().Add(-time.Hour), "data/in/1.jsonl", "data/in/2.jsonl")
	}
	for i, step := range []struct {
		name  string
		write map[string]string
		args  []string
	}{
		{"two micro-batches", nil, nil},
		{"a third", map[string]string{"data/in/3.jsonl": `{"id": 2, "v": null, "seq": 2, "op": "D"}` + "\n" + `{"id": 3, "v": "c2", "seq": 3, "op": "U"}` + "\n"}, nil},
		{"a FULL refresh", nil, []string{"--refresh", "FULL"}},
	} {
		for _, e := range []string{"local", "spark"} {
			dir := dirs[e]
			if step.write != nil {
				workspacetest.Write(t, dir, step.write)
				workspacetest.Ordered(t, dir, time.Now().Add(-time.Minute), "data/in/3.jsonl")
			}
			args := append([]string{"run", dir, "--yes"}, step.args...)
			if e == "spark" {
				args = append(args, "--engine", "spark", "--remote", remote)
			}
			start := time.Now()
			if code, out, errb := runCLI(t, nil, args...); code != ExitOK {
				t.Fatalf("%s, the %s engine: exit %d\n%s\n%s", step.name, e, code, out, errb)
			}
			t.Logf("%s, the %s engine: %s", step.name, e, time.Since(start).Round(10*time.Millisecond))
		}
		if n := compareEngineTables(t, py, step.name, "versions", tablePath(dirs["local"], "versions"), tablePath(dirs["spark"], "versions")); n == 0 && i < 2 {
			t.Errorf("%s: no rows", step.name)
		}
	}
}
