package workspace

import (
	"cmp"
	"slices"
)

// ReadEdge is an order a table read asks for: To (pipeline.node, or a
// run's task) reads Table, which From writes, so To runs after From.
type ReadEdge struct {
	From, To string
	Table    TableID
	// Pos is the reader's source.
	Pos Pos
	// Before marks an edge within a pipeline the other way round: From
	// reads Table, which To writes, and Laktory runs From first, so To
	// waits for From's read (PipelineReads).
	Before bool
	// Stream marks the read of a streaming node_name source of a table
	// other nodes write too (a shared sink): Laktory's stream reads the
	// table, so it sees what they committed before it runs.
	Stream bool
}

// BrokenRead is a read edge left out of an order because it would close a
// cycle: Cycle is From, To, ..., From.
type BrokenRead struct {
	ReadEdge
	Cycle []string
}

// CrossReads returns the reads of node n of pipeline p that another
// pipeline's node writes: a table or path source of a table (or view)
// that pipeline writes, one edge per writing node, From and To named
// pipeline.node. Laktory orders none of them: it runs each pipeline on its
// own (docs/running.md, "Order across pipelines").
func (s *Snapshot) CrossReads(p *Pipeline, n *Node) []ReadEdge {
	return s.tableReads(p, n, false)
}

// TableReads returns the reads of node n of pipeline p of a table (or
// view) another node of p writes, as CrossReads does across pipelines.
func (s *Snapshot) TableReads(p *Pipeline, n *Node) []ReadEdge {
	return s.tableReads(p, n, true)
}

func (s *Snapshot) tableReads(p *Pipeline, n *Node, same bool) []ReadEdge {
	var out []ReadEdge
	for _, src := range n.Sources {
		t := s.Table(src.Table)
		if src.Table == "" || t == nil {
			continue
		}
		at := src.At("table_name")
		if src.TableName == "" {
			at = src.At("path")
		}
		for _, w := range t.Writers {
			e := ReadEdge{From: w.Pipeline + "." + w.Node, To: p.Name + "." + n.Name, Table: src.Table, Pos: at}
			if (w.Pipeline == p.Name) != same || e.From == e.To {
				continue
			}
			if !slices.ContainsFunc(out, func(o ReadEdge) bool { return o.From == e.From && o.Table == e.Table }) {
				out = append(out, e)
			}
		}
	}
	return out
}

// PipelineReads returns the orders the reads of node n of pipeline p of
// a table (or view) another node of p writes ask for, as Laktory runs
// them: its nodes one at a time in DAG order, where a table_name source
// is no edge. A writer Laktory runs before n gives an edge writer -> n (n
// reads what it wrote); a writer it runs after n gives n -> writer,
// Before set (n reads the table as the last run left it, and the writer
// does not write or drop it during that read). Declarative pipelines are
// left out: their engine orders flows by the tables they read.
func (s *Snapshot) PipelineReads(p *Pipeline, n *Node) []ReadEdge {
	if p.Declarative() {
		return nil
	}
	reads := append(s.TableReads(p, n), s.streamNodeReads(p, n)...)
	for i, e := range reads {
		w := e.From[len(p.Name)+1:]
		if !p.RunsBefore(w, n.Name) {
			reads[i].From, reads[i].To, reads[i].Before = e.To, e.From, true
		}
	}
	return reads
}

// streamNodeReads returns the reads of node n's streaming node_name
// sources whose node writes a table other nodes of p write too: Laktory
// streams the table (PipelineNodeDataSource reads the primary sink), so a
// writer it runs before n commits before n's stream reads, one it runs
// after commits after; the run orders them the same way, so the stream's
// batches, and the commits of its sink, do not depend on timing. The
// source's own node is left out: it is an edge of the DAG.
func (s *Snapshot) streamNodeReads(p *Pipeline, n *Node) []ReadEdge {
	var out []ReadEdge
	for _, src := range n.Sources {
		if src.Kind != SourceNode || !src.AsStream {
			continue
		}
		id := primaryTable(p, src.NodeName)
		t := s.Table(id)
		if id == "" || t == nil {
			continue
		}
		for _, w := range t.Writers {
			if w.Pipeline != p.Name || w.Node == src.NodeName || w.Node == n.Name {
				continue
			}
			e := ReadEdge{From: p.Name + "." + w.Node, To: p.Name + "." + n.Name, Table: id, Pos: src.At("node_name"), Stream: true}
			if !slices.ContainsFunc(out, func(o ReadEdge) bool { return o.From == e.From && o.Table == e.Table }) {
				out = append(out, e)
			}
		}
	}
	return out
}

// RunsBefore reports whether Laktory runs node a of p before node b: it
// runs a pipeline's nodes one at a time in the order of its DAG (Order:
// Laktory's topological sort, declaration order among nodes without an
// edge between them). False when either is unknown or the DAG has a cycle.
func (p *Pipeline) RunsBefore(a, b string) bool {
	if p.DAG == nil || p.DAG.Order == nil {
		return false
	}
	i, j := slices.Index(p.DAG.Order, a), slices.Index(p.DAG.Order, b)
	return i >= 0 && j >= 0 && i < j
}

// OrderReads adds reads to the graph fixed (node -> the nodes that run
// after it), one at a time in the order of their reader, table and writer,
// and returns those it added and those it left out: a read whose edge
// would close a cycle is left out, so the order never deadlocks, and the
// reader reads the table as it is when it runs. fixed is not modified.
func OrderReads(fixed map[string][]string, reads []ReadEdge) (kept []ReadEdge, broken []BrokenRead) {
	next := make(map[string][]string, len(fixed))
	for k, v := range fixed {
		next[k] = slices.Clone(v)
	}
	reads = slices.Clone(reads)
	slices.SortStableFunc(reads, func(a, b ReadEdge) int {
		return cmp.Or(cmp.Compare(a.To, b.To), cmp.Compare(a.Table, b.Table), cmp.Compare(a.From, b.From))
	})
	for _, e := range reads {
		if e.From == e.To || slices.Contains(next[e.From], e.To) {
			continue
		}
		if path := graphPath(next, e.To, e.From); path != nil {
			broken = append(broken, BrokenRead{ReadEdge: e, Cycle: append([]string{e.From}, path...)})
			continue
		}
		next[e.From] = append(next[e.From], e.To)
		kept = append(kept, e)
	}
	return kept, broken
}

// graphPath returns a shortest path from a to b (a first, b last), or nil.
func graphPath(next map[string][]string, a, b string) []string {
	prev := map[string]string{a: ""}
	queue := []string{a}
	for len(queue) > 0 {
		x := queue[0]
		queue = queue[1:]
		if x == b {
			var path []string
			for y := b; y != ""; y = prev[y] {
				path = append(path, y)
			}
			slices.Reverse(path)
			return path
		}
		for _, y := range next[x] {
			if _, seen := prev[y]; !seen {
				prev[y] = x
				queue = append(queue, y)
			}
		}
	}
	return nil
}
