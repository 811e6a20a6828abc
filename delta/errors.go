package delta

import (
	"errors"
	"fmt"
)

// Sentinel errors. Functions of this package wrap them with %w and a message
// that names the table, the version and the file involved, so callers test
// them with errors.Is and show err.Error() to the user as is.
var (
	// ErrNotDeltaTable: the folder has no _delta_log, or the log holds no
	// commit and no checkpoint.
	ErrNotDeltaTable = errors.New("not a Delta table")

	// ErrVersionsNotContiguous: a commit file is missing between the first
	// and the last version of the log (or the log starts after version 0
	// without a checkpoint to start from).
	ErrVersionsNotContiguous = errors.New("versions of the Delta log are not contiguous")

	// ErrVersionNotFound: the requested version (or the version a timestamp
	// resolves to) does not exist, or its log files were cleaned up.
	ErrVersionNotFound = errors.New("version not found in the Delta log")

	// ErrTimestampOutOfRange: a time-travel timestamp lies before the first
	// commit the log still holds.
	ErrTimestampOutOfRange = errors.New("timestamp before the earliest version of the table")

	// ErrMissingProtocol: replay found no protocol action.
	ErrMissingProtocol = errors.New("the Delta log has no protocol action")

	// ErrMissingMetadata: replay found no metaData action.
	ErrMissingMetadata = errors.New("the Delta log has no metaData action")

	// ErrUnsupportedProtocol: the table needs a reader (or writer) version
	// this package does not implement.
	ErrUnsupportedProtocol = errors.New("unsupported Delta protocol version")

	// ErrUnsupportedFeature: the table lists a reader (or writer) feature
	// this package does not implement.
	ErrUnsupportedFeature = errors.New("unsupported Delta table feature")

	// ErrCorruptLog: a commit or checkpoint file cannot be parsed, or breaks
	// a rule of the protocol (e.g. two metaData actions in one commit).
	ErrCorruptLog = errors.New("corrupt Delta log")

	// ErrMissingCheckpointPart: a checkpoint (a part of a multi-part one or
	// a sidecar of a V2 one) that replay needs is missing.
	ErrMissingCheckpointPart = errors.New("checkpoint file missing")

	// ErrMissingDataFile: a data file (or deletion vector file) listed in
	// the log does not exist on disk.
	ErrMissingDataFile = errors.New("data file listed in the Delta log is missing")

	// ErrPathEscapesTable: a path in the log resolves outside the table
	// folder.
	ErrPathEscapesTable = errors.New("path escapes the table folder")

	// ErrCorruptDeletionVector: a deletion vector cannot be decoded or fails
	// its checksum.
	ErrCorruptDeletionVector = errors.New("corrupt deletion vector")

	// ErrInvalidSchema: a schemaString (or a type name) is not a valid
	// Spark StructType / Delta type.
	ErrInvalidSchema = errors.New("invalid Delta schema")

	// ErrInvalidPartitionValue: a partition value in the log cannot be
	// parsed as the type of its column.
	ErrInvalidPartitionValue = errors.New("invalid partition value")

	// ErrUnknownColumn: a scan names a column the table does not have.
	ErrUnknownColumn = errors.New("unknown column")

	// ErrSourceIgnoreDelete: a streaming reader met a commit that deletes
	// data (Spark's DELTA_SOURCE_IGNORE_DELETE).
	ErrSourceIgnoreDelete = errors.New("DELTA_SOURCE_IGNORE_DELETE")

	// ErrSourceIgnoreChanges: a streaming reader met a commit that
	// rewrites data (Spark's DELTA_SOURCE_TABLE_IGNORE_CHANGES).
	ErrSourceIgnoreChanges = errors.New("DELTA_SOURCE_TABLE_IGNORE_CHANGES")
)

// LogFileError locates an error in one file of a table's log: which table,
// which version and which file (and line, for a JSON commit). It wraps the
// underlying cause, so errors.Is sees the sentinel.
type LogFileError struct {
	Table   string // table root folder
	Version int64  // log version the file belongs to (-1 when unknown)
	File    string // path of the file
	Line    int    // 1-based line for JSON commits, 0 otherwise
	Err     error
}

func (e *LogFileError) Error() string {
	loc := e.File
	if e.Line > 0 {
		loc = fmt.Sprintf("%s:%d", e.File, e.Line)
	}
	if e.Version >= 0 {
		return fmt.Sprintf("table %s, version %d (%s): %v", e.Table, e.Version, loc, e.Err)
	}
	return fmt.Sprintf("table %s (%s): %v", e.Table, loc, e.Err)
}

func (e *LogFileError) Unwrap() error { return e.Err }

// Sentinel errors of the write path (transactions, commits, deletes,
// checkpoints, drop). The six conflict errors are what a lost commit race
// can end in; IsRetryable reports them.
var (
	// ErrTableExists: BeginCreate (or Create) found a table (a _delta_log
	// with commits) already at the location, or lost the race to create it.
	// It comes as a *ConflictError wrapping ErrMetadataChanged (retryable:
	// another writer created the table since the caller looked; re-plan on
	// the new table).
	ErrTableExists = errors.New("Delta table already exists")

	// ErrConcurrentAppend: a concurrent commit added files that the
	// transaction's read (a delete predicate, an overwrite) should have
	// seen (Spark's DELTA_CONCURRENT_APPEND).
	ErrConcurrentAppend = errors.New("DELTA_CONCURRENT_APPEND: files were added by a concurrent update")

	// ErrConcurrentDeleteRead: a concurrent commit removed a file the
	// transaction read (DELTA_CONCURRENT_DELETE_READ).
	ErrConcurrentDeleteRead = errors.New("DELTA_CONCURRENT_DELETE_READ: a file the transaction read was deleted by a concurrent update")

	// ErrConcurrentDeleteDelete: a concurrent commit removed a file the
	// transaction also removes (DELTA_CONCURRENT_DELETE_DELETE).
	ErrConcurrentDeleteDelete = errors.New("DELTA_CONCURRENT_DELETE_DELETE: a file the transaction deletes was deleted by a concurrent update")

	// ErrMetadataChanged: a concurrent commit changed the table's metadata
	// (schema, partitioning, properties) (DELTA_METADATA_CHANGED).
	ErrMetadataChanged = errors.New("DELTA_METADATA_CHANGED: the table metadata was changed by a concurrent update")

	// ErrProtocolChanged: a concurrent commit changed the table's protocol
	// (DELTA_PROTOCOL_CHANGED).
	ErrProtocolChanged = errors.New("DELTA_PROTOCOL_CHANGED: the table protocol was changed by a concurrent update")

	// ErrConcurrentTransaction: a concurrent commit recorded a txn
	// (idempotent write) for an application id this transaction uses
	// (DELTA_CONCURRENT_TRANSACTION).
	ErrConcurrentTransaction = errors.New("DELTA_CONCURRENT_TRANSACTION: a concurrent update wrote a txn for the same application id")

	// ErrSchemaMismatch: data written to a table does not fit its schema
	// (a new column without schema merging, a type that cannot be cast
	// safely, a missing non-nullable column).
	ErrSchemaMismatch = errors.New("data does not match the table schema")

	// ErrConstraintViolation: written rows break a NOT NULL column, a
	// column invariant or a CHECK constraint of the table.
	ErrConstraintViolation = errors.New("table constraint violated")

	// ErrInvalidPredicate: a delete predicate is empty, is not a single
	// DuckDB SQL boolean expression, or names an unknown column.
	ErrInvalidPredicate = errors.New("invalid predicate")

	// ErrAppendOnly: the table has delta.appendOnly=true and the operation
	// would remove data.
	ErrAppendOnly = errors.New("table is append-only (delta.appendOnly=true)")

	// ErrOutsideRoots: a path to create, replace or remove does not lie
	// strictly inside one of a Guard's roots (symbolic links resolved).
	ErrOutsideRoots = errors.New("path is outside the allowed roots")

	// ErrProtectedPath: a Guard refused a path that must survive: the
	// filesystem root, the home folder, the current folder, one of its roots
	// or protected paths, or a folder holding one of them; or RemoveFile
	// was given a folder.
	ErrProtectedPath = errors.New("refusing to remove a protected folder")

	// ErrTransactionDone: the transaction was already committed or
	// aborted.
	ErrTransactionDone = errors.New("transaction already committed or aborted")
)
