package runner

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"sync"
)

// checkpointLocks are the streaming checkpoints a run holds. A run takes a
// checkpoint's lock before it resets the checkpoint or runs its flow, and
// keeps it until the run ends, so two runs (in one process or several)
// never work on one flow at once. The lock is an exclusive file lock on
// "<checkpoint>.lock", beside the checkpoint so that resetting the
// checkpoint (removing its folder) keeps the lock; the operating system
// releases it when the process dies.
type checkpointLocks struct {
	mu    sync.Mutex
	files map[string]*os.File
}

// errLocked is returned by tryLock when another open file holds the lock.
var errLocked = errors.New("locked")

// lock takes the lock of the checkpoint in dir, unless this run holds it.
func (l *checkpointLocks) lock(dir string) error {
	dir = filepath.Clean(dir)
	l.mu.Lock()
	defer l.mu.Unlock()
	if _, held := l.files[dir]; held {
		return nil
	}
	if err := os.MkdirAll(filepath.Dir(dir), 0o755); err != nil {
		return fmt.Errorf("%w: lock %s: %w", ErrCheckpoint, dir, err)
	}
	f, err := os.OpenFile(dir+".lock", os.O_RDWR|os.O_CREATE, 0o644)
	if err != nil {
		return fmt.Errorf("%w: lock %s: %w", ErrCheckpoint, dir, err)
	}
	if err := tryLock(f); err != nil {
		f.Close()
		if errors.Is(err, errLocked) {
			return fmt.Errorf("%w: %s: another run is processing this flow (in the workbench or another `laktory run`); wait for it to end, then run again", ErrCheckpointBusy, dir)
		}
		return fmt.Errorf("%w: lock %s: %w", ErrCheckpoint, dir, err)
	}
	if l.files == nil {
		l.files = map[string]*os.File{}
	}
	l.files[dir] = f
	return nil
}

// releaseAll releases every lock the run holds.
func (l *checkpointLocks) releaseAll() {
	l.mu.Lock()
	defer l.mu.Unlock()
	for dir, f := range l.files {
		f.Close() // closing the file releases its lock
		delete(l.files, dir)
	}
}
