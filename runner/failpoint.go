package runner

import "github.com/laktory/workbench/delta"

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
