package workspace_test

import (
	"fmt"
	"testing"

	"github.com/laktory/workbench/workspace"
	"github.com/laktory/workbench/workspace/workspacetest"
)

// TestPipelineReadsStreamingNodeSource: a streaming node_name source reads
// its node's table, and Laktory streams that table, so another writer of
// a shared table is ordered as Laktory runs it (its DAG's order: a
// generation at a time, declaration order within one): before the reader
// when Laktory runs it first (w2 -> r), after the reader's read when it
// runs later (w3 reads b, of r's generation: r -> w3, Before). A batch node_name source reads the node's
// output and gets no edge; neither does the source's own node (an edge of
// the DAG). Fails without streamNodeReads (no edge at all).
func TestPipelineReadsStreamingNodeSource(t *testing.T) {
	s := workspacetest.Load(t, map[string]string{"pipelines/pl.yaml": `
name: pl
nodes:
- name: w1
  sinks: [{table_name: prices, mode: APPEND, shared: true}]
- name: w2
  sinks: [{table_name: prices, mode: APPEND, shared: true}]
- name: r
  sources:
  - node_name: w1
    as_stream: true
  sinks: [{table_name: gold, mode: APPEND}]
- name: b
  sources:
  - node_name: w1
  sinks: [{table_name: batch, mode: APPEND}]
- name: w3
  sources:
  - node_name: b
  sinks: [{table_name: prices, mode: APPEND, shared: true}]
`}, workspace.Options{})
	p := s.Pipeline("pl")
	for _, tt := range []struct{ node, want string }{
		{"r", "[pl.w2->pl.r stream pl.r->pl.w3 before stream]"},
		{"b", "[]"},
		{"w1", "[]"},
	} {
		got := []string{}
		for _, e := range s.PipelineReads(p, p.Node(tt.node)) {
			d := e.From + "->" + e.To
			if e.Before {
				d += " before"
			}
			if e.Stream {
				d += " stream"
			}
			got = append(got, d)
		}
		if fmt.Sprint(got) != tt.want {
			t.Errorf("PipelineReads(%s) = %v, want %s", tt.node, got, tt.want)
		}
	}
}
