package runner

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/laktory/workbench/workspace"
	"github.com/laktory/workbench/workspace/workspacetest"
)

// BenchmarkLandingIncremental: an incremental run of a streaming node
// whose landing folder holds 20,000 files already processed and one new
// one: the listing, the settle check and the lookup of what the
// checkpoint processed. Reports the plan (validation included) as ms/plan and
// the task time as ms/task.
func BenchmarkLandingIncremental(b *testing.B) {
	const n = 20000
	dir := b.TempDir()
	workspacetest.Write(b, dir, map[string]string{"pipelines/pl.yaml": `name: pl
nodes:
- name: land
  sources:
  - path: ../data/in/
    format: JSONL
    as_stream: true
    reader_kwargs: {maxFilesPerTrigger: 100000}
  sinks:
  - table_name: landed
    mode: APPEND
`})
	in := filepath.Join(dir, "data", "in")
	if err := os.MkdirAll(in, 0o755); err != nil {
		b.Fatal(err)
	}
	old := time.Now().Add(-time.Hour)
	for i := range n {
		p := filepath.Join(in, fmt.Sprintf("%05d.jsonl", i))
		if err := os.WriteFile(p, []byte(fmt.Sprintf("{\"id\": %d}\n", i)), 0o644); err != nil {
			b.Fatal(err)
		}
		os.Chtimes(p, old, old)
	}
	snap := workspacetest.LoadDir(b, dir, workspace.Options{})
	r := testRunner(b)
	mustRun(b, r, snap, Request{Selectors: []string{"land"}})
	var task, planned time.Duration
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; b.Loop(); i++ {
		b.StopTimer()
		p := filepath.Join(in, fmt.Sprintf("new%05d.jsonl", i))
		os.WriteFile(p, []byte(fmt.Sprintf("{\"id\": %d}\n", n+i)), 0o644)
		os.Chtimes(p, old, old)
		b.StartTimer()
		t0 := time.Now()
		plan, err := r.Plan(context.Background(), snap, Request{Selectors: []string{"land"}})
		if err != nil {
			b.Fatal(err)
		}
		planned += time.Since(t0)
		o := start(b, r, plan)
		if o.err != nil || len(eventKinds(o.events, EventFlowProgress)) != 1 {
			b.Fatalf("%v: the incremental run made %d batches, want 1", o.err, len(eventKinds(o.events, EventFlowProgress)))
		}
		ts := o.sum.Tasks[0]
		task += ts.EndedAt.Sub(ts.StartedAt)
	}
	b.ReportMetric(float64(task.Microseconds())/1000/float64(b.N), "ms/task")
	b.ReportMetric(float64(planned.Microseconds())/1000/float64(b.N), "ms/plan")
}
