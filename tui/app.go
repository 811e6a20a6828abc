package tui

import (
	"context"
	"errors"
	"fmt"
	"math"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/charmbracelet/bubbles/help"
	"github.com/charmbracelet/bubbles/key"
	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/x/ansi"
	"github.com/laktory/workbench/runner"
	"github.com/laktory/workbench/runner/engine"
	"github.com/laktory/workbench/runner/history"
	"github.com/laktory/workbench/runner/watch"
	"github.com/laktory/workbench/tui/lanes"
	"github.com/laktory/workbench/validate"
	"github.com/laktory/workbench/workspace"
	"github.com/laktory/workbench/workspace/human"
)

// Pane names the focusable panes.
type Pane int

// Panes.
const (
	PaneTree Pane = iota // the workspace tree
	PaneMain             // the active tab
)

// Tab names the tabs of the main pane.
type Tab int

// Tabs, in order.
const (
	TabGraph Tab = iota
	TabProblems
	TabRuns
	TabTable
)

var tabNames = [...]string{"Graph", "Problems", "Runs", "Table"}

func (t Tab) String() string { return tabNames[t] }

// Model is the workbench, a tea.Model.
type Model struct {
	deps   Deps
	ctx    context.Context
	c      *common
	w, h   int
	lay    screenLayout
	focus  Pane
	tab    Tab
	ws     *wsView
	stats  map[workspace.TableID]TableStats
	seq    struct{ val, stats, table, hist, last, run int }
	tree   treePane
	graph  graphPane
	probs  problemsPane
	runs   runsPane
	table  tablePane
	dialog *dialog
	help   help.Model
	helpOn bool
	helpAt int // first line of the help shown (it scrolls when taller than the pane)
	// searching is true while a search is typed; found counts the matches
	// of the focused pane's search.
	searching bool
	found     int
	auto      autoRun // watch mode
	status    string
	errOn     bool
	last      map[string]history.Status // last task statuses from the history
	tabX      [len(tabNames)][2]int     // tab label columns, for clicks
	frame     string
	// watch follows the log of the table shown (TableWatcher).
	watch tableWatch
	// refresh coalesces table reloads asked for by run events and log
	// changes: one at a time, and one more if asked meanwhile.
	refresh struct{ busy, again bool }

	// paramValues are the pipeline parameters given in this session, the
	// parameters dialog's defaults.
	paramValues map[string]string
	// engine is the engine picked in a run dialog this session ("": the
	// config's, else local).
	engine string
}

// tableWatch is the watch of the shown table's log.
type tableWatch struct {
	token   int
	id      workspace.TableID
	changes <-chan struct{}
	stop    func()
}

// New builds the workbench over a loaded workspace.
func New(d Deps) Model {
	if d.Context == nil {
		d.Context = context.Background()
	}
	if d.Now == nil {
		d.Now = time.Now
	}
	if d.Tick == 0 {
		d.Tick = time.Second
	}
	pal := DefaultPalette()
	if d.NoColor {
		pal = NoColorPalette()
	}
	keys := DefaultKeyMap()
	c := &common{st: NewStyles(pal), keys: &keys, now: d.Now}
	if d.Snapshot != nil {
		c.dir = d.Snapshot.Dir
	}
	diags := d.Diagnostics
	if diags == nil && d.Snapshot != nil {
		diags = validate.Check(d.Snapshot, validate.Options{SQL: d.SQL})
	}
	m := Model{deps: d, ctx: d.Context, c: c, focus: PaneMain, tab: TabGraph, last: map[string]history.Status{},
		tree: newTreePane(c), graph: newGraphPane(c), probs: newProblemsPane(c), runs: newRunsPane(c, d.History != nil),
		table: newTablePane(c), help: help.New()}
	m.help.Styles = c.st.Help
	m.auto = autoRun{on: d.Watch, q: watch.Queue{Debounce: d.WatchDebounce}}
	if m.auto.q.Debounce <= 0 {
		m.auto.q.Debounce = watch.DefaultDebounce
	}
	m.setWorkspace(newWSView(d.Snapshot, diags, nil))
	m.syncFocus()
	m.table.setTable(m.graph.selectedTable())
	return m
}

// Focused returns the focused pane.
func (m Model) Focused() Pane { return m.focus }

// ActiveTab returns the tab shown in the main pane.
func (m Model) ActiveTab() Tab { return m.tab }

// Diagnostics returns the diagnostics shown.
func (m Model) Diagnostics() []workspace.Diagnostic { return m.ws.diags }

// Snapshot returns the workspace shown.
func (m Model) Snapshot() *workspace.Snapshot { return m.ws.snap }

// Init starts the watcher, and reads the tables and the run history.
func (m Model) Init() tea.Cmd {
	var cmds []tea.Cmd
	if m.deps.Events != nil {
		cmds = append(cmds, waitWatch(m.deps.Events))
	}
	if m.deps.Data != nil {
		cmds = append(cmds, waitData(m.deps.Data.Changes()))
	}
	if m.deps.Lake != nil {
		cmds = append(cmds, statsCmd(m.ctx, m.deps.Lake, m.seq.stats, m.ws.snap))
	}
	if m.deps.Validator != nil && m.ws.snap != nil {
		cmds = append(cmds, validateCmd(m.ctx, m.deps.Validator, m.deps.SQL, m.seq.val, m.ws.snap, nil))
	}
	if m.deps.History != nil {
		m.runs.loading = true
		cmds = append(cmds, historyCmd(m.ctx, m.deps.History, m.seq.hist, 0), lastTasksCmd(m.ctx, m.deps.History, m.seq.last))
	}
	if w, ok := m.deps.Lake.(TableWatcher); ok && m.table.id != "" {
		cmds = append(cmds, watchTableCmd(w, m.watch.token, m.table.id, m.ws.snap))
	}
	return tea.Batch(cmds...)
}

// Update handles a message; it never does I/O (commands do).
func (m Model) Update(msg tea.Msg) (tea.Model, tea.Cmd) {
	cmd := m.update(msg)
	m.compose()
	return m, cmd
}

func (m *Model) update(msg tea.Msg) tea.Cmd {
	switch msg := msg.(type) {
	case tea.WindowSizeMsg:
		m.resize(msg.Width, msg.Height)
	case tea.KeyMsg:
		if msg.Type == tea.KeyRunes && len(msg.Runes) > 1 && !msg.Paste {
			// Keys typed faster than the program reads them arrive as one
			// message ("jjl"): each is a key press.
			var cmds []tea.Cmd
			for _, r := range msg.Runes {
				cmds = append(cmds, m.key(tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune{r}, Alt: msg.Alt}))
			}
			return tea.Batch(cmds...)
		}
		return m.key(msg)
	case tea.MouseMsg:
		return m.mouse(msg)
	case snapshotMsg:
		var cmds []tea.Cmd
		if msg.ev.Err != nil {
			m.setStatus("watching the workspace: "+msg.ev.Err.Error(), true)
		}
		if msg.ev.Snapshot != nil {
			if m.auto.old == nil {
				m.auto.old = m.ws.snap
			}
			m.auto.changed = append(m.auto.changed, msg.ev.Changed...)
			if m.deps.Data != nil {
				m.deps.Data.Update(msg.ev.Snapshot)
			}
			m.seq.val++
			cmds = append(cmds, validateCmd(m.ctx, m.deps.Validator, m.deps.SQL, m.seq.val, msg.ev.Snapshot, factsOf(m.stats)))
		}
		return tea.Batch(append(cmds, waitWatch(m.deps.Events))...)
	case watchClosedMsg:
		return nil
	case validatedMsg:
		if msg.seq != m.seq.val {
			return nil // a newer validation is on its way
		}
		newTables := !sameTables(m.ws.snap, msg.snap)
		m.setWorkspace(newWSView(msg.snap, msg.diags, m.stats))
		var cmds []tea.Cmd
		if len(m.auto.changed) > 0 && msg.snap != m.auto.old {
			cmds = append(cmds, m.watchChange(watch.Change{Old: m.auto.old, New: msg.snap, Paths: m.auto.changed, Diagnostics: msg.diags}))
			m.auto.changed, m.auto.old = nil, nil
		}
		if newTables {
			cmds = append(cmds, m.reloadTables())
		}
		return tea.Batch(cmds...)
	case dataMsg:
		return tea.Batch(m.watchChange(watch.Change{New: m.ws.snap, Paths: msg.paths}), waitData(m.deps.Data.Changes()))
	case dataEndMsg:
		return nil
	case autoTickMsg:
		return m.autoDue()
	case statsMsg:
		if msg.seq != m.seq.stats {
			return nil
		}
		again := m.refresh.again
		m.refresh.busy, m.refresh.again = false, false
		if msg.err != nil {
			m.setStatus("reading the tables: "+msg.err.Error(), true)
			if again {
				return m.reloadTables()
			}
			return nil
		}
		m.stats = msg.stats
		ws := *m.ws
		ws.stats = msg.stats
		m.ws = &ws
		m.graph.setStats(m.ws)
		m.table.setWorkspace(m.ws)
		m.seq.val++ // the deep rules read the facts
		cmd := validateCmd(m.ctx, m.deps.Validator, m.deps.SQL, m.seq.val, m.ws.snap, factsOf(m.stats))
		if again {
			return tea.Batch(cmd, m.reloadTables())
		}
		return cmd
	case tableWatchMsg:
		if msg.token != m.watch.token {
			return stopWatchCmd(msg.stop) // the shown table changed meanwhile
		}
		if msg.err != nil {
			return nil // no watch: ctrl+r still reloads
		}
		m.watch.changes, m.watch.stop = msg.changes, msg.stop
		return waitTableChange(msg.token, msg.changes)
	case tableChangedMsg:
		if msg.token != m.watch.token {
			return nil
		}
		return tea.Batch(m.refreshTables(), waitTableChange(msg.token, m.watch.changes))
	case tableMsg:
		if msg.seq == m.seq.table {
			m.table.setInfo(msg.id, msg.info, msg.err)
		}
	case historyMsg:
		if msg.seq == m.seq.hist {
			m.runs.setPage(msg.before, msg.page, msg.err)
		}
	case detailMsg:
		m.runs.setDetail(msg.id, msg.detail, msg.err)
	case lastTasksMsg:
		if msg.seq == m.seq.last && msg.err == nil {
			m.last = map[string]history.Status{}
			for _, t := range msg.tasks {
				m.last[t.Key] = t.Status
			}
			m.updateRunMarks()
		}
	case paramsMsg:
		return m.paramsLoaded(msg)
	case planMsg:
		if msg.token == m.auto.plan {
			return m.autoPlanned(msg)
		}
		return m.planned(msg)
	case startedMsg:
		return m.started(msg)
	case runEventMsg:
		lr := m.runs.live
		if lr == nil || msg.token != lr.token {
			return nil
		}
		lr.apply(msg.ev)
		m.runs.render()
		m.updateRunMarks()
		next := waitRunEvent(msg.token, lr.handle.Events())
		switch msg.ev.Kind {
		case runner.EventOperation, runner.EventDeleted, runner.EventTaskFinished:
			// The run changed a table (or a checkpoint): the Table tab and
			// the rows per writer follow.
			return tea.Batch(next, m.refreshTables())
		}
		return next
	case runClosedMsg:
		lr := m.runs.live
		if lr == nil || msg.token != lr.token {
			return nil
		}
		lr.close(m.c.now())
		m.runs.render()
		m.updateRunMarks()
		st := fmt.Sprintf("run %s: %s", lr.target, lr.status)
		if n := len(lr.warnings); n > 0 {
			st += fmt.Sprintf(" with %s (3 Runs shows them)", human.Plural(int64(n), "warning"))
		}
		m.setStatus(st, lr.status != history.StatusSucceeded)
		return tea.Batch(m.reloadHistory(), m.reloadTables(), m.autoClosed(msg.token))
	case tickMsg:
		if lr := m.runs.live; lr != nil && msg.token == lr.token && !lr.done() {
			m.runs.render()
			return tickCmd(m.deps.Tick, msg.token)
		}
	case editorMsg:
		if msg.err != nil {
			m.setStatus("editor: "+msg.err.Error(), true)
		}
	}
	return nil
}

// sameTables reports whether two snapshots have the same tables.
func sameTables(a, b *workspace.Snapshot) bool {
	if a == nil || b == nil || len(a.Tables) != len(b.Tables) {
		return a == b
	}
	for i := range a.Tables {
		if a.Tables[i].ID != b.Tables[i].ID {
			return false
		}
	}
	return true
}

func (m *Model) setWorkspace(ws *wsView) {
	m.ws = ws
	m.tree.setWorkspace(ws)
	m.graph.setWorkspace(ws)
	m.probs.setWorkspace(ws)
	m.table.setWorkspace(ws)
	m.runs.snap = ws.snap
}

func (m *Model) setStatus(s string, isErr bool) {
	m.status, m.errOn = s, isErr
}

// reloadTables re-reads the tables' stats and the shown table (when the
// Table tab is not shown, its data is marked stale: it is read again when
// the tab is).
func (m *Model) reloadTables() tea.Cmd {
	if m.deps.Lake == nil {
		return nil
	}
	m.seq.stats++
	m.refresh.busy = true
	cmds := []tea.Cmd{statsCmd(m.ctx, m.deps.Lake, m.seq.stats, m.ws.snap)}
	if m.tab == TabTable && m.table.id != "" {
		cmds = append(cmds, m.loadTable())
	} else {
		m.table.stale = true
	}
	return tea.Batch(cmds...)
}

// refreshTables reloads the tables after a change (a run's event, a commit
// in the shown table's log): at once, or after the reload in flight.
func (m *Model) refreshTables() tea.Cmd {
	if m.refresh.busy {
		m.refresh.again = true
		return nil
	}
	return m.reloadTables()
}

// loadTable reads the table of the Table tab.
func (m *Model) loadTable() tea.Cmd {
	if m.deps.Lake == nil || m.table.id == "" {
		return nil
	}
	m.seq.table++
	m.table.setLoading(true)
	return tableCmd(m.ctx, m.deps.Lake, m.seq.table, m.ws.snap, m.table.id)
}

// reloadHistory re-reads the newest runs and the last task statuses.
func (m *Model) reloadHistory() tea.Cmd {
	if m.deps.History == nil {
		return nil
	}
	m.seq.hist++
	m.seq.last++
	m.runs.loading = true
	return tea.Batch(historyCmd(m.ctx, m.deps.History, m.seq.hist, 0), lastTasksCmd(m.ctx, m.deps.History, m.seq.last))
}

// updateRunMarks gives the tree the status of each node: the run in
// progress first, else the history's last.
func (m *Model) updateRunMarks() {
	marks := make(map[string]history.Status, len(m.last))
	for k, s := range m.last {
		marks[k] = s
	}
	if lr := m.runs.live; lr != nil {
		for _, t := range lr.tasks {
			if t.status != history.StatusQueued || !lr.done() {
				marks[t.key] = t.status
			}
		}
	}
	m.tree.setRuns(marks)
}

func (m *Model) resize(w, h int) {
	m.w, m.h = w, h
	m.lay = computeLayout(w, h)
	if m.lay.TooSmall {
		return
	}
	m.help.Width = m.lay.Main.W
	m.tree.SetSize(m.lay.Tree.W, m.lay.Tree.H)
	mw, mh := m.lay.Main.W, m.lay.Main.H
	m.graph.SetSize(mw, mh)
	m.probs.SetSize(mw, mh)
	m.runs.SetSize(mw, mh)
	m.table.SetSize(mw, mh)
}

func (m *Model) syncFocus() {
	m.tree.setFocused(m.focus == PaneTree)
	main := m.focus == PaneMain
	m.graph.setFocused(main && m.tab == TabGraph)
	m.probs.setFocused(main && m.tab == TabProblems)
	m.runs.setFocused(main && m.tab == TabRuns)
	m.table.setFocused(main && m.tab == TabTable)
}

func (m *Model) setTab(t Tab) tea.Cmd {
	m.tab = t
	m.syncFocus()
	if t == TabTable && m.table.id != "" && (m.table.info == nil || m.table.stale) && !m.table.loading {
		return m.loadTable()
	}
	return nil
}

// key handles a key press: the dialog, the help, global keys, then the
// focused pane.
func (m *Model) key(msg tea.KeyMsg) tea.Cmd {
	k := m.c.keys
	m.status = ""
	if msg.String() == "ctrl+c" {
		return m.quit()
	}
	if m.dialog != nil {
		return m.dialogKey(msg)
	}
	if m.helpOn {
		switch {
		case key.Matches(msg, k.Help, k.Back):
			m.helpOn = false
		case key.Matches(msg, k.Quit):
			return m.requestQuit()
		default:
			m.helpAt, _ = k.move(msg, m.helpAt, max(m.lay.Main.H/2, 1), math.MaxInt32) // the help clamps it
		}
		return nil
	}
	if m.searching {
		return m.searchKey(msg)
	}
	switch {
	case key.Matches(msg, k.Search):
		if s := m.searchTarget(); s != nil {
			m.searching = true
			m.found = s.search(s.query())
		}
		return nil
	case key.Matches(msg, k.NextMatch, k.PrevMatch) && m.filtered():
		m.searchTarget().step(key.Matches(msg, k.NextMatch))
		return m.searchMoved()
	case key.Matches(msg, k.Back) && m.filtered():
		m.searchTarget().search("")
		return m.searchMoved()
	case key.Matches(msg, k.Quit):
		return m.requestQuit()
	case key.Matches(msg, k.Help):
		m.helpOn, m.helpAt = true, 0
		return nil
	case key.Matches(msg, k.NextPane), key.Matches(msg, k.PrevPane):
		m.focus = 1 - m.focus
		m.syncFocus()
		return nil
	case key.Matches(msg, k.Graph):
		return m.setTab(TabGraph)
	case key.Matches(msg, k.Problems):
		return m.setTab(TabProblems)
	case key.Matches(msg, k.Runs):
		return m.setTab(TabRuns)
	case key.Matches(msg, k.Table):
		return m.setTab(TabTable)
	case key.Matches(msg, k.NextTab):
		return m.setTab((m.tab + 1) % Tab(len(tabNames)))
	case key.Matches(msg, k.PrevTab):
		return m.setTab((m.tab + Tab(len(tabNames)) - 1) % Tab(len(tabNames)))
	case key.Matches(msg, k.Run):
		return m.runKey(validate.RefreshIncremental)
	case key.Matches(msg, k.Full):
		return m.runKey(validate.RefreshFull)
	case key.Matches(msg, k.Reset):
		return m.runKey(validate.RefreshReset)
	case key.Matches(msg, k.RunAll):
		return m.runAll()
	case key.Matches(msg, k.Watch):
		return m.toggleWatch()
	case key.Matches(msg, k.Cancel):
		return m.cancelRun()
	case key.Matches(msg, k.Reload):
		return tea.Batch(m.reloadTables(), m.reloadHistory())
	case key.Matches(msg, k.Edit):
		return m.editSelection()
	}
	if m.focus == PaneTree {
		m.tree, _ = m.tree.Update(msg)
		return m.treeMoved()
	}
	switch m.tab {
	case TabGraph:
		if key.Matches(msg, k.Enter) {
			if r, ok := m.graph.selectedRow(); ok && r.Kind == lanes.RowSingle {
				return m.setTab(TabTable)
			}
		}
		m.graph, _ = m.graph.Update(msg)
		return m.graphMoved()
	case TabProblems:
		if key.Matches(msg, k.OpenProblem) {
			if d, ok := m.probs.selected(); ok {
				return m.openEditor(d.File, d.Line)
			}
			return nil
		}
		m.probs, _ = m.probs.Update(msg)
		m.problemMoved()
	case TabRuns:
		if !m.runs.inDetail() && key.Matches(msg, k.OpenRun) {
			if run, ok := m.runs.selectedRun(); ok && m.deps.History != nil {
				m.runs.detailID, m.runs.detail = run.ID, nil
				m.runs.render()
				return detailCmd(m.ctx, m.deps.History, run.ID)
			}
			return nil
		}
		m.runs, _ = m.runs.Update(msg)
		if before := m.runs.nextBefore(); before > 0 && m.deps.History != nil {
			m.runs.loading = true
			return historyCmd(m.ctx, m.deps.History, m.seq.hist, before)
		}
	case TabTable:
		m.table, _ = m.table.Update(msg)
	}
	return nil
}

// searchTarget is the focused pane when it can be searched (the Runs tab
// in a run's detail cannot).
func (m *Model) searchTarget() searchable {
	if m.focus == PaneTree {
		return &m.tree
	}
	switch m.tab {
	case TabGraph:
		return &m.graph
	case TabProblems:
		return &m.probs
	case TabRuns:
		if !m.runs.inDetail() {
			return &m.runs
		}
	case TabTable:
		return &m.table
	}
	return nil
}

// filtered reports whether the focused pane has a search.
func (m *Model) filtered() bool {
	s := m.searchTarget()
	return s != nil && s.query() != ""
}

// searchKey edits the search being typed: runes and backspace change it
// (the pane filters as it changes), ↑/↓ move between matches, enter keeps
// it, esc clears it.
func (m *Model) searchKey(msg tea.KeyMsg) tea.Cmd {
	s := m.searchTarget()
	if s == nil {
		m.searching = false
		return nil
	}
	q := s.query()
	switch msg.Type {
	case tea.KeyEsc:
		m.searching, q = false, ""
	case tea.KeyEnter:
		m.searching = false
		return nil
	case tea.KeyBackspace:
		if r := []rune(q); len(r) > 0 {
			q = string(r[:len(r)-1])
		}
	case tea.KeyUp, tea.KeyDown:
		s.step(msg.Type == tea.KeyDown)
		return m.searchMoved()
	case tea.KeyRunes, tea.KeySpace:
		q += string(msg.Runes)
	default:
		return nil
	}
	m.found = s.search(q)
	return m.searchMoved()
}

// searchMoved follows the cursor a search moved, as the keys do.
func (m *Model) searchMoved() tea.Cmd {
	if m.focus == PaneTree {
		return m.treeMoved()
	}
	switch m.tab {
	case TabGraph:
		return m.graphMoved()
	case TabProblems:
		m.problemMoved()
	}
	return nil
}

// treeMoved follows the tree's cursor in the graph and the Table tab.
func (m *Model) treeMoved() tea.Cmd {
	it, ok := m.tree.selected()
	if !ok || it.kind == itemPipeline {
		return nil
	}
	m.graph.selectNode(it.key.Pipeline, it.key.Node, it.table)
	if it.table != "" {
		return m.showTable(it.table)
	}
	return nil
}

// problemMoved selects in the tree the object of the selected problem,
// which the run keys act on from the Problems tab.
func (m *Model) problemMoved() {
	if d, ok := m.probs.selected(); ok {
		if k, ok := m.ws.ix.objectOf(d); ok {
			m.tree.selectKey(k)
		}
	}
}

// graphMoved follows the graph's lane in the Table tab, and its writer in
// the tree: the tree holds the last writer selected, which the run keys
// act on from the tabs that select none (Problems, Runs).
func (m *Model) graphMoved() tea.Cmd {
	if ms := m.graph.selectedMembers(); len(ms) == 1 {
		m.tree.selectWriter(ms[0].Pipeline, ms[0].Node, m.graph.selectedTable())
	}
	return m.showTable(m.graph.selectedTable())
}

func (m *Model) showTable(id workspace.TableID) tea.Cmd {
	if !m.table.setTable(id) {
		return nil
	}
	cmd := m.rewatch()
	if m.tab != TabTable {
		return cmd
	}
	return tea.Batch(cmd, m.loadTable())
}

// rewatch moves the log watch to the shown table: the old watch stops and
// a new one starts, both in commands.
func (m *Model) rewatch() tea.Cmd {
	w, ok := m.deps.Lake.(TableWatcher)
	if !ok {
		return nil
	}
	stop := m.watch.stop
	m.watch = tableWatch{token: m.watch.token + 1, id: m.table.id}
	cmds := []tea.Cmd{stopWatchCmd(stop)}
	if m.table.id != "" {
		cmds = append(cmds, watchTableCmd(w, m.watch.token, m.table.id, m.ws.snap))
	}
	return tea.Batch(cmds...)
}

func (m *Model) mouse(msg tea.MouseMsg) tea.Cmd {
	if m.lay.TooSmall || m.dialog != nil || m.helpOn {
		return nil
	}
	ev := tea.MouseEvent(msg)
	var keyMsg tea.KeyMsg
	switch {
	case ev.Button == tea.MouseButtonWheelUp:
		keyMsg = tea.KeyMsg{Type: tea.KeyUp}
	case ev.Button == tea.MouseButtonWheelDown:
		keyMsg = tea.KeyMsg{Type: tea.KeyDown}
	case ev.Button == tea.MouseButtonLeft && ev.Action == tea.MouseActionPress:
		switch {
		case m.lay.Tabs.contains(ev.X, ev.Y):
			for i, r := range m.tabX {
				if ev.X >= r[0] && ev.X < r[1] {
					m.focus = PaneMain
					return m.setTab(Tab(i))
				}
			}
		case m.lay.Tree.contains(ev.X, ev.Y):
			m.focus = PaneTree
			m.syncFocus()
			m.tree.clickLine(ev.Y - m.lay.Tree.Y)
			return m.treeMoved()
		case m.lay.Main.contains(ev.X, ev.Y):
			m.focus = PaneMain
			m.syncFocus()
		}
		return nil
	default:
		return nil
	}
	if m.lay.Tree.contains(ev.X, ev.Y) {
		m.focus = PaneTree
	} else if m.lay.Main.contains(ev.X, ev.Y) {
		m.focus = PaneMain
	}
	m.syncFocus()
	return m.key(keyMsg)
}

// requestQuit quits, after a confirmation when a run is in progress.
func (m *Model) requestQuit() tea.Cmd {
	if lr := m.runs.live; lr != nil && !lr.done() {
		m.dialog = &dialog{kind: dlgQuit, title: "A run is in progress",
			body: []string{"Quitting cancels " + lr.target + ": its running tasks stop before their commit."}}
		return nil
	}
	return tea.Quit
}

func (m *Model) quit() tea.Cmd {
	if lr := m.runs.live; lr != nil && !lr.done() {
		return tea.Sequence(cancelCmd(lr.handle), tea.Quit)
	}
	return tea.Quit
}

func (m *Model) cancelRun() tea.Cmd {
	lr := m.runs.live
	if lr == nil || lr.done() {
		m.setStatus("no run in progress", false)
		return nil
	}
	lr.cancelling = true
	m.runs.render()
	m.setStatus("cancelling "+lr.target+"…", false)
	return cancelCmd(lr.handle)
}

// editSelection opens the file of the selection at its line.
func (m *Model) editSelection() tea.Cmd {
	var pos workspace.Pos
	switch {
	case m.focus == PaneMain && m.tab == TabProblems:
		if d, ok := m.probs.selected(); ok {
			pos = d.Pos()
		}
	case m.focus == PaneMain && m.tab == TabGraph:
		if ms := m.graph.selectedMembers(); len(ms) > 0 && len(ms[0].Writers) > 0 {
			pos = ms[0].Writers[0].Pos
		}
	default:
		if it, ok := m.tree.selected(); ok {
			pos = it.pos
		}
	}
	return m.openEditor(pos.File, pos.Line)
}

func (m *Model) openEditor(file string, line int) tea.Cmd {
	if file == "" {
		m.setStatus("this problem is not in a file", false)
		return nil
	}
	args, err := editorArgs(m.deps.Editor, file, line)
	if err != nil {
		m.setStatus(err.Error(), true)
		return nil
	}
	return tea.Exec(&editorProcess{args: args}, func(err error) tea.Msg { return editorMsg{err: err} })
}

// --- runs -----------------------------------------------------------------

// target resolves what the run keys apply to: the tree's item, the graph's
// row, or the writer of the Table tab's table.
func (m *Model) target() (runTarget, error) {
	if m.focus == PaneMain && m.tab == TabGraph {
		return m.graphTarget()
	}
	if m.focus == PaneMain && m.tab == TabTable {
		t := m.ws.table(m.table.id)
		if t == nil {
			return runTarget{}, ErrNoTable
		}
		nodes := map[string]bool{}
		for _, w := range t.Writers {
			nodes[w.Pipeline+"."+w.Node] = true
		}
		if len(nodes) == 1 {
			w := t.Writers[0]
			return nodeTarget(w.Pipeline, w.Node, "writer "+w.Pipeline+"."+w.Node+" of "+tableLabel(t)), nil
		}
		if ms := m.graph.selectedMembers(); len(ms) == 1 && m.graph.selectedTable() == t.ID {
			if nodes[ms[0].Label] {
				return nodeTarget(ms[0].Pipeline, ms[0].Node, "writer "+ms[0].Label+" of "+tableLabel(t)), nil
			}
		}
		return runTarget{}, fmt.Errorf("%s has %d writers: pick one in the tree or the graph", tableLabel(t), len(nodes))
	}
	if m.focus == PaneMain && m.tab == TabProblems {
		if d, ok := m.probs.selected(); ok {
			if k, ok := m.ws.ix.objectOf(d); ok {
				return m.objTarget(k), nil
			}
		}
	}
	it, ok := m.tree.selected()
	if !ok {
		return runTarget{}, errors.New("nothing selected")
	}
	return m.objTarget(it.key), nil
}

// objTarget is the run of a pipeline, a node, or a sink's writer.
func (m *Model) objTarget(k objKey) runTarget {
	switch {
	case k.Node == "":
		return runTarget{desc: "pipeline " + k.Pipeline, pipelines: []string{k.Pipeline}, selection: map[string][]string{k.Pipeline: nil}}
	case k.Sink >= 0:
		if sk := m.ws.snap.Node(k.Pipeline, k.Node).SinkAt(k.Sink); sk != nil {
			if t := m.ws.table(sk.Table); t != nil {
				return nodeTarget(k.Pipeline, k.Node, "writer "+k.Pipeline+"."+k.Node+" of "+tableLabel(t))
			}
		}
	}
	return nodeTarget(k.Pipeline, k.Node, "node "+k.Pipeline+"."+k.Node)
}

func nodeTarget(pl, node, desc string) runTarget {
	return runTarget{desc: desc, pipelines: []string{pl}, selectors: []string{node}, selection: map[string][]string{pl: {node}}}
}

// graphTarget runs the graph's row: one writer, or a group of writers that
// one request can name (one node name in several pipelines, or several
// nodes of one pipeline).
func (m *Model) graphTarget() (runTarget, error) {
	ms := m.graph.selectedMembers()
	switch len(ms) {
	case 0:
		return runTarget{}, errors.New("no writer selected")
	case 1:
		desc := "writer " + ms[0].Label
		if t := m.ws.table(m.graph.selectedTable()); t != nil {
			for _, w := range ms[0].Writers {
				if w.Table == t.ID {
					desc += " of " + tableLabel(t)
					break
				}
			}
		}
		return nodeTarget(ms[0].Pipeline, ms[0].Node, desc), nil
	}
	var pls, nodes []string
	sel := map[string][]string{}
	for _, mb := range ms {
		if !slices.Contains(pls, mb.Pipeline) {
			pls = append(pls, mb.Pipeline)
		}
		if !slices.Contains(nodes, mb.Node) {
			nodes = append(nodes, mb.Node)
		}
		sel[mb.Pipeline] = append(sel[mb.Pipeline], mb.Node)
	}
	if len(pls) > 1 && len(nodes) > 1 {
		return runTarget{}, errors.New("this group mixes pipelines and nodes: expand it (space) and pick one writer")
	}
	return runTarget{desc: fmt.Sprintf("%d writers %s", len(ms), m.graph.ws.graph.Groups[m.graph.rows[m.graph.sel.Row].Group].Label),
		pipelines: pls, selectors: nodes, selection: sel}, nil
}

// runKey starts the run flow of r, f or R.
func (m *Model) runKey(refresh string) tea.Cmd {
	if m.deps.Runner == nil {
		m.setStatus(ErrNoRunner.Error(), true)
		return nil
	}
	if lr := m.runs.live; lr != nil && !lr.done() {
		m.setStatus("a run is in progress: x cancels it", true)
		return nil
	}
	t, err := m.target()
	if err != nil {
		m.setStatus(err.Error(), true)
		return nil
	}
	if refresh == validate.RefreshReset {
		m.dialog = newResetPicker(t)
		m.setEngineLines(m.dialog)
		return nil
	}
	return m.plan(t, refresh, "")
}

// allTarget is every pipeline, as laktory run runs them.
var allTarget = runTarget{desc: "every pipeline", selection: map[string][]string{}}

// runAll starts an incremental run of every pipeline (a).
func (m *Model) runAll() tea.Cmd {
	if m.deps.Runner == nil {
		m.setStatus(ErrNoRunner.Error(), true)
		return nil
	}
	if lr := m.runs.live; lr != nil && !lr.done() {
		m.setStatus("a run is in progress: x cancels it", true)
		return nil
	}
	return m.plan(allTarget, validate.RefreshIncremental, "")
}

// plan asks for the required pipeline parameters the run lacks, if any;
// then planWith plans it.
func (m *Model) plan(t runTarget, refresh, resetMode string) tea.Cmd {
	if fields := missingParams(m.ws.snap, t); len(fields) > 0 {
		m.dialog = newParamsDialog(t, refresh, resetMode, fields, m.paramValues)
		m.setEngineLines(m.dialog)
		return nil
	}
	return m.planWith(m.ws.snap, t, refresh, resetMode)
}

// planWith checks the run parameters (pure), then asks the runner for a
// plan on snap.
func (m *Model) planWith(snap *workspace.Snapshot, t runTarget, refresh, resetMode string) tea.Cmd {
	title := runTitle(refresh, resetMode, t.desc)
	params, ds := validate.RunParameters(snap, validate.RunRequest{Refresh: refresh, ResetMode: resetMode, Selection: t.selection})
	if workspace.HasErrors(ds) {
		m.dialog = &dialog{kind: dlgMessage, title: "Cannot run " + title, body: diagLines(ds, snap, m.c.st)}
		return nil
	}
	m.seq.run++
	body := []string{"Planning " + title + "…"}
	if es := m.engines(snap); es.name == engine.Spark && es.why == "" {
		body = []string{fmt.Sprintf("Planning %s on Spark at %s (from %s): the first run there connects and checks that the server runs Spark 4.2 with Delta 4.4…",
			title, es.remote, es.from)}
	}
	m.dialog = &dialog{kind: dlgPlanning, title: title, token: m.seq.run, target: t, refresh: params.Refresh, resetMode: resetMode,
		snap: snap, body: body}
	m.setEngineLines(m.dialog)
	req := runner.Request{Pipelines: t.pipelines, Selectors: t.selectors, Refresh: params.Refresh, ResetMode: params.ResetMode,
		Parallel: m.deps.Parallel}
	return m.planCmd(m.seq.run, snap, req)
}

// runTitle names a run: "FULL refresh of node pl.a", "RESET (DROP) of ...".
func runTitle(refresh, resetMode, desc string) string {
	switch strings.ToUpper(refresh) {
	case validate.RefreshFull:
		return "FULL refresh of " + desc
	case validate.RefreshReset:
		mode := resetMode
		if mode == "" {
			mode = "as declared"
		}
		return "RESET (" + mode + ") of " + desc
	}
	return "incremental run of " + desc
}

// planned shows a plan to confirm, or starts it when it deletes nothing.
func (m *Model) planned(msg planMsg) tea.Cmd {
	d := m.dialog
	if d == nil || d.kind != dlgPlanning || d.token != msg.token {
		return nil // cancelled meanwhile
	}
	if msg.err != nil {
		body := []string{msg.err.Error()}
		var pe *runner.PlanError
		if errors.As(msg.err, &pe) && len(pe.Diagnostics) > 0 {
			body = diagLines(pe.Diagnostics, m.ws.snap, m.c.st)
		}
		title := "Cannot run " + d.title + onEngine(msg.engine, m.engines(d.snap))
		if msg.connect {
			// The engine cannot be used: say why, and offer the other.
			title = "Cannot use the spark engine for " + d.title
			body = []string{m.c.st.Error.Render(msg.err.Error()), "", "e switches to the local engine and plans the run there; esc cancels."}
		}
		m.dialog = &dialog{kind: dlgMessage, title: title, body: m.c.relAll(body),
			target: d.target, refresh: d.refresh, resetMode: d.resetMode, snap: d.snap}
		m.setEngineLines(m.dialog)
		return nil
	}
	d.plan, d.runner, d.engine = msg.plan, msg.runner, msg.engine
	d.title += onEngine(msg.engine, m.engines(d.snap))
	if d.refresh == validate.RefreshIncremental && len(msg.plan.Effects) == 0 && !m.engines(d.snap).offersSpark() {
		return m.start(d)
	}
	d.kind = dlgConfirm
	d.body = m.c.relAll(confirmBody(msg.plan, m.ws.snap, m.c.st))
	return nil
}

// setEngineLines shows the engine choice in a run dialog, when the
// workbench offers one.
func (m *Model) setEngineLines(d *dialog) {
	if m.deps.Engines == nil {
		return
	}
	snap := d.snap
	if snap == nil {
		snap = m.ws.snap
	}
	d.engineLines = m.engines(snap).lines(m.c.st)
}

// switchEngine moves the run dialog's choice to the other engine (e, and
// ctrl+e in the parameters form); a planned run is planned again there
// (the engines run different sets of nodes). The Spark engine without a
// server is refused, saying why.
func (m *Model) switchEngine(d *dialog) tea.Cmd {
	if m.deps.Engines == nil {
		return nil
	}
	snap := d.snap
	if snap == nil {
		snap = m.ws.snap
	}
	es := m.engines(snap)
	next := engine.Spark
	if es.name == engine.Spark {
		next = engine.Local
	}
	if next == engine.Spark && es.why != "" {
		m.setStatus("spark unavailable: "+es.why, true)
		return nil
	}
	m.engine = next
	if d.kind == dlgResetMode || d.kind == dlgParams { // not planned yet
		m.setEngineLines(d)
		return nil
	}
	return m.planWith(snap, d.target, d.refresh, d.resetMode)
}

func (m *Model) start(d *dialog) tea.Cmd {
	m.dialog = nil
	m.setStatus("starting "+d.title+"…", false)
	m.seq.run++
	m.runs.live = newLiveRun(m.seq.run, d.title, d.plan, m.ws.snap, nil, m.c.now())
	m.runs.closeDetail()
	// The Runs tab shows the run; the focus stays where the user was, so
	// the keys keep moving what they moved (the footer names what r/f/R
	// act on).
	m.setTab(TabRuns)
	return startCmd(m.ctx, d.runner, m.seq.run, d.plan)
}

func (m *Model) started(msg startedMsg) tea.Cmd {
	lr := m.runs.live
	if lr == nil || lr.token != msg.token {
		if msg.err == nil && msg.handle != nil {
			msg.handle.Cancel() // not ours any more
		}
		return nil
	}
	if msg.err != nil {
		lr.status, lr.err, lr.ended = history.StatusFailed, msg.err.Error(), m.c.now()
		m.runs.render()
		m.setStatus("cannot start the run: "+msg.err.Error(), true)
		return nil
	}
	lr.handle = msg.handle
	m.runs.render()
	m.updateRunMarks()
	cmds := []tea.Cmd{waitRunEvent(lr.token, lr.handle.Events()), tickCmd(m.deps.Tick, lr.token)}
	if lr.cancelling { // x was pressed while it started
		cmds = append(cmds, cancelCmd(lr.handle))
	}
	return tea.Batch(cmds...)
}

func (m *Model) dialogKey(msg tea.KeyMsg) tea.Cmd {
	k := m.c.keys
	d := m.dialog
	if d.kind == dlgParams {
		return m.paramsKey(msg)
	}
	if d.kind != dlgResetMode {
		d.offset, _ = k.move(msg, d.offset, max(m.lay.Main.H-dialogChrome-1, 1), math.MaxInt32) // the render clamps it
	}
	switch d.kind {
	case dlgResetMode:
		switch {
		case key.Matches(msg, k.Engine):
			return m.switchEngine(d)
		case key.Matches(msg, k.Up):
			d.cursor = max(d.cursor-1, 0)
		case key.Matches(msg, k.Down):
			d.cursor = min(d.cursor+1, len(d.options)-1)
		case key.Matches(msg, k.Enter):
			return m.plan(d.target, validate.RefreshReset, d.values[d.cursor])
		case key.Matches(msg, k.Back), key.Matches(msg, k.No):
			m.dialog = nil
		}
	case dlgConfirm:
		switch {
		case key.Matches(msg, k.Engine):
			return m.switchEngine(d)
		case key.Matches(msg, k.Yes) && len(d.plan.Overlapping()) > 0:
			// y is not the acknowledgement of other writers' rows, as
			// --yes is not in the CLI.
			m.setStatus("this run deletes rows of other writers (listed): D deletes them too and runs, n/esc cancels; y alone does not", true)
		case key.Matches(msg, k.Yes):
			return m.start(d)
		case key.Matches(msg, k.DeleteOverlapping) && len(d.plan.Overlapping()) > 0:
			d.plan.Request.AllowOverlap = true
			return m.start(d)
		case key.Matches(msg, k.No), key.Matches(msg, k.Back):
			m.dialog = nil
			m.setStatus("run cancelled: nothing was changed", false)
		}
	case dlgQuit:
		switch {
		case key.Matches(msg, k.Yes):
			m.dialog = nil
			return m.quit()
		case key.Matches(msg, k.No), key.Matches(msg, k.Back):
			m.dialog = nil
		}
	default: // planning, message
		switch {
		case key.Matches(msg, k.Engine) && d.snap != nil:
			// A run the engine refused, or one still planning (a server
			// slow to answer): plan it on the other engine.
			return m.switchEngine(d)
		case key.Matches(msg, k.Back, k.Enter, k.No):
			m.dialog = nil
		}
	}
	return nil
}

// --- view -----------------------------------------------------------------

// View returns the frame composed by the last Update.
func (m Model) View() string {
	if m.frame == "" && m.w == 0 {
		return "laktory: starting…"
	}
	return m.frame
}

// runningTasks counts the tasks running now.
func (m *Model) runningTasks() int {
	if lr := m.runs.live; lr != nil {
		return lr.running()
	}
	return 0
}

// focusedHelp is the focused pane's key map.
func (m *Model) focusedHelp() help.KeyMap {
	if m.focus == PaneTree {
		return m.tree
	}
	switch m.tab {
	case TabProblems:
		return m.probs
	case TabRuns:
		return m.runs
	case TabTable:
		return m.table
	}
	return m.graph
}

// compose renders the frame from the panes' cached lines.
func (m *Model) compose() {
	if m.w == 0 {
		return
	}
	if m.lay.TooSmall {
		m.frame = fmt.Sprintf("laktory needs a terminal of at least %dx%d (this one is %dx%d)", minWidth, minHeight, m.w, m.h)
		return
	}
	st := m.c.st
	var main []string
	switch m.tab {
	case TabGraph:
		main = m.graph.View()
	case TabProblems:
		main = m.probs.View()
	case TabRuns:
		main = m.runs.View()
	case TabTable:
		main = m.table.View()
	}
	if m.helpOn {
		main = m.helpLines()
	}
	if m.dialog != nil {
		main = overlay(main, m.dialog.render(st, m.lay.Main.W, m.lay.Main.H), m.lay.Main.W)
	}
	tree := m.tree.View()
	sep := st.Separator.Render("│")
	var b strings.Builder
	b.WriteString(m.header())
	b.WriteByte('\n')
	for i := 0; i < m.lay.Tree.H; i++ {
		if i < len(tree) {
			b.WriteString(tree[i])
		}
		b.WriteString(sep)
		switch {
		case i == 0:
			b.WriteString(m.tabBar())
		case i-1 < len(main):
			b.WriteString(main[i-1])
		}
		b.WriteByte('\n')
	}
	b.WriteString(m.footer())
	// Names, messages and data may hold control characters: none reaches
	// the terminal (the views sanitize data cells first, so they align).
	m.frame = human.Printable(b.String())
}

func (m *Model) header() string {
	st := m.c.st
	name := "(no workspace)"
	env := ""
	if s := m.ws.snap; s != nil {
		name = filepath.Base(s.Dir)
		if s.Env != "" {
			env = st.Dim.Render(" env ") + s.Env
		}
	}
	left := " " + st.AppName.Render("laktory") + st.Dim.Render(" workspace ") + st.Bold.Render(name) + env
	c := m.ws.ix.counts
	var right string
	if c[0]+c[1]+c[2] == 0 {
		right = st.OK.Render("✓ no problems")
	} else {
		right = st.Error.Render(fmt.Sprintf("✗ %d", c[0])) + " " + st.Warning.Render(fmt.Sprintf("! %d", c[1])) + " " +
			st.Info.Render(fmt.Sprintf("i %d", c[2]))
	}
	if n := m.runningTasks(); n > 0 {
		right += "  " + st.Running.Render(fmt.Sprintf("▶ %d running", n))
	} else {
		right += "  " + st.Dim.Render("0 running")
	}
	if w := m.watchStatus(); w != "" {
		room := m.w - ansi.StringWidth(left) - ansi.StringWidth(right) - 4
		left += "  " + st.Accent.Render(ansi.Truncate(w, max(room, 8), "…"))
	}
	return rightAlign(left, right+" ", m.w)
}

func (m *Model) tabBar() string {
	st := m.c.st
	var b strings.Builder
	x := m.lay.Tabs.X
	b.WriteString(" ")
	x++
	for i, name := range tabNames {
		label := fmt.Sprintf("%d %s", i+1, name)
		if Tab(i) == TabProblems && len(m.ws.diags) > 0 {
			label += fmt.Sprintf(" (%d)", len(m.ws.diags))
		}
		if Tab(i) == TabRuns && m.runningTasks() > 0 {
			label += " ▶"
		}
		w := ansi.StringWidth(label)
		m.tabX[i] = [2]int{x, x + w}
		if Tab(i) == m.tab {
			if m.focus == PaneMain {
				b.WriteString(st.TabActive.Render("[" + label + "]"))
			} else {
				b.WriteString(st.Bold.Render("[" + label + "]"))
			}
		} else {
			b.WriteString(st.Tab.Render(" " + label + " "))
		}
		b.WriteString(" ")
		x += w + 3
	}
	return fitLine(b.String(), m.lay.Tabs.W)
}

func (m *Model) footer() string {
	st := m.c.st
	if m.searching {
		q := m.searchTarget().query()
		found := "type to filter"
		if q != "" {
			found = human.Plural(int64(m.found), "match")
		}
		return fitLine(" "+st.Accent.Render("/")+q+st.Accent.Render("▏")+st.Dim.Render("  "+found+" · ↑/↓ next/previous · enter keep · esc clear"), m.w)
	}
	if m.status != "" {
		s := st.Status
		if m.errOn {
			s = st.StatusErr
		}
		return fitLine(" "+s.Render(m.status), m.w)
	}
	k := m.c.keys
	m.help.Width = 0
	right := m.help.ShortHelpView([]key.Binding{k.Help, k.Quit})
	left := ""
	if m.filtered() {
		left = st.Accent.Render("/"+m.searchTarget().query()) + st.Dim.Render(" n/N next/prev · esc clears") + st.Help.ShortSeparator.Render(" │ ")
	}
	if hint := m.runHint(); hint != "" {
		left += ansi.Truncate(hint, max(m.w*3/5, 30), "…") + st.Help.ShortSeparator.Render(" │ ")
	}
	m.help.Width = max(m.w-2-ansi.StringWidth(left)-ansi.StringWidth(right)-1, 0)
	left += m.help.ShortHelpView(append(m.focusedHelp().ShortHelp(), k.NextPane))
	return " " + rightAlign(left, right, m.w-2) + " "
}

// runHint says what the run keys act on: "r/f/R ▸ writer pl.a of t".
func (m *Model) runHint() string {
	if m.deps.Runner == nil {
		return ""
	}
	st := m.c.st
	keys := st.Help.ShortKey.Render("r/f/R") + st.Help.ShortDesc.Render(" ▸ ")
	t, err := m.target()
	if err != nil {
		return keys + st.Help.ShortDesc.Render("pick a writer")
	}
	return keys + t.desc
}

// helpLines lists every key, by group, and the marks.
func (m *Model) helpLines() []string {
	st := m.c.st
	k := m.c.keys
	groups := []struct {
		title    string
		bindings []key.Binding
	}{
		{"Move", []key.Binding{k.Up, k.Down, k.Left, k.Right, k.PageUp, k.PageDown, k.Home, k.End}},
		{"Panes and tabs", []key.Binding{k.NextPane, k.PrevPane, k.Graph, k.Problems, k.Runs, k.Table, k.NextTab, k.PrevTab}},
		{"Runs (of the selection)", []key.Binding{k.Run, k.Full, k.Reset, k.Cancel, k.RunAll, k.Watch, k.Engine}},
		{"This pane", flatten(m.focusedHelp().FullHelp())},
		{"Other", []key.Binding{k.Search, k.NextMatch, k.PrevMatch, k.Edit, k.Reload, k.Help, k.Quit}},
	}
	const colW = 28
	cols := max(m.lay.Main.W/colW, 1)
	var lines []string
	for i := 0; i < len(groups); i += cols {
		var blocks [][]string
		height := 0
		for _, g := range groups[i:min(i+cols, len(groups))] {
			b := []string{st.Bold.Render(g.title)}
			for _, kb := range g.bindings {
				if kb.Enabled() {
					b = append(b, fitLine(st.Help.FullKey.Render(kb.Help().Key), 11)+st.Help.FullDesc.Render(kb.Help().Desc))
				}
			}
			blocks = append(blocks, b)
			height = max(height, len(b))
		}
		for row := range height {
			var line strings.Builder
			for _, b := range blocks {
				cell := ""
				if row < len(b) {
					cell = b[row]
				}
				line.WriteString(fitLine(cell, colW))
			}
			lines = append(lines, line.String())
		}
		lines = append(lines, "")
	}
	lines = append(lines,
		st.Accent.Render("Marks"),
		" "+stateMark(st, lanes.Error, false)+" error  "+stateMark(st, lanes.Warning, false)+" warning  "+stateMark(st, lanes.Info, false)+" info",
		" "+runMark(st, history.StatusRunning)+" running  "+runMark(st, history.StatusSucceeded)+" last run succeeded  "+
			runMark(st, history.StatusFailed)+" failed  "+runMark(st, history.StatusCancelled)+" cancelled/skipped")
	for _, l := range lanes.Legend(&st.Lanes, m.lay.Main.W-1) {
		lines = append(lines, " "+l)
	}
	lines = wrapAll(lines, m.lay.Main.W)
	title := st.Accent.Render("Keys") + st.Dim.Render("  (? or esc closes)")
	if rows := m.lay.Main.H - 1; len(lines) > rows {
		m.helpAt = min(max(m.helpAt, 0), len(lines)-rows)
		title += st.Dim.Render(fmt.Sprintf(" · ↑/↓ scroll (%d-%d of %d)", m.helpAt+1, m.helpAt+rows, len(lines)))
		lines = lines[m.helpAt : m.helpAt+rows]
	}
	return fitLines(append([]string{title}, lines...), m.lay.Main.W, m.lay.Main.H)
}

func flatten(groups [][]key.Binding) []key.Binding {
	var out []key.Binding
	for _, g := range groups {
		out = append(out, g...)
	}
	return out
}
