package validate

import (
	"testing"

	"github.com/laktory/workbench/workspace"
	"github.com/laktory/workbench/workspace/workspacetest"
)

// TestNestedDTypes: nested dtypes Laktory 0.13.1 accepts (a List with
// its inner type, a Struct with fields, an Array with inner and shape)
// are no LK109, but a warning that local runs do not read them (LK182);
// aliases and names in any case are Laktory's, and a Datetime without
// time zone is a timestamp_ntz.
func TestNestedDTypes(t *testing.T) {
	s := workspacetest.Load(t, map[string]string{"pl.yaml": `name: pl
nodes:
- name: a
  sources:
  - path: ./in.json
    format: JSON
    schema:
      columns:
        id: BIGINT
        at: {dtype: {name: datetime, time_zone: null}}
        tags: {dtype: {name: list, inner: str}}
        point: {dtype: {name: Array, inner: Float64, shape: 2}}
        geo:
          dtype:
            name: Struct
            fields:
            - {name: kind, dtype: string}
  sinks:
  - {table_name: t, mode: APPEND}
`}, workspace.Options{})
	workspacetest.Expect(t, s, Check(s, Options{}), []W{
		D("pl.yaml", 11, 23, CodeLocalFormat, "column 'tags' of the schema of source #1 of node 'a' is a List"),
		D("pl.yaml", 12, 24, CodeLocalFormat, "column 'point' of the schema of source #1 of node 'a' is a Array"),
		D("pl.yaml", 15, 13, CodeLocalFormat, "column 'geo' of the schema of source #1 of node 'a' is a Struct"),
	})
	cols := s.Pipelines[0].Nodes[0].Sources[0].Schema.Columns
	if cols[0].Type != "BIGINT" || cols[1].Type != "timestamp_ntz" || cols[2].DType.Inner == nil || cols[2].DType.Inner.Name != "str" {
		t.Errorf("columns: %+v", cols)
	}
}

// TestSparkSinkModeRequired: a PYSPARK sink without `mode` is LK119, as
// Laktory 0.13.1's write fails it (BaseDataSink._validate_mode_spark,
// checked on pyspark 4.2: the rule workspaces sink_no_mode_*); the sinks
// its write does not ask a mode of are not: a streaming quarantine sink
// (written as APPEND), a VIEW, a pipeline view, a custom writer, a POLARS
// sink, a declarative pipeline's sinks (the engine writes them), a mode
// from a variable; a shared sink without mode is LK103 alone.
func TestSparkSinkModeRequired(t *testing.T) {
	const head = "name: pl\n"
	node := func(sources, sinks string) string {
		return "nodes:\n- name: a\n  sources: [" + sources + "]\n  sinks:\n" + sinks
	}
	batch, stream := "{table_name: src}", "{table_name: src, as_stream: true}"
	quarantine := "  expectations: [{name: k, expr: k IS NOT NULL, action: QUARANTINE}]\n"
	tests := []struct {
		name, yaml string
		want       []W
	}{
		{name: "batch table sink", yaml: head + node(batch, "  - table_name: t\n"),
			want: []W{D("pl.yaml", 6, 5, CodeSparkNoMode, "Mode 'None' is not supported for Spark DataFrame. Choose from ['OVERWRITE', 'APPEND', 'IGNORE', 'ERROR', 'ERRORIFEXISTS', 'MERGE']")}},
		{name: "stream table sink", yaml: head + node(stream, "  - table_name: t\n"),
			want: []W{D("pl.yaml", 6, 5, CodeSparkNoMode, "Mode 'None' is not supported for Spark Streaming DataFrame. Choose from ['APPEND', 'COMPLETE', 'UPDATE', 'MERGE']")}},
		{name: "with mode", yaml: head + node(batch, "  - {table_name: t, mode: OVERWRITE}\n")},
		{name: "static quarantine sink", yaml: head + node(batch, "  - {table_name: t, mode: APPEND}\n  - {table_name: q, is_quarantine: true}\n") + quarantine,
			want: []W{D("pl.yaml", 7, 5, CodeSparkNoMode, "Mode 'None' is not supported for Spark DataFrame.")}},
		{name: "streaming quarantine sink is APPEND", yaml: head + node(stream, "  - {table_name: t, mode: APPEND}\n  - {table_name: q, is_quarantine: true}\n") + quarantine},
		{name: "mode from a variable", yaml: head + "variables: {m: APPEND}\n" + node(batch, "  - {table_name: t, mode: '${vars.m}'}\n")},
		{name: "POLARS file sink", yaml: head + "dataframe_backend: POLARS\n" + node("{path: in.json, format: JSON}", "  - {path: out, format: PARQUET}\n")},
		{name: "POLARS sink of a PYSPARK pipeline", yaml: head + node("{path: in.json, format: JSON}", "  - {path: out, format: PARQUET, dataframe_backend: POLARS}\n")},
		{name: "custom writer", yaml: head + node(batch, "  - {table_name: t, custom_writer: my.writer}\n")},
		{name: "view node", yaml: head + node(batch, "  - {table_name: t, mode: APPEND}\n") +
			"- name: v\n  sources: [{node_name: a}]\n  transformer: {nodes: [{expr: 'SELECT * FROM {df}'}]}\n  sinks: [{table_name: v, table_type: VIEW}]\n"},
		{name: "pipeline view sink", yaml: head + node(batch, "  - {pipeline_view_name: v}\n")},
		{name: "declarative pipeline", yaml: head + "orchestrator: {type: SPARK_DECLARATIVE_PIPELINE}\n" + node(stream, "  - {table_name: t}\n")},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s := workspacetest.Load(t, map[string]string{"pl.yaml": tt.yaml}, workspace.Options{})
			var got []Diagnostic
			for _, d := range Check(s, Options{}) {
				if d.Code == CodeSparkNoMode {
					got = append(got, d)
				}
			}
			workspacetest.Expect(t, s, got, tt.want)
		})
	}
}

// TestAggregatePandas: Laktory 0.13.1 computes an AGGREGATE expectation of
// a POLARS node with pandas (df.select(expr).to_pandas()), which
// laktory[polars] does not install: its run fails without it
// (ModuleNotFoundError, seen with Pipeline.execute and laktory[polars]
// alone), so LK153 warns at the expectation's type; not on PYSPARK (its
// pyspark frames are checked through pandas too, but pyspark's toPandas
// needs it anyway) and not for a ROW expectation.
func TestAggregatePandas(t *testing.T) {
	node := func(backend string) string {
		return `name: pl
dataframe_backend: ` + backend + `
nodes:
- name: a
  sources:
  - path: ./in.json
    format: JSONL
  expectations:
  - {name: enough, expr: COUNT(id) > 2, type: AGGREGATE, action: WARN}
  - {name: positive, expr: id > 0, action: WARN}
  sinks:
  - {path: ./out, format: DELTA, mode: APPEND}
`
	}
	s := workspacetest.Load(t, map[string]string{"pl.yaml": node("POLARS")}, workspace.Options{})
	workspacetest.Expect(t, s, Check(s, Options{}), []W{
		D("pl.yaml", 9, 47, CodeAggregatePandas, "expectation 'enough': Laktory 0.13.1 computes an AGGREGATE expectation on the POLARS backend with pandas"),
	})
	s = workspacetest.Load(t, map[string]string{"pl.yaml": node("PYSPARK")}, workspace.Options{})
	workspacetest.Expect(t, s, Check(s, Options{}), nil)
}

// TestLaktoryRulesNotRefused: what the rules of LK126 and LK144 leave
// alone, as Laktory 0.13.1 does: an environment's resource_options.name
// override (get_env takes it as is; checked with Laktory's loader), a
// name equal to its key, and a column comment on a Unity Catalog view
// (COMMENT ON COLUMN) or on a HIVE_METASTORE table.
func TestLaktoryRulesNotRefused(t *testing.T) {
	const pipeline = "      nodes:\n      - name: a\n        sources: [{table_name: src}]\n        sinks: [{table_name: t, mode: APPEND}]\n"
	view := func(typ string) string {
		return "name: pl\nnodes:\n- name: t\n  sources: [{table_name: src}]\n  sinks: [{table_name: o, mode: OVERWRITE}]\n- name: v\n  sources: [{node_name: t}]\n" +
			"  transformer: {nodes: [{expr: 'SELECT * FROM {df}'}]}\n  sinks:\n  - {" + typ + "table_name: o_v, table_type: VIEW, metadata: {columns: [{name: k, comment: the key}]}}\n"
	}
	tests := []struct {
		name, file, yaml string
		want             []W
	}{
		{name: "an environment's resource name", file: "stack.yaml", yaml: "name: st\nresources:\n  pipelines:\n    pl-a:\n      name: pl-a\n" + pipeline +
			"environments:\n  dev:\n    resources:\n      pipelines:\n        pl-a:\n          resource_options: {name: pl-dev}\n"},
		{name: "a resource name equal to its key", file: "stack.yaml", yaml: "name: st\nresources:\n  pipelines:\n    pl-a:\n      name: pl-a\n      resource_options: {name: pl-a}\n" + pipeline},
		{name: "a Unity Catalog view's column comment", file: "pl.yaml", yaml: view("")},
		{name: "a Hive metastore view's column comment", file: "pl.yaml", yaml: view("type: HIVE_METASTORE, "),
			want: []W{D("pl.yaml", 10, 103, CodeViewColumnComment, "Column comments are not supported for VIEW")}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s := workspacetest.Load(t, map[string]string{tt.file: tt.yaml}, workspace.Options{})
			var got []Diagnostic
			for _, d := range append(s.Diagnostics, Check(s, Options{})...) {
				if d.Code == workspace.CodeStackResourceName || d.Code == CodeViewColumnComment {
					got = append(got, d)
				}
			}
			workspacetest.Expect(t, s, got, tt.want)
		})
	}
}
