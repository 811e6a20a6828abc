package validate

import (
	"errors"
	"fmt"
	"slices"
	"strings"
	"unicode"

	"github.com/laktory/workbench/workspace"
)

// shared runs the shared-sink rules, table by table.
func (c *checker) shared() {
	for _, t := range c.snap.Tables {
		if len(t.Writers) == 0 {
			continue
		}
		notShared := c.pipelineWriters(t)
		c.sinkLevel(t)
		c.ownership(t)
		c.acrossPipelines(t, notShared)
	}
}

// pipelineWriters checks the nodes of one (non-declarative) pipeline writing
// the same table: every sink declares shared and is a DELTA APPEND sink. It
// returns the writers already reported for not declaring shared.
func (c *checker) pipelineWriters(t *workspace.Table) map[*workspace.Writer]bool {
	reported := map[*workspace.Writer]bool{}
	order, groups := byPipeline(t.Writers)
	for _, pl := range order {
		ws := groups[pl]
		nodes := nodesOf(ws)
		if len(nodes) < 2 || ws[0].Declarative {
			continue
		}
		var missing []string
		for _, w := range ws {
			if !w.Shared && !slices.Contains(missing, w.Node) {
				missing = append(missing, w.Node)
			}
		}
		for _, w := range ws {
			sk := c.sink(w)
			if !w.Shared {
				reported[w] = true
				c.add(w.Pos, Error, CodeNotShared,
					fmt.Sprintf("sinks of nodes %s don't declare `shared`: nodes %s of pipeline '%s' all write %s",
						list(missing), list(nodes), pl, t.Label()),
					"add `shared: true` to each of these sinks (each row then carries its writer in _laktory_writer), or write to separate tables")
				if sk != nil && (!sk.IsDelta() || sk.Mode != workspace.ModeAppend) {
					c.add(w.Pos, Error, CodeMultiWriterFormat,
						fmt.Sprintf("%s is written by several nodes of pipeline '%s': they must be DELTA table or file sinks in `APPEND` mode (this sink: %s)",
							t.Label(), pl, describeSink(sk)),
						"set `mode: APPEND` and a DELTA format, or write to separate tables")
				}
			}
		}
	}
	return reported
}

func describeSink(sk *workspace.Sink) string {
	mode := sk.Mode
	if mode == "" {
		mode = "no mode"
	}
	f := sk.EffectiveFormat()
	if f == "" {
		f = "no format"
	}
	return f + ", " + mode
}

// sinkLevel checks each shared sink: APPEND mode and DELTA format.
func (c *checker) sinkLevel(t *workspace.Table) {
	for _, w := range t.Writers {
		sk := c.sink(w)
		if !w.Shared || w.Declarative || sk == nil {
			continue
		}
		if sk.Mode != workspace.ModeAppend {
			got := "no mode"
			if sk.Mode != "" {
				got = "`" + sk.Mode + "`"
			}
			c.add(sk.At("mode"), Error, CodeSharedMode,
				fmt.Sprintf("Shared sinks only support `APPEND` mode (got %s): other modes would modify the rows of the other writers", got),
				"set `mode: APPEND`, or write to a separate table")
		}
		if sk.IsView() {
			// TableDataSink._supports_shared: a table, not a view.
			c.add(sk.At("shared"), Error, CodeSharedFormat,
				fmt.Sprintf("Shared sinks (`shared`) are not supported for a VIEW (%s). They require a DELTA table or file sink.", sk.Describe()),
				"remove `shared` (a view holds no rows), or write a table (remove `table_type: VIEW`)")
		} else if !sk.IsDelta() {
			c.add(sk.At("format"), Error, CodeSharedFormat,
				fmt.Sprintf("Shared sinks require a DELTA format (got %s): rows are deleted per writer, which needs a Delta table", sk.EffectiveFormat()),
				"set `format: DELTA`, or write to a separate table")
		}
	}
}

// ownership checks that the shared writers of a table, across the
// workspace, identify their rows consistently.
func (c *checker) ownership(t *workspace.Table) {
	var col, where []*workspace.Writer
	for _, w := range t.Writers {
		if w.Declarative {
			continue
		}
		switch w.Ownership {
		case workspace.OwnerColumn:
			col = append(col, w)
		case workspace.OwnerWhere:
			where = append(where, w)
		}
	}
	known := where[:0:0]
	for _, w := range where {
		p := c.whereSyntax(w)
		if p.expr != nil && !c.whereColumns(t, w, p) {
			continue
		}
		if p.expr != nil {
			c.whereFloatEquality(t, w, p)
		}
		known = append(known, w)
	}
	if len(col) > 0 && len(where) > 0 {
		names := func(ws []*workspace.Writer) string {
			var s []string
			for _, w := range ws {
				s = append(s, writerName(w))
			}
			return strings.Join(s, ", ")
		}
		for _, w := range slices.Concat(col, where) {
			c.add(c.sharedPos(w, ""), Error, CodeOwnershipKind,
				fmt.Sprintf("Writers of %s identify their rows differently: a writer column (%s) and `where` predicates (%s)",
					t.Label(), names(col), names(where)),
				"use the same kind for every writer: `shared: true` everywhere, or `shared: {where: ...}` everywhere")
		}
		return
	}
	c.columnWriters(t, col)
	c.whereWriters(t, known)
}

// whereColumns reports whether the columns a writer's predicate names are
// columns of the table (when they are known), and reports those that are
// not: its rows can't be told apart, so there is nothing to prove.
func (c *checker) whereColumns(t *workspace.Table, w *workspace.Writer, p *predicate) bool {
	cols, ok := c.opts.TableColumns[t.ID]
	if !ok {
		return true
	}
	good := true
	seen := map[string]bool{}
	for _, ref := range columnRefs(p.expr, nil) {
		name := ref.ColumnNames[len(ref.ColumnNames)-1]
		if seen[strings.ToLower(name)] || slices.ContainsFunc(cols, func(c string) bool { return strings.EqualFold(c, name) }) {
			continue
		}
		seen[strings.ToLower(name)] = true
		good = false
		at := c.sharedPos(w, "where")
		if off, err := ref.QueryLocation.Int64(); err == nil && int(off) >= len(predPrefix) {
			at = c.snap.PosInValue(at, int(off)-len(predPrefix))
		}
		msg := fmt.Sprintf("the `shared.where` of %s names the column '%s', which table %s does not have (its columns: %s)",
			writerName(w), name, t.Label(), strings.Join(cols, ", "))
		if s := workspace.Suggest(name, cols); s != "" {
			msg += fmt.Sprintf("; did you mean '%s'?", s)
		}
		c.add(at, Error, CodeWhereColumn, msg,
			"name columns of the table: the run checks each row the writer writes against the predicate, and a FULL refresh deletes the rows it matches")
	}
	return good
}

// whereFloatEquality reports a writer's predicate comparing a FLOAT or
// DOUBLE column for equality with =, <>, IN or NOT IN (LK115): the write
// check, the delete and a scan compare binary doubles, so a value computed
// otherwise than the literal (0.1 + 0.2 against 0.3) or a literal no
// double equals never matches, and each FULL refresh would append its
// rows again. Ranges (d >= 0.1 AND d < 0.2) say what is meant.
func (c *checker) whereFloatEquality(t *workspace.Table, w *workspace.Writer, p *predicate) {
	types, ok := c.opts.TableColumnTypes[t.ID]
	if !ok {
		return
	}
	float := func(e *sqlNode) (string, string, bool) {
		name, ok := column(e)
		if !ok {
			return "", "", false
		}
		switch typ := strings.ToUpper(types[name]); typ {
		case "FLOAT", "DOUBLE", "REAL", "FLOAT4", "FLOAT8":
			return e.ColumnNames[len(e.ColumnNames)-1], typ, true
		}
		return "", "", false
	}
	var walk func(e *sqlNode) bool
	walk = func(e *sqlNode) bool {
		if e == nil {
			return false
		}
		var sides []*sqlNode
		switch e.Type {
		case "COMPARE_EQUAL", "COMPARE_NOTEQUAL", "COMPARE_DISTINCT_FROM", "COMPARE_NOT_DISTINCT_FROM":
			sides = []*sqlNode{e.Left, e.Right}
		case "COMPARE_IN", "COMPARE_NOT_IN":
			if len(e.Children) > 0 {
				sides = e.Children[:1]
			}
		}
		for _, s := range sides {
			if name, typ, ok := float(s); ok {
				c.add(c.sharedPos(w, "where"), Error, CodeWhereFloatEqual,
					fmt.Sprintf("the `shared.where` of %s (%s) compares the %s column '%s' for equality: the run's check, the FULL refresh's delete and a scan compare binary floating-point values, so rows whose value is computed otherwise than the literal never match and each FULL refresh appends them again",
						writerName(w), w.Where, typ, name),
					fmt.Sprintf("own the rows by a range (%s >= 0.1 AND %s < 0.2), by a column of an exact type (an integer, a DECIMAL, a string), or with `shared: true`", name, name))
				return true
			}
		}
		for _, ch := range append([]*sqlNode{e.Left, e.Right, e.Input, e.Child}, e.Children...) {
			if walk(ch) {
				return true
			}
		}
		return false
	}
	walk(p.expr)
}

// columnRefs appends the column references of an expression tree.
func columnRefs(n *sqlNode, out []*sqlNode) []*sqlNode {
	if n == nil {
		return out
	}
	if n.Class == "COLUMN_REF" && len(n.ColumnNames) > 0 {
		return append(out, n)
	}
	for _, ch := range n.Children {
		out = columnRefs(ch, out)
	}
	for _, ch := range []*sqlNode{n.Left, n.Right, n.Input, n.Lower, n.Upper, n.Child, n.ElseExpr} {
		out = columnRefs(ch, out)
	}
	for _, cc := range n.CaseChecks {
		out = columnRefs(cc.WhenExpr, out)
		out = columnRefs(cc.ThenExpr, out)
	}
	return out
}

// sharedPos is the position of a field of the writer's shared options.
func (c *checker) sharedPos(w *workspace.Writer, field string) workspace.Pos {
	sk := c.sink(w)
	if sk == nil {
		return w.Pos
	}
	if sk.Shared == nil {
		return sk.Pos
	}
	if field == "" {
		return sk.At("shared")
	}
	if sk.Shared.Has(field) {
		return sk.Shared.At(field)
	}
	return sk.At("shared")
}

func (c *checker) columnWriters(t *workspace.Table, ws []*workspace.Writer) {
	if len(ws) == 0 {
		return
	}
	columns := map[string][]string{}
	var order []string
	for _, w := range ws {
		if _, ok := columns[w.Column]; !ok {
			order = append(order, w.Column)
		}
		columns[w.Column] = append(columns[w.Column], writerName(w))
	}
	if len(order) > 1 {
		var parts []string
		for _, col := range order {
			parts = append(parts, fmt.Sprintf("%s (%s)", col, strings.Join(columns[col], ", ")))
		}
		for _, w := range ws {
			c.add(c.sharedPos(w, "column"), Error, CodeSharedColumn,
				fmt.Sprintf("Writers of %s use a different `shared.column`: %s", t.Label(), strings.Join(parts, "; ")),
				"use one writer column for the table (the default _laktory_writer, or the same `column` on every writer)")
		}
	}
	byID := map[string][]*workspace.Writer{}
	for _, w := range ws {
		byID[w.WriterID] = append(byID[w.WriterID], w)
	}
	for _, w := range ws {
		same := byID[w.WriterID]
		if len(same) < 2 {
			continue
		}
		var others []string
		for _, o := range same {
			if o != w {
				others = append(others, writerName(o))
			}
		}
		c.add(c.sharedPos(w, "writer_id"), Error, CodeSameWriterID,
			fmt.Sprintf("%s and %s write %s with the same `shared.writer_id` '%s': a FULL refresh of one would delete the rows of the other",
				writerName(w), strings.Join(others, ", "), t.Label(), w.WriterID),
			"give each writer its own writer_id (the default is {pipeline_name}.{node_name})")
	}
}

// whereSyntax parses a writer's predicate and reports a syntax error at its
// position in the file.
func (c *checker) whereSyntax(w *workspace.Writer) *predicate {
	p := c.parser.parse(writerWhere(w))
	if p.err != "" {
		at := c.sharedPos(w, "where")
		if p.errOffset >= 0 {
			at = c.snap.PosInValue(at, p.errOffset)
		}
		hint := "write a SQL condition on the table's columns, e.g. client_id = 23 or region IN ('eu', 'us')"
		if p.code == CodeWhereReads {
			hint = "an ownership predicate decides which rows a FULL refresh deletes: use the row's columns, constants and deterministic functions only, e.g. lower(region) = 'eu'"
		}
		c.add(at, Error, p.code, fmt.Sprintf("`shared.where` is not a valid SQL predicate: %s", p.err), hint)
	}
	return p
}

func (c *checker) whereWriters(t *workspace.Table, ws []*workspace.Writer) {
	norm := make([]string, len(ws))
	points := make([]pointSet, len(ws))
	// value -> writers, per column, for predicates that are sets of values
	// of one column (client_id = 23, region IN (...)): with one pipeline per
	// client, most pairs are told apart without comparing them one by one.
	index := map[string]map[string][]int{}
	for i, w := range ws {
		norm[i] = normalizeSQL(w.Where)
		points[i] = pointsOf(c.parser.parse(writerWhere(w)))
		if p := points[i]; p.ok {
			if index[p.col] == nil {
				index[p.col] = map[string][]int{}
			}
			for _, k := range p.keys {
				index[p.col][k] = append(index[p.col][k], i)
			}
		}
	}
	shareValue := map[[2]int]bool{}
	for _, byValue := range index {
		for _, idx := range byValue {
			for x, i := range idx {
				for _, j := range idx[x+1:] {
					shareValue[[2]int{min(i, j), max(i, j)}] = true
				}
			}
		}
	}
	for i, a := range ws {
		for j := i + 1; j < len(ws); j++ {
			b := ws[j]
			if norm[i] == norm[j] {
				for _, w := range []*workspace.Writer{a, b} {
					other := b
					if w == b {
						other = a
					}
					c.add(c.sharedPos(w, "where"), Error, CodeSameWhere,
						fmt.Sprintf("%s and %s write %s with the same `shared.where` (%s): a FULL refresh of one would delete the rows of the other",
							writerName(w), writerName(other), t.Label(), w.Where),
						"give each writer the predicate of its own rows")
				}
				continue
			}
			if points[i].ok && points[j].ok && points[i].col == points[j].col && !shareValue[[2]int{i, j}] {
				continue // disjoint sets of values of one column
			}
			c.proveDisjoint(t, a, b)
		}
	}
}

// pointSet is a predicate matching a set of values of one column.
type pointSet struct {
	ok   bool
	col  string
	keys []string
}

func pointsOf(p *predicate) pointSet {
	d, cols, err := p.normal()
	if err != nil || len(cols) != 1 || len(d) == 0 {
		return pointSet{}
	}
	ps := pointSet{ok: true, col: cols[0]}
	for _, c := range d {
		s, ok := c[ps.col]
		if !ok {
			return pointSet{} // a branch constraining nothing (OR true) matches every value
		}
		for _, iv := range s.ivs {
			if iv.lo.inf || iv.hi.inf || !iv.lo.incl || !iv.hi.incl || iv.lo.v.cmp(iv.hi.v) != 0 {
				return pointSet{}
			}
			ps.keys = append(ps.keys, iv.lo.v.key())
		}
	}
	return ps
}

// normalizeSQL folds the case and the blanks of s outside its quoted
// strings and identifiers: c = 'x' and c = 'X' own different rows (string
// comparison is case-sensitive), C  =  'x' and c = 'x' the same.
func normalizeSQL(s string) string {
	var b strings.Builder
	var quote rune
	space := false
	for _, r := range s {
		switch {
		case quote != 0:
			b.WriteRune(r)
			if r == quote {
				quote = 0
			}
			continue
		case r == '\'' || r == '"' || r == '`':
			quote = r
		case unicode.IsSpace(r):
			space = true
			continue
		}
		if space && b.Len() > 0 {
			b.WriteByte(' ')
		}
		space = false
		b.WriteRune(unicode.ToLower(r))
	}
	return b.String()
}

func (c *checker) proveDisjoint(t *workspace.Table, a, b *workspace.Writer) {
	pa, pb := c.parser.parse(writerWhere(a)), c.parser.parse(writerWhere(b))
	if pa.expr == nil || pb.expr == nil {
		return // syntax errors are reported; nothing to prove
	}
	types := c.opts.TableColumnTypes[t.ID]
	res, err := prove(pa, pb, func(col string) bool { return exactType(types[col]) })
	for _, pair := range [][2]*workspace.Writer{{a, b}, {b, a}} {
		w, other := pair[0], pair[1]
		switch {
		case errors.Is(err, errRounding):
			c.add(c.sharedPos(w, "where"), Warning, CodeWhereUnproven,
				fmt.Sprintf("cannot prove disjoint: the `where` predicates of %s (%s) and %s (%s) on %s differ only by digits a double does not keep: compared as doubles (a DOUBLE column, or a literal the engine reads as one) they match the same rows",
					writerName(w), w.Where, writerName(other), other.Where, t.Label()),
				"make the predicates differ by more than a double's precision (about 15 significant digits), or own the rows by a column of an exact type")
		case err != nil:
			c.add(c.sharedPos(w, "where"), Warning, CodeWhereUnproven,
				fmt.Sprintf("cannot prove disjoint: the `where` predicates of %s (%s) and %s (%s) on %s",
					writerName(w), w.Where, writerName(other), other.Where, t.Label()),
				"only =, <>, IN, BETWEEN, <, <=, >, >=, AND, OR and NOT over columns and constants are checked: make sure no row matches both, or a FULL refresh of one writer deletes rows of the other")
		case res.disjoint:
		case res.sameColumns:
			c.add(c.sharedPos(w, "where"), Error, CodeWhereOverlap,
				fmt.Sprintf("the `where` predicates of %s (%s) and %s (%s) overlap: both would own the rows where %s",
					writerName(w), w.Where, writerName(other), other.Where, res.witness),
				"make the predicates disjoint: a FULL refresh of one writer would delete rows the other wrote")
		default:
			c.add(c.sharedPos(w, "where"), Warning, CodeWhereUnproven,
				fmt.Sprintf("cannot prove disjoint: the `where` predicates of %s (%s) and %s (%s) constrain different columns; both would match rows where %s",
					writerName(w), w.Where, writerName(other), other.Where, res.witness),
				"make sure no row of the table matches both (e.g. constrain the same column in both predicates)")
		}
	}
}

// exactType reports whether a column of DuckDB type typ compares numbers
// exactly (integers and decimals); "" (not known) is not.
func exactType(typ string) bool {
	t := strings.ToUpper(typ)
	switch {
	case strings.HasPrefix(t, "DECIMAL"), strings.HasPrefix(t, "NUMERIC"):
		return true
	}
	switch t {
	case "TINYINT", "SMALLINT", "INTEGER", "BIGINT", "HUGEINT", "UTINYINT", "USMALLINT", "UINTEGER", "UBIGINT", "UHUGEINT", "INT", "LONG":
		return true
	}
	return false
}

// acrossPipelines checks a table written by several pipelines: a
// declarative pipeline owns its tables; writers not declaring shared would
// delete the other writers' rows.
func (c *checker) acrossPipelines(t *workspace.Table, reported map[*workspace.Writer]bool) {
	order, groups := byPipeline(t.Writers)
	if len(order) < 2 {
		return
	}
	var declarative []string
	for _, pl := range order {
		if groups[pl][0].Declarative {
			declarative = append(declarative, pl)
		}
	}
	if len(declarative) > 0 {
		for _, w := range t.Writers {
			var others []string
			for _, pl := range order {
				if pl != w.Pipeline {
					others = append(others, pl)
				}
			}
			c.add(w.Pos, Error, CodeDeclarativeOwner,
				fmt.Sprintf("%s is written by the declarative pipeline %s and by %s: the engine owns the tables of a declarative pipeline",
					t.Label(), list(declarative), list(others)),
				"write to separate tables: a table written by a declarative pipeline can't be shared with other pipelines")
		}
		return
	}
	for _, w := range t.Writers {
		if w.Shared || reported[w] {
			continue
		}
		var others []string
		for _, pl := range order {
			if pl != w.Pipeline {
				others = append(others, pl)
			}
		}
		c.add(w.Pos, Warning, CodeSharedNotDeclared,
			fmt.Sprintf("%s is also written by pipelines %s, but this sink doesn't declare `shared`: its full refresh or overwrite deletes the rows of the other writers",
				t.Label(), list(others)),
			"add `shared: true` (or `shared: {where: ...}`) to every sink writing the table")
	}
}
