package runner

import (
	"context"
	"os"
	"path/filepath"
	"syscall"
	"testing"
	"time"

	"github.com/laktory/workbench/runner/dialect"
	"github.com/laktory/workbench/runner/schemaflow"
	"github.com/laktory/workbench/validate"
	"github.com/laktory/workbench/workspace"
	"github.com/laktory/workbench/workspace/workspacetest"
)

const benchPipelines, benchNodes = 200, 10

// benchWorkspace writes the generated workspace of 200 pipelines x 10
// nodes (validate's benchmarks) with a landing file per client.
func benchWorkspace(b *testing.B) string {
	dir := b.TempDir()
	workspacetest.Generate(b, dir, benchPipelines, benchNodes)
	workspacetest.GenerateData(b, dir, benchPipelines)
	return dir
}

// cpuTime is the CPU time the process used so far (user + system): on a
// shared machine it says more than the wall time.
func cpuTime(b *testing.B) time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		b.Fatal(err)
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// reportCPU reports the CPU time per iteration since start.
func reportCPU(b *testing.B, start time.Duration) {
	b.ReportMetric(float64(cpuTime(b)-start)/float64(time.Millisecond)/float64(b.N), "cpu-ms/op")
}

func mustValidate(b *testing.B, r *Runner, s *workspace.Snapshot) {
	ds, err := r.Validate(context.Background(), s, validate.Options{})
	if err != nil {
		b.Fatal(err)
	}
	if workspace.HasErrors(ds) {
		b.Fatal(ds[0])
	}
}

// BenchmarkValidateWarm: load and validate the 200-pipeline workspace with
// the schema flow on, its caches warm (nothing changed since the last
// check: no schema is read, no node bound). Budget: under 300 ms.
func BenchmarkValidateWarm(b *testing.B) {
	dir := benchWorkspace(b)
	r := testRunner(b)
	ctx := context.Background()
	s, err := workspace.Load(ctx, dir, workspace.Options{})
	if err != nil {
		b.Fatal(err)
	}
	mustValidate(b, r, s)
	binds, reads := r.flow.Binds(), r.flow.Reads()
	b.ReportAllocs()
	start := cpuTime(b)
	for b.Loop() {
		s, err := workspace.Load(ctx, dir, workspace.Options{})
		if err != nil {
			b.Fatal(err)
		}
		mustValidate(b, r, s)
	}
	reportCPU(b, start)
	b.ReportMetric(float64(r.flow.Binds()-binds)/float64(b.N), "binds/op")
	b.ReportMetric(float64(r.flow.Reads()-reads)/float64(b.N), "reads/op")
}

// BenchmarkValidateCold: the same with an empty flow each time: 200 file
// schemas inferred and 2,000 nodes bound by DuckDB, their Spark SQL
// translated first (a step, a filter and an expectation per node); the
// dialect=duckdb variant passes the SQL through, so the difference is the
// translation's cost.
func BenchmarkValidateCold(b *testing.B) {
	b.Run("dialect=spark", func(b *testing.B) { benchValidateCold(b, testRunner(b)) })
	b.Run("dialect=duckdb", func(b *testing.B) {
		benchValidateCold(b, testRunner(b, func(c *Config) {
			c.Dialect = func(*workspace.Node) dialect.Translator { return dialect.DuckDB{} }
		}))
	})
}

func benchValidateCold(b *testing.B, r *Runner) {
	dir := benchWorkspace(b)
	ctx := context.Background()
	mustValidate(b, r, workspacetest.LoadDir(b, dir, workspace.Options{})) // DuckDB started, predicates parsed
	b.ReportAllocs()
	start, mat := cpuTime(b), checksMaterialized.Load()
	for b.Loop() {
		r.flow = schemaflow.New(schemaEngine{r}, schemaflow.Options{})
		s, err := workspace.Load(ctx, dir, workspace.Options{})
		if err != nil {
			b.Fatal(err)
		}
		mustValidate(b, r, s)
	}
	reportCPU(b, start)
	b.ReportMetric(float64(checksMaterialized.Load()-mat)/float64(b.N), "materialized/op")
}

// BenchmarkRevalidateOneFile: one pipeline file is saved; the workspace is
// reloaded and validated again: its 10 nodes are bound, no other (binds/op).
func BenchmarkRevalidateOneFile(b *testing.B) {
	dir := benchWorkspace(b)
	r := testRunner(b)
	ctx := context.Background()
	s, err := workspace.Load(ctx, dir, workspace.Options{})
	if err != nil {
		b.Fatal(err)
	}
	mustValidate(b, r, s)
	file := filepath.Join(dir, workspacetest.PipelineFile(benchPipelines/2))
	binds := r.flow.Binds()
	rev := 0
	b.ReportAllocs()
	start := cpuTime(b)
	for b.Loop() {
		b.StopTimer()
		rev++
		if err := os.WriteFile(file, []byte(workspacetest.GeneratePipeline(benchPipelines/2, benchNodes, rev)), 0o644); err != nil {
			b.Fatal(err)
		}
		b.StartTimer()
		if s, err = workspace.Reload(ctx, s, []string{file}); err != nil {
			b.Fatal(err)
		}
		mustValidate(b, r, s)
	}
	reportCPU(b, start)
	b.ReportMetric(float64(r.flow.Binds()-binds)/float64(b.N), "binds/op")
}

// BenchmarkFlowWarm: the schema flow alone over a fresh load of the
// unchanged workspace (what it adds to validation when warm).
func BenchmarkFlowWarm(b *testing.B) {
	dir := benchWorkspace(b)
	r := testRunner(b)
	ctx := context.Background()
	mustValidate(b, r, workspacetest.LoadDir(b, dir, workspace.Options{}))
	s := workspacetest.LoadDir(b, dir, workspace.Options{})
	b.ReportAllocs()
	start := cpuTime(b)
	for b.Loop() {
		if _, err := r.flow.Check(ctx, s); err != nil {
			b.Fatal(err)
		}
	}
	reportCPU(b, start)
}

// BenchmarkValidateNoFlow is BenchmarkValidateWarm without the schema flow
// (load and validate's rules), to compare in the same run.
func BenchmarkValidateNoFlow(b *testing.B) {
	dir := benchWorkspace(b)
	ctx := context.Background()
	validate.Check(workspacetest.LoadDir(b, dir, workspace.Options{}), validate.Options{})
	b.ReportAllocs()
	start := cpuTime(b)
	for b.Loop() {
		s, err := workspace.Load(ctx, dir, workspace.Options{})
		if err != nil {
			b.Fatal(err)
		}
		if ds := validate.Check(s, validate.Options{}); workspace.HasErrors(ds) {
			b.Fatal(ds[0])
		}
	}
	reportCPU(b, start)
}
