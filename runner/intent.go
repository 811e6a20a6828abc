package runner

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"

	"github.com/google/uuid"

	"github.com/laktory/workbench/delta"
	"github.com/laktory/workbench/runner/checkpoint"
	"github.com/laktory/workbench/runner/history"
	"github.com/laktory/workbench/workspace"
)

// A refresh records its intent before its first destructive step, so that
// a crash between its steps (after a delete and before the checkpoint
// reset, say) never leaves a writer whose checkpoint and rows disagree:
// the next run of the writer, whatever its refresh, finds the intent and
// finishes or redoes the refresh, says so, and clears the intent when the
// rows and the checkpoint agree again.
//
// The intent is a file beside the writer's checkpoint,
// "<checkpoint>.refresh.json", rather than a row of the SQLite history:
// what it protects is the agreement of that checkpoint with the table; it
// lives with the checkpoint and its lock ("<checkpoint>.lock"), is read and
// written under that lock, survives the reset of the checkpoint (it is a
// sibling, not a child), and is seen by every process that runs the flow,
// even one recording into another history (a lake shared with --lake, a
// state.db removed or written by a newer laktory). It is written
// atomically (a temporary file renamed into place, the folder synced).
//
//   - A FULL or RESET of a writer: the next INCREMENTAL run of the writer
//     refreshes it fully (a RESET followed by a normal run comes to the
//     same); a FULL or RESET run does what it asks, which covers the
//     interrupted one.
//   - A whole-table DROP or TRUNCATE: an intent beside each checkpoint it
//     resets. The table step is done once: the next run owning any of
//     those checkpoints does it unless it is done (the table's id changed,
//     or a commit carrying the intent's marker is in its log), then resets
//     its own checkpoint; the others reset theirs when their writers run.
type intent struct {
	ID    string `json:"id"`
	RunID int64  `json:"run_id"`
	Task  string `json:"task"`
	// Refresh is FULL or RESET (of the writer, or of the whole table when
	// Whole is set).
	Refresh string `json:"refresh"`
	// Whole is DROP or TRUNCATE for a whole-table reset.
	Whole string `json:"whole,omitempty"`
	// Mode is a regular sink's reset_mode (DROP or TRUNCATE).
	Mode  string `json:"reset_mode,omitempty"`
	Table string `json:"table"`
	Path  string `json:"path,omitempty"`
	// TableID and ReadVersion are the table's id and version when the
	// refresh started ("" and -1 when there was no table).
	TableID     string    `json:"table_id,omitempty"`
	ReadVersion int64     `json:"read_version"`
	At          time.Time `json:"at"`
}

// recovery keeps a task's refreshes recoverable: the intents of its
// destructive refreshes, recorded before their first step, checked under
// the writer locks against the plan's, and cleared once rows and
// checkpoint agree again; and it finishes or redoes what an interrupted
// run left (resume, cleanLeftovers). The task calls it around its resets
// and commits (taskExec.execute).
type recovery struct {
	x *taskExec
	// intents are the refreshes of the task's sinks recorded and not yet
	// complete.
	intents map[*sinkPlan]*intent
}

// intentPath is where the intent of the writer whose checkpoint is dir
// lives.
func intentPath(dir string) string { return filepath.Clean(dir) + ".refresh.json" }

// touch records, before it happens, that the task changes something of
// sink sp (nil: of every sink of the task): a commit, a reset, a
// checkpoint removed, files or a view written, a flow run. Until it does,
// a failure of the task leaves nothing to redo (Run.clearUntouched).
func (rc *recovery) touch(sp *sinkPlan) {
	x := rc.x
	run := x.run
	run.touchMu.Lock()
	defer run.touchMu.Unlock()
	if run.touchedTasks == nil {
		run.touchedTasks, run.touchedTables = map[string]bool{}, map[workspace.TableID]bool{}
	}
	run.touchedTasks[x.t.Key] = true
	sps := x.tp.sinks
	if sp != nil {
		sps = []*sinkPlan{sp}
	}
	for _, s := range sps {
		if s.sink.Table != "" {
			run.touchedTables[s.sink.Table] = true
		}
	}
}

// clearUntouched removes, as the run ends (its locks still held), the
// intents this run recorded for the refreshes of tasks that changed
// nothing and whose inputs nothing of the run changed: a FULL refresh
// failing on a source it cannot parse, a task cancelled before its first
// step. Such an intent made the next run redo a refresh that did nothing,
// announced as interrupted and refused as destructive without a
// confirmation. An intent is kept where the task changed something,
// where a task it depends on or a table it reads changed (a streaming
// reader of a refreshed table must be refreshed: recordPending), where
// the plan found an interrupted refresh (sp.intent: its redo is still
// due), for a whole-table reset, and for a task that never started
// (skipped, or cancelled before it started): another run may have
// changed what it reads meanwhile without recording an intent for it
// (recordPending leaves a writer another run holds to its own task), and
// its redo is the safe side (the adversarial trial's concurrent rounds
// found it: a FULL of a declarative table by one run while another held
// the lock of its streaming reader, whose skipped task's intent was the
// only record left).
func (run *Run) clearUntouched(sums map[string]TaskSummary) {
	run.touchMu.Lock()
	defer run.touchMu.Unlock()
	for _, t := range run.Plan.Tasks {
		if sums[t.Key].StartedAt.IsZero() || run.touchedTasks[t.Key] || run.inputsTouched(t) {
			continue
		}
		for _, sp := range t.plan.sinks {
			if sp.intent != nil || sp.lockDir == "" || !run.locks.Exclusive(sp.lockDir) {
				continue
			}
			in, err := readIntent(sp.lockDir)
			if err != nil || in == nil || in.RunID != run.ID || in.Whole != "" {
				continue
			}
			clearIntent(sp.lockDir) //nolint:errcheck // a record left is redone by the next run: safe
		}
	}
}

// inputsTouched reports whether the run changed what task t reads: a task
// it depends on, or a table or node a node it executes reads.
func (run *Run) inputsTouched(t *Task) bool {
	for _, d := range t.DependsOn {
		if run.touchedTasks[d] {
			return true
		}
	}
	p := t.plan.pipeline
	for _, n := range nodesExecuted(p, t.plan.node, run.Plan.Selection[p.Name]) {
		for _, src := range n.Sources {
			if src.Table != "" && run.touchedTables[src.Table] {
				return true
			}
			if src.NodeName != "" && run.touchedTasks[p.Name+"."+src.NodeName] {
				return true
			}
		}
	}
	return false
}

// marker is the commitInfo.userMetadata of the commits the refresh makes,
// so that a later run can tell what of it committed.
func (in *intent) marker() string { return "laktory refresh " + in.ID }

// readIntent reads the intent beside the checkpoint dir (nil when none).
func readIntent(dir string) (*intent, error) {
	if dir == "" {
		return nil, nil
	}
	b, err := os.ReadFile(intentPath(dir))
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("%w: %w", ErrCheckpoint, err)
	}
	var in intent
	if err := json.Unmarshal(b, &in); err != nil || in.ID == "" {
		return nil, fmt.Errorf("%w: %s records an interrupted refresh but cannot be read (%v): run a FULL refresh of the writer after deleting it", ErrCheckpoint, intentPath(dir), err)
	}
	return &in, nil
}

// writeIntent records in beside the checkpoint dir, durably.
func writeIntent(dir string, in *intent) error {
	b, err := json.MarshalIndent(in, "", "  ")
	if err != nil {
		return err
	}
	path := intentPath(dir)
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return fmt.Errorf("%w: record the refresh: %w", ErrCheckpoint, err)
	}
	if err := checkpoint.WriteFileAtomic(path, append(b, '\n')); err != nil {
		return fmt.Errorf("%w: record the refresh: %w", ErrCheckpoint, err)
	}
	if d, err := os.Open(filepath.Dir(path)); err == nil {
		d.Sync() //nolint:errcheck // best effort: the rename is durable on most filesystems already
		d.Close()
	}
	return nil
}

// clearIntent removes the intent beside the checkpoint dir.
func clearIntent(dir string) error {
	if err := delta.RemoveFile(intentPath(dir)); err != nil && !errors.Is(err, fs.ErrNotExist) {
		return fmt.Errorf("%w: clear the refresh record: %w", ErrCheckpoint, err)
	}
	return nil
}

// newIntent describes the refresh of sink sp of task t starting now; path
// is where the table is read (the task's checked path, or, for another
// task of the run, the declared one: only its id and version are read).
func (run *Run) newIntent(ctx context.Context, t *Task, sp *sinkPlan, refresh, path string) *intent {
	in := &intent{ID: uuid.NewString(), RunID: run.ID, Task: t.Key, Refresh: refresh, Table: tableLabel(sp),
		Path: string(sp.sink.Table), ReadVersion: -1, At: run.r.cfg.Now().UTC()}
	switch sp.reset {
	case resetDrop:
		in.Mode = "DROP"
	case resetTruncate:
		in.Mode = "TRUNCATE"
	}
	if sp.sink.IsDelta() && sp.sink.Table != "" {
		if ts, err := loadTable(ctx, path); err == nil && ts != nil {
			in.TableID, in.ReadVersion = ts.TableID(), ts.Version()
		}
	}
	return in
}

// refreshes reports whether the task's refresh of sp is destructive: it
// deletes rows, drops or truncates, or resets checkpoints.
func refreshes(sp *sinkPlan) bool {
	return sp.lockDir != "" && sp.whole == nil && (sp.reset != resetNone || len(sp.checkpoints) > 0)
}

// begin records the intent of every destructive sink refresh of
// the task, after the history has what the run did so far (so that a
// later run can add what this one committed).
func (rc *recovery) begin(ctx context.Context) error {
	x := rc.x
	var sps []*sinkPlan
	for _, sp := range x.tp.sinks {
		if refreshes(sp) {
			sps = append(sps, sp)
		}
	}
	if len(sps) == 0 {
		return nil
	}
	x.run.flushHistory()
	if err := rc.recordPending(ctx); err != nil {
		return err
	}
	for _, sp := range sps {
		in := x.run.newIntent(ctx, x.t, sp, sp.refresh, x.sinkPath(sp))
		if err := writeIntent(sp.lockDir, in); err != nil {
			return err
		}
		if rc.intents == nil {
			rc.intents = map[*sinkPlan]*intent{}
		}
		rc.intents[sp] = in
	}
	delta.FailPoint(FailRefreshIntent)
	return nil
}

// recordPending records, before the run's first destructive step, the
// intent of every destructive refresh of the run's other tasks, under
// their locks (kept until the run ends). Without it a crash between two
// tasks of a FULL run (an upstream writer refreshed, its streaming reader
// not yet) left the reader without an intent: the next run read the
// upstream's new rows incrementally, a second time. A writer another
// process holds is left to its own task (which then fails on the lock); an
// intent already there (a crashed run's) is left to the plan's resume.
func (rc *recovery) recordPending(ctx context.Context) error {
	x := rc.x
	run := x.run
	run.pendingMu.Lock()
	defer run.pendingMu.Unlock()
	if run.pending {
		return nil
	}
	run.pending = true
	for _, t := range run.Plan.Tasks {
		if t == x.t {
			continue
		}
		for _, sp := range t.plan.sinks {
			if !refreshes(sp) || run.lockSink(sp, true) != nil {
				continue
			}
			cur, err := readIntent(sp.lockDir)
			if err != nil {
				return err
			}
			if cur != nil {
				continue
			}
			if err := writeIntent(sp.lockDir, run.newIntent(ctx, t, sp, sp.refresh, string(sp.sink.Table))); err != nil {
				return err
			}
		}
	}
	return nil
}

// end clears the intent of sp (nil: of every sink) once its
// refresh is complete: its rows and checkpoint agree.
func (rc *recovery) end(sp *sinkPlan) error {
	x := rc.x
	for _, s := range x.tp.sinks {
		if in := rc.intents[s]; in != nil && (sp == nil || sp == s) {
			delta.FailPoint(FailRefreshDone)
			if err := clearIntent(s.lockDir); err != nil {
				return err
			}
			delete(rc.intents, s)
		}
	}
	return nil
}

// meta is the commit marker of sp's refresh ("" when none).
func (rc *recovery) meta(sp *sinkPlan) string {
	if in := rc.intents[sp]; in != nil {
		return in.marker()
	}
	return ""
}

// check compares, under the writer locks, the intents beside the
// task's checkpoints with those the plan found: one recorded since (a run
// that crashed meanwhile) fails the task before it changes anything.
func (rc *recovery) check() error {
	x := rc.x
	for _, sp := range x.tp.sinks {
		cur, err := readIntent(sp.lockDir)
		if err != nil {
			return err
		}
		// This run's own (a whole-table reset by another of its tasks) is
		// not news.
		if cur != nil && cur.RunID != x.run.ID && (sp.intent == nil || cur.ID != sp.intent.ID) {
			return fmt.Errorf("%w: node '%s': run %d left a %s refresh of %s unfinished after this run was planned: run again, and the new run finishes it",
				ErrCheckpoint, x.tp.node.Name, cur.RunID, cur.Refresh, cur.Table)
		}
	}
	return nil
}

// resume handles the interrupted refreshes the plan found: it adds to the
// interrupted run's history what that run committed, says what this run
// does about it, and finishes the whole-table resets this run does not
// redo.
func (rc *recovery) resume(ctx context.Context) error {
	x := rc.x
	for _, sp := range x.tp.sinks {
		in := sp.intent
		if in == nil {
			continue
		}
		rc.recoverHistory(ctx, sp, in)
		switch {
		case in.Whole != "" && sp.whole == nil:
			if err := rc.finishWhole(ctx, sp, in); err != nil {
				return err
			}
		case in.Whole != "":
			x.log.note(fmt.Sprintf("run %d did not finish resetting %s (%s): this run resets it again", in.RunID, in.Table, in.Whole))
		default:
			x.log.note(fmt.Sprintf("run %d did not finish its %s refresh of %s: this run does a %s refresh of the writer, so its rows and its checkpoint agree again",
				in.RunID, in.Refresh, x.t.Key, sp.refresh))
		}
	}
	return nil
}

// finishWhole finishes a whole-table reset a crash interrupted, for one of
// the checkpoints it resets: the table step unless it is done, then the
// checkpoint.
func (rc *recovery) finishWhole(ctx context.Context, sp *sinkPlan, in *intent) error {
	x := rc.x
	rc.touch(sp)
	done, err := rc.wholeDone(ctx, sp, in)
	if err != nil {
		return err
	}
	what := fmt.Sprintf("run %d did not finish resetting %s (%s)", in.RunID, in.Table, in.Whole)
	switch {
	case done:
		x.log.note(what + ": the table was reset; this run resets the checkpoint of " + x.t.Key)
	case in.Whole == "DROP":
		x.log.note(what + ": this run drops it and resets the checkpoint of " + x.t.Key)
		if err := x.dropTable(ctx, sp); err != nil {
			return err
		}
	default:
		x.log.note(what + ": this run truncates it and resets the checkpoint of " + x.t.Key)
		if err := rc.truncateOnce(ctx, sp, in); err != nil {
			return err
		}
	}
	if err := x.removeCheckpoints(sp.sink.Table, x.run.Plan.resettable(sp.lockDir)); err != nil {
		return err
	}
	return clearIntent(sp.lockDir)
}

// wholeDone reports whether the table step of a whole-table reset is done:
// the table is gone or another one (a new id), or a commit after the
// reset's read version carries its marker.
func (rc *recovery) wholeDone(ctx context.Context, sp *sinkPlan, in *intent) (bool, error) {
	ts, err := loadTable(ctx, rc.x.sinkPath(sp))
	if err != nil || ts == nil || ts.TableID() != in.TableID {
		return ts == nil || (err == nil && ts.TableID() != in.TableID), err
	}
	if in.Whole == "DROP" {
		return false, nil
	}
	_, found, err := markedCommits(ctx, ts, in)
	return found, err
}

// markedCommits returns the commits after the intent's read version that
// carry its marker.
func markedCommits(ctx context.Context, ts *delta.Snapshot, in *intent) ([]delta.HistoryEntry, bool, error) {
	if ts.Version() <= in.ReadVersion {
		return nil, false, nil
	}
	t, err := delta.Open(ctx, ts.Root())
	if err != nil {
		return nil, false, err
	}
	h, err := t.History(ctx, int(ts.Version()-in.ReadVersion))
	if err != nil {
		return nil, false, err
	}
	var out []delta.HistoryEntry
	for _, e := range h {
		if e.Version > in.ReadVersion && e.Info != nil && e.Info.UserMetadata == in.marker() {
			out = append(out, e)
		}
	}
	return out, len(out) > 0, nil
}

// truncateOnce truncates the table of a whole-table reset unless a commit
// carrying the reset's marker is in (checked again before each attempt,
// so two runs finishing it at once truncate once).
func (rc *recovery) truncateOnce(ctx context.Context, sp *sinkPlan, in *intent) error {
	x := rc.x
	path, label := x.sinkPath(sp), tableLabel(sp)
	err := x.withRetries(ctx, label, func(attempt int) error {
		start := time.Now()
		ts, err := loadTable(ctx, path)
		if err != nil || ts == nil || ts.TableID() != in.TableID {
			return err
		}
		if _, done, err := markedCommits(ctx, ts, in); err != nil || done {
			return err
		}
		tx, err := ts.Begin(delta.WriteOptions{UserMetadata: in.marker()})
		if err != nil {
			return err
		}
		if _, err := tx.Truncate(ctx); err != nil {
			tx.Abort()
			return err
		}
		res, err := tx.Commit(ctx)
		if err != nil {
			return err
		}
		x.commitOperation(sp, res, "TRUNCATE (finishing run "+strconv.FormatInt(in.RunID, 10)+")", time.Since(start))
		return nil
	})
	if err != nil {
		return x.writeError(sp, err)
	}
	return nil
}

// recoverHistory adds to the interrupted run's history the commits of its
// refresh that it could not record (it died between a commit and its
// record): a committed delete shows its rows.
func (rc *recovery) recoverHistory(ctx context.Context, sp *sinkPlan, in *intent) {
	x := rc.x
	if in.RunID == x.run.ID || !sp.sink.IsDelta() || sp.sink.Table == "" {
		return
	}
	ts, err := loadTable(ctx, x.sinkPath(sp))
	if err != nil || ts == nil {
		return
	}
	entries, _, err := markedCommits(ctx, ts, in)
	if err != nil || len(entries) == 0 {
		return
	}
	d, err := x.run.store.RunDetail(ctx, in.RunID)
	if err != nil {
		return
	}
	known := map[int64]bool{}
	for _, op := range d.Operations {
		if op.Version != nil && op.Table == in.Table {
			known[*op.Version] = true
		}
	}
	task := ""
	for _, t := range d.Tasks {
		if t.Key == in.Task {
			task = in.Task
		}
	}
	for _, e := range entries {
		if known[e.Version] {
			continue
		}
		v := e.Version
		deleted := metricInt(e.OperationMetrics, "numDeletedRows")
		op := history.Operation{Task: task, Table: in.Table, Path: in.Path, Version: &v, Operation: e.Operation,
			Detail: "recorded by run " + strconv.FormatInt(x.run.ID, 10) + " from the table's log", RowsDeleted: deleted,
			RowsAdded: metricInt(e.OperationMetrics, "numOutputRows"), FilesRemoved: metricInt(e.OperationMetrics, "numRemovedFiles")}
		x.run.recordSync(func(c context.Context) error { return x.run.store.RecordOperation(c, in.RunID, op) })
		if e.Operation == "DELETE" && sp.writer != nil {
			dl := history.Deletion{Task: task, Table: in.Table, Rows: deleted, Version: &v}
			if sp.writer.Ownership == workspace.OwnerWhere {
				dl.Predicate = sp.writer.Where
			} else {
				dl.Writer = sp.writer.WriterID
				_, dl.Predicate = ownerPredicate(x.run.r.sql, sp.writer, nil)
			}
			x.run.recordSync(func(c context.Context) error { return x.run.store.RecordDeletion(c, in.RunID, dl) })
		}
		x.log.note(fmt.Sprintf("run %d committed %s v%d (%s) before it was interrupted: added to its history", in.RunID, in.Table, v, e.Operation))
	}
}

// metricInt reads an integer operation metric (Spark writes them as
// strings).
func metricInt(m map[string]any, key string) int64 {
	switch v := m[key].(type) {
	case string:
		n, _ := strconv.ParseInt(v, 10, 64)
		return n
	case float64:
		return int64(v)
	}
	return 0
}

// staleCommitAge is the age from which a temporary commit file in a
// table's log is a crash's leftover: a live writer's exists for the
// milliseconds between writing its commit and linking it into place.
const staleCommitAge = 15 * time.Minute

// cleanLeftovers removes what crashed runs left of the task's sinks, and
// says so: the temporary files of its checkpoints made before this run
// started (they are this run's to clean: it holds their exclusive locks,
// so no other run is writing them), the temporary commit files of its
// tables' logs older than staleCommitAge, and the folders of dropped tables
// renamed aside (".<table>.dropped-*") that a crash kept from being removed.
func (rc *recovery) cleanLeftovers() {
	x := rc.x
	var cleaned []string
	removeFile := func(p string) {
		if delta.RemoveFile(p) == nil {
			cleaned = append(cleaned, x.run.Plan.snap.Rel(p))
		}
	}
	stale := func(e fs.DirEntry, before time.Time) bool {
		info, err := e.Info()
		return err == nil && !e.IsDir() && info.ModTime().Before(before)
	}
	for _, sp := range x.tp.sinks {
		if dir := sp.lockDir; dir != "" && x.run.locks.Exclusive(dir) {
			filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error { //nolint:errcheck // best effort
				if err == nil && isTempFile(d.Name()) && stale(d, x.run.began) {
					removeFile(p)
				}
				return nil
			})
			prefix := "." + filepath.Base(dir) + "."
			for _, e := range readDir(filepath.Dir(dir)) {
				if strings.HasPrefix(e.Name(), prefix) && isTempFile(e.Name()) && stale(e, x.run.began) {
					removeFile(filepath.Join(filepath.Dir(dir), e.Name()))
				}
			}
		}
		if !sp.sink.IsDelta() || sp.sink.Table == "" {
			continue
		}
		table := x.sinkPath(sp)
		logDir := filepath.Join(table, delta.LogDirName)
		for _, e := range readDir(logDir) {
			if strings.HasPrefix(e.Name(), "_commit_") && strings.HasSuffix(e.Name(), ".json.tmp") && stale(e, time.Now().Add(-staleCommitAge)) {
				removeFile(filepath.Join(logDir, e.Name()))
			}
		}
		prefix := "." + filepath.Base(table) + ".dropped-"
		for _, e := range readDir(filepath.Dir(table)) {
			if p := filepath.Join(filepath.Dir(table), e.Name()); e.IsDir() && strings.HasPrefix(e.Name(), prefix) && x.run.guard.RemoveAll(p) == nil {
				cleaned = append(cleaned, x.run.Plan.snap.Rel(p))
			}
		}
	}
	if len(cleaned) > 0 {
		x.log.note("removed what an interrupted run left behind: " + strings.Join(cleaned, ", "))
	}
}

// isTempFile reports whether a name is one of our temporary files
// (writeFileAtomic's ".<name>.<uuid>.tmp").
func isTempFile(name string) bool {
	return strings.HasPrefix(name, ".") && strings.HasSuffix(name, ".tmp")
}

func readDir(dir string) []os.DirEntry {
	entries, _ := os.ReadDir(dir)
	return entries
}
