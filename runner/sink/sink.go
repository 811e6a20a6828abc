// Package sink writes the sinks of a task: Delta tables (appends,
// overwrites and the resets of shared sinks), MERGE sinks (Laktory's
// merge_cdc_options, planned by package merge), PARQUET, CSV and JSON
// file sinks, and ForEach sinks (Go writers of each row, package
// foreach). Every sink reads its batch through the task's engine session
// (engine.Session, engine.Txn) and the table's log through package
// delta: no sink holds an engine's own handle, so each runs on every
// engine that implements the seam.
//
// The runner plans what a sink does (the refresh, who owns which rows,
// whole-table resets, intents and writer locks) and hands each sink the
// task it writes for (Task); a sink executes it.
package sink

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/laktory/workbench/delta"
	"github.com/laktory/workbench/runner/engine"
	"github.com/laktory/workbench/runner/history"
	"github.com/laktory/workbench/workspace"
)

// Errors of sinks (the runner's errors of the same names).
var (
	// ErrSink: a sink cannot be written.
	ErrSink = errors.New("cannot write sink")
	// ErrLegacyTable: a shared table has no writer column (it was written
	// before it was shared).
	ErrLegacyTable = errors.New("table has no writer column")
	// ErrOwnership: a writer with a `where` predicate produced rows that do
	// not match it.
	ErrOwnership = errors.New("rows outside the writer's predicate")
	// ErrConflict: a commit kept conflicting with concurrent writers after
	// every retry.
	ErrConflict = errors.New("commit conflict")
)

// Sink is one sink of a task.
type Sink interface {
	// Write writes the rows of a batch and returns the rows written.
	Write(ctx context.Context, b Batch) (int64, error)
	// Reset resets the sink as the refresh planned: the writer's rows or
	// the table (Delta), the file or folder (file sinks).
	Reset(ctx context.Context) error
}

// Batch is what a sink writes.
type Batch struct {
	// Rel is the relation of the task's session holding the rows.
	Rel string
	// AppID is the flow of a micro-batch ("" for a batch run): its
	// commits carry txn(AppID, Version), and a batch a table already has
	// is skipped. Version is the micro-batch id (0 for a batch run).
	AppID   string
	Version int64
	// Flow names the flow in messages and ForEach targets.
	Flow string
	// Query, when set, is the SQL of the rows a ForEach sink sends
	// instead of Rel's (an update flow's changed rows).
	Query string
	// Update: the batch is an update flow's (changed keys only).
	Update bool
	// Publishing, when set, is told the names (relative to the sink's
	// path) of the files a file sink is about to add to its folder, before
	// the first is moved into place: a flow records them in its
	// checkpoint, a batch run beside the writer's, so a replay of a batch
	// a crash interrupted (a flow's), or the next run of the writer (a
	// batch run's), removes them first.
	Publishing func(files []string) error
}

// Task is the task a sink writes for: its session, and what the runner
// records and decides for it.
type Task interface {
	// Names are the task's pipeline and node, for messages.
	Names() (pipeline, node string)
	// Session is the task's session on the run's engine.
	Session() engine.Session
	// Columns are the columns of the relation rel of the session.
	Columns(ctx context.Context, rel string) ([]engine.Column, error)
	// Retry runs op, one attempt on a fresh snapshot, with the runner's
	// retries of commit conflicts on table (ErrConflict when they run out).
	Retry(ctx context.Context, table string, op func(attempt int) error) error
	// BeforeCommit runs before each commit of an attempt.
	BeforeCommit(attempt int)
	// Progress reports the rows of a phase; Note a message of a phase.
	Progress(phase string, rows int64)
	Note(phase, message string)
	// WriteProgress reports how far a write's data files to table are
	// written, and how often.
	WriteProgress(table string) (func(delta.WriteProgress), time.Duration)
	// Operation records a table operation (committed or done).
	Operation(op history.Operation)
	// LockCreate serializes the creation of a table by the run's writers
	// (call the function it returns to unlock); Created records that the
	// run creates it.
	LockCreate(table workspace.TableID) (unlock func())
	Created(table workspace.TableID)
	// Guard confines what the run creates, replaces and deletes.
	Guard() delta.Guard
}

// Spark's batch save modes beyond APPEND, OVERWRITE and MERGE.
const (
	ModeError         = "ERROR"
	ModeErrorIfExists = "ERRORIFEXISTS"
	ModeIgnore        = "IGNORE"
	// ModeComplete is Spark's streaming output mode Complete: each
	// micro-batch's rows (the whole result so far) replace the table's.
	ModeComplete = "COMPLETE"
)

// Mode is a sink's effective mode: "" is APPEND for Delta sinks and
// OVERWRITE for other formats (a Polars file write replaces the file);
// ERRORIFEXISTS is ERROR.
func Mode(sk *workspace.Sink) string {
	m := strings.ToUpper(sk.Mode)
	if m == "" {
		if sk.IsDelta() {
			return workspace.ModeAppend
		}
		return workspace.ModeOverwrite
	}
	if m == ModeErrorIfExists {
		return ModeError
	}
	return m
}

// WriteError names the node and table of a failed write (an error of
// this package's is returned as it is).
func WriteError(t Task, label string, err error) error {
	for _, target := range []error{ErrLegacyTable, ErrOwnership, ErrSink, ErrConflict} {
		if errors.Is(err, target) {
			return err
		}
	}
	p, n := t.Names()
	return fmt.Errorf("%w: node '%s' of pipeline '%s', table %s: %w", ErrSink, n, p, label, err)
}

func committedVersion(res *delta.CommitResult) *int64 {
	if res == nil || !res.Committed {
		return nil
	}
	v := res.Version
	return &v
}

// CommitOperation records a Delta commit to the table at path (nothing
// when nothing was committed).
func CommitOperation(t Task, label, path string, res *delta.CommitResult, detail string, d time.Duration) {
	if res == nil || !res.Committed {
		return
	}
	op, ok := mergeRows(res)
	if !ok {
		op = history.Operation{RowsAdded: res.Metrics.AddedRows, RowsDeleted: res.Metrics.DeletedRows}
	}
	op.Table, op.Path, op.Version, op.Operation, op.Detail = label, path, committedVersion(res), res.Operation, detail
	op.FilesAdded, op.FilesRemoved, op.Duration = int64(res.Metrics.AddedFiles), int64(res.Metrics.RemovedFiles), d
	t.Operation(op)
}

// mergeRows are the rows a MERGE commit inserted, updated and deleted.
func mergeRows(res *delta.CommitResult) (history.Operation, bool) {
	if res.Merge == nil {
		return history.Operation{}, false
	}
	return history.Operation{RowsAdded: res.Merge.Inserted, RowsUpdated: res.Merge.Updated, RowsDeleted: res.Merge.Deleted}, true
}

// loadTable loads the table at path (nil, nil when there is none).
func loadTable(ctx context.Context, path string) (*delta.Snapshot, error) {
	s, err := delta.LoadSnapshot(ctx, path)
	if errors.Is(err, delta.ErrNotDeltaTable) {
		return nil, nil
	}
	return s, err
}

func quoteIdent(s string) string { return `"` + strings.ReplaceAll(s, `"`, `""`) + `"` }

func quoteString(s string) string { return "'" + strings.ReplaceAll(s, "'", "''") + "'" }
