// Package lake reads the Delta tables of a workspace for the programs
// that show them: the deep-validation facts of shared tables, the Table
// tab of the workbench (version, schema, history, a preview of the rows,
// the rows per where predicate), the scans and the OPTIMIZE of `laktory
// table`, and a watch of a table's log.
//
// A Reader reads through a DuckDB database it is handed (New: the
// runner's, runner.Runner.Tables) or one the local engine opens for it on
// first use (Open, for programs without a runner): DuckDB is opened by
// the local engine and package delta only.
package lake

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/laktory/workbench/delta"
	"github.com/laktory/workbench/runner/engine/local"
	"github.com/laktory/workbench/validate"
	"github.com/laktory/workbench/workspace"
	"github.com/laktory/workbench/workspace/human"
)

// ErrClosed is returned by a Reader used after its Close.
var ErrClosed = errors.New("table reader closed")

// Reader reads Delta tables through one DuckDB database. It is safe for
// concurrent use; Close it when done.
type Reader struct {
	mu     sync.Mutex
	db     *sql.DB
	sql    validate.SQL // DuckDB's parser over db (where predicates)
	own    bool         // db was opened by the reader (Open): Close closes it
	closed bool
}

// New returns a reader over db, a database of the local engine
// (local.OpenDB), and sqlp, DuckDB's parser over it (nil: local.NewParser
// over db). The caller keeps db and closes it after the reader.
func New(db *sql.DB, sqlp validate.SQL) *Reader {
	if sqlp == nil {
		sqlp = local.NewParser(db)
	}
	return &Reader{db: db, sql: sqlp}
}

// Open returns a reader over a database of its own, which the local
// engine opens on first need (unconfined: the reader reads the tables it
// is given wherever they are) and Close closes.
func Open() *Reader { return &Reader{own: true} }

// Close releases the database Open opened (New's is the caller's); later
// calls get ErrClosed.
func (r *Reader) Close() error {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.closed = true
	if !r.own || r.db == nil {
		return nil
	}
	err := r.db.Close()
	r.db = nil
	return err
}

// database returns the database to read with, opening it on first use.
func (r *Reader) database(ctx context.Context) (*sql.DB, error) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.closed {
		return nil, ErrClosed
	}
	if r.db == nil {
		db, err := local.OpenDB(ctx, nil)
		if err != nil {
			return nil, err
		}
		r.db, r.sql = db, local.NewParser(db)
	}
	return r.db, nil
}

// Query scans a snapshot (delta.Snapshot.Query): at most limit rows
// (0: all).
func (r *Reader) Query(ctx context.Context, s *delta.Snapshot, opts delta.ScanOptions, limit int) (*sql.Rows, error) {
	db, err := r.database(ctx)
	if err != nil {
		return nil, err
	}
	return s.Query(ctx, db, opts, limit)
}

// Count counts a snapshot's rows matching opts (delta.Snapshot.Count).
func (r *Reader) Count(ctx context.Context, s *delta.Snapshot, opts delta.ScanOptions) (int64, error) {
	db, err := r.database(ctx)
	if err != nil {
		return 0, err
	}
	return s.Count(ctx, db, opts)
}

// Optimize compacts the table at root (delta.Optimize).
func (r *Reader) Optimize(ctx context.Context, root string, opts delta.OptimizeOptions, wopts delta.WriteOptions) (*delta.CommitResult, delta.OptimizeMetrics, error) {
	db, err := r.database(ctx)
	if err != nil {
		return nil, delta.OptimizeMetrics{}, err
	}
	return delta.Optimize(ctx, db, root, opts, wopts)
}

// Facts reads what validate's deep rules need from the tables that shared
// sinks write: whether each exists, its columns, and its row count per
// writer id (for writers owning rows through a writer column). A table
// that cannot be read gets its error in TableFacts.Err; Facts itself
// fails only when ctx is done.
func (r *Reader) Facts(ctx context.Context, snap *workspace.Snapshot) (map[workspace.TableID]validate.TableFacts, error) {
	facts := map[workspace.TableID]validate.TableFacts{}
	for _, t := range snap.Tables {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		if !t.Shared() {
			continue
		}
		column := ""
		for _, w := range t.Writers {
			if w.Ownership == workspace.OwnerColumn {
				column = w.Column
				break
			}
		}
		f, err := r.TableFacts(ctx, t.Path, column)
		if err != nil && ctx.Err() != nil {
			return nil, ctx.Err()
		}
		if err != nil {
			f = validate.TableFacts{Err: err.Error()}
		}
		facts[t.ID] = f
	}
	return facts, nil
}

// TableFacts reads the facts of the table at path (Facts), with its rows
// per writer id in column ("": none).
func (r *Reader) TableFacts(ctx context.Context, path, column string) (validate.TableFacts, error) {
	s, err := delta.LoadSnapshot(ctx, path)
	if err != nil {
		if errors.Is(err, delta.ErrNotDeltaTable) && EmptyOrMissing(path) {
			return validate.TableFacts{}, nil
		}
		return validate.TableFacts{}, err
	}
	f := validate.TableFacts{Exists: true, Columns: s.Schema().FieldNames()}
	if column == "" || !slices.Contains(f.Columns, column) {
		return f, nil
	}
	db, err := r.database(ctx)
	if err != nil {
		return f, fmt.Errorf("facts of %s: %w", path, err)
	}
	scan, err := s.ScanSQL(ctx, delta.ScanOptions{Columns: []string{column}})
	if err != nil {
		return f, err
	}
	quoted := `"` + strings.ReplaceAll(column, `"`, `""`) + `"`
	rows, err := db.QueryContext(ctx, fmt.Sprintf(`SELECT CAST(%s AS VARCHAR), count(*) FROM (%s) GROUP BY 1`, quoted, scan))
	if err != nil {
		return f, fmt.Errorf("count the rows per writer of %s: %w", path, err)
	}
	defer rows.Close()
	f.WriterColumn, f.WriterRows = column, map[string]int64{}
	for rows.Next() {
		var id sql.NullString
		var n int64
		if err := rows.Scan(&id, &n); err != nil {
			return f, err
		}
		if !id.Valid {
			f.NullWriterRows += n
			continue
		}
		f.WriterRows[id.String] += n
	}
	return f, rows.Err()
}

// EmptyOrMissing reports whether the table folder at path holds nothing
// yet (no folder, an empty one, or only an empty _delta_log folder): the
// table has not been written. A folder that cannot be read is not empty.
//
// A table in a bucket is empty when no object lies under its location (an
// object store has no empty folders); a listing that fails is not empty.
func EmptyOrMissing(path string) bool {
	if delta.IsRemoteLocation(path) {
		ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
		defer cancel()
		st, err := delta.OpenStore(ctx, path, delta.StoreOptions{})
		if err != nil {
			return false
		}
		objs, err := st.List(ctx, "", delta.ListOptions{Recursive: true})
		return err == nil && len(objs) == 0
	}
	entries, err := os.ReadDir(path)
	if errors.Is(err, fs.ErrNotExist) {
		return true
	}
	if err != nil {
		return false
	}
	for _, e := range entries {
		if e.Name() != delta.LogDirName || !e.IsDir() {
			return false
		}
		if logs, _ := os.ReadDir(filepath.Join(path, e.Name())); len(logs) > 0 {
			return false
		}
	}
	return true
}

// TableStats is what is known of a table on disk.
type TableStats struct {
	// Facts feed validate.Check's deep rules (and list the rows per
	// writer id of a writer column).
	Facts validate.TableFacts
	// Version is the table's latest version (-1 when it does not exist).
	Version int64
	// Rows is the number of rows from the log's stats; RowsExact is false
	// when some file has no stats (Rows is then a lower bound).
	Rows      int64
	RowsExact bool
	// PredicateRows counts the rows matching each `where` predicate of the
	// table's writers; PredicateErr says why a predicate could not be
	// counted.
	PredicateRows map[string]int64
	PredicateErr  map[string]string
	// View: the folder holds a view (a VIEW sink's definition), which
	// Exists; Version is -1 and Rows 0.
	View bool
}

// HistoryEntry is one commit of a table's history.
type HistoryEntry = delta.HistoryEntry

// TableInfo is one table as the Table tab shows it.
type TableInfo struct {
	ID workspace.TableID
	// Stats holds the table's existence, version and row count (its facts
	// hold no rows per writer: those come from Reader.Stats).
	Stats     TableStats
	Timestamp time.Time
	Files     int
	SizeBytes int64
	// History is the table's commits, newest first (at most
	// TableOptions.HistoryLimit).
	History    []HistoryEntry
	Columns    []ColumnInfo
	Partitions []string
	Properties map[string]string
	Preview    Preview
	// View is the view's definition when the table's folder holds a view
	// (a VIEW sink): no version, history or rows of its own.
	View *delta.View
}

// ColumnInfo is one column of a table's schema.
type ColumnInfo struct {
	Name      string
	Type      string
	Nullable  bool
	Partition bool
}

// Preview is the first rows of a table, as text.
type Preview struct {
	Columns []string
	Rows    [][]string
	// More is true when the table has more rows than shown.
	More bool
	// Err says why the rows could not be read.
	Err string
}

// Stats reads the deep-validation facts (Facts: columns and rows per
// writer id of shared tables), and for every table the workspace writes,
// its version, row count and rows per where predicate.
func (r *Reader) Stats(ctx context.Context, snap *workspace.Snapshot) (map[workspace.TableID]TableStats, error) {
	out := map[workspace.TableID]TableStats{}
	if snap == nil {
		return out, nil
	}
	facts, err := r.Facts(ctx, snap)
	if err != nil {
		return nil, err
	}
	for _, t := range snap.Tables {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		if len(t.Writers) == 0 {
			continue
		}
		_, s, st := open(ctx, t.Path)
		if f, ok := facts[t.ID]; ok {
			st.Facts = f
		}
		if s != nil {
			r.countPredicates(ctx, t, s, &st)
		}
		out[t.ID] = st
	}
	return out, nil
}

// open reads a table's latest snapshot; a folder that does not exist (or
// holds nothing) is a table not written yet.
func open(ctx context.Context, path string) (*delta.Table, *delta.Snapshot, TableStats) {
	st := TableStats{Version: -1}
	if EmptyOrMissing(path) {
		return nil, nil, st
	}
	if delta.IsView(path) {
		v, err := delta.ReadView(path)
		if err != nil {
			st.Facts.Err = err.Error()
			return nil, nil, st
		}
		st.View, st.Facts.Exists = true, true
		for _, c := range v.Columns {
			st.Facts.Columns = append(st.Facts.Columns, c.Name)
		}
		return nil, nil, st
	}
	tbl, err := delta.Open(ctx, path)
	if err != nil {
		st.Facts.Err = err.Error()
		return nil, nil, st
	}
	s, err := tbl.Snapshot(ctx)
	if err != nil {
		st.Facts.Err = err.Error()
		return tbl, nil, st
	}
	st.Facts.Exists = true
	st.Facts.Columns = s.Schema().FieldNames()
	st.Version = s.Version()
	st.Rows, st.RowsExact = s.NumRecords()
	return tbl, s, st
}

// countPredicates counts the rows matching each where predicate of the
// table's writers.
func (r *Reader) countPredicates(ctx context.Context, t *workspace.Table, s *delta.Snapshot, st *TableStats) {
	var preds []string
	for _, w := range t.Writers {
		if w.Ownership == workspace.OwnerWhere && !slices.Contains(preds, w.Where) {
			preds = append(preds, w.Where)
		}
	}
	if len(preds) == 0 {
		return
	}
	st.PredicateRows, st.PredicateErr = map[string]int64{}, map[string]string{}
	db, err := r.database(ctx)
	if err != nil {
		for _, p := range preds {
			st.PredicateErr[p] = err.Error()
		}
		return
	}
	for _, p := range preds {
		n, err := r.predicateRows(ctx, db, s, p)
		if err != nil {
			st.PredicateErr[p] = firstLine(err.Error())
			continue
		}
		st.PredicateRows[p] = n
	}
}

func (r *Reader) predicateRows(ctx context.Context, db *sql.DB, s *delta.Snapshot, pred string) (int64, error) {
	r.mu.Lock()
	sqlp := r.sql
	r.mu.Unlock()
	where, err := validate.Predicate(sqlp, pred)
	if err != nil {
		return 0, err
	}
	scan, err := s.ScanSQL(ctx, delta.ScanOptions{Where: where})
	if err != nil {
		return 0, err
	}
	var n int64
	if err := db.QueryRowContext(ctx, "SELECT count(*) FROM ("+scan+")").Scan(&n); err != nil {
		return 0, fmt.Errorf("count rows where %s: %w", pred, err)
	}
	return n, nil
}

// TableOptions bound what Table reads.
type TableOptions struct {
	// PreviewRows is how many rows the preview holds (at least 1).
	PreviewRows int
	// HistoryLimit is how many versions the history lists.
	HistoryLimit int
}

// Table reads one table for the Table tab: its version, schema,
// partitioning, history and a preview of its first rows (its rows per
// writer come from Stats).
func (r *Reader) Table(ctx context.Context, t *workspace.Table, opts TableOptions) (*TableInfo, error) {
	tbl, s, st := open(ctx, t.Path)
	info := &TableInfo{ID: t.ID, Stats: st}
	if st.View {
		v, err := delta.ReadView(t.Path)
		if err != nil {
			return nil, err
		}
		info.View, info.Timestamp = v, v.CreatedAt
		for _, c := range v.Columns {
			info.Columns = append(info.Columns, ColumnInfo{Name: c.Name, Type: c.Type, Nullable: true})
		}
		return info, nil
	}
	if s == nil {
		return info, nil
	}
	info.Timestamp, info.Files, info.SizeBytes = s.Timestamp(), s.NumFiles(), s.SizeInBytes()
	info.Partitions = s.PartitionColumns()
	info.Properties = s.Properties()
	for _, f := range s.Schema().Fields {
		info.Columns = append(info.Columns, ColumnInfo{Name: f.Name, Type: f.Type.TypeName(), Nullable: f.Nullable,
			Partition: slices.ContainsFunc(info.Partitions, func(p string) bool { return strings.EqualFold(p, f.Name) })})
	}
	h, err := tbl.History(ctx, opts.HistoryLimit)
	if err != nil {
		return nil, err
	}
	info.History = h
	info.Preview = r.preview(ctx, s, max(opts.PreviewRows, 1))
	return info, nil
}

func (r *Reader) preview(ctx context.Context, s *delta.Snapshot, limit int) Preview {
	var p Preview
	db, err := r.database(ctx)
	if err != nil {
		p.Err = err.Error()
		return p
	}
	rows, err := s.Query(ctx, db, delta.ScanOptions{}, limit+1)
	if err != nil {
		p.Err = firstLine(err.Error())
		return p
	}
	defer rows.Close()
	types, err := rows.ColumnTypes()
	if err != nil {
		p.Err = err.Error()
		return p
	}
	for _, c := range types {
		p.Columns = append(p.Columns, c.Name())
	}
	vals := make([]any, len(types))
	ptrs := make([]any, len(types))
	for i := range vals {
		ptrs[i] = &vals[i]
	}
	for rows.Next() {
		if len(p.Rows) == limit {
			p.More = true
			break
		}
		if err := rows.Scan(ptrs...); err != nil {
			p.Err = err.Error()
			return p
		}
		row := make([]string, len(vals))
		for i, v := range vals {
			row[i] = human.Printable(delta.TextValue(v, types[i].DatabaseTypeName(), false))
		}
		p.Rows = append(p.Rows, row)
	}
	if err := rows.Err(); err != nil {
		p.Err = err.Error()
	}
	return p
}

func firstLine(s string) string {
	if i := strings.IndexByte(s, '\n'); i >= 0 {
		return s[:i]
	}
	return s
}
