package workspace_test

import (
	"context"
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"testing"

	"github.com/laktory/workbench/workspace"
	"github.com/laktory/workbench/workspace/workspacetest"
)

func TestLoadDiagnostics(t *testing.T) {
	tests := []struct {
		name  string
		files map[string]string
		opts  workspace.Options
		want  []workspacetest.Want
	}{
		{name: "valid", files: map[string]string{"pl.yaml": `
name: pl
nodes:
- name: a
  sources:
  - path: data/
    format: CSV
  sinks:
  - table_name: t
    mode: APPEND
`}},
		{name: "yaml syntax error", files: map[string]string{"pl.yaml": "name: pl\nnodes:\n- name: a\n  sinks: [\n"},
			want: []workspacetest.Want{workspacetest.D("pl.yaml", 4, 1, workspace.CodeYAMLSyntax, "YAML syntax error: did not find expected node content")}},
		{name: "unknown key with suggestion", files: map[string]string{"pl.yaml": `
name: pl
nodes:
- name: a
  sinks:
  - table_name: t
    moed: APPEND
`}, want: []workspacetest.Want{workspacetest.D("pl.yaml", 7, 5, workspace.CodeUnknownKey, "did you mean `mode`?")}},
		{name: "unknown shared option", files: map[string]string{"pl.yaml": `
name: pl
nodes:
- name: a
  sinks:
  - table_name: t
    mode: APPEND
    shared: {owner: pipeline}
`}, want: []workspacetest.Want{workspacetest.D("pl.yaml", 8, 14, workspace.CodeUnknownKey, "unknown key `owner` in `shared`")}},
		{name: "wrong type", files: map[string]string{"pl.yaml": `
name: pl
nodes:
- name: a
  tags: feeds
`}, want: []workspacetest.Want{workspacetest.D("pl.yaml", 5, 9, workspace.CodeWrongType, "`tags` in node 'a' must be a list, got a string")}},
		{name: "enum with wrong case", files: map[string]string{"pl.yaml": `
name: pl
nodes:
- name: a
  sinks:
  - table_name: t
    mode: append
`}, want: []workspacetest.Want{workspacetest.D("pl.yaml", 7, 11, workspace.CodeBadEnum, "did you mean `APPEND`?")}},
		{name: "enum lists allowed values", files: map[string]string{"pl.yaml": `
name: pl
nodes:
- name: n
  sinks:
  - {path: out, format: DELTA, mode: APPEND, reset_mode: DELETE_WHERE}
`}, want: []workspacetest.Want{workspacetest.D("pl.yaml", 6, 58, workspace.CodeBadEnum, "allowed values: DROP, TRUNCATE")}},
		{name: "reset_mode on a pipeline or a node", files: map[string]string{"pl.yaml": `
name: pl
reset_mode: TRUNCATE
nodes:
- name: n
  reset_mode: DROP
`}, want: []workspacetest.Want{
			workspacetest.D("pl.yaml", 3, 1, workspace.CodeUnknownKey, "Extra inputs are not permitted: unknown key `reset_mode` in pipeline 'pl'; Laktory 0.13.1 has `reset_mode` on sinks only"),
			workspacetest.D("pl.yaml", 6, 3, workspace.CodeUnknownKey, "unknown key `reset_mode` in node 'n'"),
		}},
		{name: "missing node name", files: map[string]string{"pl.yaml": `
name: pl
nodes:
- sinks: []
`}, want: []workspacetest.Want{workspacetest.D("pl.yaml", 4, 3, workspace.CodeMissingField, "needs `name`")}},
		{name: "pre-0.12 orchestrator", files: map[string]string{"pl.yaml": `
name: pl
orchestrator:
  type: DATABRICKS_JOB
nodes: []
`}, want: []workspacetest.Want{
			workspacetest.D("pl.yaml", 4, 9, workspace.CodeRenamed, "Orchestrator type 'DATABRICKS_JOB' was renamed in Laktory 0.12. Update your pipeline YAML: type: LAKEFLOW_JOB"),
			workspacetest.D("pl.yaml", 4, 3, workspace.CodeLaktoryRejects, "To use serverless a `serverless_environment_version` must be specified."),
		}},
		{name: "orchestrator keys and serverless, as Laktory 0.13.1 checks them", files: map[string]string{
			"sdp.yaml":     "name: sdp\norchestrator:\n  type: SPARK_DECLARATIVE_PIPELINE\n  clustr: x\nnodes: []\n",
			"job.yaml":     "name: job\norchestrator:\n  type: LAKEFLOW_JOB\nnodes: []\n",
			"cluster.yaml": "name: cluster\norchestrator:\n  type: LAKEFLOW_JOB\n  job_clusters: [{job_cluster_key: main}]\nnodes: []\n",
			"ok.yaml":      "name: ok\norchestrator:\n  type: LAKEFLOW_JOB\n  job_clusters: [{job_cluster_key: node-cluster}]\nnodes: []\n",
			"env.yaml":     "name: env\norchestrator:\n  type: LAKEFLOW_JOB\n  environments: [{environment_key: laktory, spec: {environment_version: '4'}}]\nnodes: []\n",
		}, want: []workspacetest.Want{
			workspacetest.D("cluster.yaml", 3, 3, workspace.CodeLaktoryRejects, "To use LAKEFLOW_JOB orchestrator, a cluster named `node-cluster` must be defined"),
			workspacetest.D("job.yaml", 3, 3, workspace.CodeLaktoryRejects, "To use serverless a `serverless_environment_version` must be specified."),
			workspacetest.D("sdp.yaml", 4, 3, workspace.CodeLaktoryRejects, "Extra inputs are not permitted: Laktory 0.13.1 rejects the key `clustr` in a SPARK_DECLARATIVE_PIPELINE orchestrator"),
		}},
		{name: "YAML 1.1 booleans: an unquoted on key", files: map[string]string{"pl.yaml": `
name: pl
nodes:
- name: a
  transformer:
    nodes:
    - func_name: join
      func_kwargs: {other: "{nodes.b}", on: id, "off": x}
`}, want: []workspacetest.Want{
			workspacetest.D("pl.yaml", 8, 41, workspace.CodeWrongType, "Input should be a valid string: YAML 1.1 (PyYAML, Laktory's loader) reads the unquoted key `on` as the boolean true"),
		}},
		{name: "a resources file without a name is not a stack (a Databricks bundle)", files: map[string]string{
			"resources/job.yml": "resources:\n  jobs:\n    j: {name: j}\n",
		}},
		{name: "dlt_template renamed", files: map[string]string{"pl.yaml": `
name: pl
nodes:
- name: a
  dlt_template: DEFAULT
`}, want: []workspacetest.Want{workspacetest.D("pl.yaml", 5, 3, workspace.CodeRenamed, "'dlt_template' was renamed to 'ldp_template' in v0.12")}},
		{name: "duplicate key", files: map[string]string{"pl.yaml": `
name: pl
nodes: []
name: pl2
`}, want: []workspacetest.Want{workspacetest.D("pl.yaml", 4, 1, workspace.CodeDuplicateKey, "key `name` is declared twice")}},
		{name: "source and sources", files: map[string]string{"pl.yaml": `
name: pl
nodes:
- name: a
  source: {path: x, format: CSV}
  sources: [{path: y, format: CSV}]
`}, want: []workspacetest.Want{workspacetest.D("pl.yaml", 5, 3, workspace.CodeConflictingKeys, "both `source` (legacy) and `sources`")}},
		{name: "ambiguous sink", files: map[string]string{"pl.yaml": `
name: pl
nodes:
- name: a
  sinks:
  - path: out/
    table_name: t
    format: DELTA
`}, want: []workspacetest.Want{workspacetest.D("pl.yaml", 6, 5, workspace.CodeAmbiguousKind, "sets `path` and `table_name`")}},
		{name: "sink without kind", files: map[string]string{"pl.yaml": `
name: pl
nodes:
- name: a
  sinks:
  - mode: APPEND
`}, want: []workspacetest.Want{workspacetest.D("pl.yaml", 6, 5, workspace.CodeMissingField, "has no type")}},
		{name: "where with writer_id", files: map[string]string{"pl.yaml": `
name: pl
nodes:
- name: a
  sinks:
  - table_name: t
    mode: APPEND
    shared:
      where: client_id = 1
      writer_id: x
`}, want: []workspacetest.Want{workspacetest.D("pl.yaml", 10, 18, workspace.CodeConflictingKeys, "`writer_id` and `column` can't be set with it")}},
		{name: "unknown format warns with PySpark", files: map[string]string{"pl.yaml": `
name: pl
nodes:
- name: a
  sources:
  - path: x
    format: FOO
`}, want: []workspacetest.Want{workspacetest.D("pl.yaml", 7, 13, workspace.CodeBadEnum, "allowed values: AVRO")}},
		{name: "streaming with Polars", files: map[string]string{"pl.yaml": `
name: pl
dataframe_backend: POLARS
nodes:
- name: a
  sources:
  - path: x
    format: IPC
    as_stream: true
`}, want: []workspacetest.Want{workspacetest.D("pl.yaml", 9, 16, workspace.CodeUnsupportedValue, "Streaming read is not supported with Polars Backend.")}},
		{name: "flow and foreach values", files: map[string]string{"pl.yaml": `
name: pl
nodes:
- name: a
  flow: {kind: upsert}
  sinks:
  - foreach:
      http: {url: "http://x/{id}", timeout: soon}
`}, want: []workspacetest.Want{
			workspacetest.D("pl.yaml", 5, 3, workspace.CodeExtension, "workbench extension: Laktory 0.13.1 rejects `flow`"),
			workspacetest.D("pl.yaml", 5, 16, workspace.CodeBadEnum, "allowed values: append, update"),
			workspacetest.D("pl.yaml", 7, 5, workspace.CodeExtension, "workbench extension: Laktory 0.13.1 rejects `foreach`"),
			workspacetest.D("pl.yaml", 8, 45, workspace.CodeWrongType, "seconds"),
		}},
		{name: "variables: unresolved and expressions", files: map[string]string{"pl.yaml": `
name: pl
nodes:
- name: a
  comment: ${vars.nope}
  tags: ["${{ 1 + 1 }}"]
`}, want: []workspacetest.Want{
			workspacetest.D("pl.yaml", 5, 12, workspace.CodeUnresolvedVar, "variable `nope` is not defined"),
			workspacetest.D("pl.yaml", 6, 10, workspace.CodeExpression, "not evaluated"),
		}},
		{name: "duplicate pipeline names", files: map[string]string{
			"a.yaml": "name: pl\nnodes: []\n",
			"b.yaml": "name: pl\nnodes: []\n",
		}, want: []workspacetest.Want{workspacetest.D("b.yaml", 1, 7, workspace.CodeDuplicatePipe, "also declared in a.yaml")}},
		{name: "unknown stack environment", opts: workspace.Options{Env: "prd"}, files: map[string]string{"stack.yaml": `
name: st
environments:
  dev: {}
  prod: {}
`}, want: []workspacetest.Want{workspacetest.D("stack.yaml", 4, 3, workspace.CodeStackEnv, "environments: dev, prod")}},
		{name: "non-pipeline YAML is ignored", files: map[string]string{"config.yaml": "foo: bar\n", "list.yml": "- 1\n"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s := workspacetest.Load(t, tt.files, tt.opts)
			workspacetest.Expect(t, s, s.Diagnostics, tt.want)
		})
	}
}

func TestBrokenFileDoesNotStopTheLoad(t *testing.T) {
	s := workspacetest.Load(t, map[string]string{
		"broken.yaml": "name: broken\nnodes: [\n",
		"ok.yaml":     "name: ok\nnodes:\n- name: a\n",
		"bad.yaml":    "name: bad\nnodes:\n- name: a\n  sinks: 3\n- name: b\n  tags: [x]\n",
	}, workspace.Options{})
	if got := len(s.Pipelines); got != 2 {
		t.Fatalf("pipelines = %d, want ok and bad", got)
	}
	bad := s.Pipeline("bad")
	if bad == nil || len(bad.Nodes) != 2 || bad.Nodes[1].Tags[0] != "x" {
		t.Fatalf("the rest of a file with a wrong value must load: %+v", bad)
	}
	if !workspace.HasErrors(s.Diagnostics) {
		t.Fatal("expected diagnostics")
	}
}

func TestLoadErrors(t *testing.T) {
	dir := t.TempDir()
	if _, err := workspace.Load(context.Background(), filepath.Join(dir, "missing"), workspace.Options{}); !errors.Is(err, fs.ErrNotExist) {
		t.Fatalf("missing folder: %v", err)
	}
	f := filepath.Join(dir, "f.yaml")
	os.WriteFile(f, nil, 0o644)
	if _, err := workspace.Load(context.Background(), f, workspace.Options{}); !errors.Is(err, workspace.ErrNotDir) {
		t.Fatalf("file: %v", err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := workspace.Load(ctx, dir, workspace.Options{}); !errors.Is(err, context.Canceled) {
		t.Fatalf("cancelled: %v", err)
	}
}
