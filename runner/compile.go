package runner

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"regexp"
	"slices"
	"strings"
	"time"

	"github.com/laktory/workbench/delta"
	"github.com/laktory/workbench/runner/dialect"
	"github.com/laktory/workbench/runner/engine"
	"github.com/laktory/workbench/runner/engine/local"
	"github.com/laktory/workbench/runner/landing"
	"github.com/laktory/workbench/runner/polarsread"
	"github.com/laktory/workbench/runner/sparksql"
	"github.com/laktory/workbench/workspace"
)

// outputs gives a compiler the outputs of the nodes the run already
// executed (relations of the engine every session reads, as SQL).
type outputs interface {
	output(pipeline, node string) (rel string, ok bool)
}

// compiler turns one node into a chain of DuckDB views on a session:
// sources, then transformer steps, then expectations.
type compiler struct {
	s    *session
	snap *workspace.Snapshot
	mem  outputs
	// dialects picks the translator of a node's SQL.
	dialects dialect.Chooser
	p        *workspace.Pipeline
	n        *workspace.Node
	depth    int

	sources map[string]string   // {sources.x} -> view
	nodes   map[string]string   // {nodes.x} -> view
	cols    map[string][]column // view -> its columns (views never change)
	// override reads a source differently (a micro-batch of a stream).
	override func(ctx context.Context, src *workspace.Source) (string, bool, error)
	// bind is set when the compiler checks the node (over empty relations
	// of its inputs' schemas) instead of running it.
	bind *binding
}

func newCompiler(s *session, snap *workspace.Snapshot, mem outputs, dialects dialect.Chooser, p *workspace.Pipeline, n *workspace.Node) *compiler {
	return &compiler{s: s, snap: snap, mem: mem, dialects: dialects, p: p, n: n, sources: map[string]string{}, nodes: map[string]string{},
		cols: map[string][]column{}}
}

// where names the node in errors.
func (c *compiler) where() string {
	return fmt.Sprintf("node '%s' of pipeline '%s'", c.n.Name, c.p.Name)
}

// transform reads the sources and applies the transformer; it returns the
// view of the node's rows before expectations.
func (c *compiler) transform(ctx context.Context) (string, error) {
	df := ""
	for _, src := range c.n.Sources {
		c.bind.at(origin{what: fmt.Sprintf("source #%d", src.Index+1), at: src.Pos})
		v, err := c.source(ctx, src)
		if err != nil {
			return "", err
		}
		if df == "" {
			df = v
		}
		if src.Name != "" {
			c.sources[src.Name] = v
		}
	}
	for _, st := range c.n.Transformer {
		c.bind.at(origin{what: fmt.Sprintf("transformer step #%d", st.Index+1), at: st.Pos})
		v, err := c.step(ctx, st, df)
		if err != nil {
			return "", fmt.Errorf("%s, transformer step #%d: %w", c.where(), st.Index+1, err)
		}
		df = v
	}
	if df == "" {
		return "", fmt.Errorf("%w: %s has no source and no transformer step producing rows", ErrSource, c.where())
	}
	return df, nil
}

// source reads one source into a view, with filter, selects, renames,
// drops and drop_duplicates applied.
func (c *compiler) source(ctx context.Context, src *workspace.Source) (string, error) {
	label := fmt.Sprintf("%s, source #%d", c.where(), src.Index+1)
	var q string
	var err error
	ok := false
	if c.override != nil {
		q, ok, err = c.override(ctx, src)
	}
	switch {
	case err != nil || ok:
	case src.Kind == workspace.SourceFile:
		q, err = readFilesSQL(ctx, c.s.e, src.ResolvedPath, src.Format, readOptions{src: src, settle: c.s.settle, skipped: c.s.skipped})
	case src.Kind == workspace.SourceTable && delta.IsView(string(src.Table)):
		q, err = c.viewSQL(ctx, string(src.Table), src.TableRef.String())
	case src.Kind == workspace.SourceTable && c.snap != nil && c.snap.Table(src.Table) != nil && c.snap.Table(src.Table).View():
		w := c.snap.Table(src.Table).Writers[0]
		err = fmt.Errorf("%w: view %s does not exist yet: run node '%s' of pipeline '%s', which defines it, first", ErrSource, src.TableRef.String(), w.Node, w.Pipeline)
	case src.Kind == workspace.SourceTable:
		q, err = tableSQL(ctx, c.s.e, string(src.Table), src.TableRef.String(), engine.Scan{})
	case src.Kind == workspace.SourceNode:
		q, err = c.nodeSQL(ctx, src.NodeName)
	case src.Kind == workspace.SourceDataFrame && src.Data != nil:
		q, err = inlineSQL(src)
	default:
		err = fmt.Errorf("%w: a %s source cannot be read locally", ErrSource, src.Kind)
	}
	if err != nil {
		return "", fmt.Errorf("%s: %w", label, err)
	}
	v, err := c.s.view(ctx, "src", q)
	if err != nil {
		return "", fmt.Errorf("%w: %s: %w", ErrSource, label, err)
	}
	if c.bind != nil {
		c.cols[v] = c.bind.sources[src]
	}
	if q, err = c.postRead(ctx, v, src); err != nil {
		return "", fmt.Errorf("%s: %w", label, err)
	}
	if q == "" {
		return v, nil
	}
	read := v
	if v, err = c.s.view(ctx, "src", q); err != nil {
		return "", fmt.Errorf("%w: %s: %w", ErrSource, label, err)
	}
	// A filter and drop_duplicates keep the columns: a check knows them
	// without describing the view.
	if cols, ok := c.cols[read]; ok && c.bind != nil && len(src.Selects) == 0 && len(src.Renames) == 0 && len(src.Drops) == 0 {
		c.cols[v] = cols
	}
	return v, nil
}

// postRead applies a source's filter, selects, renames, drops and
// drop_duplicates, in Laktory's order, to the view of its rows; "" when
// the source sets none of them.
func (c *compiler) postRead(ctx context.Context, v string, src *workspace.Source) (string, error) {
	q := ""
	from := func() string {
		if q == "" {
			return quoteIdent(v)
		}
		return "(" + q + ")"
	}
	what := fmt.Sprintf("source #%d", src.Index+1)
	if src.Filter != "" {
		// Laktory evaluates a source's filter and selects with its own SQL
		// parser on every backend (sql_expr).
		x, _, err := c.translateNamed(ctx, dialect.LaktoryExpression, src.Filter, v, origin{what: "the filter of " + what, at: src.At("filter"), exact: true})
		if err != nil {
			return "", err
		}
		q = fmt.Sprintf("SELECT * FROM %s WHERE (%s)", from(), x)
	}
	if len(src.Selects) > 0 {
		cols := make([]string, len(src.Selects))
		names := map[string]bool{}
		for i, s := range src.Selects {
			o := origin{what: "the selects of " + what, at: src.At("selects")}
			if isIdent(s.From) {
				cols[i] = c.ident(s.From, o)
				if s.To != s.From {
					cols[i] += " AS " + quoteIdent(s.To)
				}
				names[s.To] = true
				continue
			}
			x, name, err := c.translateNamed(ctx, dialect.LaktoryExpression, s.From, v, o)
			if err != nil {
				return "", err
			}
			// A list item is named as the backend names the expression
			// (sql_expr(c)), a mapping's by its value (.alias(v)).
			if s.To != s.From || name == "" {
				name = s.To
			}
			cols[i] = x + " AS " + quoteIdent(name)
			// polars refuses two columns of one name (narwhals on Spark
			// selects both, which the Delta sink then refuses).
			if names[name] && c.n.DataframeBackend == "POLARS" {
				return "", c.refuse(o, fmt.Sprintf("[DuplicateError] the name '%s' is duplicate", name),
					"name the item with a mapping (selects: {expr: name})")
			}
			names[name] = true
		}
		q = fmt.Sprintf("SELECT %s FROM %s", strings.Join(cols, ", "), from())
	}
	if len(src.Renames) > 0 {
		rs := make([]string, len(src.Renames))
		for i, r := range src.Renames {
			rs[i] = c.ident(r.From, origin{what: "the renames of " + what, at: src.At("renames")}) + " AS " + quoteIdent(r.To)
		}
		q = fmt.Sprintf("SELECT * RENAME (%s) FROM %s", strings.Join(rs, ", "), from())
	}
	if len(src.Drops) > 0 {
		drops, err := c.presentDrops(ctx, from(), src.Drops)
		if err != nil {
			return "", err
		}
		if len(drops) > 0 {
			q = fmt.Sprintf("SELECT * EXCLUDE (%s) FROM %s", c.identList(drops, repeat(origin{what: "the drops of " + what, at: src.At("drops")}, len(drops))), from())
		}
	}
	switch {
	case len(src.DropDuplicatesOn) > 0:
		q = fmt.Sprintf("SELECT * FROM %s QUALIFY row_number() OVER (PARTITION BY %s) = 1", from(),
			c.identList(src.DropDuplicatesOn, repeat(origin{what: "the drop_duplicates of " + what, at: src.At("drop_duplicates")}, len(src.DropDuplicatesOn))))
	case src.DropDuplicates:
		q = fmt.Sprintf("SELECT DISTINCT * FROM %s", from())
	}
	return q, nil
}

// tableSQL scans the Delta table at path.
func tableSQL(ctx context.Context, e engine.Session, path, label string, opts engine.Scan) (string, error) {
	s, err := loadTable(ctx, path)
	if err != nil {
		return "", fmt.Errorf("%w: table %s: %w", ErrSource, label, err)
	}
	if s == nil {
		return "", fmt.Errorf("%w: table %s does not exist yet (no Delta table at %s): run the node that writes it first", ErrSource, label, path)
	}
	return e.ScanTable(ctx, s, opts)
}

// nodeSQL reads the output of node name of the same pipeline: from memory
// when the run executed it, else from its primary sink (for a shared sink,
// that writer's rows without the writer column), else by executing it here
// when it has no sink.
func (c *compiler) nodeSQL(ctx context.Context, name string) (string, error) {
	if rel, ok := c.mem.output(c.p.Name, name); ok {
		return "SELECT * FROM " + rel, nil
	}
	if c.bind != nil {
		return "", errUnknownInput // a check reads no table
	}
	up := c.p.Node(name)
	if up == nil {
		return "", fmt.Errorf("%w: node '%s' is not defined in pipeline '%s'", ErrSource, name, c.p.Name)
	}
	if sk := up.PrimarySink(); sk != nil && sk.Kind == workspace.SinkPipelineView && !c.p.Declarative() {
		return "", fmt.Errorf("%w: node '%s' writes a pipeline view (pipeline_view_name: %s), which exists only in the run that computes it: outside a declarative pipeline Laktory 0.13.1 cannot read it back (PipelineViewDataSink.as_source: NotImplementedError); run node '%s' in this run (select *%s)",
			ErrSource, name, sk.PipelineViewName, name, c.n.Name)
	}
	if sk := up.PrimarySink(); sk != nil && sk.IsView() {
		if !delta.IsView(string(sk.Table)) {
			return "", fmt.Errorf("%w: node '%s' has no output yet: its view %s does not exist (run node '%s' first, or select *%s to run it in this run)",
				ErrSource, name, sk.Describe(), name, name)
		}
		return c.viewSQL(ctx, string(sk.Table), sk.Describe())
	} else if sk != nil && !computedByReaders(c.p, up) {
		return sinkReadSQL(ctx, c.s, c.snap, c.p, up, sk)
	}
	if c.depth > len(c.p.Nodes) {
		return "", fmt.Errorf("%w: node '%s' reads itself through its upstream nodes (a cycle)", ErrSource, name)
	}
	sub := newCompiler(c.s, c.snap, c.mem, c.dialects, c.p, up)
	sub.depth = c.depth + 1
	v, err := sub.transform(ctx)
	if err != nil {
		return "", err
	}
	ex, err := sub.expectations(ctx, v)
	if err != nil {
		return "", err
	}
	return "SELECT * FROM " + quoteIdent(ex.out), nil
}

// sinkReadSQL reads what node n wrote to sink sk: a shared sink gives that
// writer's rows only, without the writer column.
func sinkReadSQL(ctx context.Context, ses *session, snap *workspace.Snapshot, p *workspace.Pipeline, n *workspace.Node, sk *workspace.Sink) (string, error) {
	path := string(sk.Table)
	if !sk.IsDelta() {
		if !pathExists(path) {
			return "", fmt.Errorf("%w: node '%s' has no output yet: %s does not exist (run node '%s' first, or select *%s to run it in this run)",
				ErrSource, n.Name, path, n.Name, n.Name)
		}
		return readFilesSQL(ctx, ses.e, path, sk.EffectiveFormat(), readOptions{})
	}
	s, err := loadTable(ctx, path)
	if err != nil {
		return "", fmt.Errorf("%w: output of node '%s' (%s): %w", ErrSource, n.Name, sk.Describe(), err)
	}
	if s == nil {
		return "", fmt.Errorf("%w: node '%s' has no output yet: its sink %s does not exist (run node '%s' first, or select *%s to run it in this run)",
			ErrSource, n.Name, sk.Describe(), n.Name, n.Name)
	}
	var opts engine.Scan
	if sh := sk.Shared; sh != nil {
		if sh.UsesWriterColumn() {
			col := sh.EffectiveColumn()
			if s.Schema().Field(col) == nil {
				return "", fmt.Errorf("%w: table %s has no `%s` column to tell node '%s''s rows from the other writers': drop it once, then run normally (%s)",
					ErrLegacyTable, sk.Describe(), col, n.Name, dropOnce(snap, sk.Table, p.Name, n.Name))
			}
			for _, f := range s.Schema().FieldNames() {
				if !strings.EqualFold(f, col) {
					opts.Columns = append(opts.Columns, f)
				}
			}
			opts.Where = quoteIdent(col) + " = " + quoteString(sh.EffectiveWriterID(p.Name, n.Name))
		} else {
			opts.Where = ses.where(sh.Where, n.DataframeBackend, n.SparkConf, deltaColumns(s.Schema()))
		}
	}
	return ses.e.ScanTable(ctx, s, opts)
}

// readOptions are a file source's reader options.
type readOptions struct {
	src *workspace.Source // nil for a sink read back
	// settle is the settle window of landing files (0: none, for what the
	// run wrote itself); skipped reports the entries of path a listing
	// skipped (nil: not reported).
	settle  time.Duration
	skipped func(path string, l landing.Listing)
	// polars are a POLARS JSON or Parquet source's row options
	// (polarsFiles): read_json samples infer_schema_length rows.
	polars *polarsread.Rows
	// jsonColumns are the columns of a JSON source, as read_json's
	// columns; wholeFile has read_json infer them from every record
	// (sparkJSONColumns).
	jsonColumns []column
	wholeFile   bool
}

// readFilesSQL reads files of a format with the session's engine: a file,
// a folder (every file below it, hidden and _-prefixed ones excepted, as
// Spark does) or a glob.
func readFilesSQL(ctx context.Context, e engine.Session, path, format string, o readOptions) (string, error) {
	format = strings.ToUpper(format)
	if format == "DELTA" {
		return tableSQL(ctx, e, path, path, engine.Scan{})
	}
	l, err := listFiles(ctx, path)
	if err != nil {
		return "", err
	}
	if len(l.Skipped) > 0 && o.skipped != nil {
		o.skipped(path, l)
	}
	complete, writing, err := landing.Settle(ctx, l.Files, o.settle, time.Now)
	if err != nil {
		return "", err
	}
	if len(writing) > 0 {
		return "", fmt.Errorf("%w: %s is still being written (its size or modification time changed within %s): run again once it is complete, or write landing files under a hidden name (.name or _name) and rename them into place",
			ErrSource, writing[0].Path, o.settle)
	}
	if len(complete) == 0 {
		return "", fmt.Errorf("%w: no files match %s", ErrSource, path)
	}
	return e.ReadFiles(ctx, landing.Listing{Files: complete}.Paths(), format, o.src)
}

// readFileList reads the given files of a format with DuckDB
// (fileListSQL), their columns in the order of the source's backend:
// Spark's JSON reader (PYSPARK, the default, and a node's JSON sink read
// back) infers the columns of the objects sorted by name, where DuckDB and
// Polars keep the order of the first object's keys. A declared schema
// keeps its order. (The fields of nested objects keep DuckDB's order.)
//
// DuckDB's JSON reader types a column of integers that holds a negative
// number as HUGEINT (the union of its signed and unsigned detections),
// which the Delta writer stores as decimal(38,0); Spark's reader infers
// bigint and Polars' Int64 for integers of either sign, so such columns
// (and fields and elements of that type) are read as BIGINT: a value
// beyond BIGINT fails the read instead of being written as another type.
func readFileList(ctx context.Context, q local.Querier, files []string, format string, o readOptions) (string, error) {
	if sql, ok, err := polarsFiles(ctx, q, files, strings.ToUpper(format), o); ok {
		return sql, err
	}
	sql, err := fileListSQL(files, format, o)
	if err == nil && strings.EqualFold(format, "PARQUET") && schemaColumns(o.src) != "" {
		return declaredColumns(ctx, q, sql, o.src.Schema)
	}
	if err == nil && strings.EqualFold(format, "CSV") && schemaColumns(o.src) == "" && !csvHeader(o.src) {
		return csvHeaderless(ctx, q, sql, o.src)
	}
	spark := o.src == nil || o.src.Backend != "POLARS"
	if err != nil || !slices.Contains([]string{"JSON", "JSONL", "NDJSON"}, strings.ToUpper(format)) || schemaColumns(o.src) != "" {
		return sql, err
	}
	cols, err := describe(ctx, q, sql)
	if err != nil {
		return "", err
	}
	if spark && o.polars == nil {
		if sql, cols, err = sparkJSONColumns(ctx, q, files, format, o, sql, cols); err != nil {
			return "", err
		}
	}
	reordered := spark && !slices.IsSorted(columnNames(cols))
	if reordered {
		slices.SortStableFunc(cols, func(a, b column) int { return strings.Compare(a.Name, b.Name) })
	}
	changed := false
	sel := make([]string, len(cols))
	for i, c := range cols {
		sel[i] = quoteIdent(c.Name)
		if hugeInt.MatchString(c.Type) {
			sel[i] = fmt.Sprintf("CAST(%s AS %s) AS %s", sel[i], hugeInt.ReplaceAllString(c.Type, "BIGINT"), sel[i])
			changed = true
		}
	}
	if !changed && !reordered {
		return sql, nil
	}
	return "SELECT " + strings.Join(sel, ", ") + " FROM (" + sql + ")", nil
}

// hugeInt matches DuckDB's HUGEINT in a type's text (a column's, or a
// field's or element's of a nested type).
var hugeInt = regexp.MustCompile(`\bHUGEINT\b`)

// declaredColumns selects a declared schema's columns of Parquet files
// (read by sql), as Spark's reader with a schema does: in its order, by
// name (without case, as spark.sql.caseSensitive's default), cast to its
// types, absent ones null, others dropped.
func declaredColumns(ctx context.Context, q local.Querier, sql string, sc *workspace.Schema) (string, error) {
	cols, err := describe(ctx, q, sql)
	if err != nil {
		return "", err
	}
	have := columnNames(cols)
	sel := make([]string, len(sc.Columns))
	for i, c := range sc.Columns {
		v := "NULL"
		if j := slices.IndexFunc(have, func(h string) bool { return strings.EqualFold(h, c.Name) }); j >= 0 {
			v = quoteIdent(have[j])
		}
		sel[i] = fmt.Sprintf("CAST(%s AS %s) AS %s", v, dialect.DuckDBTypeName(c.Type), quoteIdent(c.Name))
	}
	return "SELECT " + strings.Join(sel, ", ") + " FROM (" + sql + ")", nil
}

// fileListSQL reads the given files of a format (CSV, JSON, JSONL,
// PARQUET) with DuckDB.
func fileListSQL(files []string, format string, o readOptions) (string, error) {
	format = strings.ToUpper(format)
	exact := make([]string, len(files))
	for i, f := range files {
		p, err := landing.DuckPath(f)
		if err != nil {
			return "", err
		}
		exact[i] = p
	}
	list := stringList(exact)
	var args []string
	switch format {
	case "CSV":
		// Laktory 0.13.1's infer_schema defaults to false: Spark (inferSchema,
		// cloudFiles.inferColumnTypes) and Polars then read every column as
		// a string.
		header, infer := csvReadDefaults(o.src)
		if o.src != nil {
			if o.src.HasHeader != nil {
				header = *o.src.HasHeader
			}
			if o.src.InferSchema != nil {
				infer = *o.src.InferSchema
			}
		}
		if len(files) > 1 {
			args = append(args, "union_by_name = true")
		}
		if v, ok := readerOpt(o.src, "header"); ok {
			header = truthy(v)
		}
		if v, ok := readerOpt(o.src, "inferSchema"); ok {
			infer = truthy(v)
		}
		args = append(args, fmt.Sprintf("header = %t", header))
		if !infer {
			args = append(args, "all_varchar = true")
		} else {
			args = append(args, csvInferCandidates(o.src))
		}
		for _, k := range []string{"sep", "delimiter"} {
			if v, ok := readerOpt(o.src, k); ok {
				args = append(args, "delim = "+quoteString(fmt.Sprint(v)))
			}
		}
		if v, ok := readerOpt(o.src, "quote"); ok {
			args = append(args, "quote = "+quoteString(fmt.Sprint(v)))
		}
		if v, ok := readerOpt(o.src, "escape"); ok {
			args = append(args, "escape = "+quoteString(fmt.Sprint(v)))
		}
		if v, ok := readerOpt(o.src, "nullValue"); ok {
			args = append(args, "nullstr = "+quoteString(fmt.Sprint(v)))
		}
		args = append(args, polarsCSVArgs(o.src)...)
		if cols := schemaColumns(o.src); cols != "" {
			// The declared columns by position, as Spark's reader with a
			// schema: a row's missing last values null, its extra ones
			// dropped.
			args = append(args, "columns = "+cols, "auto_detect = false", "null_padding = true", "strict_mode = false")
		}
		return fmt.Sprintf("SELECT * FROM read_csv(%s, %s)", list, strings.Join(args, ", ")), nil
	case "JSON", "JSONL", "NDJSON":
		f := "auto"
		if format != "JSON" {
			f = "newline_delimited"
		}
		// Spark's and Polars' JSON readers keep date- and time-like strings
		// as strings; DuckDB would detect DATE and TIMESTAMP columns. A
		// format of literal text matches no date, so nothing is detected.
		args = append(args, "format = "+quoteString(f))
		if len(files) > 1 {
			args = append(args, "union_by_name = true")
		}
		if cols := schemaColumns(o.src); cols != "" {
			// The declared columns by name, as Spark's reader with a schema:
			// absent keys null, other keys dropped, dates and timestamps
			// parsed as the schema says.
			args = append(args, "columns = "+cols)
		} else if len(o.jsonColumns) > 0 {
			// The types inferred from every record (sparkJSONColumns).
			args = append(args, "columns = "+jsonColumnsArg(o.jsonColumns))
		} else {
			args = append(args, "dateformat = 'no date inference'", "timestampformat = 'no timestamp inference'")
		}
		if o.polars != nil {
			args = append(args, fmt.Sprintf("sample_size = %d", o.polars.InferSchemaLength))
		} else if o.wholeFile && len(o.jsonColumns) == 0 && schemaColumns(o.src) == "" {
			args = append(args, "sample_size = -1")
		}
		return fmt.Sprintf("SELECT * FROM read_json(%s, %s)", list, strings.Join(args, ", ")), nil
	case "PARQUET":
		return fmt.Sprintf("SELECT * FROM read_parquet(%s, union_by_name = true)", list), nil
	case "TEXT":
		return textListSQL(list, o.src), nil
	}
	return "", fmt.Errorf("%w: local runs cannot read %s files (%s)", ErrSource, format, strings.Join(files, ", "))
}

// polarsCSVArgs are read_csv's arguments for the reader_kwargs of a
// POLARS CSV source local runs apply (validate.PolarsAppliedKwargs; the
// rest is refused at validate), as pl.scan_csv reads them: separator,
// quote_char, skip_rows (lines before the header) and null_values (a
// string or a list; empty fields stay null, as polars reads them). A
// quoted empty field is an empty string in polars, not NULL.
func polarsCSVArgs(src *workspace.Source) []string {
	if src == nil || src.Backend != "POLARS" {
		return nil
	}
	args := []string{"allow_quoted_nulls = false"}
	kw := src.ReaderKwargs
	if v, ok := kw["separator"].(string); ok {
		args = append(args, "delim = "+quoteString(v))
	}
	if v, ok := kw["quote_char"].(string); ok {
		args = append(args, "quote = "+quoteString(v))
	}
	if v, ok := kw["skip_rows"].(int64); ok {
		args = append(args, fmt.Sprintf("skip = %d", v))
	}
	nulls := []string{""}
	switch v := kw["null_values"].(type) {
	case string:
		nulls = append(nulls, v)
	case []any:
		for _, x := range v {
			nulls = append(nulls, fmt.Sprint(x))
		}
	}
	if len(nulls) > 1 {
		args = append(args, "nullstr = "+stringList(nulls))
	}
	return args
}

func readerOpt(src *workspace.Source, key string) (any, bool) {
	if src == nil {
		return nil, false
	}
	return src.ReaderOption(key)
}

func truthy(v any) bool {
	switch x := v.(type) {
	case bool:
		return x
	case string:
		return strings.EqualFold(x, "true")
	}
	return false
}

// schemaColumns is a source's declared schema as a DuckDB columns struct
// ({'a': 'BIGINT', ...}), "" when it declares none.
func schemaColumns(src *workspace.Source) string {
	if src == nil || src.Schema == nil || len(src.Schema.Columns) == 0 {
		return ""
	}
	parts := make([]string, len(src.Schema.Columns))
	for i, c := range src.Schema.Columns {
		parts[i] = quoteString(c.Name) + ": " + quoteString(dialect.DuckDBTypeName(c.Type))
	}
	return "{" + strings.Join(parts, ", ") + "}"
}

// listFiles returns the data files a path names (landing.List): the
// file itself, the files of a glob, or every file below a folder (sorted),
// skipping names starting with '.' or '_' (Spark's hidden files: _SUCCESS,
// _delta_log, .crc) and what is not a regular file. A folder without a
// file is an error ("no files in").
func listFiles(ctx context.Context, path string) (landing.Listing, error) {
	l, err := landing.List(ctx, path)
	if err != nil {
		if errors.Is(err, fs.ErrNotExist) {
			return l, fmt.Errorf("%w: %s does not exist", ErrSource, path)
		}
		return l, err
	}
	if len(l.Files) == 0 && !landing.IsGlob(path) {
		return l, fmt.Errorf("%w: no files in %s", ErrSource, path)
	}
	return l, nil
}

// placeholder matches {df}, {sources.x} and {nodes.x}.
var placeholder = regexp.MustCompile(`\{\s*(df|sources\.([^{}\s]+)|nodes\.([^{}\s]+))\s*\}`)

// translate turns a text of the node's SQL dialect into DuckDB SQL with
// the node's translator (Dialect): an `expr` step (its placeholders
// resolved to views) or an expression over the view df. o says where the
// text is in the YAML.
func (c *compiler) translate(ctx context.Context, kind dialect.Kind, text, df string, o origin) (string, error) {
	sql, _, err := c.translateNamed(ctx, kind, text, df, o)
	return sql, err
}

// translateNamed is translate, with the column name the dialect gives an
// expression ("" when it does not say).
func (c *compiler) translateNamed(ctx context.Context, kind dialect.Kind, text, df string, o origin) (string, string, error) {
	res, err := c.translateResult(ctx, kind, text, df, o)
	return res.SQL, res.Name, err
}

// translateResult is translate, with the dialect's whole result (its SQL
// checked and bound).
func (c *compiler) translateResult(ctx context.Context, kind dialect.Kind, text, df string, o origin) (dialect.Result, error) {
	st := dialect.Step{Kind: kind, Text: text}
	add := func(ref, rel string) error {
		if _, ok := st.Input(ref); ok {
			return nil
		}
		cols, err := c.columns(ctx, rel)
		if err != nil {
			return fmt.Errorf("%w: describe the input {%s}: %v", ErrStep, ref, err)
		}
		st.Inputs = append(st.Inputs, dialect.Input{Ref: ref, Relation: rel, Columns: dialectColumns(cols)})
		return nil
	}
	if kind != dialect.Query {
		if err := add("df", df); err != nil {
			return dialect.Result{}, err
		}
	}
	for _, r := range dialect.Placeholders(text) {
		v, err := c.resolveRef(ctx, text[r.Off:r.Off+r.Len], df)
		if err != nil {
			return dialect.Result{}, err
		}
		if err := add(r.Name, v); err != nil {
			return dialect.Result{}, err
		}
	}
	res, err := c.dialects(c.n).Translate(ctx, st)
	if err != nil {
		return dialect.Result{}, err
	}
	if c.bind != nil {
		sql, err := c.bind.translated(res, o)
		res.SQL = sql
		return res, err
	}
	var errs []string
	for _, d := range res.Diagnostics {
		if d.Severity == workspace.SeverityError {
			errs = append(errs, d.Message)
		}
	}
	if len(errs) > 0 {
		return dialect.Result{}, fmt.Errorf("%w: %s", ErrStep, strings.Join(errs, "; "))
	}
	return res, nil
}

// refuse fails the piece at o with the dialect engine's own error: a
// validation problem when checking, else the run's error.
func (c *compiler) refuse(o origin, msg, hint string) error {
	if c.bind != nil {
		_, err := c.bind.translated(dialect.Result{Diagnostics: []dialect.Diagnostic{{Offset: -1, Severity: workspace.SeverityError, Message: msg, Hint: hint, Rejected: true}}}, o)
		return err
	}
	return fmt.Errorf("%w: %s: %s", ErrStep, o.what, msg)
}

// columns describes a view of the compiler, once.
func (c *compiler) columns(ctx context.Context, view string) ([]column, error) {
	if cols, ok := c.cols[view]; ok {
		return cols, nil
	}
	cols, err := c.s.columns(ctx, quoteIdent(view))
	if err == nil {
		c.cols[view] = cols
	}
	return cols, err
}

// resolveRef returns the view a placeholder ({df}, {sources.x}, {nodes.x})
// names.
func (c *compiler) resolveRef(ctx context.Context, ref, df string) (string, error) {
	sm := placeholder.FindStringSubmatch(ref)
	if sm == nil {
		return "", fmt.Errorf("%w: %q is not {df}, {sources.x} or {nodes.x}", ErrStep, ref)
	}
	switch {
	case sm[1] == "df":
		if df == "" {
			return "", fmt.Errorf("%w: {df} is used but the node has no source", ErrStep)
		}
		return df, nil
	case sm[2] != "":
		v, ok := c.sources[sm[2]]
		if !ok {
			return "", fmt.Errorf("%w: {sources.%s} names no source of the node (give a source `name: %s`)", ErrStep, sm[2], sm[2])
		}
		return v, nil
	default:
		name := sm[3]
		if v, ok := c.nodes[name]; ok {
			return v, nil
		}
		// A check reads an upstream node from the view of its schema,
		// whose columns it knows: no other view over it.
		if rel, ok := c.mem.output(c.p.Name, name); ok && c.bind != nil {
			if _, known := c.cols[rel]; known {
				c.nodes[name] = rel
				return rel, nil
			}
		}
		q, err := c.nodeSQL(ctx, name)
		if err != nil {
			return "", err
		}
		v, err := c.s.view(ctx, "node_"+name, q)
		if err != nil {
			return "", fmt.Errorf("%w: {nodes.%s}: %w", ErrSource, name, err)
		}
		c.nodes[name] = v
		return v, nil
	}
}

// step applies one transformer step to the view df.
func (c *compiler) step(ctx context.Context, st *workspace.Step, df string) (string, error) {
	if !st.IsSQL() {
		return c.funcStep(ctx, st, df)
	}
	switch k := statements(c.n, st.Expr); {
	case k == 0:
		return "", fmt.Errorf("%w: the `expr` is empty", ErrStep)
	case k > 1:
		// Laktory runs an expr as one query (spark.sql); statements before
		// it would run here only, with the pipeline's file as their author.
		return "", fmt.Errorf("%w: the `expr` of transformer step #%d holds %d SQL statements: an expr is one query; remove what comes before (or after) it",
			ErrStep, st.Index+1, k)
	}
	text, err := c.translate(ctx, dialect.Query, st.Expr, df, origin{what: fmt.Sprintf("the `expr` of transformer step #%d", st.Index+1), at: st.At("expr"), exact: true})
	if err != nil {
		return "", err
	}
	stmts := splitStatements(text)
	if len(stmts) != 1 {
		return "", fmt.Errorf("%w: the `expr` of transformer step #%d translates to %d SQL statements", ErrStep, st.Index+1, len(stmts))
	}
	v, err := c.s.view(ctx, "step", stmts[0])
	if err != nil {
		return "", fmt.Errorf("%w: %w", ErrStep, err)
	}
	return v, nil
}

// statements is the number of SQL statements of an `expr` as the node's
// dialect reads it (Spark's strings take backslash escapes).
func statements(n *workspace.Node, text string) int {
	if n.DataframeBackend == "POLARS" {
		return len(splitStatements(text))
	}
	return sparksql.Statements(text)
}

// expectResult is the node's output once expectations ran.
type expectResult struct {
	// out is the relation the regular sinks write: the rows for which every
	// DROP and QUARANTINE expectation is TRUE (a row where one is NULL is in
	// neither out nor quarantine, as in Laktory). quarantine is what a
	// quarantine sink writes: the rows for which every QUARANTINE
	// expectation is FALSE (Laktory ANDs their fail filters), or every row
	// checked when the node has expectations but none is QUARANTINE
	// (Laktory's quarantine frame is then the whole frame); "" without
	// expectations.
	out, quarantine string
	// rows counts the rows before expectations (-1 when not counted),
	// kept the rows of out (-1 likewise).
	rows, kept int64
	// warnings are Laktory's messages of the expectations whose status is
	// FAIL with another action than FAIL; notes the DROP/QUARANTINE counts.
	warnings []string
	notes    []string
	// materialized: out is a table (read it any number of times).
	materialized bool
}

// expectations evaluates the node's expectations over view df as Laktory
// 0.13.1 does (PipelineNode.check_expectations, DataQualityExpectation
// .run_check): a ROW expectation's failures are the rows where it is FALSE
// (NULL is not a failure); its status is FAIL beyond the tolerance (abs,
// else rel of the rows; 0 rows always PASS, even for AGGREGATE); an
// AGGREGATE one FAILs unless its value is TRUE. A FAIL status warns with
// Laktory's message, or for action FAIL returns ErrExpectation. The output
// keeps the rows where the DROP and QUARANTINE expectations are all TRUE.
// Without expectations df is returned as is. Otherwise df is materialized
// once, so every count, filter and write sees the same rows.
func (c *compiler) expectations(ctx context.Context, df string) (expectResult, error) {
	res := expectResult{out: df, rows: -1, kept: -1}
	if len(c.n.Expectations) == 0 {
		return res, nil
	}
	tbl, total, err := c.s.table(ctx, "checked", "SELECT * FROM "+quoteIdent(df))
	if err != nil {
		return res, fmt.Errorf("%s: %w", c.where(), err)
	}
	res.rows, res.materialized = total, true
	// Expectations written as narwhals expressions are columns of a view
	// of tbl (ROW) or one-row queries (AGGREGATE), through runner/frame.
	fx, err := c.dfExpectations(ctx, tbl)
	if err != nil {
		return res, err
	}
	base, extra := tbl, ""
	if fx.rel != "" {
		base = fx.rel
		var names []string
		for _, i := range sortedInts(fx.cols) {
			names = append(names, quoteIdent(fx.cols[i]))
		}
		extra = " EXCLUDE (" + strings.Join(names, ", ") + ")"
	}
	// exprs filter the rows (the output and quarantine frames); checks
	// count a ROW expectation's failures and compute an AGGREGATE one, as
	// Laktory's check evaluates them (on PYSPARK over a pandas copy of the
	// frame: dialect.Result.Check).
	exprs := make([]string, len(c.n.Expectations))
	checks := make([]string, len(c.n.Expectations))
	for i, e := range c.n.Expectations {
		if col, ok := fx.cols[i]; ok {
			exprs[i], checks[i] = quoteIdent(col), quoteIdent(col)
			continue
		}
		if _, ok := fx.agg[i]; ok {
			continue
		}
		r, err := c.translateResult(ctx, dialect.LaktoryExpression, e.Expr, tbl, origin{what: fmt.Sprintf("expectation '%s'", e.Name), at: e.At("expr"), exact: true})
		if err != nil {
			return res, fmt.Errorf("%s: expectation '%s': %w", c.where(), e.Name, err)
		}
		exprs[i], checks[i] = r.SQL, r.SQL
		if r.Check != "" {
			checks[i] = r.Check
		}
	}
	// Per ROW expectation: the rows its check is FALSE on (Laktory's fails
	// count: df.filter(~expr) keeps neither FALSE-negated NULLs) and where
	// it is NULL (removed silently by a DROP or QUARANTINE one).
	var counts []string
	var idx []int
	for i, e := range c.n.Expectations {
		if strings.EqualFold(e.Type, "AGGREGATE") {
			continue
		}
		// Each count has its own name: where the check and the filter are
		// the same text, Spark Connect's rows would hold two columns of one
		// name (and its client cannot name them).
		k := len(idx)
		counts = append(counts, fmt.Sprintf("count(*) FILTER (WHERE (%s) IS FALSE) AS _lk_fail_%d", checks[i], k),
			fmt.Sprintf("count(*) FILTER (WHERE (%s) IS FALSE) AS _lk_false_%d", exprs[i], k),
			fmt.Sprintf("count(*) FILTER (WHERE (%s) IS NULL) AS _lk_null_%d", exprs[i], k))
		idx = append(idx, i)
	}
	// failures are Laktory's fails counts; falses the rows the filter
	// drops (and a QUARANTINE one quarantines), nulls those it drops
	// silently.
	failures := make([]int64, len(c.n.Expectations))
	falses := make([]int64, len(c.n.Expectations))
	nulls := make([]int64, len(c.n.Expectations))
	if len(counts) > 0 && total > 0 {
		dest := make([]any, len(counts))
		for k, i := range idx {
			dest[3*k], dest[3*k+1], dest[3*k+2] = &failures[i], &falses[i], &nulls[i]
		}
		if err := c.s.queryRow(ctx, fmt.Sprintf("SELECT %s FROM %s", strings.Join(counts, ", "), quoteIdent(base)), dest...); err != nil {
			return res, fmt.Errorf("%w: %s: evaluate expectations: %v", ErrExpectation, c.where(), err)
		}
	}
	var keep, quarantine []string
	hasQuarantine := false
	for i, e := range c.n.Expectations {
		action := strings.ToUpper(e.Action)
		if action == "" {
			action = "WARN"
		}
		aggregate := strings.EqualFold(e.Type, "AGGREGATE")
		failed := false
		switch {
		case total == 0:
			// Laktory: an empty frame passes every expectation unevaluated.
		case aggregate:
			var ok *bool
			q := fmt.Sprintf("SELECT (%s) FROM %s", checks[i], quoteIdent(tbl))
			if aq, isDF := fx.agg[i]; isDF {
				q = aq
			}
			if err := c.s.queryRow(ctx, q, &ok); err != nil {
				return res, fmt.Errorf("%w: %s: expectation '%s': %v", ErrExpectation, c.where(), e.Name, err)
			}
			failed = ok == nil || !*ok
		default:
			failed = beyondTolerance(e, failures[i], total)
		}
		msg := laktoryLogMsg(e, aggregate, failures[i], total)
		switch action {
		case "DROP", "QUARANTINE":
			if aggregate {
				break // refused at validate (Laktory's validate_action)
			}
			keep = append(keep, "("+exprs[i]+") IS TRUE")
			verb := "dropped"
			if action == "QUARANTINE" {
				hasQuarantine, verb = true, "quarantined"
				quarantine = append(quarantine, "("+exprs[i]+") IS FALSE")
			}
			if falses[i] > 0 || nulls[i] > 0 {
				note := fmt.Sprintf("expectation '%s' (%s) %s %d of %d rows", e.Name, e.Expr, verb, falses[i], total)
				if nulls[i] > 0 {
					note += fmt.Sprintf("; %d rows where it is NULL removed from the output, not quarantined (as Laktory does)", nulls[i])
				}
				res.notes = append(res.notes, note)
			}
		}
		if !failed {
			continue
		}
		if action == "FAIL" {
			return res, fmt.Errorf("%w: %s: Expectation '%s' failed on node '%s' | %s; nothing was written",
				ErrExpectation, c.where(), e.Name, c.n.Name, msg)
		}
		res.warnings = append(res.warnings, fmt.Sprintf("Expectation '%s' for node '%s' FAILED | %s", e.Name, c.n.Name, msg))
	}
	res.out = tbl
	res.kept = total
	res.quarantine = tbl
	if len(keep) > 0 {
		v, err := c.s.view(ctx, "kept", fmt.Sprintf("SELECT *%s FROM %s WHERE %s", extra, quoteIdent(base), strings.Join(keep, " AND ")))
		if err != nil {
			return res, err
		}
		res.out = v
		if res.kept, err = c.s.count(ctx, v); err != nil {
			return res, err
		}
	}
	if hasQuarantine {
		v, err := c.s.view(ctx, "quarantine", fmt.Sprintf("SELECT *%s FROM %s WHERE %s", extra, quoteIdent(base), strings.Join(quarantine, " AND ")))
		if err != nil {
			return res, err
		}
		res.quarantine = v
	}
	return res, nil
}

// laktoryLogMsg is DataQualityExpectation.log_msg once the check ran with
// status FAIL: the expression, the status, and for a ROW expectation with
// failures their count, the rows and the rate ("%5.2f %%").
func laktoryLogMsg(e *workspace.Expectation, aggregate bool, failures, total int64) string {
	msg := fmt.Sprintf("expr: %s | status: FAIL", e.Expr)
	if !aggregate && failures > 0 {
		rate := 0.0
		if total > 0 {
			rate = float64(failures) / float64(total)
		}
		msg += fmt.Sprintf(" | fails count: %d / %d (%5.2f %%)", failures, total, 100*rate)
	}
	return msg
}

// beyondTolerance reports whether failures exceed an expectation's
// tolerance as Laktory's _check_df does: abs rows when set, else rel
// fraction of total; default abs 0.
func beyondTolerance(e *workspace.Expectation, failures, total int64) bool {
	switch {
	case e.ToleranceAbs != nil:
		return failures > *e.ToleranceAbs
	case e.ToleranceRel != nil:
		return total > 0 && float64(failures)/float64(total) > *e.ToleranceRel
	}
	return failures > 0
}

func sortedInts[V any](m map[int]V) []int {
	keys := make([]int, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	return keys
}
