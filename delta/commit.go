package delta

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"time"
)

// CommitLineError is returned by ParseCommit for a line that is not a
// valid action. Line is 1-based. It wraps ErrCorruptLog.
type CommitLineError struct {
	Line int
	Err  error
}

func (e *CommitLineError) Error() string {
	return fmt.Sprintf("line %d: %v", e.Line, e.Err)
}

func (e *CommitLineError) Unwrap() error { return e.Err }

// ParseCommit parses the content of a commit file (newline-delimited JSON,
// one action per line; the last line may or may not end with '\n', blank
// lines and '\r' are tolerated). Unknown actions and fields are ignored.
// A line that is not a JSON object gives a *CommitLineError wrapping
// ErrCorruptLog.
func ParseCommit(data []byte) ([]Action, error) {
	actions := make([]Action, 0, bytes.Count(data, []byte{'\n'})+1)
	line := 0
	for len(data) > 0 {
		line++
		var l []byte
		if i := bytes.IndexByte(data, '\n'); i >= 0 {
			l, data = data[:i], data[i+1:]
		} else {
			l, data = data, nil
		}
		l = bytes.TrimSpace(l)
		if len(l) == 0 {
			continue
		}
		if l[0] != '{' {
			return nil, &CommitLineError{Line: line, Err: fmt.Errorf("%w: not a JSON object: %s", ErrCorruptLog, truncate(string(l), 80))}
		}
		var a Action
		if err := json.Unmarshal(l, &a); err != nil {
			return nil, &CommitLineError{Line: line, Err: fmt.Errorf("%w: invalid JSON action (%v): %s", ErrCorruptLog, err, truncate(string(l), 80))}
		}
		if err := validateAction(&a); err != nil {
			return nil, &CommitLineError{Line: line, Err: err}
		}
		if !a.IsEmpty() {
			actions = append(actions, a)
		}
	}
	return actions, nil
}

// validateAction checks the fields replay relies on.
func validateAction(a *Action) error {
	switch {
	case a.Add != nil && a.Add.Path == "":
		return fmt.Errorf("%w: add action without a path", ErrCorruptLog)
	case a.Remove != nil && a.Remove.Path == "":
		return fmt.Errorf("%w: remove action without a path", ErrCorruptLog)
	case a.Txn != nil && a.Txn.AppID == "":
		return fmt.Errorf("%w: txn action without an appId", ErrCorruptLog)
	case a.Add != nil && a.Add.DeletionVector != nil && a.Add.DeletionVector.StorageType == "":
		return fmt.Errorf("%w: deletionVector without storageType in add %s", ErrCorruptLog, a.Add.Path)
	}
	return nil
}

// Commit is one version of a table's log, read from its commit file.
type Commit struct {
	Version int64
	// Timestamp is the commit time: commitInfo.inCommitTimestamp when set,
	// else commitInfo.timestamp, else the commit file's modification time.
	Timestamp time.Time
	// Info is the commit's commitInfo (nil when the commit has none).
	Info    *CommitInfo
	Actions []Action
}

// readLogFile reads a file of the log that never changes once written (a
// commit, a checkpoint's part): on a remote store through remoteCommits,
// when the latest listing of the log gave its ETag.
func readLogFile(ctx context.Context, st Store, key string) ([]byte, error) {
	if st.Capabilities().Local {
		return st.Get(ctx, key)
	}
	path := st.URI(key)
	data, etag, cached := remoteCommits.get(path)
	if cached {
		return data, nil
	}
	data, err := st.Get(ctx, key)
	if err == nil && etag != "" {
		remoteCommits.put(path, etag, data)
	}
	return data, err
}

// putLogFile writes a file of the log that never changes once written (a
// commit with put-if-absent, a checkpoint), and on a remote store keeps its
// bytes in remoteCommits under the ETag the server gave: the next snapshot
// of this process does not read back what it wrote. (A listing that gives
// another ETag for the object replaces that one: the bytes are read.) Only
// an *S3Store itself says the ETag: a store wrapping one (a test's) writes
// through its own methods.
func putLogFile(ctx context.Context, st Store, key string, data []byte, ifAbsent bool) error {
	ep, ok := st.(*S3Store)
	if !ok || int64(len(data)) > logCacheMaxObject {
		if ifAbsent {
			return st.PutIfAbsent(ctx, key, data)
		}
		return st.Put(ctx, key, bytes.NewReader(data), int64(len(data)))
	}
	put := ep.putETag
	if ifAbsent {
		put = ep.putIfAbsentETag
	}
	etag, err := put(ctx, key, data)
	if err == nil && etag != "" {
		uri := st.URI(key)
		remoteCommits.listed(uri, etag)
		remoteCommits.put(uri, etag, data)
	}
	return err
}

// readCommit reads and parses the commit file of version v.
func readCommit(ctx context.Context, root string, v int64) (*Commit, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	st, err := storeFor(ctx, root)
	if err != nil {
		return nil, err
	}
	key := logKey(CommitFileName(v))
	path := st.URI(key)
	data, err := readLogFile(ctx, st, key)
	if err != nil {
		if errors.Is(err, fs.ErrNotExist) {
			return nil, &LogFileError{Table: root, Version: v, File: path, Err: fmt.Errorf("%w: commit file is missing", ErrVersionNotFound)}
		}
		return nil, &LogFileError{Table: root, Version: v, File: path, Err: err}
	}
	actions, err := ParseCommit(data)
	if err != nil {
		le := &LogFileError{Table: root, Version: v, File: path, Err: err}
		var cle *CommitLineError
		if errors.As(err, &cle) {
			le.Line, le.Err = cle.Line, cle.Err
		}
		return nil, le
	}
	c := &Commit{Version: v, Actions: actions}
	for _, a := range actions {
		if a.CommitInfo != nil {
			c.Info = a.CommitInfo
			break
		}
	}
	c.Timestamp = commitTime(c.Info, func() time.Time {
		if info, err := st.Stat(ctx, key); err == nil {
			return info.ModTime
		}
		return time.Time{}
	})
	return c, nil
}

// commitTime picks a commit's timestamp (see Commit.Timestamp).
func commitTime(ci *CommitInfo, mtime func() time.Time) time.Time {
	if ci != nil {
		if ci.InCommitTimestamp != nil {
			return time.UnixMilli(*ci.InCommitTimestamp).UTC()
		}
		if ci.Timestamp > 0 {
			return time.UnixMilli(ci.Timestamp).UTC()
		}
	}
	return mtime().UTC()
}

// readCommitTimestamp returns the timestamp of version v (see
// Commit.Timestamp).
func readCommitTimestamp(ctx context.Context, root string, v int64) (time.Time, error) {
	c, err := readCommit(ctx, root, v)
	if err != nil {
		return time.Time{}, err
	}
	return c.Timestamp, nil
}
