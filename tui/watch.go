package tui

import (
	"strings"
	"time"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/laktory/workbench/runner/watch"
	"github.com/laktory/workbench/validate"
	"github.com/laktory/workbench/workspace"
	"github.com/laktory/workbench/workspace/human"
)

// Watch mode (w, laktory tui --watch) is the dev loop: a new or changed
// file that a file source reads, or a saved pipeline that validates, runs
// the nodes it affects incrementally (package watch decides which, and
// when: debounced, one run at a time, changes coalesced). The header says
// it is on and what it waits for; the tab shown stays, so the Table tab
// shows the rows arriving.

// DataWatcher reports the files the workspace's file sources read as they
// change (*watch.Sources implements it).
type DataWatcher interface {
	// Changes delivers the changed files in batches; closed at the end.
	Changes() <-chan []string
	// Update follows the sources of a new snapshot.
	Update(snap *workspace.Snapshot)
}

// autoRun is the state of watch mode.
type autoRun struct {
	on bool
	q  watch.Queue
	// changed are the workspace files of the reloads not validated yet, old
	// the snapshot before them.
	changed []string
	old     *workspace.Snapshot
	// plan and run are the tokens of the watch's run being planned and
	// started (0: none).
	plan, run int
	sel       watch.Selection
	why       []string
}

type (
	dataMsg     struct{ paths []string }
	dataEndMsg  struct{}
	autoTickMsg struct{}
)

func waitData(ch <-chan []string) tea.Cmd {
	if ch == nil {
		return nil
	}
	return func() tea.Msg {
		paths, ok := <-ch
		if !ok {
			return dataEndMsg{}
		}
		return dataMsg{paths: paths}
	}
}

// autoTick wakes watch mode when its queue may be due.
func (m *Model) autoTick() tea.Cmd {
	if !m.auto.on || !m.auto.q.Queued() {
		return nil
	}
	return tea.Tick(max(m.auto.q.Wait(m.c.now()), 10*time.Millisecond), func(time.Time) tea.Msg { return autoTickMsg{} })
}

// toggleWatch turns watch mode on or off (w).
func (m *Model) toggleWatch() tea.Cmd {
	if m.auto.on {
		m.auto.on = false
		m.auto.q = watch.Queue{Debounce: m.auto.q.Debounce}
		m.setStatus("watch off", false)
		return nil
	}
	m.auto.on = true
	msg := "watch on: a new landing file or a saved pipeline runs the nodes it affects (incrementally)"
	if m.deps.Data == nil {
		msg = "watch on: saved pipelines run the nodes they change (landing files are not watched)"
	}
	m.setStatus(msg, false)
	return nil
}

// watchChange queues the nodes a change affects.
func (m *Model) watchChange(c watch.Change) tea.Cmd {
	if !m.auto.on || len(c.Paths) == 0 {
		return nil
	}
	sel, why := watch.Affected(c)
	if len(sel) == 0 && len(why) > 0 {
		m.setStatus("watch: "+why[len(why)-1], false)
	}
	m.auto.q.Add(sel, why, m.c.now())
	return m.autoTick()
}

// autoDue starts the watch's run when it is due and nothing is in the
// way (a run in progress, a dialog the user is answering).
func (m *Model) autoDue() tea.Cmd {
	if !m.auto.on || m.deps.Runner == nil || !m.auto.q.Queued() {
		return nil
	}
	if m.dialog != nil { // the user is answering: try again in a moment
		return tea.Tick(250*time.Millisecond, func(time.Time) tea.Msg { return autoTickMsg{} })
	}
	if lr := m.runs.live; m.auto.plan != 0 || (lr != nil && !lr.done()) {
		return nil // tried again when the run ends
	}
	sel, why, ok := m.auto.q.Next(m.c.now())
	if !ok {
		return m.autoTick()
	}
	params, ds := validate.RunParameters(m.ws.snap, validate.RunRequest{Selection: sel})
	if workspace.HasErrors(ds) {
		m.auto.q.Done()
		m.setStatus("watch: cannot run "+sel.String()+": "+ds[0].Message, true)
		return nil
	}
	m.seq.run++
	m.auto.plan, m.auto.sel, m.auto.why = m.seq.run, sel, why
	req := sel.Request()
	req.Refresh, req.Parallel = params.Refresh, m.deps.Parallel
	return m.planCmd(m.seq.run, m.ws.snap, req)
}

// autoPlanned starts the watch's planned run, in the background: the tab
// shown stays.
func (m *Model) autoPlanned(msg planMsg) tea.Cmd {
	m.auto.plan = 0
	switch {
	case msg.err != nil:
		m.auto.q.Done()
		m.setStatus("watch: cannot run: "+firstLine(msg.err.Error()), true)
		return m.autoTick()
	case msg.plan.Destructive(): // an incremental run deletes nothing; never without asking
		m.auto.q.Done()
		m.setStatus("watch: the run would delete data: not run (r runs it and asks)", true)
		return m.autoTick()
	}
	title := "watch run of " + m.auto.sel.String() + onEngine(msg.engine, m.engines(m.ws.snap))
	m.seq.run++
	m.auto.run = m.seq.run
	m.runs.live = newLiveRun(m.seq.run, title, msg.plan, m.ws.snap, nil, m.c.now())
	m.runs.closeDetail()
	m.setStatus(title+" ("+joinWhy(m.auto.why)+")", false)
	return startCmd(m.ctx, msg.runner, m.seq.run, msg.plan)
}

// autoClosed ends the watch's run: the next queued changes are due.
func (m *Model) autoClosed(token int) tea.Cmd {
	if token == m.auto.run {
		m.auto.run = 0
		m.auto.q.Done()
	}
	return m.autoDue()
}

// watchStatus is what the header says of watch mode ("" when off).
func (m *Model) watchStatus() string {
	if !m.auto.on {
		return ""
	}
	if lr := m.runs.live; lr != nil && !lr.done() && m.auto.run == 0 {
		return "watch: waiting for " + lr.target
	}
	return "watch: " + m.auto.q.Status(m.c.now())
}

func joinWhy(why []string) string {
	if len(why) > 3 {
		return why[0] + ", " + why[1] + " and " + human.Plural(int64(len(why)-2), "other change")
	}
	return strings.Join(why, ", ")
}
