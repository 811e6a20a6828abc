package validate

import (
	"fmt"
	"testing"

	"github.com/laktory/workbench/workspace"
	"github.com/laktory/workbench/workspace/workspacetest"
)

func TestRunParameters(t *testing.T) {
	s := workspacetest.Load(t, map[string]string{
		"pl.yaml":  writers("pl", "", appendShared, appendShared, "    mode: APPEND\n    shared: {where: x = 1}\n"),
		"one.yaml": "name: one\nnodes:\n- name: w\n  sinks:\n  - table_name: solo\n    mode: APPEND\n    shared: {where: x = 1}\n",
		"pl2.yaml": "name: pl2\nnodes:\n- name: z\n  sinks:\n  - table_name: t2\n    mode: APPEND\n    shared: true\n",
		"pl3.yaml": "name: pl3\nnodes:\n- name: y\n  sinks:\n  - table_name: t2\n    mode: APPEND\n    shared: true\n",
		"sdp.yaml": "name: sdp\norchestrator: {type: SPARK_DECLARATIVE_PIPELINE}\nnodes:\n- name: e\n",
	}, workspace.Options{})
	tests := []struct {
		name          string
		req           RunRequest
		refresh, mode string
		want          []W
	}{
		{name: "defaults", req: RunRequest{Selection: map[string][]string{"pl": nil}}, refresh: "INCREMENTAL"},
		{name: "case-insensitive", req: RunRequest{Refresh: "full", ResetMode: "drop", Selection: map[string][]string{"one": nil}},
			refresh: "FULL", mode: "DROP",
			want: []W{D("one.yaml", 5, 5, CodeFullOverrideShared, "--refresh FULL with --reset-mode DROP on the shared table main.default.solo is rejected")}},
		{name: "reset without override", req: RunRequest{Refresh: "reset", ResetMode: ""}, refresh: "RESET",
			want: []W{D("sdp.yaml", 1, 7, CodeDeclarativeRefresh, "--refresh RESET is not supported by declarative pipeline 'sdp'")}},
		{name: "unknown refresh", req: RunRequest{Refresh: "partial"}, refresh: "PARTIAL",
			want: []W{D("", 0, 0, CodeRefreshValue, "--refresh partial is not supported")}},
		{name: "unknown reset_mode", req: RunRequest{Refresh: "FULL", ResetMode: "DELETE_WHERE"}, refresh: "FULL", mode: "DELETE_WHERE",
			want: []W{D("", 0, 0, CodeResetModeValue, "--reset-mode DELETE_WHERE is not supported")}},
		{name: "reset_mode without refresh", req: RunRequest{ResetMode: "DROP"}, refresh: "INCREMENTAL", mode: "DROP",
			want: []W{D("", 0, 0, CodeResetWithoutRefr, "--reset-mode requires --refresh FULL or RESET")}},
		{name: "full with override, several nodes", req: RunRequest{Refresh: "FULL", ResetMode: "DROP", Selection: map[string][]string{"pl": {"a"}}},
			refresh: "FULL", mode: "DROP",
			want: []W{D("pl.yaml", 5, 5, CodeFullOverrideShared, "would delete the rows of nodes b, c of pipeline 'pl': reset the whole table with --refresh RESET")}},
		{name: "full with override, other pipelines", req: RunRequest{Refresh: "FULL", ResetMode: "TRUNCATE", Selection: map[string][]string{"pl2": nil}},
			refresh: "FULL", mode: "TRUNCATE",
			want: []W{D("pl2.yaml", 5, 5, CodeFullOverrideOthers, "would also delete the rows of the other writers (pipelines pl3)")}},
		{name: "reset with override warns about other pipelines", req: RunRequest{Refresh: "RESET", ResetMode: "DROP", Selection: map[string][]string{"pl3": nil}},
			refresh: "RESET", mode: "DROP",
			want: []W{D("pl3.yaml", 5, 5, CodeResetOtherWriters, "its writers in pipelines outside this run (pl2.z) keep their checkpoints and need a FULL refresh")}},
		{name: "reset with override of pipelines all in the run", req: RunRequest{Refresh: "RESET", ResetMode: "TRUNCATE", Selection: map[string][]string{"pl2": nil, "pl3": nil}},
			refresh: "RESET", mode: "TRUNCATE"},
		{name: "declarative reset_mode", req: RunRequest{Refresh: "FULL", ResetMode: "TRUNCATE", Selection: map[string][]string{"sdp": nil}},
			refresh: "FULL", mode: "TRUNCATE",
			want: []W{D("sdp.yaml", 1, 7, CodeDeclarativeRefresh, "reset_mode must stay DROP")}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			rp, ds := RunParameters(s, tt.req)
			if rp.Refresh != tt.refresh || rp.ResetMode != tt.mode {
				t.Errorf("params %+v, want %s %s", rp, tt.refresh, tt.mode)
			}
			workspacetest.Expect(t, s, ds, tt.want)
		})
	}
	// Without a snapshot, only the values are checked.
	if rp, ds := RunParameters(nil, RunRequest{Refresh: "Reset", ResetMode: "truncate"}); rp.Refresh != "RESET" || rp.ResetMode != "TRUNCATE" || len(ds) != 0 {
		t.Errorf("nil snapshot: %+v %v", rp, ds)
	}
}

// TestRunParametersLaktoryReads: a run's parameter no pipeline of the run
// declares is LK121, with Laktory's message per pipeline of the run (a
// value another pipeline of the run declares goes to that one); a node of
// the run reading a pipeline_view_name node from its sink is LK143: the
// node is not in the run, or on PYSPARK the read streams or the node
// reads a stream (Laktory reads back the sink then); a full batch run and
// POLARS read the frame the run computed.
func TestRunParametersLaktoryReads(t *testing.T) {
	const view = "- name: a\n  sources: [{table_name: src%s}]\n  sinks: [{pipeline_view_name: a_view}]\n"
	reader := "- name: b\n  sources: [{node_name: a%s}]\n  sinks: [{table_name: b, mode: APPEND}]\n"
	pl := func(head, aSrc, bSrc string) string {
		return "name: pl\n" + head + "nodes:\n" + fmt.Sprintf(view, aSrc) + fmt.Sprintf(reader, bSrc)
	}
	tests := []struct {
		name   string
		files  map[string]string
		params map[string]string
		req    RunRequest
		want   []W
	}{
		{name: "a parameter of another pipeline of the run",
			files:  map[string]string{"p1.yaml": "name: p1\nparameters: {x: {default: a}}\nnodes:\n- name: n\n", "p2.yaml": "name: p2\nnodes:\n- name: m\n"},
			params: map[string]string{"x": "b"}},
		{name: "a parameter of a pipeline outside the run",
			files:  map[string]string{"p1.yaml": "name: p1\nparameters: {x: {default: a}}\nnodes:\n- name: n\n", "p2.yaml": "name: p2\nparameters: {y: {default: a}}\nnodes:\n- name: m\n"},
			params: map[string]string{"x": "b"}, req: RunRequest{Selection: map[string][]string{"p2": nil}},
			want: []W{D("p2.yaml", 2, 13, CodeParamUndeclared, "Parameters ['x'] are not declared by pipeline 'p2'. Declared parameters are ['y'].")}},
		{name: "every pipeline of the run", files: map[string]string{"p1.yaml": "name: p1\nnodes:\n- name: n\n", "p2.yaml": "name: p2\nnodes:\n- name: m\n"},
			params: map[string]string{"z": "1", "w": "2"},
			want: []W{
				D("p1.yaml", 1, 7, CodeParamUndeclared, "Parameters ['w', 'z'] are not declared by pipeline 'p1'. Declared parameters are []."),
				D("p2.yaml", 1, 7, CodeParamUndeclared, "Parameters ['w', 'z'] are not declared by pipeline 'p2'."),
			}},
		{name: "a pipeline view computed by the run", files: map[string]string{"pl.yaml": pl("", "", "")}},
		{name: "a pipeline view outside the selection", files: map[string]string{"pl.yaml": pl("", "", "")},
			req:  RunRequest{Selection: map[string][]string{"pl": {"b"}}},
			want: []W{D("pl.yaml", 7, 25, CodePipelineViewRead, "node 'b' reads node 'a', whose sink is the pipeline view a_view, and the run does not execute 'a'")}},
		{name: "a pipeline view read as a stream", files: map[string]string{"pl.yaml": pl("", "", ", as_stream: true")},
			want: []W{D("pl.yaml", 7, 25, CodePipelineViewRead, "and the source reads it as a stream")}},
		{name: "a pipeline view over a stream", files: map[string]string{"pl.yaml": pl("", ", as_stream: true", "")},
			want: []W{D("pl.yaml", 7, 25, CodePipelineViewRead, "and 'a' reads a stream, so its frame is read back from its sink")}},
		{name: "a pipeline view of a declarative pipeline", files: map[string]string{"pl.yaml": pl("orchestrator: {type: SPARK_DECLARATIVE_PIPELINE}\n", "", "")},
			req: RunRequest{Selection: map[string][]string{"pl": {"b"}}}},
		{name: "a pipeline view read by {nodes.a}", req: RunRequest{Selection: map[string][]string{"pl": {"c"}}},
			files: map[string]string{"pl.yaml": pl("", "", "") + "- name: c\n  sources: [{table_name: src}]\n  transformer: {nodes: [{expr: 'SELECT * FROM {df} UNION ALL SELECT * FROM {nodes.a}'}]}\n  sinks: [{table_name: c, mode: APPEND}]\n"},
			want:  []W{D("pl.yaml", 11, 32, CodePipelineViewRead, "node 'c' reads node 'a', whose sink is the pipeline view a_view, and the run does not execute 'a'")}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s := workspacetest.Load(t, tt.files, workspace.Options{Params: tt.params})
			_, ds := RunParameters(s, tt.req)
			workspacetest.Expect(t, s, ds, tt.want)
		})
	}
}
