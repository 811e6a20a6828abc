package runner

import (
	"context"
	"database/sql"
	"database/sql/driver"
	"fmt"
	"strings"
	"sync/atomic"

	duckdb "github.com/duckdb/duckdb-go/v2"
)

// session is a task's dedicated DuckDB connection and the temporary views
// and tables it creates there. Views chain (source -> steps -> output) so
// data flows through DuckDB and never through Go.
type session struct {
	conn    *sql.Conn
	prefix  string
	n       int
	created []string // "VIEW name" / "TABLE name", to drop at close
}

var sessionSeq atomic.Int64

func newSession(ctx context.Context, db *sql.DB) (*session, error) {
	conn, err := db.Conn(ctx)
	if err != nil {
		return nil, fmt.Errorf("DuckDB connection: %w", err)
	}
	return &session{conn: conn, prefix: fmt.Sprintf("lk%d_", sessionSeq.Add(1))}, nil
}

// name returns a new unique temporary object name with a readable hint.
func (s *session) name(hint string) string {
	s.n++
	var b strings.Builder
	for _, r := range hint {
		if r == '_' || (r >= 'a' && r <= 'z') || (r >= 'A' && r <= 'Z') || (r >= '0' && r <= '9') {
			b.WriteRune(r)
		} else {
			b.WriteByte('_')
		}
	}
	return fmt.Sprintf("%s%d_%s", s.prefix, s.n, b.String())
}

// view creates a temporary view over query and returns its name.
func (s *session) view(ctx context.Context, hint, query string) (string, error) {
	name := s.name(hint)
	stmt := "CREATE TEMP VIEW " + quoteIdent(name) + " AS " + query
	if err := s.exec(ctx, stmt); err != nil {
		return "", &sqlError{stmt: stmt, err: err}
	}
	s.created = append(s.created, "VIEW IF EXISTS "+quoteIdent(name))
	return name, nil
}

// table materializes query into a temporary table and returns its name and
// row count.
func (s *session) table(ctx context.Context, hint, query string) (string, int64, error) {
	name := s.name(hint)
	if err := s.exec(ctx, "CREATE TEMP TABLE "+quoteIdent(name)+" AS "+query); err != nil {
		return "", 0, err
	}
	s.created = append(s.created, "TABLE IF EXISTS "+quoteIdent(name))
	var n int64
	if err := s.conn.QueryRowContext(ctx, "SELECT count(*) FROM "+quoteIdent(name)).Scan(&n); err != nil {
		return "", 0, err
	}
	return name, n, nil
}

// errStatements: a text the session runs holds more than one statement.
var errStatements = fmt.Errorf("%w: the SQL holds more than one statement (a `;` ends the query): only the query runs, nothing before or after it", ErrStep)

// exec runs one statement. DuckDB's driver runs every statement of a text
// (those before the last one as soon as it prepares it), and the SQL of
// the pipelines is embedded in the runner's, so a text holding more than
// one statement is refused before any of it runs (errStatements).
func (s *session) exec(ctx context.Context, stmt string) error {
	return s.conn.Raw(func(dc any) error {
		st, err := prepareOne(dc, stmt)
		if err != nil {
			return err
		}
		defer st.Close()
		_, err = st.(driver.StmtExecContext).ExecContext(ctx, nil)
		return err
	})
}

// queryRow is QueryRowContext for a query holding SQL of the pipelines:
// one statement only (errStatements).
func (s *session) queryRow(ctx context.Context, q string, dest ...any) error {
	if err := oneStatement(ctx, s.conn, q); err != nil {
		return err
	}
	return s.conn.QueryRowContext(ctx, q).Scan(dest...)
}

// oneStatement fails with errStatements, running nothing, when stmt holds
// more than one statement (q: a *sql.Conn or a *sql.DB).
func oneStatement(ctx context.Context, q querier, stmt string) error {
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
		return nil, fmt.Errorf("runner: not a DuckDB connection (%T)", dc)
	}
	st, err := c.Prepare(stmt)
	if err != nil && strings.Contains(err.Error(), "multi-statement") {
		return nil, errStatements
	}
	return st, err
}

// column is a column of a relation.
type column struct {
	Name string
	Type string
}

// sqlError is DuckDB's error for a statement, kept with it so a check
// can place the error in the YAML text the statement embeds. It reads as
// DuckDB's error.
type sqlError struct {
	stmt string
	err  error
}

func (e *sqlError) Error() string { return e.err.Error() }
func (e *sqlError) Unwrap() error { return e.err }

// querier runs queries (a connection or a database).
type querier interface {
	QueryContext(ctx context.Context, query string, args ...any) (*sql.Rows, error)
}

// columns describes a relation (a view, a table or a query in brackets).
func (s *session) columns(ctx context.Context, rel string) ([]column, error) {
	return describe(ctx, s.conn, "SELECT * FROM "+rel)
}

// describe returns the columns of a query (DESCRIBE: bound, not run).
func describe(ctx context.Context, q querier, query string) ([]column, error) {
	stmt := "DESCRIBE " + query
	if err := oneStatement(ctx, q, stmt); err != nil {
		return nil, &sqlError{stmt: stmt, err: err}
	}
	rows, err := q.QueryContext(ctx, stmt)
	if err != nil {
		return nil, &sqlError{stmt: stmt, err: err}
	}
	defer rows.Close()
	var out []column
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
		out = append(out, column{Name: fmt.Sprint(vals[0]), Type: fmt.Sprint(vals[1])})
	}
	return out, rows.Err()
}

func columnNames(cs []column) []string {
	out := make([]string, len(cs))
	for i, c := range cs {
		out[i] = c.Name
	}
	return out
}

// discard closes the session's connection for good instead of returning
// it to the pool: DuckDB drops its temporary views with it, without a
// statement (a check's session).
func (s *session) discard() {
	s.conn.Raw(func(any) error { return driver.ErrBadConn }) //nolint:errcheck // the error is the point
	s.conn.Close()
}

// close drops what the session created (newest first) and returns the
// connection to the pool.
func (s *session) close() {
	if len(s.created) > 0 {
		drops := make([]string, len(s.created))
		for i, c := range s.created {
			drops[len(s.created)-1-i] = "DROP " + c
		}
		// One round trip (a check closes a session per node); best effort:
		// the objects are temporary.
		s.conn.ExecContext(context.Background(), strings.Join(drops, "; ")) //nolint:errcheck
	}
	s.conn.Close()
}
