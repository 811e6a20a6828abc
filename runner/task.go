package runner

import (
	"cmp"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/url"
	"os"
	"strings"
	"time"

	"github.com/laktory/workbench/delta"
	"github.com/laktory/workbench/runner/checkpoint"
	"github.com/laktory/workbench/runner/dialect/spark"
	"github.com/laktory/workbench/runner/history"
	"github.com/laktory/workbench/runner/landing"
	"github.com/laktory/workbench/validate"
	"github.com/laktory/workbench/workspace"
)

// taskExec is one task being executed.
type taskExec struct {
	run *Run
	t   *Task
	tp  *taskPlan
	sum *TaskSummary
	s   *session
	// log records what the task does.
	log *taskLog
	// rec records the intents of the task's refreshes and recovers what
	// interrupted runs left.
	rec *recovery
	// deferred are the sinks whose reset (a FULL refresh deleting the
	// writer's rows, or truncating the table) is committed just before the
	// first commit of their new data, once that data is written (staged):
	// when it cannot be produced, the rows stay.
	deferred map[*sinkPlan]bool
	// real maps each sink and checkpoint path to what checkPaths resolved
	// it to (sinkPath).
	real map[string]string
	// pre is the node's output computed before a reset that cannot wait
	// for it (computeFirst), which the batch then writes.
	pre *computed
	// warned are the expectation warnings given per streaming micro-batch
	// (its version, then the message): each sink's flow checks the node's
	// expectations over the same new rows, and Laktory's check (a stream
	// of its own) warns once.
	warned map[string]bool
}

// computed is a batch's output, read, transformed and checked, with the
// sinks it goes to.
type computed struct {
	ex    expectResult
	sinks []*sinkPlan
}

// newTaskExec is the execution of task t of run, counting into sum.
func newTaskExec(run *Run, t *Task, sum *TaskSummary) *taskExec {
	x := &taskExec{run: run, t: t, tp: t.plan, sum: sum}
	x.log = &taskLog{run: run, key: t.Key, sum: sum}
	x.rec = &recovery{x: x}
	return x
}

// runTask executes a task and records its start, operations and end.
func (run *Run) runTask(ctx context.Context, t *Task) TaskSummary {
	sum := newTaskSummary(t)
	sum.StartedAt = run.r.clock()
	run.record(func(c context.Context) error {
		return run.store.StartTask(c, run.ID, history.TaskStart{Key: t.Key, Pipeline: t.Pipeline, Node: t.Node, StartedAt: sum.StartedAt})
	})
	run.emit(Event{Kind: EventTaskStarted, At: sum.StartedAt, Task: t.Key})
	x := newTaskExec(run, t, &sum)
	err := x.safeExecute(ctx)
	sum.EndedAt = run.r.clock()
	switch {
	case err == nil:
		sum.Status = history.StatusSucceeded
	case ctx.Err() != nil:
		sum.Status = history.StatusCancelled
		sum.Err = "cancelled before its commit: nothing of this task is visible"
		if len(sum.Operations) > 0 {
			sum.Err = "cancelled: its commits before the cancel stand, nothing after"
		}
	default:
		sum.Status = history.StatusFailed
		sum.Err = err.Error()
		run.record(func(c context.Context) error {
			return run.store.RecordMessage(c, run.ID, history.Message{Task: t.Key, Severity: history.SeverityError, Text: sum.Err})
		})
	}
	rowsRead := max(sum.RowsRead, 0)
	run.record(func(c context.Context) error {
		return run.store.FinishTask(c, run.ID, t.Key, history.TaskEnd{Status: sum.Status, RowsRead: rowsRead, Error: sum.Err, EndedAt: sum.EndedAt})
	})
	run.emit(Event{Kind: EventTaskFinished, At: sum.EndedAt, Task: t.Key, Status: sum.Status, Err: sum.Err, Rows: sum.RowsWritten,
		Message: fmt.Sprintf("%d rows written, %d deleted in %s", sum.RowsWritten, sum.RowsDeleted, sum.EndedAt.Sub(sum.StartedAt).Round(time.Millisecond))})
	return sum
}

// safeExecute turns a panic of the task into its failure, so one broken
// node never takes the run (or the TUI) down.
func (x *taskExec) safeExecute(ctx context.Context) (err error) {
	defer func() {
		if p := recover(); p != nil {
			err = fmt.Errorf("internal error in node '%s' of pipeline '%s' (please report it): %v", x.tp.node.Name, x.tp.pipeline.Name, p)
		}
	}()
	return unparsable(x.run.Plan.snap, x.tp.node.Name, x.tp.pipeline.Name, sandboxed(x.execute(ctx)))
}

// taskLog records what a task does: its progress, notes and warnings in
// the run's events, its table operations, deletions and retries in its
// summary, the events and the history.
type taskLog struct {
	run *Run
	key string
	sum *TaskSummary
}

// progress reports the rows of a phase.
func (l *taskLog) progress(phase string, rows int64) {
	l.run.emit(Event{Kind: EventTaskProgress, Task: l.key, Phase: phase, Rows: max(rows, 0)})
}

// warn records a warning of the task.
func (l *taskLog) warn(msg string) {
	l.sum.Warnings = append(l.sum.Warnings, msg)
	l.run.warn(l.key, "", msg)
}

// skipped warns about the entries of a listing of path that are not
// regular files, unless the run already did (its plan's LK206 warnings).
func (l *taskLog) skipped(path string, ls landing.Listing) {
	fresh := landing.Listing{Skipped: l.run.newSkipped(ls.Skipped)}
	if w := fresh.SkippedWarning(path); w != "" {
		l.run.warn(l.key, validate.CodeNotRegular, w)
		l.sum.Warnings = append(l.sum.Warnings, w)
	}
}

// note reports what the task does, in its events and the run's messages.
func (l *taskLog) note(msg string) {
	l.run.record(func(c context.Context) error {
		return l.run.store.RecordMessage(c, l.run.ID, history.Message{Task: l.key, Severity: history.SeverityInfo, Text: msg})
	})
	l.run.emit(Event{Kind: EventTaskProgress, Task: l.key, Phase: "reset", Message: msg})
}

// microBatch is one unit of processing of a task. A batch run processes
// one zero microBatch. A streaming flow processes one per trigger: its
// sources read only the new data (sources), and its Delta commits carry
// txn(appID, version), so a batch committed before a crash is skipped when
// it is replayed (exactly-once sinks).
type microBatch struct {
	// appID identifies the flow; "" for a batch run. Each Delta sink
	// commits with the application id appID + "/" + the sink's checkpoint
	// segment.
	appID   string
	version int64
	// sources, when set, returns the SQL reading a source for this batch
	// (ok false: read it as a batch source).
	sources func(ctx context.Context, src *workspace.Source) (query string, ok bool, err error)
	// sinks, when set, are the sinks this batch writes (a flow writes one
	// sink); nil writes every sink of the node.
	sinks []*sinkPlan
	// flow and cp are the flow and checkpoint of a streaming batch.
	flow *flowPlan
	cp   *checkpoint.Checkpoint
	// fullInput: a partial COMPLETE aggregation reads the input its
	// checkpoint kept, not its previous output (mergePartial).
	fullInput bool
}

// flowName names the batch's flow in messages.
func (b microBatch) flowName() string {
	if b.flow != nil {
		return b.flow.name
	}
	return b.appID
}

// execute resets the sinks as planned, then (unless the run is a RESET)
// processes the node once.
func (x *taskExec) execute(ctx context.Context) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	if err := x.checkPaths(); err != nil {
		return err
	}
	if h := x.run.r.cfg.afterPathCheck; h != nil {
		h(x.t.Key)
	}
	s, err := newSession(ctx, x.run.engine)
	if err != nil {
		return err
	}
	defer s.close()
	x.s = s
	s.settle, s.skipped = x.run.r.settle(), x.log.skipped
	if err := x.sessionZone(ctx); err != nil {
		return err
	}
	// The writers' locks come first: nothing is changed while another run
	// processes one of them. Then what an interrupted run left is dealt
	// with, and this run's refresh recorded before it resets anything.
	if err := x.lockWriters(ctx); err != nil {
		return err
	}
	if err := x.rec.check(); err != nil {
		return err
	}
	x.rec.cleanLeftovers()
	if err := x.rec.resume(ctx); err != nil {
		return err
	}
	if x.tp.computeFirst() {
		// A source that cannot be read or parsed fails the run before the
		// drop or truncate (and before the refresh's intent: nothing is
		// left to redo), not after it.
		c, err := compute(ctx, x, microBatch{}, true)
		if err != nil {
			return err
		}
		x.pre = c
	}
	if err := x.rec.begin(ctx); err != nil {
		return err
	}
	if err := x.reset(ctx); err != nil {
		return err
	}
	if len(x.rec.intents) > 0 {
		delta.FailPoint(FailRefreshReset)
	}
	if !x.tp.process {
		return x.rec.end(nil)
	}
	if len(x.tp.flows) == 0 {
		if err := x.process(ctx, microBatch{}); err != nil {
			return err
		}
		if err := x.commitDeferred(ctx, nil); err != nil {
			return err
		}
		return x.rec.end(nil)
	}
	for _, f := range x.tp.flows {
		fr := &flowRun{x: x, f: f}
		if err := fr.run(ctx); err != nil {
			return err
		}
		if err := x.commitDeferred(ctx, f.sink); err != nil {
			return err
		}
		if err := x.rec.end(f.sink); err != nil {
			return err
		}
		fr.record()
	}
	return nil
}

// sessionZone sets a Spark session's time zone to the node's
// spark.sql.session.timeZone (its orchestrator's configuration, or its
// flow's spark_conf), else UTC: the zone in which the local engine's
// translation of its Spark SQL computes. Spark would otherwise use the
// server's zone.
func (x *taskExec) sessionZone(ctx context.Context) error {
	if !x.s.native {
		return nil
	}
	tz := cmp.Or(spark.Options(x.tp.node).TimeZone, "UTC")
	if err := x.s.e.Exec(ctx, "SET TIME ZONE "+quoteString(tz)); err != nil {
		return fmt.Errorf("%w: node '%s' of pipeline '%s': spark.sql.session.timeZone %q: %w", ErrStep, x.tp.node.Name, x.tp.pipeline.Name, tz, err)
	}
	return nil
}

// lockWriters takes the locks of the task's sinks (see checkpoint.Locks):
// exclusive for streaming flows, for a sink the run refreshes or MERGEs
// into and for the checkpoints it resets; shared for a batch append.
func (x *taskExec) lockWriters(ctx context.Context) error {
	streaming := len(x.tp.flows) > 0
	for _, sp := range x.tp.sinks {
		if err := claimWriter(ctx, sp, x.tp.node.Name, x.run.Plan.snap.Dir, x.run.r.clock()); err != nil {
			return err
		}
		if err := x.run.leaseTable(ctx, sp, x.sinkPath(sp), x.tp.node.Name, x.log.note); err != nil {
			return err
		}
		if sp.lockDir == "" {
			continue
		}
		// A MERGE updates and deletes rows: exclusive too.
		exclusive := streaming || sp.reset != resetNone || sp.whole != nil || sp.intent != nil || len(sp.checkpoints) > 0 || sp.sink.IsMerge()
		if err := x.run.lockSink(sp, exclusive); err != nil {
			return err
		}
	}
	return nil
}

// lockSink takes the lock of sp's writer, and those of the checkpoints
// it resets (exclusive).
func (run *Run) lockSink(sp *sinkPlan, exclusive bool) error {
	if err := run.locks.Lock(sp.lockDir, exclusive); err != nil {
		return err
	}
	for _, cp := range sp.checkpoints {
		if err := run.locks.Lock(cp, true); err != nil {
			return err
		}
	}
	return nil
}

// reset resets the sinks as planned: DROP, TRUNCATE, a writer's rows and
// the streaming checkpoints. A FULL refresh defers deleting the writer's
// rows (or truncating) to its first commit of new data (deferred).
func (x *taskExec) reset(ctx context.Context) error {
	for _, sp := range x.tp.sinks {
		if sp.reset == resetNone {
			continue
		}
		if x.tp.process && sp.sink.IsDelta() && (sp.reset == resetDeleteOwn || sp.reset == resetTruncate) {
			if x.deferred == nil {
				x.deferred = map[*sinkPlan]bool{}
			}
			x.deferred[sp] = true
			continue
		}
		x.log.progress("reset", 0)
		if err := x.resetSink(ctx, sp); err != nil {
			return err
		}
	}
	for _, sp := range x.tp.sinks {
		if sp.sink.Kind == workspace.SinkForEach && isReset(x.run.Plan.Params) {
			x.log.warn(fmt.Sprintf("%s: the checkpoints of the flows writing it were reset, so they send all their data again; the data the sink wrote was not cleaned up (the pipeline does not track it): remove it yourself for a clean start",
				sp.sink.Describe()))
		}
		if sp.reset == resetTableDrop || sp.reset == resetTableTrunc {
			continue // reset with the whole table, once (resetWholeTable)
		}
		if err := x.resetCheckpoints(sp); err != nil {
			return err
		}
	}
	return nil
}

// commitDeferred commits the deferred reset of sp (nil: of every sink),
// unless its first write did: a FULL refresh whose source held no data
// still deletes the writer's rows.
func (x *taskExec) commitDeferred(ctx context.Context, sp *sinkPlan) error {
	for _, d := range x.tp.sinks {
		if x.deferred[d] && (sp == nil || sp == d) {
			delete(x.deferred, d)
			x.log.progress("reset", 0)
			if err := x.resetSink(ctx, d); err != nil {
				return err
			}
		}
	}
	return nil
}

// resetCheckpoints deletes the checkpoints a sink's reset resets.
func (x *taskExec) resetCheckpoints(sp *sinkPlan) error {
	return x.removeCheckpoints(sp.sink.Table, sp.checkpoints)
}

// removeCheckpoints deletes checkpoint folders the run holds the locks of.
// table names the sink's table in the events.
func (x *taskExec) removeCheckpoints(table workspace.TableID, cps []string) error {
	if len(cps) > 0 {
		x.rec.touch(nil)
	}
	for _, cp := range cps {
		// The records first (the state database's, then the marker): a
		// crash between them and the folder leaves a checkpoint that marks
		// itself again, never a record without its folder.
		var forgot error
		x.run.recordSync(func(c context.Context) error {
			forgot = x.run.store.ForgetCheckpoint(c, x.run.Plan.snap.Rel(cp))
			return forgot
		})
		if forgot != nil {
			return fmt.Errorf("%w: reset checkpoint %s: %w", ErrCheckpoint, cp, forgot)
		}
		if err := checkpoint.ClearWritten(cp); err != nil {
			return fmt.Errorf("%w: reset checkpoint %s: %w", ErrCheckpoint, cp, err)
		}
		if err := x.run.guard.RemoveAll(cp); err != nil {
			return fmt.Errorf("%w: reset checkpoint %s: %w", ErrCheckpoint, cp, err)
		}
		x.run.emit(Event{Kind: EventOperation, Task: x.t.Key, Table: string(table), Operation: "RESET CHECKPOINT", Version: -1,
			Checkpoint: cp, Message: "reset the streaming checkpoint " + cp})
	}
	return nil
}

// computeFirst reports whether the task computes its batch's output before
// it resets its sinks: a batch run (no flow) dropping or truncating a sink
// before its first write (a FULL refresh of a sink that is not shared, a
// file sink's folder): the rows are read, transformed, checked and kept
// first, so a source that cannot be read or parsed fails the run with the
// table as it was. A shared writer's reset waits for its staged data
// anyway (deferred).
func (tp *taskPlan) computeFirst() bool {
	if !tp.process || len(tp.flows) > 0 || isViewNode(tp.node) {
		return false
	}
	for _, sp := range tp.sinks {
		deferred := sp.sink.IsDelta() && (sp.reset == resetDeleteOwn || sp.reset == resetTruncate)
		if sp.reset != resetNone && !deferred && !sp.sink.IsView() {
			return true
		}
	}
	return false
}

// compute reads, transforms and checks the node once, for batch b; keep
// materializes the output (it is written after a reset).
func compute(ctx context.Context, x *taskExec, b microBatch, keep bool) (*computed, error) {
	p, n := x.tp.pipeline, x.tp.node
	x.log.progress("read", 0)
	c := newCompiler(x.s, x.run.Plan.snap, x.run, x.run.dialects(), p, n)
	c.override = b.sources
	df, err := c.transform(ctx)
	if err != nil {
		return nil, err
	}
	x.log.progress("check", 0)
	ex, err := c.expectations(ctx, df)
	for _, w := range ex.warnings { // those before a FAIL one too, as Laktory warns
		if b.flow != nil {
			key := fmt.Sprint(b.version) + "\x00" + w
			if x.warned[key] {
				continue
			}
			if x.warned == nil {
				x.warned = map[string]bool{}
			}
			x.warned[key] = true
		}
		x.log.warn(w)
	}
	if err != nil {
		return nil, err
	}
	for _, note := range ex.notes {
		x.run.emit(Event{Kind: EventTaskProgress, Task: x.t.Key, Phase: "check", Message: note})
	}
	sinks := x.tp.sinks
	if b.sinks != nil {
		sinks = b.sinks
	}
	if err := x.prepareOutput(ctx, &ex, sinks, keep); err != nil {
		return nil, err
	}
	return &computed{ex: ex, sinks: sinks}, nil
}

// process reads, transforms, checks and writes the node once (the output
// computeFirst computed, when it did).
func (x *taskExec) process(ctx context.Context, b microBatch) error {
	if isViewNode(x.tp.node) {
		return x.processView(ctx)
	}
	c := x.pre
	x.pre = nil
	if c == nil {
		var err error
		if c, err = compute(ctx, x, b, false); err != nil {
			return err
		}
	}
	ex, sinks := c.ex, c.sinks
	if b.flow != nil && b.flow.partial != nil {
		out, err := mergePartial(ctx, x, b, ex.out, b.fullInput || b.version == 0)
		if err != nil {
			return err
		}
		n, err := x.s.count(ctx, out)
		if err != nil {
			return err
		}
		ex.out, ex.kept, ex.materialized = out, n, false
	}
	x.sum.RowsRead = ex.rows
	x.log.progress("write", ex.kept)
	for _, sp := range sinks {
		rel := ex.out
		if sp.sink.IsQuarantine {
			if ex.quarantine == "" {
				continue // no expectations: Laktory has no quarantine frame
			}
			rel = ex.quarantine
		}
		rows, err := x.writeSink(ctx, sp, rel, b)
		if err != nil {
			return err
		}
		if x.sum.RowsRead < 0 && !sp.sink.IsQuarantine {
			x.sum.RowsRead = rows
		}
	}
	if x.sum.RowsRead < 0 && ex.rows < 0 {
		if n, err := x.s.count(ctx, ex.out); err == nil {
			x.sum.RowsRead = n
		}
	}
	return nil
}

// prepareOutput materializes the node's output when it is read more than
// once (several sinks, a where check, a retried delete+append, or a
// downstream task reading it from memory) or keep asks it (written after a
// reset), so every reader sees the same rows and the sources are read
// once. A node kept for downstream tasks gets a table of the run's
// database, visible to their connections.
func (x *taskExec) prepareOutput(ctx context.Context, ex *expectResult, sinks []*sinkPlan, keep bool) error {
	uses := 0
	for _, sp := range sinks {
		if sp.sink.IsQuarantine {
			continue
		}
		uses++
		if sp.writer != nil && sp.writer.Ownership == workspace.OwnerWhere {
			uses++
		}
	}
	if x.tp.keepOutput && len(x.tp.flows) == 0 {
		name := fmt.Sprintf("lk_run%d_%d_%s", x.run.ID, x.run.seqNo, strings.NewReplacer(".", "_", "-", "_", " ", "_").Replace(x.t.Key))
		rel, err := x.s.e.Share(ctx, name, "SELECT * FROM "+quoteIdent(ex.out))
		if err != nil {
			return fmt.Errorf("keep the output of %s for downstream nodes: %w", x.t.Key, err)
		}
		x.run.setOutput(x.t.Key, rel)
		if name, err = x.s.view(ctx, "out", "SELECT * FROM "+rel); err != nil {
			return err
		}
		ex.out, ex.materialized = name, true
		if ex.kept < 0 {
			var err error
			if ex.kept, err = x.s.count(ctx, name); err != nil {
				return err
			}
		}
		if ex.rows < 0 {
			ex.rows = ex.kept
		}
		return nil
	}
	if ex.materialized || uses <= 1 && !keep {
		return nil
	}
	tbl, n, err := x.s.table(ctx, "out", "SELECT * FROM "+quoteIdent(ex.out))
	if err != nil {
		return fmt.Errorf("node '%s' of pipeline '%s': %w", x.tp.node.Name, x.tp.pipeline.Name, err)
	}
	ex.out, ex.materialized, ex.kept = tbl, true, n
	if ex.rows < 0 {
		ex.rows = n
	}
	return nil
}

// operation records a committed table operation.
func (l *taskLog) operation(op history.Operation) {
	op.Task = l.key
	l.sum.Operations = append(l.sum.Operations, op)
	if op.Operation != "DELETE" {
		// A delete's added rows are the rows it copied out of the files
		// it rewrote (other writers' rows, kept): nothing new was written.
		l.sum.RowsWritten += op.RowsAdded
	}
	l.sum.RowsDeleted += op.RowsDeleted
	l.run.recordSync(func(c context.Context) error { return l.run.store.RecordOperation(c, l.run.ID, op) })
	v := int64(-1)
	if op.Version != nil {
		v = *op.Version
	}
	l.run.emit(Event{Kind: EventOperation, Task: l.key, Table: op.Table, Operation: op.Operation, Version: v, Rows: op.RowsAdded,
		Message: operationText(op)})
}

func operationText(op history.Operation) string {
	var b strings.Builder
	fmt.Fprintf(&b, "%s %s", op.Operation, op.Table)
	if op.Version != nil {
		fmt.Fprintf(&b, " v%d", *op.Version)
	}
	if strings.HasSuffix(op.Operation, " VIEW") {
		return b.String() // a view holds no rows
	}
	if op.RowsAdded > 0 || op.RowsDeleted == 0 {
		fmt.Fprintf(&b, ": +%d rows", op.RowsAdded)
	}
	if op.RowsDeleted > 0 {
		fmt.Fprintf(&b, ", -%d rows", op.RowsDeleted)
	}
	return b.String()
}

// deletion records the rows deleted for a writer of a shared table.
func (l *taskLog) deletion(sp *sinkPlan, rows int64, version *int64) {
	w := sp.writer
	d := history.Deletion{Task: l.key, Table: tableLabel(sp), Rows: rows, Version: version}
	writer := ""
	if w != nil && w.Ownership == workspace.OwnerWhere {
		d.Predicate, writer = w.Where, "where "+w.Where
	} else if w != nil {
		d.Writer, writer = w.WriterID, w.WriterID
		_, d.Predicate = ownerPredicate(l.run.r.sql, w, nil)
	}
	l.sum.Deletions = append(l.sum.Deletions, d)
	l.run.recordSync(func(c context.Context) error { return l.run.store.RecordDeletion(c, l.run.ID, d) })
	l.run.emit(Event{Kind: EventDeleted, Task: l.key, Table: d.Table, Writer: writer, Rows: rows,
		Message: fmt.Sprintf("Deleted %d rows of %s from %s", rows, ownerLabel(w), d.Table)})
}

// retried records a commit retry.
func (l *taskLog) retried(table string, attempt int, delay time.Duration, err error) {
	r := history.Retry{Task: l.key, Table: table, Attempt: attempt, Delay: delay, Error: err.Error()}
	l.sum.Retries = append(l.sum.Retries, r)
	l.run.record(func(c context.Context) error { return l.run.store.RecordRetry(c, l.run.ID, r) })
	l.run.emit(Event{Kind: EventRetry, Task: l.key, Table: table, Attempt: attempt, Delay: delay, Err: err.Error(),
		Message: fmt.Sprintf("commit to %s conflicted with a concurrent writer; retry %d of %d in %s", table, attempt, l.run.r.cfg.Retry.MaxRetries, delay.Round(time.Millisecond))})
}

// withRetries runs op (one attempt: plan on a fresh snapshot, commit)
// with the runner's retry policy. An operation nested in op that already
// gave up (ErrConflict) is not retried again.
func (x *taskExec) withRetries(ctx context.Context, table string, op func(attempt int) error) error {
	return x.run.r.cfg.Retry.retry(ctx, func(attempt int) error {
		if err := ctx.Err(); err != nil {
			return err
		}
		return op(attempt)
	}, func(err error) bool { return !errors.Is(err, ErrConflict) && delta.IsRetryable(err) },
		func(attempt int, d time.Duration, err error) { x.log.retried(table, attempt, d, err) })
}

// errorsIsAny reports whether err is any of targets.
func errorsIsAny(err error, targets ...error) bool {
	for _, t := range targets {
		if errors.Is(err, t) {
			return true
		}
	}
	return false
}

// guardOf is the Guard of a run of snap: the run creates, replaces and
// deletes only paths strictly inside the workspace, the lake (or the roots
// the workbench config names), never the state folder or a YAML file of
// the workspace, nor a folder holding one.
func guardOf(snap *workspace.Snapshot) delta.Guard {
	return delta.NewGuard(snap.Layout.AllowedRoots(), snap.Protected()...)
}

// checkPaths refuses, before the task touches anything, a sink folder or
// file, a streaming checkpoint or a checkpoint to reset that the run's
// guard does not allow: validation already rejects paths outside the
// roots; this catches what changed on disk since (a table folder replaced
// by a symbolic link, say), for appends and truncates as for drops.
func (x *taskExec) checkPaths() error {
	g := x.run.guard
	x.real = map[string]string{}
	check := func(what, path string) error {
		real, err := g.Check(path)
		if err != nil {
			return fmt.Errorf("%w: node '%s': %s: %w", ErrSink, x.tp.node.Name, what, err)
		}
		x.real[path] = real
		return nil
	}
	for _, sp := range x.tp.sinks {
		sk := sp.sink
		switch {
		case sk.Kind == workspace.SinkForEach || sk.Kind == workspace.SinkPipelineView:
		case sk.Table != "":
			if err := check(sk.Describe(), string(sk.Table)); err != nil {
				return err
			}
		case sk.ResolvedPath != "":
			if err := check(sk.Describe(), sk.ResolvedPath); err != nil {
				return err
			}
		}
		for _, cp := range sp.checkpoints {
			if err := check("checkpoint", cp); err != nil {
				return err
			}
		}
	}
	for _, f := range x.tp.flows {
		if err := check("checkpoint of flow "+f.name, f.dir); err != nil {
			return err
		}
	}
	return nil
}

// sinkPath is the table folder (or the file or folder of a file sink) of
// sp as the task's path check resolved it, symbolic links resolved as they
// were then (checkPaths): the one path every operation of the task on that
// sink uses (its scans, writes, deletes, merges, drops, truncates, the
// recovery of an interrupted run and the removal of what a crash left), so
// a link flipped by another process after the check cannot lead one of
// them elsewhere. TestTaskOperationsUseCheckedPaths holds the task's code
// to it.
func (x *taskExec) sinkPath(sp *sinkPlan) string {
	path := sp.sink.ResolvedPath
	if sp.sink.Table != "" {
		path = string(sp.sink.Table)
	}
	if real, ok := x.real[path]; ok {
		return real
	}
	return path
}

// sandboxed explains DuckDB's refusal of a path outside the sandbox.
func sandboxed(err error) error {
	if err != nil && strings.Contains(err.Error(), "file system operations are disabled by configuration") {
		return fmt.Errorf("%w: %w (SQL runs inside the workspace: it reads and writes only the workspace, the lake, the roots of %s and the paths the sources declare; a source added outside them since the workbench started needs a restart)",
			ErrSandbox, err, workspace.ConfigFileName)
	}
	return err
}

// Writer claims. A table in a bucket may be written from several machines
// (two laptops, a laptop and another workspace), and what keeps a
// writer's rows exact lives with the workspace that runs it: its streaming
// checkpoints, the intents of its refreshes and its lock are local files.
// Two workspaces running the same writer of one table would each append
// the rows of their own checkpoint (duplicated rows), and a FULL refresh of
// one would delete the other's (lost rows). So the first workspace to
// write a writer's rows into a bucket table claims it: an object
// _laktory/writers/<pipeline.node>.json beside the table, created with the
// store's put-if-absent (the commit's exclusion), naming the machine and
// the workspace folder. A run of that writer from any other workspace is
// refused, as is a whole-table DROP or TRUNCATE of a table another
// workspace writes (it would delete that workspace's rows behind its
// checkpoints, and a DROP in a bucket is not atomic). Spark, delta-rs and
// Laktory ignore the folder (its name starts with an underscore); a DROP
// deletes it with the table.

const claimsDir = "_laktory/writers/"

// writerClaim is the body of a claim.
type writerClaim struct {
	Writer    string    `json:"writer"`
	Host      string    `json:"host"`
	Workspace string    `json:"workspace"`
	ClaimedAt time.Time `json:"claimed_at"`
}

func (c writerClaim) sameOwner(o writerClaim) bool {
	return c.Host == o.Host && c.Workspace == o.Workspace
}

// claimWriter claims sp's writer of a bucket table for this workspace, or
// refuses the task when another workspace holds it (or, for a whole-table
// reset, holds a claim on any writer of the table).
// node names the task's node in errors; dir is the workspace folder.
func claimWriter(ctx context.Context, sp *sinkPlan, node, dir string, now time.Time) error {
	if sp.writer == nil || !delta.IsRemoteLocation(string(sp.writer.Table)) {
		return nil
	}
	table := string(sp.writer.Table)
	host, _ := os.Hostname()
	me := writerClaim{Writer: sp.writer.Pipeline + "." + sp.writer.Node, Host: host, Workspace: dir, ClaimedAt: now.UTC()}
	st, err := delta.OpenStore(ctx, table, delta.StoreOptions{})
	if err != nil {
		return fmt.Errorf("%w: node '%s': %w", ErrSink, node, err)
	}
	refuse := func(key string, other writerClaim, what string) error {
		return fmt.Errorf("%w: node '%s': %s, and writer %s of %s is claimed by the workspace %s on %s since %s: two workspaces writing one writer's rows would duplicate or lose them (each keeps its own checkpoints); "+
			"run it from that workspace, or, to move the writer here once that workspace no longer runs it, delete %s and run a FULL refresh of the writer from here",
			ErrSink, node, what, other.Writer, table, other.Workspace, other.Host, other.ClaimedAt.Format(time.RFC3339), st.URI(key))
	}
	if sp.whole != nil {
		objs, err := st.List(ctx, strings.TrimSuffix(claimsDir, "/"), delta.ListOptions{})
		if err != nil {
			return fmt.Errorf("%w: node '%s': the writer claims of %s: %w", ErrSink, node, table, err)
		}
		for _, o := range objs {
			other, err := readClaim(ctx, st, o.Key)
			if err != nil {
				return fmt.Errorf("%w: node '%s': %w", ErrSink, node, err)
			}
			if !other.sameOwner(me) {
				return refuse(o.Key, other, "the run drops or truncates the whole table")
			}
		}
	}
	key := claimsDir + url.PathEscape(me.Writer) + ".json"
	body, err := json.Marshal(me)
	if err != nil {
		return err
	}
	err = st.PutIfAbsent(ctx, key, body)
	if err == nil || !errors.Is(err, delta.ErrObjectExists) {
		if err != nil {
			return fmt.Errorf("%w: node '%s': claiming writer %s of %s: %w", ErrSink, node, me.Writer, table, err)
		}
		return nil
	}
	other, err := readClaim(ctx, st, key)
	if err != nil {
		return fmt.Errorf("%w: node '%s': %w", ErrSink, node, err)
	}
	if !other.sameOwner(me) {
		return refuse(key, other, "the run writes its rows")
	}
	return nil
}

// forgottenClaim checks the claim of writer id of the bucket table at
// table before its rows are forgotten (laktory table forget-writer): a
// claim of another workspace is refused (that workspace may still run the
// writer, whose checkpoints hold the rows: forgetting them loses them);
// this workspace's claim is returned, to go with the rows. "" for a local
// table or an id nobody claims.
func forgottenClaim(ctx context.Context, table, id, dir string) (string, error) {
	if !delta.IsRemoteLocation(table) {
		return "", nil
	}
	st, err := delta.OpenStore(ctx, table, delta.StoreOptions{})
	if err != nil {
		return "", err
	}
	key := claimsDir + url.PathEscape(id) + ".json"
	other, err := readClaim(ctx, st, key)
	if errors.Is(err, delta.ErrObjectNotFound) {
		return "", nil
	}
	if err != nil {
		return "", err
	}
	host, _ := os.Hostname()
	if !other.sameOwner(writerClaim{Host: host, Workspace: dir}) {
		return "", fmt.Errorf("%w: writer id '%s' of %s is claimed by the workspace %s on %s since %s, which may still run it (its checkpoints hold those rows): forget it from that workspace, or, once it no longer runs there, delete %s and run this again",
			ErrInvalidRun, id, table, other.Workspace, other.Host, other.ClaimedAt.Format(time.RFC3339), st.URI(key))
	}
	return key, nil
}

// dropClaim deletes the claim key of the bucket table at table.
func dropClaim(ctx context.Context, table, key string) error {
	st, err := delta.OpenStore(ctx, table, delta.StoreOptions{})
	if err != nil {
		return err
	}
	return st.Delete(ctx, key)
}

func readClaim(ctx context.Context, st delta.Store, key string) (writerClaim, error) {
	var c writerClaim
	b, err := st.Get(ctx, key)
	if err != nil {
		return c, fmt.Errorf("the writer claim %s: %w", st.URI(key), err)
	}
	if err := json.Unmarshal(b, &c); err != nil || c.Workspace == "" {
		return c, fmt.Errorf("the writer claim %s is not one the workbench wrote (%q): delete it", st.URI(key), b)
	}
	return c, nil
}
