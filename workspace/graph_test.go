package workspace_test

import (
	"path/filepath"
	"testing"

	"github.com/laktory/workbench/workspace"
	"github.com/laktory/workbench/workspace/workspacetest"
)

func TestGraph(t *testing.T) {
	s := workspacetest.Load(t, map[string]string{
		"pipelines/pl-a.yaml": `
name: pl-a
nodes:
- name: w1
  sinks:
  - table_name: prices
    mode: APPEND
    shared: true
- name: w2
  sinks:
  - path: ../.laktory/lake/main/default/prices/
    format: DELTA
    mode: APPEND
    shared: {writer_id: custom}
- name: r1
  sources:
  - node_name: w1
    as_stream: true
    reader_kwargs: {skipChangeCommits: true}
  transformer:
    nodes:
    - expr: SELECT * FROM {df} UNION ALL SELECT * FROM {nodes.w2}
`,
		"pipelines/pl-b.yaml": `
name: pl-b
nodes:
- name: w3
  sinks:
  - table_name: main.default.prices
    mode: APPEND
    shared: {where: "feed = 'b'"}
- name: r2
  sources:
  - table_name: prices
  - path: ../.laktory/lake/main/default/prices
    format: PARQUET
  - path: ../landing/
    format: CSV
`,
	}, workspace.Options{})
	workspacetest.Expect(t, s, s.Diagnostics, nil)
	id := workspace.TableID(filepath.Join(s.Dir, ".laktory", "lake", "main", "default", "prices"))
	tb := s.Table(id)
	if tb == nil || len(s.Tables) != 1 {
		t.Fatalf("tables: %+v (a table_name sink and a path sink on its folder are one table)", s.Tables)
	}
	if tb.Name != "main.default.prices" || !tb.Shared() || len(tb.Writers) != 3 {
		t.Fatalf("table %+v", tb)
	}
	owners := map[string]string{}
	for _, w := range tb.Writers {
		owners[w.Node] = w.Owner()
	}
	want := map[string]string{"w1": "_laktory_writer = 'pl-a.w1'", "w2": "_laktory_writer = 'custom'", "w3": "where feed = 'b'"}
	for k, v := range want {
		if owners[k] != v {
			t.Errorf("owner of %s = %q, want %q", k, owners[k], v)
		}
	}
	kinds := map[string]int{}
	for _, r := range tb.Readers {
		kinds[r.Node+":"+string(r.Kind)]++
		if r.Kind == workspace.ReadNode && (!r.SkipChangeCommits || !r.AsStream || r.FromNode != "w1") {
			t.Errorf("node reader %+v", r)
		}
	}
	wantReaders := map[string]int{"r1:node_name": 1, "r1:nodes_ref": 1, "r2:table_name": 1, "r2:path": 1}
	for k, v := range wantReaders {
		if kinds[k] != v {
			t.Errorf("readers %v, want %v", kinds, wantReaders)
			break
		}
	}
	if len(s.Readers) != 4 {
		t.Errorf("a CSV landing folder is not a table reader: %d readers", len(s.Readers))
	}
	if w := tb.Writers[0]; s.Sink(w) == nil || s.Sink(w).TableName != "prices" || w.Key() != "pl-a.w1#0" {
		t.Errorf("writer sink lookup: %+v", w)
	}
	if got := tb.Pipelines(); len(got) != 2 {
		t.Errorf("pipelines %v", got)
	}
}

func TestLayoutOverride(t *testing.T) {
	lake := t.TempDir()
	s := workspacetest.Load(t, map[string]string{"pl.yaml": "name: pl\nnodes:\n- name: a\n  sinks: [{table_name: s.t, mode: APPEND}]\n"},
		workspace.Options{Getenv: workspacetest.Env(map[string]string{workspace.LakeEnv: lake})})
	if want := workspace.TableID(filepath.Join(lake, "main", "s", "t")); s.Tables[0].ID != want {
		t.Fatalf("LAKTORY_LAKE: %s, want %s", s.Tables[0].ID, want)
	}
}
