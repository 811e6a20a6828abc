package workspace

import (
	"slices"
	"strconv"
	"strings"
)

// TableID identifies a table: the absolute folder it lives in. A
// table_name sink and a path sink pointing at the same folder of the lake
// share one TableID.
type TableID string

// Table is one table (or folder) written or read by the workspace.
type Table struct {
	ID TableID
	// Path is the table's folder on disk.
	Path string
	// Name is catalog.schema.table when some sink or source names it by
	// table_name, "" otherwise.
	Name string
	// Writers and Readers point into Snapshot.Writers / Snapshot.Readers.
	Writers []*Writer
	Readers []*Reader
}

// Label is the table's name, or its path when no table_name names it.
func (t *Table) Label() string {
	if t.Name != "" {
		return t.Name
	}
	return t.Path
}

// Shared reports whether any writer of the table declares `shared`.
func (t *Table) Shared() bool {
	for _, w := range t.Writers {
		if w.Shared {
			return true
		}
	}
	return false
}

// View reports whether a writer of the table defines it as a view
// (`table_type: VIEW`).
func (t *Table) View() bool {
	for _, w := range t.Writers {
		if w.View {
			return true
		}
	}
	return false
}

// Pipelines returns the names of the pipelines writing the table, sorted.
func (t *Table) Pipelines() []string {
	var out []string
	for _, w := range t.Writers {
		if !slices.Contains(out, w.Pipeline) {
			out = append(out, w.Pipeline)
		}
	}
	slices.Sort(out)
	return out
}

// Ownership tells how a writer identifies its rows in a shared table.
type Ownership string

// Ownership kinds.
const (
	OwnerNone   Ownership = ""       // not shared: the writer owns the whole table
	OwnerColumn Ownership = "column" // rows carry the writer id in a column
	OwnerWhere  Ownership = "where"  // rows are matched by a predicate
)

// Writer is one sink writing a table: pipeline.node.sink.
type Writer struct {
	Pipeline string
	Node     string
	Sink     int
	Table    TableID
	Shared   bool
	// Ownership, with WriterID and Column (writer column) or Where.
	Ownership Ownership
	WriterID  string
	Column    string
	Where     string
	// Declarative marks a writer of a declarative pipeline; Flow is then its
	// append flow name.
	Declarative bool
	Flow        string
	// View marks a VIEW sink: the writer defines the view (its SQL), no
	// rows.
	View bool
	Pos  Pos
	// Backend and SparkConf are the writing node's dataframe backend and
	// Spark configuration: the dialect of Where (Spark SQL unless POLARS).
	Backend   string
	SparkConf map[string]string
}

// Key is "pipeline.node#sink".
func (w *Writer) Key() string { return w.Pipeline + "." + w.Node + "#" + strconv.Itoa(w.Sink) }

// Owner describes the rows the writer owns: "writer _laktory_writer = 'pl.a'",
// "where client_id = 1" or "whole table".
func (w *Writer) Owner() string {
	if w.View {
		return "view"
	}
	switch w.Ownership {
	case OwnerColumn:
		return w.Column + " = '" + w.WriterID + "'"
	case OwnerWhere:
		return "where " + w.Where
	}
	return "whole table"
}

// ReaderKind tells how a node reads.
type ReaderKind string

// Reader kinds.
const (
	ReadTable   ReaderKind = "table_name" // a table source: every row
	ReadPath    ReaderKind = "path"       // a path source pointing at a table folder
	ReadNode    ReaderKind = "node_name"  // a node source: that node's output
	ReadNodeRef ReaderKind = "nodes_ref"  // {nodes.x} in a transformer
)

// Reader is a node reading a table or another node.
type Reader struct {
	Pipeline string
	Node     string
	// Source is the index in the node's sources, -1 for a {nodes.x}
	// reference.
	Source int
	Kind   ReaderKind
	// Table is the table read: the source's table, or the primary sink of
	// the node read ("" when that node has no table sink).
	Table TableID
	// FromNode is the node read by a node_name source or {nodes.x}.
	FromNode          string
	AsStream          bool
	SkipChangeCommits bool
	ReaderKwargs      map[string]any
	Pos               Pos
}

// EdgeKind tells where a DAG edge comes from.
type EdgeKind string

// Edge kinds.
const (
	EdgeNodeSource EdgeKind = "node_name"
	EdgeDependsOn  EdgeKind = "depends_on"
	EdgeNodeRef    EdgeKind = "nodes_ref"
)

// Edge is a dependency: To runs after From.
type Edge struct {
	From, To string
	Kind     EdgeKind
	Pos      Pos
}

// DAG is the node graph of a pipeline.
type DAG struct {
	// Nodes are the node names in declaration order, each once.
	Nodes []string
	// Edges link known nodes; Unknown edges come from names no node has.
	Edges   []Edge
	Unknown []Edge
	// Duplicates are the node names declared more than once.
	Duplicates []string
	// Order is the execution order: nodes without inputs in declaration
	// order, then the next generation (Laktory's topological sort). It is nil
	// when the graph has a cycle.
	Order []string
	// Cycle is one cycle, first node repeated last (a, b, a); nil when none.
	Cycle []string
}

// Upstream returns the nodes name depends on directly.
func (d *DAG) Upstream(name string) []string {
	var out []string
	for _, e := range d.Edges {
		if e.To == name && !slices.Contains(out, e.From) {
			out = append(out, e.From)
		}
	}
	return out
}

// Downstream returns the nodes that depend on name directly.
func (d *DAG) Downstream(name string) []string {
	var out []string
	for _, e := range d.Edges {
		if e.From == name && !slices.Contains(out, e.To) {
			out = append(out, e.To)
		}
	}
	return out
}

// buildDAG builds the pipeline's node graph (and its index of nodes by
// name), in time linear in its nodes and edges: a pipeline of 20,000 nodes
// is a legitimate file.
func buildDAG(p *Pipeline) *DAG {
	d := &DAG{}
	p.nodeIndex = make(map[string]*Node, len(p.Nodes))
	dup := map[string]bool{}
	for _, n := range p.Nodes {
		if p.nodeIndex[n.Name] != nil {
			if !dup[n.Name] {
				dup[n.Name] = true
				d.Duplicates = append(d.Duplicates, n.Name)
			}
			continue
		}
		p.nodeIndex[n.Name] = n
		d.Nodes = append(d.Nodes, n.Name)
	}
	type pair struct{ from, to string }
	edges := map[pair]bool{}
	add := func(from, to string, k EdgeKind, at Pos) {
		e := Edge{From: from, To: to, Kind: k, Pos: at}
		if p.nodeIndex[from] == nil {
			d.Unknown = append(d.Unknown, e)
			return
		}
		if edges[pair{from, to}] {
			return
		}
		edges[pair{from, to}] = true
		d.Edges = append(d.Edges, e)
	}
	for _, n := range p.Nodes {
		for _, s := range n.Sources {
			if s.Kind == SourceNode && s.NodeName != "" {
				add(s.NodeName, n.Name, EdgeNodeSource, s.At("node_name"))
			}
		}
		for i, dep := range n.DependsOn {
			at := n.At("depends_on")
			if i == 0 {
				at = n.At("depends_on")
			}
			add(dep, n.Name, EdgeDependsOn, at)
		}
		for _, r := range n.NodeRefs {
			add(r.Name, n.Name, EdgeNodeRef, r.Pos)
		}
	}
	d.Order, d.Cycle = topoSort(d.Nodes, d.Edges)
	return d
}

// topoSort orders nodes generation by generation (declaration order within
// a generation), or returns a cycle.
func topoSort(nodes []string, edges []Edge) ([]string, []string) {
	indeg := make(map[string]int, len(nodes))
	next := make(map[string][]string, len(nodes))
	for _, e := range edges {
		indeg[e.To]++
		next[e.From] = append(next[e.From], e.To)
	}
	var order, gen []string
	for _, n := range nodes {
		if indeg[n] == 0 {
			gen = append(gen, n)
		}
	}
	for len(gen) > 0 {
		order = append(order, gen...)
		var ready []string
		for _, n := range gen {
			for _, m := range next[n] {
				indeg[m]--
				if indeg[m] == 0 {
					ready = append(ready, m)
				}
			}
		}
		// networkx's order within the generation (topological_generations):
		// by parent in the generation before, then by the child's
		// declaration (edges are added in declaration order), not by
		// declaration alone: a, b, c <- b, d <- a runs a, b, d, c.
		gen = ready
	}
	if len(order) == len(nodes) {
		return order, nil
	}
	return nil, findCycle(nodes, next, indeg)
}

func findCycle(nodes []string, next map[string][]string, indeg map[string]int) []string {
	const (
		white = iota
		grey
		black
	)
	color := map[string]int{}
	var stack []string
	var cycle []string
	var visit func(n string) bool
	visit = func(n string) bool {
		color[n] = grey
		stack = append(stack, n)
		for _, m := range next[n] {
			if color[m] == grey {
				i := slices.Index(stack, m)
				cycle = append(slices.Clone(stack[i:]), m)
				return true
			}
			if color[m] == white && visit(m) {
				return true
			}
		}
		stack = stack[:len(stack)-1]
		color[n] = black
		return false
	}
	for _, n := range nodes {
		if indeg[n] > 0 && color[n] == white && visit(n) {
			return cycle
		}
	}
	return nil
}

// assembleGraph builds writers, readers and tables from the pipelines. It
// does not modify the pipelines (they are shared with earlier snapshots).
func (s *Snapshot) assembleGraph() {
	tables := map[TableID]*Table{}
	table := func(id TableID, name string) *Table {
		t, ok := tables[id]
		if !ok {
			t = &Table{ID: id, Path: string(id)}
			tables[id] = t
		}
		if t.Name == "" && name != "" {
			t.Name = name
		}
		return t
	}
	refName := func(r *TableRef) string {
		if r == nil {
			return ""
		}
		return r.String()
	}
	for _, p := range s.Pipelines {
		for _, n := range p.Nodes {
			for _, sk := range n.Sinks {
				if sk.Table == "" {
					continue
				}
				t := table(sk.Table, refName(sk.TableRef))
				w := &Writer{Pipeline: p.Name, Node: n.Name, Sink: sk.Index, Table: sk.Table, Pos: sk.Pos,
					Declarative: p.Declarative(), Backend: n.DataframeBackend, SparkConf: n.SparkConf, View: sk.IsView()}
				if sk.Shared != nil {
					w.Shared = true
					if sk.Shared.UsesWriterColumn() {
						w.Ownership, w.Column, w.WriterID = OwnerColumn, sk.Shared.EffectiveColumn(), sk.Shared.EffectiveWriterID(p.Name, n.Name)
					} else {
						w.Ownership, w.Where = OwnerWhere, sk.Shared.Where
					}
				}
				if w.Declarative {
					w.Flow = n.FlowName(sk)
				}
				t.Writers = append(t.Writers, w)
				s.Writers = append(s.Writers, w)
			}
		}
	}
	for _, p := range s.Pipelines {
		for _, n := range p.Nodes {
			for _, src := range n.Sources {
				if src.Table != "" {
					table(src.Table, refName(src.TableRef))
				}
			}
		}
	}
	for _, p := range s.Pipelines {
		for _, n := range p.Nodes {
			for _, src := range n.Sources {
				r := &Reader{Pipeline: p.Name, Node: n.Name, Source: src.Index, AsStream: src.AsStream,
					SkipChangeCommits: src.SkipChangeCommits(), ReaderKwargs: src.ReaderKwargs, Pos: src.Pos}
				switch src.Kind {
				case SourceTable:
					r.Kind, r.Table = ReadTable, src.Table
				case SourceFile:
					// A path source is a reader when it points at a table
					// folder (a Delta path, or a folder a sink writes).
					id := src.Table
					if id == "" && src.ResolvedPath != "" {
						if _, known := tables[TableID(src.ResolvedPath)]; known {
							id = TableID(src.ResolvedPath)
						}
					}
					if id == "" {
						continue
					}
					r.Kind, r.Table = ReadPath, id
				case SourceNode:
					r.Kind, r.FromNode = ReadNode, src.NodeName
					r.Table = primaryTable(p, src.NodeName)
				default:
					continue
				}
				s.addReader(tables, r)
			}
			for _, ref := range n.NodeRefs {
				r := &Reader{Pipeline: p.Name, Node: n.Name, Source: -1, Kind: ReadNodeRef, FromNode: ref.Name,
					Table: primaryTable(p, ref.Name), Pos: ref.Pos}
				s.addReader(tables, r)
			}
		}
	}
	s.Tables = make([]*Table, 0, len(tables))
	for _, t := range tables {
		s.Tables = append(s.Tables, t)
	}
	slices.SortFunc(s.Tables, func(a, b *Table) int { return strings.Compare(string(a.ID), string(b.ID)) })
	s.tableIndex = tables
}

func (s *Snapshot) addReader(tables map[TableID]*Table, r *Reader) {
	s.Readers = append(s.Readers, r)
	if t := tables[r.Table]; t != nil {
		t.Readers = append(t.Readers, r)
	}
}

// primaryTable is the table of the primary sink of node name in p.
func primaryTable(p *Pipeline, name string) TableID {
	if n := p.Node(name); n != nil {
		if sk := n.PrimarySink(); sk != nil {
			return sk.Table
		}
	}
	return ""
}
