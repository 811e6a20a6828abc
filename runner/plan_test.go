package runner

import (
	"errors"
	"fmt"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/laktory/workbench/validate"
	"github.com/laktory/workbench/workspace"
	"github.com/laktory/workbench/workspace/workspacetest"
)

const dagPipeline = `name: pl
nodes:
- name: raw
  tags: [bronze]
  sources:
  - path: ../data/a/
    format: JSONL
  sinks:
  - table_name: raw
    mode: APPEND
- name: clean
  execution_task_name: cleaning
  sources:
  - node_name: raw
  sinks:
  - table_name: clean
    mode: APPEND
- name: gold
  tags: [gold]
  sources:
  - node_name: clean
  sinks:
  - table_name: gold
    mode: APPEND
- name: side
  tags: [bronze]
  sources:
  - path: ../data/a/
    format: JSONL
  sinks:
  - table_name: side
    mode: APPEND
`

func TestSelectors(t *testing.T) {
	w := newWS(t, map[string]string{"pipelines/pl.yaml": dagPipeline, "pipelines/other.yaml": strings.ReplaceAll(strings.Replace(dagPipeline, "name: pl", "name: other", 1), "table_name: ", "table_name: o_"),
		"data/a/1.jsonl": jsonl("a", 0, 1, "")})
	r := testRunner(t)
	snap := w.load()
	cases := []struct {
		req  Request
		want string
	}{
		{Request{Pipelines: []string{"pl"}}, "pl.raw pl.side pl.clean pl.gold"},
		{Request{Pipelines: []string{"pl"}, Selectors: []string{"clean"}}, "pl.clean"},
		{Request{Pipelines: []string{"pl"}, Selectors: []string{"*clean"}}, "pl.raw pl.clean"},
		{Request{Pipelines: []string{"pl"}, Selectors: []string{"clean*"}}, "pl.clean pl.gold"},
		{Request{Pipelines: []string{"pl"}, Selectors: []string{"*clean*"}}, "pl.raw pl.clean pl.gold"},
		{Request{Pipelines: []string{"pl"}, Selectors: []string{"bronze"}}, "pl.raw pl.side"},
		{Request{Pipelines: []string{"pl"}, Selectors: []string{"cleaning", "gold"}}, "pl.clean pl.gold"},
		{Request{Pipelines: []string{"pl"}, Selectors: []string{"node-side"}}, "pl.side"},
		{Request{Selectors: []string{"gold"}}, "other.gold pl.gold"},
		// pipeline.node, as the CLI and the workbench name nodes.
		{Request{Selectors: []string{"pl.gold"}}, "pl.gold"},
		{Request{Selectors: []string{"*other.clean"}}, "other.raw other.clean"},
		{Request{Pipelines: []string{"pl"}, Selectors: []string{"pl.clean*"}}, "pl.clean pl.gold"},
		{Request{}, "other.raw other.side other.clean other.gold pl.raw pl.side pl.clean pl.gold"},
	}
	for _, tc := range cases {
		t.Run(fmt.Sprint(tc.req.Pipelines, tc.req.Selectors), func(t *testing.T) {
			plan, err := r.Plan(t.Context(), snap, tc.req)
			if err != nil {
				t.Fatal(err)
			}
			var keys []string
			for _, tk := range plan.Tasks {
				keys = append(keys, tk.Key)
			}
			if got := strings.Join(keys, " "); got != tc.want {
				t.Fatalf("tasks %q, want %q", got, tc.want)
			}
		})
	}
	plan, _ := r.Plan(t.Context(), snap, Request{Pipelines: []string{"pl"}, Selectors: []string{"*gold"}})
	if deps := plan.Tasks[2].DependsOn; plan.Tasks[2].Key != "pl.gold" || !slices.Equal(deps, []string{"pl.clean"}) {
		t.Fatalf("gold depends on %v", deps)
	}
	pe := planErr(t, r, snap, Request{Pipelines: []string{"pl"}, Selectors: []string{"gould"}})
	if !hasDiag(pe, validate.CodeUnknownNode, "Invalid node, execution_task_name, or tag: gould; did you mean 'gold'?") {
		t.Fatalf("unknown selector: %v", pe)
	}
	pe = planErr(t, r, snap, Request{Selectors: []string{"*pl.glod"}})
	if !hasDiag(pe, validate.CodeUnknownNode, "did you mean '*pl.gold'?") {
		t.Fatalf("unknown pipeline.node: %v", pe)
	}
	// A node of another pipeline than --pipeline's is not selected.
	pe = planErr(t, r, snap, Request{Pipelines: []string{"other"}, Selectors: []string{"pl.gold"}})
	if !hasDiag(pe, validate.CodeUnknownNode, "Invalid node, execution_task_name, or tag: pl.gold") {
		t.Fatalf("pipeline.node outside --pipeline: %v", pe)
	}
	pe = planErr(t, r, snap, Request{Pipelines: []string{"pll"}})
	if !hasDiag(pe, validate.CodeUnknownNode, "did you mean 'pl'") {
		t.Fatalf("unknown pipeline: %v", pe)
	}
}

func TestRunParametersRejected(t *testing.T) {
	w := newWS(t, map[string]string{"pipelines/pl.yaml": dagPipeline, "data/a/1.jsonl": jsonl("a", 0, 1, "")})
	r := testRunner(t)
	snap := w.load()
	cases := []struct {
		req  Request
		code string
	}{
		{Request{Refresh: "SOMETIMES"}, validate.CodeRefreshValue},
		{Request{Refresh: "FULL", ResetMode: "SHRED"}, validate.CodeResetModeValue},
		{Request{ResetMode: "DROP"}, validate.CodeResetWithoutRefr},
	}
	for _, tc := range cases {
		pe := planErr(t, r, snap, tc.req)
		if !hasDiag(pe, tc.code, "") {
			t.Fatalf("%+v: %v, want %s", tc.req, pe, tc.code)
		}
		// The run parameters' own message, as validation gives it.
		_, ds := validate.RunParameters(snap, validate.RunRequest{Refresh: tc.req.Refresh, ResetMode: tc.req.ResetMode})
		if len(ds) == 0 || !hasDiag(pe, tc.code, ds[0].Message) {
			t.Fatalf("%+v: message differs from validation's %v", tc.req, ds)
		}
	}
}

// TestUnsupportedRejectedBeforeRunning: merge_cdc_options without mode
// MERGE are rejected before anything runs, naming the node and the
// feature; MERGE sinks, streaming reads and declarative orchestrators are
// not.
func TestUnsupportedRejectedBeforeRunning(t *testing.T) {
	w := newWS(t, map[string]string{
		"pipelines/pl.yaml": `name: pl
nodes:
- name: ok
  sources:
  - path: ../data/a/
    format: JSONL
  sinks:
  - table_name: ok
    mode: APPEND
- name: streamer
  sources:
  - path: ../data/a/
    format: JSONL
    as_stream: true
  sinks:
  - table_name: s
    mode: APPEND
- name: merger
  sources:
  - path: ../data/a/
    format: JSONL
  sinks:
  - table_name: m
    mode: APPEND
    merge_cdc_options: {primary_keys: [k]}
- name: merge2
  sources:
  - path: ../data/a/
    format: JSONL
  sinks:
  - table_name: m2
    mode: MERGE
    merge_cdc_options: {primary_keys: [k]}
- name: outbox
  sources:
  - path: ../data/a/
    format: JSONL
  sinks:
  - foreach: {command: [cat]}
- name: nested
  sources:
  - path: ../data/a/
    format: JSONL
    schema:
      columns:
        k: String
        tags: {dtype: {name: List, inner: String}}
  sinks:
  - table_name: n
    mode: APPEND
`,
		"pipelines/decl.yaml": `name: decl
orchestrator:
  type: SPARK_DECLARATIVE_PIPELINE
nodes:
- name: flow1
  sources:
  - path: ../data/a/
    format: JSONL
  sinks:
  - table_name: d
    mode: APPEND
`,
		"data/a/1.jsonl": jsonl("a", 0, 1, ""),
	})
	r := testRunner(t)
	snap := w.load()
	pe := planErr(t, r, snap, Request{})
	if !errors.Is(pe, ErrUnsupported) {
		t.Fatal("want ErrUnsupported")
	}
	for _, want := range []string{
		"node 'merger' of pipeline 'pl' uses merge_cdc_options with the mode APPEND",
		"node 'nested' of pipeline 'pl' uses the nested dtype List of column 'tags' in the schema of source #1",
	} {
		if !hasDiag(pe, validate.CodeLocalUnsupported, want) {
			t.Errorf("missing %q in %v", want, pe)
		}
	}
	for _, lifted := range []string{"node 'streamer'", "node 'flow1'", "node 'outbox'", "node 'merge2'"} {
		if hasDiag(pe, validate.CodeLocalUnsupported, lifted) {
			t.Errorf("%s is supported now: %v", lifted, pe)
		}
	}
	for _, d := range pe.Diagnostics {
		if d.Code == validate.CodeLocalUnsupported && (d.File == "" || d.Line == 0) {
			t.Errorf("%v has no position", d)
		}
	}
	if exists(filepath.Join(w.dir, ".laktory")) {
		t.Fatal("a rejected plan must not touch the workspace")
	}
	// The other nodes run.
	mustRun(t, r, snap, Request{Pipelines: []string{"pl"}, Selectors: []string{"ok", "streamer", "merge2"}})
	mustRun(t, r, snap, Request{Pipelines: []string{"decl"}})
}

// TestWorkspaceErrorsReject: errors in the selected pipelines' files
// reject the run; errors elsewhere do not.
func TestWorkspaceErrorsReject(t *testing.T) {
	w := newWS(t, map[string]string{
		"pipelines/pl.yaml":  dagPipeline,
		"pipelines/bad.yaml": "name: bad\nnodes:\n- name: x\n  sourcez: []\n",
		"data/a/1.jsonl":     jsonl("a", 0, 1, ""),
	})
	r := testRunner(t)
	snap := w.load()
	pe := planErr(t, r, snap, Request{Pipelines: []string{"bad"}})
	if !hasDiag(pe, workspace.CodeUnknownKey, "sourcez") {
		t.Fatalf("%v", pe)
	}
	mustRun(t, r, snap, Request{Pipelines: []string{"pl"}})
}

func TestResetModeResolution(t *testing.T) {
	// Laktory 0.13.1 has reset_mode on sinks only (default DROP), and no
	// environment setting for it.
	snap := workspacetest.Load(t, map[string]string{"pl.yaml": `name: pl
nodes:
- name: n
  sinks:
  - {table_name: a, mode: APPEND, reset_mode: TRUNCATE}
  - {table_name: b, mode: APPEND}
  - {path: out/x, format: PARQUET}
`}, workspace.Options{})
	n := snap.Pipeline("pl").Node("n")
	cases := []struct {
		name           string
		override       string
		sink           int
		mode, fromText string
	}{
		{"override wins", "DROP", 0, "DROP", "run override"},
		{"sink", "", 0, "TRUNCATE", "Sink table a"},
		{"file sinks are dropped", "TRUNCATE", 2, "DROP", "file sink"},
		{"default", "", 1, "DROP", "default"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			mode, from := resetMode(tc.override, n.Sinks[tc.sink])
			if mode != tc.mode || !strings.Contains(from, tc.fromText) {
				t.Fatalf("got %s from %q, want %s from %q", mode, from, tc.mode, tc.fromText)
			}
		})
	}
}
