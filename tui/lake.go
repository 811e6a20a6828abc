package tui

import (
	"context"
	"database/sql"
	"fmt"
	"slices"
	"strings"
	"sync"

	"github.com/laktory/workbench/delta"
	"github.com/laktory/workbench/runner"
	"github.com/laktory/workbench/runner/engine/local"
	"github.com/laktory/workbench/validate"
	"github.com/laktory/workbench/workspace"
	"github.com/laktory/workbench/workspace/human"
)

// DeltaLake reads the workspace's Delta tables from the local filesystem,
// scanning through one DuckDB database opened on first use. It is safe for
// concurrent use; Close it when done.
type DeltaLake struct {
	// PreviewRows is how many rows Table previews (default 50).
	PreviewRows int
	// HistoryLimit is how many versions Table lists (default 50).
	HistoryLimit int

	mu     sync.Mutex
	db     *sql.DB
	parser *local.Parser // DuckDB's parser over db
	closed bool
}

// NewDeltaLake returns a lake reader.
func NewDeltaLake() *DeltaLake { return &DeltaLake{PreviewRows: 50, HistoryLimit: 50} }

// Close releases the DuckDB database; later calls get ErrClosed.
func (l *DeltaLake) Close() error {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.closed = true
	if l.db == nil {
		return nil
	}
	err := l.db.Close()
	l.db = nil
	return err
}

func (l *DeltaLake) duck(ctx context.Context) (*sql.DB, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.db != nil {
		return l.db, nil
	}
	if l.closed {
		return nil, fmt.Errorf("lake: %w", ErrClosed)
	}
	db, err := delta.OpenDuckDB(ctx)
	if err != nil {
		return nil, err
	}
	l.db, l.parser = db, local.NewParser(db)
	return db, nil
}

// Stats implements Lake: the deep-validation facts of runner.GatherFacts
// (columns and rows per writer id of shared tables), and for every table
// the workspace writes, its version, row count and rows per where
// predicate.
func (l *DeltaLake) Stats(ctx context.Context, snap *workspace.Snapshot) (map[workspace.TableID]TableStats, error) {
	out := map[workspace.TableID]TableStats{}
	if snap == nil {
		return out, nil
	}
	facts, err := runner.GatherFacts(ctx, snap)
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
		_, s, st := l.open(ctx, t)
		if f, ok := facts[t.ID]; ok {
			st.Facts = f
		}
		if s != nil {
			l.countPredicates(ctx, t, s, &st)
		}
		out[t.ID] = st
	}
	return out, nil
}

// open reads a table's latest snapshot; a folder that does not exist (or
// holds nothing) is a table not written yet.
func (l *DeltaLake) open(ctx context.Context, t *workspace.Table) (*delta.Table, *delta.Snapshot, TableStats) {
	st := TableStats{Version: -1}
	if runner.EmptyOrMissing(t.Path) {
		return nil, nil, st
	}
	tbl, err := delta.Open(ctx, t.Path)
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
func (l *DeltaLake) countPredicates(ctx context.Context, t *workspace.Table, s *delta.Snapshot, st *TableStats) {
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
	db, err := l.duck(ctx)
	if err != nil {
		for _, p := range preds {
			st.PredicateErr[p] = err.Error()
		}
		return
	}
	for _, p := range preds {
		n, err := l.predicateRows(ctx, db, s, p)
		if err != nil {
			st.PredicateErr[p] = firstLine(err.Error())
			continue
		}
		st.PredicateRows[p] = n
	}
}

func (l *DeltaLake) predicateRows(ctx context.Context, db *sql.DB, s *delta.Snapshot, pred string) (int64, error) {
	where, err := validate.Predicate(l.parser, pred)
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

// Table implements Lake: the table's version, schema, partitioning,
// history and a preview of its first rows (its rows per writer come from
// Stats).
func (l *DeltaLake) Table(ctx context.Context, snap *workspace.Snapshot, id workspace.TableID) (*TableInfo, error) {
	t := snap.Table(id)
	if t == nil {
		return nil, fmt.Errorf("%w: %s", ErrNoTable, id)
	}
	tbl, s, st := l.open(ctx, t)
	info := &TableInfo{ID: id, Stats: st}
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
	h, err := tbl.History(ctx, l.HistoryLimit)
	if err != nil {
		return nil, err
	}
	info.History = h
	info.Preview = l.preview(ctx, s)
	return info, nil
}

func (l *DeltaLake) preview(ctx context.Context, s *delta.Snapshot) Preview {
	var p Preview
	db, err := l.duck(ctx)
	if err != nil {
		p.Err = err.Error()
		return p
	}
	limit := max(l.PreviewRows, 1)
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
