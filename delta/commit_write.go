package delta

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
)

// putCommitFile creates commit file version v in logDir with content data,
// atomically and only if it does not exist yet (put-if-absent):
//
//  1. write data to a temporary file in logDir and fsync it;
//  2. os.Link it to the commit file name: the link either appears with
//     the whole content or fails with EEXIST when another writer already
//     created that version (readers never see a partial commit, and a
//     commit is never replaced);
//  3. remove the temporary name and fsync logDir so the new name is
//     durable.
//
// created is false (with a nil error) when another writer won the
// version.
func putCommitFile(logDir string, v int64, data []byte) (created bool, err error) {
	f, err := os.CreateTemp(logDir, "_commit_*.json.tmp")
	if err != nil {
		return false, err
	}
	tmp := f.Name()
	defer os.Remove(tmp)
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
	final := filepath.Join(logDir, CommitFileName(v))
	if err := os.Link(tmp, final); err != nil {
		if errors.Is(err, fs.ErrExist) {
			return false, nil
		}
		return false, fmt.Errorf("link %s: %w (the filesystem must support hard links)", final, err)
	}
	// The commit is visible from here on: it stands even if the folder
	// sync fails (the data files must not be cleaned up then).
	_ = syncDir(logDir)
	return true, nil
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

// writeFileAtomic writes data to path through a temporary file in the
// same folder and a rename (for files that may be replaced, such as
// checkpoints and _last_checkpoint).
func writeFileAtomic(path string, data []byte) error {
	dir := filepath.Dir(path)
	f, err := os.CreateTemp(dir, "."+filepath.Base(path)+".*.tmp")
	if err != nil {
		return err
	}
	tmp := f.Name()
	defer os.Remove(tmp)
	if _, err := f.Write(data); err != nil {
		f.Close()
		return err
	}
	if err := f.Sync(); err != nil {
		f.Close()
		return err
	}
	if err := f.Close(); err != nil {
		return err
	}
	return os.Rename(tmp, path)
}
