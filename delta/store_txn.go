package delta

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"golang.org/x/sys/unix"
)

// FailUpload: a remote table's commit is uploading its data files (the
// hit counts the files: "delta.upload:2" stops after the first is up).
const FailUpload = "delta.upload"

// FailUploadPart: a multipart upload of a data file has sent a part (the
// hit counts the parts): the object is not visible, the upload is
// pending in the bucket.
const FailUploadPart = "delta.upload.part"

// FailCommitGated: a commit to a bucket table has written its marker
// under _laktory/commits/ and passed the lease check; its commit file is
// not written.
const FailCommitGated = "delta.commit.gated"

// A transaction on a remote table (an s3:// root) writes its data files
// and deletion vectors with DuckDB into a local staging folder laid out as
// the table is, uploads them before the commit, then commits with the
// store's put-if-absent: the commit protocol and the conflict checks are
// those of a local table. A transaction that fails, is aborted or loses a
// conflicting race deletes what it uploaded; a process killed before the
// commit leaves only unreferenced data files in the bucket (as Spark and
// delta-rs do: VACUUM removes them), never a commit without its files.

// remote reports whether the transaction's table is in an object store.
func (tx *Transaction) remote() bool { return IsRemoteLocation(tx.root) }

// writeRoot is the local folder DuckDB writes the table's new files in:
// the table folder itself, or a remote table's staging folder.
func (tx *Transaction) writeRoot() (string, error) {
	if !tx.remote() {
		return tx.root, nil
	}
	if tx.stage == "" {
		parent := StageDir()
		sweepStagesOnce.Do(func() { sweepStages(parent) })
		if err := os.MkdirAll(parent, 0o700); err != nil {
			return "", fmt.Errorf("table %s: a staging folder for its new files: %w", tx.root, err)
		}
		dir, err := os.MkdirTemp(parent, stagePrefix+"*")
		if err != nil {
			return "", fmt.Errorf("table %s: a staging folder for its new files: %w", tx.root, err)
		}
		// The owner's pid: a later process removes the folder of a writer
		// that was killed (sweepStages).
		if err := os.WriteFile(filepath.Join(dir, stageOwnerFile), []byte(strconv.Itoa(os.Getpid())), 0o644); err != nil {
			return "", fmt.Errorf("table %s: a staging folder for its new files: %w", tx.root, err)
		}
		tx.stage = dir
	}
	return tx.stage, nil
}

const (
	stagePrefix    = "laktory-stage-"
	stageOwnerFile = ".owner"
)

// StageDir is the folder the staging folders of remote transactions are
// made in: laktory-stages in the temporary folder. A sandboxed database
// that writes a remote table must be allowed to write there (and to read
// the object cache's folder).
func StageDir() string { return filepath.Join(os.TempDir(), "laktory-stages") }

var sweepStagesOnce sync.Once

// sweepStages removes the staging folders in dir of writers that no longer
// run (killed before they cleaned up): those whose owner process is gone,
// or with no owner and older than a day.
func sweepStages(dir string) {
	entries, err := os.ReadDir(dir)
	if err != nil {
		return
	}
	for _, e := range entries {
		if !e.IsDir() || !strings.HasPrefix(e.Name(), stagePrefix) {
			continue
		}
		stage := filepath.Join(dir, e.Name())
		if b, err := os.ReadFile(filepath.Join(stage, stageOwnerFile)); err == nil {
			pid, err := strconv.Atoi(strings.TrimSpace(string(b)))
			if err == nil && pid > 0 && (pid == os.Getpid() || unix.Kill(pid, 0) != unix.ESRCH) {
				continue // its writer runs
			}
		} else if info, err := e.Info(); err != nil || time.Since(info.ModTime()) < 24*time.Hour {
			continue
		}
		(&Transaction{stage: stage}).removeStage(false)
	}
}

// checkRemoteWritable refuses a transaction on a store whose commits
// would not be safe (see CheckWritable).
func checkRemoteWritable(root string) error {
	if !IsRemoteLocation(root) {
		return nil
	}
	st, err := storeFor(context.Background(), root)
	if err != nil {
		return err
	}
	return CheckWritable(st)
}

// uploadStaged uploads the staged data files and deletion vectors the
// commit references.
func (tx *Transaction) uploadStaged(ctx context.Context) error {
	st, err := storeFor(ctx, tx.root)
	if err != nil {
		return err
	}
	var files []string
	for _, a := range tx.adds {
		p, err := decodeLogPath(a.Path)
		if err != nil {
			return err
		}
		files = append(files, p)
	}
	for _, p := range tx.dvFiles {
		rel, err := filepath.Rel(tx.stage, p)
		if err != nil || strings.HasPrefix(rel, "..") {
			return fmt.Errorf("table %s: deletion vector %s is outside the staging folder", tx.root, p)
		}
		files = append(files, filepath.ToSlash(rel))
	}
	for _, rel := range files {
		if slices.Contains(tx.uploaded, rel) {
			continue
		}
		if err := ctx.Err(); err != nil {
			return err
		}
		FailPoint(FailUpload)
		local := filepath.Join(tx.stage, filepath.FromSlash(rel))
		f, err := os.Open(local)
		if err != nil {
			return fmt.Errorf("table %s: staged file %s: %w", tx.root, rel, err)
		}
		info, err := f.Stat()
		if err == nil {
			tx.uploaded = append(tx.uploaded, rel) // before the put: a cut upload is deleted too
			err = st.Put(ctx, rel, f, info.Size())
		}
		f.Close()
		if err != nil {
			return fmt.Errorf("table %s: uploading %s: %w", tx.root, rel, err)
		}
	}
	return nil
}

// putCommit creates commit file v with data (put-if-absent). created is
// false when another writer holds that version. A remote put whose answer
// is lost (a timeout, or a retry by the SDK that finds the object its
// first attempt made) is settled by reading the commit back: the same
// bytes are ours.
func (tx *Transaction) putCommit(ctx context.Context, logDir string, v int64, data []byte) (bool, error) {
	if !tx.remote() {
		return putCommitFile(logDir, v, data)
	}
	st, err := storeFor(ctx, tx.root)
	if err != nil {
		return false, err
	}
	key := logKey(CommitFileName(v))
	done, deadline, err := commitGate(ctx, st, tx.root)
	if err != nil {
		return false, err
	}
	defer done()
	FailPoint(FailCommitGated)
	if h := commitGatedHook.Load(); h != nil {
		(*h)(tx.root)
	}
	pctx := ctx
	if !deadline.IsZero() {
		var cancel context.CancelFunc
		pctx, cancel = context.WithDeadline(ctx, deadline)
		defer cancel()
	}
	perr := putLogFile(pctx, st, key, data, true)
	if perr == nil {
		return true, nil
	}
	if ctx.Err() != nil {
		return false, ctx.Err()
	}
	got, gerr := st.Get(context.WithoutCancel(ctx), key)
	switch {
	case gerr == nil && bytes.Equal(got, data):
		return true, nil // ours, though the answer said otherwise
	case gerr == nil:
		return false, nil // another writer's
	case errors.Is(perr, ErrObjectExists):
		return false, fmt.Errorf("commit %s: refused as existing, then not readable: %w", st.URI(key), gerr)
	}
	return false, perr
}

// commitGatedHook, set by tests, runs after a commit passed its lease
// check, before its PUT.
var commitGatedHook atomic.Pointer[func(root string)]

// cleanupRemote deletes what a transaction that does not commit uploaded,
// and its staging folder.
func (tx *Transaction) cleanupRemote() {
	if len(tx.uploaded) > 0 {
		if st, err := storeFor(context.Background(), tx.root); err == nil {
			for _, k := range tx.uploaded {
				st.Delete(context.Background(), k) //nolint:errcheck // best effort: an unreferenced file is harmless
			}
		}
		tx.uploaded = nil
	}
	tx.removeStage(false)
}

// removeStage removes the staging folder; after a commit (committed) its
// data files move into the object cache first, since the next scan of the
// table will read them.
func (tx *Transaction) removeStage(committed bool) {
	if tx.stage == "" {
		return
	}
	var dirs []string
	cache := DefaultObjectCache()
	filepath.WalkDir(tx.stage, func(p string, d fs.DirEntry, err error) error { //nolint:errcheck // best effort
		if err != nil {
			return nil //nolint:nilerr // best effort
		}
		if d.IsDir() {
			dirs = append(dirs, p)
			return nil
		}
		if committed {
			if rel, err := filepath.Rel(tx.stage, p); err == nil {
				if info, err := d.Info(); err == nil {
					dst := cache.entryPath(tx.root+"/"+filepath.ToSlash(rel), info.Size())
					if os.MkdirAll(filepath.Dir(dst), 0o755) == nil && os.Rename(p, dst) == nil {
						return nil
					}
				}
			}
		}
		RemoveFile(p) //nolint:errcheck // best effort
		return nil
	})
	slices.SortFunc(dirs, func(a, b string) int { return len(b) - len(a) })
	for _, d := range dirs {
		RemoveEmptyDir(d) //nolint:errcheck // best effort
	}
	tx.stage = ""
}
