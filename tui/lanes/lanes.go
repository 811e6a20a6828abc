// Package lanes lays out the writer -> table graph of a workspace as a lane
// matrix and draws it: one column (a lane) per table, one row per writing
// node. Shared tables come first; rows are ordered by the mean position of
// the lanes they write (the two-layer crossing heuristic), and nodes that
// write exactly the same tables form a group that can be collapsed into one
// "×N" row.
//
// Build turns a workspace snapshot into a Graph, Graph.Rows lists the rows
// to show given which groups are collapsed, and Render draws them at a given
// width. Everything here is pure: no I/O, no terminal state.
package lanes

import (
	"cmp"
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/charmbracelet/x/ansi"
	"github.com/laktory/workbench/workspace"
)

// State is the validation state of a mark, a lane or a row, from the best
// to the worst; the worst state of the parts is the state of the whole.
type State int

// Validation states.
const (
	OK State = iota
	Info
	Warning
	Error
)

// Kind is how a writer owns its rows in a table: what its mark shows.
type Kind int

// Ownership kinds of a mark; KindNone means the row does not write the lane.
const (
	KindNone   Kind = iota
	KindColumn      // rows carry the writer id in the writer column
	KindWhere       // rows are matched by a where predicate
	KindTable       // not shared: the writer owns the whole table
	KindFlow        // an append flow of a declarative pipeline
	KindMixed       // a collapsed row whose writers own rows in different ways
)

// Cell is what one row writes in one lane.
type Cell struct {
	Kind Kind
	// Owner is the writer id, the where predicate, the flow name, or
	// "whole table"; for a collapsed row, how many writers it holds.
	Owner  string
	ownerW int
	State  State
	// Writers counts the writers of the row in the lane (several for a
	// collapsed row, or a node with several sinks to one table).
	Writers int
}

// Lane is one table.
type Lane struct {
	ID    workspace.TableID
	Label string
	// Shared is true for a table written by several nodes or declaring
	// shared.
	Shared  bool
	Writers int
	State   State
	labelW  int
}

// Member is one writing node: a pipeline node with at least one table sink.
type Member struct {
	Pipeline, Node string
	Label          string // pipeline.node
	// Cells has one entry per lane of the graph.
	Cells   []Cell
	Writers []*workspace.Writer
	State   State
}

// Group is the nodes that write exactly the same set of tables.
type Group struct {
	// ID identifies the group by its target set (stable across reloads as
	// long as the tables are the same).
	ID      string
	Label   string
	Targets []int
	Members []Member
	cells   []Cell // merged cells of the collapsed row
}

// Graph is the lane matrix of a workspace.
type Graph struct {
	Lanes  []Lane
	Groups []Group
}

// CollapseMin is the group size from which a group starts collapsed.
const CollapseMin = 3

// Build lays out the graph of snap. state gives the validation state of a
// writer's sink (nil: everything is OK).
func Build(snap *workspace.Snapshot, state func(*workspace.Writer) State) *Graph {
	g := &Graph{}
	if snap == nil {
		return g
	}
	if state == nil {
		state = func(*workspace.Writer) State { return OK }
	}
	type laneSrc struct {
		lane Lane
	}
	var srcs []laneSrc
	for _, t := range snap.Tables {
		if len(t.Writers) == 0 {
			continue
		}
		nodes := map[string]bool{}
		for _, w := range t.Writers {
			nodes[w.Pipeline+"\x00"+w.Node] = true
		}
		label := t.Label()
		if t.Name != "" {
			label = shortTableName(t.Name)
		}
		srcs = append(srcs, laneSrc{lane: Lane{ID: t.ID, Label: label, Shared: t.Shared() || len(nodes) > 1,
			Writers: len(t.Writers), labelW: ansi.StringWidth(label)}})
	}
	slices.SortStableFunc(srcs, func(a, b laneSrc) int {
		if a.lane.Shared != b.lane.Shared {
			if a.lane.Shared {
				return -1
			}
			return 1
		}
		if c := cmp.Compare(b.lane.Writers, a.lane.Writers); c != 0 {
			return c
		}
		return cmp.Compare(a.lane.Label, b.lane.Label)
	})
	laneOf := make(map[workspace.TableID]int, len(srcs))
	for i, s := range srcs {
		g.Lanes = append(g.Lanes, s.lane)
		laneOf[s.lane.ID] = i
	}

	// One member per writing node, in snapshot order.
	var members []*Member
	byNode := map[string]*Member{}
	for _, w := range snap.Writers {
		li, ok := laneOf[w.Table]
		if !ok {
			continue
		}
		key := w.Pipeline + "\x00" + w.Node
		m := byNode[key]
		if m == nil {
			m = &Member{Pipeline: w.Pipeline, Node: w.Node, Label: w.Pipeline + "." + w.Node, Cells: make([]Cell, len(g.Lanes))}
			byNode[key] = m
			members = append(members, m)
		}
		m.Writers = append(m.Writers, w)
		st := state(w)
		c := &m.Cells[li]
		kind, owner := Ownership(w)
		switch {
		case c.Kind == KindNone:
			*c = Cell{Kind: kind, Owner: owner, State: st, Writers: 1}
		default: // a node with several sinks to one table
			c.Writers++
			c.State = max(c.State, st)
			if c.Kind != kind {
				c.Kind = KindMixed
			}
			c.Owner = strconv.Itoa(c.Writers) + " sinks"
		}
		c.ownerW = ansi.StringWidth(c.Owner)
		m.State = max(m.State, st)
		g.Lanes[li].State = max(g.Lanes[li].State, st)
	}

	// Group members by target set.
	groupOf := map[string]int{}
	for _, m := range members {
		var targets []int
		for i, c := range m.Cells {
			if c.Kind != KindNone {
				targets = append(targets, i)
			}
		}
		id := targetKey(g.Lanes, targets)
		gi, ok := groupOf[id]
		if !ok {
			gi = len(g.Groups)
			groupOf[id] = gi
			g.Groups = append(g.Groups, Group{ID: id, Targets: targets})
		}
		g.Groups[gi].Members = append(g.Groups[gi].Members, *m)
	}
	for i := range g.Groups {
		gr := &g.Groups[i]
		slices.SortStableFunc(gr.Members, func(a, b Member) int { return cmp.Compare(a.Label, b.Label) })
		gr.Label = groupLabel(gr.Members)
		gr.cells = mergeCells(gr.Members, len(g.Lanes))
	}
	slices.SortStableFunc(g.Groups, func(a, b Group) int {
		if c := cmp.Compare(barycenter(a.Targets), barycenter(b.Targets)); c != 0 {
			return c
		}
		return cmp.Compare(a.Label, b.Label)
	})
	return g
}

// shortTableName drops the default catalog and schema: main.default.t -> t.
func shortTableName(name string) string {
	return strings.TrimPrefix(name, workspace.DefaultCatalog+"."+workspace.DefaultSchema+".")
}

// Ownership is the kind and text of a writer's mark.
func Ownership(w *workspace.Writer) (Kind, string) {
	switch {
	case w.Ownership == workspace.OwnerColumn:
		return KindColumn, w.WriterID
	case w.Ownership == workspace.OwnerWhere:
		return KindWhere, w.Where
	case w.Declarative:
		return KindFlow, w.Flow
	}
	return KindTable, "whole table"
}

func targetKey(lanes []Lane, targets []int) string {
	ids := make([]string, len(targets))
	for i, t := range targets {
		ids[i] = string(lanes[t].ID)
	}
	slices.Sort(ids)
	return strings.Join(ids, "\x00")
}

func barycenter(targets []int) float64 {
	if len(targets) == 0 {
		return 0
	}
	sum := 0
	for _, t := range targets {
		sum += t
	}
	return float64(sum) / float64(len(targets))
}

// groupLabel names a group: its member, a pattern of its members when they
// share their node or pipeline name (pl-client-*.orders, pl-x.cdc_*), else
// its first member followed by an ellipsis.
func groupLabel(ms []Member) string {
	if len(ms) == 1 {
		return ms[0].Label
	}
	pls := make([]string, len(ms))
	nodes := make([]string, len(ms))
	for i, m := range ms {
		pls[i], nodes[i] = m.Pipeline, m.Node
	}
	pattern := func(ss []string) string {
		p := commonPrefix(ss)
		if allEqual(ss) {
			return p
		}
		return p + "*"
	}
	if allEqual(nodes) || allEqual(pls) {
		return pattern(pls) + "." + pattern(nodes)
	}
	return ms[0].Label + "…"
}

func allEqual(ss []string) bool {
	for _, s := range ss[1:] {
		if s != ss[0] {
			return false
		}
	}
	return true
}

func commonPrefix(ss []string) string {
	p := ss[0]
	for _, s := range ss[1:] {
		for !strings.HasPrefix(s, p) {
			p = p[:len(p)-1]
		}
	}
	return strings.ToValidUTF8(p, "") // a cut inside a multi-byte rune
}

func mergeCells(ms []Member, lanes int) []Cell {
	out := make([]Cell, lanes)
	for _, m := range ms {
		for i, c := range m.Cells {
			if c.Kind == KindNone {
				continue
			}
			o := &out[i]
			if o.Kind == KindNone {
				o.Kind = c.Kind
			} else if o.Kind != c.Kind {
				o.Kind = KindMixed
			}
			o.Writers += c.Writers
			o.State = max(o.State, c.State)
		}
	}
	for i := range out {
		if out[i].Kind != KindNone {
			out[i].Owner = fmt.Sprintf("%d writers", out[i].Writers)
			out[i].ownerW = ansi.StringWidth(out[i].Owner)
		}
	}
	return out
}

// RowKind tells what a row of the matrix stands for.
type RowKind int

// Row kinds.
const (
	RowSingle    RowKind = iota // a group of one node
	RowCollapsed                // a collapsed group
	RowExpanded                 // a node of an expanded group
)

// Row is one row of the matrix as shown.
type Row struct {
	Kind RowKind
	// Group indexes Graph.Groups; Member indexes the group's members (-1
	// for a collapsed row).
	Group, Member int
	Label         string
	// N is the number of nodes of the row (several when collapsed).
	N      int
	Cells  []Cell
	labelW int
}

// Members returns the nodes a row stands for.
func (g *Graph) Members(r Row) []Member {
	gr := &g.Groups[r.Group]
	if r.Member < 0 {
		return gr.Members
	}
	return gr.Members[r.Member : r.Member+1]
}

// DefaultCollapsed reports whether a group starts collapsed.
func DefaultCollapsed(gr *Group) bool { return len(gr.Members) >= CollapseMin }

// Rows lists the rows to show; collapsed tells which groups of several
// members are shown as one row (nil: DefaultCollapsed).
func (g *Graph) Rows(collapsed func(*Group) bool) []Row {
	if collapsed == nil {
		collapsed = DefaultCollapsed
	}
	var rows []Row
	for gi := range g.Groups {
		gr := &g.Groups[gi]
		switch {
		case len(gr.Members) == 1:
			m := &gr.Members[0]
			rows = append(rows, Row{Kind: RowSingle, Group: gi, Label: m.Label, N: 1, Cells: m.Cells})
		case collapsed(gr):
			rows = append(rows, Row{Kind: RowCollapsed, Group: gi, Member: -1,
				Label: fmt.Sprintf("%s ×%d", gr.Label, len(gr.Members)), N: len(gr.Members), Cells: gr.cells})
		default:
			for mi := range gr.Members {
				m := &gr.Members[mi]
				rows = append(rows, Row{Kind: RowExpanded, Group: gi, Member: mi, Label: m.Label, N: 1, Cells: m.Cells})
			}
		}
	}
	for i := range rows {
		rows[i].labelW = ansi.StringWidth(rows[i].Label)
	}
	return rows
}

// Describe says in full what the row writes: per table, whose rows each
// of its writers owns ("all_orders: where client_id = 1", "prices: writer
// id 'pl-prices.feed_a' in _laktory_writer"); for a collapsed row, how many
// writers of its nodes write each table.
func (g *Graph) Describe(r Row) []string {
	var out []string
	for i, c := range r.Cells {
		if c.Kind == KindNone {
			continue
		}
		lane := g.Lanes[i].Label
		if r.Kind == RowCollapsed {
			out = append(out, fmt.Sprintf("%s: %d writers (space expands the group)", lane, c.Writers))
			continue
		}
		for _, m := range g.Members(r) {
			for _, w := range m.Writers {
				if w.Table == g.Lanes[i].ID {
					out = append(out, lane+": "+ownerPhrase(w))
				}
			}
		}
	}
	return out
}

// ownerPhrase says which rows a writer owns.
func ownerPhrase(w *workspace.Writer) string {
	switch k, owner := Ownership(w); k {
	case KindColumn:
		return fmt.Sprintf("writer id '%s' in %s", owner, w.Column)
	case KindWhere:
		return "where " + owner
	case KindFlow:
		return "append flow " + owner
	}
	return "the whole table"
}

// LaneIndex returns the index of the lane of table id, or -1.
func (g *Graph) LaneIndex(id workspace.TableID) int {
	for i, l := range g.Lanes {
		if l.ID == id {
			return i
		}
	}
	return -1
}
