package runner

import (
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/laktory/workbench/delta"
	"github.com/laktory/workbench/runner/checkpoint"
	"github.com/laktory/workbench/runner/history"
	"github.com/laktory/workbench/runner/landing"
	"github.com/laktory/workbench/runner/sink"
	"github.com/laktory/workbench/validate"
	"github.com/laktory/workbench/workspace"
)

// Request is what a user asks a run to do.
type Request struct {
	// Pipelines names the pipelines to run; empty means every pipeline (or,
	// with Selectors, every pipeline that has a node they select).
	Pipelines []string `json:"pipelines"`
	// Selectors are Laktory's node selectors, applied within Pipelines:
	// "name" (the node), "*name" (with its upstream), "name*" (with its
	// downstream), "*name*" (both); a name may also be a tag or an
	// execution_task_name. Empty selects every node of the pipelines.
	Selectors []string `json:"selectors"`
	// Refresh is INCREMENTAL (default when empty), FULL or RESET.
	Refresh string `json:"refresh,omitempty"`
	// ResetMode overrides the sinks' reset_mode: "" (none), DROP or TRUNCATE.
	ResetMode string `json:"reset_mode,omitempty"`
	// Strict refuses the run when the selected pipelines hold what Laktory
	// rejects at load (validate.Options.Strict).
	Strict bool `json:"strict,omitempty"`
	// Parallel bounds the tasks running at once; 0 means the number of cores.
	Parallel int `json:"parallel,omitempty"`
	// AllowOverlap acknowledges that a destructive step deletes rows that
	// also match another writer's predicate (Effect.Overlaps): without
	// it, Start refuses such a plan and the step fails before deleting
	// (ErrOverlap).
	AllowOverlap bool `json:"allow_overlap,omitempty"`
	// TakeLease takes over at once the lease of a bucket table that
	// another Spark-engine run holds (its holder is known to be gone),
	// instead of waiting for its expiry (delta.LeaseOptions.TakeOver).
	TakeLease bool `json:"take_lease,omitempty"`
}

// Plan is a validated run, ready to execute: its tasks in dependency order
// and everything destructive it will do, so a user can confirm it first.
type Plan struct {
	Request Request `json:"request"`
	// Params are the normalized run parameters.
	Params validate.RunParams `json:"params"`
	// Tasks are in topological order; a task runs when its DependsOn are done.
	Tasks []*Task `json:"tasks"`
	// Effects lists what the run deletes or resets, before it does it.
	Effects []Effect `json:"effects"`
	// Warnings are reported before the run starts (e.g. writers of a dropped
	// table in other pipelines that now need a FULL refresh).
	Warnings []validate.Diagnostic `json:"warnings"`
	// Selection lists, per pipeline, the nodes the run executes (selectors
	// expanded), in DAG order.
	Selection map[string][]string `json:"selection"`
	// Flows are the streaming and declarative flows the run executes.
	Flows []FlowInfo `json:"flows,omitempty"`

	snap *workspace.Snapshot
	// knownCps are the checkpoints the state database records flows
	// committed batches through (absolute paths): a reset resets them
	// even where their folder was removed by hand (resettable).
	knownCps map[string]bool
	// skipped are the landing entries that are not regular files which
	// Warnings name (LK206): the run's readers skip them without saying so
	// again.
	skipped []string
}

// FlowInfo describes a flow of a plan: a node writing one sink through a
// checkpoint, with the `flow:` options of a declarative node (comment and
// spark_conf are kept and shown, not used locally).
type FlowInfo struct {
	Task       string `json:"task"`
	Name       string `json:"name"`
	Target     string `json:"target"`
	Checkpoint string `json:"checkpoint"`
	Once       bool   `json:"once,omitempty"`
	// Kind is append or update.
	Kind             string            `json:"kind"`
	ImportCheckpoint string            `json:"import_checkpoint,omitempty"`
	Comment          string            `json:"comment,omitempty"`
	SparkConf        map[string]string `json:"spark_conf,omitempty"`
}

// Destructive reports whether the plan deletes or resets anything (a
// confirmation is due before Start).
func (p *Plan) Destructive() bool { return len(p.Effects) > 0 }

// Overlapping returns the effects that would delete rows also matching
// another writer's predicate (their Overlaps say whose and how many): a
// plan with any runs only with Request.AllowOverlap.
func (p *Plan) Overlapping() []Effect {
	var out []Effect
	for _, e := range p.Effects {
		if len(e.Overlaps) > 0 {
			out = append(out, e)
		}
	}
	return out
}

// Task is one node of one pipeline, executed as a unit.
type Task struct {
	// Key is "pipeline.node".
	Key       string   `json:"key"`
	Pipeline  string   `json:"pipeline"`
	Node      string   `json:"node"`
	DependsOn []string `json:"depends_on"`

	plan *taskPlan
}

// EffectKind names a destructive effect of a run.
type EffectKind string

// Destructive effects a plan can announce.
const (
	// EffectDeleteRows deletes the rows a writer owns (FULL or RESET of a
	// shared sink).
	EffectDeleteRows EffectKind = "delete_rows"
	// EffectDropTable removes the whole table (reset_mode DROP).
	EffectDropTable EffectKind = "drop_table"
	// EffectTruncateTable removes every row and keeps the table (TRUNCATE).
	EffectTruncateTable EffectKind = "truncate_table"
	// EffectResetCheckpoint deletes a streaming checkpoint, so its flow
	// reprocesses all its data.
	EffectResetCheckpoint EffectKind = "reset_checkpoint"
	// EffectOverwrite replaces every row of a table that other writers
	// write too (an OVERWRITE sink without `shared`): their rows go.
	EffectOverwrite EffectKind = "overwrite_table"
	// EffectResume finishes or redoes a refresh a crash interrupted (RunID
	// names the interrupted run): a writer's FULL or RESET is redone as a
	// FULL refresh of it, a whole-table reset finished.
	EffectResume EffectKind = "resume"
)

// Effect is one destructive thing a plan will do.
type Effect struct {
	Kind EffectKind `json:"kind"`
	// Task is the key of the task that does it.
	Task  string            `json:"task"`
	Table workspace.TableID `json:"table"`
	// Writer is the writer id or the where predicate whose rows are deleted.
	Writer string `json:"writer,omitempty"`
	// Predicate is the SQL delete predicate (EffectDeleteRows).
	Predicate string `json:"predicate,omitempty"`
	// Rows estimates the rows affected from the table's stats; -1 when
	// unknown (no stats, or the table does not exist yet).
	Rows int64 `json:"rows"`
	// Checkpoint is the folder reset (EffectResetCheckpoint), or the
	// checkpoint beside which the interrupted refresh was recorded
	// (EffectResume).
	Checkpoint string `json:"checkpoint,omitempty"`
	// RunID is the interrupted run (EffectResume).
	RunID int64 `json:"run_id,omitempty"`
	// Description says it in one sentence for a confirmation prompt.
	Description string `json:"description"`
	// Overlaps are the other writers whose predicate also matches rows
	// this step deletes, with their counts (EffectDeleteRows).
	Overlaps []Overlap `json:"overlaps,omitempty"`
}

// Overlap is another writer's share of the rows a destructive step deletes.
type Overlap struct {
	// Writer is the other writer (pipeline.node) and Where its predicate.
	Writer string `json:"writer"`
	Where  string `json:"where"`
	// Rows counts the rows the step deletes that match Where.
	Rows int64 `json:"rows"`
}

// EventKind names what an Event reports.
type EventKind string

// Events a run emits, in order for a given task.
const (
	EventRunStarted   EventKind = "run_started"
	EventTaskStarted  EventKind = "task_started"
	EventTaskProgress EventKind = "task_progress" // Phase and Rows so far
	EventOperation    EventKind = "operation"     // a committed table operation
	EventRetry        EventKind = "retry"         // a commit conflict, retried
	EventDeleted      EventKind = "deleted"       // rows deleted for a writer
	EventWarning      EventKind = "warning"       // Message
	EventTaskFinished EventKind = "task_finished" // Status, Err
	EventRunFinished  EventKind = "run_finished"  // Status, Err
	// EventFlowProgress reports a flow's micro-batch: Flow, Batch, Rows,
	// Status COMPLETED or FAILED (then Err).
	EventFlowProgress EventKind = "flow_progress"
	// EventSinkDefinition reports a sink a flow writes that has no table
	// (a ForEach sink: Format "foreach").
	EventSinkDefinition EventKind = "sink_definition"
)

// Event reports progress of a run. Events of one run carry increasing Seq.
type Event struct {
	RunID string    `json:"run_id"`
	Seq   int64     `json:"seq"`
	At    time.Time `json:"at"`
	Kind  EventKind `json:"kind"`
	// Task is the task key ("" for run-level events).
	Task string `json:"task,omitempty"`
	// Phase is the step of a task in progress: read, transform, check, write,
	// commit.
	Phase string `json:"phase,omitempty"`
	// Table, Operation and Version describe a table operation.
	Table     string `json:"table,omitempty"`
	Operation string `json:"operation,omitempty"`
	Version   int64  `json:"version"`
	// Rows counts rows read or written so far (progress), rows added
	// (operation) or deleted (deleted). While a table's data files are
	// written (progress of phase write with Table set), Rows counts the
	// rows of the files finished so far and Bytes the bytes written so far.
	Rows  int64 `json:"rows,omitempty"`
	Bytes int64 `json:"bytes,omitempty"`
	// Checkpoint is the folder of a streaming checkpoint reset (operation
	// RESET CHECKPOINT); its owner is the writer whose sink keeps it.
	Checkpoint string `json:"checkpoint,omitempty"`
	// Writer is the writer id or predicate of a deletion.
	Writer string `json:"writer,omitempty"`
	// Attempt and Delay describe a retry.
	Attempt int           `json:"attempt,omitempty"`
	Delay   time.Duration `json:"delay_ns,omitempty"`
	// Status is set on task_finished and run_finished (and flow_progress:
	// COMPLETED or FAILED).
	Status history.Status `json:"status,omitempty"`
	// Flow and Batch name a flow and its micro-batch (flow_progress,
	// sink_definition).
	Flow  string `json:"flow,omitempty"`
	Batch int64  `json:"batch,omitempty"`
	// Sink and Format describe a sink definition.
	Sink   string `json:"sink,omitempty"`
	Format string `json:"format,omitempty"`
	// Message is a human sentence; Err the error text of a failure or retry.
	Message string `json:"message,omitempty"`
	Err     string `json:"error,omitempty"`
}

// The JSON of runs, plans and events leaves out what is unknown rather
// than writing -1 (the Go values keep -1): an effect's rows without
// stats, an event's table version when it names none, the rows a task
// read when it only reset its sinks.

// MarshalJSON leaves rows out when unknown.
func (e Effect) MarshalJSON() ([]byte, error) {
	type plain Effect
	return json.Marshal(struct {
		plain
		Rows *int64 `json:"rows,omitempty"`
	}{plain(e), known(e.Rows)})
}

// UnmarshalJSON reads rows left out as unknown (-1).
func (e *Effect) UnmarshalJSON(b []byte) error {
	type plain Effect
	aux := struct {
		*plain
		Rows *int64 `json:"rows"`
	}{plain: (*plain)(e)}
	if err := json.Unmarshal(b, &aux); err != nil {
		return err
	}
	e.Rows = orUnknown(aux.Rows)
	return nil
}

// MarshalJSON leaves the version out when the event names none.
func (e Event) MarshalJSON() ([]byte, error) {
	type plain Event
	return json.Marshal(struct {
		plain
		Version *int64 `json:"version,omitempty"`
	}{plain(e), known(e.Version)})
}

// UnmarshalJSON reads a version left out as none (-1).
func (e *Event) UnmarshalJSON(b []byte) error {
	type plain Event
	aux := struct {
		*plain
		Version *int64 `json:"version"`
	}{plain: (*plain)(e)}
	if err := json.Unmarshal(b, &aux); err != nil {
		return err
	}
	e.Version = orUnknown(aux.Version)
	return nil
}

// MarshalJSON leaves rows_read out when the task read nothing (it only
// reset its sinks).
func (t TaskSummary) MarshalJSON() ([]byte, error) {
	type plain TaskSummary
	return json.Marshal(struct {
		plain
		RowsRead *int64 `json:"rows_read,omitempty"`
	}{plain(t), known(t.RowsRead)})
}

// UnmarshalJSON reads rows_read left out as none (-1).
func (t *TaskSummary) UnmarshalJSON(b []byte) error {
	type plain TaskSummary
	aux := struct {
		*plain
		RowsRead *int64 `json:"rows_read"`
	}{plain: (*plain)(t)}
	if err := json.Unmarshal(b, &aux); err != nil {
		return err
	}
	t.RowsRead = orUnknown(aux.RowsRead)
	return nil
}

func known(n int64) *int64 {
	if n < 0 {
		return nil
	}
	return &n
}

func orUnknown(p *int64) int64 {
	if p == nil {
		return -1
	}
	return *p
}

// Sentinel errors. Errors of this package wrap them with %w and a message
// that says where (pipeline, node, table), what and how to fix it; test them
// with errors.Is.
var (
	// ErrInvalidRun: the request was rejected before anything ran; the
	// error is a *PlanError holding the diagnostics.
	ErrInvalidRun = errors.New("invalid run")

	// ErrLegacyTable: a shared table has no writer column (it was written
	// before it was shared, or by writers owning rows with `where`).
	ErrLegacyTable = sink.ErrLegacyTable

	// ErrOwnership: a writer with a `where` predicate produced rows that do
	// not match it; nothing was written.
	ErrOwnership = sink.ErrOwnership

	// ErrExpectation: an expectation with action FAIL failed beyond its
	// tolerance; nothing was written.
	ErrExpectation = errors.New("expectation failed")

	// ErrConflict: a commit kept conflicting with concurrent writers after
	// every retry.
	ErrConflict = sink.ErrConflict

	// ErrSource: a source cannot be read (missing path, no files, a table
	// or node output that does not exist yet).
	ErrSource = landing.ErrSource

	// ErrStep: a transformer step cannot be compiled to SQL.
	ErrStep = errors.New("invalid transformer step")

	// ErrSandbox: SQL of a pipeline touched a path outside the workspace's
	// sandbox (Config.Sandbox) and DuckDB refused it.
	ErrSandbox = errors.New("path outside the sandbox")

	// ErrOverlap: a destructive step would delete rows that also match
	// another writer's predicate, and the run did not acknowledge it
	// (Request.AllowOverlap).
	ErrOverlap = errors.New("rows of another writer would be deleted")

	// ErrSink: a sink cannot be written.
	ErrSink = sink.ErrSink

	// ErrUpstream: a task was skipped because a task it depends on failed.
	ErrUpstream = errors.New("upstream task failed")

	// ErrTasksFailed: a run finished with failed tasks (Run.Wait).
	ErrTasksFailed = errors.New("tasks failed")

	// ErrCheckpoint: a streaming checkpoint cannot be read or written (or
	// one to import is not a Structured Streaming checkpoint).
	ErrCheckpoint = checkpoint.ErrCheckpoint

	// ErrCheckpointBusy: another run (of this or another process) is using
	// the streaming checkpoint; running the same flow twice at once would
	// process its data twice or record offsets it did not write.
	ErrCheckpointBusy = checkpoint.ErrBusy

	// ErrStream: a streaming read cannot go on (its source table was
	// replaced, or a commit deleted or changed rows the reader does not
	// tolerate); the message says which refresh or option fixes it.
	ErrStream = errors.New("streaming read stopped")

	// ErrFlow: a declarative flow cannot run as declared (e.g. importing
	// a checkpoint into a table that already exists).
	ErrFlow = errors.New("flow cannot run")

	// ErrUnsupported: the node uses a feature local runs do not support
	// yet (reported before the run, see PlanError).
	ErrUnsupported = errors.New("not supported by local runs yet")
)

// PlanError rejects a run before anything runs. Diagnostics holds the
// problems (errors, and the warnings found with them), with the same codes
// and messages as validation.
type PlanError struct {
	Diagnostics []validate.Diagnostic
}

func (e *PlanError) Error() string {
	var b strings.Builder
	n := 0
	for _, d := range e.Diagnostics {
		if d.Severity != workspace.SeverityError {
			continue
		}
		if n > 0 {
			b.WriteString("; ")
		}
		n++
		if d.File != "" {
			fmt.Fprintf(&b, "%s:%d: ", d.File, d.Line)
		}
		b.WriteString(d.Message)
	}
	if n == 0 {
		return ErrInvalidRun.Error()
	}
	return fmt.Sprintf("%s: %s", ErrInvalidRun, b.String())
}

// Unwrap makes errors.Is(err, ErrInvalidRun) true, and ErrUnsupported when
// the run uses a feature local runs do not support yet.
func (e *PlanError) Unwrap() []error {
	errs := []error{ErrInvalidRun}
	for _, d := range e.Diagnostics {
		if d.Code == validate.CodeLocalUnsupported && d.Severity == workspace.SeverityError {
			errs = append(errs, ErrUnsupported)
			break
		}
	}
	return errs
}

// Fail points of the runner (see delta.FailPoint: LAKTORY_FAILPOINT=name
// or name:N makes the process exit there). Together with the Delta
// writer's and the sinks' they are the steps the crash tests kill a run
// at; FailPoints lists them all.
const (
	// FailRefreshIntent: a FULL or RESET of a writer recorded its intent,
	// nothing is reset yet.
	FailRefreshIntent = "refresh.intent"
	// FailRefreshReset: the writer's checkpoint is reset (and, for a
	// RESET or a DROP, its rows deleted or its table dropped).
	FailRefreshReset = "refresh.reset"
	// FailRefreshStaged: a FULL refresh wrote its new data files; the
	// delete of the writer's old rows is not committed.
	FailRefreshStaged = "refresh.staged"
	// FailRefreshDeleted: a FULL refresh committed the delete of the
	// writer's old rows; its new rows are not committed.
	FailRefreshDeleted = "refresh.deleted"
	// FailRefreshDone: the refresh is complete; its intent is not cleared.
	FailRefreshDone = "refresh.done"
	// FailWholeIntent: a whole-table DROP or TRUNCATE recorded its intent
	// beside every checkpoint it resets; nothing is reset yet.
	FailWholeIntent = "whole.intent"
	// FailWholeReset: the table is dropped or truncated, the checkpoints
	// are not reset.
	FailWholeReset = "whole.reset"
	// FailWholeDone: the checkpoints are reset; the intents are not
	// cleared.
	FailWholeDone = "whole.done"
	// FailBatchOffsets, FailBatchSink, FailBatchCommit: a micro-batch wrote
	// its offsets / committed its sinks / wrote its commit marker.
	FailBatchOffsets = "batch." + stepOffsets
	FailBatchSink    = "batch." + stepSink
	FailBatchCommit  = "batch." + stepCommit
	// FailMergeMerged: a MERGE sink's MERGE is committed; for SCD type 2,
	// its append of the new versions is not written.
	FailMergeMerged = "merge.merged"
)

// FailPoints lists every named fail point, the Delta writer's and the
// sinks' included. TestFailPointsListed keeps it complete: every
// delta.FailPoint call of the module names one of these, and the crash
// tests kill a run at each.
var FailPoints = []string{FailRefreshIntent, FailRefreshReset, FailRefreshStaged, FailRefreshDeleted, FailRefreshDone,
	FailWholeIntent, FailWholeReset, FailWholeDone, FailBatchOffsets, FailBatchSink, FailBatchCommit,
	FailMergeMerged, sink.FailFilesRecorded, sink.FailFilesMoved,
	delta.FailCommitBefore, delta.FailCommitAfter, delta.FailCommitConflict, delta.FailCommitRebased,
	delta.FailCommitGated, delta.FailDropRenamed, delta.FailViewWritten, delta.FailLeaseAcquired,
	delta.FailUpload, delta.FailUploadPart}

// FailPointEnv is the environment variable naming the fail point a
// process stops at (delta.FailPointEnv).
const FailPointEnv = delta.FailPointEnv

// ErrUnknownFailPoint: LAKTORY_FAILPOINT names no fail point of FailPoints.
var ErrUnknownFailPoint = errors.New("unknown fail point")

// CheckFailPoint checks a LAKTORY_FAILPOINT value ("" is none). A name
// that no step carries would never stop the process: a crash test given
// a misspelt point would pass without ever crashing, so it is refused.
func CheckFailPoint(spec string) error {
	name, _ := delta.ParseFailPointSpec(spec)
	if name == "" || slices.Contains(FailPoints, name) {
		return nil
	}
	return fmt.Errorf("%s=%q: %w %q (known: %s)", delta.FailPointEnv, spec, ErrUnknownFailPoint, name, strings.Join(FailPoints, ", "))
}
