package validate

import (
	"fmt"
	"slices"
	"strings"

	"github.com/laktory/workbench/workspace"
)

// laktoryModels mirrors the model validators of Laktory 0.13.1 that the
// decoder does not (docs/laktory-rules.md): what Laktory refuses when it
// loads the pipeline is an error here, with Laktory's message.
func (c *checker) laktoryModels() {
	for _, p := range c.snap.Pipelines {
		for _, n := range p.Nodes {
			for _, e := range n.Expectations {
				c.expectationModel(n, e)
			}
			for _, sk := range n.Sinks {
				c.declarativeSinkModel(p, sk)
				c.resetModeModel(p, sk)
				c.sparkWriteModel(p, n, sk)
				c.viewColumnComments(p, sk)
			}
		}
		c.declarativeTargetsOnce(p)
	}
	c.schemaDTypes()
}

// expectationModel: ExpectationTolerance.at_least_one, DataQualityExpectation.validate_action
// and PipelineNode.validate_expectations (a streaming node takes ROW
// expectations with the default tolerance, abs 0, only).
func (c *checker) expectationModel(n *workspace.Node, e *workspace.Expectation) {
	if e.Has("tolerance") {
		switch {
		case e.ToleranceAbs == nil && e.ToleranceRel == nil:
			c.add(e.At("tolerance"), Error, CodeTolerance, "At least `abs` or `rel` must be set.",
				"set `abs:` (the number of failing rows allowed) or `rel:` (their fraction), or remove `tolerance` (Laktory's default is abs: 0)")
		case e.ToleranceAbs != nil && e.ToleranceRel != nil:
			c.add(e.At("tolerance"), Error, CodeTolerance, "Only one of `abs` or `rel` must be set.",
				"keep `abs:` (a number of rows) or `rel:` (a fraction of the rows), not both")
		}
	}
	if e.Type == "AGGREGATE" && (e.Action == "DROP" || e.Action == "QUARANTINE") {
		// Laktory's message names the type twice (its f-string uses self.type for both).
		c.add(e.At("action"), Error, CodeAggregateAction, fmt.Sprintf("'%s' action is not supported for 'AGGREGATE' type.", e.Type),
			"an AGGREGATE expectation tests the whole frame, not rows: use action WARN or FAIL, or write a ROW expectation")
	}
	if e.Type == "AGGREGATE" && n.DataframeBackend == "POLARS" {
		// DataQualityExpectation._check_df: df.select(expr).to_pandas().
		c.add(e.At("type"), Warning, CodeAggregatePandas,
			fmt.Sprintf("expectation '%s': Laktory 0.13.1 computes an AGGREGATE expectation on the POLARS backend with pandas (DataFrame.to_pandas), which laktory[polars] does not install: where pandas is missing, its run fails with \"ModuleNotFoundError: No module named 'pandas'\" (the local run computes it as Laktory does with pandas)", e.Name),
			"install pandas beside laktory[polars] where the pipeline is deployed, or check the rows with a ROW expectation and a tolerance")
	}
	if n.Streaming() {
		at := e.At("type")
		switch {
		case e.Type != "ROW":
		case e.ToleranceRel != nil || e.ToleranceAbs != nil && *e.ToleranceAbs != 0:
			at = e.At("tolerance")
		default:
			return
		}
		c.add(at, Error, CodeStreamExpectation,
			fmt.Sprintf("Expectation '%s' not supported for streaming DataFrame on node '%s'. Only ROW type expectations with 0 absolute tolerances are allowed.", e.Name, n.Name),
			"a streaming node checks each micro-batch's rows: make it a ROW expectation without tolerance, or read the source as a batch")
	}
}

// declarativeSinkModel: BaseDataSink.custom_writer_is_exclusive and
// merge_has_options under the Lakeflow declarative orchestrator.
func (c *checker) declarativeSinkModel(p *workspace.Pipeline, sk *workspace.Sink) {
	if p.Orchestrator != workspace.OrchestratorLakeflowDeclarative {
		return
	}
	if sk.CustomWriter != "" && sk.Mode == "" && sk.MergeCDC == nil {
		c.add(sk.At("custom_writer"), Error, CodeLDPSink,
			"`custom_writer` is not supported when using the Databricks Declarative Pipelines orchestrator.",
			"write to a table (`table_name:`): the pipeline's engine writes its tables, or use the LAKEFLOW_JOB orchestrator")
	}
	if sk.Mode == workspace.ModeMerge && sk.MergeCDC != nil && sk.MergeCDC.OrderBy == "" {
		c.add(sk.MergeCDC.Pos, Error, CodeMergeOptions,
			"`merge_cdc_options` requires a value for `order_by` when Databricks Pipeline orchestrator is selected.",
			"add `order_by:`, the column sequencing the changes (the engine's AUTO CDC needs it)")
	}
}

// resetModeModel: BaseDataSink.validate_reset_mode. A declarative
// pipeline's engine resets its tables itself (DROP only); TRUNCATE needs
// a table or a DELTA file sink (a view's is LK191).
func (c *checker) resetModeModel(p *workspace.Pipeline, sk *workspace.Sink) {
	if sk.ResetMode == "" || sk.ResetMode == "DROP" {
		return
	}
	switch {
	case p.Declarative():
		orch := "LakeflowDeclarativePipelineOrchestrator"
		if p.Orchestrator == workspace.OrchestratorSparkDeclarative {
			orch = "SparkDeclarativePipelineOrchestrator"
		}
		c.add(sk.At("reset_mode"), Error, CodeDeclarativeRefresh,
			fmt.Sprintf("`reset_mode` '%s' has no effect when using the %s - the full refresh is handled entirely by the Databricks/Spark Declarative Pipelines engine, which never calls Laktory's `purge()`. Remove `reset_mode` from this sink, or use the LAKEFLOW_JOB orchestrator.", sk.ResetMode, orch),
			"remove `reset_mode` (the engine drops and recreates the table), or use the LAKEFLOW_JOB orchestrator")
	case sk.Kind == workspace.SinkFile && !strings.EqualFold(sk.Format, "DELTA") && sk.Format != "" && !strings.Contains(sk.Format, "${"):
		format := sk.Format
		if sk.WrittenFormat != "" {
			format = sk.WrittenFormat
		}
		c.add(sk.At("reset_mode"), Error, CodeTruncateFile,
			fmt.Sprintf("`reset_mode` '%s' is not supported by FileDataSink '%s' with format '%s': use ['DROP'].", sk.ResetMode, sk.Path, format),
			"remove `reset_mode` (the files are deleted on a reset), or write a DELTA sink")
	}
}

// declarativeTargetsOnce: Pipeline.validate_unique_declarative_sink_targets
// (its first check): in a declarative pipeline each node writes a table
// or view once, every write being an append flow of its own node.
func (c *checker) declarativeTargetsOnce(p *workspace.Pipeline) {
	if !p.Declarative() {
		return
	}
	type target struct {
		nodes []string
		sinks []*workspace.Sink
	}
	var order []string
	groups := map[string]*target{}
	for _, n := range p.Nodes {
		for _, sk := range n.Sinks {
			name := declarativeName(sk)
			if name == "" {
				continue
			}
			g := groups[name]
			if g == nil {
				g = &target{}
				groups[name] = g
				order = append(order, name)
			}
			g.nodes = append(g.nodes, n.Name)
			g.sinks = append(g.sinks, sk)
		}
	}
	for _, name := range order {
		g := groups[name]
		for i, node := range g.nodes {
			if !slices.Contains(g.nodes[:i], node) {
				continue
			}
			c.add(g.sinks[i].Pos, Error, CodeDeclarativeTwice,
				fmt.Sprintf("Pipeline nodes %s target '%s' more than once. A pipeline node can only write once to a given table.", workspace.PyList(g.nodes), name),
				"remove the node's second sink to this table, or write it from another node")
			break
		}
	}
}

// declarativeName is a sink's table or view name in a declarative
// pipeline (sdp_table_or_view_name): the full name when a catalog is set,
// else the table name; a pipeline view's name; "" for other sinks.
func declarativeName(sk *workspace.Sink) string {
	switch sk.Kind {
	case workspace.SinkPipelineView:
		return sk.PipelineViewName
	case workspace.SinkTable:
		if sk.CatalogName == "" {
			return sk.TableName
		}
		var parts []string
		for _, s := range []string{sk.CatalogName, sk.SchemaName, sk.TableName} {
			if s != "" {
				parts = append(parts, s)
			}
		}
		return strings.Join(parts, ".")
	}
	return ""
}

// laktoryDTypes are the names of Laktory 0.13.1's DType (models/dtypes.py
// NAMES), matched in any case, and laktoryDTypeAliases its ALIASES (lower
// case), which it accepts with a warning.
var (
	laktoryDTypes = []string{"Array", "Boolean", "Categorical", "Date", "Datetime", "Decimal", "Duration", "Enum",
		"Float32", "Float64", "Int128", "Int16", "Int32", "Int64", "Int8", "List", "Object", "String", "Struct",
		"UInt128", "UInt16", "UInt32", "UInt64", "UInt8", "Unknown"}
	laktoryDTypeAliases = map[string]string{
		"bigint": "Int64", "int": "Int32", "integer": "Int32", "smallint": "Int16", "short": "Int16",
		"tinyint": "Int8", "byte": "Int8", "float": "Float32", "double": "Float64", "str": "String",
		"varchar": "String", "text": "String", "bool": "Boolean", "obj": "Object", "binary": "Object",
		"varbinary": "Object", "category": "Categorical", "timestamp": "Datetime",
	}
)

// LaktoryDType is the name Laktory 0.13.1 gives a dtype written as name
// (DType.validate_name), "" when it refuses it.
func LaktoryDType(name string) string {
	for _, n := range laktoryDTypes {
		if strings.EqualFold(n, name) {
			return n
		}
	}
	return laktoryDTypeAliases[strings.ToLower(name)]
}

// schemaDTypes: DType.validate_name and DType.complex_types over the
// columns of every declared source and sink schema. A nested dtype
// Laktory accepts (List, Array, Struct) is one local runs do not read or
// write yet (runner/unsupported.go refuses its node's runs).
func (c *checker) schemaDTypes() {
	for _, p := range c.snap.Pipelines {
		for _, n := range p.Nodes {
			for _, s := range n.Sources {
				c.schemaDType(n, s.Schema, fmt.Sprintf("source #%d", s.Index+1))
			}
			for _, sk := range n.Sinks {
				c.schemaDType(n, sk.Schema, "sink "+sk.Describe())
			}
		}
	}
}

func (c *checker) schemaDType(n *workspace.Node, sc *workspace.Schema, label string) {
	if sc == nil {
		return
	}
	for _, col := range sc.Columns {
		if col.DType == nil {
			continue
		}
		if !c.dtypeModel(col.DType) {
			continue
		}
		if workspace.NestedDType(col.DType) {
			c.add(col.DType.Pos, Warning, CodeLocalFormat,
				fmt.Sprintf("column '%s' of the schema of %s of node '%s' is a %s: local runs do not read or write nested dtypes of a declared schema yet",
					col.Name, label, n.Name, LaktoryDType(col.DType.Name)),
				"declare the column as a string, or leave it out of the schema (its type is then read from the data); runs of this node are refused")
		}
	}
}

// dtypeModel reports Laktory's refusal of t, if any, and whether t is
// valid.
func (c *checker) dtypeModel(t *workspace.DType) bool {
	if strings.Contains(t.Name, "${") {
		return false
	}
	name := LaktoryDType(t.Name)
	if name == "" {
		c.add(t.At("name"), Error, CodeDType, fmt.Sprintf("'%s' type is not supported.", t.Name),
			"use one of Laktory's dtypes: "+strings.Join(laktoryDTypes, ", ")+" (or an alias: bigint, int, double, str, bool, timestamp, ...)")
		return false
	}
	ok := true
	if t.Inner != nil {
		ok = c.dtypeModel(t.Inner)
	}
	for _, f := range t.Fields {
		if f.DType != nil && !c.dtypeModel(f.DType) {
			ok = false
		}
	}
	if !ok {
		return false
	}
	var msg, hint string
	switch {
	case (name == "Array" || name == "List") && t.Inner == nil:
		msg, hint = fmt.Sprintf("'%s' type requires `inner` value.", name), "write the dtype as a mapping: `{name: "+name+", inner: Int64}`"
	case name == "Array" && !t.Shape:
		msg, hint = fmt.Sprintf("'%s' type requires `shape` value.", name), "add `shape:`, the array's size (e.g. `shape: 3`)"
	case name == "Struct" && !t.HasFields:
		msg, hint = fmt.Sprintf("'%s' type requires `fields` value.", name), "write the dtype as a mapping: `{name: Struct, fields: [{name: x, dtype: Int64}]}`"
	default:
		return true
	}
	c.add(t.Pos, Error, CodeDType, msg, hint)
	return false
}

// Laktory 0.13.1's write modes on PySpark (SPARK_MODES,
// SPARK_STREAMING_MODES of models/datasinks/basedatasink.py).
var (
	sparkModes          = []string{"OVERWRITE", "APPEND", "IGNORE", "ERROR", "ERRORIFEXISTS", "MERGE"}
	sparkStreamingModes = []string{"APPEND", "COMPLETE", "UPDATE", "MERGE"}
)

// sparkWriteModel: BaseDataSink.is_streaming and _validate_mode_spark,
// what Laktory's write of a PYSPARK sink fails on before writing: a sink's
// as_stream that contradicts its node's frame (streaming when a source
// is), a mode the frame's writer does not take, and no mode at all
// (LK119: BaseDataSink.write passes None on, except for a streaming
// quarantine sink, which it writes as APPEND; a shared sink without mode
// is LK103's already, a view node's table sink LK179's).
func (c *checker) sparkWriteModel(p *workspace.Pipeline, n *workspace.Node, sk *workspace.Sink) {
	if p.Declarative() || sk.Backend == "POLARS" || n.DataframeBackend == "POLARS" || sk.IsView() ||
		(sk.Kind != workspace.SinkTable && sk.Kind != workspace.SinkFile) {
		return
	}
	stream := n.Streaming()
	if sk.AsStream != nil && *sk.AsStream != stream {
		msg := "Sink configured as stream, but received dataframe is not streaming."
		if stream {
			msg = "Sink configured as static, but received dataframe is streaming."
		}
		c.add(sk.At("as_stream"), Error, CodeStreamMismatch, msg,
			"remove the sink's `as_stream`: a sink streams when its node reads a stream (`as_stream: true` on a source)")
		return
	}
	if sk.CustomWriter != "" || strings.Contains(sk.Mode, "${") {
		return
	}
	if sk.Mode == "" {
		if (stream && sk.IsQuarantine) || sk.Shared != nil || slices.ContainsFunc(n.Sinks, (*workspace.Sink).IsView) {
			return // APPEND by default; LK103; a view node's other sinks are LK179's
		}
		modes, frame := sparkModes, "Spark DataFrame"
		hint := "add `mode: APPEND` (what the workbench did so far) or `mode: OVERWRITE` (replace the rows each run)"
		switch {
		case stream:
			modes, frame = sparkStreamingModes, "Spark Streaming DataFrame"
			hint = "add `mode: APPEND` (what the workbench did so far; MERGE, or COMPLETE for an aggregation)"
		case !sk.IsDelta():
			hint = "add `mode: OVERWRITE` (what the workbench did so far: the sink's files replaced each run) or `mode: APPEND`"
		}
		c.add(sk.Pos, Error, CodeSparkNoMode,
			fmt.Sprintf("Mode 'None' is not supported for %s. Choose from %s", frame, workspace.PyList(modes)),
			hint+": Laktory 0.13.1 gives a PYSPARK sink no default mode")
		return
	}
	switch {
	case stream && !slices.Contains(sparkStreamingModes, sk.Mode):
		c.add(sk.At("mode"), Error, CodeSparkMode,
			fmt.Sprintf("Mode '%s' is not supported for Spark Streaming DataFrame. Choose from %s", sk.Mode, workspace.PyList(sparkStreamingModes)),
			"a streaming node appends (or MERGEs, COMPLETE for an aggregation): set `mode: APPEND`")
	case !stream && !slices.Contains(sparkModes, sk.Mode):
		c.add(sk.At("mode"), Error, CodeSparkMode,
			fmt.Sprintf("Mode '%s' is not supported for Spark DataFrame. Choose from %s", sk.Mode, workspace.PyList(sparkModes)),
			"COMPLETE and UPDATE are streaming modes: set `mode: APPEND` or OVERWRITE, or read a stream")
	}
}

// viewColumnComments: ColumnMetadata.execute, when Laktory updates a
// written sink's metadata, fails on a column comment of a VIEW outside
// Unity Catalog (a HIVE_METASTORE sink), which Spark cannot comment
// (LK144). Declarative pipelines do not update metadata this way.
func (c *checker) viewColumnComments(p *workspace.Pipeline, sk *workspace.Sink) {
	if p.Declarative() || !sk.IsView() || !strings.EqualFold(sk.Type, "HIVE_METASTORE") || sk.Metadata == nil {
		return
	}
	for _, col := range sk.Metadata.Columns {
		if col.Comment == "" {
			continue
		}
		c.add(col.At("comment"), Error, CodeViewColumnComment,
			"Column comments are not supported for VIEW <class 'laktory.models.datasinks.hivemetastoredatasink.HiveMetastoreDataSink'>",
			"remove the comments of the view's columns (a Hive metastore view takes none), or write the view to Unity Catalog (drop `type: HIVE_METASTORE`)")
		return // Laktory stops at the first
	}
}
