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
