package workspace

import (
	"context"
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"testing"
)

func TestLoadDiagnostics(t *testing.T) {
	tests := []struct {
		name  string
		files map[string]string
		opts  Options
		want  []want
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
			want: []want{{"pl.yaml", 4, 1, CodeYAMLSyntax, "YAML syntax error: did not find expected node content"}}},
		{name: "unknown key with suggestion", files: map[string]string{"pl.yaml": `
name: pl
nodes:
- name: a
  sinks:
  - table_name: t
    moed: APPEND
`}, want: []want{{"pl.yaml", 7, 5, CodeUnknownKey, "did you mean `mode`?"}}},
		{name: "unknown shared option", files: map[string]string{"pl.yaml": `
name: pl
nodes:
- name: a
  sinks:
  - table_name: t
    mode: APPEND
    shared: {owner: pipeline}
`}, want: []want{{"pl.yaml", 8, 14, CodeUnknownKey, "unknown key `owner` in `shared`"}}},
		{name: "wrong type", files: map[string]string{"pl.yaml": `
name: pl
nodes:
- name: a
  tags: feeds
`}, want: []want{{"pl.yaml", 5, 9, CodeWrongType, "`tags` in node 'a' must be a list, got a string"}}},
		{name: "enum with wrong case", files: map[string]string{"pl.yaml": `
name: pl
nodes:
- name: a
  sinks:
  - table_name: t
    mode: append
`}, want: []want{{"pl.yaml", 7, 11, CodeBadEnum, "did you mean `APPEND`?"}}},
		{name: "enum lists allowed values", files: map[string]string{"pl.yaml": `
name: pl
reset_mode: DELETE_WHERE
nodes: []
`}, want: []want{{"pl.yaml", 3, 13, CodeBadEnum, "allowed values: DROP, TRUNCATE"}}},
		{name: "missing node name", files: map[string]string{"pl.yaml": `
name: pl
nodes:
- sinks: []
`}, want: []want{{"pl.yaml", 4, 3, CodeMissingField, "needs `name`"}}},
		{name: "pre-0.12 orchestrator", files: map[string]string{"pl.yaml": `
name: pl
orchestrator:
  type: DATABRICKS_JOB
nodes: []
`}, want: []want{{"pl.yaml", 4, 9, CodeRenamed,
			"Orchestrator type 'DATABRICKS_JOB' was renamed in Laktory 0.12. Update your pipeline YAML: type: LAKEFLOW_JOB"}}},
		{name: "dlt_template renamed", files: map[string]string{"pl.yaml": `
name: pl
nodes:
- name: a
  dlt_template: DEFAULT
`}, want: []want{{"pl.yaml", 5, 3, CodeRenamed, "'dlt_template' was renamed to 'ldp_template' in v0.12"}}},
		{name: "duplicate key", files: map[string]string{"pl.yaml": `
name: pl
nodes: []
name: pl2
`}, want: []want{{"pl.yaml", 4, 1, CodeDuplicateKey, "key `name` is declared twice"}}},
		{name: "source and sources", files: map[string]string{"pl.yaml": `
name: pl
nodes:
- name: a
  source: {path: x, format: CSV}
  sources: [{path: y, format: CSV}]
`}, want: []want{{"pl.yaml", 5, 3, CodeConflictingKeys, "both `source` (legacy) and `sources`"}}},
		{name: "ambiguous sink", files: map[string]string{"pl.yaml": `
name: pl
nodes:
- name: a
  sinks:
  - path: out/
    table_name: t
    format: DELTA
`}, want: []want{{"pl.yaml", 6, 5, CodeAmbiguousKind, "sets `path` and `table_name`"}}},
		{name: "sink without kind", files: map[string]string{"pl.yaml": `
name: pl
nodes:
- name: a
  sinks:
  - mode: APPEND
`}, want: []want{{"pl.yaml", 6, 5, CodeMissingField, "has no type"}}},
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
`}, want: []want{{"pl.yaml", 10, 18, CodeConflictingKeys, "`writer_id` and `column` can't be set with it"}}},
		{name: "unknown format warns with PySpark", files: map[string]string{"pl.yaml": `
name: pl
nodes:
- name: a
  sources:
  - path: x
    format: FOO
`}, want: []want{{"pl.yaml", 7, 13, CodeBadEnum, "allowed values: AVRO"}}},
		{name: "streaming with Polars", files: map[string]string{"pl.yaml": `
name: pl
dataframe_backend: POLARS
nodes:
- name: a
  sources:
  - path: x
    format: IPC
    as_stream: true
`}, want: []want{{"pl.yaml", 9, 16, CodeUnsupportedValue, "Streaming read is not supported with Polars Backend."}}},
		{name: "flow and foreach values", files: map[string]string{"pl.yaml": `
name: pl
nodes:
- name: a
  flow: {kind: upsert}
  sinks:
  - foreach:
      http: {url: "http://x/{id}", timeout: soon}
`}, want: []want{
			{"pl.yaml", 5, 16, CodeBadEnum, "allowed values: append, update"},
			{"pl.yaml", 8, 45, CodeWrongType, "seconds"},
		}},
		{name: "variables: unresolved and expressions", files: map[string]string{"pl.yaml": `
name: pl
nodes:
- name: a
  comment: ${vars.nope}
  tags: ["${{ 1 + 1 }}"]
`}, want: []want{
			{"pl.yaml", 5, 12, CodeUnresolvedVar, "variable `nope` is not defined"},
			{"pl.yaml", 6, 10, CodeExpression, "not evaluated"},
		}},
		{name: "duplicate pipeline names", files: map[string]string{
			"a.yaml": "name: pl\nnodes: []\n",
			"b.yaml": "name: pl\nnodes: []\n",
		}, want: []want{{"b.yaml", 1, 7, CodeDuplicatePipe, "also declared in a.yaml"}}},
		{name: "unknown stack environment", opts: Options{Env: "prd"}, files: map[string]string{"stack.yaml": `
name: st
environments:
  dev: {}
  prod: {}
`}, want: []want{{"stack.yaml", 4, 3, CodeStackEnv, "environments: dev, prod"}}},
		{name: "non-pipeline YAML is ignored", files: map[string]string{"config.yaml": "foo: bar\n", "list.yml": "- 1\n"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s := loadFiles(t, tt.files, tt.opts)
			checkDiags(t, s, s.Diagnostics, tt.want)
		})
	}
}

func TestBrokenFileDoesNotStopTheLoad(t *testing.T) {
	s := loadFiles(t, map[string]string{
		"broken.yaml": "name: broken\nnodes: [\n",
		"ok.yaml":     "name: ok\nnodes:\n- name: a\n",
		"bad.yaml":    "name: bad\nnodes:\n- name: a\n  sinks: 3\n- name: b\n  tags: [x]\n",
	}, Options{})
	if got := len(s.Pipelines); got != 2 {
		t.Fatalf("pipelines = %d, want ok and bad", got)
	}
	bad := s.Pipeline("bad")
	if bad == nil || len(bad.Nodes) != 2 || bad.Nodes[1].Tags[0] != "x" {
		t.Fatalf("the rest of a file with a wrong value must load: %+v", bad)
	}
	if !HasErrors(s.Diagnostics) {
		t.Fatal("expected diagnostics")
	}
}

func TestLoadErrors(t *testing.T) {
	dir := t.TempDir()
	if _, err := Load(context.Background(), filepath.Join(dir, "missing"), Options{}); !errors.Is(err, fs.ErrNotExist) {
		t.Fatalf("missing folder: %v", err)
	}
	f := filepath.Join(dir, "f.yaml")
	os.WriteFile(f, nil, 0o644)
	if _, err := Load(context.Background(), f, Options{}); !errors.Is(err, ErrNotDir) {
		t.Fatalf("file: %v", err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := Load(ctx, dir, Options{}); !errors.Is(err, context.Canceled) {
		t.Fatalf("cancelled: %v", err)
	}
}
