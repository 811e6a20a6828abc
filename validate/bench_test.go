package validate

import (
	"context"
	"os"
	"path/filepath"
	"testing"

	"github.com/laktory/workbench/workspace"
	"github.com/laktory/workbench/workspace/workspacetest"
)

const benchPipelines, benchNodes = 200, 10

// TestGeneratedWorkspaceValid: the benchmark's workspace is valid, so the
// benchmarks measure a realistic pass (every where predicate proven
// disjoint from the 199 others).
func TestGeneratedWorkspaceValid(t *testing.T) {
	dir := t.TempDir()
	workspacetest.Generate(t, dir, 20, benchNodes)
	s := workspacetest.LoadDir(t, dir, workspace.Options{})
	workspacetest.Expect(t, s, Check(s, Options{}), nil)
	if len(s.Pipelines) != 20 || len(s.Writers) != 20*benchNodes {
		t.Fatalf("pipelines %d writers %d", len(s.Pipelines), len(s.Writers))
	}
}

// BenchmarkLoadValidate: full load and validation of 200 pipelines x 10
// nodes (target: under 300 ms).
func BenchmarkLoadValidate(b *testing.B) {
	dir := b.TempDir()
	workspacetest.Generate(b, dir, benchPipelines, benchNodes)
	ctx := context.Background()
	b.ReportAllocs()
	for b.Loop() {
		s, err := workspace.Load(ctx, dir, workspace.Options{})
		if err != nil {
			b.Fatal(err)
		}
		if ds := Check(s, Options{}); workspace.HasErrors(ds) {
			b.Fatal(ds[0])
		}
	}
}

// BenchmarkReloadValidate: one pipeline file changes; the new snapshot and
// its diagnostics (target: under 30 ms).
func BenchmarkReloadValidate(b *testing.B) {
	dir := b.TempDir()
	workspacetest.Generate(b, dir, benchPipelines, benchNodes)
	ctx := context.Background()
	s, err := workspace.Load(ctx, dir, workspace.Options{})
	if err != nil {
		b.Fatal(err)
	}
	Check(s, Options{})
	file := filepath.Join(dir, workspacetest.PipelineFile(benchPipelines/2))
	b.ReportAllocs()
	rev := 0
	for b.Loop() {
		b.StopTimer()
		rev++
		if err := os.WriteFile(file, []byte(workspacetest.GeneratePipeline(benchPipelines/2, benchNodes, rev)), 0o644); err != nil {
			b.Fatal(err)
		}
		b.StartTimer()
		s, err = workspace.Reload(ctx, s, []string{file})
		if err != nil {
			b.Fatal(err)
		}
		if ds := Check(s, Options{}); workspace.HasErrors(ds) {
			b.Fatal(ds[0])
		}
	}
}

// BenchmarkCheck: the rules alone over 200 pipelines x 10 nodes (where
// predicates already parsed, as after the first validation).
func BenchmarkCheck(b *testing.B) {
	dir := b.TempDir()
	workspacetest.Generate(b, dir, benchPipelines, benchNodes)
	s, err := workspace.Load(context.Background(), dir, workspace.Options{})
	if err != nil {
		b.Fatal(err)
	}
	Check(s, Options{})
	b.ReportAllocs()
	for b.Loop() {
		Check(s, Options{})
	}
}

// BenchmarkLoadValidateCold is BenchmarkLoadValidate with the predicate
// cache emptied before each iteration: the first validation of a process
// (200 where predicates parsed by DuckDB).
func BenchmarkLoadValidateCold(b *testing.B) {
	dir := b.TempDir()
	workspacetest.Generate(b, dir, benchPipelines, benchNodes)
	ctx := context.Background()
	parser.parse("x = 1") // start DuckDB once, as a long-lived process has
	b.ReportAllocs()
	for b.Loop() {
		parser.mu.Lock()
		clear(parser.cache)
		parser.mu.Unlock()
		s, err := workspace.Load(ctx, dir, workspace.Options{})
		if err != nil {
			b.Fatal(err)
		}
		if ds := Check(s, Options{}); workspace.HasErrors(ds) {
			b.Fatal(ds[0])
		}
	}
}

// TestWriteBenchWorkspace writes the benchmarks' workspace (200 pipelines
// x 10 nodes and a landing file per client) into the folder
// $LAKTORY_BENCH_WORKSPACE, for scripts/bench/validate_cold.sh to time
// `laktory validate` on as a whole process; skipped without it.
func TestWriteBenchWorkspace(t *testing.T) {
	dir := os.Getenv("LAKTORY_BENCH_WORKSPACE")
	if dir == "" {
		t.Skip("LAKTORY_BENCH_WORKSPACE not set (see scripts/bench/validate_cold.sh)")
	}
	workspacetest.Generate(t, dir, benchPipelines, benchNodes)
	workspacetest.GenerateData(t, dir, benchPipelines)
}
