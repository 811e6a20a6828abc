package checkpoint

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"sync"
)

// ErrBusy: another run (of this or another process) is using the
// streaming checkpoint; running the same flow twice at once would process
// its data twice or record offsets it did not write.
var ErrBusy = errors.New("streaming checkpoint in use by another run")

// Locks are the writer locks a run holds. Every sink a task writes
// has one, "<checkpoint folder>.lock" (beside the checkpoint, so that
// resetting the checkpoint keeps it; a batch sink has the path of the
// checkpoint it would have). A task takes the locks of its sinks before it
// touches anything, and keeps them until the run ends: exclusive for a
// streaming flow and for anything destructive (a FULL or RESET, deleting
// rows, resetting checkpoints), shared for a batch append. So two runs (in
// one process or several) never process one flow at once, and a refresh
// never deletes the rows of a writer another run is writing. The locks are
// file locks: the operating system releases them when the process dies.
type Locks struct {
	mu    sync.Mutex
	files map[string]*heldLock
}

type heldLock struct {
	f         *os.File
	exclusive bool
}

// errLocked is returned by tryLock when another open file holds the lock.
var errLocked = errors.New("locked")

// Lock takes the lock of the writer (or flow) whose checkpoint is dir,
// exclusive or shared, unless this run holds it already.
func (l *Locks) Lock(dir string, exclusive bool) error {
	dir = filepath.Clean(dir)
	l.mu.Lock()
	defer l.mu.Unlock()
	if h, held := l.files[dir]; held {
		if h.exclusive || !exclusive {
			return nil
		}
		// From shared to exclusive: flock may drop the shared lock when
		// the conversion fails, so the lock is given up then.
		if err := tryLock(h.f, true); err != nil {
			h.f.Close()
			delete(l.files, dir)
			return busyError(dir, err)
		}
		h.exclusive = true
		return nil
	}
	if err := os.MkdirAll(filepath.Dir(dir), 0o755); err != nil {
		return fmt.Errorf("%w: lock %s: %w", ErrCheckpoint, dir, err)
	}
	f, err := os.OpenFile(dir+".lock", os.O_RDWR|os.O_CREATE, 0o644)
	if err != nil {
		return fmt.Errorf("%w: lock %s: %w", ErrCheckpoint, dir, err)
	}
	if err := tryLock(f, exclusive); err != nil {
		f.Close()
		return busyError(dir, err)
	}
	if l.files == nil {
		l.files = map[string]*heldLock{}
	}
	l.files[dir] = &heldLock{f: f, exclusive: exclusive}
	return nil
}

func busyError(dir string, err error) error {
	if errors.Is(err, errLocked) {
		return fmt.Errorf("%w: %s: another run is processing this flow or writer (in the workbench or another `laktory run`); wait for it to end, then run again", ErrBusy, dir)
	}
	return fmt.Errorf("%w: lock %s: %w", ErrCheckpoint, dir, err)
}

// Exclusive reports whether the run holds the lock of dir exclusively.
func (l *Locks) Exclusive(dir string) bool {
	l.mu.Lock()
	defer l.mu.Unlock()
	h := l.files[filepath.Clean(dir)]
	return h != nil && h.exclusive
}

// ReleaseAll releases every lock the run holds.
func (l *Locks) ReleaseAll() {
	l.mu.Lock()
	defer l.mu.Unlock()
	for dir, h := range l.files {
		h.f.Close() // closing the file releases its lock
		delete(l.files, dir)
	}
}
