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
}

// ErrClosed is returned by a history or lake used after its Close: a
// command still in flight when the program quits must not open (and
// create files in) what the program has closed.
var ErrClosed = errors.New("closed")

// NewHistoryFile returns the history kept in the SQLite file at path
// (Layout.StateDB()).
func NewHistoryFile(path string) *HistoryFile { return &HistoryFile{path: path} }

// Close closes the database if it was opened; later calls get ErrClosed.
func (h *HistoryFile) Close() error {
	h.mu.Lock()
	defer h.mu.Unlock()
	h.closed = true
	if h.store == nil {
		return nil
	}
	err := h.store.Close()
	h.store = nil
	return err
}

// open returns the store, or nil when the file does not exist yet.
func (h *HistoryFile) open(ctx context.Context) (*history.Store, error) {
	h.mu.Lock()
	defer h.mu.Unlock()
	if h.store != nil {
		return h.store, nil
	}
	if h.closed {
		return nil, fmt.Errorf("history %s: %w", h.path, ErrClosed)
	}
	if _, err := os.Stat(h.path); errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	s, err := history.Open(ctx, h.path)
	if err != nil {
		return nil, err
	}
	h.store = s
	return s, nil
}

// ListRuns implements History.
func (h *HistoryFile) ListRuns(ctx context.Context, p history.Page, f history.Filter) (history.RunPage, error) {
	s, err := h.open(ctx)
	if err != nil || s == nil {
		return history.RunPage{}, err
	}
	return s.ListRuns(ctx, p, f)
}

// RunDetail implements History.
func (h *HistoryFile) RunDetail(ctx context.Context, id int64) (history.RunDetail, error) {
	s, err := h.open(ctx)
	if err != nil {
		return history.RunDetail{}, err
	}
	if s == nil {
		return history.RunDetail{}, fmt.Errorf("run %d: %w", id, history.ErrNotFound)
	}
	return s.RunDetail(ctx, id)
}

// LastTasks implements History.
func (h *HistoryFile) LastTasks(ctx context.Context, pipeline string) ([]history.Task, error) {
	s, err := h.open(ctx)
	if err != nil || s == nil {
		return nil, err
	}
	return s.LastTasks(ctx, pipeline)
}
