package tui

import (
	"encoding/json"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/charmbracelet/bubbles/key"
	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/x/ansi"
	"github.com/laktory/workbench/runner"
	"github.com/laktory/workbench/runner/history"
	"github.com/laktory/workbench/workspace"
	"github.com/laktory/workbench/workspace/human"
)

// liveRun is the run in progress (or the last one started here), built
// from its events.
type liveRun struct {
	token      int
	id         string
	target     string
	snap       *workspace.Snapshot // names tables and paths
	handle     RunHandle
	tasks      []*taskState
	byKey      map[string]*taskState
	log        []string
	warnings   []note
	status     history.Status
	err        string
	started    time.Time
	ended      time.Time
	written    int64
	deleted    int64
	retries    int
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
	flows   []*flowState
	write   writeState
}

// writeState is a task's write of its data files in progress: the rows it
// writes, and the rows and bytes written so far.
type writeState struct {
	total, rows, bytes int64
	start, at          time.Time
}

// text says how far the write is ("" before the first report).
func (w writeState) text() string {
	if w.bytes == 0 {
		return ""
	}
	return human.WriteProgress(w.rows, w.total, w.bytes, w.at.Sub(w.start))
}

// flowState is the progress of a streaming flow: its micro-batches and,
// for a ForEach sink, the rows the sink processed.
type flowState struct {
	name      string
	task      string
	target    string // as the plan names it (flowTarget shortens it)
	batches   int    // micro-batches completed
	batch     int64  // the latest batch id
	rows      int64  // rows of the completed batches
	processed int64  // rows a ForEach sink processed
	foreach   bool
	status    string // "", COMPLETED or FAILED
	err       string
}

// note is a message of a run (a warning, an error), said once however
// often it came.
type note struct {
	task, msg string
	sev       history.Severity
	n         int
}

// addNote adds a message to ns, or counts it again when it is there.
func addNote(ns []note, task string, sev history.Severity, msg string) []note {
	for i := range ns {
		if ns[i].task == task && ns[i].msg == msg && ns[i].sev == sev {
			ns[i].n++
			return ns
		}
	}
	return append(ns, note{task: task, msg: msg, sev: sev, n: 1})
}

// text is the note's task and first line, with how often it came.
func (n note) text() string {
	s := taskPrefix(n.task) + firstLine(n.msg)
	if n.n > 1 {
		s += fmt.Sprintf(" (×%d)", n.n)
	}
	return s
}

func newLiveRun(token int, target string, plan *runner.Plan, snap *workspace.Snapshot, h RunHandle, now time.Time) *liveRun {
	lr := &liveRun{token: token, target: target, snap: snap, handle: h, byKey: map[string]*taskState{},
		status: history.StatusRunning, started: now}
	for _, t := range plan.Tasks {
		lr.task(t.Key)
	}
	for _, f := range plan.Flows {
		ts := lr.task(f.Task)
		ts.flows = append(ts.flows, &flowState{name: f.Name, task: f.Task, target: f.Target, foreach: strings.HasPrefix(f.Target, "foreach:")})
	}
	return lr
}

func (lr *liveRun) done() bool { return lr.status.Done() }

// pipelinePrefix is "pipeline." when every task of the run is of that
// pipeline, else "".
func (lr *liveRun) pipelinePrefix() string {
	prefix := ""
	for _, t := range lr.tasks {
		pl, _, ok := strings.Cut(t.key, ".")
		if !ok || (prefix != "" && prefix != pl+".") {
			return ""
		}
		prefix = pl + "."
	}
	return prefix
}

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

// flow returns the state of a flow of the task, adding it when the plan
// did not list it.
func (ts *taskState) flow(name string) *flowState {
	for _, f := range ts.flows {
		if f.name == name && f.task == ts.key {
			return f
		}
	}
	f := &flowState{name: name, task: ts.key}
	ts.flows = append(ts.flows, f)
	return f
}

// progress folds a flow_progress event into the flow.
func (f *flowState) progress(ev runner.Event) {
	f.batch, f.status = ev.Batch, string(ev.Status)
	if ev.Status == "FAILED" {
		f.err = ev.Err
		return
	}
	f.batches++
	f.rows += ev.Rows
}

// foreachFlow is the flow of the task writing the ForEach sink named in
// an operation ("ForEach sink NAME"), or nil.
func (ts *taskState) foreachFlow(sink string) *flowState {
	name := strings.TrimPrefix(sink, "ForEach sink ")
	var only *flowState
	n := 0
	for _, f := range ts.flows {
		if f.target == "foreach:"+name {
			return f
		}
		if f.foreach {
			only = f
			n++
		}
	}
	if n == 1 {
		return only
	}
	return nil
}

// tableName is the short name of a table an event names (its full name,
// or its path).
func (lr *liveRun) tableName(s string) string {
	if lr.snap != nil {
		if t := lr.snap.Table(workspace.TableID(s)); t != nil {
			return tableLabel(t)
		}
	}
	return shortName(s)
}

// apply folds one event into the run.
func (lr *liveRun) apply(ev runner.Event) {
	if ev.RunID != "" {
		lr.id = ev.RunID
	}
	at := ev.At
	ts := &taskState{} // run-level events update a throwaway task
	if ev.Task != "" {
		ts = lr.task(ev.Task)
	}
	switch ev.Kind {
	case runner.EventRunStarted:
		if !at.IsZero() {
			lr.started = at
		}
	case runner.EventTaskStarted:
		ts.status, ts.started = history.StatusRunning, at
	case runner.EventTaskProgress:
		ts.phase = ev.Phase
		ts.rows = max(ts.rows, ev.Rows)
		switch {
		case ev.Phase == "write" && ev.Table == "": // the rows it is about to write
			ts.write = writeState{total: ev.Rows, start: at}
		case ev.Phase == "write":
			ts.write.rows, ts.write.bytes, ts.write.at = ev.Rows, ev.Bytes, at
		default:
			ts.write = writeState{}
		}
		if ts.status == history.StatusQueued {
			ts.status = history.StatusRunning
		}
	case runner.EventFlowProgress:
		ts.flow(ev.Flow).progress(ev) // a failure shows on the flow's line
	case runner.EventSinkDefinition:
		f := ts.flow(ev.Flow)
		f.foreach = f.foreach || ev.Format == "foreach"
		if f.target == "" && ev.Format == "foreach" {
			f.target = "foreach:" + ev.Sink
		}
		lr.addLog("⇢ " + taskPrefix(ev.Task) + firstLine(ev.Message))
	case runner.EventOperation:
		lr.operation(ts, ev)
	case runner.EventRetry:
		lr.retries++
		ts.retries++
		lr.addLog(fmt.Sprintf("↻ %sretry %d on %s in %s: %s", taskPrefix(ev.Task), ev.Attempt, lr.tableName(ev.Table), human.Duration(ev.Delay), firstLine(ev.Err)))
	case runner.EventDeleted:
		lr.deleted += ev.Rows
		ts.deleted += ev.Rows
		lr.addLog(fmt.Sprintf("✂ %sdeleted %s %s from %s", taskPrefix(ev.Task), human.Plural(ev.Rows, "row"), ownerPhrase(ev.Writer), lr.tableName(ev.Table)))
	case runner.EventWarning:
		lr.warnings = addNote(lr.warnings, ev.Task, history.SeverityWarning, ev.Message)
	case runner.EventTaskFinished:
		ts.status, ts.ended, ts.err = ev.Status, at, ev.Err // the error shows under the task
		ts.phase = ""
	case runner.EventRunFinished:
		lr.status, lr.ended, lr.err = ev.Status, at, ev.Err
	}
}

// operation folds a table operation (or a ForEach sink's rows, or a
// checkpoint reset) into the run.
func (lr *liveRun) operation(ts *taskState, ev runner.Event) {
	switch ev.Operation {
	case "RESET CHECKPOINT":
		lr.addLog("↺ " + taskPrefix(ev.Task) + checkpointReset(lr.snap, ev))
		return
	case "FOREACH":
		if f := ts.foreachFlow(ev.Table); f != nil {
			f.processed += ev.Rows
		}
		lr.written += ev.Rows // as the run's summary counts them
		ts.written += ev.Rows
		lr.addLog(fmt.Sprintf("⇢ %s%s processed %s", taskPrefix(ev.Task), ev.Table, human.Plural(ev.Rows, "row")))
		return
	}
	lr.written += ev.Rows
	ts.written += ev.Rows
	v := ""
	if ev.Version >= 0 {
		v = fmt.Sprintf(" v%d", ev.Version)
	}
	lr.addLog(fmt.Sprintf("• %s%s%s %s%s", taskPrefix(ev.Task), lr.tableName(ev.Table), v, ev.Operation, rowsSuffix(ev.Rows, "+")))
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
	return " " + sign + human.Plural(n, "row")
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
	snap     *workspace.Snapshot // names the writers of checkpoints
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
	q        string // the search: only matching past runs show
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
	if lr := r.live; lr != nil && lr.done() {
		// The history has the run's totals (a dropped table's rows too,
		// which no event counts).
		for _, run := range page.Runs {
			if run.ID == historyID(lr.id) && run.Status.Done() {
				lr.written, lr.deleted = run.RowsWritten, run.RowsDeleted
			}
		}
	}
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
		off, moved := k.move(km, r.dOffset, max(r.h-2, 1), len(r.dLines))
		switch {
		case moved:
			r.dOffset = off // the render clamps it
		case key.Matches(km, k.Back):
			r.closeDetail()
			return r, nil
		default:
			return r, nil
		}
		r.render()
		return r, nil
	}
	shown := r.shown()
	pos, moved := k.move(km, max(slices.Index(shown, r.cursor), 0), max(r.h/2, 1), len(shown)-1)
	if !moved || len(shown) == 0 {
		return r, nil
	}
	r.cursor = shown[min(max(pos, 0), len(shown)-1)]
	r.render()
	return r, nil
}

// shown are the indexes of the runs the search keeps (all without one).
func (r *runsPane) shown() []int {
	out := make([]int, 0, len(r.runs))
	for i, run := range r.runs {
		if matches(r.q, strconv.FormatInt(run.ID, 10), string(run.Status), string(run.Refresh), string(run.ResetMode),
			run.EngineLabel(), selectionText(run.Pipelines, run.Selectors), run.Error) {
			out = append(out, i)
		}
	}
	return out
}

func (r *runsPane) query() string { return r.q }

func (r *runsPane) search(q string) int {
	r.q = q
	if shown := r.shown(); len(shown) > 0 && !slices.Contains(shown, r.cursor) {
		r.cursor = shown[0]
	}
	r.render()
	if q == "" {
		return 0
	}
	return len(r.shown())
}

func (r *runsPane) step(forward bool) {
	shown := r.shown()
	if len(shown) == 0 {
		return
	}
	pos := stepIndex(max(slices.Index(shown, r.cursor), 0), len(shown), forward, func(int) bool { return true })
	r.cursor = shown[pos]
	r.render()
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
		top = append(r.liveLines(), r.c.st.Separator.Render(strings.Repeat("─", r.w)))
	}
	r.view = fitLines(append(top, r.listLines(r.h-len(top))...), r.w, r.h)
}

// minListLines is the room the past runs keep under a run in progress:
// their title, the column names and the run under the cursor.
const minListLines = 3

// liveLines draws the run in progress within its share of the pane: a
// header and one line per task (with its flows' micro-batches and the
// rows ForEach sinks processed), the warnings, the summary when done, and
// the latest of the log (operations, retries, deletions) in the room
// left. The warnings and the summary always show, the pane growing for
// them; what does not fit says so and is in the run's details.
func (r *runsPane) liveLines() []string {
	st := r.c.st
	lr := r.live
	now := r.c.now()
	end := lr.ended
	if end.IsZero() {
		end = now
	}
	w := max(r.w, 20)
	id := ""
	if lr.id != "" {
		id = "#" + lr.id + " "
	}
	state := statusStyle(st, lr.status).Render(string(lr.status))
	if lr.cancelling && !lr.done() {
		state = st.Warning.Render("cancelling")
	}
	head := wrap(st.Bold.Render("Run "+id)+lr.target+"  "+state+" "+st.Dim.Render(human.Duration(end.Sub(lr.started))), w)
	kw := min(max(r.w-40, 12), 40)
	// The tasks of one pipeline go by their node names.
	prefix, col := lr.pipelinePrefix(), "task"
	if prefix != "" {
		col = "node of " + strings.TrimSuffix(prefix, ".")
	}
	head = append(head, st.Dim.Render(fmt.Sprintf("  %-*s %-10s %-8s %7s %3s", kw, ansi.Truncate(col, kw, "…"), "status", "progress", "rows", "↻")))

	// Tasks with their errors, and the flows worth a line of their own:
	// those of a task with several, ForEach sinks and failed flows; the
	// others when room allows.
	var tasks [][]string
	taskLines := 0
	flows := map[*flowState][]string{}
	flowsMust, flowsAll := 0, 0
	for _, t := range lr.tasks {
		tl := []string{r.taskLine(t, strings.TrimPrefix(t.key, prefix), kw, now)}
		if p := t.write.text(); p != "" && t.phase == "write" && !t.status.Done() {
			tl = append(tl, wrap("    "+st.Running.Render("⇣ ")+p, w)...)
		}
		if t.err != "" {
			tl = append(tl, wrap("    "+st.Error.Render("✗ "+r.c.rel(firstLine(t.err))), w)...)
		}
		tasks = append(tasks, tl)
		taskLines += len(tl)
		for _, f := range t.flows {
			flows[f] = r.flowLine(t, f, w)
			flowsAll += len(flows[f])
			if flowOwnLine(t, f) {
				flowsMust += len(flows[f])
			}
		}
	}
	var warns []string
	for _, wn := range lr.warnings {
		warns = append(warns, wrap(" "+st.Warning.Render("!")+" "+r.c.rel(wn.text()), w)...)
	}
	if len(warns) > 0 {
		warns = append([]string{st.Warning.Render(fmt.Sprintf("Warnings (%d)", len(lr.warnings)))}, warns...)
	}
	var sum []string
	if lr.done() {
		text := fmt.Sprintf("%s in %s · %s · %s written · %s deleted · %s", lr.status, human.Duration(end.Sub(lr.started)),
			human.Plural(int64(len(lr.tasks)), "task"), human.Plural(lr.written, "row"), human.Plural(lr.deleted, "row"), human.Plural(int64(lr.retries), "retry"))
		sum = wrap(statusStyle(st, lr.status).Render("Summary: "+text), w)
		if lr.err != "" {
			sum = append(sum, wrap(st.Error.Render("  "+r.c.rel(firstLine(lr.err))), w)...)
		}
	}

	budget := max(r.h*3/5, 6)
	room := max(r.h-minListLines-1, 1) // the most the run may take
	if over := len(head) + len(warns) + len(sum) - room; over > 0 && len(warns) > 0 {
		// Too many warnings even for the room: the first ones, and where
		// the others are.
		keep := max(len(warns)-over-1, 1)
		warns = append(warns[:keep], st.Warning.Render(fmt.Sprintf("  … %d more lines of warnings: enter on the run shows them all", len(warns)-keep)))
	}
	must := len(head) + taskLines + flowsMust + len(warns) + len(sum)
	budget = min(max(budget, must), room)
	showAll := len(head)+taskLines+flowsAll+len(warns)+len(sum) <= budget
	var body []string
	for i, t := range lr.tasks {
		body = append(body, tasks[i]...)
		for _, f := range t.flows {
			if showAll || flowOwnLine(t, f) {
				body = append(body, flows[f]...)
			}
		}
	}
	lines := append(head, body...)
	left := budget - len(lines) - len(warns) - len(sum)
	if left < 0 { // too many tasks: keep the warnings and the summary
		cut := max(len(lines)+left-1, len(head))
		hidden := len(lines) - cut
		lines = append(lines[:cut], st.Dim.Render(fmt.Sprintf("  … %d more lines: enter on the run shows them all", hidden)))
		left = 0
	}
	// The latest log entries that fit, whole.
	var logLines [][]string
	for _, l := range lr.log {
		logLines = append(logLines, wrap("  "+r.c.rel(l), w))
	}
	first := len(logLines)
	for first > 0 && len(logLines[first-1]) <= left {
		left -= len(logLines[first-1])
		first--
	}
	for _, e := range logLines[first:] {
		lines = append(lines, e...)
	}
	lines = append(lines, warns...)
	return append(lines, sum...)
}

// flowOwnLine reports whether a flow always gets a line of its own under
// its task: a task with several flows, a ForEach sink, a failed flow.
func flowOwnLine(t *taskState, f *flowState) bool {
	return len(t.flows) > 1 || f.foreach || f.err != ""
}

// taskLine draws a task: its status, its progress (the phase, or the
// latest micro-batch of its only flow), its rows, retries and time.
func (r *runsPane) taskLine(t *taskState, name string, kw int, now time.Time) string {
	st := r.c.st
	elapsed := ""
	if !t.started.IsZero() {
		e := t.ended
		if e.IsZero() {
			e = now
		}
		elapsed = human.Duration(e.Sub(t.started))
	}
	progress := t.phase
	if len(t.flows) == 1 && t.flows[0].batches > 0 {
		progress = fmt.Sprintf("batch %d", t.flows[0].batch)
	}
	n := max(t.rows, t.written)
	for _, f := range t.flows {
		n = max(n, f.rows)
	}
	rows := ""
	if n > 0 {
		rows = human.Count(n)
	}
	retries := ""
	if t.retries > 0 {
		retries = strconv.Itoa(t.retries)
	}
	status := fmt.Sprintf("%-10s", t.status)
	return fmt.Sprintf("%s %-*s %s %-8s %7s %3s %s", runMark(st, t.status), kw, ansi.Truncate(name, kw, "…"),
		statusStyle(st, t.status).Render(status), ansi.Truncate(progress, 8, "…"), rows, retries, st.Dim.Render(elapsed))
}

// flowLine draws a flow of a task (on two lines when narrow): its name (unless it is the task's own
// with its target), target, latest micro-batch and rows, and for a
// ForEach sink the rows it processed.
func (r *runsPane) flowLine(t *taskState, f *flowState, w int) []string {
	st := r.c.st
	label := f.name
	if strings.HasPrefix(f.name, t.key+"/") {
		label = "flow" // the task's own, named after its sink
	}
	if f.target != "" {
		label += " → " + flowTarget(f.target)
	}
	var prog string
	switch {
	case f.status == "FAILED":
		prog = st.Error.Render(fmt.Sprintf("failed in batch %d", f.batch))
	case f.batches > 0:
		prog = fmt.Sprintf("batch %d · %s", f.batch, human.Plural(f.rows, "row"))
	default:
		prog = st.Dim.Render("no batch yet")
	}
	if f.foreach && (f.processed > 0 || f.batches > 0) {
		prog += fmt.Sprintf(" · %s processed", human.Count(f.processed))
	}
	left := "    ⇢ " + label
	if ansi.StringWidth(left)+ansi.StringWidth(prog)+2 > w {
		return wrap(left+" · "+prog, w)
	}
	return []string{rightAlign(left, prog, w)}
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
	shown := r.shown()
	// Wide, the engine with its Spark Connect server; else its name.
	ew := len("engine")
	for _, i := range shown {
		ew = max(ew, min(len(r.runs[i].EngineLabel()), maxEngineWidth))
	}
	if wide {
		lines = append(lines, st.Dim.Render(fmt.Sprintf("  %5s %-16s %7s %-11s %-11s %-*s %9s %8s %s", "run", "started (UTC)", "took", "status", "refresh",
			ew, "engine", "written", "deleted", "selection")))
	} else {
		lines = append(lines, st.Dim.Render(fmt.Sprintf("  %4s %-11s %6s %-11s %-6s %s", "run", "UTC", "took", "refresh", "engine", "+written/-deleted selection")))
	}
	rows := max(h-len(lines), 1)
	if len(shown) > 0 && !slices.Contains(shown, r.cursor) {
		r.cursor = shown[0] // the cursor stays on a run the search shows
	}
	pos := max(slices.Index(shown, r.cursor), 0)
	if pos < r.offset {
		r.offset = pos
	}
	if pos >= r.offset+rows {
		r.offset = pos - rows + 1
	}
	r.offset = min(max(r.offset, 0), max(len(shown)-rows, 0))
	if len(shown) == 0 {
		lines = append(lines, st.Dim.Render("  no run matches the search"))
	}
	for p := r.offset; p < len(shown) && p < r.offset+rows; p++ {
		i := shown[p]
		run := r.runs[i]
		refresh := string(run.Refresh)
		if run.ResetMode != "" {
			refresh += "/" + string(run.ResetMode)
		}
		took := "-"
		if d := run.Duration(); d > 0 {
			took = human.Duration(d)
		}
		status := fmt.Sprintf("%-11s", run.Status)
		sel := selectionText(run.Pipelines, run.Selectors)
		var rest string
		if wide {
			rest = fmt.Sprintf(" %5d %-16s %7s %s %-11s %-*s %9s %8s %s", run.ID, stamp(run.StartedAt), took, status, refresh,
				ew, ansi.Truncate(run.EngineLabel(), ew, "…"), human.Count(run.RowsWritten), human.Count(run.RowsDeleted), sel)
		} else {
			rest = fmt.Sprintf(" %4d %-11s %6s %-11s %-6s +%s/-%s %s", run.ID, shortStamp(run.StartedAt), took, refresh,
				engineName(run), human.Count(run.RowsWritten), human.Count(run.RowsDeleted), sel)
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
				line = st.Unfocused.Render(plain)
			}
		}
		lines = append(lines, line)
	}
	if r.hasOlder && r.offset+rows >= len(shown) {
		lines = append(lines, st.Dim.Render("  … older runs load as you scroll"))
	}
	return lines
}

// maxEngineWidth bounds the engine column of the wide list of runs (a long
// Spark Connect address is cut; the run's details show it whole).
const maxEngineWidth = 32

// engineName is the engine of a run, without its server.
func engineName(run history.Run) string {
	if run.Engine == "" {
		return "local"
	}
	return run.Engine
}

func selectionText(pipelines, selectors []string) string {
	switch {
	case len(pipelines) == 0 && len(selectors) > 0: // pipeline.node selectors, or nodes of every pipeline
		return strings.Join(selectors, ",")
	case len(pipelines) == 0:
		return "all pipelines"
	case len(selectors) == 0:
		return strings.Join(pipelines, ",")
	}
	return strings.Join(pipelines, ",") + " [" + strings.Join(selectors, ",") + "]"
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
		took = human.Duration(dd)
	}
	add("started %s UTC · took %s · parallelism %d", stamp(run.StartedAt), took, run.Parallelism)
	add("engine %s", run.EngineLabel())
	add("rows read %s · written %s · deleted %s · %s · %d warnings · %d errors", human.Count(run.RowsRead), human.Count(run.RowsWritten),
		human.Count(run.RowsDeleted), human.Plural(run.Retries, "retry"), run.Warnings, run.Errors)
	if run.Error != "" {
		lines = append(lines, st.Error.Render("error: "+firstLine(run.Error)))
	}
	section("Tasks", len(d.Tasks))
	for _, t := range d.Tasks {
		took := "-"
		if dd := t.Duration(); dd > 0 {
			took = human.Duration(dd)
		}
		add("%s %s %s %s", runMark(st, t.Status), t.Key, statusStyle(st, t.Status).Render(string(t.Status)), st.Dim.Render(took))
		add("    read %s · written %s · deleted %s · %s", human.Count(t.RowsRead), human.Count(t.RowsWritten), human.Count(t.RowsDeleted), human.Plural(t.Retries, "retry"))
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
		add("  %s %s %s  +%s -%s rows, %d/%d files added/removed  %s", shortName(o.Table), v, o.Operation, human.Count(o.RowsAdded),
			human.Count(o.RowsDeleted), o.FilesAdded, o.FilesRemoved, st.Dim.Render(o.Task))
		if o.Detail != "" {
			lines = append(lines, st.Dim.Render("    "+o.Detail))
		}
	}
	section("Retries", len(d.Retries))
	for _, rt := range d.Retries {
		add("  %s attempt %d after %s on %s: %s", rt.Task, rt.Attempt, human.Duration(rt.Delay), shortName(rt.Table), firstLine(rt.Error))
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
		add("  %s: %s %s%s", shortName(del.Table), human.Plural(del.Rows, "row"), who, v)
	}
	if resets := checkpointResets(d.Events); len(resets) > 0 {
		section("Checkpoints reset", len(resets))
		for _, ev := range resets {
			add("  ↺ %s%s", checkpointReset(r.snap, ev), st.Dim.Render(" "+ev.Task))
		}
	}
	if flows := flowsOf(d.Events); len(flows) > 0 {
		section("Streaming flows", len(flows))
		for _, f := range flows {
			lines = append(lines, "  ⇢ "+f.name+st.Dim.Render(" "+f.task))
			text := fmt.Sprintf("%s (last %d) · %s", human.Plural(int64(f.batches), "batch"), f.batch, human.Plural(f.rows, "row"))
			if f.batches == 0 {
				text = "no batch"
			}
			if f.status == "FAILED" {
				text += " · " + st.Error.Render(fmt.Sprintf("failed in batch %d: %s", f.batch, firstLine(f.err)))
			}
			lines = append(lines, "      "+text)
		}
	}
	if len(d.Messages) > 0 {
		var ns []note
		for _, m := range d.Messages {
			ns = addNote(ns, m.Task, m.Severity, m.Text)
		}
		section("Messages", len(ns))
		for _, n := range ns {
			mark := st.Info.Render("i")
			switch n.sev {
			case history.SeverityError:
				mark = st.Error.Render("✗")
			case history.SeverityWarning:
				mark = st.Warning.Render("!")
			}
			add(" %s %s", mark, n.text())
		}
	}
	return wrapAll(r.c.relAll(lines), max(r.w, 20))
}

// checkpointResets are the checkpoint resets of a run's event log.
func checkpointResets(evs []history.Event) []runner.Event {
	var out []runner.Event
	for _, e := range evs {
		var ev runner.Event
		if e.Kind == string(runner.EventOperation) && json.Unmarshal(e.Payload, &ev) == nil && ev.Operation == "RESET CHECKPOINT" {
			out = append(out, ev)
		}
	}
	return out
}

// checkpointReset says whose checkpoint a reset reset: the writer whose
// sink keeps it, named by its own pipeline and node (a whole-table reset
// resets other writers' checkpoints too), with its folder.
func checkpointReset(snap *workspace.Snapshot, ev runner.Event) string {
	table := shortName(ev.Table)
	if snap != nil {
		if t := snap.Table(workspace.TableID(ev.Table)); t != nil {
			table = tableLabel(t)
		}
	}
	if ev.Checkpoint == "" {
		return "reset the streaming checkpoint of " + table
	}
	if owner := checkpointOwner(snap, ev.Checkpoint, ""); owner != "" {
		return fmt.Sprintf("reset the checkpoint of writer %s of %s (%s)", owner, table, relPath(snap, ev.Checkpoint))
	}
	return fmt.Sprintf("reset the checkpoint %s of %s", relPath(snap, ev.Checkpoint), table)
}

// flowsOf gathers the progress of a run's flows from its event log, in
// the order they first report.
func flowsOf(evs []history.Event) []*flowState {
	ts := &taskState{}
	for _, e := range evs {
		var ev runner.Event
		if e.Kind != string(runner.EventFlowProgress) || json.Unmarshal(e.Payload, &ev) != nil || ev.Flow == "" {
			continue
		}
		ts.key = ev.Task // flows are told apart by task and name
		ts.flow(ev.Flow).progress(ev)
	}
	return ts.flows
}
