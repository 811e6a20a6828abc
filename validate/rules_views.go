package validate

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/laktory/workbench/workspace"
)

// views checks the nodes with a VIEW sink (`table_type: VIEW`) as Laktory
// 0.13.1 does. Such a node is a view: PipelineNode.validate_view refuses
// at load a source that is not a table or a node, a streaming source, a
// transformer that is not a single SQL step, and expectations; the
// declarative orchestrators refuse views at load. Its run
// (PipelineNode.execute) writes every sink of the node with the view's
// SQL (BaseDataSink.write(view_definition=...)), which to_sql builds by
// replacing {df}, {sources.x} and {nodes.x} with the full names of the
// tables they read: a sink that is not a VIEW then gets no DataFrame and
// fails, and a placeholder naming a node without a table sink fails.
// What a VIEW sink sets and the view ignores (mode, MERGE options, writer
// options) is said, as Laktory ignores it silently.
func (c *checker) views() {
	for _, p := range c.snap.Pipelines {
		for _, n := range p.Nodes {
			if !isViewNode(n) {
				continue
			}
			c.viewNode(p, n)
		}
	}
}

// isViewNode is PipelineNode.is_view: one of its sinks is a VIEW.
func isViewNode(n *workspace.Node) bool {
	for _, sk := range n.Sinks {
		if sk.IsView() {
			return true
		}
	}
	return false
}

func (c *checker) viewNode(p *workspace.Pipeline, n *workspace.Node) {
	if p.Declarative() {
		name := "Lakeflow Declarative Pipeline"
		if p.Orchestrator == workspace.OrchestratorSparkDeclarative {
			name = "Spark Declarative Pipeline"
		}
		c.add(viewSink(n).At("table_type"), Error, CodeViewDeclarative,
			fmt.Sprintf("Node '%s' of pipeline '%s' is a view which is not supported with %s orchestrator.", n.Name, p.Name, name),
			"write a table (remove `table_type: VIEW`), or use the LAKEFLOW_JOB orchestrator")
	}
	for i, s := range n.Sources {
		label := s.Name
		if label == "" {
			label = strconv.Itoa(i)
		}
		if s.Kind != workspace.SourceTable && s.Kind != workspace.SourceNode {
			c.add(s.Pos, Error, CodeViewSource,
				fmt.Sprintf("Source '%s' for node '%s' is not supported. VIEW sink only supports Table or Pipeline Node with a Table sink", label, n.Name),
				"read a table (`table_name:`) or a node whose sink is a table, or write a table (remove `table_type: VIEW`)")
			continue
		}
		if s.AsStream {
			c.add(s.At("as_stream"), Error, CodeViewStream,
				fmt.Sprintf("Source '%s' for node '%s' is not supported. VIEW sink does not support streaming sources.", label, n.Name),
				"remove `as_stream` (a view reads its tables when it is queried), or write a table")
			continue
		}
		if s.Kind == workspace.SourceNode {
			c.viewNodeRead(p, n, s.NodeName, s.Pos, true)
		}
		if ignored := setFields(s.Located, "filter", "selects", "renames", "drops", "drop_duplicates", "reader_kwargs", "reader_methods"); len(ignored) > 0 {
			c.add(s.At(strings.Trim(ignored[0], "`")), Warning, CodeViewIgnored,
				fmt.Sprintf("source '%s' of node '%s' sets %s, which the view ignores: Laktory 0.13.1's view SQL names the source's table (DataFrameExpr.to_sql), not the source as read", label, n.Name, list(ignored)),
				"write it in the view's SQL (a WHERE, the SELECT list), or remove it")
		}
	}
	if len(n.Transformer) != 1 || !n.Transformer[0].IsSQL() {
		at := n.At("transformer")
		if len(n.Transformer) > 0 {
			at = n.Transformer[0].Pos
		}
		c.add(at, Error, CodeViewTransformer,
			fmt.Sprintf("node '%s': VIEW sink requires a transformer with single node expressed as SQL statement.", n.Name),
			"give the node one `expr:` step (the view's SELECT), or write a table (remove `table_type: VIEW`)")
	}
	if len(n.Expectations) > 0 {
		c.add(n.At("expectations"), Error, CodeViewExpectations,
			fmt.Sprintf("node '%s': Expectations not supported for a view sink.", n.Name),
			"remove `expectations` (check them on the node that writes the table the view reads), or write a table")
	}
	for _, ref := range n.NodeRefs {
		c.viewNodeRead(p, n, ref.Name, ref.Pos, false)
	}
	for _, sk := range n.Sinks {
		if !sk.IsView() {
			c.add(sk.Pos, Error, CodeViewOtherSink,
				fmt.Sprintf("sink %s of node '%s' is not a VIEW, but the node is a view (its sink %s): Laktory 0.13.1's run writes every sink of a view node with the view's SQL and no DataFrame, and fails on this one (TypeError: Unsupported dataframe type, got: <class 'NoneType'>)",
					sk.Describe(), n.Name, viewSink(n).Describe()),
				"write the table from a node of its own that reads the view (`node_name:`), or make this sink a VIEW too")
			continue
		}
		if ignored := setFields(sk.Located, "mode", "merge_cdc_options", "format", "writer_kwargs", "writer_methods", "as_stream", "checkpoint_path"); len(ignored) > 0 {
			c.add(sk.At(strings.Trim(ignored[0], "`")), Warning, CodeViewIgnored,
				fmt.Sprintf("VIEW sink %s of node '%s' sets %s, which a view ignores: Laktory 0.13.1 creates it with CREATE OR REPLACE VIEW over the node's SQL whatever they say", sk.Describe(), n.Name, list(ignored)),
				"remove them, or write a table (remove `table_type: VIEW`)")
		}
	}
}

// viewNodeRead checks a node a view reads ({nodes.x} or a node source):
// to_sql names its primary sink's table, so that sink must be a table
// (PipelineNodeDataSource.sink_table_full_name for a source; for
// {nodes.x}, a node without a sink leaves the placeholder in the SQL, and
// a file sink has no table name: AttributeError).
func (c *checker) viewNodeRead(p *workspace.Pipeline, n *workspace.Node, name string, at workspace.Pos, source bool) {
	up := p.Node(name)
	if up == nil {
		return // LK170
	}
	ps := up.PrimarySink()
	switch {
	case ps == nil && source:
		c.add(at, Error, CodeViewSource,
			fmt.Sprintf("Source node '%s' doest not have a sink defined: node '%s' is a view, whose SQL reads the table of its source node's sink (Laktory 0.13.1's run fails)", name, n.Name),
			"give node '"+name+"' a table sink, or read a table")
	case ps == nil:
		c.add(at, Error, CodeViewSource,
			fmt.Sprintf("{nodes.%s} names a node without a sink: node '%s' is a view, whose SQL names the table of each node it reads, and Laktory 0.13.1 leaves {nodes.%s} in it (the run fails parsing it)", name, n.Name, name),
			"give node '"+name+"' a table sink, or read a table")
	case ps.Kind != workspace.SinkTable && source:
		c.add(at, Error, CodeViewSource,
			fmt.Sprintf("Source node '%s' sink is not of type `TableDataSink`: node '%s' is a view, whose SQL reads the table of its source node's sink (%s; Laktory 0.13.1's run fails)", name, n.Name, ps.Describe()),
			"write node '"+name+"' to a table (`table_name:`), or read a table")
	case ps.Kind != workspace.SinkTable:
		c.add(at, Error, CodeViewSource,
			fmt.Sprintf("{nodes.%s} names a node whose sink is not a table (%s): node '%s' is a view, whose SQL names the table of each node it reads (Laktory 0.13.1's run fails: AttributeError: '%s' object has no attribute 'full_name')", name, ps.Describe(), n.Name, sinkModel(ps)),
			"write node '"+name+"' to a table (`table_name:`), or read a table")
	}
}

// viewSink is the node's first VIEW sink.
func viewSink(n *workspace.Node) *workspace.Sink {
	for _, sk := range n.Sinks {
		if sk.IsView() {
			return sk
		}
	}
	return nil
}

// sinkModel is the Laktory model of a sink that is not a table.
func sinkModel(sk *workspace.Sink) string {
	switch sk.Kind {
	case workspace.SinkPipelineView:
		return "PipelineViewDataSink"
	case workspace.SinkForEach:
		return "ForEachDataSink"
	}
	return "FileDataSink"
}

// setFields lists, quoted as code, the fields of fields that the YAML sets at
// l, in the order given.
func setFields(l workspace.Located, fields ...string) []string {
	var set []string
	for _, f := range fields {
		if l.Has(f) {
			set = append(set, "`"+f+"`")
		}
	}
	return set
}
