package validate

import (
	"fmt"
	"maps"
	"slices"
	"strings"

	"github.com/laktory/workbench/workspace"
)

// declarative checks pipelines whose engine owns the tables (Lakeflow and
// Spark declarative pipelines).
func (c *checker) declarative() {
	for _, p := range c.snap.Pipelines {
		if !p.Declarative() {
			continue
		}
		for _, n := range p.Nodes {
			for _, sk := range n.Sinks {
				if sk.Shared != nil {
					c.add(sk.At("shared"), Error, CodeDeclarativeShared,
						fmt.Sprintf("`shared` is not supported with %s: the engine owns the tables", p.Orchestrator),
						"remove `shared`: several nodes may append to one table without it, each through its own append flow")
				}
				if p.MaterializedView(n, sk) && sk.Mode != "" && !strings.EqualFold(sk.Mode, workspace.ModeOverwrite) {
					c.add(sk.At("mode"), Warning, CodeMaterializedView,
						fmt.Sprintf("mode %s of sink %s of node '%s' does not apply with %s: Laktory declares the table of a batch node as a materialized view (dp.materialized_view), which each update replaces with the node's result; a run here replaces it too",
							sk.Mode, sk.Describe(), n.Name, p.Orchestrator),
						"remove `mode`; to append on each update, read a stream (`as_stream: true` on a source)")
				}
				if p.Orchestrator == workspace.OrchestratorLakeflowDeclarative && sk.Kind == workspace.SinkFile {
					c.add(sk.Pos, Error, CodeLDPSink,
						fmt.Sprintf("Node '%s' sinks[%d] (a file sink) is not supported with Lakeflow Declarative Pipeline orchestrator", n.Name, sk.Index),
						"write to a table (`table_name:`) or a pipeline view")
				}
			}
		}
		multi := c.multiWriterTables(p)
		for _, id := range slices.Sorted(maps.Keys(multi)) {
			ws := multi[id]
			c.declarativeWriters(p, c.snap.Table(id), ws)
		}
		c.declarativeReaders(p, multi)
	}
}

// multiWriterTables returns the tables several nodes of p write.
func (c *checker) multiWriterTables(p *workspace.Pipeline) map[workspace.TableID][]*workspace.Writer {
	out := map[workspace.TableID][]*workspace.Writer{}
	for _, t := range c.snap.Tables {
		var ws []*workspace.Writer
		for _, w := range t.Writers {
			if w.Pipeline == p.Name {
				ws = append(ws, w)
			}
		}
		if len(nodesOf(ws)) > 1 {
			out[t.ID] = ws
		}
	}
	return out
}

func (c *checker) declarativeWriters(p *workspace.Pipeline, t *workspace.Table, ws []*workspace.Writer) {
	type prop struct{ name, value, writer string }
	var first map[string]prop
	var firstExp string
	var firstExpWriter string
	for i, w := range ws {
		sk, n := c.sink(w), c.node(w)
		if sk == nil || n == nil {
			continue
		}
		var why []string
		if sk.Mode == workspace.ModeMerge || sk.MergeCDC != nil {
			why = append(why, "it MERGEs")
		}
		if !sk.IsDelta() {
			why = append(why, "it is not DELTA")
		}
		if sk.IsView() {
			why = append(why, "it is a VIEW")
		}
		once := n.Flow != nil && n.Flow.Once
		if !n.Streaming() && !once {
			why = append(why, "the node reads no stream")
		}
		if len(why) > 0 {
			c.add(sk.Pos, Error, CodeDeclarativeWriter,
				fmt.Sprintf("several nodes append to %s (%s): each must be a streaming, non-MERGE table sink, but %s",
					t.Label(), list(nodesOf(ws)), strings.Join(why, " and ")),
				"read a stream (`as_stream: true` on a source), or make the node a one-time backfill with `flow: {once: true}`; use APPEND and DELTA")
		}
		props := map[string]prop{}
		comment := n.Comment
		if sk.Metadata != nil && sk.Metadata.Comment != "" {
			comment = sk.Metadata.Comment
		}
		set := func(name, v string) {
			if v != "" {
				props[name] = prop{name, v, writerName(w)}
			}
		}
		set("comment", comment)
		if sk.Format != "" {
			set("format", sk.Format)
		}
		set("table_type", sk.TableType)
		if sk.Metadata != nil {
			for k, v := range sk.Metadata.Properties {
				set("table property "+k, v)
			}
		}
		if i == 0 || first == nil {
			first = props
		} else {
			for _, name := range slices.Sorted(maps.Keys(props)) {
				a := props[name]
				if b, ok := first[name]; ok && b.value != a.value {
					c.add(sk.Pos, Error, CodeTableProperties,
						fmt.Sprintf("writers of %s set conflicting %s: %q (%s) and %q (%s)", t.Label(), name, b.value, b.writer, a.value, a.writer),
						"table properties (comment, format, table properties) may be set on any writer, but must agree")
				} else if !ok {
					first[name] = a
				}
			}
		}
		exp := expectationKey(n.Expectations)
		if i == 0 {
			firstExp, firstExpWriter = exp, writerName(w)
		} else if exp != firstExp {
			c.add(n.At("expectations"), Error, CodeExpectationsDiffer,
				fmt.Sprintf("writers of %s declare different expectations (%s and %s): in a declarative pipeline expectations apply to the whole table",
					t.Label(), firstExpWriter, writerName(w)),
				"declare the same expectations on every node appending to the table")
		}
	}
}

func expectationKey(es []*workspace.Expectation) string {
	keys := make([]string, 0, len(es))
	for _, e := range es {
		keys = append(keys, strings.Join([]string{e.Name, normalizeSQL(e.Expr), e.Action, e.Type}, "\x00"))
	}
	slices.Sort(keys)
	return strings.Join(keys, "\x01")
}

// declarativeReaders reports node reads of writers of multi-writer tables:
// rows carry no writer, the read would return every writer's rows.
func (c *checker) declarativeReaders(p *workspace.Pipeline, multi map[workspace.TableID][]*workspace.Writer) {
	shared := func(node string) *workspace.Table {
		n := p.Node(node)
		if n == nil {
			return nil
		}
		for _, sk := range n.Sinks {
			if _, ok := multi[sk.Table]; ok && sk.Table != "" {
				return c.snap.Table(sk.Table)
			}
		}
		return nil
	}
	for _, n := range p.Nodes {
		for _, s := range n.Sources {
			if s.Kind != workspace.SourceNode {
				continue
			}
			if t := shared(s.NodeName); t != nil {
				c.add(s.At("node_name"), Error, CodeDeclarativeNodeRd,
					fmt.Sprintf("node '%s' reads node '%s' with node_name, but several nodes append to its table %s: in a declarative pipeline rows carry no writer, so it would read the rows of all of them",
						n.Name, s.NodeName, t.Label()),
					fmt.Sprintf("read the table with `table_name: %s`, or write node '%s' to its own table", tableName(t), s.NodeName))
			}
		}
		for _, r := range n.NodeRefs {
			if t := shared(r.Name); t != nil {
				c.add(r.Pos, Error, CodeDeclarativeNodeRd,
					fmt.Sprintf("node '%s' reads {nodes.%s}, but several nodes append to its table %s: in a declarative pipeline rows carry no writer, so it would read the rows of all of them",
						n.Name, r.Name, t.Label()),
					fmt.Sprintf("add a source `table_name: %s` and read it with {sources.<name>}, or write node '%s' to its own table", tableName(t), r.Name))
			}
		}
	}
}

func tableName(t *workspace.Table) string {
	if t.Name != "" {
		return strings.TrimPrefix(t.Name, workspace.DefaultCatalog+"."+workspace.DefaultSchema+".")
	}
	return t.Path
}
