package workspace

import (
	"context"
	"path/filepath"
	"testing"

	"github.com/laktory/workbench/assets"
)

// demoDir writes the embedded demo workspace to a temporary folder.
func demoDir(t testing.TB) string {
	t.Helper()
	dir := filepath.Join(t.TempDir(), "demo")
	if err := assets.WriteTree(assets.Demo(), dir, false); err != nil {
		t.Fatal(err)
	}
	return dir
}

func TestDemoLoads(t *testing.T) {
	dir := demoDir(t)
	s, err := Load(context.Background(), dir, Options{})
	if err != nil {
		t.Fatal(err)
	}
	for _, d := range s.Diagnostics {
		t.Errorf("demo: %s", d)
	}
	for _, p := range s.Pipelines {
		t.Logf("pipeline %s %s %d %v", p.Name, p.Orchestrator, len(p.Nodes), p.DAG.Order)
	}
	for _, tb := range s.Tables {
		t.Logf("table %s %s", tb.Label(), tb.ID)
		for _, w := range tb.Writers {
			t.Logf("   writer %s %s %s", w.Key(), w.Owner(), w.Flow)
		}
		for _, r := range tb.Readers {
			t.Logf("   reader %s.%s %s %s skip=%v", r.Pipeline, r.Node, r.Kind, r.FromNode, r.SkipChangeCommits)
		}
	}
}
