package schemaflow

import (
	"errors"
	"fmt"
	"regexp"
	"slices"
	"strings"

	"github.com/laktory/workbench/delta"
	"github.com/laktory/workbench/runner/dialect"
	"github.com/laktory/workbench/validate"
	"github.com/laktory/workbench/workspace"
	"github.com/laktory/workbench/workspace/human"
)

// problems turns what binding a node found into diagnostics at the YAML
// position of each text.
func (c *check) problems(ns *nodeState, tableCols map[workspace.TableID][]string) {
	if ns.err != nil && !errors.Is(ns.err, ErrUnchecked) {
		c.add(ns.n.Pos, validate.Warning, validate.CodeSchemaUnknown,
			fmt.Sprintf("cannot check the SQL of node '%s': %s", ns.n.Name, firstLine(ns.err.Error())), "")
	}
	for _, p := range ns.out.Problems {
		at := p.At
		if p.Offset >= 0 {
			at = c.snap.PosInValue(at, p.Offset)
		}
		switch p.Kind {
		case Unbound:
			if col := missingColumn(p.Message); col != "" && p.Table != "" && !hasColumn(tableCols[p.Table], col, tableCols[p.Table] == nil) {
				continue // validate reports the column the table lacks
			}
			msg, hint := duckError(p.Message)
			c.add(at, validate.Error, validate.CodeSQLBind, fmt.Sprintf("%s does not bind: %s", p.What, msg), joinHints(hint, p.Hint))
		case Untranslatable:
			c.add(at, validate.Error, validate.CodeSQLDialect, fmt.Sprintf("%s cannot be translated: %s", p.What, p.Message), p.Hint)
		case DialectWarning:
			c.add(at, validate.Warning, validate.CodeSQLDiffers, fmt.Sprintf("%s: %s", p.What, p.Message), p.Hint)
		case FrameFails:
			c.add(at, validate.Error, validate.CodeFrameFails, fmt.Sprintf("%s: Laktory 0.13.1 fails: %s", p.What, p.Message), p.Hint)
		case FrameUnsupported:
			c.add(at, validate.Error, validate.CodeLocalStep, fmt.Sprintf("%s cannot run locally: %s", p.What, p.Message), p.Hint)
		case NullDropped:
			c.add(at, validate.Warning, validate.CodeNullDropped, fmt.Sprintf("%s: %s", p.What, p.Message), p.Hint)
		case PandasUnmodelled:
			c.add(at, validate.Error, validate.CodePandasCheck, fmt.Sprintf("%s: %s", p.What, p.Message), p.Hint)
		case NotBoolean:
			c.add(at, validate.Error, validate.CodeNotBoolean,
				fmt.Sprintf("%s is not a condition: it gives %s, not BOOLEAN", p.What, p.Message),
				"write a boolean expression over the node's output columns, e.g. amount > 0")
		}
	}
}

// hasColumn reports whether cols holds name (unknown: cols not known).
func hasColumn(cols []string, name string, unknown bool) bool {
	return unknown || slices.ContainsFunc(cols, func(c string) bool { return strings.EqualFold(c, name) })
}

func joinHints(hs ...string) string {
	var out []string
	for _, h := range hs {
		if h != "" {
			out = append(out, h)
		}
	}
	return strings.Join(out, "; ")
}

var (
	errorKind    = regexp.MustCompile(`^[A-Za-z ]+ Error: `)
	missingColRe = regexp.MustCompile(`Referenced column "([^"]+)" not found`)
	// Spark's UNRESOLVED_COLUMN (a PYSPARK node's SQL, runner/sparksql).
	sparkMissingColRe = regexp.MustCompile("^\\[UNRESOLVED_COLUMN\\.[A-Z_]+\\] A column, variable, or function parameter with name `((?:[^`]|``)+)` cannot be resolved")
	candidatesRe      = regexp.MustCompile(`^Candidate bindings: (.+)$`)
	didYouMeanRe      = regexp.MustCompile(`^Did you mean (.+)$`)
	candidateFnRe     = regexp.MustCompile(`^Candidate functions:$`)
)

// missingColumn is the column an unknown-column error names, or "".
func missingColumn(msg string) string {
	if m := missingColRe.FindStringSubmatch(msg); m != nil {
		return m[1]
	}
	if m := sparkMissingColRe.FindStringSubmatch(msg); m != nil {
		return strings.ReplaceAll(m[1], "``", "`")
	}
	return ""
}

// duckError splits DuckDB's error into the message and a hint from its
// candidates ("did you mean ...?"), without the error's kind and the
// excerpt of the query (the diagnostic's caret shows the place).
func duckError(raw string) (msg, hint string) {
	text := raw
	if i := strings.Index(text, "\nLINE "); i >= 0 {
		text = text[:i]
	}
	lines := strings.Split(strings.TrimSpace(text), "\n")
	msg = strings.TrimSuffix(errorKind.ReplaceAllString(lines[0], ""), "!")
	var hints, fns []string
	inFns := false
	for _, l := range lines[1:] {
		t := strings.TrimSpace(l)
		switch {
		case t == "":
			inFns = false
		case candidatesRe.MatchString(t):
			var names []string
			for _, n := range strings.Split(candidatesRe.FindStringSubmatch(t)[1], ", ") {
				if !slices.Contains(names, n) {
					names = append(names, n)
				}
			}
			hints = append(hints, "did you mean "+strings.Join(names, " or ")+"?")
		case didYouMeanRe.MatchString(t):
			hints = append(hints, "did you mean "+didYouMeanRe.FindStringSubmatch(t)[1])
		case candidateFnRe.MatchString(t):
			inFns = true
		case inFns:
			fns = append(fns, t)
		default:
			hints = append(hints, t)
		}
	}
	if len(fns) > 0 {
		if len(fns) > 4 {
			fns = append(fns[:4], "...")
		}
		hints = append(hints, "candidates: "+strings.Join(fns, ", "))
	}
	return msg, strings.Join(hints, " ")
}

// SinkType is the DuckDB type a Delta sink of a dataframe_backend writes
// a column of DuckDB type t as: delta-rs writes Polars' unsigned integers
// (UInt32 of len() and count(), with_row_index's index) as the signed
// Delta type of their width (UInt32 is integer), so a POLARS sink does.
// Inside lists and structs too: delta-rs writes List(UInt16) as
// array<short> and Struct(x: UInt32) as struct<x:integer>
// (TestPolarsDeltaTypes).
func SinkType(backend, t string) string {
	if backend != "POLARS" {
		return t
	}
	if s, ok := polarsUnsigned[strings.ToUpper(t)]; ok {
		return s
	}
	if !strings.ContainsAny(t, "[(") {
		return t
	}
	// The type names outside quoted field names.
	var b strings.Builder
	for i, part := range strings.Split(t, `"`) {
		if i%2 == 0 {
			part = unsignedName.ReplaceAllStringFunc(part, func(n string) string { return polarsUnsigned[strings.ToUpper(n)] })
		} else {
			b.WriteByte('"')
			part += `"`
		}
		b.WriteString(part)
	}
	return b.String()
}

var unsignedName = regexp.MustCompile(`(?i)\b(UTINYINT|USMALLINT|UINTEGER|UBIGINT)\b`)

var polarsUnsigned = map[string]string{"UTINYINT": "TINYINT", "USMALLINT": "SMALLINT", "UINTEGER": "INTEGER", "UBIGINT": "BIGINT"}

// target is the schema a Delta sink appends to.
type target struct {
	cols []Column
	what string
	// fix says how to give the column another type: drop the table, or
	// change the declared schema.
	fix string
}

// sinks checks the columns each Delta sink of a node writes against its
// table: the existing table's schema, else the declared `schema`. A type
// the append cannot cast to the table's (or no Delta type at all) fails the
// run; a narrower type is widened silently.
func (c *check) sinks(ns *nodeState) {
	c.polarsFileSinks(ns)
	for _, sk := range ns.n.Sinks {
		if sk.Table == "" || !sk.IsDelta() {
			continue
		}
		t := c.snap.Table(sk.Table)
		w := writerOf(t, ns, sk)
		at := sk.At("table_name")
		if !sk.Has("table_name") {
			at = sk.At("path")
		}
		tg := c.target(ns, t, w, sk)
		for _, col := range sinkColumns(w, ns.cols) {
			col.Type = SinkType(sk.Backend, col.Type)
			from, err := delta.ParseDuckDBType(col.Type)
			if err != nil {
				c.add(at, validate.Error, validate.CodeSinkType,
					fmt.Sprintf("node '%s' writes the column '%s' as %s, which a Delta table cannot store: the run fails", ns.n.Name, col.Name, col.Type),
					fmt.Sprintf("cast it in the transformer, e.g. CAST(%s AS VARCHAR)", sqlName(col.Name)))
				continue
			}
			i := slices.IndexFunc(tg.cols, func(o Column) bool { return strings.EqualFold(o.Name, col.Name) })
			if i < 0 {
				continue // a new column: merged into the schema
			}
			to, err := delta.ParseDuckDBType(tg.cols[i].Type)
			if err != nil || from.TypeName() == to.TypeName() {
				continue
			}
			if delta.Castable(from, to) {
				c.add(at, validate.Info, validate.CodeSinkWidened,
					fmt.Sprintf("node '%s' writes the column '%s' as %s into %s, which stores it as %s: the values are cast to %s",
						ns.n.Name, col.Name, col.Type, tg.what, tg.cols[i].Type, tg.cols[i].Type),
					"nothing to do; cast it in the transformer to say so")
				continue
			}
			c.add(at, validate.Error, validate.CodeSinkType,
				fmt.Sprintf("node '%s' writes the column '%s' as %s, but %s stores it as %s: a Delta append does not change a column's type (schema evolution adds columns only), so the run fails",
					ns.n.Name, col.Name, col.Type, tg.what, tg.cols[i].Type),
				fmt.Sprintf("cast it in the transformer (CAST(%s AS %s)), or %s", sqlName(col.Name), tg.cols[i].Type, tg.fix))
		}
	}
}

// polarsFileSinks refuses (LK220) a POLARS CSV, JSON or NDJSON sink of
// a column polars' writer fails on, as Laktory 0.13.1's run fails:
// write_csv's ComputeError for nested, binary and duration columns,
// write_json's and write_ndjson's panic for binary ones (also nested).
func (c *check) polarsFileSinks(ns *nodeState) {
	for _, sk := range ns.n.Sinks {
		if sk.Backend != "POLARS" || sk.IsDelta() || sk.IsView() {
			continue
		}
		format := sk.EffectiveFormat()
		for _, col := range ns.cols {
			t := strings.ToUpper(strings.TrimSpace(col.Type))
			var why string
			switch {
			case format == "CSV" && (strings.HasSuffix(t, "]") || strings.HasPrefix(t, "STRUCT") || strings.HasPrefix(t, "MAP") || strings.HasPrefix(t, "UNION")):
				why = "write_csv fails: ComputeError: CSV format does not support nested data"
			case format == "CSV" && t == "BLOB":
				why = "write_csv fails: ComputeError: datatype binary cannot be written to CSV"
			case format == "CSV" && t == "INTERVAL":
				why = "write_csv fails: ComputeError: datatype duration cannot be written to CSV"
			case (format == "JSON" || format == "JSONL" || format == "NDJSON") && strings.Contains(t, "BLOB"):
				why = "write_json panics: PanicException: not yet implemented: Writing BinaryView to JSON"
			default:
				continue
			}
			c.add(sk.At("format"), validate.Error, validate.CodePolarsFileType,
				fmt.Sprintf("sink #%d of node '%s' writes the column '%s' (%s) as %s: polars' %s; Laktory 0.13.1's run fails, and so would ours", sk.Index+1, ns.n.Name, col.Name, col.Type, format, why),
				"cast or drop the column in the transformer, or write it to a PARQUET or DELTA sink")
			break
		}
	}
}

// sinkSchemas are the schemas the Delta sinks of a node write: its output
// (after a writer column) with each column's DuckDB type as the sink's
// backend writes it (SinkType), in Delta's notation.
func (c *check) sinkSchemas(ns *nodeState) []SinkSchema {
	var out []SinkSchema
	for _, sk := range ns.n.Sinks {
		if !sk.IsDelta() {
			continue
		}
		ss := SinkSchema{Pipeline: ns.p.Name, Node: ns.n.Name, Sink: sk}
		var w *workspace.Writer
		if sk.Table != "" {
			w = writerOf(c.snap.Table(sk.Table), ns, sk)
		}
		for _, col := range sinkColumns(w, ns.cols) {
			t := SinkType(sk.Backend, col.Type)
			sc := SinkColumn{Name: col.Name}
			if dt, err := delta.ParseDuckDBType(t); err != nil {
				sc.Problem = fmt.Sprintf("%s: a Delta table cannot store it", col.Type)
			} else {
				sc.Type = dt.TypeName()
			}
			ss.Columns = append(ss.Columns, sc)
		}
		out = append(out, ss)
	}
	return out
}

// dropTable is the command that drops table t once (and runs its writers
// again: validate.ResetTableCommand), else the node's RESET with DROP.
func dropTable(t *workspace.Table, ns *nodeState) string {
	if t != nil && len(t.Writers) > 0 {
		return validate.ResetTableCommand(t, "DROP")
	}
	return human.RunCommand(ns.p.Name, []string{ns.n.Name}, "RESET", "DROP")
}

// writerOf is the writer of sink sk of a node (nil for a table without it).
func writerOf(t *workspace.Table, ns *nodeState, sk *workspace.Sink) *workspace.Writer {
	if t == nil {
		return nil
	}
	for _, w := range t.Writers {
		if w.Pipeline == ns.p.Name && w.Node == ns.n.Name && w.Sink == sk.Index {
			return w
		}
	}
	return nil
}

// target is what a sink appends to: the table on disk, else the schema a
// writer of the table declares (which creates it), else nothing known.
func (c *check) target(ns *nodeState, t *workspace.Table, w *workspace.Writer, sk *workspace.Sink) target {
	e := c.onDisk(string(sk.Table))
	if e.exists {
		return target{cols: e.cols, what: fmt.Sprintf("table %s (version %d)", label(t, sk), e.version),
			fix: "drop the table once so it takes the new type (" + dropTable(t, ns) + ")"}
	}
	if decl := c.declared(t, sk); decl != nil {
		return target{cols: sinkColumns(w, decl), what: fmt.Sprintf("the declared schema of %s", label(t, sk)),
			fix: "change the column's type in the declared `schema`"}
	}
	return target{}
}

// sqlName is a column name as SQL writes it (quoted when it must be).
func sqlName(name string) string {
	if strings.Trim(strings.ToLower(name), "abcdefghijklmnopqrstuvwxyz0123456789_") == "" && name != "" && (name[0] < '0' || name[0] > '9') {
		return name
	}
	return dialect.QuoteIdent(name)
}

func label(t *workspace.Table, sk *workspace.Sink) string {
	if t != nil {
		return t.Label()
	}
	return string(sk.Table)
}

// declared is the `schema` a sink declares, else the first one another
// writer of its table declares (the runner creates the table with it).
func (c *check) declared(t *workspace.Table, sk *workspace.Sink) []Column {
	schema := sk.Schema
	if t != nil {
		for _, w := range t.Writers {
			if schema != nil && len(schema.Columns) > 0 {
				break
			}
			if o := c.snap.Sink(w); o != nil {
				schema = o.Schema
			}
		}
	}
	if schema == nil || len(schema.Columns) == 0 {
		return nil
	}
	out := make([]Column, len(schema.Columns))
	for i, col := range schema.Columns {
		out[i] = Column{Name: col.Name, Type: dialect.DuckDBTypeName(col.Type)}
	}
	return out
}

// tableColumns are the columns of each table written: the table's on
// disk, else its declared schema, else its writers' outputs (when every
// writer's is known).
func (c *check) tableColumns() (map[workspace.TableID][]string, map[workspace.TableID]map[string]string) {
	out := map[workspace.TableID][]string{}
	types := map[workspace.TableID]map[string]string{}
	for _, t := range c.snap.Tables {
		if len(t.Writers) == 0 {
			continue
		}
		var cols []Column
		e := c.onDisk(t.Path)
		switch {
		case e.err != nil:
			continue
		case e.exists:
			cols = e.cols
		default:
			var w *workspace.Writer
			for _, x := range t.Writers {
				if x.Ownership == workspace.OwnerColumn {
					w = x
				}
			}
			if sk := c.snap.Sink(t.Writers[0]); sk != nil {
				if decl := c.declared(t, sk); decl != nil {
					cols = sinkColumns(w, decl)
					break
				}
			}
			var st status
			if cols, st = c.written(t); st != ready {
				continue
			}
		}
		names := make([]string, len(cols))
		types[t.ID] = make(map[string]string, len(cols))
		for i, col := range cols {
			names[i] = col.Name
			types[t.ID][strings.ToLower(col.Name)] = col.Type
		}
		out[t.ID] = names
	}
	return out, types
}
