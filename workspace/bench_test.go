package workspace_test

import (
	"context"
	"os"
	"path/filepath"
	"testing"

	"github.com/laktory/workbench/workspace"
	"github.com/laktory/workbench/workspace/workspacetest"
)

// BenchmarkLoad loads a generated workspace of 200 pipelines x 10 nodes.
func BenchmarkLoad(b *testing.B) {
	dir := b.TempDir()
	workspacetest.Generate(b, dir, 200, 10)
	b.ReportAllocs()
	for b.Loop() {
		if _, err := workspace.Load(context.Background(), dir, workspace.Options{}); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkReload reloads the same workspace after one file changed.
func BenchmarkReload(b *testing.B) {
	dir := b.TempDir()
	workspacetest.Generate(b, dir, 200, 10)
	ctx := context.Background()
	s, err := workspace.Load(ctx, dir, workspace.Options{})
	if err != nil {
		b.Fatal(err)
	}
	file := filepath.Join(dir, workspacetest.PipelineFile(100))
	rev := 0
	b.ReportAllocs()
	for b.Loop() {
		b.StopTimer()
		rev++
		os.WriteFile(file, []byte(workspacetest.GeneratePipeline(100, 10, rev)), 0o644)
		b.StartTimer()
		if s, err = workspace.Reload(ctx, s, []string{file}); err != nil {
			b.Fatal(err)
		}
	}
}
