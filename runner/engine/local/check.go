package local

import (
	"context"
	"database/sql"
	"database/sql/driver"
	"errors"
	"fmt"
	"io"
	"slices"
	"strings"
	"sync"
	"sync/atomic"

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
	// shape is a query of no rows with the view's columns (shapeQuery);
	// exact: a statement over the view binds over its shape as over the
	// view (see shapes).
	shape string
	exact bool
}

// checkState is a check session's views; nil on other sessions.
type checkState struct {
	views []checkView
	// binds: the columns of the statements the check sessions of one
	// schema check prepared (WithCheckBinds), nil: none kept.
	binds *CheckBinds
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
	s.(*Session).check = &checkState{binds: checkBindsFrom(ctx)}
	return s, nil
}

// CheckBinds are the columns of the statements that the check sessions of
// one schema check prepared, by their text with the names of the
// sessions' kept views numbered instead (bindKey): the nodes of a
// workspace repeat their shapes (the same sources, steps over the same
// columns, the same expectations), and with the views they read written as
// their shapes (withShapes) the statements of two nodes are often one text.
// Only statements that prepared are kept; errors are DuckDB's, each time.
// A statement's columns are those its text binds to, with the catalog and
// the files it may read as they were when it was first prepared: the
// binds are kept for one check (one validate), as its schemas are read
// once.
type CheckBinds struct {
	m sync.Map // key -> []engine.Column
	n atomic.Int64
	// hits, for the benchmarks and tests.
	hits atomic.Int64
}

// maxCheckBinds bounds the binds one check keeps.
const maxCheckBinds = 100_000

type checkBindsKey struct{}

// WithCheckBinds is ctx with a new CheckBinds, which the check sessions
// opened with it (Engine.OpenCheck) share.
func WithCheckBinds(ctx context.Context) (context.Context, *CheckBinds) {
	b := &CheckBinds{}
	return context.WithValue(ctx, checkBindsKey{}, b), b
}

func checkBindsFrom(ctx context.Context) *CheckBinds {
	b, _ := ctx.Value(checkBindsKey{}).(*CheckBinds)
	return b
}

// Hits is the number of statements answered from the binds kept.
func (b *CheckBinds) Hits() int64 { return b.hits.Load() }

// bindKey is stmt with each quoted name of a kept view replaced by a
// number ("\x00" and the order of its first place in stmt), so that two
// sessions' statements over views of the same texts are one key; ok is false where
// that would not be exact: the text holds a NUL, or a view's name appears
// elsewhere than as a quoted name (in a string literal, unquoted).
func (s *Session) bindKey(stmt string) (string, bool) {
	if strings.IndexByte(stmt, 0) >= 0 {
		return "", false
	}
	views := s.check.views
	order := map[string]int{}
	var b strings.Builder
	b.Grow(len(stmt))
	for i := 0; i < len(stmt); i++ {
		ch := stmt[i]
		if ch != '"' && ch != '\'' {
			b.WriteByte(ch)
			continue
		}
		j := strings.IndexByte(stmt[i+1:], ch)
		if j < 0 {
			return "", false
		}
		tok := stmt[i+1 : i+1+j]
		if ch == '"' && viewIndex(views, tok) >= 0 {
			k, seen := order[tok]
			if !seen {
				k = len(order)
				order[tok] = k
			}
			fmt.Fprintf(&b, "\"\x00%d\"", k)
			i += j + 1
			continue
		}
		b.WriteString(stmt[i : i+j+2])
		i += j + 1
	}
	key := b.String()
	// Outside the names replaced, no view's name may remain.
	for _, v := range views {
		if strings.Contains(key, v.name) {
			return "", false
		}
	}
	return key, true
}

// viewIndex is the index of the kept view named name, or -1.
func viewIndex(views []checkView, name string) int {
	for k, v := range views {
		if v.name == name {
			return k
		}
	}
	return -1
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
	exact := !containsFold(query, "collat") && !untypedNull(query)
	for _, v := range s.check.views {
		if !v.exact && strings.Contains(query, v.name) {
			exact = false
			break
		}
	}
	s.check.views = append(s.check.views, checkView{name: name, query: query, cols: cols, shape: shapeQuery(cols), exact: exact})
	return true, nil
}

// shapeQuery is a query of no rows with the given columns, as the schema
// check's empty relations are written; "" where there is none (no
// columns, a column of NULLs).
func shapeQuery(cols []engine.Column) string {
	if len(cols) == 0 {
		return ""
	}
	var b strings.Builder
	b.WriteString("SELECT ")
	for i, c := range cols {
		if i > 0 {
			b.WriteString(", ")
		}
		if c.Type == `"NULL"` {
			// Neither CAST(NULL AS "NULL") nor NULL of a relation of
			// no rows is read as a view's column of NULLs
			// (coalesce(n, 'z') is an INTEGER over them, a VARCHAR over
			// the view): no shape.
			return ""
		}
		fmt.Fprintf(&b, "CAST(NULL AS %s) AS %s", c.Type, quoteIdent(c.Name))
	}
	b.WriteString(" LIMIT 0")
	return b.String()
}

// untypedNull: text has a NULL that is not a test (IS NULL, IS NOT NULL)
// or typed (CAST(NULL AS t), NULL::t), so a column of the view may be of
// DuckDB's NULL type: a prepared statement gives such a column as an
// INTEGER, while a view keeps it NULL (coalesce(n, 'z') is a VARCHAR over
// the view). The text is not parsed: a NULL in a string literal counts.
func untypedNull(text string) bool {
	low := strings.ToLower(text)
	for i := 0; ; {
		j := strings.Index(low[i:], "null")
		if j < 0 {
			return false
		}
		at, end := i+j, i+j+len("null")
		i = end
		if at > 0 && isIdentByte(low[at-1]) || end < len(low) && isIdentByte(low[end]) {
			continue
		}
		before := strings.TrimRight(low[:at], " \t\r\n")
		after := strings.TrimLeft(low[end:], " \t\r\n")
		switch {
		case strings.HasSuffix(before, "cast(") && strings.HasPrefix(after, "as") && (len(after) == 2 || !isIdentByte(after[2])):
		case strings.HasPrefix(after, "::"):
		case wordSuffix(before, "is"):
		case wordSuffix(before, "not") && wordSuffix(strings.TrimRight(strings.TrimSuffix(before, "not"), " \t\r\n"), "is"):
		default:
			return true
		}
	}
}

// wordSuffix: s ends with the word w.
func wordSuffix(s, w string) bool {
	return strings.HasSuffix(s, w) && (len(s) == len(w) || !isIdentByte(s[len(s)-len(w)-1]))
}

// containsFold: s holds sub, whatever the case of either.
func containsFold(s, sub string) bool {
	return strings.Contains(strings.ToLower(s), sub)
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
	stmt, shaped := s.withShapes(query)
	if !shaped {
		stmt = s.withViews(query)
	}
	var key string
	binds := s.check.binds
	if binds != nil {
		var keyed bool
		if key, keyed = s.bindKey(stmt); !keyed {
			binds = nil
		} else if c, hit := binds.m.Load(key); hit {
			binds.hits.Add(1)
			return slices.Clone(c.([]engine.Column)), true
		}
	}
	var cols []engine.Column
	var ok bool
	err := s.Conn.Raw(func(dc any) error {
		cols, ok = preparedColumns(dc, stmt)
		return nil
	})
	ok = ok && err == nil && ctx.Err() == nil
	if ok && binds != nil && binds.n.Add(1) <= maxCheckBinds {
		binds.m.Store(key, slices.Clone(cols))
	}
	return cols, ok
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

// withShapes is query with the kept views it reads in front as queries of
// no rows of their columns (checkView.shape), each view's text bound once
// (when it was created) instead of again under every statement that reads
// it: a node's chain of views (its inputs, sources, filters, steps, its
// expectations) bound again at each link cost time in the square of its
// length. A statement's names and types are those of the columns it
// reads, not of how a view computes them, except where ok is false and
// withViews is used: a view whose column's type carries what its name does
// not (a collation; DuckDB's NULL type, which a prepared statement names
// INTEGER), or that reads such a view, and a view with no columns. (What
// DuckDB computes from rows at bind time, PIVOT without IN lists, query()
// and query_table(), reads the catalog, where kept views are not: those
// statements do not prepare either way, and the session gives up.)
func (s *Session) withShapes(query string) (string, bool) {
	var b strings.Builder
	for _, v := range s.check.views {
		if !strings.Contains(query, v.name) {
			continue
		}
		if !v.exact || v.shape == "" {
			return "", false
		}
		if b.Len() == 0 {
			b.WriteString("WITH ")
		} else {
			b.WriteString(", ")
		}
		fmt.Fprintf(&b, "%s AS NOT MATERIALIZED (%s\n)", quoteIdent(v.name), v.shape)
	}
	if b.Len() == 0 {
		return query, true
	}
	b.WriteString(" ")
	b.WriteString(query)
	return b.String(), true
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
