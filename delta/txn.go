package delta

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/google/uuid"
)

// This file holds the write transaction: what a commit will hold and how
// it is committed (optimistic concurrency: put-if-absent of the next
// version, conflict checks against the winners on a lost race, rebase).

// DefaultTargetFileSize is the size at which data files of unpartitioned
// tables are cut when neither WriteOptions.TargetFileSize nor the table
// property delta.targetFileSize says otherwise.
const DefaultTargetFileSize int64 = 128 << 20

// DefaultCheckpointInterval is the number of commits between checkpoints
// when delta.checkpointInterval is not set (as Spark).
const DefaultCheckpointInterval = 10

// maxCommitAttempts bounds how many times one commit is rebased over
// winners that do not conflict with it.
const maxCommitAttempts = 1000

// EngineInfo is written to commitInfo.engineInfo unless
// WriteOptions.EngineInfo says otherwise.
const EngineInfo = "laktory-workbench"

// WriteOptions tune a transaction.
type WriteOptions struct {
	// TargetFileSize is the size (bytes) at which the data files of an
	// unpartitioned table are cut; 0 takes the table property
	// delta.targetFileSize, else DefaultTargetFileSize. Partitioned tables
	// get one file per partition per write (DuckDB cannot cut partitioned
	// output by size).
	TargetFileSize int64
	// MergeSchema lets Append add the query's new columns to the table
	// (as nullable columns, in a metaData action of the same commit).
	// Without it, a new column fails with ErrSchemaMismatch.
	MergeSchema bool
	// OverwriteSchema lets Overwrite replace the table schema with the
	// query's (partition columns and properties are kept).
	OverwriteSchema bool
	// EngineInfo goes to commitInfo.engineInfo (default EngineInfo).
	EngineInfo string
	// UserMetadata goes to commitInfo.userMetadata.
	UserMetadata string
	// Progress, when set, is told how far the data files of each operation
	// are written: while they are written (from another goroutine, every
	// ProgressInterval) and once when they are (Done).
	Progress func(WriteProgress)
	// ProgressInterval is how often Progress is told (default a quarter of
	// a second).
	ProgressInterval time.Duration
	// ForEachBatch: the transaction is a batch write of a streaming
	// query's foreachBatch: its txn does not make the commit a STREAMING
	// UPDATE (it is a WRITE, as Spark logs it).
	ForEachBatch bool
	// JoinCreate lets a transaction that creates the table and only
	// appends to it (no txn, no other operation) join the table another
	// writer created first instead of failing with a conflict: when the
	// winning version 0 has the protocol and metadata this transaction
	// would have written (schema, partition columns, configuration, name
	// and description) and no column mapping is in use, the data files
	// already written are committed as a blind append (WRITE, mode
	// Append) on it. Writers of a new table then write their files side
	// by side rather than one after another.
	JoinCreate bool
}

// TableDefinition describes a table to create.
type TableDefinition struct {
	// Schema is the table schema. BeginCreate accepts nil: the first
	// Append then defines it from its query. Create requires it.
	Schema *StructType
	// PartitionColumns are columns of Schema, in partition order.
	PartitionColumns []string
	// Properties become metaData.configuration. Properties such as
	// delta.enableDeletionVectors=true, delta.columnMapping.mode=name or
	// delta.feature.<name>=supported raise the protocol to (3, 7) with
	// just the features they need.
	Properties map[string]string
	// Name and Description are optional metaData fields.
	Name, Description string
}

// Transaction is a write transaction on one table: it starts from a
// snapshot (the read version), stages operations (Append, Delete,
// Overwrite, Truncate, SetAppTransaction) that write their data files
// right away, and publishes them all atomically with Commit, or removes
// them with Abort. Operations apply in order: a Delete sees the rows of an
// earlier Append of the same transaction.
//
// A Transaction is not safe for concurrent use. The Querier passed to an
// operation must stay usable until Commit or Abort returns (conflict
// checks may evaluate predicates with it).
type Transaction struct {
	root     string
	read     *Snapshot // read snapshot; nil when creating the table
	view     *Snapshot // the table as the staged operations leave it
	opts     WriteOptions
	creating bool
	def      TableDefinition // the definition of a table being created
	start    time.Time

	protocol *Protocol // protocol action to write (create, upgrade)
	metadata *Metadata // metaData action to write (create, schema change)
	adds     []*Add    // data files written by this transaction
	// dvAdds re-add files of the table with a new deletion vector (their
	// removes are in removes); dvFiles are the DV files written for them.
	dvAdds  []*Add
	dvFiles []string
	// optimized are the files Optimize wrote.
	optimized []*Add
	removes   map[FileKey]*Remove
	appTxn    *Txn
	merge     *mergeInfo // the MERGE staged, if any

	readPredicates []*predicateInfo
	readWholeTable bool
	readFiles      map[FileKey]bool

	// createdDirs are the folders a creating transaction made (the table
	// folder and its missing parents, then _delta_log), outermost first:
	// removed again, when empty, if the transaction does not commit.
	createdDirs []string

	// stage is a remote table's local staging folder for new files, and
	// uploaded the keys uploaded from it (see store_txn.go).
	stage    string
	uploaded []string

	kinds   []string // operations staged, in order
	metrics OperationMetrics
	q       Querier // the last Querier an operation used
	skipped bool
	done    bool
}

// OperationMetrics are the totals of a transaction's operations.
type OperationMetrics struct {
	AddedFiles   int   `json:"addedFiles"`
	AddedRows    int64 `json:"addedRows"`
	AddedBytes   int64 `json:"addedBytes"`
	RemovedFiles int   `json:"removedFiles"`
	RemovedBytes int64 `json:"removedBytes"`
	// DeletedRows are rows removed by Delete, Overwrite and Truncate
	// (known only when the removed files have stats or were scanned).
	DeletedRows int64 `json:"deletedRows"`
	// CopiedRows are rows Delete rewrote into new files.
	CopiedRows int64 `json:"copiedRows"`
	// DVsAdded and DVsUpdated count files that got a deletion vector or
	// had theirs extended; DVsRemoved removed files that had one.
	DVsAdded   int `json:"deletionVectorsAdded"`
	DVsUpdated int `json:"deletionVectorsUpdated"`
	DVsRemoved int `json:"deletionVectorsRemoved"`
}

// CommitResult tells what Commit did.
type CommitResult struct {
	// Version is the committed version; the read version when nothing
	// was committed (Committed false).
	Version     int64 `json:"version"`
	ReadVersion int64 `json:"readVersion"`
	// Committed is false when the transaction had nothing to commit (e.g.
	// a delete that matched no row) or was Skipped.
	Committed bool `json:"committed"`
	// Skipped is true when SetAppTransaction found the table already
	// holds this (appId, version): nothing was written.
	Skipped bool `json:"skipped"`
	// Operation is commitInfo.operation (WRITE, DELETE, ...).
	Operation string `json:"operation"`
	// Rebases counts lost races the commit survived because the winners
	// did not conflict with it.
	Rebases int              `json:"rebases"`
	Metrics OperationMetrics `json:"metrics"`
	// Merge are the metrics of the transaction's MERGE (nil without one).
	Merge *MergeMetrics `json:"merge,omitempty"`
	// Checkpoint is the path of the checkpoint written after the commit
	// ("" when none was due). CheckpointErr is a checkpoint that failed:
	// the commit stands; the error is a warning.
	Checkpoint    string `json:"checkpoint,omitempty"`
	CheckpointErr error  `json:"-"`
}

// Begin starts a transaction on the table's latest version.
func (t *Table) Begin(ctx context.Context, opts WriteOptions) (*Transaction, error) {
	s, err := t.Snapshot(ctx)
	if err != nil {
		return nil, err
	}
	return s.Begin(opts)
}

// Begin starts a transaction reading this snapshot: its version is the
// read version conflicts are checked from. It fails with
// ErrUnsupportedProtocol / ErrUnsupportedFeature when this package cannot
// write the table.
func (s *Snapshot) Begin(opts WriteOptions) (*Transaction, error) {
	if err := checkWritableSnapshot(s); err != nil {
		return nil, err
	}
	if err := checkRemoteWritable(s.root); err != nil {
		return nil, err
	}
	return &Transaction{
		root: s.root, read: s, view: s, opts: opts, start: time.Now(),
		removes: map[FileKey]*Remove{}, readFiles: map[FileKey]bool{},
	}, nil
}

// BeginCreate starts a transaction that creates the table at root: its
// commit is version 0 (protocol, metaData and any data the transaction
// appends). def.Schema may be nil: the first Append defines it. The table
// folder (and its missing parents) is created when the transaction first
// writes; a transaction that fails, is aborted or loses the race leaves no
// folder it created behind (unless another writer's table is in it).
//
// When root already holds a table, another writer created it since the
// caller looked: BeginCreate fails with a *ConflictError wrapping
// ErrMetadataChanged that also matches ErrTableExists, as Commit does when
// it loses the race to another creator. Both are retryable: re-plan on the
// new table (append to it).
func BeginCreate(root string, def TableDefinition, opts WriteOptions) (*Transaction, error) {
	abs, err := normalizeRoot(root)
	if err != nil {
		return nil, err
	}
	if err := checkRemoteWritable(abs); err != nil {
		return nil, err
	}
	if err := checkNoTable(abs); err != nil {
		return nil, err
	}
	tx := &Transaction{root: abs, opts: opts, creating: true, start: time.Now(),
		removes: map[FileKey]*Remove{}, readFiles: map[FileKey]bool{}}
	schema := def.Schema
	if schema == nil {
		schema = &StructType{}
	}
	if err := tx.define(schema, def); err != nil {
		return nil, err
	}
	tx.kinds = append(tx.kinds, opCreate)
	return tx, nil
}

// checkNoTable fails with a table-created conflict (ErrMetadataChanged,
// ErrTableExists) when root has a log with commits.
func checkNoTable(root string) error {
	l, err := listLog(context.Background(), root)
	if errors.Is(err, ErrNotDeltaTable) {
		return checkNotAdopted(root)
	}
	if err != nil {
		return err
	}
	first := l.latest()
	if len(l.commits) > 0 {
		first = l.commits[0]
	}
	return tableCreatedConflict(context.Background(), root, first,
		fmt.Sprintf("a table already exists at this location (latest version %d): %v", l.latest(), ErrTableExists))
}

// checkNotAdopted refuses to create a table in a local folder that holds
// anything a table's writer would not have put there (a user's files, a
// folder): creating the table would adopt that folder, and a later drop
// of the table would delete what it held. A folder that does not exist,
// is empty, or holds only data files (part-*, deletion_vector_*),
// partition folders (col=value), hidden or _-prefixed entries (a failed create's leftovers, an empty _delta_log) is fine.
func checkNotAdopted(root string) error {
	if IsRemoteLocation(root) {
		return nil
	}
	entries, err := os.ReadDir(root)
	if err != nil {
		return nil // missing (created by the commit) or unreadable (the commit says)
	}
	var foreign []string
	for _, e := range entries {
		name := e.Name()
		switch {
		case strings.HasPrefix(name, ".") || strings.HasPrefix(name, "_"):
			continue
		case e.IsDir() && strings.Contains(name, "="): // a partition folder (col=value)
			continue
		case !e.IsDir() && (strings.HasPrefix(name, "part-") || strings.HasPrefix(name, "deletion_vector_")):
			continue
		}
		foreign = append(foreign, name)
	}
	if len(foreign) == 0 {
		return nil
	}
	more := ""
	if len(foreign) > 3 {
		foreign, more = foreign[:3], ", ..."
	}
	return fmt.Errorf("%w: refusing to create a table in %s: the folder exists and holds %s%s, which no Delta table wrote; move them away or write the table elsewhere",
		ErrNotDeltaTable, root, strings.Join(foreign, ", "), more)
}

// define sets the protocol and metadata of a table being created.
func (tx *Transaction) define(schema *StructType, def TableDefinition) error {
	props := map[string]string{}
	for k, v := range def.Properties {
		if !strings.HasPrefix(k, PropFeaturePrefix) {
			props[k] = v
		}
	}
	if err := checkIsolationLevel(tx.root, props); err != nil {
		return err
	}
	mode := ColumnMappingMode(props[PropColumnMappingMode])
	mapping := mode == ColumnMappingName || mode == ColumnMappingID
	tx.def = def
	if len(schema.Fields) > 0 {
		if err := validateSchema(schema, def.PartitionColumns, tx.root, mapping); err != nil {
			return err
		}
	}
	p, err := createProtocol(schema, def.Properties)
	if err != nil {
		return fmt.Errorf("table %s: %w", tx.root, err)
	}
	if mapping {
		schema = assignColumnMapping(schema, props)
	}
	created := time.Now().UnixMilli()
	m := Metadata{ID: uuid.NewString(), Name: def.Name, Description: def.Description,
		SchemaString: schema.String(), PartitionColumns: slices.Clone(def.PartitionColumns),
		Configuration: props, CreatedTime: &created}
	tx.protocol, tx.metadata = &p, &m
	view, err := viewSnapshot(tx.root, -1, p, m, schema, nil)
	if err != nil {
		return err
	}
	tx.view = view
	return nil
}

// viewSnapshot builds an in-memory snapshot (the state a transaction
// stages).
func viewSnapshot(root string, version int64, p Protocol, m Metadata, schema *StructType, files []*Add) (*Snapshot, error) {
	s := &Snapshot{root: root, version: version, checkpointVersion: -1, protocol: p, metadata: m,
		schema: schema, mapping: ColumnMappingNone, files: files, txns: map[string]Txn{}, domains: map[string]DomainMetadata{}}
	if p.columnMappingEnabled() {
		switch mode := ColumnMappingMode(m.Configuration[PropColumnMappingMode]); mode {
		case ColumnMappingName, ColumnMappingID:
			s.mapping = mode
		}
	}
	return s, nil
}

// derive returns a copy of the view with other files (and, when not nil,
// another protocol, metadata and schema).
func (s *Snapshot) derive(p *Protocol, m *Metadata, schema *StructType, files []*Add) *Snapshot {
	c := *s
	if p != nil {
		c.protocol = *p
	}
	if m != nil {
		c.metadata = *m
	}
	if schema != nil {
		c.schema = schema
		if c.protocol.columnMappingEnabled() {
			switch mode := ColumnMappingMode(c.metadata.Configuration[PropColumnMappingMode]); mode {
			case ColumnMappingName, ColumnMappingID:
				c.mapping = mode
			default:
				c.mapping = ColumnMappingNone
			}
		}
	}
	if files != nil {
		c.files = files
	}
	return &c
}

// Root is the table folder.
func (tx *Transaction) Root() string { return tx.root }

// ReadVersion is the version the transaction read (-1 when creating).
func (tx *Transaction) ReadVersion() int64 {
	if tx.read == nil {
		return -1
	}
	return tx.read.version
}

// Snapshot is the read snapshot (nil when creating the table).
func (tx *Transaction) Snapshot() *Snapshot { return tx.read }

// Schema is the table schema as the staged operations leave it.
func (tx *Transaction) Schema() *StructType { return tx.view.schema }

// Metrics are the totals of the operations staged so far.
func (tx *Transaction) Metrics() OperationMetrics { return tx.metrics }

// Skipped reports whether SetAppTransaction found the write already
// committed: the other operations then do nothing and Commit commits
// nothing.
func (tx *Transaction) Skipped() bool { return tx.skipped }

// SetAppTransaction makes the commit record txn(appID, version), the
// idempotent-write marker of streaming writers. When the read snapshot
// already holds a version >= version for appID, the write was committed
// before: SetAppTransaction returns true, the transaction is skipped
// (operations staged before are undone, later ones do nothing, Commit
// reports Skipped). A concurrent commit recording a txn for the same
// appID fails Commit with ErrConcurrentTransaction (retryable: re-plan
// and call SetAppTransaction on the new snapshot).
func (tx *Transaction) SetAppTransaction(appID string, version int64) (alreadyCommitted bool, err error) {
	if err := tx.usable(); err != nil {
		return false, err
	}
	if appID == "" {
		return false, fmt.Errorf("table %s: SetAppTransaction needs an application id", tx.root)
	}
	if tx.read != nil {
		if v, ok := tx.read.AppTransactionVersion(appID); ok && v >= version {
			tx.skipped = true
			tx.cleanupFiles()
			return true, nil
		}
	}
	now := time.Now().UnixMilli()
	tx.appTxn = &Txn{AppID: appID, Version: version, LastUpdated: &now}
	return false, nil
}

func (tx *Transaction) usable() error {
	if tx.done {
		return fmt.Errorf("%w (table %s)", ErrTransactionDone, tx.root)
	}
	return nil
}

// removeFiles stages the removal of live files of the view (files this
// transaction wrote itself are deleted from disk instead).
func (tx *Transaction) removeFiles(files []*Add) {
	if len(files) == 0 {
		return
	}
	gone := make(map[FileKey]bool, len(files))
	for _, f := range files {
		k := f.Key()
		gone[k] = true
		tx.metrics.RemovedFiles++
		tx.metrics.RemovedBytes += f.Size
		if i := slices.Index(tx.dvAdds, f); i >= 0 {
			// The file's remove (with the DV it had) is staged already.
			tx.dvAdds = slices.Delete(tx.dvAdds, i, i+1)
			continue
		}
		if i := slices.Index(tx.adds, f); i >= 0 {
			tx.adds = slices.Delete(tx.adds, i, i+1)
			tx.metrics.AddedFiles--
			tx.metrics.AddedBytes -= f.Size
			tx.metrics.RemovedFiles--
			tx.metrics.RemovedBytes -= f.Size
			if n, ok := f.NumRecords(); ok {
				tx.metrics.AddedRows -= n
			}
			if p, err := resolveTablePath(tx.root, f.Path); err == nil {
				RemoveFile(p)
			}
			continue
		}
		if f.DeletionVector != nil {
			tx.metrics.DVsRemoved++
		}
		tx.removes[k] = tx.removeAction(f)
	}
	live := make([]*Add, 0, len(tx.view.files))
	for _, f := range tx.view.files {
		if !gone[f.Key()] {
			live = append(live, f)
		}
	}
	tx.view = tx.view.derive(nil, nil, nil, live)
}

// removeAction is the remove of a live file (with its deletion vector).
func (tx *Transaction) removeAction(f *Add) *Remove {
	now := time.Now().UnixMilli()
	ext := true
	size := f.Size
	return &Remove{Path: f.Path, DeletionTimestamp: &now, DataChange: true,
		ExtendedFileMetadata: &ext, PartitionValues: nonNilMap(f.PartitionValues), Size: &size,
		DeletionVector: f.DeletionVector, BaseRowID: f.BaseRowID, DefaultRowCommitVersion: f.DefaultRowCommitVersion}
}

// addFiles stages data files this transaction wrote.
func (tx *Transaction) addFiles(adds []*Add) {
	tx.adds = append(tx.adds, adds...)
	live := make([]*Add, 0, len(tx.view.files)+len(adds))
	live = append(live, tx.view.files...)
	live = append(live, adds...)
	tx.view = tx.view.derive(nil, nil, nil, live)
	for _, a := range adds {
		tx.metrics.AddedFiles++
		tx.metrics.AddedBytes += a.Size
		if n, ok := a.NumRecords(); ok {
			tx.metrics.AddedRows += n
		}
	}
}

func nonNilMap(m map[string]*string) map[string]*string {
	if m == nil {
		return map[string]*string{}
	}
	return m
}

// Abort removes the data files the transaction wrote; nothing is
// committed. Aborting a committed transaction is an error.
func (tx *Transaction) Abort() error {
	if tx.done {
		return fmt.Errorf("%w (table %s)", ErrTransactionDone, tx.root)
	}
	tx.done = true
	tx.cleanupFiles()
	return nil
}

// cleanupFiles deletes the data files the transaction wrote and, for a
// transaction creating the table, the folders it made for them.
func (tx *Transaction) cleanupFiles() {
	var dirs []string
	for _, a := range tx.adds {
		if p, err := resolveTablePath(tx.root, a.Path); err == nil {
			RemoveFile(p)
			dirs = append(dirs, filepath.Dir(p))
		}
	}
	tx.adds = nil
	for _, p := range tx.dvFiles {
		RemoveFile(p)
	}
	tx.dvFiles, tx.dvAdds = nil, nil
	if tx.remote() {
		tx.cleanupRemote()
		return
	}
	if tx.creating {
		tx.removeCreatedDirs(dirs)
	}
}

// mkdirCreating makes dir and its missing parents for a transaction
// creating the table, remembering the folders it created.
func (tx *Transaction) mkdirCreating(dir string) error {
	var missing []string
	for d := dir; ; d = filepath.Dir(d) {
		if _, err := os.Lstat(d); err == nil {
			break
		} else if !errors.Is(err, fs.ErrNotExist) {
			return err
		}
		missing = append(missing, d)
		if filepath.Dir(d) == d {
			break
		}
	}
	for i := len(missing) - 1; i >= 0; i-- {
		err := os.Mkdir(missing[i], 0o755)
		if errors.Is(err, fs.ErrExist) {
			continue // another writer made it: not ours to remove
		}
		if err != nil {
			return err
		}
		tx.createdDirs = append(tx.createdDirs, missing[i])
	}
	return nil
}

// removeCreatedDirs removes, when they are empty, the partition folders
// of a failed create (dataDirs) and the folders it made, innermost first.
// When another writer's table now stands at the location, its folders
// are left alone.
func (tx *Transaction) removeCreatedDirs(dataDirs []string) {
	if !tx.removeEmptyDataDirs(dataDirs) {
		tx.createdDirs = nil
		return
	}
	for i := len(tx.createdDirs) - 1; i >= 0; i-- {
		RemoveEmptyDir(tx.createdDirs[i])
	}
	tx.createdDirs = nil
}

// removeEmptyDataDirs removes the partition folders below the table folder
// that held files of a failed create, deepest first, as long as they are
// empty. It does nothing, and returns false, when a table (another
// writer's) now stands at the location.
func (tx *Transaction) removeEmptyDataDirs(dirs []string) bool {
	if _, err := listLog(context.Background(), tx.root); err == nil {
		return false
	}
	slices.SortFunc(dirs, func(a, b string) int { return len(b) - len(a) })
	for _, d := range dirs {
		for ; strings.HasPrefix(d, tx.root+string(filepath.Separator)); d = filepath.Dir(d) {
			if RemoveEmptyDir(d) != nil {
				break // not empty (or gone)
			}
		}
	}
	return true
}

// Operation kinds a transaction stages.
const (
	opCreate    = "create"
	opAppend    = "append"
	opDelete    = "delete"
	opOverwrite = "overwrite"
	opTruncate  = "truncate"
	opOptimize  = "optimize"
	opMerge     = "merge"
)

// hasChanges reports whether the transaction has anything to commit.
func (tx *Transaction) hasChanges() bool {
	return tx.creating || tx.metadata != nil || tx.protocol != nil || len(tx.adds) > 0 || len(tx.dvAdds) > 0 ||
		len(tx.removes) > 0 || tx.appTxn != nil || (tx.merge != nil && tx.merge.touched)
}

// isBlindAppend: only adds, and nothing read (Spark's definition).
func (tx *Transaction) isBlindAppend() bool {
	return len(tx.removes) == 0 && len(tx.readPredicates) == 0 && !tx.readWholeTable && len(tx.readFiles) == 0
}

// Commit publishes the staged operations as the next version of the
// table (see the package documentation for the protocol). When another
// writer committed first, the winning commits are checked for conflicts
// (Serializable, or WriteSerializable when delta.isolationLevel says so):
// a transaction they do not conflict with is rebased and committed at the
// next free version; a conflicting one fails with a *ConflictError
// wrapping ErrConcurrentAppend, ErrConcurrentDeleteRead,
// ErrConcurrentDeleteDelete, ErrMetadataChanged, ErrProtocolChanged or
// ErrConcurrentTransaction, after deleting the data files it wrote
// (IsRetryable reports these). A transaction with nothing to commit, or
// skipped by SetAppTransaction, commits nothing. After a commit whose
// version is a multiple of delta.checkpointInterval (default 10), a
// checkpoint is written; its failure is reported in
// CommitResult.CheckpointErr and never fails the commit.
func (tx *Transaction) Commit(ctx context.Context) (*CommitResult, error) {
	if err := tx.usable(); err != nil {
		return nil, err
	}
	res := &CommitResult{Version: tx.ReadVersion(), ReadVersion: tx.ReadVersion(), Metrics: tx.metrics}
	if tx.merge != nil {
		mm := tx.merge.m
		res.Merge = &mm
	}
	if tx.skipped || !tx.hasChanges() {
		tx.done = true
		tx.cleanupFiles()
		res.Skipped = tx.skipped
		return res, nil
	}
	if err := ctx.Err(); err != nil {
		tx.Abort()
		return nil, err
	}
	if tx.creating && len(tx.view.schema.Fields) == 0 {
		tx.Abort()
		return nil, fmt.Errorf("%w: table %s: nothing defines the schema of the new table; give TableDefinition.Schema or append a query before committing",
			ErrInvalidSchema, tx.root)
	}
	info := tx.commitInfo()
	res.Operation = info.Operation
	if beforeCommitHook != nil {
		beforeCommitHook(tx)
	}
	logDir := filepath.Join(tx.root, LogDirName)
	if tx.remote() {
		if err := tx.uploadStaged(ctx); err != nil {
			tx.Abort()
			return nil, err
		}
	} else if tx.creating {
		if err := tx.mkdirCreating(logDir); err != nil {
			tx.Abort()
			return nil, fmt.Errorf("create table %s: %w", tx.root, err)
		}
	}
	version := tx.ReadVersion() + 1
	checked := tx.ReadVersion() // winners checked up to this version
	prevCommit := tx.readCommitInfo()
	for attempt := 0; ; attempt++ {
		data, err := tx.commitBytes(info, prevCommit)
		if err != nil {
			tx.Abort()
			return nil, err
		}
		if attempt == 0 {
			FailPoint(FailCommitBefore)
		}
		created, err := tx.putCommit(ctx, logDir, version, data)
		if err != nil {
			tx.Abort()
			return nil, fmt.Errorf("commit version %d of table %s: %w", version, tx.root, err)
		}
		if created {
			break
		}
		// Another writer won this version: check every winner.
		if attempt+1 >= maxCommitAttempts {
			tx.Abort()
			return nil, fmt.Errorf("commit to table %s: gave up after %d lost races", tx.root, attempt+1)
		}
		latest, err := latestVersion(ctx, tx.root, checked+1)
		if err != nil {
			tx.Abort()
			return nil, err
		}
		for w := checked + 1; w <= latest; w++ {
			c, err := readCommit(ctx, tx.root, w)
			if err != nil {
				tx.Abort()
				return nil, err
			}
			if w == 0 && tx.joinCreate(c) {
				info = tx.commitInfo()
				rv := int64(0)
				info.ReadVersion = &rv
				res.Operation = info.Operation
				prevCommit = c.Info
				continue
			}
			if err := tx.checkConflict(ctx, c); err != nil {
				if IsRetryable(err) {
					FailPoint(FailCommitConflict)
				}
				tx.Abort()
				return nil, err
			}
			prevCommit = c.Info
		}
		checked = latest
		version = latest + 1
		res.Rebases++
		FailPoint(FailCommitRebased)
	}
	FailPoint(FailCommitAfter)
	tx.removeStage(true)
	tx.done = true
	res.Version, res.Committed = version, true
	res.Checkpoint, res.CheckpointErr = tx.maybeCheckpoint(ctx, version)
	return res, nil
}

// joinCreate turns a transaction creating the table into a blind append
// on the table winner (version 0) created, when WriteOptions.JoinCreate
// allows it and winner wrote the protocol and metadata the transaction
// would have (see JoinCreate); it reports whether it did.
func (tx *Transaction) joinCreate(winner *Commit) bool {
	if !tx.creating || !tx.opts.JoinCreate || tx.appTxn != nil || len(tx.removes) > 0 ||
		len(tx.dvAdds) > 0 || tx.merge != nil || tx.view.mapping != ColumnMappingNone || tx.protocol == nil || tx.metadata == nil {
		return false
	}
	for _, k := range tx.kinds {
		if k != opCreate && k != opAppend {
			return false
		}
	}
	var proto *Protocol
	var meta *Metadata
	for _, a := range winner.Actions {
		if a.Protocol != nil {
			proto = a.Protocol
		}
		if a.MetaData != nil {
			meta = a.MetaData
		}
	}
	if proto == nil || meta == nil || !sameProtocol(proto, tx.protocol) || !sameTableMetadata(meta, tx.metadata) {
		return false
	}
	tx.creating, tx.protocol, tx.metadata, tx.createdDirs = false, nil, nil, nil
	tx.kinds = slices.DeleteFunc(tx.kinds, func(k string) bool { return k == opCreate })
	return true
}

// sameProtocol: the same versions and features (in any order).
func sameProtocol(a, b *Protocol) bool {
	sorted := func(s []string) []string { s = slices.Clone(s); slices.Sort(s); return s }
	return a.MinReaderVersion == b.MinReaderVersion && a.MinWriterVersion == b.MinWriterVersion &&
		slices.Equal(sorted(a.ReaderFeatures), sorted(b.ReaderFeatures)) &&
		slices.Equal(sorted(a.WriterFeatures), sorted(b.WriterFeatures))
}

// sameTableMetadata: what the metadata says of the table's data (its id
// and creation time aside).
func sameTableMetadata(a, b *Metadata) bool {
	provider := func(f Format) string {
		if f.Provider == "" {
			return "parquet"
		}
		return f.Provider
	}
	return a.SchemaString == b.SchemaString && slices.Equal(a.PartitionColumns, b.PartitionColumns) &&
		maps.Equal(a.Configuration, b.Configuration) && a.Name == b.Name && a.Description == b.Description &&
		provider(a.Format) == provider(b.Format) && maps.Equal(a.Format.Options, b.Format.Options)
}

// beforeCommitHook, when set (by tests), runs after the data files are
// written and before the commit file is: tests kill or pause writers
// there.
var beforeCommitHook func(tx *Transaction)

// latestVersion lists the log from version from on (a writer that lost
// the race for from knows every version before it) and returns its newest
// commit version; it lists the whole log when that finds nothing.
func latestVersion(ctx context.Context, root string, from int64) (int64, error) {
	l, err := listLogFrom(ctx, root, from)
	if err == nil && len(l.commits) == 0 {
		err = ErrNotDeltaTable
	}
	if err != nil && from > 0 && ctx.Err() == nil {
		l, err = listLog(ctx, root)
	}
	if err != nil {
		return 0, err
	}
	if n := len(l.commits); n > 0 {
		return l.commits[n-1], nil
	}
	return l.latest(), nil
}

// readCommitInfo is the commitInfo of the read version (for in-commit
// timestamps).
func (tx *Transaction) readCommitInfo() *CommitInfo {
	if tx.read == nil {
		return nil
	}
	return tx.read.CommitInfo()
}

// commitBytes marshals the commit: commitInfo first, then protocol,
// metaData, txn, removes and adds.
func (tx *Transaction) commitBytes(info CommitInfo, prev *CommitInfo) ([]byte, error) {
	if tx.inCommitTimestamps() {
		ts := time.Now().UnixMilli()
		if prev != nil {
			last := prev.Timestamp
			if prev.InCommitTimestamp != nil {
				last = *prev.InCommitTimestamp
			}
			ts = max(ts, last+1)
		}
		info.InCommitTimestamp = &ts
		info.Timestamp = ts
	}
	actions := make([]Action, 0, 4+len(tx.removes)+len(tx.adds)+len(tx.dvAdds))
	actions = append(actions, Action{CommitInfo: &info})
	if tx.protocol != nil {
		actions = append(actions, Action{Protocol: tx.protocol})
	}
	if tx.metadata != nil {
		actions = append(actions, Action{MetaData: tx.metadata})
	}
	if tx.appTxn != nil {
		actions = append(actions, Action{Txn: tx.appTxn})
	}
	keys := make([]FileKey, 0, len(tx.removes))
	for k := range tx.removes {
		keys = append(keys, k)
	}
	slices.SortFunc(keys, func(a, b FileKey) int { return strings.Compare(a.Path+"\x00"+a.DVID, b.Path+"\x00"+b.DVID) })
	for _, k := range keys {
		actions = append(actions, Action{Remove: tx.removes[k]})
	}
	for _, a := range tx.adds {
		actions = append(actions, Action{Add: a})
	}
	for _, a := range tx.dvAdds {
		actions = append(actions, Action{Add: a})
	}
	return MarshalCommit(actions)
}

// inCommitTimestamps reports whether commits must carry an in-commit
// timestamp.
func (tx *Transaction) inCommitTimestamps() bool {
	p := tx.view.protocol
	return p.MinWriterVersion >= 7 && p.HasWriterFeature(FeatureInCommitTimestamp) &&
		strings.EqualFold(tx.view.metadata.Configuration[PropEnableInCommitTS], "true")
}

// isolationLevel is the table's isolation level, delta.isolationLevel as
// Delta 4.4 reads it (TransactionHelper.scala:82-84, DeltaConfig.scala:
// 810-816, isolationLevels.scala:87-91): Serializable when unset, any of
// the three levels in any case (reading does not validate; OSS Delta
// refuses only to SET another value than Serializable).
// checkIsolationLevel refuses a table whose value is none of them.
func (tx *Transaction) isolationLevel() string {
	l, _ := tableIsolationLevel(tx.view.metadata.Configuration)
	return l
}

// tableIsolationLevel parses delta.isolationLevel; ok is false for a value
// that is not an isolation level.
func tableIsolationLevel(conf map[string]string) (level string, ok bool) {
	v, set := conf[PropIsolationLevel]
	if !set {
		return isolationSerializable, true
	}
	for _, l := range []string{isolationSerializable, isolationWriteSerializable, isolationSnapshot} {
		if strings.EqualFold(v, l) {
			return l, true
		}
	}
	return isolationSerializable, false
}

// checkIsolationLevel refuses to write a table whose delta.isolationLevel
// is not an isolation level, as Delta does (every write fails with
// DELTA_INVALID_ISOLATION_LEVEL, IsolationLevel.fromString).
func checkIsolationLevel(root string, conf map[string]string) error {
	if _, ok := tableIsolationLevel(conf); !ok {
		return fmt.Errorf("%w: table %s: delta.isolationLevel %q is not an isolation level (Serializable, WriteSerializable or SnapshotIsolation); Delta refuses every write to it (DELTA_INVALID_ISOLATION_LEVEL): set the property to Serializable",
			ErrUnsupportedFeature, root, conf[PropIsolationLevel])
	}
	return nil
}

// commitIsolationLevel is the level the commit is checked and recorded
// with (OptimisticTransaction.getIsolationLevelToUse, l.2707;
// TransactionHelper.canDowngradeToSnapshotIsolation, l.113-146): a commit
// of file actions only, none of them changing data (OPTIMIZE), downgrades
// to SnapshotIsolation, under WriteSerializable only when the operation
// does not change data either (ours: OPTIMIZE alone).
func (tx *Transaction) commitIsolationLevel() string {
	level := tx.isolationLevel()
	if tx.creating || tx.metadata != nil || tx.protocol != nil || tx.appTxn != nil || (tx.merge != nil && tx.merge.touched) {
		return level
	}
	for _, a := range tx.adds {
		if a.DataChange {
			return level
		}
	}
	for _, a := range tx.dvAdds {
		if a.DataChange {
			return level
		}
	}
	for _, r := range tx.removes {
		if r.DataChange {
			return level
		}
	}
	for _, a := range tx.optimized {
		if a.DataChange {
			return level
		}
	}
	switch level {
	case isolationSerializable:
		return isolationSnapshot
	case isolationWriteSerializable:
		if len(tx.kinds) == 1 && tx.kinds[0] == opOptimize {
			return isolationSnapshot
		}
	}
	return level
}

// checkWinningProtocol is checkProtocolCompatibility
// (ConflictChecker.scala:325-365): a winner's protocol conflicts when this
// package cannot write it, when this transaction writes a protocol too,
// or when it drops a feature (or lowers a version) of the read protocol;
// a protocol that only adds features is left to the metadata check (the
// winner's metaData; Delta fails concurrent transactions at a feature's
// upgrade only behind an internal flag that is off by default).
func (tx *Transaction) checkWinningProtocol(p *Protocol) error {
	if err := p.CheckWritable(tx.root); err != nil {
		return err
	}
	if tx.protocol != nil {
		return errors.New("the concurrent commit changed the protocol, which this transaction changes too")
	}
	old := tx.read.protocol
	if p.MinReaderVersion < old.MinReaderVersion || p.MinWriterVersion < old.MinWriterVersion {
		return fmt.Errorf("the concurrent commit lowered the protocol to (%d, %d)", p.MinReaderVersion, p.MinWriterVersion)
	}
	for _, f := range old.ReaderFeatures {
		if !slices.Contains(p.ReaderFeatures, f) {
			return fmt.Errorf("the concurrent commit dropped the table feature %s", f)
		}
	}
	for _, f := range old.WriterFeatures {
		if !slices.Contains(p.WriterFeatures, f) {
			return fmt.Errorf("the concurrent commit dropped the table feature %s", f)
		}
	}
	return nil
}

const (
	isolationSerializable      = "Serializable"
	isolationWriteSerializable = "WriteSerializable"
	isolationSnapshot          = "SnapshotIsolation"
)

// commitInfo builds the commitInfo action: operation, parameters and
// metrics named as Spark names them.
func (tx *Transaction) commitInfo() CommitInfo {
	m := tx.metrics
	var op string
	params := map[string]any{}
	metrics := map[string]any{}
	has := func(k string) bool { return slices.Contains(tx.kinds, k) }
	predicates := make([]string, 0, len(tx.readPredicates))
	for _, p := range tx.readPredicates {
		predicates = append(predicates, p.sql)
	}
	predJSON := jsonNoEscape(predicates)
	partJSON, _ := json.Marshal(nonNil(tx.view.metadata.PartitionColumns))
	itoa := func(n int64) string { return strconv.FormatInt(n, 10) }
	switch {
	case tx.creating:
		op = "CREATE TABLE"
		if len(tx.adds) > 0 {
			op = "CREATE TABLE AS SELECT"
			metrics["numFiles"] = itoa(int64(m.AddedFiles))
			metrics["numOutputRows"] = itoa(m.AddedRows)
			metrics["numOutputBytes"] = itoa(m.AddedBytes)
		}
		props, _ := json.Marshal(tx.view.metadata.Configuration)
		params["isManaged"] = "false"
		params["description"] = nil
		if tx.view.metadata.Description != "" {
			params["description"] = tx.view.metadata.Description
		}
		params["partitionBy"] = string(partJSON)
		params["properties"] = string(props)
	case has(opMerge):
		op = "MERGE"
		tx.merge.commitInfo(params, metrics, m)
	case has(opOptimize) && len(tx.kinds) == 1:
		op = "OPTIMIZE"
		params["predicate"] = "[]"
		params["zOrderBy"] = "[]"
		params["clusterBy"] = "[]"
		params["auto"] = false
		tx.optimizeMetrics(metrics)
	case has(opTruncate) && len(tx.kinds) == 1:
		op = "TRUNCATE"
		metrics["numRemovedFiles"] = itoa(int64(m.RemovedFiles))
		metrics["numRemovedBytes"] = itoa(m.RemovedBytes)
	case has(opDelete) && !has(opAppend) && !has(opOverwrite) && !has(opTruncate):
		op = "DELETE"
		params["predicate"] = predJSON
		tx.deleteMetrics(metrics)
	case has(opOverwrite) || has(opTruncate) || has(opDelete):
		op = "WRITE"
		params["mode"] = "Overwrite"
		params["partitionBy"] = string(partJSON)
		if len(predicates) > 0 && !has(opOverwrite) && !has(opTruncate) {
			params["predicate"] = predJSON
		}
		metrics["numFiles"] = itoa(int64(m.AddedFiles))
		metrics["numOutputRows"] = itoa(m.AddedRows)
		metrics["numOutputBytes"] = itoa(m.AddedBytes)
		tx.deleteMetrics(metrics)
	case tx.appTxn != nil && !tx.opts.ForEachBatch:
		op = "STREAMING UPDATE"
		params["outputMode"] = "Append"
		params["queryId"] = tx.appTxn.AppID
		params["epochId"] = itoa(tx.appTxn.Version)
		metrics["numAddedFiles"] = itoa(int64(m.AddedFiles))
		metrics["numOutputRows"] = itoa(m.AddedRows)
		metrics["numOutputBytes"] = itoa(m.AddedBytes)
		metrics["numRemovedFiles"] = "0"
	default:
		op = "WRITE"
		params["mode"] = "Append"
		params["partitionBy"] = string(partJSON)
		metrics["numFiles"] = itoa(int64(m.AddedFiles))
		metrics["numOutputRows"] = itoa(m.AddedRows)
		metrics["numOutputBytes"] = itoa(m.AddedBytes)
	}
	metrics["executionTimeMs"] = itoa(time.Since(tx.start).Milliseconds())
	blind := tx.isBlindAppend()
	engine := tx.opts.EngineInfo
	if engine == "" {
		engine = EngineInfo
	}
	info := CommitInfo{Timestamp: time.Now().UnixMilli(), Operation: op, OperationParameters: params,
		IsolationLevel: tx.commitIsolationLevel(), IsBlindAppend: &blind, OperationMetrics: metrics,
		EngineInfo: engine, TxnID: uuid.NewString(), UserMetadata: tx.opts.UserMetadata}
	if tx.read != nil {
		rv := tx.read.version
		info.ReadVersion = &rv
	}
	return info
}

func (tx *Transaction) deleteMetrics(metrics map[string]any) {
	m := tx.metrics
	itoa := func(n int64) string { return strconv.FormatInt(n, 10) }
	metrics["numRemovedFiles"] = itoa(int64(m.RemovedFiles))
	metrics["numAddedFiles"] = itoa(int64(m.AddedFiles))
	metrics["numDeletedRows"] = itoa(m.DeletedRows)
	metrics["numCopiedRows"] = itoa(m.CopiedRows)
	metrics["numRemovedBytes"] = itoa(m.RemovedBytes)
	metrics["numAddedBytes"] = itoa(m.AddedBytes)
	metrics["numAddedChangeFiles"] = "0"
	metrics["numDeletionVectorsAdded"] = itoa(int64(m.DVsAdded))
	metrics["numDeletionVectorsRemoved"] = itoa(int64(m.DVsRemoved))
	metrics["numDeletionVectorsUpdated"] = itoa(int64(m.DVsUpdated))
}

// jsonNoEscape marshals v without escaping <, > and & (Spark writes
// predicates as they are).
func jsonNoEscape(v any) string {
	var b strings.Builder
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return ""
	}
	return strings.TrimSuffix(b.String(), "\n")
}
