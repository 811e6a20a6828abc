// Package engine is the seam between the runner, which plans and
// orchestrates refreshes, and the engine that executes them: the local
// one (DuckDB and package delta, runner/engine/local) or Apache Spark
// through Spark Connect (runner/engine/spark).
//
// What stays with the runner, whatever the engine: planning, the refresh
// matrix (FULL, RESET, reset_mode), ownership of rows in shared tables,
// commit-conflict retries, streaming checkpoints and micro-batch planning
// (which files and which commits a batch reads, decided by reading the
// Delta logs and landing folders in Go), writer locks, refresh intents and
// the run history. An engine executes what the runner decides:
//
//   - relations: a task's Session creates temporary views and tables over
//     SQL, runs statements and small queries (counts, checks) and reads
//     sources by format, as its engine reads them;
//   - rows in Go: Rows returns the rows of a query, each one JSON object
//     (what the runner hands to Go code: the writers of a ForEach sink);
//   - state files: SaveParquet writes the rows of a query as Parquet
//     files in a folder, which ReadFiles reads back (an update flow's
//     state, in its checkpoint);
//   - table operations: a Txn on one Delta table (create, append with an
//     application transaction for exactly-once micro-batches, overwrite,
//     delete by an owner predicate with the rows it deleted, truncate) that
//     commits once. Dropping a table and reading its log (history, facts)
//     are the runner's: the lake is a path both Go and the engine see.
//
// SQL the runner generates is written in the subset both engines read:
// identifiers in double quotes (a Spark session reads them as identifiers),
// string literals in single quotes, count(*) FILTER (WHERE ...), QUALIFY,
// SELECT * EXCEPT (...).
package engine

import (
	"context"
	"errors"

	"github.com/laktory/workbench/delta"
	"github.com/laktory/workbench/workspace"
)

// Names of the engines.
const (
	Local = "local"
	Spark = "spark"
)

// ErrUnsupported is an operation the engine cannot do (yet); the message
// says which and why.
var ErrUnsupported = errors.New("not supported by this engine")

// Info names an engine in the history and in messages.
type Info struct {
	// Name is Local or Spark.
	Name string `json:"engine"`
	// Remote is where the engine runs ("" for the local engine; a Spark
	// Connect address sc://host:port).
	Remote string `json:"remote,omitempty"`
	// Version is the engine's version (Spark's and Delta's for Spark).
	Version string `json:"version,omitempty"`
	// BucketLake says why the engine cannot read and write a lake in a
	// bucket ("": it can).
	BucketLake string `json:"-"`
}

// Engine executes the relations and table operations of runs. It is safe
// for concurrent use: each task opens its own Session.
type Engine interface {
	Info() Info
	// Open opens a task's session. Cancelling ctx of any call of the
	// session stops what the engine does for it (the Spark engine
	// interrupts its operations on the cluster).
	Open(ctx context.Context) (Session, error)
	// Unshare drops a relation a session's Share made.
	Unshare(ctx context.Context, rel string) error
	Close() error
}

// Column is a column of a relation; Type is the engine's type name.
type Column struct {
	Name string
	Type string
}

// CreateJoiner is a Session whose Begin honours delta.WriteOptions.JoinCreate:
// appends creating the same table may write side by side, the one that
// loses the race to create it joining the winner's table (the local
// engine's). Without it, the run's writers of a new table create it one
// after another.
type CreateJoiner interface {
	JoinsCreates() bool
}

// Session is one task's work area on an engine. Names of views and tables
// are plain identifiers (letters, digits, underscores). It is used by one
// goroutine at a time.
type Session interface {
	// Exec runs statements (no result).
	Exec(ctx context.Context, stmt string) error
	// QueryRow runs a query and scans its first row into dest (pointers
	// to int64, bool, *bool, string or any), as database/sql does.
	QueryRow(ctx context.Context, query string, dest ...any) error
	// Describe returns the columns of a query, bound but not run.
	Describe(ctx context.Context, query string) ([]Column, error)
	// CreateView creates (or replaces) the temporary view name over query.
	CreateView(ctx context.Context, name, query string) error
	// CreateTable materializes query into the temporary table name (read
	// any number of times, the same rows).
	CreateTable(ctx context.Context, name, query string) error
	// Share materializes query as name where every session of the engine
	// reads it (the output of a node for its downstream tasks) and returns
	// the relation to read it by (SQL: quoted, maybe qualified); it stays
	// until Engine.Unshare.
	Share(ctx context.Context, name, query string) (string, error)

	// ReadFiles returns a query reading data files of a format (CSV, JSON,
	// JSONL, PARQUET) with the reader options of src (nil: the defaults),
	// as the engine reads them.
	ReadFiles(ctx context.Context, files []string, format string, src *workspace.Source) (string, error)
	// ScanTable returns a query reading the Delta table snapshot snap
	// (restricted as opts says; opts.Where is SQL of the common subset).
	ScanTable(ctx context.Context, snap *delta.Snapshot, opts Scan) (string, error)

	// Rows runs query and returns its rows in Go, each one JSON object of
	// the form Rows describes, in the order the engine returns them.
	Rows(ctx context.Context, query string) (Rows, error)

	// SaveParquet writes the rows of query as Parquet files (part-*.parquet)
	// in the new folder dir, which the engine creates: state the runner
	// keeps between runs (an update flow's input and output), read back
	// with ReadFiles(PARQUET) of those files on either engine.
	SaveParquet(ctx context.Context, dir, query string) error

	// WriteFiles writes the rows of query as data files (a file sink):
	// the one file target, or part files in the new folder target, as w
	// says, and returns the rows written. The caller publishes them (it
	// writes to a staging path, then moves it into place).
	WriteFiles(ctx context.Context, target, query string, w FileWrite) (int64, error)

	// Begin starts a transaction on the Delta table at path: on snap, or
	// creating the table as def says when snap is nil.
	Begin(ctx context.Context, path string, snap *delta.Snapshot, def delta.TableDefinition, opts delta.WriteOptions) (Txn, error)

	// Close drops the session's temporary views and tables and ends it.
	Close() error
}

// FileWrite is how WriteFiles writes a file sink.
type FileWrite struct {
	// Format is PARQUET, CSV (with a header) or JSON (one object a line).
	Format string
	// Single: target is one file; otherwise a folder of part files
	// (part-<uuid>.<ext>), in Hive-style folders of PartitionBy.
	Single      bool
	PartitionBy []string
	// PolarsParts: partitions as polars' write_parquet(partition_by=...)
	// writes them: the partition columns kept in the files, each
	// partition's rows in one file named 0.<ext>.
	PolarsParts bool
	// JSONArray: a JSON file is one array of the rows (polars'
	// write_json), not a row a line.
	JSONArray bool
	// CSV are a CSV file's options (nil: a header, commas, '"', empty
	// nulls): a POLARS sink's write_csv writer_kwargs.
	CSV *CSVWrite
}

// CSVWrite are the options of a CSV file written (polars' write_csv:
// separator, include_header, null_value, quote_char).
type CSVWrite struct {
	Separator, Quote, Null string
	Header                 bool
}

// Rows are the rows of a query read in Go (a foreach.Source). Next
// returns the next row, or io.EOF after the last one; the slice is valid
// until the next call. Close releases them (the query, or the rows held).
//
// The form of each row is the same on every engine: one compact
// JSON object, the columns in order, null members kept (null); integers
// and booleans as JSON's; floating-point numbers as numbers, NaN and
// infinities as the strings "NaN", "Infinity", "-Infinity"; decimals as
// strings of their exact digits ("12.30"); timestamps with a time zone
// (Spark's TIMESTAMP) as RFC 3339 in UTC with microseconds
// (2024-01-02T03:04:05.000000Z), timestamps without (TIMESTAMP_NTZ)
// without an offset; dates 2024-01-02; binary values in base64; strings
// as JSON strings. Nested values (arrays, structs, maps) keep each
// engine's JSON form of their members.
type Rows interface {
	Next() ([]byte, error)
	Close() error
}

// Scan restricts a table scan.
type Scan struct {
	// Columns are the columns to return, in order (nil: all).
	Columns []string
	// Where keeps the rows for which it is true ("": all).
	Where string
	// Files, when not nil, are the only files to read; Versions[i] is the
	// version of the table at which Files[i] was added (a stream reads
	// each file as its commit added it).
	Files    []*delta.Add
	Versions []int64
}

// Txn is a transaction on one Delta table: operations staged, then one
// commit. The local engine writes data files as operations come and
// commits at Commit; Spark runs the operation at Commit.
type Txn interface {
	// SetAppTransaction makes the commit carry txn(appID, version); done
	// reports that the table already holds it (the commit is skipped: call
	// Abort).
	SetAppTransaction(appID string, version int64) (done bool, err error)
	// Append, Overwrite, Delete and Truncate stage the operation (one per
	// transaction for the Spark engine).
	Append(ctx context.Context, query string) error
	Overwrite(ctx context.Context, query string) error
	Delete(ctx context.Context, predicate string) error
	Truncate(ctx context.Context) error
	// Merge stages a Delta MERGE of spec into the table (one per
	// transaction). The local engine returns its rows at once; Spark's
	// are the commit's (CommitResult.Merge).
	Merge(ctx context.Context, spec delta.MergeSpec) (delta.MergeMetrics, error)
	// KeyScan returns a query reading the columns cols of the table's
	// rows that can match a key of the relation rel (keys name rel's
	// columns by Source): a query joining rel with it on the keys sees
	// every row of the table it could match, and a concurrent commit
	// changing them conflicts with this transaction.
	KeyScan(ctx context.Context, rel string, keys []delta.MergeKey, cols []string) (string, error)
	// AddedRows counts the rows staged so far (-1 when unknown before the
	// commit).
	AddedRows() int64
	// Commit commits; the error of a lost race matches delta.IsRetryable.
	Commit(ctx context.Context) (*delta.CommitResult, error)
	Abort()
}
