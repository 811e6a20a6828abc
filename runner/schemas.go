package runner

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"

	"github.com/laktory/workbench/runner/dialect"
	"github.com/laktory/workbench/runner/engine/local"
	"github.com/laktory/workbench/runner/landing"
	"github.com/laktory/workbench/runner/schemaflow"
	"github.com/laktory/workbench/validate"
	"github.com/laktory/workbench/workspace"
)

// Validate checks a workspace as `laktory validate` does: validate's
// rules over the snapshot (with opts' table facts, parsing with the
// runner's SQL when opts has none), and the schema flow
// (runner/schemaflow), which binds every node's SQL against its inputs'
// schemas read from the files and tables, and gives the rules the tables'
// columns. The runner's flow keeps its caches from one call to the next.
// It fails only when ctx is done.
func (r *Runner) Validate(ctx context.Context, snap *workspace.Snapshot, opts validate.Options) ([]validate.Diagnostic, error) {
	return r.validate(ctx, snap, opts, nil)
}

// validate is Validate with the schema flow limited to some pipelines (and
// what they read); nil: all.
func (r *Runner) validate(ctx context.Context, snap *workspace.Snapshot, opts validate.Options, pipelines []string) ([]validate.Diagnostic, error) {
	// The nodes bound by this check share the columns of the statements
	// they prepared (local.CheckBinds).
	ctx, _ = local.WithCheckBinds(ctx)
	res, err := r.flow.Check(ctx, snap, pipelines...)
	if err != nil {
		return nil, err
	}
	opts.TableColumns, opts.TableColumnTypes = res.TableColumns, res.TableColumnTypes
	if opts.SQL == nil {
		opts.SQL = r.sql
	}
	ds := append(validate.Check(snap, opts), res.Diagnostics...)
	if pipelines == nil {
		// A plan (pipelines named) makes its own, for the nodes it runs.
		lds, _ := landingDiagnostics(ctx, snap, nil)
		ds = append(ds, lds...)
	}
	ds = append(ds, nameLengthDiagnostics(snap)...)
	return workspace.SortDiagnostics(ds), nil
}

// SinkSchemas are the schemas the Delta sinks of the snapshot's nodes
// write (laktory validate --schemas): each column with the Delta type the
// pipeline's backend writes it as. It binds what Validate binds (from the
// flow's caches when it ran just before).
func (r *Runner) SinkSchemas(ctx context.Context, snap *workspace.Snapshot) ([]schemaflow.SinkSchema, error) {
	ctx, _ = local.WithCheckBinds(ctx)
	res, err := r.flow.Check(ctx, snap)
	if err != nil {
		return nil, err
	}
	return res.SinkSchemas, nil
}

// landingDiagnostics lists, for each file source of the nodes keep accepts
// (nil: every node), the entries of its path that are not regular files
// (LK206), and returns those entries: runs skip them without opening them.
// It is the one maker of these warnings: Validate (`laktory validate`, the
// TUI's problems) and Plan (`laktory plan`, runs, the TUI's runs) report
// them, and a run's readers do not report the plan's entries again
// (Run.newSkipped).
func landingDiagnostics(ctx context.Context, snap *workspace.Snapshot, keep func(*workspace.Pipeline, *workspace.Node) bool) ([]validate.Diagnostic, []string) {
	var out []validate.Diagnostic
	var skipped []string
	for _, p := range snap.Pipelines {
		for _, n := range p.Nodes {
			if keep != nil && !keep(p, n) {
				continue
			}
			for _, src := range n.Sources {
				if src.Kind != workspace.SourceFile || src.ResolvedPath == "" || src.Table != "" || strings.EqualFold(src.Format, "DELTA") {
					continue
				}
				l, err := landing.List(ctx, src.ResolvedPath)
				if err != nil || len(l.Skipped) == 0 {
					continue
				}
				skipped = append(skipped, l.Skipped...)
				shown := landing.Listing{Skipped: make([]string, len(l.Skipped))}
				for i, e := range l.Skipped {
					shown.Skipped[i] = snap.Rel(e)
				}
				out = append(out, workspace.NewDiagnostic(src.At("path"), validate.Warning, validate.CodeNotRegular,
					fmt.Sprintf("source #%d of node '%s': %s", src.Index+1, n.Name, shown.SkippedWarning(snap.Rel(src.ResolvedPath))),
					"landing folders hold data files only: runs skip these entries and never open them"))
			}
		}
	}
	return out, skipped
}

// engineVersion identifies what binds nodes (this program and its DuckDB),
// so a stored schema cache of another build is not trusted.
func engineVersion(db *sql.DB) string {
	v := "duckdb ?"
	var lib string
	if db.QueryRow("SELECT library_version FROM pragma_version()").Scan(&lib) == nil {
		v = "duckdb " + lib
	}
	if exe, err := os.Executable(); err == nil {
		if fi, err := os.Stat(exe); err == nil {
			v += fmt.Sprintf(" %s %d %d", exe, fi.Size(), fi.ModTime().UnixNano())
		}
	}
	return v
}

// SchemaFlow is the runner's schema flow (for its counters).
func (r *Runner) SchemaFlow() *schemaflow.Flow { return r.flow }

// errUnknownInput: a check needs an input whose schema the flow did not
// give (it would read a table).
var errUnknownInput = fmt.Errorf("%w: an input's schema is not known", schemaflow.ErrUnchecked)

// errUnchecked marks what a check does not bind.
var errUnchecked = schemaflow.ErrUnchecked

// origin is where a text the compiler embeds in its SQL comes from.
type origin struct {
	// what names the text in messages ("the filter of source #1").
	what string
	// at is the YAML value's position; exact when the value is the text
	// itself (an offset in the text is one in the value).
	at    workspace.Pos
	exact bool
}

func repeat(o origin, n int) []origin {
	out := make([]origin, n)
	for i := range out {
		out[i] = o
	}
	return out
}

// placed is a text embedded in the SQL of the piece being compiled.
type placed struct {
	sql string         // as embedded
	res dialect.Result // its translation (maps sql back to the text)
	o   origin
}

// binding is what a check records while compiling a node: the texts it
// embedded and where they come from, to place DuckDB's errors in the YAML,
// and the problems found.
type binding struct {
	piece    origin // what is compiled, for errors outside any text
	placed   []placed
	problems []schemaflow.Problem
	// sources are the columns of the node's sources (known: not described).
	sources map[*workspace.Source][]column
	// probes are the runner's answers of NULL probes (nil: none kept).
	probes *nullProbes
}

// errStop: a problem was recorded and the node cannot be bound further.
var errStop = errors.New("check stopped")

// at starts a piece (a source, a step, an expectation).
func (b *binding) at(o origin) {
	if b != nil {
		b.piece, b.placed = o, b.placed[:0]
	}
}

// translated records a translation: its diagnostics become problems
// (an error stops the node) and its SQL is placed.
func (b *binding) translated(res dialect.Result, o origin) (string, error) {
	for _, d := range res.Diagnostics {
		p := schemaflow.Problem{Kind: schemaflow.DialectWarning, What: o.what, At: o.at, Offset: -1, Message: d.Message, Hint: d.Hint}
		if d.Severity == workspace.SeverityError {
			p.Kind = schemaflow.Untranslatable
			if d.Rejected {
				p.Kind = schemaflow.Unbound
			}
		}
		if o.exact && d.Offset >= 0 {
			p.Offset = d.Offset
		}
		b.problems = append(b.problems, p)
	}
	if res.Failed() {
		return "", errStop
	}
	b.placed = append(b.placed, placed{sql: res.SQL, res: res, o: o})
	return res.SQL, nil
}

// ident quotes a column name the YAML gives, placing it when checking.
func (c *compiler) ident(name string, o origin) string {
	q := quoteIdent(name)
	if c.bind != nil {
		c.bind.placed = append(c.bind.placed, placed{sql: q, res: dialect.Result{SQL: q, Spans: []dialect.Span{{Out: 1, In: 0, Len: len(name)}}}, o: o})
	}
	return q
}

// identList quotes and joins column names the YAML gives.
func (c *compiler) identList(cols []string, os []origin) string {
	q := make([]string, len(cols))
	for i, col := range cols {
		q[i] = c.ident(col, os[i])
	}
	return strings.Join(q, ", ")
}

// problem turns DuckDB's error compiling the current piece into a problem,
// placed at the text DuckDB points at (else at the piece).
func (b *binding) problem(err error) schemaflow.Problem {
	p := schemaflow.Problem{Kind: schemaflow.Unbound, What: b.piece.what, At: b.piece.at, Offset: -1, Message: err.Error()}
	var se *sqlError
	if !errors.As(err, &se) {
		return p
	}
	p.Message = se.err.Error()
	off := errorOffset(se.stmt, p.Message)
	p.Message = sessionQualifier.ReplaceAllString(p.Message, "")
	if off < 0 {
		return p
	}
	for i := len(b.placed) - 1; i >= 0; i-- {
		t := b.placed[i]
		// The statement holds the text, or one of its statements (an
		// `expr` is split and trimmed).
		for _, part := range append([]string{t.sql}, splitStatements(t.sql)...) {
			in := strings.Index(t.sql, part)
			for from := 0; part != ""; {
				j := strings.Index(se.stmt[from:], part)
				if j < 0 {
					break
				}
				start := from + j
				if off >= start && off <= start+len(part) {
					p.What, p.At = t.o.what, t.o.at
					if t.o.exact {
						p.Offset = t.res.Source(in + off - start)
					}
					return p
				}
				from = start + 1
			}
		}
	}
	return p
}

// sessionQualifier matches the name of a session's view qualifying a
// column in DuckDB's candidates ("lk3_2_src.price"): the user wrote {df}.
var sessionQualifier = regexp.MustCompile(`\blk\d+_\d+_\w*\.`)

// lineRe matches the excerpt of the statement DuckDB adds to an error:
// "LINE 3: <text>" then a caret under the place.
var lineRe = regexp.MustCompile(`(?m)^LINE (\d+): (.*)\n( *)\^`)

// errorOffset is the byte offset in stmt that DuckDB's error points at, or
// -1. DuckDB shows at most 40 characters before the place, cutting the line
// with "...": the shown text is found in the line.
func errorOffset(stmt, msg string) int {
	m := lineRe.FindStringSubmatch(msg)
	if m == nil {
		return -1
	}
	n, _ := strconv.Atoi(m[1])
	caret := len(m[3]) - len("LINE : ") - len(m[1])
	shown := m[2]
	lineStart := 0
	for i := 1; i < n; i++ {
		j := strings.IndexAny(stmt[lineStart:], "\n\r")
		if j < 0 {
			return -1
		}
		lineStart += j + 1
	}
	line := stmt[lineStart:]
	if j := strings.IndexAny(line, "\n\r"); j >= 0 {
		line = line[:j]
	}
	base := 0
	if strings.HasPrefix(shown, "...") {
		visible := strings.TrimSuffix(shown[3:], "...")
		k := strings.Index(line, visible)
		if k < 0 {
			return -1
		}
		base, caret = k, caret-3
	}
	if caret < 0 || base+caret > len(line) {
		return -1
	}
	return lineStart + base + caret
}

// schemaEngine is the runner's side of the schema flow: sources read and
// nodes compiled as runs do, over the runner's DuckDB.
type schemaEngine struct{ r *Runner }

// FileVersion implements schemaflow.Engine: the read's SQL (format,
// options and files) with each file's size and modification time.
func (e schemaEngine) FileVersion(src *workspace.Source) (string, error) {
	files, err := sourceFiles(src)
	if err != nil || len(files) == 0 {
		return "", err
	}
	q, err := fileListSQL(files, src.Format, readOptions{src: src})
	if err != nil {
		return "", err
	}
	var b strings.Builder
	b.WriteString(q)
	for _, f := range files {
		fi, err := os.Stat(f)
		if err != nil {
			return "", fmt.Errorf("%w: %w", ErrSource, err)
		}
		fmt.Fprintf(&b, "\n%d %d", fi.Size(), fi.ModTime().UnixNano())
	}
	return b.String(), nil
}

// sourceFiles lists the files a file source reads now (a glob expanded,
// what is not a regular file skipped); none when nothing is there yet (a
// run says so; a check has nothing to infer a schema from).
func sourceFiles(src *workspace.Source) ([]string, error) {
	l, err := landing.List(context.Background(), src.ResolvedPath)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	if src.AsStream && len(l.Files) > streamSchemaFiles {
		// The schema of a stream is inferred from its first files, as Auto
		// Loader samples them: an incremental run over a large landing
		// folder does not read every file it processed before to bind, and
		// its schema cache key stays the same as files land.
		slices.SortStableFunc(l.Files, func(a, b landing.File) int { return a.ModTime.Compare(b.ModTime) })
		l.Files = l.Files[:streamSchemaFiles]
		slices.SortFunc(l.Files, func(a, b landing.File) int { return strings.Compare(a.Path, b.Path) })
	}
	return l.Paths(), nil
}

// streamSchemaFiles is how many files a streaming source's schema is
// inferred from, the oldest first: Auto Loader's default
// cloudFiles.schemaInference.sampleSize.numFiles.
const streamSchemaFiles = 1000

// FileSchema implements schemaflow.Engine: DuckDB binds the read (CSV
// sniffing, JSON sampling, parquet footers), reading no more.
func (e schemaEngine) FileSchema(ctx context.Context, src *workspace.Source) ([]schemaflow.Column, error) {
	files, err := sourceFiles(src)
	if err != nil {
		return nil, err
	}
	q, err := readFileList(ctx, e.r.db, files, src.Format, readOptions{src: src})
	if err != nil {
		return nil, err
	}
	cols, err := describe(ctx, e.r.db, q)
	if err != nil {
		return nil, err
	}
	return dialectColumns(cols), nil
}

func columnsOf(cols []dialect.Column) []column {
	out := make([]column, len(cols))
	for i, c := range cols {
		out[i] = column{Name: c.Name, Type: c.Type}
	}
	return out
}

func dialectColumns(cols []column) []dialect.Column {
	out := make([]dialect.Column, len(cols))
	for i, c := range cols {
		out[i] = dialect.Column{Name: c.Name, Type: c.Type}
	}
	return out
}

// emptyRelation is a query of no rows with the given columns.
func emptyRelation(cols []dialect.Column) string {
	if len(cols) == 0 {
		return "SELECT 1 AS \"?\" LIMIT 0"
	}
	parts := make([]string, len(cols))
	for i, c := range cols {
		parts[i] = "CAST(NULL AS " + c.Type + ") AS " + quoteIdent(c.Name)
	}
	return "SELECT " + strings.Join(parts, ", ") + " LIMIT 0"
}

// checksMaterialized counts the nodes whose check session created its
// views in DuckDB (local.Session.Materialized): the benchmarks report it.
var checksMaterialized atomic.Int64

// boundOutputs gives a check's compiler the outputs of upstream nodes.
type boundOutputs map[string]string

func (o boundOutputs) output(_, node string) (string, bool) {
	v, ok := o[node]
	return v, ok
}

// Bind implements schemaflow.Engine: the node is compiled as a run
// compiles it, over empty relations of its inputs' schemas, on a session
// of the runner's DuckDB; then its expectations and the `where` checks of
// its shared sinks are bound over its output.
func (e schemaEngine) Bind(ctx context.Context, in schemaflow.Input) (schemaflow.Output, error) {
	var out schemaflow.Output
	s, err := newCheckSession(ctx, e.r.local)
	if err != nil {
		return out, err
	}
	defer func() {
		if ls, ok := s.e.(*local.Session); ok && ls.Materialized() {
			checksMaterialized.Add(1)
		}
		s.discard()
	}()
	c := newCompiler(s, nil, boundOutputs{}, e.r.cfg.Dialect, in.Pipeline, in.Node)
	c.bind = &binding{sources: map[*workspace.Source][]column{}, probes: &e.r.probes}
	for name, cols := range in.Nodes {
		v, err := s.view(ctx, "node_"+name, emptyRelation(cols))
		if err != nil {
			return out, err
		}
		c.mem.(boundOutputs)[name], c.cols[v] = v, columnsOf(cols)
	}
	for i, src := range in.Node.Sources {
		c.bind.sources[src] = columnsOf(in.Sources[i])
	}
	c.override = func(_ context.Context, src *workspace.Source) (string, bool, error) {
		return emptyRelation(in.Sources[src.Index]), true, nil
	}
	df, err := c.transform(ctx)
	var se *sqlError
	switch {
	case errors.Is(err, errUnchecked) || ctx.Err() != nil:
		return out, err
	case errors.Is(err, errStop):
		out.Problems = c.bind.problems
		return out, nil
	case errors.As(err, &se):
		out.Problems = append(c.bind.problems, c.bind.problem(err))
		return out, nil
	case err != nil:
		// Not DuckDB's: a step's arguments the compiler refuses (the run
		// says so), which binding cannot place.
		return out, fmt.Errorf("%w: %w", errUnchecked, err)
	}
	cols, err := c.columns(ctx, df)
	if err != nil {
		return out, err
	}
	c.bindExpectations(ctx, df)
	c.bindWheres(ctx, df)
	c.bindDeleteWheres(ctx, df)
	out.Columns, out.Problems = dialectColumns(cols), c.bind.problems
	return out, nil
}

// bindExpectations binds each expectation over the node's output: it must
// be a boolean expression.
func (c *compiler) bindExpectations(ctx context.Context, df string) {
	fx, err := c.dfExpectations(ctx, df)
	if err != nil {
		c.bind.problems = append(c.bind.problems, c.bind.problem(err))
	} else if c.n.DataframeBackend != "POLARS" {
		c.pandasUnmodelled(ctx, df, fx)
	}
	for i, ex := range c.n.Expectations {
		o := origin{what: fmt.Sprintf("expectation '%s'", ex.Name), at: ex.At("expr"), exact: true}
		if dfExpectation(ex.Expr) {
			// Translated by runner/frame (its refusals are problems already).
			if t, ok := fx.types[i]; ok && t != "BOOLEAN" && !strings.Contains(t, "NULL") {
				c.bind.problems = append(c.bind.problems, schemaflow.Problem{Kind: schemaflow.NotBoolean, What: o.what, At: o.at, Offset: -1, Message: t})
			}
			continue
		}
		c.bind.at(o)
		x, err := c.translate(ctx, dialect.LaktoryExpression, ex.Expr, df, o)
		if err != nil {
			if !errors.Is(err, errStop) {
				c.bind.problems = append(c.bind.problems, c.bind.problem(err))
			}
			continue
		}
		cols, err := c.s.describe(ctx, fmt.Sprintf("SELECT (%s) FROM %s", x, quoteIdent(df)))
		switch {
		case err != nil:
			c.bind.problems = append(c.bind.problems, c.bind.problem(err))
		case len(cols) == 1 && cols[0].Type != "BOOLEAN" && !strings.Contains(cols[0].Type, "NULL"):
			c.bind.problems = append(c.bind.problems, schemaflow.Problem{Kind: schemaflow.NotBoolean, What: o.what, At: o.at, Offset: -1, Message: cols[0].Type})
		default:
			if p, ok := c.nullDropped(ctx, ex, x, df, o); ok {
				c.bind.problems = append(c.bind.problems, p)
			}
		}
	}
}

// nullDropped is the LK308 warning of a ROW expectation with action DROP
// or QUARANTINE (x, its translation over df) that can be NULL: Laktory
// 0.13.1 keeps the rows where it is TRUE and quarantines those where it
// is FALSE, so a row where it is NULL disappears without a word. The
// columns named are those of df the text reads; the warning is left out
// when x is not NULL with all of them NULL and reads only one of them
// (then it is never NULL: x IS NOT NULL AND x > 0, x IS NULL OR x > 0). The schema
// flow does not know which columns are NOT NULL: any may be.
func (c *compiler) nullDropped(ctx context.Context, ex *workspace.Expectation, x, df string, o origin) (schemaflow.Problem, bool) {
	action := strings.ToUpper(ex.Action)
	if strings.EqualFold(ex.Type, "AGGREGATE") || (action != "DROP" && action != "QUARANTINE") {
		return schemaflow.Problem{}, false
	}
	all, err := c.columns(ctx, df)
	if err != nil {
		return schemaflow.Problem{}, false
	}
	read := exprColumns(ex.Expr, all)
	if len(read) == 0 {
		return schemaflow.Problem{}, false
	}
	var nulls []string
	for _, col := range all {
		nulls = append(nulls, fmt.Sprintf("NULL::%s AS %s", col.Type, quoteIdent(col.Name)))
	}
	if len(read) == 1 && c.bind.probes.notNull(ctx, c.s, df, x, nulls) {
		return schemaflow.Problem{}, false
	}
	verb := "dropped from the output"
	if action == "QUARANTINE" {
		verb = "dropped from the output and not quarantined"
	}
	counted := ", and not counted as a failure, as Laktory 0.13.1 does"
	if c.n.DataframeBackend != "POLARS" {
		// Laktory counts failures on a pandas copy of the Spark frame,
		// where a comparison with a missing value is false.
		counted = " as Laktory 0.13.1 does, though its fails count may count it as a failure (on PYSPARK it checks a pandas copy of the frame, where a comparison with a missing value is false)"
	}
	return schemaflow.Problem{Kind: schemaflow.NullDropped, What: o.what, At: o.at, Offset: -1,
		Message: fmt.Sprintf("action %s: a row where it is NULL (%s may be NULL) is %s%s", action, strings.Join(read, ", "), verb, counted),
		Hint:    fmt.Sprintf("say what a NULL means, e.g. %s IS NOT NULL AND (%s) to count and %s such rows,", read[0], ex.Expr, strings.ToLower(action))}, true
}

// nullProbes are the answers of the NULL probes of expectations (x IS
// NULL where every column is NULL) a runner's checks asked, by the probe's
// text: the nodes of a workspace repeat their expectations over the same
// columns, and DuckDB runs each probe (bounded: maxNullProbes answers).
type nullProbes struct {
	m sync.Map // probe -> bool (x is NULL)
	n atomic.Int64
}

const maxNullProbes = 10_000

// notNull reports whether x, the translation of an expectation over df,
// is not NULL where all the columns of df are (nulls: each column as
// NULL::type AS name). The probe names its relation df where x does, and
// lk_probe otherwise, so that the same expectation over the same columns
// is the same text.
func (np *nullProbes) notNull(ctx context.Context, s *session, df, x string, nulls []string) bool {
	rel := "lk_probe"
	if strings.Contains(x, df) {
		rel = df
	}
	probe := fmt.Sprintf("WITH %s AS (SELECT %s) SELECT (%s) IS NULL FROM %s", quoteIdent(rel), strings.Join(nulls, ", "), x, quoteIdent(rel))
	if np != nil {
		if v, ok := np.m.Load(probe); ok {
			return !v.(bool)
		}
	}
	var isNull *bool
	if err := s.queryRow(ctx, probe, &isNull); err != nil || isNull == nil {
		return false
	}
	if np != nil && np.n.Add(1) <= maxNullProbes {
		np.m.Store(probe, *isNull)
	}
	return !*isNull
}

// exprColumns are the columns of cols an expression's text names (its
// identifiers outside string literals, "quoted" or `quoted` ones
// included, matched without case), in the order of cols.
func exprColumns(text string, cols []column) []string {
	names := map[string]bool{}
	for i := 0; i < len(text); {
		ch := text[i]
		switch {
		case ch == '\'':
			j := i + 1
			for j < len(text) && text[j] != '\'' {
				j++
			}
			i = j + 1
		case ch == '"' || ch == '`':
			j := i + 1
			for j < len(text) && text[j] != ch {
				j++
			}
			names[strings.ToLower(text[i+1:min(j, len(text))])] = true
			i = j + 1
		case ch == '_' || ch >= 'a' && ch <= 'z' || ch >= 'A' && ch <= 'Z':
			j := i
			for j < len(text) && (text[j] == '_' || text[j] >= 'a' && text[j] <= 'z' || text[j] >= 'A' && text[j] <= 'Z' || text[j] >= '0' && text[j] <= '9') {
				j++
			}
			names[strings.ToLower(text[i:j])] = true
			i = j
		default:
			i++
		}
	}
	var out []string
	for _, col := range cols {
		if names[strings.ToLower(col.Name)] {
			out = append(out, col.Name)
		}
	}
	return out
}

// bindWheres binds the `where` check of each shared sink over the node's
// output, as the run checks every row it writes.
func (c *compiler) bindWheres(ctx context.Context, df string) {
	for _, sk := range c.n.Sinks {
		if sk.Shared == nil || sk.Shared.Where == "" {
			continue
		}
		o := origin{what: fmt.Sprintf("the shared.where of sink #%d", sk.Index+1), at: sk.Shared.At("where"), exact: true}
		c.bind.at(o)
		pred := "(" + sk.Shared.Where + ")"
		if c.n.DataframeBackend == "POLARS" {
			// The predicate as written (the run embeds DuckDB's rendering
			// of it, the same expression), so errors point into the YAML.
			c.bind.placed = append(c.bind.placed, placed{sql: sk.Shared.Where,
				res: dialect.Result{SQL: sk.Shared.Where, Spans: []dialect.Span{{Len: len(sk.Shared.Where)}}}, o: o})
		} else {
			// The node's dialect (Spark SQL on PYSPARK) as the run's check
			// of the rows written and a FULL refresh's DELETE read it
			// (whereSQL): typed with Spark's rules, Spark's refusals with
			// its error class.
			before := len(c.bind.problems)
			x, err := c.translate(ctx, dialect.Predicate, sk.Shared.Where, df, o)
			if err != nil && !errors.Is(err, errStop) {
				c.bind.problems = append(c.bind.problems, c.bind.problem(err))
			}
			for i := before; i < len(c.bind.problems); i++ {
				c.bind.problems[i].Table = sk.Table
			}
			if err != nil {
				continue
			}
			pred = "(" + x + ")"
		}
		if _, err := c.s.describe(ctx, whereViolationsSQL(pred, df)); err != nil {
			p := c.bind.problem(err)
			p.Table = sk.Table
			c.bind.problems = append(c.bind.problems, p)
		}
	}
}

// bindDeleteWheres binds the delete_where of each MERGE sink over the
// node's output, translated as the merge translates it (mergePlan): the
// node's dialect's condition, so that what Spark's MERGE refuses is
// refused before a run.
func (c *compiler) bindDeleteWheres(ctx context.Context, df string) {
	for _, sk := range c.n.Sinks {
		if sk.MergeCDC == nil || sk.MergeCDC.DeleteWhere == "" {
			continue
		}
		o := origin{what: "merge_cdc_options.delete_where of " + sk.Describe(), at: sk.MergeCDC.At("delete_where"), exact: true}
		c.bind.at(o)
		x, err := c.translate(ctx, deleteWhereKind(sk.MergeCDC), sk.MergeCDC.DeleteWhere, df, o)
		if err != nil {
			if !errors.Is(err, errStop) {
				c.bind.problems = append(c.bind.problems, c.bind.problem(err))
			}
			continue
		}
		if _, err := c.s.describe(ctx, fmt.Sprintf("SELECT coalesce((%s), false) FROM %s", x, quoteIdent(df))); err != nil {
			c.bind.problems = append(c.bind.problems, c.bind.problem(err))
		}
	}
}

// maxNameBytes is the longest name of a file or folder the file systems a
// run writes to take (NAME_MAX on Linux and macOS).
const maxNameBytes = 255

// nameLengthDiagnostics refuses (LK116) a sink whose table folder, or
// whose checkpoint's lock or refresh intent beside it, would have a name
// longer than the file system takes: Laktory (Unity Catalog) accepts
// names of 255 characters, but the run would fail when it first locks the
// checkpoint, and every later run with it.
func nameLengthDiagnostics(snap *workspace.Snapshot) []validate.Diagnostic {
	var out []validate.Diagnostic
	for _, p := range snap.Pipelines {
		for _, n := range p.Nodes {
			for _, sk := range n.Sinks {
				var long []string
				if sk.Table != "" {
					for _, part := range strings.Split(filepath.ToSlash(string(sk.Table)), "/") {
						if len(part) > maxNameBytes {
							long = append(long, fmt.Sprintf("the table folder %.40s... (%d bytes)", part, len(part)))
						}
					}
				}
				if !sk.IsView() && sk.Kind != workspace.SinkPipelineView && sk.CheckpointPath == "" {
					base := filepath.Base(CheckpointDir(snap.Layout, p, n, sk))
					if b := len(filepath.Base(intentPath(base))); b > maxNameBytes {
						long = append(long, fmt.Sprintf("the checkpoint's refresh record %.40s... (%d bytes)", base, b))
					}
				}
				if len(long) == 0 {
					continue
				}
				at := sk.At("table_name")
				if at.IsZero() {
					at = sk.Pos
				}
				out = append(out, workspace.NewDiagnostic(at, validate.Error, validate.CodeNameTooLong,
					fmt.Sprintf("sink #%d of node '%s' cannot run locally: %s would be longer than the %d bytes a file name can have", sk.Index+1, n.Name, strings.Join(long, " and "), maxNameBytes),
					"shorten the table name (and its catalog and schema names)"))
			}
		}
	}
	return out
}
