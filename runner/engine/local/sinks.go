package local

import (
	"context"
	"database/sql"
	"fmt"
	"strings"

	"github.com/google/uuid"

	"github.com/laktory/workbench/delta"
	"github.com/laktory/workbench/runner/engine"
	"github.com/laktory/workbench/runner/foreach"
)

// Merge implements engine.Txn: package delta's MERGE, DuckDB computing
// the matches and the rewritten files.
func (t *Txn) Merge(ctx context.Context, spec delta.MergeSpec) (delta.MergeMetrics, error) {
	return t.Tx.Merge(ctx, t.conn, spec)
}

// KeyScan implements engine.Txn: the files that can hold a key of rel, as
// the MERGE finds them, recorded as read.
func (t *Txn) KeyScan(ctx context.Context, rel string, keys []delta.MergeKey, cols []string) (string, error) {
	return t.Tx.KeyScanSQL(ctx, t.conn, rel, keys, cols)
}

// WriteFiles implements engine.Session: DuckDB's COPY ... TO.
func (s *Session) WriteFiles(ctx context.Context, target, query string, w engine.FileWrite) (int64, error) {
	if err := s.settle(ctx); err != nil {
		return 0, err
	}
	opts, ok := copyOptions[strings.ToUpper(w.Format)]
	if !ok {
		return 0, fmt.Errorf("%w: the local engine writes PARQUET, CSV and JSON files, not %s", engine.ErrUnsupported, w.Format)
	}
	if c := w.CSV; c != nil && strings.EqualFold(w.Format, "CSV") {
		// A quote inside a field is doubled, as polars' write_csv does.
		opts = fmt.Sprintf("FORMAT csv, HEADER %t, DELIMITER %s, QUOTE %s, ESCAPE %s, NULL %s", c.Header, quoteString(c.Separator), quoteString(c.Quote), quoteString(c.Quote), quoteString(c.Null))
	}
	if w.JSONArray && strings.EqualFold(w.Format, "JSON") {
		opts += ", ARRAY true"
	}
	switch {
	case w.PolarsParts && len(w.PartitionBy) > 0:
		opts += ", FILENAME_PATTERN '{i}', WRITE_PARTITION_COLUMNS true, PARTITION_BY (" + identList(w.PartitionBy) + ")"
	case !w.Single:
		opts += ", FILENAME_PATTERN 'part-{uuid}'"
		if len(w.PartitionBy) > 0 {
			cols := make([]string, len(w.PartitionBy))
			for i, c := range w.PartitionBy {
				cols[i] = quoteIdent(c)
			}
			opts += ", PARTITION_BY (" + strings.Join(cols, ", ") + ")"
		} else {
			opts += ", PER_THREAD_OUTPUT true"
		}
	}
	res, err := s.Conn.ExecContext(ctx, fmt.Sprintf("COPY (%s) TO %s (%s)", query, quoteString(target), opts))
	if err != nil {
		return 0, err
	}
	n, _ := res.RowsAffected()
	return n, nil
}

// copyOptions are the COPY ... TO options of a file sink's format.
var copyOptions = map[string]string{
	"PARQUET": "FORMAT parquet",
	"CSV":     "FORMAT csv, HEADER true",
	"JSON":    "FORMAT json",
}

func identList(cols []string) string {
	q := make([]string, len(cols))
	for i, c := range cols {
		q[i] = quoteIdent(c)
	}
	return strings.Join(q, ", ")
}

func quoteString(s string) string { return "'" + strings.ReplaceAll(s, "'", "''") + "'" }

// RowStore keeps the rows of queries of any engine in the local engine's
// database, one JSON object a row (engine.Rows's form), for Go code to
// read at once from several goroutines: the partitions of a ForEach sink.
type RowStore struct{ db *sql.DB }

// NewRowStore returns the row store of the local engine's database db.
func NewRowStore(db *sql.DB) *RowStore { return &RowStore{db: db} }

// StagedRows are the rows a RowStore keeps for one batch.
type StagedRows struct {
	db   *sql.DB
	full string
	n    int64
}

// Stage keeps the rows of the query src of session s, which must be a
// session of the engine over the store's database or of another engine.
// A local session builds each row's JSON in DuckDB (foreach.RowJSON);
// another engine's rows come to Go (Session.Rows) and are appended, so
// the rows kept are the same text on every engine.
func (r *RowStore) Stage(ctx context.Context, s engine.Session, src string) (*StagedRows, error) {
	tbl := "lk_foreach_" + strings.ReplaceAll(uuid.NewString(), "-", "")
	t := &StagedRows{db: r.db, full: "memory.main." + quoteIdent(tbl)}
	if ls, ok := s.(*Session); ok {
		if err := ls.settle(ctx); err != nil {
			return nil, err
		}
		cols, err := ls.Describe(ctx, src)
		if err != nil {
			return nil, err
		}
		fcols := make([]foreach.Column, len(cols))
		for i, c := range cols {
			fcols[i] = foreach.Column{Name: c.Name, Type: c.Type}
		}
		if _, err := ls.Conn.ExecContext(ctx, fmt.Sprintf("CREATE TABLE %s AS SELECT %s AS j FROM (%s)", t.full, foreach.RowJSON(fcols), src)); err != nil {
			return nil, err
		}
	} else {
		rows, err := s.Rows(ctx, src)
		if err != nil {
			return nil, err
		}
		err = AppendJSONRows(ctx, r.db, tbl, rows)
		rows.Close()
		if err != nil {
			t.Drop(ctx)
			return nil, err
		}
	}
	if err := r.db.QueryRowContext(ctx, "SELECT count(*) FROM "+t.full).Scan(&t.n); err != nil {
		t.Drop(ctx)
		return nil, err
	}
	return t, nil
}

// Count is the number of rows kept.
func (t *StagedRows) Count() int64 { return t.n }

// Partitions splits the rows into n partitions by a hash of each row's
// text: the split depends only on the rows, so the same rows are in the
// same partitions whenever they are staged again. Each partition runs its
// query when it opens; they may be read at once.
func (t *StagedRows) Partitions(n int) []foreach.Partition {
	n = max(n, 1)
	parts := make([]foreach.Partition, n)
	for i := range parts {
		q := "SELECT j FROM " + t.full
		if n > 1 {
			q += fmt.Sprintf(" WHERE hash(j) %% %d = %d", n, i)
		}
		parts[i] = foreach.Partition{ID: int64(i), Open: foreach.Query(t.db, q)}
	}
	return parts
}

// Drop drops the rows kept (best effort, even when ctx is done).
func (t *StagedRows) Drop(ctx context.Context) {
	t.db.ExecContext(context.WithoutCancel(ctx), "DROP TABLE IF EXISTS "+t.full) //nolint:errcheck // best effort
}
