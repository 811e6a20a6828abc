package validate

import (
	"fmt"
	"slices"
	"strings"

	"github.com/laktory/workbench/workspace"
	"github.com/laktory/workbench/workspace/human"
)

// Options tune Check.
type Options struct {
	// Facts are what is known of existing tables (laktory validate --deep,
	// the TUI): the deep rules run for the tables listed here.
	Facts map[workspace.TableID]TableFacts
	// Paths tells which of the SourcePaths exist (path -> exists), as the
	// caller found them (laktory validate and run, the TUI): LK205 reports
	// the missing ones. nil checks none.
	Paths map[string]bool
	// Runnable: the caller is about to run (a plan, laktory validate
	// --deep): what cannot run on this machine (a missing local source
	// path, LK205; a Databricks or object-store path no `paths:` of the
	// workbench config maps, LK207) is an error, not a warning.
	Runnable bool
	// TableColumns are the columns each table has or will have: the
	// existing table's, else its declared schema's, else the union of its
	// writers' outputs (the schema flow, runner/schemaflow, computes them).
	// A `where` predicate naming another column is an error; tables not
	// listed are not checked.
	TableColumns map[workspace.TableID][]string
	// TableColumnTypes are the DuckDB types of those columns by lower
	// case name: a `where` comparing a floating-point column for equality
	// is an error (LK115). Tables not listed are not checked.
	TableColumnTypes map[workspace.TableID]map[string]string
	// Strict makes what Laktory rejects at load an error (LK017, LK018),
	// as --strict and `strict: true` in the workbench config do.
	Strict bool
	// SQL parses the SQL texts the rules read (`where` predicates, expr
	// steps' statements): the runner's (runner.Runner.SQL). nil parses
	// none: `where` predicates are then neither checked nor proven.
	SQL SQL
}

// Check runs every rule over a snapshot and returns its load diagnostics
// and the rules' diagnostics, sorted by file, line and column. It reads no
// file: `where` predicates are parsed by opts.SQL, once per text and
// parser. It is safe for concurrent use.
func Check(snap *workspace.Snapshot, opts Options) []Diagnostic {
	c := &checker{snap: snap, opts: opts, parser: parserOf(opts.SQL)}
	c.diags = append(c.diags, snap.Diagnostics...)
	var wheres []string
	for _, w := range snap.Writers {
		if w.Ownership == workspace.OwnerWhere {
			wheres = append(wheres, writerWhere(w))
		}
	}
	c.parser.parseAll(wheres)
	c.dag()
	c.shared()
	c.declarative()
	c.flows()
	c.streaming()
	c.local()
	c.sourcePaths()
	c.confinement()
	c.exprStatements()
	c.unresolvedRefs()
	c.laktoryModels()
	c.laktoryRunFails()
	c.views()
	c.bucketLogStores()
	c.completeMode()
	c.runOrder()
	c.deep()
	if opts.Strict || (snap.Config != nil && snap.Config.Strict) {
		for i, d := range c.diags {
			if d.Code == workspace.CodeLaktoryRejects || d.Code == workspace.CodeExtension {
				c.diags[i].Severity = Error
			}
		}
	}
	return workspace.SortDiagnostics(c.diags)
}

type checker struct {
	snap  *workspace.Snapshot
	opts  Options
	diags []Diagnostic
	// parser parses SQL texts (opts.SQL's).
	parser *sqlParser
}

func (c *checker) add(p workspace.Pos, sev Severity, code, msg, hint string) {
	c.diags = append(c.diags, workspace.NewDiagnostic(p, sev, code, msg, hint))
}

func (c *checker) sink(w *workspace.Writer) *workspace.Sink { return c.snap.Sink(w) }

func (c *checker) node(w *workspace.Writer) *workspace.Node { return c.snap.Node(w.Pipeline, w.Node) }

// list formats names in messages as a plain list: a, b.
func list(names []string) string { return human.List(names) }

// writerName names a writer in messages: pipeline.node.
func writerName(w *workspace.Writer) string { return w.Pipeline + "." + w.Node }

// nodesOf returns the distinct node names of writers, in order.
func nodesOf(ws []*workspace.Writer) []string {
	var out []string
	for _, w := range ws {
		if !slices.Contains(out, w.Node) {
			out = append(out, w.Node)
		}
	}
	return out
}

// byPipeline groups a table's writers by pipeline, in order.
func byPipeline(ws []*workspace.Writer) ([]string, map[string][]*workspace.Writer) {
	var order []string
	m := map[string][]*workspace.Writer{}
	for _, w := range ws {
		if _, ok := m[w.Pipeline]; !ok {
			order = append(order, w.Pipeline)
		}
		m[w.Pipeline] = append(m[w.Pipeline], w)
	}
	return order, m
}

// dag reports unknown nodes, duplicate node names, cycles and unknown
// {sources.x} references.
func (c *checker) dag() {
	for _, p := range c.snap.Pipelines {
		d := p.DAG
		if d == nil {
			continue
		}
		seen := map[string]bool{}
		for _, n := range p.Nodes {
			if seen[n.Name] {
				c.add(n.At("name"), Error, CodeDuplicateNode,
					fmt.Sprintf("Pipeline node '%s' is declared twice in pipeline '%s'", n.Name, p.Name),
					"rename one of the nodes: node names identify nodes in node_name, depends_on and {nodes.x}")
			}
			seen[n.Name] = true
		}
		for _, e := range d.Unknown {
			var msg string
			switch e.Kind {
			case workspace.EdgeNodeSource:
				msg = fmt.Sprintf("Pipeline node data source '%s' is not defined in pipeline '%s'", e.From, p.Name)
			case workspace.EdgeDependsOn:
				msg = fmt.Sprintf("node '%s' depends_on '%s', which is not defined in pipeline '%s'", e.To, e.From, p.Name)
			default:
				msg = fmt.Sprintf("node '%s' reads {nodes.%s}, which is not defined in pipeline '%s'", e.To, e.From, p.Name)
			}
			hint := "nodes of the pipeline: " + strings.Join(d.Nodes, ", ")
			if s := workspace.Suggest(e.From, d.Nodes); s != "" {
				msg += fmt.Sprintf("; did you mean '%s'?", s)
			}
			c.add(e.Pos, Error, CodeUnknownNode, msg, hint)
		}
		if len(d.Cycle) > 0 {
			at := p.Pos
			if n := p.Node(d.Cycle[0]); n != nil {
				at = n.At("name")
			}
			c.add(at, Error, CodeCycle,
				fmt.Sprintf("Pipeline '%s' is not a DAG (directed acyclic graph). A circular dependency has been detected: %s",
					p.Name, strings.Join(d.Cycle, " -> ")),
				"remove one of these dependencies (node_name, depends_on or {nodes.x})")
		}
		for _, n := range p.Nodes {
			var names []string
			for _, s := range n.Sources {
				if s.Name != "" {
					names = append(names, s.Name)
				}
			}
			for _, r := range n.SourceRefs {
				if slices.Contains(names, r.Name) {
					continue
				}
				msg := fmt.Sprintf("node '%s' reads {sources.%s}, but none of its sources is named '%s'", n.Name, r.Name, r.Name)
				if s := workspace.Suggest(r.Name, names); s != "" {
					msg += fmt.Sprintf("; did you mean '%s'?", s)
				}
				c.add(r.Pos, Error, CodeUnknownSource, msg, "give the source a `name:` and refer to it as {sources.<name>}")
			}
		}
	}
}
