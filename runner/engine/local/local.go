// Package local is the local engine: DuckDB executes the relations (one
// connection per task, one in-process database per engine: rows never pass
// through Go) and package delta writes the tables, committing in Go.
package local

import (
	"context"
	"database/sql"
	"database/sql/driver"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"sync"

	duckdb "github.com/duckdb/duckdb-go/v2"

	"github.com/laktory/workbench/delta"
	"github.com/laktory/workbench/runner/engine"
	"github.com/laktory/workbench/runner/foreach"
	"github.com/laktory/workbench/workspace"
)

// FilesReader returns the DuckDB query reading data files of a format
// with a source's reader options; q binds queries it needs to decide it
// (the columns of a read). The runner gives it: the same reader serves
// the schema checks of validation.
type FilesReader func(ctx context.Context, q Querier, files []string, format string, src *workspace.Source) (string, error)

// Engine is the local engine over a DuckDB database.
type Engine struct {
	db     *sql.DB
	files  FilesReader
	parser *Parser
	// version is DuckDB's version, asked once: every session asks the
	// engine's Info (a schema check opens one per node).
	version func() string
}

// New returns the local engine over db (which the caller keeps and
// closes; OpenDB opens it).
func New(db *sql.DB, files FilesReader) *Engine {
	return &Engine{db: db, files: files, parser: NewParser(db), version: sync.OnceValue(func() string { return duckDBVersion(db) })}
}

// Parser is DuckDB's parser over the engine's database, for validate's
// rules and the `where` predicates the engine embeds.
func (e *Engine) Parser() *Parser { return e.parser }

// Info implements engine.Engine.
func (e *Engine) Info() engine.Info {
	return engine.Info{Name: engine.Local, Version: e.version()}
}

func duckDBVersion(db *sql.DB) string {
	var v string
	if db.QueryRowContext(context.Background(), "SELECT 'DuckDB ' || version()").Scan(&v) != nil {
		return "DuckDB"
	}
	return v
}

// Unshare implements engine.Engine.
func (e *Engine) Unshare(ctx context.Context, rel string) error {
	_, err := e.db.ExecContext(ctx, "DROP TABLE IF EXISTS "+rel)
	return err
}

// Close implements engine.Engine; the database is the caller's.
func (e *Engine) Close() error { return nil }

// Open implements engine.Engine: a dedicated connection.
func (e *Engine) Open(ctx context.Context) (engine.Session, error) {
	conn, err := e.db.Conn(ctx)
	if err != nil {
		return nil, fmt.Errorf("DuckDB connection: %w", err)
	}
	return &Session{Conn: conn, files: e.files, parser: e.parser}, nil
}

// Session is a task's DuckDB connection (Conn: a session over a
// connection of the caller's, e.g. a test's).
type Session struct {
	Conn   *sql.Conn
	files  FilesReader
	parser *Parser
	// created are "VIEW name" / "TABLE name", to drop at Close.
	created []string
	// check: a schema check's session (OpenCheck), which keeps its views
	// as text.
	check *checkState
}

// Parser is the parser of the session's engine (Engine.Parser).
func (s *Session) Parser() *Parser { return s.parser }

// ErrStatements: a text holds more than one statement. The session runs
// one statement per text and refuses others before any of it runs:
// DuckDB's driver would run every statement of a text (those before the
// last one as soon as it prepares it), and the SQL of the pipelines is
// embedded in the runner's.
var ErrStatements = errors.New("the SQL holds more than one statement (a `;` ends the query): only the query runs, nothing before or after it")

// Exec implements engine.Session: one statement (ErrStatements).
func (s *Session) Exec(ctx context.Context, stmt string) error {
	if err := s.settle(ctx); err != nil {
		return err
	}
	return s.exec(ctx, stmt)
}

func (s *Session) exec(ctx context.Context, stmt string) error {
	return s.Conn.Raw(func(dc any) error {
		st, err := prepareOne(dc, stmt)
		if err != nil {
			return err
		}
		defer st.Close()
		_, err = st.(driver.StmtExecContext).ExecContext(ctx, nil)
		return err
	})
}

// QueryRow implements engine.Session: one statement (ErrStatements).
func (s *Session) QueryRow(ctx context.Context, query string, dest ...any) error {
	if s.checking() {
		if ok, err := s.checkQueryRow(ctx, query, dest...); ok || err != nil {
			return err
		}
	}
	if err := oneStatement(ctx, s.Conn, query); err != nil {
		return err
	}
	return s.Conn.QueryRowContext(ctx, query).Scan(dest...)
}

// oneStatement fails with ErrStatements, running nothing, when stmt holds
// more than one statement (q: a *sql.Conn or a *sql.DB).
func oneStatement(ctx context.Context, q Querier, stmt string) error {
	c, ok := q.(*sql.Conn)
	if db, isDB := q.(*sql.DB); isDB {
		conn, err := db.Conn(ctx)
		if err != nil {
			return err
		}
		defer conn.Close()
		c, ok = conn, true
	}
	if !ok {
		return nil
	}
	return c.Raw(func(dc any) error {
		st, err := prepareOne(dc, stmt)
		if err == nil {
			st.Close()
		}
		return err
	})
}

// prepareOne prepares a text of exactly one statement on a DuckDB driver
// connection (the driver's Prepare, unlike PrepareContext, runs nothing).
func prepareOne(dc any, stmt string) (driver.Stmt, error) {
	c, ok := dc.(*duckdb.Conn)
	if !ok {
		return nil, fmt.Errorf("local engine: not a DuckDB connection (%T)", dc)
	}
	st, err := c.Prepare(stmt)
	if err != nil && strings.Contains(err.Error(), "multi-statement") {
		return nil, ErrStatements
	}
	return st, err
}

// Describe implements engine.Session (DESCRIBE: bound, not run).
func (s *Session) Describe(ctx context.Context, query string) ([]engine.Column, error) {
	if s.checking() {
		if cols, ok := s.checkColumns(ctx, query); ok {
			return cols, nil
		}
		if err := s.settle(ctx); err != nil {
			return nil, err
		}
	}
	return Describe(ctx, s.Conn, query)
}

// Querier runs queries (a connection or a database).
type Querier interface {
	QueryContext(ctx context.Context, query string, args ...any) (*sql.Rows, error)
}

// Describe returns the columns of a DuckDB query (DESCRIBE: bound, not
// run). The statement is prepared once, on one connection, and its rows
// read from the driver: a schema check describes thousands of queries,
// and each prepare binds the query's views again.
func Describe(ctx context.Context, q Querier, query string) ([]engine.Column, error) {
	c, ok := q.(*sql.Conn)
	if db, isDB := q.(*sql.DB); isDB {
		conn, err := db.Conn(ctx)
		if err != nil {
			return nil, err
		}
		defer conn.Close()
		c, ok = conn, true
	}
	if !ok {
		return describeRows(ctx, q, query)
	}
	var out []engine.Column
	err := c.Raw(func(dc any) error {
		if cols, ok := preparedColumns(dc, query); ok {
			out = cols
			return nil
		}
		st, err := prepareOne(dc, "DESCRIBE "+query)
		if err != nil {
			return err
		}
		defer st.Close()
		rows, err := st.(driver.StmtQueryContext).QueryContext(ctx, nil)
		if err != nil {
			return err
		}
		defer rows.Close()
		vals := make([]driver.Value, len(rows.Columns()))
		for {
			switch err := rows.Next(vals); {
			case errors.Is(err, io.EOF):
				return nil
			case err != nil:
				return err
			}
			out = append(out, engine.Column{Name: fmt.Sprint(vals[0]), Type: fmt.Sprint(vals[1])})
		}
	})
	return out, err
}

// preparedColumns are the columns of query read from its prepared
// statement, without running anything: DuckDB binds (and plans) the query
// as DESCRIBE binds it, and the statement knows its result's names and
// types. A DESCRIBE is a query run besides (its executor started, its rows
// fetched), which costs about twice the prepare, and a schema check asks
// thousands. ok is false where the statement does not give what DESCRIBE
// would, and Describe then runs the DESCRIBE: the query does not prepare
// (DESCRIBE's error, placed in its text, is the one to report), it has
// parameters, or a column's type is one whose name DESCRIBE spells in a way
// not rendered here (describeTypeName).
func preparedColumns(dc any, query string) ([]engine.Column, bool) {
	c, ok := dc.(*duckdb.Conn)
	if !ok {
		return nil, false
	}
	st, err := c.Prepare(query)
	if err != nil {
		return nil, false
	}
	defer st.Close()
	ds, ok := st.(*duckdb.Stmt)
	if !ok || ds.NumInput() != 0 {
		return nil, false
	}
	if t, err := ds.StatementType(); err != nil || t != duckdb.STATEMENT_TYPE_SELECT {
		return nil, false
	}
	n, err := ds.ColumnCount()
	if err != nil {
		return nil, false
	}
	out := make([]engine.Column, n)
	for i := range n {
		name, err := ds.ColumnName(i)
		if err != nil {
			return nil, false
		}
		info, err := ds.ColumnTypeInfo(i)
		if err != nil {
			return nil, false
		}
		t, ok := describeTypeName(info)
		if !ok {
			return nil, false
		}
		out[i] = engine.Column{Name: name, Type: t}
	}
	return out, true
}

// describeTypeNames are the names DESCRIBE gives the types without
// parameters that preparedColumns renders (TestDescribeTypeNames compares
// each with DuckDB's DESCRIBE).
var describeTypeNames = map[duckdb.Type]string{
	duckdb.TYPE_BOOLEAN:      "BOOLEAN",
	duckdb.TYPE_TINYINT:      "TINYINT",
	duckdb.TYPE_SMALLINT:     "SMALLINT",
	duckdb.TYPE_INTEGER:      "INTEGER",
	duckdb.TYPE_BIGINT:       "BIGINT",
	duckdb.TYPE_UTINYINT:     "UTINYINT",
	duckdb.TYPE_USMALLINT:    "USMALLINT",
	duckdb.TYPE_UINTEGER:     "UINTEGER",
	duckdb.TYPE_UBIGINT:      "UBIGINT",
	duckdb.TYPE_HUGEINT:      "HUGEINT",
	duckdb.TYPE_UHUGEINT:     "UHUGEINT",
	duckdb.TYPE_FLOAT:        "FLOAT",
	duckdb.TYPE_DOUBLE:       "DOUBLE",
	duckdb.TYPE_VARCHAR:      "VARCHAR",
	duckdb.TYPE_BLOB:         "BLOB",
	duckdb.TYPE_DATE:         "DATE",
	duckdb.TYPE_TIME:         "TIME",
	duckdb.TYPE_TIME_TZ:      "TIME WITH TIME ZONE",
	duckdb.TYPE_INTERVAL:     "INTERVAL",
	duckdb.TYPE_TIMESTAMP:    "TIMESTAMP",
	duckdb.TYPE_TIMESTAMP_S:  "TIMESTAMP_S",
	duckdb.TYPE_TIMESTAMP_MS: "TIMESTAMP_MS",
	duckdb.TYPE_TIMESTAMP_NS: "TIMESTAMP_NS",
	duckdb.TYPE_TIMESTAMP_TZ: "TIMESTAMP WITH TIME ZONE",
	duckdb.TYPE_UUID:         "UUID",
	duckdb.TYPE_SQLNULL:      `"NULL"`,
}

// describeTypeName is the name DESCRIBE gives a column's type, for the
// types without an alias (JSON is a VARCHAR with one) that are in
// describeTypeNames or are decimals; ok is false for any other (lists,
// structs, maps, enums...: Describe asks DESCRIBE).
func describeTypeName(info duckdb.TypeInfo) (string, bool) {
	if info.Alias() != "" {
		return "", false
	}
	t := info.InternalType()
	if t == duckdb.TYPE_DECIMAL {
		d, ok := info.Details().(*duckdb.DecimalDetails)
		if !ok {
			return "", false
		}
		return fmt.Sprintf("DECIMAL(%d,%d)", d.Width, d.Scale), true
	}
	name, ok := describeTypeNames[t]
	return name, ok
}

// describeRows is Describe through a Querier that is neither a connection
// nor a database.
func describeRows(ctx context.Context, q Querier, query string) ([]engine.Column, error) {
	rows, err := q.QueryContext(ctx, "DESCRIBE "+query)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var out []engine.Column
	cols, _ := rows.Columns()
	for rows.Next() {
		vals := make([]any, len(cols))
		ptrs := make([]any, len(cols))
		for i := range vals {
			ptrs[i] = &vals[i]
		}
		if err := rows.Scan(ptrs...); err != nil {
			return nil, err
		}
		out = append(out, engine.Column{Name: fmt.Sprint(vals[0]), Type: fmt.Sprint(vals[1])})
	}
	return out, rows.Err()
}

// CreateView implements engine.Session.
func (s *Session) CreateView(ctx context.Context, name, query string) error {
	if s.checking() {
		if ok, err := s.checkCreateView(ctx, name, query); ok || err != nil {
			return err
		}
	}
	return s.createView(ctx, name, query)
}

func (s *Session) createView(ctx context.Context, name, query string) error {
	if err := s.exec(ctx, "CREATE TEMP VIEW "+quoteIdent(name)+" AS "+query); err != nil {
		return err
	}
	s.created = append(s.created, "VIEW IF EXISTS "+quoteIdent(name))
	return nil
}

// CreateTable implements engine.Session.
func (s *Session) CreateTable(ctx context.Context, name, query string) error {
	if err := s.Exec(ctx, "CREATE TEMP TABLE "+quoteIdent(name)+" AS "+query); err != nil {
		return err
	}
	s.created = append(s.created, "TABLE IF EXISTS "+quoteIdent(name))
	return nil
}

// Share implements engine.Session: a table of the database's in-memory
// catalog, which every connection sees.
func (s *Session) Share(ctx context.Context, name, query string) (string, error) {
	rel := "memory.main." + quoteIdent(name)
	if err := s.Exec(ctx, fmt.Sprintf("CREATE OR REPLACE TABLE %s AS %s", rel, query)); err != nil {
		return "", err
	}
	return rel, nil
}

// Close implements engine.Session: it drops what the session created
// (newest first, in one round trip; best effort: the objects are
// temporary) and returns the connection to the pool.
func (s *Session) Close() error {
	if len(s.created) > 0 {
		drops := make([]string, len(s.created))
		for i, c := range s.created {
			drops[len(s.created)-1-i] = "DROP " + c
		}
		s.Conn.ExecContext(context.Background(), strings.Join(drops, "; ")) //nolint:errcheck
	}
	return s.Conn.Close()
}

// Discard closes the connection for good instead of returning it to the
// pool: DuckDB drops its temporary objects with it, without a statement
// (a schema check's session). A check session that created nothing in
// DuckDB returns it to the pool.
func (s *Session) Discard() {
	if s.checking() {
		s.Conn.Close()
		return
	}
	s.Conn.Raw(func(any) error { return driver.ErrBadConn }) //nolint:errcheck // the error is the point
	s.Conn.Close()
}

// Rows implements engine.Session: DuckDB builds each row's JSON
// (foreach.RowJSON) and the connection streams them.
func (s *Session) Rows(ctx context.Context, query string) (engine.Rows, error) {
	if err := s.settle(ctx); err != nil {
		return nil, err
	}
	cols, err := s.Describe(ctx, query)
	if err != nil {
		return nil, err
	}
	fcols := make([]foreach.Column, len(cols))
	for i, c := range cols {
		fcols[i] = foreach.Column{Name: c.Name, Type: c.Type}
	}
	rows, err := s.Conn.QueryContext(ctx, "SELECT "+foreach.RowJSON(fcols)+" FROM ("+query+")")
	if err != nil {
		return nil, err
	}
	return jsonRows{Source: foreach.SQLRows(rows), rows: rows}, nil
}

// jsonRows are the rows of a query, one JSON text each.
type jsonRows struct {
	foreach.Source
	rows *sql.Rows
}

func (r jsonRows) Close() error { return r.rows.Close() }

// SaveParquet implements engine.Session: DuckDB's COPY writes one file,
// part-00000.parquet.
func (s *Session) SaveParquet(ctx context.Context, dir, query string) error {
	if err := os.Mkdir(dir, 0o755); err != nil {
		return err
	}
	path := filepath.Join(dir, "part-00000.parquet")
	return s.Exec(ctx, "COPY ("+query+") TO '"+strings.ReplaceAll(path, "'", "''")+"' (FORMAT parquet)")
}

// ReadFiles implements engine.Session.
func (s *Session) ReadFiles(ctx context.Context, files []string, format string, src *workspace.Source) (string, error) {
	if err := s.settle(ctx); err != nil {
		return "", err
	}
	return s.files(ctx, s.Conn, files, format, src)
}

// ScanTable implements engine.Session: package delta's scan SQL.
func (s *Session) ScanTable(ctx context.Context, snap *delta.Snapshot, opts engine.Scan) (string, error) {
	o := delta.ScanOptions{Columns: opts.Columns, Where: opts.Where, Files: opts.Files}
	return snap.ScanSQL(ctx, o)
}

// JoinsCreates implements engine.CreateJoiner: Begin passes the options to
// package delta, which joins a concurrent create (WriteOptions.JoinCreate).
func (s *Session) JoinsCreates() bool { return true }

// Begin implements engine.Session.
func (s *Session) Begin(ctx context.Context, path string, snap *delta.Snapshot, def delta.TableDefinition, opts delta.WriteOptions) (engine.Txn, error) {
	if err := s.settle(ctx); err != nil {
		return nil, err
	}
	var tx *delta.Transaction
	var err error
	if snap == nil {
		tx, err = delta.BeginCreate(path, def, opts)
	} else {
		tx, err = snap.Begin(opts)
	}
	if err != nil {
		return nil, err
	}
	return &Txn{Tx: tx, conn: s.Conn}, nil
}

// Txn is a package delta transaction whose data DuckDB writes.
type Txn struct {
	Tx   *delta.Transaction
	conn *sql.Conn
}

// SetAppTransaction implements engine.Txn.
func (t *Txn) SetAppTransaction(appID string, version int64) (bool, error) {
	return t.Tx.SetAppTransaction(appID, version)
}

// Append implements engine.Txn.
func (t *Txn) Append(ctx context.Context, query string) error {
	_, err := t.Tx.Append(ctx, t.conn, query)
	return err
}

// Overwrite implements engine.Txn.
func (t *Txn) Overwrite(ctx context.Context, query string) error {
	_, err := t.Tx.Overwrite(ctx, t.conn, query)
	return err
}

// Delete implements engine.Txn.
func (t *Txn) Delete(ctx context.Context, predicate string) error {
	_, err := t.Tx.Delete(ctx, t.conn, predicate)
	return err
}

// Truncate implements engine.Txn.
func (t *Txn) Truncate(ctx context.Context) error {
	_, err := t.Tx.Truncate(ctx)
	return err
}

// AddedRows implements engine.Txn.
func (t *Txn) AddedRows() int64 { return t.Tx.Metrics().AddedRows }

// Commit implements engine.Txn.
func (t *Txn) Commit(ctx context.Context) (*delta.CommitResult, error) { return t.Tx.Commit(ctx) }

// Abort implements engine.Txn.
func (t *Txn) Abort() { t.Tx.Abort() } //nolint:errcheck // the staged files are removed best effort

func quoteIdent(s string) string { return `"` + strings.ReplaceAll(s, `"`, `""`) + `"` }
