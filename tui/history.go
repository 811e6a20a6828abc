package tui

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"sync"

	"github.com/laktory/workbench/runner/history"
)

// HistoryFile is the run history of a workspace, opened once its database
// exists: showing an empty history never creates the file (the first run
// does). It implements History and is safe for concurrent use.
type HistoryFile struct {
	path   string
	mu     sync.Mutex
	store  *history.Store
	closed bool
	// inUse counts the calls using store: Close waits for them, so that
	// no query still runs (and no SQLite connection still closes, which
	// writes the -wal and -shm files) once Close has returned.
	inUse sync.WaitGroup
}

// ErrClosed is returned by a history or lake used after its Close: a
// command still in flight when the program quits must not open (and
// create files in) what the program has closed.
var ErrClosed = errors.New("closed")

// NewHistoryFile returns the history kept in the SQLite file at path
// (Layout.StateDB()).
func NewHistoryFile(path string) *HistoryFile { return &HistoryFile{path: path} }

// Close waits for the calls in flight, then closes the database if it
// was opened; later calls get ErrClosed.
func (h *HistoryFile) Close() error {
	h.mu.Lock()
	h.closed = true
	h.mu.Unlock()
	h.inUse.Wait()
	h.mu.Lock()
	defer h.mu.Unlock()
	if h.store == nil {
		return nil
	}
	err := h.store.Close()
	h.store = nil
	return err
}

// open returns the store, or nil when the file does not exist yet, and
// the release the caller defers once done with it.
func (h *HistoryFile) open(ctx context.Context) (*history.Store, func(), error) {
	h.mu.Lock()
	defer h.mu.Unlock()
	if h.closed {
		return nil, nil, fmt.Errorf("history %s: %w", h.path, ErrClosed)
	}
	if h.store == nil {
		if _, err := os.Stat(h.path); errors.Is(err, fs.ErrNotExist) {
			return nil, func() {}, nil
		}
		s, err := history.Open(ctx, h.path)
		if err != nil {
			return nil, nil, err
		}
		h.store = s
	}
	h.inUse.Add(1)
	return h.store, h.inUse.Done, nil
}

// ListRuns implements History.
func (h *HistoryFile) ListRuns(ctx context.Context, p history.Page, f history.Filter) (history.RunPage, error) {
	s, release, err := h.open(ctx)
	if err != nil || s == nil {
		return history.RunPage{}, err
	}
	defer release()
	return s.ListRuns(ctx, p, f)
}

// RunDetail implements History.
func (h *HistoryFile) RunDetail(ctx context.Context, id int64) (history.RunDetail, error) {
	s, release, err := h.open(ctx)
	if err != nil {
		return history.RunDetail{}, err
	}
	defer release()
	if s == nil {
		return history.RunDetail{}, fmt.Errorf("run %d: %w", id, history.ErrNotFound)
	}
	return s.RunDetail(ctx, id)
}

// LastTasks implements History.
func (h *HistoryFile) LastTasks(ctx context.Context, pipeline string) ([]history.Task, error) {
	s, release, err := h.open(ctx)
	if err != nil || s == nil {
		return nil, err
	}
	defer release()
	return s.LastTasks(ctx, pipeline)
}
