package validate

import (
	"slices"
	"strings"
	"testing"

	"github.com/laktory/workbench/workspace"
	"github.com/laktory/workbench/workspace/workspacetest"
)

type W = workspacetest.Want

var D = workspacetest.D

// writers returns a pipeline whose nodes a, b, c... each append to table t
// with the given extra sink lines (indented for a sink item).
func writers(name, orchestrator string, sinks ...string) string {
	y := "name: " + name + "\n"
	if orchestrator != "" {
		y += "orchestrator:\n  type: " + orchestrator + "\n"
	}
	y += "nodes:\n"
	for i, s := range sinks {
		y += "- name: " + string(rune('a'+i)) + "\n  sinks:\n  - table_name: t\n" + s
	}
	return y
}

const (
	appendShared = "    mode: APPEND\n    shared: true\n"
	appendOnly   = "    mode: APPEND\n"
)

func where(p string) string { return "    mode: APPEND\n    shared:\n      where: " + p + "\n" }

func TestRules(t *testing.T) {
	tests := []struct {
		name  string
		files map[string]string
		want  []W
	}{
		{name: "shared declared by every writer", files: map[string]string{"pl.yaml": writers("pl", "", appendShared, appendShared)}},
		{name: "nodes of a pipeline don't declare shared", files: map[string]string{"pl.yaml": writers("pl", "", appendShared, appendOnly, appendOnly)},
			want: []W{
				D("pl.yaml", 10, 5, CodeNotShared, "sinks of nodes b, c don't declare `shared`"),
				D("pl.yaml", 14, 5, CodeNotShared, "nodes a, b, c of pipeline 'pl' all write main.default.t"),
			}},
		{name: "several writers not DELTA APPEND", files: map[string]string{"pl.yaml": writers("pl", "", appendOnly, "    mode: OVERWRITE\n")},
			want: []W{
				D("pl.yaml", 5, 5, CodeNotShared, "sinks of nodes a, b don't declare"),
				D("pl.yaml", 9, 5, CodeNotShared, "sinks of nodes a, b don't declare"),
				D("pl.yaml", 9, 5, CodeMultiWriterFormat, "DELTA table or file sinks in `APPEND` mode (this sink: DELTA, OVERWRITE)"),
			}},
		{name: "shared sink mode and format", files: map[string]string{"pl.yaml": `
name: pl
nodes:
- name: a
  sinks:
  - table_name: t
    mode: OVERWRITE
    shared: true
  - path: out/
    format: PARQUET
    mode: APPEND
    shared: true
`}, want: []W{
			D("pl.yaml", 7, 11, CodeSharedMode, "Shared sinks only support `APPEND` mode (got `OVERWRITE`)"),
			D("pl.yaml", 10, 13, CodeSharedFormat, "Shared sinks require a DELTA format (got PARQUET)"),
		}},
		{name: "writer column and where mixed", files: map[string]string{"pl.yaml": writers("pl", "", appendShared, where("feed = 'b'"))},
			want: []W{
				D("pl.yaml", 7, 13, CodeOwnershipKind, "identify their rows differently"),
				D("pl.yaml", 13, 7, CodeOwnershipKind, "a writer column (pl.a) and `where` predicates (pl.b)"),
			}},
		{name: "different writer columns", files: map[string]string{"pl.yaml": writers("pl", "", appendShared, "    mode: APPEND\n    shared: {column: writer}\n")},
			want: []W{
				D("pl.yaml", 7, 13, CodeSharedColumn, "different `shared.column`: _laktory_writer (pl.a); writer (pl.b)"),
				D("pl.yaml", 12, 22, CodeSharedColumn, "different `shared.column`"),
			}},
		{name: "same writer id", files: map[string]string{"pl.yaml": writers("pl", "",
			"    mode: APPEND\n    shared: {writer_id: x}\n", "    mode: APPEND\n    shared: {writer_id: x}\n")},
			want: []W{
				D("pl.yaml", 7, 25, CodeSameWriterID, "pl.a and pl.b write main.default.t with the same `shared.writer_id` 'x'"),
				D("pl.yaml", 12, 25, CodeSameWriterID, "same `shared.writer_id`"),
			}},
		{name: "same where", files: map[string]string{"pl.yaml": writers("pl", "", where("feed = 'x'"), where("FEED =  'x'"))},
			want: []W{
				D("pl.yaml", 8, 14, CodeSameWhere, "same `shared.where`"),
				D("pl.yaml", 14, 14, CodeSameWhere, "same `shared.where`"),
			}},
		// String comparison is case-sensitive: these own different rows.
		{name: "where strings of another case", files: map[string]string{"pl.yaml": writers("pl", "", where("feed = 'x'"), where("feed = 'X'"))}},
		{name: "where syntax error", files: map[string]string{"pl.yaml": writers("pl", "", where("client_id = = 1"))},
			want: []W{D("pl.yaml", 8, 26, CodeWhereSyntax, "not a valid SQL predicate: syntax error at or near \"=\"")}},
		{name: "where syntax error in a block scalar", files: map[string]string{"pl.yaml": writers("pl", "",
			"    mode: APPEND\n    shared:\n      where: |\n        client_id = 1\n        AND AND x\n")},
			want: []W{D("pl.yaml", 10, 13, CodeWhereSyntax, "syntax error")}},
		{name: "disjoint predicates", files: map[string]string{"pl.yaml": writers("pl", "",
			where("client_id = 1"), where("client_id = 2"), where("client_id > 2 AND client_id <= 10"),
			where("client_id NOT BETWEEN -10 AND 10"), where("'`Client_ID` IN (0, -5)'"))}},
		{name: "overlapping predicates", files: map[string]string{"pl.yaml": writers("pl", "", where("client_id IN (1, 2)"), where("client_id = 2 OR client_id = 3"))},
			want: []W{
				D("pl.yaml", 8, 14, CodeWhereOverlap, "both would own the rows where client_id = 2"),
				D("pl.yaml", 14, 14, CodeWhereOverlap, "pl.b (client_id = 2 OR client_id = 3) and pl.a (client_id IN (1, 2)) overlap"),
			}},
		{name: "predicates that cannot be proven", files: map[string]string{"pl.yaml": writers("pl", "", where("feed LIKE 'a%'"), where("feed = 'b'"))},
			want: []W{
				D("pl.yaml", 8, 14, CodeWhereUnproven, "cannot prove disjoint"),
				D("pl.yaml", 14, 14, CodeWhereUnproven, "cannot prove disjoint"),
			}},
		{name: "predicates over different columns", files: map[string]string{"pl.yaml": writers("pl", "", where("client_id = 1"), where("region = 'eu'"))},
			want: []W{
				D("pl.yaml", 8, 14, CodeWhereUnproven, "both would match rows where client_id = 1 AND region = 'eu'"),
				D("pl.yaml", 14, 14, CodeWhereUnproven, "constrain different columns"),
			}},
		{name: "across pipelines: overlap and a writer without shared", files: map[string]string{
			"a.yaml": writers("pa", "", where("x >= 10")),
			"b.yaml": writers("pb", "", where("x BETWEEN 0 AND 10")),
			"c.yaml": writers("pc", "", appendOnly),
		}, want: []W{
			D("a.yaml", 8, 14, CodeWhereOverlap, "both would own the rows where x = 10"),
			D("b.yaml", 8, 14, CodeWhereOverlap, "overlap"),
			D("c.yaml", 5, 5, CodeSharedNotDeclared, "also written by pipelines pa, pb, but this sink doesn't declare `shared`"),
		}},
		{name: "declarative pipeline and another writer", files: map[string]string{
			"a.yaml": writers("pa", workspace.OrchestratorSparkDeclarative, "    mode: APPEND\n"),
			"b.yaml": writers("pb", "", appendShared),
		}, want: []W{
			D("a.yaml", 7, 5, CodeDeclarativeOwner, "written by the declarative pipeline pa and by pb"),
			D("a.yaml", 8, 11, CodeMaterializedView, "mode APPEND of sink table t of node 'a' does not apply"),
			D("b.yaml", 5, 5, CodeDeclarativeOwner, "the engine owns the tables"),
		}},
		{name: "declarative: shared, node reads, writers", files: map[string]string{"pl.yaml": `
name: pl
orchestrator: {type: LAKEFLOW_DECLARATIVE_PIPELINE}
nodes:
- name: a
  comment: Events
  sources: [{path: x, format: JSONL, as_stream: true}]
  expectations: [{name: e, expr: id > 0}]
  sinks: [{table_name: events, mode: APPEND, shared: true}]
- name: b
  comment: Other events
  sources: [{path: y, format: JSONL}]
  sinks: [{table_name: events, mode: MERGE}]
- name: r
  sources: [{node_name: a}]
  transformer:
    nodes: [{expr: "SELECT * FROM {nodes.b}"}]
  sinks: [{path: out/, format: DELTA, mode: APPEND}]
`}, want: []W{
			D("pl.yaml", 9, 54, CodeDeclarativeShared, "`shared` is not supported with LAKEFLOW_DECLARATIVE_PIPELINE"),
			D("pl.yaml", 13, 11, CodeDeclarativeWriter, "but it MERGEs and the node reads no stream"),
			D("pl.yaml", 13, 11, CodeTableProperties, "conflicting comment: \"Events\" (pl.a) and \"Other events\" (pl.b)"),
			D("pl.yaml", 10, 3, CodeExpectationsDiffer, "declare different expectations"),
			D("pl.yaml", 15, 25, CodeDeclarativeNodeRd, "reads node 'a' with node_name, but several nodes append to its table"),
			D("pl.yaml", 17, 20, CodeDeclarativeNodeRd, "reads {nodes.b}"),
			D("pl.yaml", 18, 11, CodeLDPSink, "is not supported with Lakeflow Declarative Pipeline orchestrator"),
			D("pl.yaml", 13, 38, CodeMergeOptions, "`merge_cdc_options` must be specified"),
		}},
		{name: "flows", files: map[string]string{
			"job.yaml": "name: job\nnodes:\n- name: a\n  flow: {once: true}\n",
			"sdp.yaml": `
name: sdp
orchestrator: {type: SPARK_DECLARATIVE_PIPELINE}
nodes:
- name: a
  flow: {once: true, import_checkpoint: /c}
  sources: [{path: x, format: JSONL, as_stream: true}]
  sinks: [{table_name: t, mode: APPEND}]
- name: b
  flow: {name: same, kind: update}
  sources: [{path: x, format: JSONL, as_stream: true}]
  sinks: [{table_name: u, mode: APPEND}]
- name: c
  flow: {name: same}
  sources: [{path: x, format: JSONL, as_stream: true}]
  sinks: [{table_name: u, mode: APPEND}]
- name: d
  flow: {import_checkpoint: /c}
  sinks: [{table_name: v, mode: APPEND}]
`,
		}, want: []W{
			D("job.yaml", 4, 9, CodeFlowNotDeclarative, "`flow` options only apply to declarative orchestrators, and pipeline 'job' is without an orchestrator"),
			D("sdp.yaml", 6, 16, CodeFlowOnceStream, "a once flow reads a batch"),
			D("sdp.yaml", 6, 41, CodeFlowCheckpoint, "but a once flow reads a batch"),
			D("sdp.yaml", 10, 28, CodeFlowUpdate, "update flows write to ForEach sinks only"),
			D("sdp.yaml", 14, 16, CodeFlowName, "nodes 'b' and 'c' both write table u through a flow named 'same'"),
			D("sdp.yaml", 18, 29, CodeFlowCheckpoint, "node 'd' reads no stream"),
			D("sdp.yaml", 19, 33, CodeMaterializedView, "mode APPEND of sink table v of node 'd' does not apply"),
		}},
		{name: "foreach sinks", files: map[string]string{"pl.yaml": `
name: pl
orchestrator: {type: SPARK_DECLARATIVE_PIPELINE}
nodes:
- name: a
  sources: [{table_name: t, as_stream: true}]
  transformer:
    nodes: [{func_name: select, func_args: [order_id, status]}]
  sinks:
  - foreach: {command: [cat], http: {url: "http://x/{order_id}"}}
  - foreach: {name: none}
  - foreach: {http: {url: "api.example.com/{order_id}/{state}"}}
  - foreach: {http: {url: "https://api.example.com/{order_id}"}}
`}, want: []W{
			D("pl.yaml", 10, 14, CodeForEachWriter, "exactly one writer: `command` or `http`, not both"),
			D("pl.yaml", 11, 14, CodeForEachWriter, "exactly one writer"),
			D("pl.yaml", 12, 27, CodeForEachURL, "is not an http:// or https:// URL"),
			D("pl.yaml", 12, 27, CodeForEachColumn, "{state} names no column of node 'a' (columns: order_id, status); did you mean {status}?"),
		}},
		{name: "streaming readers", files: map[string]string{
			"w.yaml": writers("w", "", appendShared, appendShared),
			"r.yaml": `
name: r
nodes:
- name: whole
  sources: [{table_name: t, as_stream: true, reader_kwargs: {skipChangeCommits: true}}]
- name: batch
  sources: [{table_name: t, reader_kwargs: {skipChangeCommits: true}}]
`,
		}, want: []W{
			D("r.yaml", 5, 61, CodeSkipWholeTable, "streams the whole table main.default.t, written by several writers, with skipChangeCommits"),
			D("r.yaml", 7, 44, CodeSkipNotStream, "only applies to streaming reads"),
		}},
		{name: "dag", files: map[string]string{"pl.yaml": `
name: pl
nodes:
- name: a
  depends_on: [c]
  sources: [{node_name: feed_b}]
- name: b
  sources: [{name: main, node_name: a}]
  transformer:
    nodes: [{expr: "SELECT * FROM {sources.mian}"}]
- name: c
  sources: [{node_name: b}]
- name: a
`}, want: []W{
			D("pl.yaml", 13, 9, CodeDuplicateNode, "Pipeline node 'a' is declared twice in pipeline 'pl'"),
			D("pl.yaml", 6, 25, CodeUnknownNode, "Pipeline node data source 'feed_b' is not defined in pipeline 'pl'"),
			D("pl.yaml", 4, 9, CodeCycle, "A circular dependency has been detected: a -> b -> c -> a"),
			D("pl.yaml", 10, 20, CodeUnknownSource, "none of its sources is named 'mian'; did you mean 'main'?"),
		}},
		{name: "local runs", files: map[string]string{"pl.yaml": `
name: pl
nodes:
- name: a
  sources:
  - path: x
    format: AVRO
  transformer:
    nodes:
    - func_name: pivot
    - func_name: with_columns
      func_kwargs: {ok: ROUND(x, 2), y: 'nw.col("x").round()'}
    - func_name: filter
      func_args: ["x > 1"]
  sinks:
  - path: out/
    format: PARQUET
    mode: MERGE
  - table_name: cw
    custom_writer: my.writer
    mode: APPEND
- name: b
  sources: [{table_name: src}]
  transformer: {nodes: [{expr: "SELECT * FROM {df}"}]}
  sinks:
  - table_name: v
    table_type: VIEW
    reset_mode: TRUNCATE
`}, want: []W{
			D("pl.yaml", 7, 13, CodeLocalFormat, "local runs cannot read AVRO files"),
			D("pl.yaml", 18, 11, CodeMergeOptions, "`merge_cdc_options` must be specified"),
			D("pl.yaml", 17, 13, CodeMergeFormat, "Only 'DELTA' format is supported with 'MERGE' mode."),
			D("pl.yaml", 20, 20, CodeLocalFormat, "custom_writer my.writer"),
			D("pl.yaml", 21, 11, CodeCustomWriterMode, "mutually exclusive"),
			D("pl.yaml", 28, 17, CodeTruncateView, "not supported by view"),
		}},
		// What Laktory 0.13.1 loads and its run fails on (PipelineNode.execute
		// writes every sink of a view node with the view's SQL and no
		// DataFrame; DataFrameExpr.to_sql names each {nodes.x}'s table), and
		// what a VIEW sink sets that Laktory ignores.
		// Spark's UnsupportedOperationChecker refuses COMPLETE without a
		// streaming aggregation.
		{name: "streaming COMPLETE", files: map[string]string{"pl.yaml": `
name: pl
nodes:
- name: agg
  sources: [{table_name: src, as_stream: true}]
  transformer: {nodes: [{expr: "SELECT k, count(*) AS n FROM {df} GROUP BY k"}]}
  sinks: [{table_name: totals, mode: COMPLETE}]
- name: global
  sources: [{table_name: src, as_stream: true}]
  transformer: {nodes: [{expr: "SELECT max(v) AS top FROM {df}"}]}
  sinks: [{table_name: top, mode: COMPLETE}]
- name: grouped
  sources: [{table_name: src, as_stream: true}]
  transformer: {nodes: [{func_name: laktory.groupby_and_agg, func_kwargs: {groupby_columns: [k], agg_expressions: [{name: n, expr: count(v)}]}}]}
  sinks: [{table_name: grouped, mode: COMPLETE}]
- name: rows
  sources: [{table_name: src, as_stream: true}]
  transformer: {nodes: [{expr: "SELECT k, 'max(' AS note FROM {df}"}]}
  sinks: [{table_name: rows, mode: COMPLETE}]
`}, want: []W{
			D("pl.yaml", 19, 36, CodeCompleteNoAgg, "sink table rows of node 'rows' is written in COMPLETE mode, but the node does not aggregate"),
		}},
		// Laktory runs each pipeline on its own: reads across pipelines
		// are ordered by a run of several here, but for one read of each
		// cycle, named with the cycle (docs/running.md, "Order across pipelines").
		{name: "pipelines reading each other's tables in a cycle", files: map[string]string{"a.yaml": `
name: a
nodes:
- name: x
  sources: [{table_name: tb}]
  sinks: [{table_name: ta, mode: APPEND}]
- name: r
  sources: [{table_name: tc}]
  sinks: [{table_name: ra, mode: APPEND}]
`, "b.yaml": `
name: b
nodes:
- name: y
  sources: [{table_name: ta}]
  sinks: [{table_name: tb, mode: APPEND}]
- name: z
  sources: [{node_name: y}]
  sinks: [{table_name: tc, mode: APPEND}]
`}, want: []W{
			D("b.yaml", 5, 26, CodeCrossCycle, "b.y reads main.default.ta, which a.x writes, but a run of both cannot wait for it: the reads across pipelines form a cycle (a.x -> b.y -> a.x)"),
		}},
		// Laktory's define_table: dp.materialized_view for a batch node's
		// table sink that alone writes its table, dp.table when it streams,
		// append flows into a table several nodes write.
		{name: "declarative materialized views", files: map[string]string{"pl.yaml": `
name: pl
orchestrator: {type: SPARK_DECLARATIVE_PIPELINE}
nodes:
- name: mv
  sources: [{table_name: src}]
  sinks: [{table_name: mv, mode: APPEND}]
- name: mv_over
  sources: [{table_name: src}]
  sinks: [{table_name: mv_over, mode: OVERWRITE}]
- name: mv_none
  sources: [{table_name: src}]
  sinks: [{table_name: mv_none}]
- name: st
  sources: [{table_name: src, as_stream: true}]
  sinks: [{table_name: st, mode: APPEND}]
- name: once
  flow: {once: true}
  sources: [{table_name: src}]
  sinks: [{table_name: events, mode: APPEND}]
- name: live
  sources: [{table_name: src, as_stream: true}]
  sinks: [{table_name: events, mode: APPEND}]
`}, want: []W{
			D("pl.yaml", 7, 34, CodeMaterializedView, "mode APPEND of sink table mv of node 'mv' does not apply with SPARK_DECLARATIVE_PIPELINE: Laktory declares the table of a batch node as a materialized view"),
		}},
		// Laktory runs a pipeline's nodes one at a time in DAG order, where a
		// table_name source is no edge: a reader declared before the
		// writer reads the table as the last run left it (docs/running.md,
		// "Order within a pipeline"); declared after it, nothing to say.
		{name: "a node reading a table a later node of its pipeline writes", files: map[string]string{"pl.yaml": `
name: pl
nodes:
- name: summary
  sources: [{table_name: raw}]
  sinks: [{table_name: summary, mode: OVERWRITE}]
- name: raw
  sources: [{path: data/, format: JSONL}]
  sinks: [{table_name: raw, mode: APPEND}]
- name: after
  sources: [{table_name: raw}]
  sinks: [{table_name: after, mode: OVERWRITE}]
`}, want: []W{
			D("pl.yaml", 5, 26, CodeReadBeforeWrite, "node summary reads main.default.raw, which node raw of pipeline pl writes, but runs before it: a table_name source is no dependency of Laktory's DAG, which runs summary first, so it reads main.default.raw as the last run left it, and on a first run it does not exist yet and the run fails"),
		}},
		// A streaming node_name source of a shared table that a later node
		// also writes is ordered before that writer (PipelineReads), and it
		// reads its own node's rows, so there is nothing to warn about.
		{name: "a stream of a shared table a later node writes", files: map[string]string{"pl.yaml": `
name: pl
nodes:
- name: w1
  sources: [{path: data/, format: JSONL}]
  sinks: [{table_name: prices, mode: APPEND, shared: true}]
- name: r
  sources: [{node_name: w1, as_stream: true}]
  sinks: [{table_name: gold, mode: APPEND}]
- name: b
  sources: [{node_name: w1}]
  sinks: [{table_name: batch, mode: APPEND}]
- name: w3
  sources: [{node_name: b}]
  sinks: [{table_name: prices, mode: APPEND, shared: true}]
`}, want: []W{}},
		{name: "a partitioned JSON file sink", files: map[string]string{"pl.yaml": `
name: pl
nodes:
- name: j
  sources: [{path: data/, format: JSONL}]
  sinks:
  - path: out/j/
    format: JSON
    mode: OVERWRITE
    writer_methods: [{name: partitionBy, args: [k]}]
`}, want: []W{
			D("pl.yaml", 10, 21, CodeJSONPartitions, "local runs cannot write sink #1 of node 'j' partitioned by k: Spark writes JSON files in one folder per value (k=.../part-*.json), and DuckDB's JSON COPY has no PARTITION_BY"),
		}},
		{name: "reads across pipelines without a cycle", files: map[string]string{"a.yaml": `
name: a
nodes:
- name: x
  sources: [{table_name: tb}]
  sinks: [{table_name: ta, mode: APPEND}]
`, "b.yaml": `
name: b
nodes:
- name: y
  sources: [{path: data/, format: JSONL}]
  sinks: [{table_name: tb, mode: APPEND}]
- name: z
  sources: [{table_name: ta}]
  sinks: [{table_name: tc, mode: APPEND}]
`}},
		{name: "view nodes", files: map[string]string{"pl.yaml": `
name: pl
nodes:
- name: t
  sources: [{table_name: src}]
  sinks: [{table_name: t, mode: OVERWRITE}]
- name: f
  sources: [{table_name: src}]
  sinks: [{path: out/f, format: PARQUET, mode: OVERWRITE}]
- name: none
  sources: [{table_name: src}]
- name: ok
  sources: [{node_name: t, filter: "id > 1"}]
  transformer: {nodes: [{expr: "SELECT * FROM {df} JOIN {nodes.t} USING (id)"}]}
  sinks: [{table_name: ok_v, table_type: VIEW}]
- name: bad
  sources: [{table_name: src}]
  transformer: {nodes: [{expr: "SELECT * FROM {df} JOIN {nodes.f} USING (id) JOIN {nodes.none} USING (id)"}]}
  sinks:
  - table_name: bad_v
    table_type: VIEW
    mode: MERGE
    merge_cdc_options: {primary_keys: [id]}
    writer_kwargs: {path: x}
  - table_name: bad_t
`}, want: []W{
			D("pl.yaml", 13, 36, CodeViewIgnored, "source '0' of node 'ok' sets `filter`, which the view ignores"),
			D("pl.yaml", 18, 32, CodeViewSource, "{nodes.f} names a node whose sink is not a table (path out/f)"),
			D("pl.yaml", 18, 32, CodeViewSource, "{nodes.none} names a node without a sink"),
			D("pl.yaml", 22, 11, CodeViewIgnored, "sets `mode`, `merge_cdc_options`, `writer_kwargs`, which a view ignores"),
			D("pl.yaml", 25, 5, CodeViewOtherSink, "sink table bad_t of node 'bad' is not a VIEW, but the node is a view (its sink table bad_v)"),
		}},
		{name: "isolation levels", files: map[string]string{"pl.yaml": `
name: pl
nodes:
- name: a
  sources: [{path: x, format: CSV}]
  sinks:
  - table_name: t1
    mode: APPEND
    metadata:
      properties: {delta.isolationLevel: WriteSerializable}
  - table_name: t2
    mode: APPEND
    metadata:
      properties: {delta.isolationLevel: serializable}
  - table_name: t3
    mode: APPEND
    metadata:
      properties: {delta.isolationLevel: SnapshotIsolation}
  - table_name: t4
    mode: APPEND
    metadata:
      properties: {delta.isolationLevel: ReadCommitted}
  - table_name: t5
    mode: APPEND
    metadata:
      properties: {delta.IsolationLevel: WriteSerializable}
  - table_name: t6
    mode: APPEND
    metadata:
      properties: {delta.isolationLevel: "${vars.level}"}
  - path: d/
    format: DELTA
    mode: APPEND
    metadata:
      properties: {delta.isolationLevel: writeserializable}
`}, want: []W{
			D("pl.yaml", 18, 19, CodeIsolationLevel, "delta.isolationLevel = SnapshotIsolation on table t3: Delta refuses to set it on a table"),
			D("pl.yaml", 22, 19, CodeIsolationLevel, `delta.isolationLevel = "ReadCommitted" on table t4, which is no isolation level: Delta refuses every write to such a table (DELTA_INVALID_ISOLATION_LEVEL)`),
			D("pl.yaml", 26, 19, CodeIsolationLevel, "sets the table property delta.IsolationLevel of table t5: Delta reads it as delta.isolationLevel"),
			D("pl.yaml", 30, 42, workspace.CodeUnresolvedVar, "variable `level` is not defined"),
		}},
		{name: "deletion vectors", files: map[string]string{"pl.yaml": `
name: pl
nodes:
- name: a
  sources: [{path: x, format: CSV}]
  sinks:
  - table_name: t
    mode: APPEND
    metadata:
      properties: {delta.enableDeletionVectors: "true"}
  - table_name: u
    mode: APPEND
    metadata:
      properties: {delta.enableDeletionVectors: "false"}
`}, want: []W{
			D("pl.yaml", 10, 19, CodeDeletionVectors, "and polars 1.32.0 (the version laktory[polars] 0.13.1 installs) refuse the table"),
		}},
		{name: "polars backend", files: map[string]string{"pl.yaml": `
name: pl
dataframe_backend: POLARS
nodes:
- name: a
  sources: [{table_name: src}]
  sinks:
  - table_name: t
    mode: APPEND
  - path: d/
    format: DELTA
  - path: p/
    format: PARQUET
    mode: APPEND
`}, want: []W{
			D("pl.yaml", 6, 13, CodePolars, "Unity Catalog data source does not support the Polars backend."),
			D("pl.yaml", 8, 5, CodePolars, "Table data sink does not support the Polars backend."),
			D("pl.yaml", 10, 5, CodePolars, "Mode 'None' is not supported for Polars DataFrame with DELTA format. Set to ['ERROR', 'APPEND', 'OVERWRITE', 'MERGE']"),
			D("pl.yaml", 14, 11, CodePolars, "Mode 'APPEND' is not supported for Polars DataFrame. Set to `None`"),
		}},
		// Laktory 0.13.1 runs it into an AttributeError (checked with its
		// Pipeline.execute): the node has no quarantine frame.
		{name: "quarantine sink without expectations", files: map[string]string{"pl.yaml": `
name: pl
nodes:
- name: a
  sources:
  - table_name: src
  sinks:
  - {table_name: good, mode: APPEND}
  - {table_name: bad, mode: APPEND,
    is_quarantine: true}
- name: b
  sources:
  - table_name: src
  expectations:
  - name: positive
    expr: x > 0
    action: WARN
  sinks:
  - {table_name: b_all, mode: APPEND,
     is_quarantine: true}
`}, want: []W{
			D("pl.yaml", 10, 20, CodeQuarantineNoExpect, "quarantine sink table bad of node 'a' of pipeline 'pl' has no quarantine frame: the node declares no expectations"),
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s := workspacetest.Load(t, tt.files, workspace.Options{})
			// The extension warnings (LK018) have their own test.
			ds := slices.DeleteFunc(Check(s, Options{}), func(d Diagnostic) bool { return d.Code == workspace.CodeExtension })
			workspacetest.Expect(t, s, ds, tt.want)
		})
	}
}

// TestWhereColumns: with the columns of a table known (the schema flow
// computes them), a `where` naming another column is an error at that
// column, and the pair is not reported as unproven.
func TestWhereColumns(t *testing.T) {
	cols := []string{"client_id", "amount"}
	tests := []struct {
		name    string
		columns []string // nil: not known
		polars  bool     // dataframe_backend: POLARS
		a, b    string
		want    []W
	}{
		{name: "known columns", columns: cols, a: "client_id = 1", b: "client_id = 2"},
		{name: "a column the table does not have", columns: cols, a: "client_id = 1", b: "clientid = 2",
			want: []W{D("pl.yaml", 14, 14, CodeWhereColumn, "names the column 'clientid', which table main.default.t does not have (its columns: client_id, amount); did you mean 'client_id'?")}},
		{name: "column inside a block and a CASE", columns: cols, a: "client_id = 1",
			b:    "|\n        CASE WHEN regio = 'eu' THEN TRUE ELSE client_id = 2 END",
			want: []W{D("pl.yaml", 15, 19, CodeWhereColumn, "'regio'")}},
		{name: "quoted and mixed case", columns: cols, a: "'`Client_ID` = 1'", b: "CLIENT_ID = 2"},
		// Spark SQL (PYSPARK, Laktory's default): "..." is a string, and
		// strings take backslash escapes; DuckDB SQL (POLARS): a column.
		{name: "Spark strings", columns: []string{"client"}, a: `client = "acme"`, b: `client = "it\'s"`},
		{name: "Spark strings that are equal", columns: []string{"client"}, a: `client = "it\'s"`, b: `"client = 'it''s'"`,
			want: []W{D("pl.yaml", 8, 14, CodeWhereOverlap, "overlap"), D("pl.yaml", 14, 14, CodeWhereOverlap, "overlap")}},
		{name: "DuckDB identifiers", polars: true, columns: []string{"client"}, a: `client = "acme"`, b: `client = "globex"`,
			want: []W{D("pl.yaml", 9, 23, CodeWhereColumn, "names the column 'acme'"), D("pl.yaml", 15, 23, CodeWhereColumn, "names the column 'globex'"),
				D("pl.yaml", 6, 5, CodePolars, "Table data sink"), D("pl.yaml", 12, 5, CodePolars, "Table data sink")}},
		{name: "columns not known: the prover speaks", a: "client_id = 1", b: "clientid = 2",
			want: []W{D("pl.yaml", 8, 14, CodeWhereUnproven, "cannot prove disjoint"), D("pl.yaml", 14, 14, CodeWhereUnproven, "cannot prove disjoint")}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			y := writers("pl", "", where(tt.a), where(tt.b))
			if tt.polars {
				y = strings.Replace(y, "\n", "\ndataframe_backend: POLARS\n", 1)
			}
			s := workspacetest.Load(t, map[string]string{"pl.yaml": y}, workspace.Options{})
			var opts Options
			if tt.columns != nil {
				opts.TableColumns = map[workspace.TableID][]string{s.Tables[0].ID: tt.columns}
			}
			workspacetest.Expect(t, s, Check(s, opts), tt.want)
		})
	}
}
