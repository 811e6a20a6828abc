package workspacetest

import (
	"fmt"
	"strings"
	"testing"
)

// GeneratePipeline returns the YAML of pipeline i of a generated workspace:
// nodes nodes chained by node_name, the first appending to the shared table
// all_orders with `where: client_id = i`, the last to the shared table prices
// with a writer column, the others to their own tables. rev changes a comment
// so a benchmark can rewrite the file with new content.
func GeneratePipeline(i, nodes, rev int) string {
	var b strings.Builder
	fmt.Fprintf(&b, "# revision %d\nname: pl-%03d\norchestrator:\n  type: LAKEFLOW_JOB\n  serverless_environment_version: \"4\"\nvariables:\n  landing: ../data/landing\nnodes:\n", rev, i)
	for k := range nodes {
		fmt.Fprintf(&b, "- name: n%d\n  tags: [gen]\n", k)
		if k == 0 {
			fmt.Fprintf(&b, "  sources:\n  - path: ${vars.landing}/client_%d/\n    format: JSONL\n    as_stream: true\n", i)
		} else {
			fmt.Fprintf(&b, "  sources:\n  - node_name: n%d\n    filter: amount > 0\n", k-1)
		}
		b.WriteString("  transformer:\n    nodes:\n")
		fmt.Fprintf(&b, "    - expr: |\n        SELECT order_id, amount, %d AS client_id FROM {df}\n", i)
		if k > 1 {
			b.WriteString("    - func_name: join\n      func_args: ['{nodes.n0}']\n      func_kwargs: {\"on\": [order_id]}\n")
		}
		b.WriteString("  expectations:\n  - name: positive\n    expr: amount > 0\n    action: DROP\n")
		switch k {
		case 0:
			fmt.Fprintf(&b, "  sinks:\n  - table_name: all_orders\n    mode: APPEND\n    shared:\n      where: client_id = %d\n", i)
		case nodes - 1:
			b.WriteString("  sinks:\n  - table_name: prices\n    mode: APPEND\n    shared: true\n    writer_methods:\n    - name: partitionBy\n      args: [_laktory_writer]\n")
		default:
			fmt.Fprintf(&b, "  sinks:\n  - table_name: pl_%03d_n%d\n    mode: APPEND\n", i, k)
		}
	}
	return b.String()
}

// Generate writes a workspace of pipelines x nodes (see GeneratePipeline)
// below dir, one file per pipeline in pipelines/.
func Generate(t testing.TB, dir string, pipelines, nodes int) {
	t.Helper()
	files := make(map[string]string, pipelines)
	for i := range pipelines {
		files[PipelineFile(i)] = GeneratePipeline(i, nodes, 0)
	}
	Write(t, dir, files)
}

// PipelineFile is the path (relative to the workspace) of generated pipeline i.
func PipelineFile(i int) string { return fmt.Sprintf("pipelines/pl-%03d.yaml", i) }

// GenerateData writes the landing files of a generated workspace of
// pipelines: one JSONL file per client (order_id, amount), so its sources
// have schemas.
func GenerateData(t testing.TB, dir string, pipelines int) {
	t.Helper()
	files := make(map[string]string, pipelines)
	for i := range pipelines {
		files[fmt.Sprintf("data/landing/client_%d/orders.jsonl", i)] = fmt.Sprintf("{\"order_id\": %d, \"amount\": 12.5}\n", i)
	}
	Write(t, dir, files)
}
