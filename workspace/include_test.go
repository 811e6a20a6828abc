package workspace_test

import (
	"context"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/laktory/workbench/workspace"
	"github.com/laktory/workbench/workspace/workspacetest"
)

func TestIncludes(t *testing.T) {
	s := workspacetest.Load(t, map[string]string{
		"pipelines/pl.yaml": `
name: pl
variables:
  part: common
nodes:
- !use nodes/a.yaml
- !extend nodes/more.yaml
- name: c
  <<: !update nodes/${vars.part}.yaml
  transformer:
    nodes:
    - expr: !use sql/c.sql
`,
		"pipelines/nodes/a.yaml":      "name: a\nsinks:\n- table_name: ta\n  mode: APPEND\n",
		"pipelines/nodes/more.yaml":   "- name: b1\n- name: b2\n  moed: x\n",
		"pipelines/nodes/common.yaml": "tags: [shared]\ncomment: from common\n",
		"pipelines/sql/c.sql":         "SELECT *\nFROM {df}\n",
	}, workspace.Options{})
	p := s.Pipeline("pl")
	if p == nil {
		t.Fatalf("not loaded: %v", s.Diagnostics)
	}
	var names []string
	for _, n := range p.Nodes {
		names = append(names, n.Name)
	}
	if !reflect.DeepEqual(names, []string{"a", "b1", "b2", "c"}) {
		t.Fatalf("nodes %v", names)
	}
	c := p.Node("c")
	if !reflect.DeepEqual(c.Tags, []string{"shared"}) || c.Comment != "from common" || c.Transformer[0].Expr != "SELECT *\nFROM {df}\n" {
		t.Errorf("!update / !use sql: %+v %q", c, c.Transformer[0].Expr)
	}
	// A diagnostic in an included file points into that file.
	workspacetest.Expect(t, s, s.Diagnostics, []workspacetest.Want{workspacetest.D("pipelines/nodes/more.yaml", 3, 3, workspace.CodeUnknownKey, "unknown key `moed` in node 'b2'")})
	// Included files are not pipelines of their own, and are dependencies.
	if len(s.Pipelines) != 1 {
		t.Errorf("pipelines %d", len(s.Pipelines))
	}
	deps := s.Deps(filepath.Join(s.Dir, "pipelines", "pl.yaml"))
	if len(deps) != 4 {
		t.Errorf("deps %v", deps)
	}
	// A position inside an included .sql file.
	at := c.Transformer[0].At("expr")
	if got := s.PosInValue(at, len("SELECT *\nFR")); got.Line != 2 || got.Col != 3 || filepath.Base(got.File) != "c.sql" {
		t.Errorf("position in sql %v", got)
	}
}

func TestIncludeFolderAndErrors(t *testing.T) {
	tests := []struct {
		name  string
		files map[string]string
		want  []workspacetest.Want
		nodes int
	}{
		{name: "folder", nodes: 2, files: map[string]string{
			"pl.yaml":       "name: pl\nnodes: !use nodes\n",
			"nodes/a.yaml":  "name: a\n",
			"nodes/b.yml":   "name: b\n",
			"nodes/x.txt":   "ignored",
			"nodes/sub/.gi": "",
		}},
		{name: "missing target", files: map[string]string{"pl.yaml": "name: pl\nnodes:\n- !use nope.yaml\n"},
			want: []workspacetest.Want{workspacetest.D("pl.yaml", 3, 3, workspace.CodeInclude, "!use target not found: nope.yaml")}},
		{name: "circular", files: map[string]string{
			"pl.yaml": "name: pl\nnodes: !use a.yaml\n",
			"a.yaml":  "- name: a\n- !extend pl.yaml\n",
		}, nodes: 1, want: []workspacetest.Want{workspacetest.D("a.yaml", 2, 3, workspace.CodeInclude, "circular !extend reference")}},
		{name: "extend needs a list", files: map[string]string{
			"pl.yaml": "name: pl\nnodes:\n- !extend a.yaml\n",
			"a.yaml":  "name: a\n",
		}, want: []workspacetest.Want{workspacetest.D("pl.yaml", 3, 3, workspace.CodeInclude, "expected a list in a.yaml, but got a mapping")}},
		{name: "unresolved include variable", files: map[string]string{"pl.yaml": "name: pl\nnodes: !use ${vars.x}.yaml\n"},
			want: []workspacetest.Want{workspacetest.D("pl.yaml", 2, 8, workspace.CodeInclude, "could not be resolved")}},
		{name: "syntax error in an included file", files: map[string]string{
			"pl.yaml": "name: pl\nnodes: !use n.yaml\n",
			"n.yaml":  "- name: [\n",
		}, want: []workspacetest.Want{workspacetest.D("n.yaml", 1, 1, workspace.CodeYAMLSyntax, "YAML syntax error")}},
		{name: "yaml merge keys and flow references", nodes: 2, files: map[string]string{"pl.yaml": `
name: pl
nodes:
- &base
  name: a
  tags: [t]
- <<: *base
  name: b
  transformer:
    nodes:
    - func_name: union
      func_args: [{nodes.a}]
`}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s := workspacetest.Load(t, tt.files, workspace.Options{})
			workspacetest.Expect(t, s, s.Diagnostics, tt.want)
			if p := s.Pipeline("pl"); p == nil || len(p.Nodes) != tt.nodes {
				t.Fatalf("pipeline: %+v", p)
			}
		})
	}
	s := workspacetest.Load(t, tests[len(tests)-1].files, workspace.Options{})
	b := s.Pipeline("pl").Node("b")
	if !reflect.DeepEqual(b.Tags, []string{"t"}) || len(b.NodeRefs) != 1 || b.NodeRefs[0].Name != "a" || b.Transformer[0].FuncArgs[0].Value != "{nodes.a}" {
		t.Errorf("merge key / {nodes.a} flow mapping: %+v %+v", b, b.Transformer[0].FuncArgs)
	}
}

func TestVariables(t *testing.T) {
	files := map[string]string{"pl.yaml": `
name: pl
variables:
  env: dev
  landing: /data/${vars.env}
  sink: {table_name: t, mode: APPEND}
  stream: true
nodes:
- name: a
  variables: {env: prd}
  comment: ${var.ENV}-${vars.user}
  sources:
  - path: ${vars.landing}/a
    format: CSV
    as_stream: ${vars.stream}
  sinks:
  - ${vars.sink}
- name: b
  comment: ${vars.env}
`}
	s := workspacetest.Load(t, files, workspace.Options{Getenv: workspacetest.Env(map[string]string{"USER": "ana"})})
	workspacetest.Expect(t, s, s.Diagnostics, nil)
	p := s.Pipeline("pl")
	a, b := p.Node("a"), p.Node("b")
	if a.Comment != "prd-ana" || b.Comment != "dev" {
		t.Errorf("node variables win over pipeline ones, then the environment: %q %q", a.Comment, b.Comment)
	}
	if a.Sources[0].Path != "/data/prd/a" || !a.Sources[0].AsStream {
		t.Errorf("nested and typed variables: %+v", a.Sources[0])
	}
	if len(a.Sinks) != 1 || a.Sinks[0].TableName != "t" || a.Sinks[0].Mode != "APPEND" {
		t.Errorf("a variable holding a mapping: %+v", a.Sinks)
	}
	if p.Variables["stream"] != true {
		t.Errorf("variables %v", p.Variables)
	}
	// Without the environment variable: a warning, the value kept.
	s = workspacetest.Load(t, files, workspace.Options{})
	workspacetest.Expect(t, s, s.Diagnostics, []workspacetest.Want{workspacetest.D("pl.yaml", 11, 12, workspace.CodeUnresolvedVar, "variable `user` is not defined")})
}

func TestStack(t *testing.T) {
	files := map[string]string{
		"stack.yaml": `
name: my-stack
variables:
  catalog: dev
resources:
  pipelines:
    pl-a: !use pipelines/pl-a.yaml
    pl-b:
      name: pl-b
      nodes:
      - name: b
        sinks: [{table_name: "${vars.catalog}.s.t", mode: APPEND}]
  databricks_jobs: {}
environments:
  dev:
    variables: {catalog: dev_cat}
  prod:
    variables: {catalog: prod_cat}
    resources:
      pipelines:
        pl-b:
          orchestrator: {type: LAKEFLOW_JOB}
`,
		"pipelines/pl-a.yaml": "name: pl-a\nnodes:\n- name: a\n  comment: ${vars.env}\n",
	}
	s := workspacetest.Load(t, files, workspace.Options{})
	workspacetest.Expect(t, s, s.Diagnostics, nil)
	if s.Env != "dev" || !reflect.DeepEqual(s.Envs, []string{"dev", "prod"}) {
		t.Errorf("default environment: %q %v", s.Env, s.Envs)
	}
	if len(s.Pipelines) != 2 {
		t.Fatalf("pipelines: %d (an included pipeline file must not load twice)", len(s.Pipelines))
	}
	b := s.Pipeline("pl-b")
	if b.StackKey != "pl-b" || b.Orchestrator != "" || b.Nodes[0].Sinks[0].TableRef.Catalog != "dev_cat" {
		t.Errorf("dev: %+v", b)
	}
	if got := s.Pipeline("pl-a").Nodes[0].Comment; got != "dev" {
		t.Errorf("${vars.env} = %q", got)
	}
	s = workspacetest.Load(t, files, workspace.Options{Env: "prod"})
	b = s.Pipeline("pl-b")
	if s.Env != "prod" || b.Orchestrator != workspace.OrchestratorLakeflowJob || b.Nodes[0].Sinks[0].TableRef.Catalog != "prod_cat" || len(b.Nodes) != 1 {
		t.Errorf("prod: env %q %+v", s.Env, b)
	}
	s = workspacetest.Load(t, map[string]string{"stack.yaml": "name: s\nresources:\n  pipeline: {}\n"}, workspace.Options{})
	workspacetest.Expect(t, s, s.Diagnostics, []workspacetest.Want{workspacetest.D("stack.yaml", 3, 3, workspace.CodeUnknownKey, "did you mean `pipelines`?")})
}

func TestPosInValue(t *testing.T) {
	content := "a: x = 1\nb: \"y = 2\"\nc: |\n  SELECT 1\n  FROM t\nd: ${vars.x}\n"
	dir := t.TempDir()
	workspacetest.Write(t, dir, map[string]string{"f.yaml": content})
	s := workspacetest.LoadDir(t, dir, workspace.Options{})
	f := filepath.Join(dir, "f.yaml")
	tests := []struct {
		name      string
		line, col int
		off       int
		wantLine  int
		wantCol   int
	}{
		{"plain", 1, 4, 4, 1, 8},
		{"quoted", 2, 4, 4, 2, 9},
		{"block", 3, 4, len("SELECT 1\nFR"), 5, 5},
		{"variable", 6, 4, 3, 6, 4},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := s.PosInValue(workspace.Pos{File: f, Line: tt.line, Col: tt.col}, tt.off)
			if got.Line != tt.wantLine || got.Col != tt.wantCol || got.File != f {
				t.Fatalf("got %v, want %d:%d", got, tt.wantLine, tt.wantCol)
			}
		})
	}
}

// TestStackResourceVariables: variables of `resources` (Laktory's workflows
// quickstart) apply to its pipelines, and ${vars.x} falls back to Laktory's
// settings (workspace_root) without a "not defined" warning.
func TestStackResourceVariables(t *testing.T) {
	s := workspacetest.Load(t, map[string]string{"stack.yaml": `
name: s
resources:
  variables:
    wheel: /Workspace${vars.workspace_root}wheels/lake.whl
  pipelines:
    pl:
      name: pl
      nodes:
      - name: a
        comment: ${vars.wheel}
`}, workspace.Options{})
	workspacetest.Expect(t, s, s.Diagnostics, nil)
	if got := s.Pipeline("pl").Nodes[0].Comment; got != "/Workspace/.laktory/wheels/lake.whl" {
		t.Errorf("comment %q", got)
	}
	s = workspacetest.Load(t, map[string]string{"pl.yaml": "name: pl\nnodes:\n- name: a\n  comment: ${vars.workspace_root}\n"},
		workspace.Options{Getenv: workspacetest.Env(map[string]string{"LAKTORY_WORKSPACE_ROOT": "/Shared/"})})
	if got := s.Pipeline("pl").Nodes[0].Comment; got != "/Shared/" {
		t.Errorf("LAKTORY_WORKSPACE_ROOT: %q", got)
	}
}

// TestParameters: ${params.x} takes the run's value (Options.Params), else
// the default; a required parameter without a value stays as written and
// is reported missing; parameters outside nodes and reserved names are
// Laktory's errors.
func TestParameters(t *testing.T) {
	files := map[string]string{"pl.yaml": `
name: pl
parameters:
  client:
  region: {default: eu}
nodes:
- name: a
  comment: ${params.client}-${params.region}
`}
	s := workspacetest.Load(t, files, workspace.Options{})
	workspacetest.Expect(t, s, s.Diagnostics, nil)
	p := s.Pipeline("pl")
	if got := p.Nodes[0].Comment; got != "${params.client}-eu" {
		t.Errorf("defaults: %q", got)
	}
	if got := p.MissingParameters(); !reflect.DeepEqual(got, []string{"client"}) {
		t.Errorf("missing %v", got)
	}
	s = workspacetest.Load(t, files, workspace.Options{Params: map[string]string{"client": "acme", "region": "us"}})
	if p := s.Pipeline("pl"); p.Nodes[0].Comment != "acme-us" || len(p.MissingParameters()) != 0 {
		t.Errorf("run values: %q %v", p.Nodes[0].Comment, p.MissingParameters())
	}
	// WithParams: the same workspace again with a run's values, on top of
	// the snapshot's own.
	w, err := workspace.WithParams(context.Background(), workspacetest.Load(t, files, workspace.Options{Params: map[string]string{"region": "us"}}),
		map[string]string{"client": "globex"})
	if err != nil {
		t.Fatal(err)
	}
	if p := w.Pipeline("pl"); p.Nodes[0].Comment != "globex-us" || len(p.MissingParameters()) != 0 {
		t.Errorf("WithParams: %q %v", p.Nodes[0].Comment, p.MissingParameters())
	}
	s = workspacetest.Load(t, map[string]string{"pl.yaml": `
name: pl
parameters: {refresh: {}, client: {}}
root_path: ./${params.client}
dependencies: ["x==${params.client}"]
nodes:
- name: a_${params.client}
`}, workspace.Options{})
	workspacetest.Expect(t, s, s.Diagnostics, []workspacetest.Want{
		workspacetest.D("pl.yaml", 3, 14, workspace.CodeParameter, "Parameter name 'refresh' is reserved."),
		workspacetest.D("pl.yaml", 5, 16, workspace.CodeParameter, "Parameters ['client'] of pipeline 'pl' are used outside of the pipeline nodes."),
		workspacetest.D("pl.yaml", 7, 9, workspace.CodeParameter, "Nodes ['a_${params.client}'] of pipeline 'pl' use parameters in their name."),
	})
}

// TestParameterValuesLiteral: a parameter's value is literal text,
// substituted once (Laktory resolves parameters after the variables): a
// ${vars.x} in a --param value stays as written, a value that names a
// parameter (itself, ten times over, in a default or a --param) is refused
// instead of growing, a large value referenced many times stops at the
// expansion bound, and an empty --param is refused (Laktory would silently
// use the default).
func TestParameterValuesLiteral(t *testing.T) {
	env := workspacetest.Env(map[string]string{"HOME": "/root/secret"})
	pipeline := func(def string) map[string]string {
		return map[string]string{"pl.yaml": "name: pl\nvariables:\n  v: from-var\nparameters:\n  own: {default: \"" + def + "\"}\nnodes:\n- name: a\n  comment: \"${vars.v} ${params.own}\"\n"}
	}
	s := workspacetest.Load(t, pipeline("c = 1"), workspace.Options{Getenv: env, Params: map[string]string{"own": "${vars.HOME} and ${vars.v}"}})
	workspacetest.Expect(t, s, s.Diagnostics, nil)
	if got := s.Pipeline("pl").Nodes[0].Comment; got != "from-var ${vars.HOME} and ${vars.v}" {
		t.Errorf("a --param value is literal text: %q", got)
	}
	self := strings.Repeat("${params.own}", 10)
	s = workspacetest.Load(t, pipeline(self), workspace.Options{})
	workspacetest.Expect(t, s, s.Diagnostics, []workspacetest.Want{
		workspacetest.D("pl.yaml", 5, 3, workspace.CodeParameter, "the value of parameter 'own' refers to a parameter (${params.own})"),
	})
	s = workspacetest.Load(t, pipeline("c = 1"), workspace.Options{Params: map[string]string{"own": self}})
	workspacetest.Expect(t, s, s.Diagnostics, []workspacetest.Want{
		workspacetest.D("pl.yaml", 5, 3, workspace.CodeParameter, "refers to a parameter"),
	})
	s = workspacetest.Load(t, pipeline("c = 1"), workspace.Options{Params: map[string]string{"own": ""}})
	workspacetest.Expect(t, s, s.Diagnostics, []workspacetest.Want{
		workspacetest.D("pl.yaml", 5, 3, workspace.CodeParameter, `--param own= gives parameter 'own' an empty value, which Laktory 0.13.1 replaces with its default ("c = 1")`),
	})
	// The refusal is the only diagnostic: the nodes decode with the
	// default (no ${params.own} left in their text for a later rule to
	// trip on), and the parameter is not reported again as required.
	if got := s.Pipeline("pl").Nodes[0].Comment; got != "from-var c = 1" {
		t.Errorf("an empty --param decodes the nodes with the default: %q", got)
	}
	if got := s.Pipeline("pl").MissingParameters(); len(got) != 0 {
		t.Errorf("an empty --param already refused is not also missing: %v", got)
	}
	required := map[string]string{"pl.yaml": "name: pl\nparameters:\n  own: {}\nnodes:\n- name: a\n  comment: \"${params.own}\"\n"}
	s = workspacetest.Load(t, required, workspace.Options{Params: map[string]string{"own": ""}})
	workspacetest.Expect(t, s, s.Diagnostics, []workspacetest.Want{
		workspacetest.D("pl.yaml", 3, 3, workspace.CodeParameter, "--param own= gives parameter 'own' an empty value, which Laktory 0.13.1 replaces with its default (none"),
	})
	if got := s.Pipeline("pl").MissingParameters(); len(got) != 0 {
		t.Errorf("a required parameter given empty is refused once, not also missing: %v", got)
	}
	// 64 references to a 64 KiB value: 4 MiB, over the bound of a value.
	wide := map[string]string{"pl.yaml": "name: pl\nparameters:\n  own: {}\nnodes:\n- name: a\n  comment: \"" + strings.Repeat("${params.own}", 64) + "\"\n"}
	s = workspacetest.Load(t, wide, workspace.Options{Params: map[string]string{"own": strings.Repeat("x", 64<<10)}})
	workspacetest.Expect(t, s, s.Diagnostics, []workspacetest.Want{
		workspacetest.D("pl.yaml", 6, 12, workspace.CodeExpansion, "with its parameters' values"),
	})
	if got := len(s.Pipeline("pl").Nodes[0].Comment); got != 0 {
		t.Errorf("the value over the bound is dropped, got %d bytes", got)
	}
}
