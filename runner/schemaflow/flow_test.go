package schemaflow

import (
	"context"
	"fmt"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/laktory/workbench/validate"
	"github.com/laktory/workbench/workspace"
	"github.com/laktory/workbench/workspace/workspacetest"
)

// fakeEngine gives file schemas from a map and binds a node by adding a
// column named after it to its first input (and its {nodes.x} columns);
// a node named bad* gets a problem in its first step's expr at offset 7.
type fakeEngine struct {
	mu    sync.Mutex
	files map[string][]Column // by file name
	bound []string            // pipeline.node, in bind order
}

func (e *fakeEngine) FileVersion(src *workspace.Source) (string, error) {
	if _, ok := e.files[filepath.Base(src.Path)]; !ok {
		return "", nil
	}
	return src.Path, nil
}

func (e *fakeEngine) FileSchema(_ context.Context, src *workspace.Source) ([]Column, error) {
	return e.files[filepath.Base(src.Path)], nil
}

func (e *fakeEngine) Bind(_ context.Context, in Input) (Output, error) {
	e.mu.Lock()
	e.bound = append(e.bound, in.Pipeline.Name+"."+in.Node.Name)
	e.mu.Unlock()
	var cols []Column
	if len(in.Sources) > 0 {
		cols = slices.Clone(in.Sources[0])
	}
	for _, name := range slices.Sorted(maps.Keys(in.Nodes)) {
		cols = append(cols, in.Nodes[name]...)
	}
	cols = append(cols, Column{Name: in.Node.Name, Type: "BIGINT"})
	if strings.HasPrefix(in.Node.Name, "bad") {
		st := in.Node.Transformer[0]
		return Output{Problems: []Problem{{Kind: Unbound, What: "the `expr` of transformer step #1", At: st.At("expr"), Offset: 7,
			Message: "Binder Error: Referenced column \"prise\" not found in FROM clause!\nCandidate bindings: \"price\"\n\nLINE 1: SELECT prise\n               ^"}}}, nil
	}
	return Output{Columns: cols}, nil
}

func load(t *testing.T, files map[string]string) (*workspace.Snapshot, string) {
	t.Helper()
	dir := t.TempDir()
	workspacetest.Write(t, dir, files)
	return workspacetest.LoadDir(t, dir, workspace.Options{}), dir
}

// TestFlowOrder: nodes are bound once their inputs are known, across
// pipelines through tables no run wrote; a node whose input is unknown,
// or in a cycle through tables, is not bound.
func TestFlowOrder(t *testing.T) {
	snap, _ := load(t, map[string]string{
		"pipelines/gold.yaml": `name: gold
nodes:
- name: g
  sources:
  - table_name: silver
  transformer:
    nodes:
    - expr: SELECT * FROM {df} JOIN {nodes.h} USING (id)
- name: h
  sources:
  - path: ../data/a.csv
    format: CSV
- name: loop
  sources:
  - table_name: loop
  sinks:
  - table_name: loop
    mode: APPEND
- name: nofile
  sources:
  - path: ../data/none.csv
    format: CSV
`,
		"pipelines/silver.yaml": `name: silver
nodes:
- name: s
  sources:
  - path: ../data/a.csv
    format: CSV
  sinks:
  - table_name: silver
    mode: APPEND
`,
	})
	e := &fakeEngine{files: map[string][]Column{"a.csv": {{Name: "id", Type: "BIGINT"}}}}
	f := New(e, Options{})
	res, err := f.Check(context.Background(), snap)
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Diagnostics) != 0 {
		t.Fatalf("diagnostics %v", res.Diagnostics)
	}
	if !slices.Contains(e.bound, "gold.g") || slices.Index(e.bound, "gold.g") < slices.Index(e.bound, "silver.s") || slices.Index(e.bound, "gold.g") < slices.Index(e.bound, "gold.h") {
		t.Fatalf("bind order %v: g after s and h", e.bound)
	}
	if len(e.bound) != 3 {
		t.Fatalf("bound %v: loop and nofile are not known", e.bound)
	}
	silver := snap.Tables[slices.IndexFunc(snap.Tables, func(t *workspace.Table) bool { return strings.HasSuffix(t.Path, "silver") })]
	if got := res.TableColumns[silver.ID]; !slices.Equal(got, []string{"id", "s"}) {
		t.Fatalf("silver's columns %v", got)
	}
	if f.Binds() != 3 || f.Reads() != 1 {
		t.Fatalf("binds %d reads %d", f.Binds(), f.Reads())
	}

	// A check of some pipelines binds their nodes and the writers of the
	// tables they read that no run wrote yet, no other.
	for _, tc := range []struct{ pipeline, want string }{{"silver", "[silver.s]"}, {"gold", "[gold.g gold.h silver.s]"}} {
		e.bound = nil
		if _, err := New(e, Options{}).Check(context.Background(), snap, tc.pipeline); err != nil {
			t.Fatal(err)
		}
		slices.Sort(e.bound)
		if fmt.Sprint(e.bound) != tc.want {
			t.Errorf("check of %s bound %v, want %s", tc.pipeline, e.bound, tc.want)
		}
	}
}

// TestFlowChainRounds: a chain of nodes is bound one round per node, and
// each round looks up only the nodes whose awaited input is now done: a
// node waiting for one not bound yet is not asked again (a pipeline of
// 20,000 chained nodes asked 200 million times took minutes to validate).
func TestFlowChainRounds(t *testing.T) {
	const n = 2000
	var b strings.Builder
	b.WriteString("name: chain\nnodes:\n- name: n0\n  sources:\n  - path: ../data/a.csv\n    format: CSV\n")
	for i := 1; i < n; i++ {
		fmt.Fprintf(&b, "- name: n%d\n  sources:\n  - node_name: n%d\n", i, i-1)
	}
	snap, _ := load(t, map[string]string{"pipelines/chain.yaml": b.String()})
	e := &fakeEngine{files: map[string][]Column{"a.csv": {{Name: "id", Type: "BIGINT"}}}}
	f := New(e, Options{})
	res, err := f.Check(context.Background(), snap)
	if err != nil || len(res.Diagnostics) != 0 {
		t.Fatalf("%v %v", err, res.Diagnostics)
	}
	if len(e.bound) != n || e.bound[n-1] != fmt.Sprintf("chain.n%d", n-1) {
		t.Fatalf("bound %d nodes, the last %q", len(e.bound), e.bound[len(e.bound)-1])
	}
	if f.asked > 2*n {
		t.Fatalf("the rounds looked up %d nodes' inputs for a chain of %d (want at most %d)", f.asked, n, 2*n)
	}
}

// TestFlowProblems: a problem is placed at its text's position in the
// YAML, with DuckDB's candidates as the hint; a where check naming a
// column the table lacks is left to validate's rule.
func TestFlowProblems(t *testing.T) {
	snap, _ := load(t, map[string]string{"pipelines/pl.yaml": `name: pl
nodes:
- name: bad
  sources:
  - path: ../data/a.csv
    format: CSV
  transformer:
    nodes:
    - expr: |
        SELECT prise FROM {df}
- name: after
  sources:
  - node_name: bad
`})
	e := &fakeEngine{files: map[string][]Column{"a.csv": {{Name: "price", Type: "DOUBLE"}}}}
	res, err := New(e, Options{}).Check(context.Background(), snap)
	if err != nil {
		t.Fatal(err)
	}
	workspacetest.Expect(t, snap, res.Diagnostics, []workspacetest.Want{
		workspacetest.D("pipelines/pl.yaml", 10, 16, validate.CodeSQLBind,
			"the `expr` of transformer step #1 does not bind: Referenced column \"prise\" not found in FROM clause did you mean \"price\"?"),
	})
	if slices.Contains(e.bound, "pl.after") {
		t.Fatal("a node reading a node that does not bind is not bound")
	}
}

func TestDuckError(t *testing.T) {
	tests := []struct{ raw, msg, hint string }{
		{"Binder Error: Referenced column \"prise\" not found in FROM clause!\nCandidate bindings: \"price\", \"price\", \"prices\"\n\nLINE 1: x\n  ^",
			`Referenced column "prise" not found in FROM clause`, `did you mean "price" or "prices"?`},
		{"Catalog Error: Scalar Function with name foo does not exist!\nDid you mean \"floor\"?\n\nLINE 1: SELECT foo(x)\n               ^",
			"Scalar Function with name foo does not exist", `did you mean "floor"?`},
		{"Binder Error: No function matches the given name and argument types 'upper(BIGINT)'. You might need to add explicit type casts.\n\tCandidate functions:\n\tupper(VARCHAR) -> VARCHAR\n\n\nLINE 1: x",
			"No function matches the given name and argument types 'upper(BIGINT)'. You might need to add explicit type casts.", "candidates: upper(VARCHAR) -> VARCHAR"},
		{"Binder Error: column \"price\" must appear in the GROUP BY clause or must be part of an aggregate function.\nEither add it to the GROUP BY list, or use \"ANY_VALUE(price)\" if the exact value of \"price\" is not important.\n\nLINE 1: x",
			`column "price" must appear in the GROUP BY clause or must be part of an aggregate function.`,
			`Either add it to the GROUP BY list, or use "ANY_VALUE(price)" if the exact value of "price" is not important.`},
		{"Parser Error: syntax error at or near \"FROM\"", `syntax error at or near "FROM"`, ""},
	}
	for _, tt := range tests {
		msg, hint := duckError(tt.raw)
		if msg != tt.msg || hint != tt.hint {
			t.Errorf("%q:\n got %q, %q\nwant %q, %q", tt.raw, msg, hint, tt.msg, tt.hint)
		}
	}
}

// TestFlowCache: a warm check binds nothing and reads nothing; a changed
// file rebinds its nodes and those whose inputs changed; the caches forget
// what the workspace no longer has.
func TestFlowCache(t *testing.T) {
	files := map[string]string{
		"pipelines/a.yaml": "name: a\nnodes:\n- name: w\n  sources:\n  - path: ../data/a.csv\n    format: CSV\n  sinks:\n  - table_name: t\n    mode: APPEND\n",
		"pipelines/b.yaml": "name: b\nnodes:\n- name: r\n  sources:\n  - table_name: t\n",
		"pipelines/c.yaml": "name: c\nnodes:\n- name: x\n  sources:\n  - path: ../data/a.csv\n    format: CSV\n",
	}
	snap, dir := load(t, files)
	e := &fakeEngine{files: map[string][]Column{"a.csv": {{Name: "id", Type: "BIGINT"}}}}
	f := New(e, Options{})
	ctx := context.Background()
	check := func(s *workspace.Snapshot) []string {
		t.Helper()
		e.bound = nil
		if _, err := f.Check(ctx, s); err != nil {
			t.Fatal(err)
		}
		slices.Sort(e.bound)
		return e.bound
	}
	if got := check(snap); fmt.Sprint(got) != "[a.w b.r c.x]" {
		t.Fatalf("cold %v", got)
	}
	if got := check(snap); len(got) != 0 || f.Reads() != 1 {
		t.Fatalf("warm bound %v, reads %d", got, f.Reads())
	}
	reload := func(name, content string) *workspace.Snapshot {
		t.Helper()
		workspacetest.Write(t, dir, map[string]string{name: content})
		s, err := workspace.Reload(ctx, snap, []string{filepath.Join(dir, name)})
		if err != nil {
			t.Fatal(err)
		}
		return s
	}
	// The writer's output gains a column (its name): its reader rebinds.
	snap = reload("pipelines/a.yaml", strings.Replace(files["pipelines/a.yaml"], "name: w", "name: w2", 1))
	if got := check(snap); fmt.Sprint(got) != "[a.w2 b.r]" {
		t.Fatalf("after the writer changed: %v", got)
	}
	if len(f.nodes) != 3 {
		t.Fatalf("the cache keeps %d nodes, want 3", len(f.nodes))
	}
}

// TestFlowStore: a flow with a store starts warm from what another process
// (a flow of the same version) stored: it binds and reads nothing, and
// reports the same diagnostics; a store of another version, or a broken
// file, is ignored.
func TestFlowStore(t *testing.T) {
	snap, _ := load(t, map[string]string{"pipelines/pl.yaml": `name: pl
nodes:
- name: bad
  sources:
  - path: ../data/a.csv
    format: CSV
  transformer:
    nodes:
    - expr: SELECT prise FROM {df}
- name: ok
  sources:
  - path: ../data/a.csv
    format: CSV
`})
	e := &fakeEngine{files: map[string][]Column{"a.csv": {{Name: "price", Type: "DOUBLE"}}}}
	store := t.TempDir()
	ctx := context.Background()
	first, err := New(e, Options{StoreDir: store, Version: "v1"}).Check(ctx, snap)
	if err != nil || len(first.Diagnostics) != 1 {
		t.Fatalf("first check: %v %v", first.Diagnostics, err)
	}
	files, _ := filepath.Glob(filepath.Join(store, "*.json"))
	if len(files) != 1 {
		t.Fatalf("store files %v", files)
	}
	for _, tc := range []struct {
		version      string
		binds, reads int64
	}{{"v1", 0, 0}, {"v2", 2, 1}} {
		f := New(e, Options{StoreDir: store, Version: tc.version})
		res, err := f.Check(ctx, snap)
		if err != nil {
			t.Fatal(err)
		}
		if f.Binds() != tc.binds || f.Reads() != tc.reads || fmt.Sprint(res.Diagnostics) != fmt.Sprint(first.Diagnostics) {
			t.Errorf("version %s: %d binds, %d reads, %v", tc.version, f.Binds(), f.Reads(), res.Diagnostics)
		}
	}
	if err := os.WriteFile(files[0], []byte("{not json"), 0o644); err != nil {
		t.Fatal(err)
	}
	f := New(e, Options{StoreDir: store, Version: "v2"})
	if _, err := f.Check(ctx, snap); err != nil || f.Binds() != 2 {
		t.Fatalf("broken store: %d binds, %v", f.Binds(), err)
	}
}
