package tui

import (
	"testing"

	"github.com/laktory/workbench/delta"
)

// TestHistoryDetailMerge: a MERGE commit shows the rows it inserted,
// updated and deleted (Spark's metrics), its source rows and files.
func TestHistoryDetailMerge(t *testing.T) {
	h := delta.HistoryEntry{Version: 4, Operation: "MERGE", OperationParameters: map[string]any{"predicate": `["(target.id = source.id)"]`},
		OperationMetrics: map[string]any{"numTargetRowsInserted": "10", "numTargetRowsUpdated": "85", "numTargetRowsDeleted": "0",
			"numSourceRows": "100", "numTargetFilesAdded": "2", "numTargetFilesRemoved": "1", "numTargetDeletionVectorsAdded": "0",
			"numTargetRowsCopied": "900", "executionTimeMs": "12"}, Engine: "laktory-workbench"}
	want := "inserted=10 updated=85 deleted=0 source=100 filesAdded=2 filesRemoved=1 laktory-workbench"
	if got := historyDetail(h); got != want {
		t.Fatalf("detail %q, want %q", got, want)
	}
}
