package runner

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"strconv"
	"sync"
	"sync/atomic"
	"time"

	"github.com/laktory/workbench/delta"
	"github.com/laktory/workbench/runner/checkpoint"
	"github.com/laktory/workbench/runner/dialect"
	"github.com/laktory/workbench/runner/engine"
	"github.com/laktory/workbench/runner/history"
	"github.com/laktory/workbench/workspace"
)

// Summary is what a run did, once it is over: per task and in total, rows
// written and deleted (per writer), commit retries and warnings.
type Summary struct {
	RunID     int64          `json:"run_id"`
	Status    history.Status `json:"status"`
	StartedAt time.Time      `json:"started_at"`
	EndedAt   time.Time      `json:"ended_at"`
	Tasks     []TaskSummary  `json:"tasks"`
	// RowsRead counts the rows the tasks' nodes produced (see
	// TaskSummary.RowsRead); RowsWritten and RowsDeleted the rows the
	// table operations added and removed.
	RowsRead    int64 `json:"rows_read"`
	RowsWritten int64 `json:"rows_written"`
	RowsDeleted int64 `json:"rows_deleted"`
	// Deletions are the rows deleted from shared tables, per writer.
	Deletions []history.Deletion `json:"deletions"`
	Retries   int                `json:"retries"`
	Warnings  []string           `json:"warnings"`
	// Err says why the run failed or was cancelled ("" when it succeeded).
	Err string `json:"error,omitempty"`
}

// Failed counts the tasks that failed.
func (s Summary) Failed() int {
	n := 0
	for _, t := range s.Tasks {
		if t.Status == history.StatusFailed {
			n++
		}
	}
	return n
}

// TaskSummary is what one task did.
type TaskSummary struct {
	Key       string         `json:"key"`
	Pipeline  string         `json:"pipeline"`
	Node      string         `json:"node"`
	Status    history.Status `json:"status"`
	StartedAt time.Time      `json:"started_at,omitzero"`
	EndedAt   time.Time      `json:"ended_at,omitzero"`
	// RowsRead counts the rows the node produced from its sources (after
	// its transformer, before expectations); -1 when the node only reset
	// its sinks.
	RowsRead    int64               `json:"rows_read"`
	RowsWritten int64               `json:"rows_written"`
	RowsDeleted int64               `json:"rows_deleted"`
	Retries     []history.Retry     `json:"retries"`
	Operations  []history.Operation `json:"operations"`
	Deletions   []history.Deletion  `json:"deletions"`
	// Merges are the rows its MERGE sinks inserted, updated and deleted.
	Merges   []MergeSummary `json:"merges"`
	Warnings []string       `json:"warnings"`
	Err      string         `json:"error,omitempty"`
}

// Run is a run in progress. Read its Events until the channel closes (or
// never call Events), Cancel it, and Wait for its Summary.
type Run struct {
	// ID is the run's id in the history (`laktory history --run ID`).
	ID   int64
	Plan *Plan

	r *Runner
	// engine executes the run's relations and table operations.
	engine   engine.Engine
	store    *history.Store
	ctx      context.Context
	cancel   context.CancelCauseFunc
	done     chan struct{}
	summary  Summary
	err      error
	parallel int
	seqNo    int64 // unique among the runs of this process
	// began is the wall clock at Start, less the coarseness of file
	// times: files this run makes are newer.
	began time.Time

	emitMu   sync.Mutex // numbers and delivers one event at a time
	evMu     sync.Mutex
	evCond   *sync.Cond
	evBuf    []Event
	evClosed bool
	evOut    chan Event
	evOnce   sync.Once
	seq      int64

	memMu sync.Mutex
	mem   map[string]string // "pipeline.node" -> table holding its output

	resetMu sync.Mutex
	resets  map[workspace.TableID]*tableReset

	// creates serializes the creation of each table by the run's writers.
	createMu sync.Mutex
	creates  map[workspace.TableID]*sync.Mutex

	// skipped: the landing entries that are not regular files the run
	// (or its plan) has warned about (newSkipped).
	skippedMu sync.Mutex
	skipped   map[string]bool

	// locks are the writer locks (checkpoint locks) the run holds.
	locks checkpoint.Locks
	// leases are the leases of the bucket tables a Spark-engine run
	// writes (leaseTable), held until the run ends; run.ctx carries them,
	// so the run's own commits are not refused by them.
	leaseMu sync.Mutex
	leases  *delta.Leases
	// pending is set once the intents of the run's later refreshes are
	// recorded (see recordPending).
	pendingMu sync.Mutex
	pending   bool
	// touched are the tasks that changed something (committed, reset,
	// removed a checkpoint, wrote files or a view, or ran a flow) and the
	// tables they changed: a refresh whose task changed nothing, and whose
	// inputs nothing of the run changed, leaves no intent (clearUntouched).
	touchMu       sync.Mutex
	touchedTasks  map[string]bool
	touchedTables map[workspace.TableID]bool
	// guard confines what the run creates, replaces and deletes.
	guard delta.Guard

	// created are the tables this run created; defined the ForEach sinks
	// whose definition the event log has.
	created sync.Map
	defined sync.Map
	// sinks are the ForEach sinks of the run, by pipeline and name.
	sinks sync.Map

	hist     chan func(context.Context) error
	histDone chan struct{}
	histMu   sync.Mutex
	histErr  error
}

var runSeq atomic.Int64

// tableReset is a whole-table DROP/TRUNCATE done once per run.
type tableReset struct {
	once sync.Once
	by   string
	err  error
}

// Start starts executing a plan and returns at once. The run is recorded
// in the workspace's history; its events stream on Events. Cancelling ctx
// (or calling Cancel) stops it: running tasks abort before their commit,
// so no partial commit is visible, and tasks not started are cancelled.
func (r *Runner) Start(ctx context.Context, plan *Plan) (*Run, error) {
	if plan == nil || plan.snap == nil {
		return nil, fmt.Errorf("%w: start needs a plan from Runner.Plan", ErrInvalidRun)
	}
	if ov := plan.Overlapping(); len(ov) > 0 && !plan.Request.AllowOverlap {
		return nil, fmt.Errorf("%w: %s: nothing was changed; make the predicates disjoint, or acknowledge it (laktory run --delete-overlapping)", ErrOverlap, ov[0].Description)
	}
	store, err := r.store(ctx, plan.snap.Layout.StateDB())
	if err != nil {
		return nil, fmt.Errorf("run history: %w", err)
	}
	parallel := plan.Request.Parallel
	if parallel <= 0 {
		parallel = r.cfg.Parallel
	}
	began := r.clock()
	id, err := store.StartRun(ctx, history.RunStart{StartedAt: began, Workspace: plan.snap.Dir, Env: plan.snap.Env,
		Refresh: history.Refresh(plan.Params.Refresh), ResetMode: history.ResetMode(plan.Params.ResetMode),
		Pipelines: plan.Request.Pipelines, Selectors: plan.Request.Selectors, Parallelism: parallel,
		Engine: engineName(r.runEngine().Info()), Remote: r.runEngine().Info().Remote})
	if err != nil {
		return nil, fmt.Errorf("run history: %w", err)
	}
	leases := &delta.Leases{}
	runCtx, cancel := context.WithCancelCause(delta.WithLeases(ctx, leases))
	run := &Run{ID: id, Plan: plan, r: r, engine: r.runEngine(), store: store, ctx: runCtx, cancel: cancel, done: make(chan struct{}),
		parallel: parallel, seqNo: runSeq.Add(1), began: time.Now().Add(-100 * time.Millisecond), mem: map[string]string{}, resets: map[workspace.TableID]*tableReset{},
		guard: guardOf(plan.snap), leases: leases}
	run.evCond = sync.NewCond(&run.evMu)
	run.hist, run.histDone = make(chan func(context.Context) error, 1024), make(chan struct{})
	go run.recordLoop()
	run.summary = Summary{RunID: id, StartedAt: began, Deletions: []history.Deletion{}, Warnings: []string{}}
	for _, t := range plan.Tasks {
		run.record(func(c context.Context) error {
			return store.StartTask(c, id, history.TaskStart{Key: t.Key, Pipeline: t.Pipeline, Node: t.Node, Status: history.StatusQueued})
		})
	}
	go run.execute()
	return run, nil
}

// engineName is the history's name of an engine ("": the local one).
func engineName(info engine.Info) string {
	if info.Name == engine.Local {
		return ""
	}
	return info.Name
}

// runEngine is the engine of runs.
func (r *Runner) runEngine() engine.Engine {
	if r.cfg.Engine != nil {
		return r.cfg.Engine
	}
	return r.local
}

// dialects picks the translators of the run's SQL: the runner's for the
// local engine; on Spark the YAML's SQL runs as written (the pass-through
// translator only names the relations of its placeholders).
func (run *Run) dialects() dialect.Chooser {
	if run.engine.Info().Name == engine.Local {
		return run.r.cfg.Dialect
	}
	return func(*workspace.Node) dialect.Translator { return dialect.DuckDB{} }
}

// Events streams the run's events in order; the channel is closed when the
// run is over. Events are queued without bound, so a slow reader never
// slows the run. Every call returns the same channel.
func (run *Run) Events() <-chan Event {
	run.evOnce.Do(func() {
		run.evOut = make(chan Event)
		go run.forward()
	})
	return run.evOut
}

func (run *Run) forward() {
	for {
		run.evMu.Lock()
		for len(run.evBuf) == 0 && !run.evClosed {
			run.evCond.Wait()
		}
		if len(run.evBuf) == 0 {
			run.evMu.Unlock()
			close(run.evOut)
			return
		}
		e := run.evBuf[0]
		run.evBuf = run.evBuf[1:]
		run.evMu.Unlock()
		run.evOut <- e
	}
}

// Cancel stops the run (see Start). It returns at once; Wait for the end.
func (run *Run) Cancel() { run.cancel(nil) }

// Done is closed when the run is over.
func (run *Run) Done() <-chan struct{} { return run.done }

// Wait waits for the end of the run and returns its summary. The error is
// nil when every task succeeded; it wraps ErrTasksFailed when some failed,
// and is context.Canceled when the run was cancelled.
func (run *Run) Wait() (Summary, error) {
	<-run.done
	return run.summary, run.err
}

// emit sends an event and appends it to the history's event log. Events
// come from the tasks' goroutines (and a write's progress from delta's):
// they are numbered and delivered in one step, so Events sees them in Seq
// order.
func (run *Run) emit(e Event) {
	run.emitMu.Lock()
	defer run.emitMu.Unlock()
	run.publish(run.logEvent(e))
}

// logEvent numbers an event and queues it for the history's event log.
func (run *Run) logEvent(e Event) Event {
	run.evMu.Lock()
	run.seq++
	e.RunID, e.Seq = strconv.FormatInt(run.ID, 10), run.seq
	if e.At.IsZero() { // the run's and its tasks' starts and ends carry their measured times
		e.At = run.r.cfg.Now()
	}
	run.evMu.Unlock()
	payload, _ := json.Marshal(e)
	run.record(func(c context.Context) error {
		_, err := run.store.AppendEvent(c, run.ID, history.Event{Kind: string(e.Kind), Task: e.Task, Payload: payload})
		return err
	})
	return e
}

// publish hands an event to Events.
func (run *Run) publish(e Event) {
	run.evMu.Lock()
	run.evBuf = append(run.evBuf, e)
	run.evCond.Signal()
	run.evMu.Unlock()
}

// record queues a write to the history. The writes are done in order by
// one goroutine, off the tasks' path, and are all done before the run
// delivers run_finished. A failure does not fail the run: the first one
// becomes a warning.
func (run *Run) record(f func(context.Context) error) {
	run.hist <- f
}

// recordSync records f and waits until it and every write queued before
// it are done: a commit is in the history before the run goes on, so a
// crash right after it cannot hide it.
func (run *Run) recordSync(f func(context.Context) error) {
	done := make(chan struct{})
	run.hist <- func(c context.Context) error {
		defer close(done)
		return f(c)
	}
	<-done
}

// flushHistory waits until every queued history write is done.
func (run *Run) flushHistory() {
	run.recordSync(func(context.Context) error { return nil })
}

// recordLoop does the queued history writes until the queue is closed.
func (run *Run) recordLoop() {
	defer close(run.histDone)
	for f := range run.hist {
		run.write(f)
	}
}

func (run *Run) write(f func(context.Context) error) {
	if err := f(context.WithoutCancel(run.ctxOrBackground())); err != nil {
		run.histMu.Lock()
		first := run.histErr == nil
		if first {
			run.histErr = err
		}
		run.histMu.Unlock()
		if first {
			msg := "the run history could not be recorded: " + err.Error()
			run.evMu.Lock()
			run.summary.Warnings = append(run.summary.Warnings, msg)
			run.evMu.Unlock()
		}
	}
}

func (run *Run) ctxOrBackground() context.Context {
	if run.ctx != nil {
		return run.ctx
	}
	return context.Background()
}

// lockCreate takes the run's lock on creating table id and returns its
// release.
func (run *Run) lockCreate(id workspace.TableID) func() {
	run.createMu.Lock()
	if run.creates == nil {
		run.creates = map[workspace.TableID]*sync.Mutex{}
	}
	mu := run.creates[id]
	if mu == nil {
		mu = &sync.Mutex{}
		run.creates[id] = mu
	}
	run.createMu.Unlock()
	mu.Lock()
	return mu.Unlock
}

// createdByRun reports whether this run created the table.
func (run *Run) createdByRun(id workspace.TableID) bool {
	_, ok := run.created.Load(id)
	return ok
}

// output implements outputs: the in-memory output of a node this run
// executed (a relation of the engine, as SQL).
func (run *Run) output(pipeline, node string) (string, bool) {
	run.memMu.Lock()
	defer run.memMu.Unlock()
	t, ok := run.mem[pipeline+"."+node]
	return t, ok
}

func (run *Run) setOutput(key, table string) {
	run.memMu.Lock()
	defer run.memMu.Unlock()
	run.mem[key] = table
}

// newTaskSummary is the summary of a task that has not run yet.
func newTaskSummary(t *Task) TaskSummary {
	return TaskSummary{Key: t.Key, Pipeline: t.Pipeline, Node: t.Node, RowsRead: -1,
		Retries: []history.Retry{}, Operations: []history.Operation{}, Deletions: []history.Deletion{}, Merges: []MergeSummary{}, Warnings: []string{}}
}

// taskDone is a finished task, as the scheduler sees it.
type taskDone struct {
	key string
	sum TaskSummary
}

// execute runs the tasks as the DAG allows, at most run.parallel at once.
func (run *Run) execute() {
	defer close(run.done)
	plan := run.Plan
	run.emit(Event{Kind: EventRunStarted, At: run.summary.StartedAt, Message: fmt.Sprintf("%d tasks, refresh %s%s, parallel %d",
		len(plan.Tasks), plan.Params.Refresh, resetSuffix(plan.Params.ResetMode), run.parallel)})
	for _, w := range plan.Warnings {
		run.warn("", w.Code, w.Message)
	}
	status := map[string]history.Status{}
	started := map[string]bool{}
	results := make(chan taskDone)
	running := 0
	sums := map[string]TaskSummary{}
	finish := func(t *Task, st history.Status, err error) {
		s := newTaskSummary(t)
		s.Status, s.EndedAt = st, run.r.clock()
		if err != nil {
			s.Err = err.Error()
		}
		status[t.Key], sums[t.Key] = st, s
		run.record(func(c context.Context) error {
			return run.store.FinishTask(c, run.ID, t.Key, history.TaskEnd{Status: st, Error: s.Err, EndedAt: s.EndedAt})
		})
		run.emit(Event{Kind: EventTaskFinished, At: s.EndedAt, Task: t.Key, Status: st, Err: s.Err})
	}
	for {
		progress := false
		for _, t := range plan.Tasks {
			if started[t.Key] || status[t.Key] != "" {
				continue
			}
			if run.ctx.Err() != nil {
				started[t.Key] = true
				finish(t, history.StatusCancelled, context.Cause(run.ctx))
				progress = true
				continue
			}
			ready, blocked := true, ""
			for _, d := range t.DependsOn {
				switch status[d] {
				case history.StatusSucceeded:
				case "":
					ready = false
				default:
					blocked = d
				}
			}
			if blocked != "" {
				started[t.Key] = true
				finish(t, history.StatusSkipped, fmt.Errorf("%w: %s did not succeed", ErrUpstream, blocked))
				progress = true
				continue
			}
			if !ready || running >= run.parallel {
				continue
			}
			started[t.Key] = true
			running++
			progress = true
			go func(t *Task) {
				results <- taskDone{key: t.Key, sum: run.runTask(run.ctx, t)}
			}(t)
		}
		if running == 0 && !progress {
			break
		}
		if running > 0 && !progress {
			d := <-results
			running--
			status[d.key], sums[d.key] = d.sum.Status, d.sum
		}
	}
	run.finishRun(sums)
}

func resetSuffix(mode string) string {
	if mode == "" {
		return ""
	}
	return " with reset_mode " + mode
}

// finishRun drops the run's in-memory outputs, totals the summary and
// records the end.
func (run *Run) finishRun(sums map[string]TaskSummary) {
	run.clearUntouched(sums)
	leaseErr := run.releaseLeases()
	run.memMu.Lock()
	for _, t := range run.mem {
		run.engine.Unshare(context.Background(), t) //nolint:errcheck // best effort: in-memory
	}
	run.mem = map[string]string{}
	run.memMu.Unlock()

	s := &run.summary
	failed := 0
	for _, t := range run.Plan.Tasks {
		ts := sums[t.Key]
		s.Tasks = append(s.Tasks, ts)
		if ts.RowsRead > 0 {
			s.RowsRead += ts.RowsRead
		}
		s.RowsWritten += ts.RowsWritten
		s.RowsDeleted += ts.RowsDeleted
		s.Retries += len(ts.Retries)
		s.Deletions = append(s.Deletions, ts.Deletions...)
		if ts.Status == history.StatusFailed {
			failed++
		}
	}
	s.EndedAt = run.r.clock()
	if leaseErr == nil && errors.Is(context.Cause(run.ctx), delta.ErrLeaseLost) {
		leaseErr = context.Cause(run.ctx)
	}
	switch {
	case leaseErr != nil:
		s.Status = history.StatusFailed
		run.err = fmt.Errorf("%w: %w", ErrTasksFailed, leaseErr)
		s.Err = run.err.Error()
	case run.ctx.Err() != nil:
		s.Status = history.StatusCancelled
		run.err = context.Canceled
		s.Err = "cancelled"
	case failed > 0:
		s.Status = history.StatusFailed
		run.err = fmt.Errorf("%w: %d of %d tasks failed", ErrTasksFailed, failed, len(run.Plan.Tasks))
		s.Err = run.err.Error()
	default:
		s.Status = history.StatusSucceeded
	}
	// The history is complete before run_finished is delivered.
	last := run.logEvent(Event{Kind: EventRunFinished, At: s.EndedAt, Status: s.Status, Err: s.Err,
		Message: fmt.Sprintf("%d rows written, %d deleted, %d retries", s.RowsWritten, s.RowsDeleted, s.Retries)})
	run.record(func(c context.Context) error {
		return run.store.FinishRun(c, run.ID, history.RunEnd{Status: s.Status, Error: s.Err, EndedAt: s.EndedAt})
	})
	close(run.hist)
	<-run.histDone
	run.locks.ReleaseAll()
	run.publish(last)
	run.cancel(nil)
	run.evMu.Lock()
	run.evClosed = true
	run.evCond.Broadcast()
	run.evMu.Unlock()
}

// warn emits and records a warning.
// newSkipped returns the entries of skipped (landing entries that are not
// regular files, which a read skips) the run has not warned about yet, its
// plan's warnings included, and counts them as warned.
func (run *Run) newSkipped(skipped []string) []string {
	run.skippedMu.Lock()
	defer run.skippedMu.Unlock()
	if run.skipped == nil {
		run.skipped = map[string]bool{}
		for _, p := range run.Plan.skipped {
			run.skipped[p] = true
		}
	}
	var out []string
	for _, p := range skipped {
		if !run.skipped[p] {
			run.skipped[p] = true
			out = append(out, p)
		}
	}
	return out
}

func (run *Run) warn(task, code, msg string) {
	run.evMu.Lock()
	run.summary.Warnings = append(run.summary.Warnings, msg)
	run.evMu.Unlock()
	run.record(func(c context.Context) error {
		return run.store.RecordMessage(c, run.ID, history.Message{Task: task, Severity: history.SeverityWarning, Code: code, Text: msg})
	})
	run.emit(Event{Kind: EventWarning, Task: task, Message: msg})
}

// Leases of bucket tables. Spark's commits to a bucket table are not
// conditional (docs/object-storage.md), so nothing in the commit protocol
// keeps a workbench commit from landing in a Spark commit's window and
// being overwritten. A run on the Spark engine therefore takes the lease
// of every bucket table one of its tasks writes (resets included) before
// the task changes anything, and holds it until the run ends
// (delta.AcquireLease: renewed every TTL/3, released at the end); every
// workbench commit to a bucket table checks the lease first and is
// refused while another run holds it (delta.ErrLeaseHeld), and the run
// taking the lease waits for the workbench commits in flight. A lease a
// killed run left is waited for until it expires, or taken over at once
// with Request.TakeLease; a lease the run loses (its renewal failing, or
// taken over) cancels the run, which fails naming the loss.

// leaseTable takes the lease of sp's table (at root) for node's task of a
// Spark-engine run when the table is in a bucket (once per run and table);
// notify reports the waits in the task's log.
func (run *Run) leaseTable(ctx context.Context, sp *sinkPlan, root, node string, notify func(string)) error {
	info := run.engine.Info()
	if info.Name == engine.Local || !sp.sink.IsDelta() || sp.sink.Table == "" {
		return nil
	}
	if !delta.IsRemoteLocation(root) {
		return nil
	}
	run.leaseMu.Lock()
	defer run.leaseMu.Unlock()
	if run.leases.Get(root) != nil {
		return nil
	}
	host, _ := os.Hostname()
	what := fmt.Sprintf("run %d on the Spark engine", run.ID)
	if info.Remote != "" {
		what += " (" + info.Remote + ")"
	}
	l, err := delta.AcquireLease(ctx, root, delta.LeaseOwner{Host: host, Workspace: run.Plan.snap.Dir, PID: os.Getpid(), Run: what},
		delta.LeaseOptions{TTL: run.r.cfg.LeaseTTL, TakeOver: run.Plan.Request.TakeLease, Notify: notify,
			OnLost: func(err error) { run.cancel(err) }})
	if err != nil {
		return fmt.Errorf("%w: node '%s': the lease of %s: %w", ErrSink, node, tableLabel(sp), err)
	}
	run.leases.Add(l)
	return nil
}

// releaseLeases releases the run's leases; the error is a lease lost
// before the end.
func (run *Run) releaseLeases() error {
	var errs []error
	for _, l := range run.leases.All() {
		if err := l.Release(context.Background()); err != nil {
			errs = append(errs, err)
		}
	}
	return errors.Join(errs...)
}
