package delta

import (
	"context"
	"errors"
	"fmt"
)

// ConflictError is a lost commit race the transaction cannot be rebased
// over: a winning commit changed something the transaction depends on.
// It wraps one of ErrConcurrentAppend, ErrConcurrentDeleteRead,
// ErrConcurrentDeleteDelete, ErrMetadataChanged, ErrProtocolChanged and
// ErrConcurrentTransaction. Nothing of the transaction is visible: its
// data files were deleted. Re-plan the operation on a new snapshot and try
// again (IsRetryable).
type ConflictError struct {
	Table       string
	ReadVersion int64
	// WinningVersion is the concurrent commit the transaction conflicts
	// with; WinningOperation its commitInfo.operation.
	WinningVersion   int64
	WinningOperation string
	// Detail says what conflicts (a file, a predicate, an appId).
	Detail string
	Err    error

	// created: the winner created the table this transaction was creating
	// (the error also matches ErrTableExists).
	created bool
}

func (e *ConflictError) Error() string {
	op := e.WinningOperation
	if op == "" {
		op = "unknown operation"
	}
	return fmt.Sprintf("table %s: commit conflicts with version %d (%s) committed after read version %d: %v: %s; re-read the table and retry",
		e.Table, e.WinningVersion, op, e.ReadVersion, e.Err, e.Detail)
}

func (e *ConflictError) Unwrap() error { return e.Err }

// Is reports whether the conflict also matches target beyond its sentinel:
// a transaction creating a table that another writer created first (at
// BeginCreate or at Commit) matches ErrTableExists too.
func (e *ConflictError) Is(target error) bool {
	return e.created && target == ErrTableExists
}

// tableCreatedConflict is the conflict of a transaction creating the table
// at root when another writer created it first: version is the winner's
// (an error reading its commitInfo only leaves the operation unknown).
func tableCreatedConflict(ctx context.Context, root string, version int64, detail string) *ConflictError {
	e := &ConflictError{Table: root, ReadVersion: -1, WinningVersion: version, Detail: detail,
		Err: ErrMetadataChanged, created: true}
	if c, err := readCommit(ctx, root, version); err == nil && c.Info != nil {
		e.WinningOperation = c.Info.Operation
	}
	return e
}

// conflictSentinels are the errors a conflicting commit fails with.
var conflictSentinels = []error{
	ErrConcurrentAppend, ErrConcurrentDeleteRead, ErrConcurrentDeleteDelete,
	ErrMetadataChanged, ErrProtocolChanged, ErrConcurrentTransaction,
}

// IsRetryable reports whether err is a commit conflict (one of the six
// conflict sentinels): the operation may succeed when re-planned on the
// table's new snapshot and committed again (with back-off). Every other
// error (bad input, unsupported table, I/O) is not retryable.
func IsRetryable(err error) bool {
	for _, s := range conflictSentinels {
		if errors.Is(err, s) {
			return true
		}
	}
	return false
}

// checkConflict checks one winning commit against the transaction in the
// order of Delta 4.4's ConflictChecker.checkConflicts
// (spark/src/main/scala/org/apache/spark/sql/delta/ConflictChecker.scala:
// 280-319), so that a winner breaking several rules is reported as Delta
// reports it: the protocol (checkProtocolCompatibility, l.325), the
// metadata (checkNoMetadataUpdates, l.643), the application transactions
// the transaction read (l.1219, checked before the files since Delta 3.x),
// then the files: added files the transaction should have read (l.1134),
// removed files it read (l.1167), removed files it removes too (l.1196).
// nil means the transaction can be rebased over the winner.
func (tx *Transaction) checkConflict(ctx context.Context, c *Commit) error {
	fail := func(sentinel error, format string, args ...any) *ConflictError {
		e := &ConflictError{Table: tx.root, ReadVersion: tx.ReadVersion(), WinningVersion: c.Version,
			Detail: fmt.Sprintf(format, args...), Err: sentinel}
		if c.Info != nil {
			e.WinningOperation = c.Info.Operation
		}
		return e
	}
	var (
		adds    []*Add
		removes []*Remove
		hasMeta bool
		proto   *Protocol
		txnApps []string
	)
	for _, a := range c.Actions {
		switch {
		case a.Add != nil:
			adds = append(adds, a.Add)
		case a.Remove != nil:
			removes = append(removes, a.Remove)
		case a.MetaData != nil:
			hasMeta = true
		case a.Protocol != nil:
			proto = a.Protocol
		case a.Txn != nil:
			txnApps = append(txnApps, a.Txn.AppID)
		}
	}
	if tx.creating {
		e := fail(ErrMetadataChanged, "the table was created by another writer first")
		e.created = true
		return e
	}
	if proto != nil {
		if err := tx.checkWinningProtocol(proto); err != nil {
			return fail(ErrProtocolChanged, "%s", err)
		}
	}
	if hasMeta {
		return fail(ErrMetadataChanged, "the concurrent commit changed the schema, partitioning or properties")
	}
	if tx.appTxn != nil {
		for _, app := range txnApps {
			if app == tx.appTxn.AppID {
				return fail(ErrConcurrentTransaction, "application %q committed a txn concurrently", app)
			}
		}
	}

	// Concurrent appends: adds the transaction's reads should have seen
	// (ConflictChecker.scala:1145-1151). A winner's adds are blind appends
	// when its commitInfo says isBlindAppend, else they are all "changed
	// data" (WinningCommitSummary.changedDataAddedFiles, dataChange or not:
	// the files an OPTIMIZE rewrote hold rows the transaction should have
	// read, so a delete racing it fails with DELTA_CONCURRENT_APPEND before
	// DELTA_CONCURRENT_DELETE_READ, as Spark's does). Serializable counts
	// both; WriteSerializable the changed-data adds only, unless this
	// transaction changes the metadata; SnapshotIsolation none.
	blind := c.Info != nil && c.Info.IsBlindAppend != nil && *c.Info.IsBlindAppend
	var blindAdds, changedAdds []*Add
	if blind {
		blindAdds = adds
	} else {
		changedAdds = adds
	}
	var checkAdds []*Add
	switch level := tx.commitIsolationLevel(); {
	case level == isolationWriteSerializable && tx.metadata == nil:
		checkAdds = changedAdds
	case level == isolationSerializable || level == isolationWriteSerializable:
		checkAdds = append(changedAdds, blindAdds...)
	}
	if len(checkAdds) > 0 {
		if tx.readWholeTable {
			return fail(ErrConcurrentAppend, "file %s was added while this transaction replaces the whole table", checkAdds[0].Path)
		}
		for _, p := range tx.readPredicates {
			match, err := tx.addsMayMatch(ctx, p, checkAdds)
			if err != nil {
				return err
			}
			if match != nil {
				return fail(ErrConcurrentAppend, "file %s was added with rows that may match the predicate %s", match.Path, p.sql)
			}
		}
	}

	// Files the transaction read that the winner removed (l.1167-1189).
	for _, r := range removes {
		if tx.readFiles[r.Key()] {
			return fail(ErrConcurrentDeleteRead, "file %s, read by this transaction, was removed", r.Path)
		}
	}
	if tx.readWholeTable && len(removes) > 0 {
		return fail(ErrConcurrentDeleteRead, "file %s was removed while this transaction replaces the whole table", removes[0].Path)
	}
	// Files removed by both (l.1196-1212).
	for _, r := range removes {
		if _, ok := tx.removes[r.Key()]; ok {
			return fail(ErrConcurrentDeleteDelete, "file %s was removed by both", r.Path)
		}
	}
	return nil
}

// addsMayMatch returns the first added file that may hold a row matching
// the read predicate p (nil when none can): exactly for predicates over
// partition columns only (evaluated in Go, or by DuckDB over the files'
// partition values when a Querier is available), from partition values and
// min/max stats otherwise (files without stats may match).
func (tx *Transaction) addsMayMatch(ctx context.Context, p *predicateInfo, adds []*Add) (*Add, error) {
	s := tx.read
	if p.goEval {
		if matches, ok := evalPartitions(s, p.parsed, adds); ok {
			for i, m := range matches {
				if m {
					return adds[i], nil
				}
			}
			return nil, nil
		}
	}
	if p.partitionOnly && tx.q != nil {
		matches, err := matchPartitions(ctx, tx.q, s, adds, p.sql)
		if err != nil {
			return nil, err
		}
		for i, m := range matches {
			if m {
				return adds[i], nil
			}
		}
		return nil, nil
	}
	for _, a := range adds {
		if p.parsed.mayMatch(&fileFacts{s: s, add: a}) {
			return a, nil
		}
	}
	return nil, nil
}
