package tui

import (
	"fmt"
	"strings"

	"github.com/charmbracelet/bubbles/key"
	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/x/ansi"
	"github.com/laktory/workbench/tui/lanes"
	"github.com/laktory/workbench/workspace"
	"github.com/laktory/workbench/workspace/human"
)

// graphPane shows the lane matrix and, for the selected table, its writers
// with their rows, orphan writer ids, readers and problems.
type graphPane struct {
	c         *common
	ws        *wsView
	rows      []lanes.Row
	collapsed map[string]bool // group id -> collapsed, when the user chose
	sel       lanes.Selection
	offset    int // first row shown
	dOffset   int // first line of the table detail shown
	dTable    workspace.TableID
	w, h      int
	focused   bool
	q         string // the search: only the rows of matching writers or tables show
	lines     []string
}

func newGraphPane(c *common) graphPane {
	return graphPane{c: c, collapsed: map[string]bool{}}
}

// SetSize sets the pane's size.
func (g *graphPane) SetSize(w, h int) {
	g.w, g.h = w, h
	g.refresh()
}

func (g *graphPane) setFocused(f bool) {
	g.focused = f
	g.refresh()
}

func (g *graphPane) isCollapsed(gr *lanes.Group) bool {
	if c, ok := g.collapsed[gr.ID]; ok {
		return c
	}
	return lanes.DefaultCollapsed(gr)
}

// setWorkspace takes a new graph, keeping the selected row and lane.
func (g *graphPane) setWorkspace(ws *wsView) {
	var label string
	var lane workspace.TableID
	if g.ws != nil {
		if r, ok := g.selectedRow(); ok {
			label = r.Label
		}
		lane = g.selectedTable()
	}
	g.ws = ws
	g.rows = g.visibleRows()
	g.sel.Row = min(g.sel.Row, max(len(g.rows)-1, 0))
	for i, r := range g.rows {
		if r.Label == label {
			g.sel.Row = i
		}
	}
	if li := ws.graph.LaneIndex(lane); li >= 0 {
		g.sel.Lane = li
	}
	g.sel.Lane = min(g.sel.Lane, max(len(ws.graph.Lanes)-1, 0))
	g.refresh()
}

// visibleRows are the graph's rows that the search keeps.
func (g *graphPane) visibleRows() []lanes.Row {
	rows := g.ws.graph.Rows(g.isCollapsed)
	if g.q == "" {
		return rows
	}
	var out []lanes.Row
	for _, r := range rows {
		if g.hit(r) {
			out = append(out, r)
		}
	}
	return out
}

// hit reports whether a row matches the search: one of its writers, or a
// table it writes.
func (g *graphPane) hit(r lanes.Row) bool {
	texts := []string{r.Label}
	for _, m := range g.ws.graph.Members(r) {
		texts = append(texts, m.Label)
	}
	for i, c := range r.Cells {
		if c.Kind != lanes.KindNone {
			texts = append(texts, g.ws.graph.Lanes[i].Label, string(g.ws.graph.Lanes[i].ID))
		}
	}
	return matches(g.q, texts...)
}

func (g *graphPane) query() string { return g.q }

func (g *graphPane) search(q string) int {
	label := ""
	if r, ok := g.selectedRow(); ok {
		label = r.Label
	}
	g.q = q
	g.rows = g.visibleRows()
	g.sel.Row = 0
	for i, r := range g.rows {
		if r.Label == label {
			g.sel.Row = i
		}
	}
	g.refresh()
	if q == "" {
		return 0
	}
	return len(g.rows)
}

func (g *graphPane) step(forward bool) {
	if len(g.rows) == 0 {
		return
	}
	g.sel.Row = stepIndex(g.sel.Row, len(g.rows), forward, func(int) bool { return true })
	g.refresh()
}

// setStats redraws the detail with new table stats.
func (g *graphPane) setStats(ws *wsView) {
	g.ws = ws
	g.refresh()
}

func (g *graphPane) selectedRow() (lanes.Row, bool) {
	if g.sel.Row < 0 || g.sel.Row >= len(g.rows) {
		return lanes.Row{}, false
	}
	return g.rows[g.sel.Row], true
}

// selectedTable is the table of the selected lane.
func (g *graphPane) selectedTable() workspace.TableID {
	if g.ws == nil || g.sel.Lane < 0 || g.sel.Lane >= len(g.ws.graph.Lanes) {
		return ""
	}
	return g.ws.graph.Lanes[g.sel.Lane].ID
}

// selectedMembers are the writing nodes of the selected row.
func (g *graphPane) selectedMembers() []lanes.Member {
	r, ok := g.selectedRow()
	if !ok {
		return nil
	}
	return g.ws.graph.Members(r)
}

// selectNode moves the cursor to a node's row (expanding its group) and,
// when table is set, to its lane.
func (g *graphPane) selectNode(pl, node string, table workspace.TableID) {
	if g.ws == nil {
		return
	}
	for gi := range g.ws.graph.Groups {
		gr := &g.ws.graph.Groups[gi]
		for _, m := range gr.Members {
			if m.Pipeline == pl && m.Node == node && len(gr.Members) > 1 && g.isCollapsed(gr) {
				g.collapsed[gr.ID] = false
				g.rows = g.visibleRows()
			}
		}
	}
	for i, r := range g.rows {
		for _, m := range g.ws.graph.Members(r) {
			if m.Pipeline == pl && m.Node == node && r.Kind != lanes.RowCollapsed {
				g.sel.Row = i
			}
		}
	}
	if li := g.ws.graph.LaneIndex(table); li >= 0 {
		g.sel.Lane = li
	}
	g.refresh()
}

// Update moves the cursor over rows and lanes and folds groups.
func (g graphPane) Update(msg tea.Msg) (graphPane, tea.Cmd) {
	km, ok := msg.(tea.KeyMsg)
	if !ok || g.ws == nil {
		return g, nil
	}
	k := g.c.keys
	row, moved := k.move(km, g.sel.Row, max(g.h/2, 1), len(g.rows)-1)
	switch {
	case moved:
		g.sel.Row = row
	case key.Matches(km, k.DetailUp):
		g.dOffset--
	case key.Matches(km, k.DetailDown):
		g.dOffset++
	case key.Matches(km, k.Left):
		g.sel.Lane--
	case key.Matches(km, k.Right):
		g.sel.Lane++
	case key.Matches(km, k.Toggle):
		r, ok := g.selectedRow()
		if !ok || r.Kind == lanes.RowSingle {
			return g, nil
		}
		gr := &g.ws.graph.Groups[r.Group]
		g.collapsed[gr.ID] = r.Kind != lanes.RowCollapsed
		g.rows = g.visibleRows()
		for i, row := range g.rows { // keep the cursor on the group
			if row.Group == r.Group {
				g.sel.Row = i
				break
			}
		}
	default:
		return g, nil
	}
	g.sel.Row = min(max(g.sel.Row, 0), max(len(g.rows)-1, 0))
	g.sel.Lane = min(max(g.sel.Lane, 0), max(len(g.ws.graph.Lanes)-1, 0))
	g.refresh()
	return g, nil
}

// View returns the pane's lines.
func (g graphPane) View() []string { return g.lines }

// ShortHelp implements help.KeyMap.
func (g graphPane) ShortHelp() []key.Binding {
	k := g.c.keys
	return []key.Binding{k.Up, k.Down, k.Left, k.Right, k.Toggle}
}

// FullHelp implements help.KeyMap.
func (g graphPane) FullHelp() [][]key.Binding {
	k := g.c.keys
	return [][]key.Binding{{k.Up, k.Down, k.Left, k.Right, k.Toggle, k.PageUp, k.PageDown, k.Home, k.End, k.DetailUp, k.DetailDown}}
}

// detailWidth is the width of the side detail when the pane is wide
// enough, else 0 (the detail goes below the matrix).
func (g *graphPane) detailWidth() int {
	if g.w < 110 {
		return 0
	}
	return min(max(g.w*2/5, 40), 64)
}

func (g *graphPane) refresh() {
	if g.w <= 0 || g.h <= 0 || g.ws == nil {
		g.lines = fitLines(nil, g.w, g.h)
		return
	}
	st := g.c.st
	dw := g.detailWidth()
	mw := g.w
	if dw > 0 {
		mw = g.w - dw - 1
	}
	sel := g.sel
	sel.Focused = g.focused
	view := lanes.Render(g.ws.graph, g.rows, sel, mw, &st.Lanes)
	g.sel.FirstLane = view.FirstLane
	detail := g.detail(g.w)
	if dw > 0 {
		detail = g.detail(dw)
	}
	// Under the matrix: the selected row in full (its writer ids and
	// ownership), then the legend.
	foot := append(g.rowLines(mw), lanes.Legend(&st.Lanes, mw)...)

	// Matrix height: all of it when the detail is on the side, else what
	// leaves the detail at least a third of the pane.
	mh := g.h
	if dw == 0 {
		mh = min(view.HeaderLines+len(g.rows)+len(foot), max(g.h-len(detail)-1, g.h*2/3))
	}
	matrix := append(g.window(view, mh-len(foot)), foot...)
	if dw > 0 {
		left := fitLines(matrix, mw, g.h)
		right := fitLines(g.detailWindow(detail, g.h), dw, g.h)
		sep := st.Separator.Render("│")
		g.lines = make([]string, g.h)
		for i := range g.lines {
			g.lines[i] = left[i] + sep + right[i]
		}
		return
	}
	lines := fitLines(matrix, g.w, mh)
	lines = append(lines, st.Separator.Render(strings.Repeat("─", g.w)))
	lines = append(lines, g.detailWindow(detail, g.h-mh-1)...)
	g.lines = fitLines(lines, g.w, g.h)
}

// rowLines describe the selected row in full: its label, and whose rows
// it owns in each table it writes.
func (g *graphPane) rowLines(w int) []string {
	r, ok := g.selectedRow()
	if !ok {
		return nil
	}
	st := g.c.st
	text := st.Bold.Render("▸ "+r.Label) + st.Dim.Render(" → ") + strings.Join(g.ws.graph.Describe(r), st.Dim.Render(" · "))
	return wrapText(text, w, 4)
}

// detailWindow keeps the lines of the table detail that fit in h from
// dOffset on (J/K scroll; a new table starts at the top); when some are
// cut, the last line says so.
func (g *graphPane) detailWindow(detail []string, h int) []string {
	if id := g.selectedTable(); id != g.dTable {
		g.dTable, g.dOffset = id, 0
	}
	if h <= 0 || len(detail) <= h {
		g.dOffset = 0
		return detail
	}
	rows := max(h-1, 1)
	g.dOffset = min(max(g.dOffset, 0), len(detail)-rows)
	end := g.dOffset + rows
	more := g.c.st.Dim.Render(fmt.Sprintf("J/K scroll · lines %d-%d of %d", g.dOffset+1, end, len(detail)))
	return append(append([]string(nil), detail[g.dOffset:end]...), more)
}

// window keeps the header and the rows around the cursor within h lines.
func (g *graphPane) window(v lanes.View, h int) []string {
	hdr := v.Lines[:min(v.HeaderLines, len(v.Lines))]
	body := v.Lines[len(hdr):]
	rows := max(h-len(hdr), 1)
	if g.sel.Row < g.offset {
		g.offset = g.sel.Row
	}
	if g.sel.Row >= g.offset+rows {
		g.offset = g.sel.Row - rows + 1
	}
	g.offset = min(max(g.offset, 0), max(len(body)-rows, 0))
	end := min(g.offset+rows, len(body))
	out := append([]string(nil), hdr...)
	return append(out, body[g.offset:end]...)
}

// detail describes the selected table and row.
func (g *graphPane) detail(w int) []string {
	st := g.c.st
	id := g.selectedTable()
	t := g.ws.table(id)
	if t == nil {
		return []string{st.Dim.Render("no table selected")}
	}
	stats, have := g.ws.stats[id]
	var lines []string
	add := func(s string) { lines = append(lines, ansi.Truncate(s, w, "…")) }
	kind := "not shared"
	if t.View() {
		kind = "view"
	}
	if t.Shared() || len(t.Writers) > 1 {
		kind = "shared"
		switch {
		case len(t.Writers) > 0 && t.Writers[0].Ownership == workspace.OwnerColumn:
			kind += ", writer column " + t.Writers[0].Column
		case len(t.Writers) > 0 && t.Writers[0].Ownership == workspace.OwnerWhere:
			kind += ", where predicates"
		case len(t.Writers) > 0 && t.Writers[0].Declarative:
			kind += ", append flows"
		}
	}
	add(st.Bold.Render(tableLabel(t)) + st.Dim.Render("  "+t.Label()))
	state := "not read yet"
	switch {
	case !have:
	case stats.Facts.Err != "":
		state = st.Warning.Render("unreadable: " + stats.Facts.Err)
	case !stats.Facts.Exists:
		state = "not written yet"
	case stats.View:
		state = "a view: its SQL, no rows of its own"
	default:
		rows := human.Count(stats.Rows) + " rows"
		if !stats.RowsExact {
			rows = "≥" + rows
		}
		state = fmt.Sprintf("version %d, %s", stats.Version, rows)
	}
	lines = append(lines, wrap(st.Dim.Render(kind+" · "+ansi.Strip(state)), w)...)

	sel := map[string]bool{}
	for _, m := range g.selectedMembers() {
		sel[m.Pipeline+"\x00"+m.Node] = true
	}
	writers, orphans := tableWriters(t, stats, have)
	add(st.Accent.Render(fmt.Sprintf("Writers (%d)", len(writers))))
	for _, wr := range writers {
		cur := " "
		if sel[wr.w.Pipeline+"\x00"+wr.w.Node] {
			cur = "›"
		}
		k, _ := lanes.Ownership(wr.w)
		mark := st.Lanes.Marks[g.ws.ix.writerState(wr.w)].Wrap(lanes.Glyph(k))
		rows := st.Dim.Render("–")
		switch {
		case wr.err != "":
			rows = st.Warning.Render("?")
		case wr.known:
			rows = human.Count(wr.rows)
		}
		name := wr.w.Pipeline + "." + wr.w.Node
		left := cur + mark + " " + name + " " + st.Dim.Render(wr.owner)
		add(rightAlign(left, rows, w))
	}
	if len(orphans) > 0 {
		add(st.Warning.Render("Orphan writer ids (no writer declares them)"))
		for _, o := range orphans {
			add(rightAlign("  "+o.id, human.Count(o.rows), w))
		}
	}
	var stream, batch []*workspace.Reader
	for _, r := range t.Readers {
		if r.AsStream {
			stream = append(stream, r)
		} else {
			batch = append(batch, r)
		}
	}
	if len(stream) > 0 {
		add(st.Accent.Render(fmt.Sprintf("Streaming readers (%d)", len(stream))))
		for _, r := range stream {
			add("  " + r.Pipeline + "." + r.Node + st.Dim.Render(" "+readerOptions(r)))
		}
	}
	if len(batch) > 0 {
		add(st.Accent.Render(fmt.Sprintf("Batch readers (%d)", len(batch))))
		for _, r := range batch {
			add("  " + r.Pipeline + "." + r.Node + st.Dim.Render(" "+readerOptions(r)))
		}
	}
	if ds := g.ws.ix.tableDiags(t); len(ds) > 0 {
		add(st.Accent.Render(fmt.Sprintf("Problems (%d)", len(ds))))
		for _, d := range ds {
			lines = append(lines, wrap(" "+severityMark(st, d.Severity)+" "+st.Dim.Render(d.Code)+" "+d.Message, w)...)
		}
	}
	return lines
}

// readerOptions describes how a reader reads: its kind and options.
func readerOptions(r *workspace.Reader) string {
	parts := []string{string(r.Kind)}
	if r.FromNode != "" {
		parts[0] += " " + r.FromNode
	}
	for _, k := range sortedKeys(r.ReaderKwargs) {
		parts = append(parts, fmt.Sprintf("%s=%v", k, r.ReaderKwargs[k]))
	}
	return strings.Join(parts, " · ")
}

// rightAlign puts right at the right edge of a w-wide line after left.
func rightAlign(left, right string, w int) string {
	lw, rw := ansi.StringWidth(left), ansi.StringWidth(right)
	if lw+rw+1 > w {
		left = ansi.Truncate(left, max(w-rw-1, 0), "…")
		lw = ansi.StringWidth(left)
	}
	return left + strings.Repeat(" ", max(w-lw-rw, 1)) + right
}
