package workspace_test

import (
	"testing"

	"github.com/laktory/workbench/workspace"
	"github.com/laktory/workbench/workspace/workspacetest"
)

// TestSinkAtSkipsBrokenSinks: a sink that fails to load is left out of
// Node.Sinks, so a writer's sink position is not an index into it.
func TestSinkAtSkipsBrokenSinks(t *testing.T) {
	snap := workspacetest.Load(t, map[string]string{"pl.yaml": `
name: pl
nodes:
- name: a
  sinks:
  - just a string
  - table_name: good
    mode: APPEND
`}, workspace.Options{})
	n := snap.Node("pl", "a")
	if n == nil {
		t.Fatal("node a not loaded")
	}
	if len(n.Sinks) != 1 {
		t.Fatalf("node a has %d sinks, want the broken one left out", len(n.Sinks))
	}
	var w *workspace.Writer
	for _, wr := range snap.Writers {
		if wr.Node == "a" && wr.Sink == 1 {
			w = wr
		}
	}
	if w == nil {
		t.Fatalf("no writer for the second sink; writers %+v, sinks %d", snap.Writers, len(n.Sinks))
	}
	sk := n.SinkAt(w.Sink)
	if sk == nil || sk.TableName != "good" {
		t.Fatalf("SinkAt(%d) = %+v, want the sink of table good", w.Sink, sk)
	}
	if snap.Sink(w) != sk {
		t.Fatal("Snapshot.Sink and Node.SinkAt disagree")
	}
	if n.SinkAt(7) != nil || (*workspace.Node)(nil).SinkAt(0) != nil {
		t.Fatal("SinkAt of a missing position or a nil node must be nil")
	}
}
