package runner

import (
	"errors"
	"fmt"
	"strings"

	"github.com/laktory/workbench/delta"
	"github.com/laktory/workbench/runner/checkpoint"
	"github.com/laktory/workbench/runner/landing"
	"github.com/laktory/workbench/runner/sink"
	"github.com/laktory/workbench/validate"
	"github.com/laktory/workbench/workspace"
)

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
// writer's (delta.FailCommitBefore, delta.FailCommitAfter,
// delta.FailDropRenamed) they are the steps the crash tests kill a run at.
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

// FailPoints lists every named fail point, the Delta writer's included.
var FailPoints = []string{FailRefreshIntent, FailRefreshReset, FailRefreshStaged, FailRefreshDeleted, FailRefreshDone,
	FailWholeIntent, FailWholeReset, FailWholeDone, FailBatchOffsets, FailBatchSink, FailBatchCommit,
	FailMergeMerged, delta.FailCommitBefore, delta.FailCommitAfter, delta.FailDropRenamed}
