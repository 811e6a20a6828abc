package runner

import (
	"context"
	"errors"
	"fmt"
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
// where is empty): from the stats when they suffice, else with a scan that
// reads only the files that may match.
func (r *Runner) countRows(ctx context.Context, s *delta.Snapshot, where string) (int64, error) {
	if where == "" {
		if n, ok := s.NumRecords(); ok {
			return n, nil
		}
	}
	q, err := s.ScanSQL(ctx, delta.ScanOptions{Where: where})
	if err != nil {
		return 0, err
	}
	var n int64
	if err := r.db.QueryRowContext(ctx, "SELECT count(*) FROM ("+q+")").Scan(&n); err != nil {
		return 0, fmt.Errorf("count rows of %s where %s: %w", s.Root(), where, err)
	}
	return n, nil
}

// pathExists reports whether a file or folder exists.
func pathExists(p string) bool {
	_, err := os.Stat(p)
	return err == nil
}
