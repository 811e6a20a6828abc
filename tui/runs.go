package tui

import (
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/charmbracelet/bubbles/key"
	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/x/ansi"
	"github.com/laktory/workbench/runner"
	"github.com/laktory/workbench/runner/history"
)

// liveRun is the run in progress (or the last one started here), built
// from its events.
type liveRun struct {
	token      int
	id         string
	target     string
	handle     RunHandle
	tasks      []*taskState
	byKey      map[string]*taskState
	log        []string
	status     history.Status
	err        string
	started    time.Time
	ended      time.Time
	written    int64
	deleted    int64
	retries    int
	warnings   int
	cancelling bool
}

type taskState struct {
	key     string
	status  history.Status
	phase   string
	rows    int64
	written int64
	deleted int64
	retries int
	err     string
	started time.Time
	ended   time.Time
}

func newLiveRun(token int, target string, plan *runner.Plan, h RunHandle, now time.Time) *liveRun {
	lr := &liveRun{token: token, target: target, handle: h, byKey: map[string]*taskState{},
		status: history.StatusRunning, started: now}
	for _, t := range plan.Tasks {
		ts := &taskState{key: t.Key, status: history.StatusQueued}
		lr.tasks = append(lr.tasks, ts)
		lr.byKey[t.Key] = ts
	}
	return lr
}

func (lr *liveRun) done() bool { return lr.status.Done() }

// task returns the state of a task, adding it when the plan did not list
// it.
func (lr *liveRun) task(k string) *taskState {
	ts := lr.byKey[k]
	if ts == nil {
		ts = &taskState{key: k, status: history.StatusQueued}
		lr.tasks = append(lr.tasks, ts)
		lr.byKey[k] = ts
	}
	return ts
}

// apply folds one event into the run.
func (lr *liveRun) apply(ev runner.Event) {
	if ev.RunID != "" {
		lr.id = ev.RunID
	}
	at := ev.At
	var ts *taskState
	if ev.Task != "" {
		ts = lr.task(ev.Task)
	}
	switch ev.Kind {
	case runner.EventRunStarted:
		if !at.IsZero() {
			lr.started = at
		}
	case runner.EventTaskStarted:
		if ts != nil {
			ts.status, ts.started = history.StatusRunning, at
		}
	case runner.EventTaskProgress:
		if ts != nil {
			ts.phase = ev.Phase
			ts.rows = max(ts.rows, ev.Rows)
			if ts.status == history.StatusQueued {
				ts.status = history.StatusRunning
			}
		}
	case runner.EventOperation:
		lr.written += ev.Rows
		if ts != nil {
			ts.written += ev.Rows
		}
		lr.addLog(fmt.Sprintf("%s%s v%d %s%s", taskPrefix(ev.Task), shortName(ev.Table), ev.Version, ev.Operation, rowsSuffix(ev.Rows, "+")))
	case runner.EventRetry:
		lr.retries++
		if ts != nil {
			ts.retries++
		}
		lr.addLog(fmt.Sprintf("↻ %sretry %d on %s in %s: %s", taskPrefix(ev.Task), ev.Attempt, shortName(ev.Table), dur(ev.Delay), firstLine(ev.Err)))
	case runner.EventDeleted:
		lr.deleted += ev.Rows
		if ts != nil {
			ts.deleted += ev.Rows
		}
		lr.addLog(fmt.Sprintf("✂ %sdeleted %s %s from %s", taskPrefix(ev.Task), plural(ev.Rows, "row"), ownerPhrase(ev.Writer), shortName(ev.Table)))
	case runner.EventWarning:
		lr.warnings++
		lr.addLog("! " + taskPrefix(ev.Task) + firstLine(ev.Message))
	case runner.EventTaskFinished:
		if ts != nil {
			ts.status, ts.ended, ts.err = ev.Status, at, ev.Err
			ts.phase = ""
			if ev.Err != "" {
				lr.addLog("✗ " + taskPrefix(ev.Task) + firstLine(ev.Err))
			}
		}
	case runner.EventRunFinished:
		lr.status, lr.ended, lr.err = ev.Status, at, ev.Err
	}
}

// close marks the run over when its events stop without a run_finished.
func (lr *liveRun) close(now time.Time) {
	if !lr.done() {
		lr.status, lr.ended = history.StatusInterrupted, now
		if lr.err == "" {
			lr.err = "the run's events stopped before it finished"
		}
	}
	for _, t := range lr.tasks {
		if !t.status.Done() {
			t.status = history.StatusCancelled
		}
	}
}

const maxLog = 200

func (lr *liveRun) addLog(s string) {
	lr.log = append(lr.log, s)
	if len(lr.log) > maxLog {
		lr.log = lr.log[len(lr.log)-maxLog:]
	}
}

// running counts the tasks running now.
func (lr *liveRun) running() int {
	n := 0
	for _, t := range lr.tasks {
		if t.status == history.StatusRunning {
			n++
		}
	}
	return n
}

// ownerPhrase names the rows of a writer: "of pl.a" for a writer id,
// "where client_id = 1" for a predicate.
func ownerPhrase(writer string) string {
	if strings.HasPrefix(writer, "where ") {
		return writer
	}
	return "of " + writer
}

func taskPrefix(task string) string {
	if task == "" {
		return ""
	}
	return task + ": "
}

func rowsSuffix(n int64, sign string) string {
	if n == 0 {
		return ""
	}
	return " " + sign + plural(n, "row")
}

func firstLine(s string) string {
	if i := strings.IndexByte(s, '\n'); i >= 0 {
		return s[:i]
	}
	return s
}

// historyID is the history id of a runner run id ("42"), or 0.
func historyID(id string) int64 {
	n, err := strconv.ParseInt(id, 10, 64)
	if err != nil || n < 1 {
		return 0
	}
	return n
}

// runsPane shows the run in progress (tasks, retries, deletions, summary)
// over the list of past runs; enter drills into a past run.
type runsPane struct {
	c        *common
	live     *liveRun
	runs     []history.Run
	hasOlder bool
	loading  bool
	histErr  string
	noHist   bool
	cursor   int
	offset   int
	detail   *history.RunDetail
	detailID int64 // the run whose detail is loading or shown
	dOffset  int
	dLines   []string
	w, h     int
	focused  bool
	view     []string
}

func newRunsPane(c *common, haveHistory bool) runsPane {
	return runsPane{c: c, noHist: !haveHistory}
}

// SetSize sets the pane's size.
func (r *runsPane) SetSize(w, h int) {
	r.w, r.h = w, h
	r.render()
}

func (r *runsPane) setFocused(f bool) {
	r.focused = f
	r.render()
}

// setPage adds a page of runs (before = 0: the newest page, replacing the
// list).
func (r *runsPane) setPage(before int64, page history.RunPage, err error) {
	r.loading = false
	if err != nil {
		r.histErr = err.Error()
		r.render()
		return
	}
	r.histErr = ""
	if before == 0 {
		// The newest page: a cursor on the newest run stays on top (on a
		// run just finished), else it stays on its run.
		var cur int64
		if r.cursor > 0 && r.cursor < len(r.runs) {
			cur = r.runs[r.cursor].ID
		}
		r.runs = append([]history.Run(nil), page.Runs...)
		r.cursor = 0
		for i, run := range r.runs {
			if run.ID == cur {
				r.cursor = i
			}
		}
	} else if len(r.runs) > 0 && r.runs[len(r.runs)-1].ID == before {
		r.runs = append(r.runs, page.Runs...)
	}
	r.hasOlder = page.HasOlder
	r.render()
}

// nextBefore returns the id to page from when the cursor nears the end of
// the loaded runs and older runs exist (0: nothing to load).
func (r *runsPane) nextBefore() int64 {
	if r.loading || !r.hasOlder || len(r.runs) == 0 || r.cursor < len(r.runs)-10 {
		return 0
	}
	return r.runs[len(r.runs)-1].ID
}

// setDetail shows a run's detail.
func (r *runsPane) setDetail(id int64, d history.RunDetail, err error) {
	if id != r.detailID {
		return // the user went elsewhere
	}
	if err != nil {
		r.detail = &history.RunDetail{Run: history.Run{ID: id}}
		r.dLines = []string{r.c.st.StatusErr.Render("cannot read run " + strconv.FormatInt(id, 10) + ": " + err.Error())}
	} else {
		r.detail = &d
		r.dLines = r.detailLines(d)
	}
	r.dOffset = 0
	r.render()
}

func (r *runsPane) inDetail() bool { return r.detailID != 0 }

func (r *runsPane) closeDetail() {
	r.detailID, r.detail, r.dLines = 0, nil, nil
	r.render()
}

// selectedRun is the past run under the cursor.
func (r *runsPane) selectedRun() (history.Run, bool) {
	if r.cursor < 0 || r.cursor >= len(r.runs) {
		return history.Run{}, false
	}
	return r.runs[r.cursor], true
}

// Update moves the cursor in the list or scrolls the detail.
func (r runsPane) Update(msg tea.Msg) (runsPane, tea.Cmd) {
	km, ok := msg.(tea.KeyMsg)
	if !ok {
		return r, nil
	}
	k := r.c.keys
	if r.inDetail() {
		page := max(r.h-2, 1)
		switch {
		case key.Matches(km, k.Up):
			r.dOffset--
		case key.Matches(km, k.Down):
			r.dOffset++
		case key.Matches(km, k.PageUp):
			r.dOffset -= page
		case key.Matches(km, k.PageDown):
			r.dOffset += page
		case key.Matches(km, k.Home):
			r.dOffset = 0
		case key.Matches(km, k.End):
			r.dOffset = len(r.dLines)
		case key.Matches(km, k.Back):
			r.closeDetail()
			return r, nil
		default:
			return r, nil
		}
		r.render()
		return r, nil
	}
	page := max(r.h/2, 1)
	switch {
	case key.Matches(km, k.Up):
		r.cursor--
	case key.Matches(km, k.Down):
		r.cursor++
	case key.Matches(km, k.PageUp):
		r.cursor -= page
	case key.Matches(km, k.PageDown):
		r.cursor += page
	case key.Matches(km, k.Home):
		r.cursor = 0
	case key.Matches(km, k.End):
		r.cursor = len(r.runs) - 1
	default:
		return r, nil
	}
	r.cursor = min(max(r.cursor, 0), max(len(r.runs)-1, 0))
	r.render()
	return r, nil
}

// View returns the pane's lines.
func (r runsPane) View() []string { return r.view }

// ShortHelp implements help.KeyMap.
func (r runsPane) ShortHelp() []key.Binding {
	k := r.c.keys
	if r.inDetail() {
		return []key.Binding{k.Up, k.Down, k.Back}
	}
	return []key.Binding{k.Up, k.Down, k.OpenRun, k.Cancel}
}

// FullHelp implements help.KeyMap.
func (r runsPane) FullHelp() [][]key.Binding {
	k := r.c.keys
	return [][]key.Binding{{k.Up, k.Down, k.PageUp, k.PageDown, k.OpenRun, k.Back, k.Cancel}}
}

func (r *runsPane) render() {
	if r.w <= 0 || r.h <= 0 {
		r.view = nil
		return
	}
	if r.inDetail() {
		r.view = r.renderDetail()
		return
	}
	var top []string
	if r.live != nil {
		head, log, sum := r.liveLines()
		room := max(r.h/2, 6) - len(head) - len(sum)
		first := len(log) // the latest entries that fit, whole
		for first > 0 && len(log[first-1]) <= room {
			room -= len(log[first-1])
			first--
		}
		top = head
		for _, e := range log[first:] {
			top = append(top, e...)
		}
		top = append(append(top, sum...), r.c.st.Separator.Render(strings.Repeat("─", r.w)))
	}
	r.view = fitLines(append(top, r.listLines(r.h-len(top))...), r.w, r.h)
}

// liveLines draws the run in progress: a header and one line per task,
// the log of operations, retries and deletions, and the summary when done.
func (r *runsPane) liveLines() (head []string, log [][]string, sum []string) {
	st := r.c.st
	lr := r.live
	now := r.c.now()
	end := lr.ended
	if end.IsZero() {
		end = now
	}
	id := ""
	if lr.id != "" {
		id = "#" + lr.id + " "
	}
	state := statusStyle(st, lr.status).Render(string(lr.status))
	if lr.cancelling && !lr.done() {
		state = st.Warning.Render("cancelling")
	}
	var lines []string
	wrap := func(l string) { lines = append(lines, strings.Split(ansi.Wrap(l, max(r.w, 20), " "), "\n")...) }
	wrap(st.Bold.Render("Run "+id) + lr.target + "  " + state + " " + st.Dim.Render(dur(end.Sub(lr.started))))
	kw := min(max(r.w-40, 12), 40)
	lines = append(lines, st.Dim.Render(fmt.Sprintf("  %-*s %-10s %-6s %8s %3s", kw, "task", "status", "phase", "rows", "↻")))
	for _, t := range lr.tasks {
		elapsed := ""
		if !t.started.IsZero() {
			e := t.ended
			if e.IsZero() {
				e = now
			}
			elapsed = dur(e.Sub(t.started))
		}
		rows := ""
		if t.rows > 0 || t.written > 0 {
			rows = num(max(t.rows, t.written))
		}
		retries := ""
		if t.retries > 0 {
			retries = strconv.Itoa(t.retries)
		}
		status := fmt.Sprintf("%-10s", t.status)
		lines = append(lines, fmt.Sprintf("%s %-*s %s %-6s %8s %3s %s", runMark(st, t.status), kw, ansi.Truncate(t.key, kw, "…"),
			statusStyle(st, t.status).Render(status), t.phase, rows, retries, st.Dim.Render(elapsed)))
	}
	head = lines
	lines = nil
	for _, l := range lr.log {
		wrap("  " + l)
		log = append(log, lines)
		lines = nil
	}
	if lr.done() {
		sum := fmt.Sprintf("%s in %s · %s · %s written · %s deleted · %s", lr.status, dur(end.Sub(lr.started)),
			plural(int64(len(lr.tasks)), "task"), plural(lr.written, "row"), plural(lr.deleted, "row"), retriesText(int64(lr.retries)))
		wrap(statusStyle(st, lr.status).Render("Summary: " + sum))
		if lr.err != "" {
			wrap(st.Error.Render("  " + firstLine(lr.err)))
		}
	}
	return head, log, lines
}

// listLines draws the past runs, h lines.
func (r *runsPane) listLines(h int) []string {
	st := r.c.st
	title := "Past runs"
	if r.loading {
		title += st.Dim.Render(" (loading…)")
	}
	lines := []string{st.Accent.Render(title)}
	switch {
	case r.noHist:
		return append(lines, st.Dim.Render("  no run history"))
	case r.histErr != "":
		return append(lines, st.StatusErr.Render("  cannot read the run history: "+r.histErr))
	case len(r.runs) == 0 && !r.loading:
		return append(lines, st.Dim.Render("  no runs yet: r runs the selection"))
	}
	wide := r.w >= 100
	if wide {
		lines = append(lines, st.Dim.Render(fmt.Sprintf("  %5s %-16s %7s %-11s %-11s %9s %8s %s", "run", "started (UTC)", "took", "status", "refresh", "written", "deleted", "selection")))
	} else {
		lines = append(lines, st.Dim.Render(fmt.Sprintf("  %4s %-11s %6s %-11s %s", "run", "UTC", "took", "refresh", "+written/-deleted selection")))
	}
	rows := max(h-len(lines), 1)
	if r.cursor < r.offset {
		r.offset = r.cursor
	}
	if r.cursor >= r.offset+rows {
		r.offset = r.cursor - rows + 1
	}
	r.offset = min(max(r.offset, 0), max(len(r.runs)-rows, 0))
	for i := r.offset; i < len(r.runs) && i < r.offset+rows; i++ {
		run := r.runs[i]
		refresh := string(run.Refresh)
		if run.ResetMode != "" {
			refresh += "/" + string(run.ResetMode)
		}
		took := "-"
		if d := run.Duration(); d > 0 {
			took = dur(d)
		}
		status := fmt.Sprintf("%-11s", run.Status)
		sel := selectionText(run.Pipelines, run.Selectors)
		var rest string
		if wide {
			rest = fmt.Sprintf(" %5d %-16s %7s %s %-11s %9s %8s %s", run.ID, stamp(run.StartedAt), took, status, refresh,
				num(run.RowsWritten), num(run.RowsDeleted), sel)
		} else {
			rest = fmt.Sprintf(" %4d %-11s %6s %-11s +%s/-%s %s", run.ID, shortStamp(run.StartedAt), took, refresh,
				num(run.RowsWritten), num(run.RowsDeleted), sel)
		}
		line := runMark(st, run.Status) + rest
		if wide {
			line = runMark(st, run.Status) + strings.Replace(rest, status, statusStyle(st, run.Status).Render(status), 1)
		}
		if i == r.cursor {
			plain := fitLine("›"+rest, r.w)
			if r.focused {
				line = st.Selected.Render(plain)
			} else {
				line = st.Bold.Render(plain)
			}
		}
		lines = append(lines, line)
	}
	if r.hasOlder && r.offset+rows >= len(r.runs) {
		lines = append(lines, st.Dim.Render("  … older runs load as you scroll"))
	}
	return lines
}

func selectionText(pipelines, selectors []string) string {
	s := "all pipelines"
	if len(pipelines) > 0 {
		s = strings.Join(pipelines, ",")
	}
	if len(selectors) > 0 {
		s += " [" + strings.Join(selectors, ",") + "]"
	}
	return s
}

func (r *runsPane) renderDetail() []string {
	st := r.c.st
	if r.detail == nil {
		return fitLines([]string{st.Dim.Render(fmt.Sprintf("loading run %d…", r.detailID))}, r.w, r.h)
	}
	rows := r.h - 1
	r.dOffset = min(max(r.dOffset, 0), max(len(r.dLines)-rows, 0))
	end := min(r.dOffset+rows, len(r.dLines))
	head := st.Dim.Render(fmt.Sprintf("run %d · esc back · ↑/↓ scroll (%d-%d of %d lines)", r.detailID, r.dOffset+1, end, len(r.dLines)))
	return fitLines(append([]string{head}, r.dLines[r.dOffset:end]...), r.w, r.h)
}

// detailLines draws a past run: summary, tasks, table operations, retries,
// deleted rows per writer and messages.
func (r *runsPane) detailLines(d history.RunDetail) []string {
	st := r.c.st
	run := d.Run
	var lines []string
	add := func(format string, a ...any) { lines = append(lines, fmt.Sprintf(format, a...)) }
	section := func(title string, n int) {
		lines = append(lines, "", st.Accent.Render(fmt.Sprintf("%s (%d)", title, n)))
	}
	refresh := string(run.Refresh)
	if run.ResetMode != "" {
		refresh += " " + string(run.ResetMode)
	}
	add("%s %s  %s  %s", st.Bold.Render(fmt.Sprintf("Run %d", run.ID)), statusStyle(st, run.Status).Render(string(run.Status)),
		refresh, selectionText(run.Pipelines, run.Selectors))
	took := "-"
	if dd := run.Duration(); dd > 0 {
		took = dur(dd)
	}
	add("started %s UTC · took %s · parallelism %d", stamp(run.StartedAt), took, run.Parallelism)
	add("rows read %s · written %s · deleted %s · %s · %d warnings · %d errors", num(run.RowsRead), num(run.RowsWritten),
		num(run.RowsDeleted), retriesText(run.Retries), run.Warnings, run.Errors)
	if run.Error != "" {
		lines = append(lines, st.Error.Render("error: "+firstLine(run.Error)))
	}
	section("Tasks", len(d.Tasks))
	for _, t := range d.Tasks {
		took := "-"
		if dd := t.Duration(); dd > 0 {
			took = dur(dd)
		}
		add("%s %s %s %s", runMark(st, t.Status), t.Key, statusStyle(st, t.Status).Render(string(t.Status)), st.Dim.Render(took))
		add("    read %s · written %s · deleted %s · %s", num(t.RowsRead), num(t.RowsWritten), num(t.RowsDeleted), retriesText(t.Retries))
		if t.Error != "" {
			lines = append(lines, st.Error.Render("    "+firstLine(t.Error)))
		}
	}
	section("Table operations", len(d.Operations))
	for _, o := range d.Operations {
		v := "-"
		if o.Version != nil {
			v = "v" + strconv.FormatInt(*o.Version, 10)
		}
		add("  %s %s %s  +%s -%s rows, %d/%d files added/removed  %s", shortName(o.Table), v, o.Operation, num(o.RowsAdded),
			num(o.RowsDeleted), o.FilesAdded, o.FilesRemoved, st.Dim.Render(o.Task))
		if o.Detail != "" {
			lines = append(lines, st.Dim.Render("    "+o.Detail))
		}
	}
	section("Retries", len(d.Retries))
	for _, rt := range d.Retries {
		add("  %s attempt %d after %s on %s: %s", rt.Task, rt.Attempt, dur(rt.Delay), shortName(rt.Table), firstLine(rt.Error))
	}
	section("Deleted rows per writer", len(d.Deletions))
	for _, del := range d.Deletions {
		who := ownerPhrase(del.Writer)
		if del.Writer == "" {
			who = "where " + del.Predicate
		}
		v := ""
		if del.Version != nil {
			v = fmt.Sprintf(" (v%d)", *del.Version)
		}
		add("  %s: %s %s%s", shortName(del.Table), plural(del.Rows, "row"), who, v)
	}
	if len(d.Messages) > 0 {
		section("Messages", len(d.Messages))
		for _, m := range d.Messages {
			mark := st.Info.Render("i")
			switch m.Severity {
			case history.SeverityError:
				mark = st.Error.Render("✗")
			case history.SeverityWarning:
				mark = st.Warning.Render("!")
			}
			add(" %s %s%s", mark, taskPrefix(m.Task), firstLine(m.Text))
		}
	}
	var wrapped []string
	for _, l := range lines {
		wrapped = append(wrapped, strings.Split(ansi.Wrap(l, max(r.w, 20), " "), "\n")...)
	}
	return wrapped
}

func retriesText(n int64) string {
	if n == 1 {
		return "1 retry"
	}
	return num(n) + " retries"
}
