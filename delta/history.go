package delta

import (
	"context"
	"fmt"
	"time"
)

// HistoryEntry is one version of a table's history, from the commitInfo
// of its commit file.
type HistoryEntry struct {
	Version             int64          `json:"version"`
	Timestamp           time.Time      `json:"timestamp"`
	Operation           string         `json:"operation,omitempty"`
	OperationParameters map[string]any `json:"operationParameters,omitempty"`
	OperationMetrics    map[string]any `json:"operationMetrics,omitempty"`
	ReadVersion         *int64         `json:"readVersion,omitempty"`
	IsolationLevel      string         `json:"isolationLevel,omitempty"`
	IsBlindAppend       *bool          `json:"isBlindAppend,omitempty"`
	UserName            string         `json:"userName,omitempty"`
	// Engine is the writer: commitInfo.engineInfo (Spark) or clientVersion
	// (delta-rs).
	Engine string `json:"engine,omitempty"`
	// Info is the whole commitInfo (nil when the commit has none).
	Info *CommitInfo `json:"-"`
}

// History returns the table's history, newest first: one entry per
// commit file the log still holds (versions whose commit files were
// cleaned up are absent), at most limit entries (limit <= 0: all).
func (t *Table) History(ctx context.Context, limit int) ([]HistoryEntry, error) {
	l, err := listLog(ctx, t.root)
	if err != nil {
		return nil, err
	}
	if n := len(l.commits); n > 1 {
		l.fillGaps(t.root, l.commits[0], l.commits[n-1])
	}
	versions := l.commits
	if limit > 0 && len(versions) > limit {
		versions = versions[len(versions)-limit:]
	}
	commits, err := readCommitList(ctx, t.root, versions)
	if err != nil {
		return nil, err
	}
	out := make([]HistoryEntry, 0, len(commits))
	for i := len(commits) - 1; i >= 0; i-- {
		out = append(out, historyEntry(commits[i]))
	}
	return out, nil
}

func historyEntry(c *Commit) HistoryEntry {
	h := HistoryEntry{Version: c.Version, Timestamp: c.Timestamp, Info: c.Info}
	if ci := c.Info; ci != nil {
		h.Operation = ci.Operation
		h.OperationParameters = ci.OperationParameters
		h.OperationMetrics = ci.OperationMetrics
		h.ReadVersion = ci.ReadVersion
		h.IsolationLevel = ci.IsolationLevel
		h.IsBlindAppend = ci.IsBlindAppend
		h.UserName = ci.UserName
		h.Engine = ci.EngineInfo
		if h.Engine == "" {
			h.Engine = ci.ClientVersion
		}
	}
	return h
}

// ReadCommit reads the commit file of one version (every action, in file
// order). It fails with ErrVersionNotFound when the file does not exist
// and ErrCorruptLog (naming the file and line) when it does not parse.
func (t *Table) ReadCommit(ctx context.Context, version int64) (*Commit, error) {
	return readCommit(ctx, t.root, version)
}

// VersionChange is what one commit changed, as a streaming reader of the
// table (Spark's Delta source) sees it.
type VersionChange struct {
	Version   int64
	Timestamp time.Time
	Operation string
	// Adds are the commit's add actions with dataChange=true, in commit
	// order: the files a streaming reader emits for this version.
	Adds []*Add
	// RemovesData is true when the commit has a remove with
	// dataChange=true (a DELETE, UPDATE, MERGE or overwrite);
	// RemovedPath names one such file, for messages.
	RemovesData bool
	RemovedPath string
	// MetadataChanged / ProtocolChanged: the commit has a metaData /
	// protocol action (schema or property change, protocol upgrade).
	MetadataChanged bool
	ProtocolChanged bool
}

// ChangesSince returns the changes of every version after `after` up to
// the snapshot's version, oldest first (none when after >= Version()). A
// streaming reader that has processed version `after` calls it on a fresh
// snapshot. It fails with ErrVersionNotFound when a commit it needs was
// cleaned up from the log.
func (s *Snapshot) ChangesSince(ctx context.Context, after int64) ([]VersionChange, error) {
	if after < -1 {
		after = -1
	}
	if after >= s.version {
		return nil, nil
	}
	versions := make([]int64, 0, s.version-after)
	for v := after + 1; v <= s.version; v++ {
		versions = append(versions, v)
	}
	commits, err := readCommitList(ctx, s.root, versions)
	if err != nil {
		return nil, err
	}
	out := make([]VersionChange, len(commits))
	for i, c := range commits {
		vc := VersionChange{Version: c.Version, Timestamp: c.Timestamp}
		if c.Info != nil {
			vc.Operation = c.Info.Operation
		}
		for _, a := range c.Actions {
			switch {
			case a.Add != nil && a.Add.DataChange:
				vc.Adds = append(vc.Adds, a.Add)
			case a.Remove != nil && a.Remove.DataChange:
				if !vc.RemovesData {
					vc.RemovesData, vc.RemovedPath = true, a.Remove.Path
				}
			case a.MetaData != nil:
				vc.MetadataChanged = true
			case a.Protocol != nil:
				vc.ProtocolChanged = true
			}
		}
		out[i] = vc
	}
	return out, nil
}

// StreamOptions are the options of Spark's Delta streaming source that
// decide what happens to a commit that removes data.
type StreamOptions struct {
	// IgnoreDeletes tolerates commits that only delete data (their
	// deletes are not propagated).
	IgnoreDeletes bool
	// IgnoreChanges (deprecated in Spark) also tolerates commits that
	// rewrite data: their new files are emitted again (duplicates).
	IgnoreChanges bool
	// SkipChangeCommits skips every commit that removes data, its new
	// files included, without error.
	SkipChangeCommits bool
}

// StreamFiles applies Spark's Delta source rules
// (validateCommitAndDecideSkipping) to a version: it returns the files to
// emit, or an error wrapping ErrSourceIgnoreDelete /
// ErrSourceIgnoreChanges (Spark's DELTA_SOURCE_IGNORE_DELETE /
// DELTA_SOURCE_TABLE_IGNORE_CHANGES) that tells the user which option to
// set. table names the source in the message.
func (vc VersionChange) StreamFiles(table string, opts StreamOptions) ([]*Add, error) {
	if !vc.RemovesData {
		return vc.Adds, nil
	}
	switch {
	case opts.SkipChangeCommits:
		return nil, nil
	case len(vc.Adds) > 0 && opts.IgnoreChanges:
		return vc.Adds, nil
	case len(vc.Adds) > 0:
		return nil, fmt.Errorf("%w: detected a data update (for example %s) in the source table %s at version %d (%s); "+
			"to skip such commits set the option skipChangeCommits: true, or refresh the reader in full",
			ErrSourceIgnoreChanges, vc.RemovedPath, table, vc.Version, vc.Operation)
	case opts.IgnoreDeletes || opts.IgnoreChanges:
		return nil, nil
	}
	return nil, fmt.Errorf("%w: detected deleted data (for example %s) in the source table %s at version %d (%s); "+
		"to ignore deletes set the option ignoreDeletes: true (or skipChangeCommits: true)",
		ErrSourceIgnoreDelete, vc.RemovedPath, table, vc.Version, vc.Operation)
}

// readCommitList reads the given commit versions in parallel, in order.
func readCommitList(ctx context.Context, root string, versions []int64) ([]*Commit, error) {
	return readCommitsFunc(ctx, len(versions), func(i int) (*Commit, error) {
		return readCommit(ctx, root, versions[i])
	})
}
