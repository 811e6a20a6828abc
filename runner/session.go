package runner

import (
	"context"
	"errors"
	"fmt"
	"os"
	"strings"
	"sync/atomic"
	"time"

	"github.com/laktory/workbench/delta"
	"github.com/laktory/workbench/runner/dialect/spark"
	"github.com/laktory/workbench/runner/engine"
	"github.com/laktory/workbench/runner/engine/local"
	"github.com/laktory/workbench/runner/landing"
	"github.com/laktory/workbench/runner/sparksql"
	"github.com/laktory/workbench/validate"
	"github.com/laktory/workbench/workspace"
)

// session is a task's session on the run's engine (engine.Session) and
// the temporary views and tables it creates there. Views chain (source ->
// steps -> output) so data flows through the engine and never through Go.
type session struct {
	e engine.Session
	// native: the engine reads the YAML's Spark SQL as written (Spark).
	native bool
	prefix string
	n      int
	// settle is the settle window of the landing files the session reads
	// (Config.Settle); skipped reports the entries a read skipped (nil: a
	// schema check's session, whose validation reports them).
	settle  time.Duration
	skipped func(path string, l landing.Listing)
}

var sessionSeq atomic.Int64

func newSession(ctx context.Context, eng engine.Engine) (*session, error) {
	es, err := eng.Open(ctx)
	if err != nil {
		return nil, err
	}
	return &session{e: es, native: eng.Info().Name != engine.Local, prefix: fmt.Sprintf("lk%d_", sessionSeq.Add(1))}, nil
}

// newCheckSession is a schema check's session: on the local engine one
// that binds and runs nothing (local.Engine.OpenCheck).
func newCheckSession(ctx context.Context, eng engine.Engine) (*session, error) {
	le, ok := eng.(*local.Engine)
	if !ok {
		return newSession(ctx, eng)
	}
	es, err := le.OpenCheck(ctx)
	if err != nil {
		return nil, err
	}
	return &session{e: es, prefix: fmt.Sprintf("lk%d_", sessionSeq.Add(1))}, nil
}

// where is a `where` ownership predicate as the session's engine reads it:
// Spark evaluates the Spark SQL as written; the local engine its
// translation (whereSQL).
func (s *session) where(where, backend string, conf map[string]string, cols []sparksql.Column) string {
	if s.native {
		return "(" + where + ")"
	}
	return whereSQL(s.parser(), where, backend, conf, cols)
}

// parser is the local engine's SQL parser (nil on another engine, which
// reads predicates as written).
func (s *session) parser() validate.SQL {
	if ls, ok := s.e.(*local.Session); ok {
		return ls.Parser()
	}
	return nil
}

// ownerPredicate is ownerPredicate's predicate as the session's engine
// reads it.
func (s *session) ownerPredicate(w *workspace.Writer, schema *delta.StructType) string {
	if s.native && w != nil && w.Ownership == workspace.OwnerWhere {
		return "(" + w.Where + ")"
	}
	_, pred := ownerPredicate(s.parser(), w, schema)
	return pred
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
	if err := s.e.CreateView(ctx, name, query); err != nil {
		return "", &sqlError{stmt: "CREATE TEMP VIEW " + quoteIdent(name) + " AS " + query, err: stepError(err)}
	}
	return name, nil
}

// table materializes query into a temporary table and returns its name and
// row count.
func (s *session) table(ctx context.Context, hint, query string) (string, int64, error) {
	name := s.name(hint)
	if err := s.e.CreateTable(ctx, name, query); err != nil {
		return "", 0, stepError(err)
	}
	n, err := s.count(ctx, name)
	return name, n, err
}

// count counts the rows of a relation.
func (s *session) count(ctx context.Context, rel string) (int64, error) {
	var n int64
	err := s.queryRow(ctx, "SELECT count(*) FROM "+quoteIdent(rel), &n)
	return n, err
}

// queryRow runs a query holding SQL of the pipelines and scans its first
// row: one statement only (errStatements).
func (s *session) queryRow(ctx context.Context, q string, dest ...any) error {
	return stepError(s.e.QueryRow(ctx, q, dest...))
}

// errStatements: a text the session runs holds more than one statement.
// The local engine refuses it before any of it runs (DuckDB's driver runs
// every statement of a text, and the SQL of the pipelines is embedded in
// the runner's).
var errStatements = fmt.Errorf("%w: %w", ErrStep, local.ErrStatements)

// stepError makes the local engine's refusal of several statements an
// error of the step (errStatements).
func stepError(err error) error {
	if errors.Is(err, local.ErrStatements) && !errors.Is(err, ErrStep) {
		return errStatements
	}
	return err
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

// columns describes a relation (a view, a table or a query in brackets).
func (s *session) columns(ctx context.Context, rel string) ([]column, error) {
	return s.describe(ctx, "SELECT * FROM "+rel)
}

// describe returns the columns of a query (bound, not run).
func (s *session) describe(ctx context.Context, query string) ([]column, error) {
	cols, err := s.e.Describe(ctx, query)
	return engineColumns(query, cols, err)
}

// describe returns the columns of a DuckDB query of the runner's own
// database (bound, not run).
func describe(ctx context.Context, q local.Querier, query string) ([]column, error) {
	cols, err := local.Describe(ctx, q, query)
	return engineColumns(query, cols, err)
}

// engineColumns converts an engine's columns, or its error into a
// *sqlError of the DESCRIBE of query.
func engineColumns(query string, cols []engine.Column, err error) ([]column, error) {
	if err != nil {
		return nil, &sqlError{stmt: "DESCRIBE " + query, err: stepError(err)}
	}
	out := make([]column, len(cols))
	for i, c := range cols {
		out[i] = column{Name: c.Name, Type: c.Type}
	}
	return out, nil
}

func columnNames(cs []column) []string {
	out := make([]string, len(cs))
	for i, c := range cs {
		out[i] = c.Name
	}
	return out
}

// discard ends a schema check's session: a local one is closed for good
// (DuckDB drops its temporary views with the connection, without a
// statement).
func (s *session) discard() {
	if ls, ok := s.e.(*local.Session); ok {
		ls.Discard()
		return
	}
	s.e.Close() //nolint:errcheck // best effort
}

// close drops what the session created and ends it.
func (s *session) close() { s.e.Close() } //nolint:errcheck // best effort: the objects are temporary

// loadTable returns the latest snapshot of the Delta table at path, or nil
// (and no error) when no Delta table is there yet.
func loadTable(ctx context.Context, path string) (*delta.Snapshot, error) {
	s, err := delta.LoadSnapshot(ctx, path)
	if errors.Is(err, delta.ErrNotDeltaTable) {
		return nil, nil
	}
	return s, err
}

// countRows counts the rows of a snapshot matching where (all rows when
// where is empty).
func (r *Runner) countRows(ctx context.Context, s *delta.Snapshot, where string) (int64, error) {
	return s.Count(ctx, r.db, delta.ScanOptions{Where: where})
}

// pathExists reports whether a file or folder exists.
func pathExists(p string) bool {
	_, err := os.Stat(p)
	return err == nil
}

// quoteIdent quotes a DuckDB identifier.
func quoteIdent(s string) string { return `"` + strings.ReplaceAll(s, `"`, `""`) + `"` }

// quoteString quotes a DuckDB string literal.
func quoteString(s string) string { return "'" + strings.ReplaceAll(s, "'", "''") + "'" }

// identList quotes and joins column names.
func identList(cols []string) string {
	q := make([]string, len(cols))
	for i, c := range cols {
		q[i] = quoteIdent(c)
	}
	return strings.Join(q, ", ")
}

// stringList quotes and joins strings as a DuckDB list literal.
func stringList(ss []string) string {
	q := make([]string, len(ss))
	for i, s := range ss {
		q[i] = quoteString(s)
	}
	return "[" + strings.Join(q, ", ") + "]"
}

// isIdent reports whether s is a bare column name (letters, digits and
// underscores, not starting with a digit) rather than an expression.
func isIdent(s string) bool {
	if s == "" {
		return false
	}
	for i, r := range s {
		switch {
		case r == '_' || (r >= 'a' && r <= 'z') || (r >= 'A' && r <= 'Z'):
		case r >= '0' && r <= '9' && i > 0:
		default:
			return false
		}
	}
	return true
}

// splitStatements splits SQL on semicolons outside quotes and comments,
// dropping empty statements.
func splitStatements(sql string) []string {
	var out []string
	var cur strings.Builder
	flush := func() {
		if s := strings.TrimSpace(cur.String()); s != "" {
			out = append(out, s)
		}
		cur.Reset()
	}
	for i := 0; i < len(sql); i++ {
		c := sql[i]
		switch {
		case c == '\'' || c == '"' || c == '`':
			j := i + 1
			for j < len(sql) {
				if sql[j] == c {
					if j+1 < len(sql) && sql[j+1] == c { // doubled quote
						j += 2
						continue
					}
					break
				}
				j++
			}
			if j >= len(sql) {
				j = len(sql) - 1
			}
			cur.WriteString(sql[i : j+1])
			i = j
		case c == '-' && i+1 < len(sql) && sql[i+1] == '-':
			j := strings.IndexByte(sql[i:], '\n')
			if j < 0 {
				j = len(sql) - i
			}
			cur.WriteString(sql[i : i+j])
			i += j - 1
		case c == '/' && i+1 < len(sql) && sql[i+1] == '*':
			j := strings.Index(sql[i+2:], "*/")
			end := len(sql)
			if j >= 0 {
				end = i + 2 + j + 2
			}
			cur.WriteString(sql[i:end])
			i = end - 1
		case c == ';':
			flush()
		default:
			cur.WriteByte(c)
		}
	}
	flush()
	return out
}

// whereSQL is a `where` ownership predicate as the runner embeds it in
// SQL over the rows of its table (columns cols, nil when unknown):
// for a PYSPARK writer (Laktory's default), the Spark SQL translated with
// Spark's semantics (what Spark's DELETE ... WHERE means), parsed as
// exactly one boolean expression without subqueries; for a POLARS writer,
// rendered by DuckDB from its parse tree (validate.Predicate with sqlp,
// the local engine's parser). A predicate that cannot be rendered becomes
// an error() call, so that any use fails with the reason instead of
// running other SQL.
func whereSQL(sqlp validate.SQL, where, backend string, conf map[string]string, cols []sparksql.Column) string {
	if backend == "POLARS" {
		p, err := validate.Predicate(sqlp, where)
		if err != nil {
			return "error(" + quoteString(err.Error()) + ")"
		}
		return p
	}
	if cols == nil {
		return "error(" + quoteString("the columns of the table are not known: `"+where+"` cannot be evaluated") + ")"
	}
	r, err := sparksql.TranslatePredicate(where, sparksql.ExprInput{Schema: cols}, spark.Options(&workspace.Node{SparkConf: conf}))
	if err != nil {
		return "error(" + quoteString("`shared.where: "+where+"`: "+err.Error()) + ")"
	}
	return "(" + r.SQL + ")"
}

// writerWhere is whereSQL for a writer over a table schema (nil when the
// table does not exist).
func writerWhere(sqlp validate.SQL, w *workspace.Writer, schema *delta.StructType) string {
	return whereSQL(sqlp, w.Where, w.Backend, w.SparkConf, deltaColumns(schema))
}

// deltaColumns are a Delta schema's columns with their Spark types (nil
// for no schema, or a type the translation does not know).
func deltaColumns(s *delta.StructType) []sparksql.Column {
	if s == nil {
		return nil
	}
	var out []sparksql.Column
	for _, f := range s.Fields {
		t, err := sparksql.ParseType(f.Type.TypeName())
		if err != nil {
			return nil
		}
		out = append(out, sparksql.Column{Name: f.Name, Type: t})
	}
	return out
}

// duckColumns are a relation's columns (DESCRIBE) with their Spark types.
func duckColumns(cs []column) []sparksql.Column {
	var out []sparksql.Column
	for _, c := range cs {
		t, err := sparksql.FromDuckDB(c.Type)
		if err != nil {
			return nil
		}
		out = append(out, sparksql.Column{Name: c.Name, Type: t})
	}
	return out
}
