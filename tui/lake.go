package tui

import (
	"context"
	"fmt"
	"sync"

	"github.com/laktory/workbench/runner/lake"
	"github.com/laktory/workbench/workspace"
)

// TableReader reads Delta tables on the runner's side: *lake.Reader
// implements it (runner.Runner.Tables reads through the runner's
// database, lake.Open through one of its own).
type TableReader interface {
	// Stats reads what the graph and the deep validation rules need of
	// every table the workspace writes (Lake.Stats).
	Stats(ctx context.Context, snap *workspace.Snapshot) (map[workspace.TableID]TableStats, error)
	// Table reads one table for the Table tab.
	Table(ctx context.Context, t *workspace.Table, opts lake.TableOptions) (*lake.TableInfo, error)
	// Close releases what the reader opened.
	Close() error
}

// DeltaLake is the workbench's Lake and TableWatcher: it reads the
// workspace's Delta tables through a TableReader of the runner side and
// watches their logs (lake.WatchTable). It is safe for concurrent use;
// Close it when done.
type DeltaLake struct {
	// PreviewRows is how many rows Table previews (default 50).
	PreviewRows int
	// HistoryLimit is how many versions Table lists (default 50).
	HistoryLimit int

	mu     sync.Mutex
	r      TableReader
	closed bool
}

// NewDeltaLake returns a lake reading through a DuckDB database of its
// own, opened on first use (lake.Open).
func NewDeltaLake() *DeltaLake { return NewLake(lake.Open()) }

// NewLake returns a lake reading through r (runner.Runner.Tables: the
// runner's database), which its Close closes.
func NewLake(r TableReader) *DeltaLake {
	return &DeltaLake{PreviewRows: 50, HistoryLimit: 50, r: r}
}

// Close closes the reader; later calls get ErrClosed.
func (l *DeltaLake) Close() error {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.closed {
		return nil
	}
	l.closed = true
	return l.r.Close()
}

// duck returns the reader, unless the lake is closed.
func (l *DeltaLake) duck(context.Context) (TableReader, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.closed {
		return nil, fmt.Errorf("lake: %w", ErrClosed)
	}
	return l.r, nil
}

// Stats implements Lake: the deep-validation facts of runner.GatherFacts
// (columns and rows per writer id of shared tables), and for every table
// the workspace writes, its version, row count and rows per where
// predicate.
func (l *DeltaLake) Stats(ctx context.Context, snap *workspace.Snapshot) (map[workspace.TableID]TableStats, error) {
	r, err := l.duck(ctx)
	if err != nil {
		return nil, err
	}
	return r.Stats(ctx, snap)
}

// Table implements Lake: the table's version, schema, partitioning,
// history and a preview of its first rows (its rows per writer come
// from Stats).
func (l *DeltaLake) Table(ctx context.Context, snap *workspace.Snapshot, id workspace.TableID) (*TableInfo, error) {
	t := snap.Table(id)
	if t == nil {
		return nil, fmt.Errorf("%w: %s", ErrNoTable, id)
	}
	r, err := l.duck(ctx)
	if err != nil {
		return nil, err
	}
	info, err := r.Table(ctx, t, lake.TableOptions{PreviewRows: l.PreviewRows, HistoryLimit: l.HistoryLimit})
	if err != nil {
		return nil, err
	}
	return tableInfo(info), nil
}
