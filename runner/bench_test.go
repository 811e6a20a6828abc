package runner

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/laktory/workbench/workspace"
	"github.com/laktory/workbench/workspace/workspacetest"
)

// BenchmarkNodeOverhead: one small node, from Start to its commit (plan
// excluded): a one-row JSON lines file appended to a shared Delta table,
// with the run history recorded. Reports the task time (task_started to
// task_finished) as ms/task next to the whole run (ns/op).
func BenchmarkNodeOverhead(b *testing.B) {
	dir := b.TempDir()
	workspacetest.Write(b, dir, map[string]string{
		"pipelines/pl.yaml": `name: pl
nodes:
- name: a
  sources:
  - path: ../data/a.jsonl
    format: JSONL
  sinks:
  - table_name: t
    mode: APPEND
    shared: true
`,
		"data/a.jsonl": `{"k": "a", "v": 1}` + "\n",
	})
	snap := workspacetest.LoadDir(b, dir, workspace.Options{})
	r := testRunner(b)
	plan, err := r.Plan(context.Background(), snap, Request{})
	if err != nil {
		b.Fatal(err)
	}
	start(b, r, plan) // create the table
	var task time.Duration
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		o := start(b, r, plan)
		if o.err != nil {
			b.Fatal(o.err)
		}
		ts := o.sum.Tasks[0]
		task += ts.EndedAt.Sub(ts.StartedAt)
	}
	b.ReportMetric(float64(task.Microseconds())/1000/float64(b.N), "ms/task")
}

// BenchmarkPlan: planning a run of the same node (validation included).
func BenchmarkPlan(b *testing.B) {
	dir := b.TempDir()
	workspacetest.Write(b, dir, map[string]string{"pipelines/pl.yaml": pricesPipeline})
	snap := workspacetest.LoadDir(b, dir, workspace.Options{})
	r := testRunner(b)
	b.ReportAllocs()
	for i := 0; i < b.N; i++ {
		if _, err := r.Plan(context.Background(), snap, Request{}); err != nil {
			b.Fatal(err)
		}
	}
}

// benchTransform is the SQL step of the throughput benchmarks.
const benchTransform = `SELECT upper(symbol) AS symbol, CAST(ts AS TIMESTAMPTZ) AS ts,
               round(price * 1.1, 2) AS price, qty, price * qty AS notional
        FROM {df} WHERE qty > 0`

// benchRows is the row count of the throughput benchmarks (5M;
// LAKTORY_BENCH_ROWS overrides it).
func benchRows() int {
	rows := 5_000_000
	if s := os.Getenv("LAKTORY_BENCH_ROWS"); s != "" {
		fmt.Sscan(s, &rows)
	}
	return rows
}

// benchJSON writes rows JSON lines rows (symbol, ts, price, qty) to
// dir/data/feed.jsonl.
func benchJSON(b *testing.B, r *Runner, dir string, rows int) string {
	b.Helper()
	src := filepath.Join(dir, "data", "feed.jsonl")
	if err := os.MkdirAll(filepath.Dir(src), 0o755); err != nil {
		b.Fatal(err)
	}
	gen := fmt.Sprintf(`COPY (SELECT 'sym' || (i %% 500) AS symbol, TIMESTAMP '2026-01-01' + INTERVAL (i) SECOND AS ts,
		(i %% 1000) / 10.0 AS price, 1 + i %% 7 AS qty FROM range(%d) r(i)) TO %s (FORMAT json)`, rows, quoteString(src))
	if _, err := r.db.ExecContext(context.Background(), gen); err != nil {
		b.Fatal(err)
	}
	return src
}

// BenchmarkJSONToSharedDelta: a node reading 5M JSON lines rows,
// transforming them with SQL and appending them to a shared Delta table
// (writer column first), run history included. Reports rows/s.
func BenchmarkJSONToSharedDelta(b *testing.B) {
	rows := benchRows()
	dir := b.TempDir()
	workspacetest.Write(b, dir, map[string]string{
		"pipelines/pl.yaml": `name: pl
nodes:
- name: feed
  sources:
  - path: ../data/feed.jsonl
    format: JSONL
  transformer:
    nodes:
    - expr: |
        ` + benchTransform + `
  sinks:
  - table_name: prices
    mode: APPEND
    shared: true
`,
	})
	r := testRunner(b)
	benchJSON(b, r, dir, rows)
	snap := workspacetest.LoadDir(b, dir, workspace.Options{})
	plan, err := r.Plan(context.Background(), snap, Request{})
	if err != nil {
		b.Fatal(err)
	}
	if o := start(b, r, plan); o.err != nil { // create the table, warm the page cache
		b.Fatal(o.err)
	}
	b.ReportAllocs()
	b.ResetTimer()
	began := time.Now()
	for i := 0; i < b.N; i++ {
		rn, err := r.Start(context.Background(), plan)
		if err != nil {
			b.Fatal(err)
		}
		sum, err := rn.Wait()
		if err != nil || sum.RowsWritten != int64(rows) {
			b.Fatalf("run: %v, %d rows written", err, sum.RowsWritten)
		}
	}
	b.ReportMetric(float64(rows)*float64(b.N)/time.Since(began).Seconds(), "rows/s")
}

// BenchmarkJSONToParquetFloor is the floor of BenchmarkJSONToSharedDelta:
// the same read, transform and parquet write (snappy, stats returned) as
// one DuckDB COPY, with no Delta log and no runner. Compare the two on the
// same machine at the same time.
func BenchmarkJSONToParquetFloor(b *testing.B) {
	rows := benchRows()
	dir := b.TempDir()
	r := testRunner(b)
	src := benchJSON(b, r, dir, rows)
	q := fmt.Sprintf(`COPY (SELECT 'pl.feed' AS _laktory_writer, * FROM (%s)) TO %s (FORMAT parquet, COMPRESSION snappy, RETURN_STATS, PER_THREAD_OUTPUT, FILE_SIZE_BYTES 134217728, OVERWRITE true)`,
		strings.ReplaceAll(benchTransform, "{df}", fmt.Sprintf("read_json([%s], format = 'newline_delimited')", quoteString(src))),
		quoteString(filepath.Join(dir, "out")))
	if _, err := r.db.ExecContext(context.Background(), q); err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	b.ResetTimer()
	began := time.Now()
	for i := 0; i < b.N; i++ {
		if _, err := r.db.ExecContext(context.Background(), q); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(rows)*float64(b.N)/time.Since(began).Seconds(), "rows/s")
}
