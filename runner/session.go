package runner

import (
	"context"
	"database/sql"
	"database/sql/driver"
	"fmt"
	"strings"
	"sync/atomic"
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
	if _, err := s.conn.ExecContext(ctx, stmt); err != nil {
		return "", &sqlError{stmt: stmt, err: err}
	}
	s.created = append(s.created, "VIEW IF EXISTS "+quoteIdent(name))
	return name, nil
}

// table materializes query into a temporary table and returns its name and
// row count.
func (s *session) table(ctx context.Context, hint, query string) (string, int64, error) {
	name := s.name(hint)
	if _, err := s.conn.ExecContext(ctx, "CREATE TEMP TABLE "+quoteIdent(name)+" AS "+query); err != nil {
		return "", 0, err
	}
	s.created = append(s.created, "TABLE IF EXISTS "+quoteIdent(name))
	var n int64
	if err := s.conn.QueryRowContext(ctx, "SELECT count(*) FROM "+quoteIdent(name)).Scan(&n); err != nil {
		return "", 0, err
	}
	return name, n, nil
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
