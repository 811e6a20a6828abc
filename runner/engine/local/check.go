package local

import (
	"context"
	"database/sql"
	"database/sql/driver"
	"errors"
	"fmt"
	"io"
	"strings"

	duckdb "github.com/duckdb/duckdb-go/v2"

	"github.com/laktory/workbench/runner/engine"
)

// A schema check's session (Engine.OpenCheck) binds a node and runs
// nothing: its views are kept as text, each bound when it is created by
// preparing it as a common table expression over the views it reads, and
// every later statement is prepared with them in front. A CREATE TEMP VIEW
// is a statement DuckDB runs (a catalog write in a transaction) and a
// DESCRIBE one whose rows are fetched; a prepared statement is bound and
// planned only, and gives its result's columns. A schema check makes about
// nine of these statements per node, for thousands of nodes.
//
// Where that form could answer otherwise than the views would, the session
// gives up on it for good: it creates the views it kept as temporary views
// (materialize) and runs the statement as any session does, so errors are
// DuckDB's for the statements it always ran (their text is what the check
// places in the YAML). It gives up when a statement does not prepare, when
// a view's text is not plainly one query (checkQueryText), when a view
// would have two columns of one name, when a column's type is not one
// preparedColumns renders, and for any other method of the session.

// checkView is a view a check session keeps as text.
type checkView struct {
	name  string // as created (unquoted)
	query string
	cols  []engine.Column
}

// checkState is a check session's views; nil on other sessions.
type checkState struct {
	views []checkView
	// real: the views were created in DuckDB, and the session works as
	// any other from now on.
	real bool
}

// OpenCheck is Open for a schema check: a session that binds and runs
// nothing (its views kept as text, see checkState), whose connection goes
// back to the pool when it is discarded having created nothing.
func (e *Engine) OpenCheck(ctx context.Context) (engine.Session, error) {
	s, err := e.Open(ctx)
	if err != nil {
		return nil, err
	}
	s.(*Session).check = &checkState{}
	return s, nil
}

// Materialized reports whether a check session gave up on keeping its
// views as text (false on other sessions).
func (s *Session) Materialized() bool { return s.check != nil && s.check.real }

// checking: the session keeps its views as text.
func (s *Session) checking() bool { return s.check != nil && !s.check.real }

// settle creates the views a check session kept as text, so that the
// statements that follow run as on any session.
func (s *Session) settle(ctx context.Context) error {
	if !s.checking() {
		return nil
	}
	s.check.real = true
	for _, v := range s.check.views {
		if err := s.createView(ctx, v.name, v.query); err != nil {
			return err
		}
	}
	return nil
}

// checkCreateView is CreateView on a check session: the view's text
// prepared with the views it reads in front; ok is false when the session
// gave up (the caller creates the view in DuckDB).
func (s *Session) checkCreateView(ctx context.Context, name, query string) (bool, error) {
	if !checkQueryText(query) {
		return false, s.settle(ctx)
	}
	cols, ok := s.checkColumns(ctx, query)
	if !ok || duplicateNames(cols) {
		return false, s.settle(ctx)
	}
	s.check.views = append(s.check.views, checkView{name: name, query: query, cols: cols})
	return true, nil
}

// checkColumns prepares query with the views it reads (directly or
// through others) in front as common table expressions, and reads its
// columns from the statement.
func (s *Session) checkColumns(ctx context.Context, query string) ([]engine.Column, bool) {
	if !checkQueryText(query) {
		return nil, false
	}
	// A view that reads nothing but another kept view: its columns.
	for _, v := range s.check.views {
		if query == "SELECT * FROM "+quoteIdent(v.name) {
			return v.cols, true
		}
	}
	stmt := s.withViews(query)
	var cols []engine.Column
	var ok bool
	err := s.Conn.Raw(func(dc any) error {
		cols, ok = preparedColumns(dc, stmt)
		return nil
	})
	return cols, ok && err == nil && ctx.Err() == nil
}

// withViews is query with the kept views it reads in front, in the order
// they were created (a view reads only views created before it).
func (s *Session) withViews(query string) string {
	need := make([]bool, len(s.check.views))
	texts := []string{query}
	for i := len(s.check.views) - 1; i >= 0; i-- {
		v := s.check.views[i]
		for _, t := range texts {
			if strings.Contains(t, v.name) {
				need[i] = true
				texts = append(texts, v.query)
				break
			}
		}
	}
	var b strings.Builder
	for i, v := range s.check.views {
		if !need[i] {
			continue
		}
		if b.Len() == 0 {
			b.WriteString("WITH ")
		} else {
			b.WriteString(", ")
		}
		fmt.Fprintf(&b, "%s AS NOT MATERIALIZED (%s\n)", quoteIdent(v.name), v.query)
	}
	if b.Len() == 0 {
		return query
	}
	b.WriteString(" ")
	b.WriteString(query)
	return b.String()
}

// checkQueryRow is QueryRow on a check session: the query as a subquery
// under the views it reads, or ok false (the session gave up).
func (s *Session) checkQueryRow(ctx context.Context, query string, dest ...any) (bool, error) {
	if !checkQueryText(query) {
		return false, s.settle(ctx)
	}
	if !scannable(dest) {
		return false, s.settle(ctx)
	}
	var prepared bool
	err := s.Conn.Raw(func(dc any) error {
		c, ok := dc.(*duckdb.Conn)
		if !ok {
			return nil
		}
		// A query that reads no kept view (one that names its own
		// relations, as the NULL probe of an expectation does) prepares
		// as it is: no object of DuckDB's catalog has a kept view's name,
		// so it reads what it would read beside the views.
		st, err := c.Prepare(query)
		if err != nil {
			st, err = c.Prepare(s.withViews("SELECT * FROM (" + query + "\n)"))
		}
		if err != nil {
			return nil
		}
		defer st.Close()
		ds, ok := st.(*duckdb.Stmt)
		if !ok || ds.NumInput() != 0 {
			return nil
		}
		if t, err := ds.StatementType(); err != nil || t != duckdb.STATEMENT_TYPE_SELECT {
			return nil
		}
		prepared = true
		rows, err := ds.QueryContext(ctx, nil)
		if err != nil {
			return err
		}
		defer rows.Close()
		vals := make([]driver.Value, len(rows.Columns()))
		if err := rows.Next(vals); errors.Is(err, io.EOF) {
			return sql.ErrNoRows
		} else if err != nil {
			return err
		}
		return scanValues(vals, dest)
	})
	if !prepared {
		return false, s.settle(ctx)
	}
	return true, err
}

// scannable: scanValues takes every destination.
func scannable(dest []any) bool {
	for _, d := range dest {
		switch d.(type) {
		case *any, *bool, **bool, *int64, *string:
		default:
			return false
		}
	}
	return true
}

// scanValues assigns a row's values to dest (the pointers QueryRow takes:
// *bool, **bool, *int64, *string, *any).
func scanValues(vals []driver.Value, dest []any) error {
	if len(vals) != len(dest) {
		return fmt.Errorf("local engine: %d columns, %d destinations", len(vals), len(dest))
	}
	for i, v := range vals {
		switch d := dest[i].(type) {
		case *any:
			*d = v
		case *bool:
			b, ok := v.(bool)
			if !ok {
				return fmt.Errorf("local engine: column %d is %T, not a bool", i, v)
			}
			*d = b
		case **bool:
			if v == nil {
				*d = nil
				continue
			}
			b, ok := v.(bool)
			if !ok {
				return fmt.Errorf("local engine: column %d is %T, not a bool", i, v)
			}
			*d = &b
		case *int64:
			n, ok := v.(int64)
			if !ok {
				return fmt.Errorf("local engine: column %d is %T, not an int64", i, v)
			}
			*d = n
		case *string:
			str, ok := v.(string)
			if !ok {
				return fmt.Errorf("local engine: column %d is %T, not a string", i, v)
			}
			*d = str
		default:
			return fmt.Errorf("local engine: cannot scan into %T", dest[i])
		}
	}
	return nil
}

// duplicateNames: two columns have one name (DuckDB's names are not case
// sensitive).
func duplicateNames(cols []engine.Column) bool {
	seen := make(map[string]bool, len(cols))
	for _, c := range cols {
		k := strings.ToLower(c.Name)
		if seen[k] {
			return true
		}
		seen[k] = true
	}
	return false
}

// checkQueryText: text reads as one query that a common table expression
// or a subquery can hold unchanged: outside its string literals and
// quoted names its brackets balance (never closing one it did not open),
// and it has no semicolon, comment, dollar-quoted or escape string
// (E'...'), which this scan does not follow.
func checkQueryText(text string) bool {
	depth := 0
	for i := 0; i < len(text); i++ {
		switch ch := text[i]; ch {
		case '\'', '"':
			j := strings.IndexByte(text[i+1:], ch)
			if j < 0 {
				return false
			}
			if ch == '\'' && i > 0 && (text[i-1] == 'e' || text[i-1] == 'E') && (i < 2 || !isIdentByte(text[i-2])) {
				return false
			}
			i += j + 1
		case '(':
			depth++
		case ')':
			depth--
			if depth < 0 {
				return false
			}
		case ';', '$', '\\':
			return false
		case '-':
			if i+1 < len(text) && text[i+1] == '-' {
				return false
			}
		case '/':
			if i+1 < len(text) && text[i+1] == '*' {
				return false
			}
		}
	}
	return depth == 0
}

func isIdentByte(b byte) bool {
	return b == '_' || b >= 'a' && b <= 'z' || b >= 'A' && b <= 'Z' || b >= '0' && b <= '9'
}
