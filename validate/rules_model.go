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
			}
		}
		c.declarativeTargetsOnce(p)
	}
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
