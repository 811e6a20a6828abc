package tui

import (
	"path/filepath"
	"strings"

	"github.com/charmbracelet/bubbles/key"
	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/x/ansi"
	"github.com/laktory/workbench/runner/history"
	"github.com/laktory/workbench/tui/lanes"
	"github.com/laktory/workbench/workspace"
)

type itemKind int

const (
	itemPipeline itemKind = iota
	itemNode
	itemSink
)

// treeItem is one line of the workspace tree.
type treeItem struct {
	kind     itemKind
	key      objKey
	label    string
	depth    int
	table    workspace.TableID // the sink's table ("" for other items)
	pos      workspace.Pos
	children bool
}

// treePane is the workspace tree: pipelines > nodes > sinks, each with its
// validation mark and the status of its last (or current) run.
type treePane struct {
	c         *common
	ws        *wsView
	items     []treeItem
	collapsed map[objKey]bool
	vis       []int // indexes of the visible items
	cursor    int   // index into vis
	offset    int
	w, h      int
	focused   bool
	runs      map[string]history.Status // task key (pipeline.node) -> status
	q         string                    // the search: only matching items and their parents show
	lines     []string
}

func newTreePane(c *common) treePane {
	return treePane{c: c, collapsed: map[objKey]bool{}, runs: map[string]history.Status{}}
}

// SetSize sets the pane's size.
func (t *treePane) SetSize(w, h int) {
	t.w, t.h = w, h
	t.refresh()
}

// setFocused tells the pane whether it has the focus.
func (t *treePane) setFocused(f bool) {
	t.focused = f
	t.refresh()
}

// setWorkspace rebuilds the items, keeping the cursor on the same object.
func (t *treePane) setWorkspace(ws *wsView) {
	var cur objKey
	had := false
	if it, ok := t.selected(); ok {
		cur, had = it.key, true
	}
	t.ws = ws
	t.items = t.items[:0]
	if ws != nil && ws.snap != nil {
		for _, p := range ws.snap.Pipelines {
			t.items = append(t.items, treeItem{kind: itemPipeline, key: pipelineKey(p.Name), label: p.Name,
				pos: p.Pos, children: len(p.Nodes) > 0})
			for _, n := range p.Nodes {
				t.items = append(t.items, treeItem{kind: itemNode, key: nodeKey(p.Name, n.Name), label: n.Name, depth: 1,
					pos: n.Pos, children: len(n.Sinks) > 0})
				for _, s := range n.Sinks {
					t.items = append(t.items, treeItem{kind: itemSink, key: sinkKey(p.Name, n.Name, s.Index),
						label: sinkLabel(ws.snap, s), depth: 2, table: s.Table, pos: s.Pos})
				}
			}
		}
	}
	t.rebuildVisible()
	if had {
		t.selectKey(cur)
	}
	t.refresh()
}

// sinkLabel names a sink in the tree: its table, folder, view or ForEach
// name.
func sinkLabel(snap *workspace.Snapshot, s *workspace.Sink) string {
	var l string
	switch {
	case s.ForEach != nil && s.ForEach.Name != "":
		l = "foreach " + s.ForEach.Name
	case s.Table != "" && snap.Table(s.Table) != nil:
		l = tableLabel(snap.Table(s.Table))
		if s.TableName == "" {
			l = filepath.Base(filepath.Clean(s.Path)) + "/"
		}
	default:
		l = s.Describe()
	}
	if s.IsQuarantine {
		l += " (quarantine)"
	}
	return "→ " + l
}

// setRuns sets the run status of each task key.
func (t *treePane) setRuns(runs map[string]history.Status) {
	t.runs = runs
	t.refresh()
}

func (t *treePane) rebuildVisible() {
	t.vis = t.vis[:0]
	hidden := -1 // depth below which items are hidden
	keep := t.kept()
	for i, it := range t.items {
		if !keep[i] {
			continue
		}
		if hidden >= 0 && it.depth > hidden {
			continue
		}
		hidden = -1
		t.vis = append(t.vis, i)
		if it.children && t.collapsed[it.key] {
			hidden = it.depth
		}
	}
	t.cursor = min(max(t.cursor, 0), max(len(t.vis)-1, 0))
}

// kept marks the items the search shows: those that match, their parents
// and their children (every item without a search).
func (t *treePane) kept() []bool {
	keep := make([]bool, len(t.items))
	var parents [3]int
	under := -1 // depth of the matching item whose children are kept
	for i, it := range t.items {
		parents[min(it.depth, 2)] = i
		if under >= 0 && it.depth <= under {
			under = -1
		}
		switch {
		case t.q == "" || t.hit(i):
			for d := 0; d <= min(it.depth, 2); d++ {
				keep[parents[d]] = true
			}
			if under < 0 {
				under = it.depth
			}
		case under >= 0:
			keep[i] = true
		}
	}
	return keep
}

// hit reports whether item i matches the search.
func (t *treePane) hit(i int) bool {
	it := t.items[i]
	if it.kind == itemNode {
		return matches(t.q, it.label, it.key.Pipeline+"."+it.key.Node)
	}
	return matches(t.q, it.label)
}

func (t *treePane) query() string { return t.q }

func (t *treePane) search(q string) int {
	t.q = q
	t.rebuildVisible()
	n := 0
	for i := range t.items {
		if q != "" && t.hit(i) {
			n++
		}
	}
	if q != "" && len(t.vis) > 0 && !t.hit(t.vis[t.cursor]) {
		t.step(true)
	}
	t.refresh()
	return n
}

func (t *treePane) step(forward bool) {
	if len(t.vis) == 0 {
		return
	}
	t.cursor = stepIndex(t.cursor, len(t.vis), forward, func(j int) bool { return t.hit(t.vis[j]) })
	t.refresh()
}

// selected returns the item under the cursor.
func (t *treePane) selected() (treeItem, bool) {
	if t.cursor < 0 || t.cursor >= len(t.vis) {
		return treeItem{}, false
	}
	return t.items[t.vis[t.cursor]], true
}

// selectKey moves the cursor to an object, expanding its parents.
func (t *treePane) selectKey(k objKey) bool {
	for i, it := range t.items {
		if it.key != k {
			continue
		}
		delete(t.collapsed, pipelineKey(k.Pipeline))
		if k.Sink >= 0 {
			delete(t.collapsed, nodeKey(k.Pipeline, k.Node))
		}
		t.rebuildVisible()
		for vi, ii := range t.vis {
			if ii == i {
				t.cursor = vi
				t.refresh()
				return true
			}
		}
	}
	return false
}

// selectWriter moves the cursor to a node's sink writing table (or to the
// node when it has none), expanding its parents.
func (t *treePane) selectWriter(pl, node string, table workspace.TableID) {
	k := nodeKey(pl, node)
	for _, it := range t.items {
		if it.kind == itemSink && it.key.Pipeline == pl && it.key.Node == node && it.table == table && table != "" {
			k = it.key
			break
		}
	}
	t.selectKey(k)
}

// Update moves the cursor and folds items.
func (t treePane) Update(msg tea.Msg) (treePane, tea.Cmd) {
	km, ok := msg.(tea.KeyMsg)
	if !ok {
		return t, nil
	}
	k := t.c.keys
	cur, moved := k.move(km, t.cursor, max(t.h-2, 1), len(t.vis)-1)
	switch {
	case moved:
		t.cursor = cur
	case key.Matches(km, k.Toggle):
		if it, ok := t.selected(); ok && it.children {
			t.collapsed[it.key] = !t.collapsed[it.key]
			t.rebuildVisible()
		}
	case key.Matches(km, k.Left):
		if it, ok := t.selected(); ok {
			if it.children && !t.collapsed[it.key] {
				t.collapsed[it.key] = true
				t.rebuildVisible()
			} else if it.depth > 0 { // to the parent
				for t.cursor > 0 {
					t.cursor--
					if p, _ := t.selected(); p.depth < it.depth {
						break
					}
				}
			}
		}
	case key.Matches(km, k.Right):
		if it, ok := t.selected(); ok && it.children && t.collapsed[it.key] {
			t.collapsed[it.key] = false
			t.rebuildVisible()
		}
	default:
		return t, nil
	}
	t.cursor = min(max(t.cursor, 0), max(len(t.vis)-1, 0))
	t.refresh()
	return t, nil
}

// clickLine moves the cursor to the item on line y of the pane.
func (t *treePane) clickLine(y int) {
	i := t.offset + y - 1
	if i >= 0 && i < len(t.vis) {
		t.cursor = i
		t.refresh()
	}
}

// View returns the pane's lines.
func (t treePane) View() []string { return t.lines }

// ShortHelp implements help.KeyMap.
func (t treePane) ShortHelp() []key.Binding {
	k := t.c.keys
	return []key.Binding{k.Up, k.Down, k.Toggle, k.Edit}
}

// FullHelp implements help.KeyMap.
func (t treePane) FullHelp() [][]key.Binding {
	k := t.c.keys
	return [][]key.Binding{{k.Up, k.Down, k.Left, k.Right, k.Toggle, k.Home, k.End, k.Edit}}
}

func (t *treePane) refresh() {
	if t.w <= 0 || t.h <= 0 {
		t.lines = nil
		return
	}
	st := t.c.st
	title := st.PaneTitle
	if t.focused {
		title = st.PaneFocus
	}
	lines := []string{title.Render(ansi.Truncate(" Workspace", t.w, "…"))}
	rows := t.h - 1
	if t.cursor < t.offset {
		t.offset = t.cursor
	}
	if t.cursor >= t.offset+rows {
		t.offset = t.cursor - rows + 1
	}
	t.offset = min(max(t.offset, 0), max(len(t.vis)-rows, 0))
	if len(t.vis) == 0 {
		lines = append(lines, st.Dim.Render(" no pipelines"))
	}
	for vi := t.offset; vi < len(t.vis) && vi < t.offset+rows; vi++ {
		lines = append(lines, t.line(t.items[t.vis[vi]], vi == t.cursor))
	}
	t.lines = fitLines(lines, t.w, t.h)
}

func (t *treePane) line(it treeItem, selected bool) string {
	st := t.c.st
	fold := " "
	if it.children {
		fold = "▾"
		if t.collapsed[it.key] {
			fold = "▸"
		}
	}
	cursor := " "
	if selected {
		cursor = "›"
	}
	left := cursor + strings.Repeat("  ", it.depth) + fold + " "
	var vstate lanes.State
	var run history.Status
	if t.ws != nil {
		vstate = t.ws.ix.of(it.key)
	}
	switch it.kind {
	case itemPipeline:
		run = t.pipelineRun(it.key.Pipeline)
	case itemNode:
		run = t.runs[it.key.Pipeline+"."+it.key.Node]
	}
	room := t.w - ansi.StringWidth(left) - 3
	label := ansi.Truncate(it.label, max(room, 0), "…")
	pad := strings.Repeat(" ", max(room-ansi.StringWidth(label), 0))
	if selected {
		plain := left + label + pad + " " + ansi.Strip(stateMark(st, vstate, false)) + ansi.Strip(runMark(st, run))
		if t.focused {
			return st.Selected.Render(plain)
		}
		return st.Unfocused.Render(plain)
	}
	return left + label + pad + " " + stateMark(st, vstate, false) + runMark(st, run)
}

// pipelineRun sums up its nodes' statuses: running, else failed, else
// succeeded when every node that ran succeeded.
func (t *treePane) pipelineRun(pl string) history.Status {
	var out history.Status
	prefix := pl + "."
	for k, s := range t.runs {
		if !strings.HasPrefix(k, prefix) {
			continue
		}
		switch {
		case s == history.StatusRunning || s == history.StatusQueued:
			return history.StatusRunning
		case s == history.StatusFailed:
			out = history.StatusFailed
		case s == history.StatusSucceeded && out == "":
			out = history.StatusSucceeded
		case out == "":
			out = s
		}
	}
	return out
}
