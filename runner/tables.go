package runner

import (
	"context"
	"errors"
	"os"

	"github.com/laktory/workbench/delta"
)

// loadTable returns the latest snapshot of the Delta table at path, or nil
// (and no error) when no Delta table is there yet.
func loadTable(ctx context.Context, path string) (*delta.Snapshot, error) {
	s, err := delta.LoadSnapshot(ctx, path)
	if errors.Is(err, delta.ErrNotDeltaTable) {
		return nil, nil
	}
	return s, err
}

// countRows counts the rows of a snapshot matching where (all rows when
// where is empty).
func (r *Runner) countRows(ctx context.Context, s *delta.Snapshot, where string) (int64, error) {
	return s.Count(ctx, r.db, delta.ScanOptions{Where: where})
}

// pathExists reports whether a file or folder exists.
func pathExists(p string) bool {
	_, err := os.Stat(p)
	return err == nil
}
