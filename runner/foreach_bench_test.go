package runner

import (
	"context"
	"fmt"
	"os"
	"strconv"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/laktory/workbench/runner/engine"
	"github.com/laktory/workbench/runner/engine/spark"
	"github.com/laktory/workbench/runner/foreach"
)

// BenchmarkForEachEngines: rows per second through a ForEach sink (a Go
// writer counting its rows) on the local engine and, when
// LAKTORY_SPARK_REMOTE names a Spark Connect server
// (scripts/interop/spark_connect.sh start), on Spark, side by side:
// run it with -count N for alternating rounds. A batch node reads
// LAKTORY_BENCH_FOREACH_ROWS rows (default 200,000) of JSON lines and
// sends them to the sink. foreach-rows/s is the sink's FOREACH operation
// (the batch's rows to the writers: on Spark, Spark's JSON of them as
// Arrow to Go, into DuckDB, then to the writers); run-rows/s the whole run.
//
//	LAKTORY_SPARK_REMOTE=sc://127.0.0.1:15102 go test ./runner -run '^$' -bench ForEachEngines -count 3
func BenchmarkForEachEngines(b *testing.B) {
	n := 200_000
	if s := os.Getenv("LAKTORY_BENCH_FOREACH_ROWS"); s != "" {
		var err error
		if n, err = strconv.Atoi(s); err != nil {
			b.Fatalf("LAKTORY_BENCH_FOREACH_ROWS=%q: %v", s, err)
		}
	}
	var data strings.Builder
	for i := range n {
		fmt.Fprintf(&data, `{"order_id": %d, "client": "c-%d", "amount": %d.25, "at": "2024-01-02T03:04:%02d"}`+"\n", i, i%97, i%1000, i%60)
	}
	w := newWS(b, map[string]string{
		"pipelines/pl.yaml": `name: pl
nodes:
- name: orders
  source: {path: ../data/orders.jsonl, format: JSONL}
  sinks:
  - foreach: {name: bench, command: ["false"]}
`,
		"data/orders.jsonl": data.String(),
	})
	snap := w.load()
	engines := []string{engine.Local}
	remote := os.Getenv("LAKTORY_SPARK_REMOTE")
	if remote != "" {
		engines = append(engines, engine.Spark)
	}
	for _, name := range engines {
		b.Run("engine="+name, func(b *testing.B) {
			var rows atomic.Int64
			sink := foreach.New("bench", foreach.Func(func(context.Context, foreach.Row) error {
				rows.Add(1)
				return nil
			}), foreach.Options{})
			r := testRunner(b, func(c *Config) { c.ForEach = map[string]*foreach.Sink{"bench": sink} })
			if name == engine.Spark {
				e, err := spark.Open(b.Context(), remote)
				if err != nil {
					b.Fatal(err)
				}
				b.Cleanup(func() { e.Close() })
				r.cfg.Engine = e
			}
			var op, all time.Duration
			for b.Loop() {
				rows.Store(0)
				o := mustRun(b, r, snap, Request{})
				ts := taskSum(b, o.sum, "pl.orders")
				if got := rows.Load(); got != int64(n) || len(ts.Operations) != 1 {
					b.Fatalf("%d rows written, want %d; operations %+v", got, n, ts.Operations)
				}
				op += ts.Operations[0].Duration
				all += o.sum.EndedAt.Sub(o.sum.StartedAt)
			}
			b.ReportMetric(float64(n)*float64(b.N)/op.Seconds(), "foreach-rows/s")
			b.ReportMetric(float64(n)*float64(b.N)/all.Seconds(), "run-rows/s")
		})
	}
}
