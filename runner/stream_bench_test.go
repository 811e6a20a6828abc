package runner

import (
	"context"
	"fmt"
	"testing"
	"time"

	"github.com/laktory/workbench/workspace"
	"github.com/laktory/workbench/workspace/workspacetest"
)

// BenchmarkStreamNoNewData: the cost of a streaming node whose sources
// have nothing new, after 50 micro-batches (one file each): a file source
// (its checkpoint's source log to read, the folder to list) and a Delta
// source of a 50-version table. Reports the task time (task_started to
// task_finished: checkpoint read, sources checked, no batch) as ms/task
// next to the whole run from Start (history included) as ns/op.
func BenchmarkStreamNoNewData(b *testing.B) {
	for _, kind := range []string{"files", "delta"} {
		b.Run(kind, func(b *testing.B) {
			dir := b.TempDir()
			files := map[string]string{"pipelines/pl.yaml": `name: pl
nodes:
- name: land
  sources:
  - path: ../data/in/
    format: JSONL
    as_stream: true
    reader_kwargs: {maxFilesPerTrigger: 1}
  sinks:
  - table_name: landed
    mode: APPEND
- name: tail
  sources:
  - table_name: landed
    as_stream: true
  sinks:
  - table_name: tailed
    mode: APPEND
`}
			for i := range 50 {
				files[fmt.Sprintf("data/in/%02d.jsonl", i)] = jsonl("r", i*10, i*10+10, "")
			}
			workspacetest.Write(b, dir, files)
			snap := workspacetest.LoadDir(b, dir, workspace.Options{})
			r := testRunner(b)
			node := "land"
			if kind == "delta" {
				node = "tail"
			}
			mustRun(b, r, snap, Request{Selectors: []string{"land"}})
			mustRun(b, r, snap, Request{Selectors: []string{"tail"}})
			plan, err := r.Plan(context.Background(), snap, Request{Selectors: []string{node}})
			if err != nil {
				b.Fatal(err)
			}
			var task time.Duration
			b.ReportAllocs()
			b.ResetTimer()
			for b.Loop() {
				o := start(b, r, plan)
				if o.err != nil || len(eventKinds(o.events, EventFlowProgress)) != 0 {
					b.Fatalf("%v: a run without new data made batches", o.err)
				}
				ts := o.sum.Tasks[0]
				task += ts.EndedAt.Sub(ts.StartedAt)
			}
			b.ReportMetric(float64(task.Microseconds())/1000/float64(b.N), "ms/task")
		})
	}
}
