package checkpoint

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"

	"github.com/google/uuid"

	"github.com/laktory/workbench/delta"
)

// A held record is a small file that says what a live process is doing
// (the files a batch append moves into place, say) for as long as it holds
// the file's lock: another process that can take the lock knows the
// writer died in the middle, and undoes or finishes what the record names.
// The lock is the operating system's (flock), released when the process
// dies, so no clock or process id is trusted. Where there is no flock
// (not unix), every record counts as held: none is undone.

// HoldRecord writes b to path and holds its lock until release, which
// removes the record, then lets the lock go. The record appears complete
// (written to a temporary file, synced, renamed into place with its lock
// already held), so a reader never sees it half-written or unlocked by a
// live writer.
func HoldRecord(path string, b []byte) (release func() error, err error) {
	tmp := filepath.Join(filepath.Dir(path), "."+filepath.Base(path)+"."+uuid.NewString()+".tmp")
	f, err := os.OpenFile(tmp, os.O_RDWR|os.O_CREATE|os.O_EXCL, 0o644)
	if err != nil {
		return nil, fmt.Errorf("%w: record %s: %w", ErrCheckpoint, path, err)
	}
	fail := func(err error) (func() error, error) {
		f.Close()
		delta.RemoveFile(tmp) //nolint:errcheck // best effort
		return nil, fmt.Errorf("%w: record %s: %w", ErrCheckpoint, path, err)
	}
	if err := tryLock(f, true); err != nil {
		return fail(err)
	}
	if _, err := f.Write(b); err != nil {
		return fail(err)
	}
	if err := f.Sync(); err != nil {
		return fail(err)
	}
	if err := os.Rename(tmp, path); err != nil {
		return fail(err)
	}
	if d, err := os.Open(filepath.Dir(path)); err == nil {
		d.Sync() //nolint:errcheck // best effort: the rename is durable on most filesystems already
		d.Close()
	}
	return func() error {
		err := delta.RemoveFile(path)
		f.Close()
		if err != nil && !errors.Is(err, fs.ErrNotExist) {
			return fmt.Errorf("%w: clear the record %s: %w", ErrCheckpoint, path, err)
		}
		return nil
	}, nil
}

// TakeRecord takes the lock of the record at path when no live process
// holds it (held false) and returns its content; done removes the record
// and lets the lock go. A record a live process holds, or one removed
// meanwhile, is left (held true, or ok false with a nil error).
func TakeRecord(path string) (b []byte, done func() error, held bool, err error) {
	if !canLock {
		return nil, nil, exists(path), nil // no lock to tell a dead writer: leave it
	}
	f, err := os.OpenFile(path, os.O_RDWR, 0)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil, false, nil
	}
	if err != nil {
		return nil, nil, false, fmt.Errorf("%w: %s: %w", ErrCheckpoint, path, err)
	}
	if err := tryLock(f, true); err != nil {
		f.Close()
		if errors.Is(err, errLocked) {
			return nil, nil, true, nil
		}
		return nil, nil, false, fmt.Errorf("%w: %s: %w", ErrCheckpoint, path, err)
	}
	// Removed by its writer between the open and the lock: nothing to do.
	if st, err := os.Stat(path); err != nil || !sameFile(f, st) {
		f.Close()
		return nil, nil, false, nil
	}
	b, err = io.ReadAll(f)
	if err != nil {
		f.Close()
		return nil, nil, false, fmt.Errorf("%w: %s: %w", ErrCheckpoint, path, err)
	}
	return b, func() error {
		err := delta.RemoveFile(path)
		f.Close()
		if err != nil && !errors.Is(err, fs.ErrNotExist) {
			return fmt.Errorf("%w: clear the record %s: %w", ErrCheckpoint, path, err)
		}
		return nil
	}, false, nil
}

func sameFile(f *os.File, st fs.FileInfo) bool {
	fst, err := f.Stat()
	return err == nil && os.SameFile(fst, st)
}
