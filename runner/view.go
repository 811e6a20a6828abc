package runner

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"path/filepath"
	"strings"
	"time"

	"github.com/laktory/workbench/delta"
	"github.com/laktory/workbench/runner/dialect"
	"github.com/laktory/workbench/runner/engine"
	"github.com/laktory/workbench/runner/history"
	"github.com/laktory/workbench/runner/sink"
	"github.com/laktory/workbench/workspace"
)

// Views: a node with a VIEW sink (`table_type: VIEW`) is a view. Laktory
// 0.13.1 runs it on Spark as CREATE OR REPLACE VIEW <sink> AS <the node's
// single SQL step>, its {df}, {sources.x} and {nodes.x} replaced by the
// full names of the tables they read (DataFrameExpr.to_sql), and the
// node's output is then the view read back (PipelineNode.execute). A run
// here writes that definition to the lake's local catalog (delta.View, in
// the view's folder) and every reader of the view (a table source, a node
// source or {nodes.x} of the view node, `laktory table scan`) evaluates
// its query over the tables as they are then, in the node's dialect.

// ErrView: a view cannot be created or read.
var ErrView = errors.New("view")

// maxViewDepth bounds views reading views.
const maxViewDepth = 32

// isViewNode is PipelineNode.is_view: one of the node's sinks is a VIEW.
func isViewNode(n *workspace.Node) bool {
	for _, sk := range n.Sinks {
		if sk.IsView() {
			return true
		}
	}
	return false
}

// laktoryFullName is TableDataSink.full_name / TableDataSource.full_name:
// the catalog, schema and table as the YAML declares them (a dotted
// table_name sets the schema and catalog), the missing ones left out.
func laktoryFullName(catalog, schema, table string) string {
	parts := strings.Split(table, ".")
	switch n := len(parts); {
	case n == 2:
		schema = parts[0]
	case n > 2:
		catalog, schema = parts[n-3], parts[n-2]
	}
	var out []string
	for _, p := range []string{catalog, schema, parts[len(parts)-1]} {
		if p != "" {
			out = append(out, p)
		}
	}
	return strings.Join(out, ".")
}

// viewDefinition is the view node n writes to sink sk: Laktory's
// statement, and the query with its inputs as readers evaluate it.
func viewDefinition(p *workspace.Pipeline, n *workspace.Node, sk *workspace.Sink) (*delta.View, error) {
	where := fmt.Sprintf("node '%s' of pipeline '%s'", n.Name, p.Name)
	if len(n.Transformer) != 1 || !n.Transformer[0].IsSQL() {
		return nil, fmt.Errorf("%w: %s: VIEW sink requires a transformer with single node expressed as SQL statement", ErrView, where)
	}
	expr := n.Transformer[0].Expr
	dir := string(sk.Table)
	v := &delta.View{Name: laktoryFullName(sk.CatalogName, sk.SchemaName, sk.TableName), Dialect: cmpOr(n.DataframeBackend, "PYSPARK"),
		Pipeline: p.Name, Node: n.Name}
	if tz, ok := n.SparkConf["spark.sql.session.timeZone"]; ok {
		v.SparkConf = map[string]string{"spark.sql.session.timeZone": tz}
	}
	refs := map[string]string{} // full name -> ref
	input := func(name string, table workspace.TableID) string {
		if r, ok := refs[name]; ok {
			return r
		}
		r := fmt.Sprintf("t%d", len(v.Inputs))
		rel, err := filepath.Rel(dir, string(table))
		if err != nil {
			rel = string(table)
		}
		v.Inputs = append(v.Inputs, delta.ViewInput{Ref: r, Table: name, Path: filepath.ToSlash(rel)})
		refs[name] = r
		return r
	}
	sourceTable := func(src *workspace.Source) (string, workspace.TableID, error) {
		switch {
		case src.Kind == workspace.SourceTable:
			return laktoryFullName(src.CatalogName, src.SchemaName, src.TableName), src.Table, nil
		case src.Kind == workspace.SourceNode:
			return nodeTable(p, src.NodeName, where)
		}
		return "", "", fmt.Errorf("%w: %s: VIEW sink only supports Table or Pipeline Node with a Table sink (source #%d)", ErrView, where, src.Index+1)
	}
	var q, sql strings.Builder
	at := 0
	for _, r := range dialect.Placeholders(expr) {
		var name string
		var table workspace.TableID
		var err error
		switch {
		case r.Name == "df":
			if len(n.Sources) == 0 {
				return nil, fmt.Errorf("%w: %s: {df} is used but the node has no source", ErrView, where)
			}
			name, table, err = sourceTable(n.Sources[0])
		case strings.HasPrefix(r.Name, "sources."):
			var src *workspace.Source
			for _, s := range n.Sources {
				if s.Name == strings.TrimPrefix(r.Name, "sources.") {
					src = s
					break
				}
			}
			if src == nil {
				return nil, fmt.Errorf("%w: %s: {%s} names no source of the node", ErrView, where, r.Name)
			}
			name, table, err = sourceTable(src)
		default:
			name, table, err = nodeTable(p, strings.TrimPrefix(r.Name, "nodes."), where)
		}
		if err != nil {
			return nil, err
		}
		q.WriteString(expr[at:r.Off])
		sql.WriteString(expr[at:r.Off])
		q.WriteString("{sources." + input(name, table) + "}")
		sql.WriteString(name)
		at = r.Off + r.Len
	}
	q.WriteString(expr[at:])
	sql.WriteString(expr[at:])
	v.Query = q.String()
	v.SQL = "CREATE OR REPLACE VIEW " + v.Name + " AS " + sql.String()
	return v, nil
}

// nodeTable is the table of node name's primary sink, as to_sql names it.
func nodeTable(p *workspace.Pipeline, name, where string) (string, workspace.TableID, error) {
	up := p.Node(name)
	if up == nil {
		return "", "", fmt.Errorf("%w: %s: node '%s' is not defined in pipeline '%s'", ErrView, where, name, p.Name)
	}
	sk := up.PrimarySink()
	if sk == nil || sk.Kind != workspace.SinkTable {
		return "", "", fmt.Errorf("%w: %s: Source node '%s' sink is not of type `TableDataSink`: a view reads tables", ErrView, where, name)
	}
	return laktoryFullName(sk.CatalogName, sk.SchemaName, sk.TableName), sk.Table, nil
}

func cmpOr(a, b string) string {
	if a != "" {
		return a
	}
	return b
}

// viewSQL evaluates the view at dir (label names it in errors): its query
// over its inputs as they are now, in its dialect.
func (c *compiler) viewSQL(ctx context.Context, dir, label string) (string, error) {
	v, err := delta.ReadView(dir)
	if err != nil {
		return "", fmt.Errorf("%w: %w", ErrSource, err)
	}
	if v == nil {
		return "", fmt.Errorf("%w: %s is not a view", ErrSource, label)
	}
	return c.evalView(ctx, v, dir)
}

// evalView evaluates view v of folder dir through a compiler of a node of
// the view's inputs (table sources) and query (its one SQL step).
func (c *compiler) evalView(ctx context.Context, v *delta.View, dir string) (string, error) {
	if c.depth > maxViewDepth {
		return "", fmt.Errorf("%w: view %s reads views %d deep (a view reading itself?)", ErrView, v.Name, maxViewDepth)
	}
	n := &workspace.Node{Name: v.Node, Pipeline: v.Pipeline, DataframeBackend: v.Dialect, SparkConf: v.SparkConf,
		Transformer: []*workspace.Step{{Expr: v.Query}}}
	for i, in := range v.Inputs {
		ref := workspace.ParseTableName(in.Table, "", "")
		n.Sources = append(n.Sources, &workspace.Source{Index: i, Kind: workspace.SourceTable, Name: in.Ref, TableName: in.Table,
			TableRef: &ref, Table: workspace.TableID(v.InputPath(dir, in)), Backend: v.Dialect})
	}
	p := &workspace.Pipeline{Name: v.Pipeline, DataframeBackend: v.Dialect, Nodes: []*workspace.Node{n}}
	sub := newCompiler(c.s, c.snap, c.mem, c.dialects, p, n)
	sub.depth = c.depth + 1
	rel, err := sub.transform(ctx)
	if err != nil {
		return "", fmt.Errorf("%w %s: %w", ErrView, v.Name, err)
	}
	return "SELECT * FROM " + quoteIdent(rel), nil
}

// viewColumns are the columns of relation rel, as a view file keeps them:
// DuckDB's types, the Spark engine's (native) named as DuckDB names the
// same values.
func viewColumns(cols []engine.Column, native bool) []delta.ViewColumn {
	out := make([]delta.ViewColumn, len(cols))
	for i, c := range cols {
		out[i] = delta.ViewColumn{Name: c.Name, Type: c.Type}
		if native {
			out[i].Type = duckDBOfSpark(c.Type)
		}
	}
	return out
}

// sparkDuckDB names DuckDB's type of the values of a Spark type (the Spark
// engine's name of it: the client's TypeName).
var sparkDuckDB = map[string]string{"String": "VARCHAR", "Long": "BIGINT", "Integer": "INTEGER", "Short": "SMALLINT",
	"Byte": "TINYINT", "Double": "DOUBLE", "Float": "FLOAT", "Boolean": "BOOLEAN", "Date": "DATE",
	"Timestamp": "TIMESTAMP WITH TIME ZONE", "TimestampNtz": "TIMESTAMP", "Binary": "BLOB"}

// duckDBOfSpark maps a Spark type name (Decimal(p,s), Array<T> and
// Map<K,V> included) to DuckDB's; a name it does not know is kept.
func duckDBOfSpark(t string) string {
	switch {
	case sparkDuckDB[t] != "":
		return sparkDuckDB[t]
	case strings.HasPrefix(t, "Decimal("):
		return "DECIMAL" + strings.TrimPrefix(t, "Decimal")
	case strings.HasPrefix(t, "Array<") && strings.HasSuffix(t, ">"):
		return duckDBOfSpark(t[len("Array<"):len(t)-1]) + "[]"
	case strings.HasPrefix(t, "Map<") && strings.HasSuffix(t, ">"):
		if k, v, ok := strings.Cut(t[len("Map<"):len(t)-1], ","); ok && !strings.ContainsAny(k, "<(") {
			return "MAP(" + duckDBOfSpark(k) + ", " + duckDBOfSpark(v) + ")"
		}
	}
	return t
}

// processView runs a view node: each VIEW sink's definition is written to
// the catalog, and the node's output is the view read back (its query over
// the tables as they are now), as Laktory's run makes it.
func (x *taskExec) processView(ctx context.Context) error {
	p, n := x.tp.pipeline, x.tp.node
	var out string
	for _, sp := range x.tp.sinks {
		if !sp.sink.IsView() {
			return fmt.Errorf("%w: node '%s' of pipeline '%s' is a view, and its sink %s is not a VIEW: Laktory's run fails on it", ErrView, n.Name, p.Name, sp.sink.Describe())
		}
		v, err := viewDefinition(p, n, sp.sink)
		if err != nil {
			return err
		}
		start := time.Now()
		dir := x.sinkPath(sp)
		// Evaluated first (Laktory's output_df, the view read back): a
		// query that fails leaves the catalog as it was.
		c := newCompiler(x.s, x.run.Plan.snap, x.run, x.run.dialects(), p, n)
		q, err := c.evalView(ctx, v, dir)
		if err == nil {
			out, err = x.s.view(ctx, "out", q)
		}
		var cols []column
		if err == nil {
			cols, err = c.columns(ctx, out)
		}
		if err != nil {
			return fmt.Errorf("%s: %w", tableLabel(sp), err)
		}
		v.Columns = viewColumns(toEngine(cols), x.s.native)
		v.CreatedAt = time.Now().UTC()
		x.rec.touch(sp)
		if err := delta.WriteView(ctx, dir, v, x.run.guard); err != nil {
			return fmt.Errorf("%w: %w", ErrSink, err)
		}
		x.log.operation(history.Operation{Table: tableLabel(sp), Path: x.sinkPath(sp), Operation: "CREATE VIEW", Detail: v.SQL, Duration: time.Since(start)})
	}
	if out == "" {
		return nil
	}
	ex := expectResult{out: out, rows: -1, kept: -1}
	if err := x.prepareOutput(ctx, &ex, nil, false); err != nil {
		return err
	}
	return nil
}

// dropView drops the view of sink sp (DROP VIEW IF EXISTS, Laktory's
// purge of a view): a FULL refresh, then the run writes it again, or a
// RESET.
func (x *taskExec) dropView(ctx context.Context, sp *sinkPlan) error {
	dir := x.sinkPath(sp)
	existed := delta.IsView(dir)
	start := time.Now()
	if err := delta.DropView(ctx, dir, x.run.guard); err != nil {
		return fmt.Errorf("%w: %s: %w", ErrSink, tableLabel(sp), err)
	}
	if existed {
		x.log.operation(history.Operation{Table: tableLabel(sp), Path: x.sinkPath(sp), Operation: "DROP VIEW", Detail: "reset", Duration: time.Since(start)})
	}
	return nil
}

// ViewScan is a view's rows, evaluated by Runner.ScanView.
type ViewScan struct {
	// Rows are the rows asked for; Total counts every row of the view
	// matching the condition.
	Rows  *sql.Rows
	Total int64
	close func()
}

// Close releases the rows and the view's materialized rows.
func (v *ViewScan) Close() error {
	err := v.Rows.Close()
	v.close()
	return err
}

// ScanView evaluates the view at dir (its query over the tables it reads
// as they are now, on the runner's local engine) and returns its rows:
// the columns asked for (all when empty), where the DuckDB condition
// where holds, at most limit of them (0: all).
func (r *Runner) ScanView(ctx context.Context, dir string, columns []string, where string, limit int) (*ViewScan, error) {
	v, err := delta.ReadView(dir)
	if err != nil {
		return nil, err
	}
	if v == nil {
		return nil, fmt.Errorf("%w: %s holds no view (%s)", ErrView, dir, delta.ViewFileName)
	}
	s, err := newSession(ctx, r.local)
	if err != nil {
		return nil, err
	}
	defer s.close()
	c := newCompiler(s, nil, boundOutputs{}, r.cfg.Dialect, &workspace.Pipeline{Name: v.Pipeline}, &workspace.Node{Name: v.Node})
	q, err := c.evalView(ctx, v, dir)
	if err != nil {
		return nil, err
	}
	name := fmt.Sprintf("lk_view_scan_%d", sessionSeq.Add(1))
	rel, err := s.e.Share(ctx, name, q)
	if err != nil {
		return nil, fmt.Errorf("%w %s: %w", ErrView, v.Name, err)
	}
	drop := func() { r.db.ExecContext(context.Background(), "DROP TABLE IF EXISTS "+rel) } //nolint:errcheck // best effort: an in-memory table
	cols := "*"
	if len(columns) > 0 {
		qs := make([]string, len(columns))
		for i, c := range columns {
			qs[i] = quoteIdent(c)
		}
		cols = strings.Join(qs, ", ")
	}
	cond := ""
	if strings.TrimSpace(where) != "" {
		cond = " WHERE (" + where + ")"
	}
	out := &ViewScan{close: drop}
	if err := r.db.QueryRowContext(ctx, "SELECT count(*) FROM "+rel+cond).Scan(&out.Total); err != nil {
		drop()
		return nil, fmt.Errorf("%w %s: %w", ErrView, v.Name, err)
	}
	query := "SELECT " + cols + " FROM " + rel + cond
	if limit > 0 {
		query += fmt.Sprintf(" LIMIT %d", limit)
	}
	if out.Rows, err = r.db.QueryContext(ctx, query); err != nil {
		drop()
		return nil, fmt.Errorf("%w %s: %w", ErrView, v.Name, err)
	}
	return out, nil
}

// ViewSandbox confines a runner that scans the view at dir to the folders
// of the tables it reads (through the views it reads too), with no spill
// folder (DuckDB keeps its work in memory): the view's SQL comes with a
// pipeline file.
func ViewSandbox(dir string) (*delta.Confinement, error) {
	c := &delta.Confinement{}
	seen := map[string]bool{}
	var walk func(dir string, depth int) error
	walk = func(dir string, depth int) error {
		if seen[dir] || depth > maxViewDepth {
			return nil
		}
		seen[dir] = true
		v, err := delta.ReadView(dir)
		if err != nil || v == nil {
			return err
		}
		for _, in := range v.Inputs {
			p := v.InputPath(dir, in)
			if delta.IsView(p) {
				if err := walk(p, depth+1); err != nil {
					return err
				}
				continue
			}
			c.Dirs = append(c.Dirs, p)
		}
		return nil
	}
	if err := walk(dir, 0); err != nil {
		return nil, err
	}
	return c, nil
}

// Pipeline views (`pipeline_view_name:`): Laktory 0.13.1 stores nothing
// for them (PipelineViewDataSink.write only logs the name; its purge does
// nothing). In a declarative pipeline the engine defines a temporary view
// (dp.temporary_view) its readers compute; elsewhere the node's output is
// read from memory by the nodes of the same run, and cannot be read back
// later (as_source raises NotImplementedError).

// computedByReaders reports whether the readers of node n compute it
// themselves when the run does not: it has no sink, or its primary sink
// is a pipeline view of a declarative pipeline.
func computedByReaders(p *workspace.Pipeline, n *workspace.Node) bool {
	sk := n.PrimarySink()
	return sk == nil || sk.Kind == workspace.SinkPipelineView && p.Declarative()
}

// pipelineView is a pipeline view sink: it writes and resets nothing.
type pipelineView struct{}

func (pipelineView) Write(context.Context, sink.Batch) (int64, error) { return 0, nil }
func (pipelineView) Reset(context.Context) error                      { return nil }
