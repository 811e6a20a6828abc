package workspace_test

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/laktory/workbench/workspace"
	"github.com/laktory/workbench/workspace/workspacetest"
)

// chainPipeline is a pipeline of n nodes, each reading the one before
// through an expr (about 120 bytes and 13 YAML nodes each: 20,000 of them
// are a 2.3 MB file of some 260,000 YAML nodes, no alias).
func chainPipeline(n int) string {
	var b strings.Builder
	b.WriteString("name: big\nnodes:\n- name: n00000\n  source:\n    path: ../data/x.csv\n    format: CSV\n")
	for i := 1; i < n; i++ {
		fmt.Fprintf(&b, "- name: n%05d\n  source:\n    node_name: n%05d\n  transformer:\n    nodes:\n    - expr: SELECT id, v + 1 AS v FROM {df}\n", i, i-1)
	}
	b.WriteString("  sinks:\n  - table_name: big_out\n    mode: APPEND\n")
	return b.String()
}

// TestLoadLargePipeline: a legitimate pipeline of 20,000 nodes (2.3 MB,
// more YAML nodes than the bound on what aliases expand to) loads without
// a problem, its DAG the chain in order: it was refused for "aliases that
// expand recursively" it does not have (and took 50 s: the DAG's edges,
// its topological order and Pipeline.Node were quadratic; see
// BenchmarkLoadLargePipeline). Aliases that expand past the bound are
// still refused, at the line.
func TestLoadLargePipeline(t *testing.T) {
	const n = 20000
	s := workspacetest.Load(t, map[string]string{"pipelines/big.yaml": chainPipeline(n), "data/x.csv": "id,v\n1,2\n"}, workspace.Options{})
	workspacetest.Expect(t, s, s.Diagnostics, nil)
	p := s.Pipeline("big")
	if p == nil || len(p.Nodes) != n || len(p.DAG.Order) != n || len(p.DAG.Edges) != n-1 {
		t.Fatalf("pipeline %v", p != nil)
	}
	for i, name := range p.DAG.Order {
		if name != fmt.Sprintf("n%05d", i) {
			t.Fatalf("order[%d] = %s", i, name)
		}
	}
	if nd := p.Node("n12345"); nd == nil || nd.Name != "n12345" || p.Node("n99999") != nil {
		t.Fatalf("Node: %v", nd)
	}

	// 2^18 nodes from a few lines.
	laughs := "name: lol\nx0: &a0 [1, 1]\n"
	for i := 1; i <= 17; i++ {
		laughs += fmt.Sprintf("x%d: &a%d [*a%d, *a%d]\n", i, i, i-1, i-1)
	}
	laughs += "nodes:\n- name: a\n"
	s = workspacetest.Load(t, map[string]string{"pipelines/lol.yaml": laughs}, workspace.Options{})
	i := slices.IndexFunc(s.Diagnostics, func(d workspace.Diagnostic) bool {
		return strings.Contains(d.Message, "expands to more than 131072 nodes through aliases")
	})
	if i < 0 {
		t.Fatalf("the alias bomb: %v", s.Diagnostics)
	}
}

// BenchmarkLoadLargePipeline loads a pipeline of 20,000 chained nodes.
func BenchmarkLoadLargePipeline(b *testing.B) {
	dir := b.TempDir()
	workspacetest.Write(b, dir, map[string]string{"pipelines/big.yaml": chainPipeline(20000), "data/x.csv": "id,v\n1,2\n"})
	b.ReportAllocs()
	for b.Loop() {
		if _, err := workspace.Load(context.Background(), dir, workspace.Options{}); err != nil {
			b.Fatal(err)
		}
	}
}
