package workspace_test

import (
	"fmt"
	"path/filepath"
	"reflect"
	"testing"
	"time"

	"github.com/laktory/workbench/workspace"
	"github.com/laktory/workbench/workspace/workspacetest"
)

const fullPipeline = `
name: pl-full
orchestrator:
  type: SPARK_DECLARATIVE_PIPELINE
  catalog: dev
dataframe_backend: PYSPARK
variables:
  landing: ../data
nodes:
- name: brz
  tags: [bronze]
  source:
    path: ${vars.landing}/raw/
    format: JSONL
    as_stream: true
    reader_kwargs: {skipChangeCommits: true, startingVersion: 3}
    filter: x > 1
    selects: {a: alpha, b: beta}
    renames: {alpha: a2}
    drops: [c]
    drop_duplicates: [a]
  transformer:
    nodes:
    - expr: SELECT * FROM {df} JOIN {nodes.ref} USING (id) JOIN {sources.other} USING (id)
    - func_name: with_columns
      func_kwargs:
        y: x * 2
        z: {value: "ROUND(x)"}
    - func_name: join
      func_args: ["{nodes.ref}"]
  expectations:
  - name: positive
    expr: x > 0
    action: DROP
    tolerance: {abs: 3}
  flow:
    name: custom
    once: true
    import_checkpoint: /ckpt
    comment: backfill
    spark_conf: {a: 1}
  sinks:
  - table_name: cat.sch.events
    mode: APPEND
    reset_mode: DROP
    metadata: {comment: Events, properties: {delta.appendOnly: "true"}}
    writer_methods:
    - name: partitionBy
      args: [_laktory_writer]
    schema:
      columns: {id: int, name: {dtype: string, nullable: false}}
  - path: out/quarantine/
    format: DELTA
    mode: APPEND
    is_quarantine: true
    shared: {writer_id: q1}
  - foreach:
      name: hook
      http:
        method: POST
        url: https://api.example.com/e/{id}/{ name }
        headers: {Authorization: token}
        timeout: 2.5
- name: ref
  depends_on: [brz2]
- name: brz2
  sources:
  - name: other
    node_name: ref
`

func TestDecodeFullSchema(t *testing.T) {
	s := workspacetest.Load(t, map[string]string{"pipelines/pl.yaml": fullPipeline}, workspace.Options{})
	for _, d := range s.Diagnostics {
		if d.Code != workspace.CodeExtension { // flow: and foreach: (tested in TestLoadDiagnostics)
			t.Errorf("unexpected %s", d)
		}
	}
	p := s.Pipeline("pl-full")
	if p == nil {
		t.Fatal("pipeline not loaded")
	}
	if p.Orchestrator != workspace.OrchestratorSparkDeclarative || !p.Declarative() || p.DataframeBackend != "PYSPARK" {
		t.Errorf("pipeline fields: %+v", p)
	}
	n := p.Node("brz")
	src := n.Sources[0]
	wantPath := filepath.Join(s.Dir, "data", "raw")
	if src.Kind != workspace.SourceFile || src.ResolvedPath != wantPath || src.Path != "../data/raw/" || src.Format != "JSONL" || !src.AsStream {
		t.Errorf("legacy source: %+v (want resolved %s)", src, wantPath)
	}
	if !src.SkipChangeCommits() || src.ReaderKwargs["startingVersion"] != int64(3) {
		t.Errorf("reader_kwargs: %v", src.ReaderKwargs)
	}
	if !reflect.DeepEqual(src.Selects, []workspace.Rename{{"a", "alpha"}, {"b", "beta"}}) || !reflect.DeepEqual(src.Renames, []workspace.Rename{{"alpha", "a2"}}) ||
		!reflect.DeepEqual(src.Drops, []string{"c"}) || !src.DropDuplicates || !reflect.DeepEqual(src.DropDuplicatesOn, []string{"a"}) || src.Filter != "x > 1" {
		t.Errorf("source options: %+v", src)
	}
	if len(n.Transformer) != 3 || !n.Transformer[0].IsSQL() || n.Transformer[1].FuncName != "with_columns" {
		t.Fatalf("transformer: %+v", n.Transformer)
	}
	kw := n.Transformer[1].FuncKwargs
	if len(kw) != 2 || kw[0].Name != "y" || kw[0].Value != "x * 2" || kw[1].Name != "z" || kw[1].Value != "ROUND(x)" {
		t.Errorf("func_kwargs (ordered, {value:} unwrapped): %+v", kw)
	}
	if got := n.NodeRefs; len(got) != 2 || got[0].Name != "ref" || got[1].Name != "ref" {
		t.Errorf("node refs: %+v", got)
	}
	if got := n.SourceRefs; len(got) != 1 || got[0].Name != "other" {
		t.Errorf("source refs: %+v", got)
	}
	e := n.Expectations[0]
	if e.Name != "positive" || e.Action != "DROP" || e.Type != "ROW" || e.ToleranceAbs == nil || *e.ToleranceAbs != 3 {
		t.Errorf("expectation: %+v", e)
	}
	f := n.Flow
	if f == nil || f.Name != "custom" || !f.Once || f.ImportCheckpoint != "/ckpt" || f.Kind != workspace.FlowAppend || f.SparkConf["a"] != "1" {
		t.Errorf("flow: %+v", f)
	}
	t0 := n.Sinks[0]
	if t0.Kind != workspace.SinkTable || t0.TableRef.String() != "cat.sch.events" || t0.EffectiveFormat() != "DELTA" || t0.ResetMode != "DROP" ||
		t0.Metadata.Comment != "Events" || t0.Metadata.Properties["delta.appendOnly"] != "true" {
		t.Errorf("table sink: %+v", t0)
	}
	if got := t0.PartitionBy(); !reflect.DeepEqual(got, []string{"_laktory_writer"}) {
		t.Errorf("partitionBy: %v", got)
	}
	if t0.Schema == nil || !reflect.DeepEqual(columnTypes(t0.Schema.Columns), []string{"id int true", "name string false"}) {
		t.Errorf("schema: %+v", t0.Schema)
	}
	if want := workspace.TableID(filepath.Join(s.Dir, ".laktory", "lake", "cat", "sch", "events")); t0.Table != want {
		t.Errorf("table id %s, want %s", t0.Table, want)
	}
	q := n.Sinks[1]
	if !q.IsQuarantine || q.Shared == nil || q.Shared.EffectiveWriterID("pl-full", "brz") != "q1" || q.Shared.EffectiveColumn() != workspace.DefaultWriterColumn {
		t.Errorf("quarantine sink: %+v", q)
	}
	if n.PrimarySink() != t0 {
		t.Error("primary sink is the first non-quarantine sink")
	}
	fe := n.Sinks[2]
	if fe.Kind != workspace.SinkForEach || fe.ForEach.Name != "hook" || fe.ForEach.HTTP.Method != "POST" || fe.ForEach.HTTP.Timeout != 2500*time.Millisecond ||
		!reflect.DeepEqual(fe.ForEach.HTTP.URLColumns, []string{"id", "name"}) || fe.ForEach.HTTP.Headers["Authorization"] != "token" {
		t.Errorf("foreach: %+v %+v", fe.ForEach, fe.ForEach.HTTP)
	}
	if got := n.FlowName(t0); got != "custom" {
		t.Errorf("flow name %q", got)
	}
	if got := p.Node("brz2").FlowName(t0); got != "events__brz2" {
		t.Errorf("default flow name %q", got)
	}
	// Positions: field values, in the file that declares them.
	if at := t0.At("mode"); at.Line != 44 || at.Col != 11 || filepath.Base(at.File) != "pl.yaml" {
		t.Errorf("mode position %v", at)
	}
}

func TestDAG(t *testing.T) {
	s := workspacetest.Load(t, map[string]string{"pl.yaml": fullPipeline}, workspace.Options{})
	d := s.Pipeline("pl-full").DAG
	// brz reads {nodes.ref}; ref depends_on brz2; brz2 reads ref: a cycle.
	if d.Cycle == nil || d.Order != nil {
		t.Fatalf("cycle not found: %+v", d)
	}
	if d.Cycle[0] != d.Cycle[len(d.Cycle)-1] || len(d.Cycle) != 3 {
		t.Errorf("cycle %v", d.Cycle)
	}

	s = workspacetest.Load(t, map[string]string{"pl.yaml": `
name: pl
nodes:
- name: c
  sources: [{node_name: a}, {node_name: b}]
- name: b
  depends_on: [a]
- name: a
- name: d
  sources: [{node_name: nope}]
- name: a
`}, workspace.Options{})
	d = s.Pipeline("pl").DAG
	if want := []string{"a", "d", "b", "c"}; !reflect.DeepEqual(d.Order, want) {
		t.Errorf("order %v, want %v (generations, declaration order within)", d.Order, want)
	}
	// networkx's topological_sort (Laktory's sorted_node_names) takes a
	// generation's nodes by their parent in the generation before, then in
	// declaration order: a, b, d, c here (checked with networkx 3.6.1), not
	// a, b, c, d.
	gen := workspacetest.Load(t, map[string]string{"pl.yaml": `
name: pl
nodes:
- name: a
- name: b
- name: c
  depends_on: [b]
- name: d
  depends_on: [a]
`}, workspace.Options{}).Pipeline("pl").DAG
	if want := []string{"a", "b", "d", "c"}; !reflect.DeepEqual(gen.Order, want) {
		t.Errorf("order %v, want %v (networkx's generations)", gen.Order, want)
	}
	if len(d.Unknown) != 1 || d.Unknown[0].From != "nope" || d.Unknown[0].Kind != workspace.EdgeNodeSource {
		t.Errorf("unknown: %+v", d.Unknown)
	}
	if !reflect.DeepEqual(d.Duplicates, []string{"a"}) {
		t.Errorf("duplicates %v", d.Duplicates)
	}
	if !reflect.DeepEqual(d.Upstream("c"), []string{"a", "b"}) || !reflect.DeepEqual(d.Downstream("a"), []string{"c", "b"}) {
		t.Errorf("upstream %v downstream %v", d.Upstream("c"), d.Downstream("a"))
	}
}

// columnTypes are a schema's columns as "name type nullable", with the
// dtype's name as written (Column.DType) equal to the type.
func columnTypes(cols []workspace.Column) []string {
	var out []string
	for _, c := range cols {
		if c.DType == nil || c.DType.Name != c.Type {
			out = append(out, fmt.Sprintf("%s: dtype %+v", c.Name, c.DType))
			continue
		}
		out = append(out, fmt.Sprintf("%s %s %t", c.Name, c.Type, c.Nullable))
	}
	return out
}
