package tui

import (
	"context"
	"time"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/laktory/workbench/runner"
	"github.com/laktory/workbench/runner/history"
	"github.com/laktory/workbench/validate"
	"github.com/laktory/workbench/workspace"
)

// Messages: every result of a command carries the sequence number (or run
// token) of the request it answers, so a result overtaken by a newer
// request is dropped.
type (
	snapshotMsg    struct{ ev workspace.Event }
	watchClosedMsg struct{}
	validatedMsg   struct {
		seq   int
		snap  *workspace.Snapshot
		diags []workspace.Diagnostic
	}
	statsMsg struct {
		seq   int
		stats map[workspace.TableID]TableStats
		err   error
	}
	tableMsg struct {
		seq  int
		id   workspace.TableID
		info *TableInfo
		err  error
	}
	historyMsg struct {
		seq    int
		before int64
		page   history.RunPage
		err    error
	}
	detailMsg struct {
		id     int64
		detail history.RunDetail
		err    error
	}
	lastTasksMsg struct {
		seq   int
		tasks []history.Task
		err   error
	}
	// planMsg is a plan made by runner (on engine), or why there is none;
	// connect is true when the engine could not be used (no server, a
	// connection or version error).
	planMsg struct {
		token   int
		plan    *runner.Plan
		err     error
		runner  Runner
		engine  string
		connect bool
	}
	startedMsg struct {
		token  int
		handle RunHandle
		err    error
	}
	runEventMsg struct {
		token int
		ev    runner.Event
	}
	runClosedMsg struct{ token int }
	// tableWatchMsg is a watch of the shown table's log, started;
	// tableChangedMsg a change in that log.
	tableWatchMsg struct {
		token   int
		changes <-chan struct{}
		stop    func()
		err     error
	}
	tableChangedMsg struct{ token int }
	editorMsg       struct{ err error }
	tickMsg         struct{ token int }
)

// historyPageSize is how many runs one history query reads.
const historyPageSize = 50

// waitWatch waits for the watcher's next reload (re-armed after each).
func waitWatch(ch <-chan workspace.Event) tea.Cmd {
	return func() tea.Msg {
		ev, ok := <-ch
		if !ok {
			return watchClosedMsg{}
		}
		return snapshotMsg{ev}
	}
}

// validateCmd validates a snapshot (with the known table facts, and
// whether its source paths exist) off the UI goroutine: with the validator
// when there is one (it reads schemas), else validate's rules parsing with
// sqlp.
func validateCmd(ctx context.Context, v Validator, sqlp validate.SQL, seq int, snap *workspace.Snapshot, facts map[workspace.TableID]validate.TableFacts) tea.Cmd {
	return func() tea.Msg {
		opts := validate.Options{Facts: facts, Paths: runner.PathFacts(snap), SQL: sqlp}
		if v != nil {
			if ds, err := v.Validate(ctx, snap, opts); err == nil {
				return validatedMsg{seq: seq, snap: snap, diags: ds}
			}
		}
		return validatedMsg{seq: seq, snap: snap, diags: validate.Check(snap, opts)}
	}
}

func statsCmd(ctx context.Context, lake Lake, seq int, snap *workspace.Snapshot) tea.Cmd {
	return func() tea.Msg {
		st, err := lake.Stats(ctx, snap)
		return statsMsg{seq: seq, stats: st, err: err}
	}
}

// watchTableCmd starts watching the log of table id.
func watchTableCmd(w TableWatcher, token int, id workspace.TableID, snap *workspace.Snapshot) tea.Cmd {
	path := string(id)
	if snap != nil {
		if t := snap.Table(id); t != nil {
			path = t.Path
		}
	}
	return func() tea.Msg {
		changes, stop, err := w.WatchTable(path)
		return tableWatchMsg{token: token, changes: changes, stop: stop, err: err}
	}
}

// waitTableChange waits for the next change of the watched log.
func waitTableChange(token int, changes <-chan struct{}) tea.Cmd {
	if changes == nil {
		return nil
	}
	return func() tea.Msg {
		if _, ok := <-changes; !ok {
			return nil // the watch ended
		}
		return tableChangedMsg{token: token}
	}
}

// stopWatchCmd ends a watch.
func stopWatchCmd(stop func()) tea.Cmd {
	if stop == nil {
		return nil
	}
	return func() tea.Msg {
		stop()
		return nil
	}
}

func tableCmd(ctx context.Context, lake Lake, seq int, snap *workspace.Snapshot, id workspace.TableID) tea.Cmd {
	return func() tea.Msg {
		info, err := lake.Table(ctx, snap, id)
		return tableMsg{seq: seq, id: id, info: info, err: err}
	}
}

func historyCmd(ctx context.Context, h History, seq int, before int64) tea.Cmd {
	return func() tea.Msg {
		page, err := h.ListRuns(ctx, history.Page{Limit: historyPageSize, Before: before}, history.Filter{})
		return historyMsg{seq: seq, before: before, page: page, err: err}
	}
}

func detailCmd(ctx context.Context, h History, id int64) tea.Cmd {
	return func() tea.Msg {
		d, err := h.RunDetail(ctx, id)
		return detailMsg{id: id, detail: d, err: err}
	}
}

func lastTasksCmd(ctx context.Context, h History, seq int) tea.Cmd {
	return func() tea.Msg {
		ts, err := h.LastTasks(ctx, "")
		return lastTasksMsg{seq: seq, tasks: ts, err: err}
	}
}

func planCmd(ctx context.Context, r Runner, engineName string, token int, snap *workspace.Snapshot, req runner.Request) tea.Cmd {
	return func() tea.Msg {
		p, err := r.Plan(ctx, snap, req)
		return planMsg{token: token, plan: p, err: err, runner: r, engine: engineName}
	}
}

func startCmd(ctx context.Context, r Runner, token int, plan *runner.Plan) tea.Cmd {
	return func() tea.Msg {
		h, err := r.Start(ctx, plan)
		return startedMsg{token: token, handle: h, err: err}
	}
}

// waitRunEvent reads the next event of a run (re-armed after each).
func waitRunEvent(token int, ch <-chan runner.Event) tea.Cmd {
	return func() tea.Msg {
		ev, ok := <-ch
		if !ok {
			return runClosedMsg{token: token}
		}
		return runEventMsg{token: token, ev: ev}
	}
}

func cancelCmd(h RunHandle) tea.Cmd {
	if h == nil {
		return nil // not started yet: started() cancels it
	}
	return func() tea.Msg {
		h.Cancel()
		return nil
	}
}

// tickCmd refreshes the elapsed times of a run in progress.
func tickCmd(every time.Duration, token int) tea.Cmd {
	if every < 0 {
		return nil
	}
	return tea.Tick(every, func(time.Time) tea.Msg { return tickMsg{token: token} })
}
