// Package tuitest builds workspaces for the workbench's tests and
// benchmarks.
package tuitest

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/laktory/workbench/workspace"
)

// Lanes writes and loads a workspace of pipelines x nodes where node j of
// pipeline i appends to the shared table t_{(i+j)%tables}, and every third
// node also to t_{(i+j+1)%tables}: pipelines*nodes writers over tables
// lanes, with groups of nodes writing the same tables.
func Lanes(t testing.TB, pipelines, nodes, tables int) *workspace.Snapshot {
	t.Helper()
	dir := t.TempDir()
	if err := os.MkdirAll(filepath.Join(dir, "pipelines"), 0o755); err != nil {
		t.Fatal(err)
	}
	for i := range pipelines {
		var b strings.Builder
		fmt.Fprintf(&b, "name: pl-%02d\nnodes:\n", i)
		for j := range nodes {
			fmt.Fprintf(&b, "- name: node_%02d\n  sources:\n  - path: ../data/in\n    format: JSONL\n  sinks:\n", j)
			targets := []int{(i + j) % tables}
			if j%3 == 2 {
				targets = append(targets, (i+j+1)%tables)
			}
			for _, tb := range targets {
				fmt.Fprintf(&b, "  - table_name: t_%02d\n    mode: APPEND\n    shared: true\n", tb)
			}
		}
		if err := os.WriteFile(filepath.Join(dir, "pipelines", fmt.Sprintf("pl-%02d.yaml", i)), []byte(b.String()), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	s, err := workspace.Load(context.Background(), dir, workspace.Options{})
	if err != nil {
		t.Fatal(err)
	}
	return s
}
