package delta

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"time"
)

// putCommitFile creates commit file version v in logDir with content data,
// atomically and only if it does not exist yet (put-if-absent):
//
//  1. write data to a temporary file in logDir and fsync it;
//  2. os.Link it to the commit file name: the link either appears with
//     the whole content or fails with EEXIST when another writer already
//     created that version (readers never see a partial commit, and a
//     commit is never replaced);
//  3. make sure no writer that checks-then-renames replaced it (see
//     replacedByRenamer);
//  4. remove the temporary name and fsync logDir so the new name is
//     durable.
//
// created is false (with a nil error) when another writer won the
// version.
func putCommitFile(logDir string, v int64, data []byte) (created bool, err error) {
	return putIfAbsentLocal(logDir, CommitFileName(v), data)
}

// putIfAbsentLocal is putCommitFile for any file name of a folder
// (LocalStore.PutIfAbsent).
func putIfAbsentLocal(logDir, name string, data []byte) (created bool, err error) {
	f, err := os.CreateTemp(logDir, "_commit_*.json.tmp")
	if err != nil {
		return false, err
	}
	tmp := f.Name()
	defer RemoveFile(tmp) //nolint:errcheck // best effort: gone once linked or renamed
	if _, err := f.Write(data); err != nil {
		f.Close()
		return false, err
	}
	if err := f.Sync(); err != nil {
		f.Close()
		return false, err
	}
	if err := f.Close(); err != nil {
		return false, err
	}
	final := filepath.Join(logDir, name)
	if err := os.Link(tmp, final); err != nil {
		if errors.Is(err, fs.ErrExist) {
			return false, nil
		}
		return false, fmt.Errorf("link %s: %w (the filesystem must support hard links)", final, err)
	}
	if replacedByRenamer(logDir, name, tmp, final) {
		return false, nil
	}
	// The commit is visible from here on: it stands even if the folder
	// sync fails (the data files must not be cleaned up then).
	_ = syncDir(logDir)
	return true, nil
}

// Spark (Delta's HDFSLogStore, its default for local paths) commits
// version v by writing ".<v>.json.<uuid>.tmp" in the log, checking that
// <v>.json does not exist, then renaming the temporary file to it. On a
// local filesystem that rename replaces a file created between the check
// and the rename: a commit of ours made in that window would be silently
// overwritten (Spark then reports its own commit at v, and ours is lost).
const (
	// renamerWait bounds how long a commit waits for such a writer.
	renamerWait = 5 * time.Second
	// renamerStale is the age after which a temporary commit file is
	// left over by a writer that died, not one about to rename.
	renamerStale = 10 * time.Second
)

// replacedByRenamer reports whether the commit file final (name), just
// linked from tmp, was replaced by a check-then-rename writer of it. It
// waits while such a writer has a fresh temporary file for v (its rename
// may still come), then compares final with tmp: a replaced commit is a
// lost race, which the caller checks for conflicts and commits again at
// the next version.
func replacedByRenamer(logDir, name, tmp, final string) bool {
	deadline := time.Now().Add(renamerWait)
	for pause := time.Millisecond; renamerPending(logDir, name, time.Now()) && time.Now().Before(deadline); pause = min(2*pause, 20*time.Millisecond) {
		time.Sleep(pause)
	}
	a, errA := os.Stat(tmp)
	b, errB := os.Stat(final)
	return errA == nil && errB == nil && !os.SameFile(a, b)
}

// renamerPending reports whether logDir holds a recent temporary commit
// file for name (".<v>.json.<uuid>.tmp" for "<v>.json").
func renamerPending(logDir, name string, now time.Time) bool {
	prefix := "." + name + "."
	d, err := os.Open(logDir)
	if err != nil {
		return false
	}
	defer d.Close()
	names, _ := d.Readdirnames(-1)
	for _, n := range names {
		if !strings.HasPrefix(n, prefix) || !strings.HasSuffix(n, ".tmp") {
			continue
		}
		if fi, err := os.Stat(filepath.Join(logDir, n)); err == nil && now.Sub(fi.ModTime()) < renamerStale {
			return true
		}
	}
	return false
}

// syncDir fsyncs a folder, making the names created in it durable.
func syncDir(dir string) error {
	d, err := os.Open(dir)
	if err != nil {
		return err
	}
	defer d.Close()
	return d.Sync()
}
