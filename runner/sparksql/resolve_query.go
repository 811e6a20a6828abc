package sparksql

import (
	"fmt"
	"slices"
	"strconv"
	"strings"
)

// column is a column visible in a scope.
type column struct {
	name string // Spark's name
	t    *Type
	sql  string // the DuckDB expression reading it
	qual string // the qualifier that can prefix it (lower-case), "" for none
	// hidden: a USING key of one side of a join, reachable only through
	// its qualifier and not part of *.
	hidden bool
}

// scope is what names resolve against.
type scope struct {
	cols    []*column
	parent  *scope // the enclosing query (correlated subqueries)
	lambdas map[string]*rx
	ctes    *cteEnv
	// sel are the select items resolved so far (lateral column aliases).
	sel []*selItem
	// out are the output columns HAVING and QUALIFY may name.
	out []*selItem
	// windows are the WINDOW clause's named windows.
	windows map[string]*WindowSpec
	// correlated is set when a name resolved in an enclosing query.
	correlated bool
	// timeWindow is the column a GROUP BY's window(...) becomes.
	timeWindow *timeWindowCol
	// lambda marks a lambda's scope (its parameters only): names it does
	// not bind resolve in the same query, not in an enclosing one.
	lambda bool
	// capture, on a fold's lambda scope, takes what the body reads from
	// outside it (see lambdaCapture).
	capture *lambdaCapture
}

// cteEnv is the WITH names visible to a query.
type cteEnv struct {
	names  map[string]*relation // lower-case name -> the CTE's relation (sql = the DuckDB name)
	parent *cteEnv
}

func (e *cteEnv) lookup(name string) *relation {
	for ; e != nil; e = e.parent {
		if rel, ok := e.names[strings.ToLower(name)]; ok {
			return rel
		}
	}
	return nil
}

// relation is a resolved query: its DuckDB SQL and output columns (whose
// sql is the internal column name).
type relation struct {
	sql  string
	cols []*column
}

// selItem is a resolved select item.
type selItem struct {
	x     *rx
	name  string
	alias bool // named with AS
}

// query resolves a query; top queries name their columns as Spark does,
// others c0, c1, ...
func (r *resolver) query(q *Query, outer *scope, top bool) (*relation, error) {
	r.at = append(r.at, q) // popped only on return: a panic leaves it (recoverTranslation)
	rel, err := r.query1(q, outer, top)
	r.at = r.at[:len(r.at)-1]
	return rel, err
}

func (r *resolver) query1(q *Query, outer *scope, top bool) (*relation, error) {
	env := &cteEnv{names: map[string]*relation{}}
	if outer != nil {
		env.parent = outer.ctes
	}
	var with []string
	for _, c := range q.With {
		if _, dup := env.names[strings.ToLower(c.Name.Name)]; dup {
			return nil, sparkErr(c.Name.P, "DUPLICATED_CTE_NAMES", "CTE definition can't have duplicate names: `%s`.", c.Name.Name)
		}
		inner := &scope{parent: outerOf(outer), ctes: env}
		rel, err := r.query(c.Query, inner, false)
		if err != nil {
			return nil, err
		}
		if len(c.Columns) > 0 {
			if len(c.Columns) != len(rel.cols) {
				return nil, sparkErr(c.Name.P, "ASSIGNMENT_ARITY_MISMATCH", "The CTE %s has %d columns but %d names", c.Name.Name, len(rel.cols), len(c.Columns))
			}
			for i := range rel.cols {
				rel.cols[i] = &column{name: c.Columns[i].Name, t: rel.cols[i].t, sql: rel.cols[i].sql}
			}
		}
		name := "cte_" + r.alias()
		with = append(with, duckIdent(name)+" AS ("+rel.sql+")")
		env.names[strings.ToLower(c.Name.Name)] = &relation{sql: duckIdent(name), cols: rel.cols}
	}
	sc := &scope{parent: outer, ctes: env}
	if outer != nil {
		sc.lambdas = outer.lambdas
	}
	var rel *relation
	var err error
	if s, ok := q.Body.(*Select); ok {
		rel, err = r.selectRel(s, sc, q, top)
	} else {
		rel, err = r.queryExpr(q.Body, sc, top)
		if err == nil {
			rel, err = r.orderLimit(rel, q, sc)
		}
	}
	if err != nil {
		return nil, err
	}
	if len(with) > 0 {
		rel.sql = "WITH " + strings.Join(with, ", ") + " " + rel.sql
	}
	return rel, nil
}

// outerOf is the scope a CTE or derived table sees: the enclosing
// query's outer scope (not the FROM being built).
func outerOf(sc *scope) *scope {
	if sc == nil {
		return nil
	}
	return sc.parent
}

// queryExpr resolves a set operation, a bracketed query or VALUES.
func (r *resolver) queryExpr(qe QueryExpr, sc *scope, top bool) (*relation, error) {
	switch n := qe.(type) {
	case *Select:
		return r.selectRel(n, sc, nil, top)
	case *Query:
		return r.query(n, sc, top)
	case *Values:
		rel, err := r.values(n.Rows, n.P, nil)
		if err != nil {
			return nil, err
		}
		return r.project(rel, top), nil
	case *SetOp:
		return r.setOp(n, sc, top)
	}
	return nil, fmt.Errorf("unexpected query node %T", qe)
}

// project selects a relation's columns under their output names.
func (r *resolver) project(rel *relation, top bool) *relation {
	a := r.alias()
	out := &relation{}
	var items []string
	for i, c := range rel.cols {
		name := outName(i, c.name, top)
		items = append(items, a+"."+c.sql+" AS "+duckIdent(name))
		out.cols = append(out.cols, &column{name: c.name, t: c.t, sql: duckIdent(name)})
	}
	out.sql = "SELECT " + strings.Join(items, ", ") + " FROM (" + rel.sql + ") AS " + a
	return out
}

// outName is the DuckDB name of output column i.
func outName(i int, spark string, top bool) string {
	if top {
		return spark
	}
	return "c" + strconv.Itoa(i)
}

func (r *resolver) setOp(n *SetOp, sc *scope, top bool) (*relation, error) {
	if n.ByName {
		return nil, unsupported(n.P, "list the columns in the same order", "%s BY NAME", n.Op)
	}
	l, err := r.queryExpr(n.L, sc, false)
	if err != nil {
		return nil, err
	}
	rr, err := r.queryExpr(n.R, sc, false)
	if err != nil {
		return nil, err
	}
	if len(l.cols) != len(rr.cols) {
		return nil, sparkErr(n.P, "NUM_COLUMNS_MISMATCH", "%s can only be performed on inputs with the same number of columns, but the first input has %d columns and the second input has %d columns.", n.Op, len(l.cols), len(rr.cols))
	}
	types := make([]*Type, len(l.cols))
	for i := range l.cols {
		t := commonType([]*Type{l.cols[i].t, rr.cols[i].t})
		if t == nil {
			return nil, sparkErr(n.P, "INCOMPATIBLE_COLUMN_TYPE", "%s can only be performed on tables with compatible column types. The %s column of the second table is %q type which is not compatible with %q at the same column of the first table.",
				n.Op, ordinal(i+1), strings.ToUpper(rr.cols[i].t.String()), strings.ToUpper(l.cols[i].t.String()))
		}
		types[i] = t
	}
	branch := func(rel *relation) (string, error) {
		a := r.alias()
		items := make([]string, len(rel.cols))
		for i, c := range rel.cols {
			x := &rx{t: c.t, sql: a + "." + c.sql, name: c.name}
			x, err := r.cast(x, types[i], castImplicit)
			if err != nil {
				return "", err
			}
			items[i] = x.sql + " AS " + duckIdent(outName(i, l.cols[i].name, top))
		}
		return "SELECT " + strings.Join(items, ", ") + " FROM (" + rel.sql + ") AS " + a, nil
	}
	ls, err := branch(l)
	if err != nil {
		return nil, err
	}
	rs, err := branch(rr)
	if err != nil {
		return nil, err
	}
	op := n.Op
	if n.All {
		op += " ALL"
	}
	if !n.All || !strings.EqualFold(n.Op, "UNION") {
		for i, c := range l.cols {
			if err := noMapColumn(n.P, outName(i, c.name, top), types[i]); err != nil {
				return nil, err
			}
		}
	}
	out := &relation{sql: "(" + ls + ") " + op + " (" + rs + ")"}
	for i, c := range l.cols {
		out.cols = append(out.cols, &column{name: c.name, t: types[i], sql: duckIdent(outName(i, c.name, top))})
	}
	return out, nil
}

// noMapColumn is Spark's check of DISTINCT, INTERSECT, EXCEPT and UNION
// (without ALL): no output column holds a map, at any depth.
func noMapColumn(pos int, name string, t *Type) error {
	if hasMap(t) {
		return sparkErr(pos, "UNSUPPORTED_FEATURE.SET_OPERATION_ON_MAP_TYPE", "The feature is not supported: Cannot have MAP type columns in DataFrame which calls set operations (INTERSECT, EXCEPT, etc.), but the type of column `%s` is \"%s\".", name, strings.ToUpper(t.String()))
	}
	return nil
}

func hasMap(t *Type) bool {
	if t == nil {
		return false
	}
	switch t.Kind {
	case KMap:
		return true
	case KArray:
		return hasMap(t.Elem)
	case KStruct:
		for _, f := range t.Fields {
			if hasMap(f.Type) {
				return true
			}
		}
	}
	return false
}

func ordinal(n int) string {
	switch n {
	case 1:
		return "first"
	case 2:
		return "second"
	case 3:
		return "third"
	}
	return strconv.Itoa(n) + "th"
}

// orderLimit applies a query's ORDER BY, LIMIT and OFFSET to a set
// operation's result (ORDER BY names its output columns).
func (r *resolver) orderLimit(rel *relation, q *Query, sc *scope) (*relation, error) {
	if len(q.OrderBy) == 0 && q.Limit == nil && q.Offset == nil {
		return rel, nil
	}
	osc := &scope{parent: sc.parent, ctes: sc.ctes}
	for _, c := range rel.cols {
		osc.cols = append(osc.cols, &column{name: c.name, t: c.t, sql: c.sql})
	}
	var terms []string
	var names []string
	for _, c := range rel.cols {
		names = append(names, c.name)
	}
	for _, it := range orderByAll(q.OrderBy, names, false) {
		x, err := r.orderTerm(it, osc, nil, &ectx{})
		if err != nil {
			return nil, err
		}
		terms = append(terms, x)
	}
	tail, err := r.limitSQL(q, sc)
	if err != nil {
		return nil, err
	}
	sql := rel.sql
	if len(terms) > 0 {
		sql += " ORDER BY " + strings.Join(terms, ", ")
	}
	return &relation{sql: sql + tail, cols: rel.cols}, nil
}

// orderByAll expands ORDER BY ALL, Spark's order by every output column
// in turn with the item's direction and NULL ordering, unless an output
// column is named all. Over a SELECT the columns are its items by
// position; over a set operation, its output columns by name.
func orderByAll(order []*OrderItem, names []string, byPosition bool) []*OrderItem {
	if len(order) != 1 {
		return order
	}
	c, ok := order[0].X.(*ColumnRef)
	if !ok || len(c.Parts) != 1 || !strings.EqualFold(c.Parts[0].Name, "all") {
		return order
	}
	for _, n := range names {
		if strings.EqualFold(n, "all") {
			return order
		}
	}
	out := make([]*OrderItem, len(names))
	for i, n := range names {
		it := *order[0]
		if byPosition {
			it.X = &Literal{Kind: LitInt, Value: strconv.Itoa(i + 1), Text: strconv.Itoa(i + 1), P: c.P}
		} else {
			it.X = &ColumnRef{Parts: []Ident{{Name: n, Quoted: true, P: c.P}}, P: c.P}
		}
		out[i] = &it
	}
	return out
}

// orderTerm resolves one ORDER BY item: an output column by name or
// ordinal first, then an expression; Spark sorts NULLs first ascending
// and last descending.
func (r *resolver) orderTerm(it *OrderItem, sc *scope, items []*selItem, ctx *ectx) (string, error) {
	var x *rx
	if lit, ok := it.X.(*Literal); ok && lit.Kind == LitInt && items != nil {
		n, err := strconv.Atoi(lit.Value)
		if err != nil || n < 1 || n > len(items) {
			return "", sparkErr(lit.P, "ORDER_BY_POS_OUT_OF_RANGE", "ORDER BY position %s is not in select list (valid range is [1, %d]).", lit.Value, len(items))
		}
		x = items[n-1].x
	} else if c, ok := it.X.(*ColumnRef); ok && len(c.Parts) == 1 && items != nil {
		for _, s := range items {
			if s.alias && strings.EqualFold(s.name, c.Parts[0].Name) {
				x = s.x
				break
			}
		}
	}
	if x == nil {
		var err error
		if x, err = r.expr(it.X, sc, ctx); err != nil {
			return "", err
		}
	}
	if ctx.distinctOut != nil {
		// After DISTINCT only the select list's columns exist.
		if c := ungrouped(x, ctx.distinctOut); c != nil {
			return "", sparkErr(c.pos, "UNRESOLVED_COLUMN.WITH_SUGGESTION", "A column, variable, or function parameter with name `%s` cannot be resolved.", c.name)
		}
	}
	if !orderable(x.t) {
		return "", sparkErr(it.X.Pos(), "DATATYPE_MISMATCH.INVALID_ORDERING_TYPE", "Cannot resolve \"%s\" due to data type mismatch: The `sortorder` does not support ordering on type %q.", x.name, strings.ToUpper(x.t.String()))
	}
	term := r.orderKey(x.sql, x.t) // Spark's order of nested NULLs
	if it.Desc {
		term += " DESC"
	} else {
		term += " ASC"
	}
	nulls := it.Nulls
	if nulls == "" {
		nulls = "FIRST"
		if it.Desc {
			nulls = "LAST"
		}
	}
	return term + " NULLS " + nulls, nil
}

func orderable(t *Type) bool {
	switch t.Kind {
	case KMap, KCalendar: // Spark's RowOrdering.isOrderable
		return false
	case KArray:
		return orderable(t.Elem)
	case KStruct:
		for _, f := range t.Fields {
			if !orderable(f.Type) {
				return false
			}
		}
	}
	return true
}

// limitSQL is " LIMIT n OFFSET m" for a query (constants only).
func (r *resolver) limitSQL(q *Query, sc *scope) (string, error) {
	var out string
	for _, part := range []struct {
		kw string
		e  Expr
	}{{"LIMIT", q.Limit}, {"OFFSET", q.Offset}} {
		if part.e == nil {
			continue
		}
		x, err := r.expr(part.e, &scope{}, &ectx{})
		if err != nil {
			return "", err
		}
		if !x.t.isIntegral() || x.lit == nil {
			return "", sparkErr(part.e.Pos(), "INVALID_LIMIT_LIKE_EXPRESSION.DATA_TYPE", "The %s expression must be an integer constant", part.kw)
		}
		if strings.HasPrefix(x.lit.Value, "-") {
			return "", sparkErr(part.e.Pos(), "INVALID_LIMIT_LIKE_EXPRESSION.IS_NEGATIVE", "The %s expression must be equal to or greater than 0, but got %s.", part.kw, x.lit.Value)
		}
		out += " " + part.kw + " " + x.lit.Value
	}
	return out, nil
}

// ----------------------------------------------------------------- SELECT

// selectRel resolves one SELECT block, with the ORDER BY and LIMIT of the
// query it is the body of (q, or nil).
func (r *resolver) selectRel(s *Select, outer *scope, q *Query, top bool) (rel *relation, err error) {
	// Each SELECT has its own FROM scope (set operation branches do not
	// see each other's tables).
	sc := &scope{parent: outer.parent, ctes: outer.ctes, lambdas: outer.lambdas}
	r.grouping = append(r.grouping, hasGroupingSets(s.GroupBy))
	r.gidArgs = append(r.gidArgs, nil)
	defer func() { r.grouping, r.gidArgs = r.grouping[:len(r.grouping)-1], r.gidArgs[:len(r.gidArgs)-1] }()
	twCall, err := timeWindowCall(s)
	if err != nil {
		return nil, err
	}
	var pending error // Spark's error once the rest resolved (slideTooLong)
	defer func() {
		if err == nil && pending != nil {
			rel, err = nil, pending
		}
	}()
	var from []string
	for _, te := range s.From {
		f, err := r.tableExpr(te, sc)
		if err != nil {
			return nil, err
		}
		if len(from) > 0 && !strings.HasPrefix(f, "LATERAL") {
			from = append(from, "CROSS JOIN "+f)
		} else if len(from) > 0 {
			from = append(from, ", "+f)
		} else {
			from = append(from, f)
		}
	}
	for _, lv := range s.Laterals {
		f, err := r.lateralView(lv, sc)
		if err != nil {
			return nil, err
		}
		from = append(from, f)
	}
	var twFilter *rx
	if twCall != nil {
		var twFrom string
		if sc.timeWindow, twFilter, twFrom, err = r.timeWindow(twCall, sc); err != nil {
			tw, ok := slideTooLong(twCall, err)
			if !ok {
				return nil, err
			}
			sc.timeWindow, pending, err = tw, err, nil
		} else {
			if twFrom != "" {
				from = append(from, twFrom)
			}
			sc.cols = append(sc.cols, sc.timeWindow.col)
		}
	}
	if len(s.Windows) > 0 {
		sc.windows = map[string]*WindowSpec{}
		for _, w := range s.Windows {
			sc.windows[strings.ToLower(w.Name.Name)] = w.Spec
		}
	}
	// The select list: stars expanded, generators turned into lateral joins.
	var items []*selItem
	var genFrom []string
	for _, it := range s.Items {
		if st, ok := it.Expr.(*Star); ok {
			cols, err := r.expandStar(st, sc)
			if err != nil {
				return nil, err
			}
			for _, c := range cols {
				x := colRx(c, st.P)
				items = append(items, &selItem{x: x, name: c.name})
			}
			continue
		}
		if call, ok := it.Expr.(*Call); ok && call.Over == nil {
			if g := generatorFor(call.Name.Name); g != nil {
				f, cols, err := r.generator(call, g, it.Aliases, it.Alias, sc)
				if err != nil {
					return nil, err
				}
				genFrom = append(genFrom, f)
				for _, c := range cols {
					items = append(items, &selItem{x: colRx(c, call.P), name: c.name, alias: true})
				}
				continue
			}
		}
		if len(it.Aliases) > 0 {
			return nil, errAt(it.Expr.Pos(), "AS (a, b) names the columns of a generator such as posexplode; this expression is not one")
		}
		sc.sel = items
		x, err := r.expr(it.Expr, sc, &ectx{aggOK: true, winOK: true, lateral: true})
		if err != nil {
			return nil, err
		}
		si := &selItem{x: x, name: topName(it.Expr, x)}
		if it.Alias != nil {
			si.name, si.alias = it.Alias.Name, true
		}
		items = append(items, si)
	}
	sc.sel = nil
	if len(from) == 0 && len(genFrom) > 0 {
		// A FROM-less SELECT with a generator: its lateral join needs a
		// left side of one row.
		from = append(from, "(SELECT 1) AS "+r.alias())
	}
	from = append(from, genFrom...)

	var where string
	if s.Where != nil {
		r.markFilterIn(s.Where)
		x, err := r.expr(s.Where, sc, &ectx{clause: "WHERE"})
		if err != nil {
			return nil, err
		}
		if x, err = r.condition(x, s.Where, "WHERE"); err != nil {
			return nil, err
		}
		where = x.sql
	}
	if twFilter != nil {
		// Below the WHERE, as Spark filters the rows a window reads.
		if where == "" {
			where = twFilter.sql
		} else {
			where = "(" + twFilter.sql + ") AND (" + where + ")"
		}
	}

	// GROUP BY.
	agg := s.GroupBy != nil
	for _, it := range items {
		agg = agg || it.x.hasAgg
	}
	sc.out = items
	var having *rx
	if s.Having != nil {
		r.markFilterIn(s.Having)
		x, err := r.expr(s.Having, sc, &ectx{aggOK: true, outAliases: true})
		if err != nil {
			return nil, err
		}
		if having, err = r.condition(x, s.Having, "HAVING"); err != nil {
			return nil, err
		}
		agg = true
	}
	var groupSQL string
	var groups []*rx
	if s.GroupBy != nil {
		var err error
		groups, groupSQL, err = r.groupBy(s.GroupBy, items, sc)
		if err != nil {
			return nil, err
		}
	}
	if agg {
		for _, it := range items {
			if err := checkGrouped(it.x, groups, s.GroupBy == nil); err != nil {
				return nil, err
			}
		}
		if having != nil {
			if err := checkGrouped(having, groups, s.GroupBy == nil); err != nil {
				// HAVING resolves against the aggregate's output: a column
				// that is not grouped is unknown there.
				if c := ungrouped(having, groups); c != nil {
					return nil, sparkErr(c.pos, "UNRESOLVED_COLUMN.WITH_SUGGESTION", "A column, variable, or function parameter with name `%s` cannot be resolved.", c.name)
				}
				return nil, err
			}
		}
	}

	var qualify string
	if s.Qualify != nil {
		x, err := r.expr(s.Qualify, sc, &ectx{aggOK: agg, winOK: true, outAliases: true})
		if err != nil {
			return nil, err
		}
		if x, err = r.condition(x, s.Qualify, "QUALIFY"); err != nil {
			return nil, err
		}
		if agg {
			if err := checkGrouped(x, groups, s.GroupBy == nil); err != nil {
				return nil, err
			}
		}
		qualify = x.sql
	}
	var orderTerms []string
	var tail string
	if q != nil {
		var names []string
		for _, it := range items {
			names = append(names, it.name)
		}
		for _, it := range orderByAll(q.OrderBy, names, true) {
			octx := &ectx{aggOK: agg, winOK: true}
			if s.Distinct {
				for _, si := range items {
					octx.distinctOut = append(octx.distinctOut, si.x)
				}
			}
			t, err := r.orderTerm(it, sc, items, octx)
			if err != nil {
				return nil, err
			}
			orderTerms = append(orderTerms, t)
		}
		var err error
		if tail, err = r.limitSQL(q, sc); err != nil {
			return nil, err
		}
	}

	if s.Distinct {
		for i, it := range items {
			if err := noMapColumn(s.P, outName(i, it.name, top), it.x.t); err != nil {
				return nil, err
			}
		}
	}

	// Emit.
	var b strings.Builder
	b.WriteString("SELECT ")
	if s.Distinct {
		b.WriteString("DISTINCT ")
	}
	rel = &relation{}
	for i, it := range items {
		if i > 0 {
			b.WriteString(", ")
		}
		name := outName(i, it.name, top)
		sql := it.x.sql
		if it.x.foldable && it.x.t.Kind != KVoid {
			// DuckDB folds a constant NULL to an untyped NULL (INTEGER in a
			// view): keep the column's type.
			sql = "CAST(" + sql + " AS " + it.x.t.DuckDB() + ")"
		}
		b.WriteString(sql + " AS " + duckIdent(name))
		rel.cols = append(rel.cols, &column{name: it.name, t: it.x.t, sql: duckIdent(name)})
	}
	if len(from) > 0 {
		b.WriteString(" FROM " + strings.Join(from, " "))
	}
	if where != "" {
		b.WriteString(" WHERE " + where)
	}
	if groupSQL != "" {
		b.WriteString(" GROUP BY " + groupSQL)
	}
	if having != nil {
		b.WriteString(" HAVING " + having.sql)
	}
	if qualify != "" {
		b.WriteString(" QUALIFY " + qualify)
	}
	if len(orderTerms) > 0 {
		b.WriteString(" ORDER BY " + strings.Join(orderTerms, ", "))
	}
	b.WriteString(tail)
	rel.sql = b.String()
	// grouping_id(): every grouping expression, in order, once; with
	// arguments, exactly those.
	var gs []string
	seen := map[string]bool{}
	for _, g := range groups {
		if !seen[g.sql] {
			seen[g.sql] = true
			gs = append(gs, g.sql)
		}
	}
	for _, args := range r.gidArgs[len(r.gidArgs)-1] {
		if strings.Join(args, "\x00") != strings.Join(gs, "\x00") {
			return nil, sparkErr(s.GroupBy.P, "GROUPING_ID_COLUMN_MISMATCH", "Columns of grouping_id (%s) does not match grouping columns (%s).", strings.Join(args, ","), strings.Join(gs, ","))
		}
	}
	if strings.Contains(rel.sql, gidPlaceholder) {
		rel.sql = strings.ReplaceAll(rel.sql, gidPlaceholder, strings.Join(gs, ", "))
	}
	return rel, nil
}

// hasGroupingSets: GROUP BY ROLLUP, CUBE, GROUPING SETS or WITH ROLLUP/CUBE.
func hasGroupingSets(g *GroupBy) bool {
	if g == nil {
		return false
	}
	if g.With != "" {
		return true
	}
	for _, it := range g.Items {
		if _, ok := it.(*GroupingSets); ok {
			return true
		}
	}
	return false
}

// topName is Spark's name of an unaliased select item: a column keeps
// its name, a struct field its field name, a cast of a column the
// column's name.
func topName(e Expr, x *rx) string {
	switch n := e.(type) {
	case *ColumnRef:
		if x.col != nil || x.field != "" {
			return n.Parts[len(n.Parts)-1].Name
		}
	case *FieldAccess:
		return n.Field.Name
	case *Cast:
		if c, ok := n.X.(*ColumnRef); ok {
			return c.Parts[len(c.Parts)-1].Name
		}
		if f, ok := n.X.(*FieldAccess); ok {
			return f.Field.Name
		}
	}
	return x.name
}

// condition checks that x is a boolean (a string is cast to one).
func (r *resolver) condition(x *rx, e Expr, clause string) (*rx, error) {
	switch x.t.Kind {
	case KBool, KVoid:
		return x, nil
	}
	if clause == "ON" {
		return nil, sparkErr(e.Pos(), "JOIN_CONDITION_IS_NOT_BOOLEAN_TYPE", "The join condition %s has the invalid type %q, expected \"BOOLEAN\".", quoteSparkSQL(x.name), strings.ToUpper(x.t.String()))
	}
	return nil, sparkErr(e.Pos(), "DATATYPE_MISMATCH.FILTER_NOT_BOOLEAN", "Cannot resolve %s due to data type mismatch: Filter expression %s of type %q is not a boolean.", quoteSparkSQL(x.name), quoteSparkSQL(x.name), strings.ToUpper(x.t.String()))
}

// groupBy resolves GROUP BY items: ordinals and select aliases name
// select items; ALL groups by every select item without an aggregate.
func (r *resolver) groupBy(g *GroupBy, items []*selItem, sc *scope) ([]*rx, string, error) {
	if g.All {
		var groups []*rx
		var parts []string
		for _, it := range items {
			if !it.x.hasAgg && !it.x.hasWin {
				groups = append(groups, it.x)
				parts = append(parts, it.x.sql)
			}
		}
		if len(parts) == 0 {
			return nil, "", nil
		}
		return groups, strings.Join(parts, ", "), nil
	}
	resolveOne := func(e Expr) (*rx, error) {
		if lit, ok := e.(*Literal); ok && lit.Kind == LitInt {
			n, err := strconv.Atoi(lit.Value)
			if err != nil || n < 1 || n > len(items) {
				return nil, sparkErr(lit.P, "GROUP_BY_POS_OUT_OF_RANGE", "GROUP BY position %s is not in select list (valid range is [1, %d]).", lit.Value, len(items))
			}
			x := items[n-1].x
			if x.hasAgg {
				return nil, sparkErr(lit.P, "GROUP_BY_POS_AGGREGATE", "GROUP BY %d refers to an expression %s that contains an aggregate function. Aggregate functions are not allowed in GROUP BY.", n, quoteSparkSQL(x.name))
			}
			return x, nil
		}
		x, err := r.expr(e, sc, &ectx{groupAliases: items})
		if err != nil {
			return nil, err
		}
		if x.hasAgg {
			return nil, sparkErr(e.Pos(), "GROUP_BY_AGGREGATE", "Aggregate functions are not allowed in GROUP BY, but found %s.", x.name)
		}
		return x, nil
	}
	var groups []*rx
	var parts []string
	for _, it := range g.Items {
		if gs, ok := it.(*GroupingSets); ok {
			var sets []string
			for _, set := range gs.Sets {
				var xs []string
				for _, e := range set {
					x, err := resolveOne(e)
					if err != nil {
						return nil, "", err
					}
					groups = append(groups, x)
					xs = append(xs, x.sql)
				}
				sets = append(sets, "("+strings.Join(xs, ", ")+")")
			}
			parts = append(parts, gs.Kind+" ("+strings.Join(sets, ", ")+")")
			continue
		}
		x, err := resolveOne(it)
		if err != nil {
			return nil, "", err
		}
		groups = append(groups, x)
		parts = append(parts, x.sql)
	}
	if g.With != "" {
		return groups, g.With + " (" + strings.Join(parts, ", ") + ")", nil
	}
	return groups, strings.Join(parts, ", "), nil
}

// checkGrouped: in an aggregate query every column reference outside an
// aggregate must be (inside) a grouping expression.
func checkGrouped(x *rx, groups []*rx, noGroupBy bool) error {
	if x.isAgg || x.foldable || x.outer || x.isLambdaVar {
		return nil
	}
	for _, g := range groups {
		if g.sql == x.sql {
			return nil
		}
	}
	if x.col != nil {
		if noGroupBy {
			return sparkErr(x.pos, "MISSING_GROUP_BY", "The query does not include a GROUP BY clause. Add GROUP BY or turn it into the window functions using OVER clauses.")
		}
		return sparkErr(x.pos, "MISSING_AGGREGATION", "The non-aggregating expression %s is based on columns which are not participating in the GROUP BY clause. Add the columns or the expression to the GROUP BY, aggregate the expression, or use \"any_value(%s)\" if you do not care which of the values within a group is returned.", quoteSparkSQL(x.name), x.name)
	}
	for _, k := range x.kids {
		if err := checkGrouped(k, groups, noGroupBy); err != nil {
			return err
		}
	}
	return nil
}

// ungrouped finds a column reference of x outside aggregates and groups.
func ungrouped(x *rx, groups []*rx) *rx {
	if x.isAgg || x.foldable || x.outer || x.isLambdaVar {
		return nil
	}
	for _, g := range groups {
		if g.sql == x.sql {
			return nil
		}
	}
	if x.col != nil {
		return x
	}
	for _, k := range x.kids {
		if c := ungrouped(k, groups); c != nil {
			return c
		}
	}
	return nil
}

// expandStar lists the columns *, t.* or * EXCEPT (...) select.
func (r *resolver) expandStar(st *Star, sc *scope) ([]*column, error) {
	var cols []*column
	if len(st.Qualifier) == 0 {
		for _, c := range sc.cols {
			if !c.hidden {
				cols = append(cols, c)
			}
		}
		if len(cols) == 0 && len(sc.cols) == 0 {
			return nil, sparkErr(st.P, "INVALID_USAGE_OF_STAR_OR_REGEX", "Invalid usage of '*' in a query without FROM.")
		}
	} else {
		if len(st.Qualifier) > 1 {
			return nil, unsupported(st.P, "qualify with the table's alias only", "a qualified star %s.*", strings.Join(identNames(st.Qualifier), "."))
		}
		q := strings.ToLower(st.Qualifier[0].Name)
		for _, c := range sc.cols {
			if c.qual == q {
				cols = append(cols, c)
			}
		}
		if len(cols) == 0 {
			// s.* on a struct column expands its fields.
			if x, err := r.columnRef(&ColumnRef{Parts: st.Qualifier, P: st.P}, sc, &ectx{}); err == nil && x.t.Kind == KStruct {
				for _, f := range x.t.Fields {
					cols = append(cols, &column{name: f.Name, t: f.Type, sql: "struct_extract(" + x.sql + ", " + duckString(f.Name) + ")"})
				}
			} else {
				return nil, sparkErr(st.P, "CANNOT_RESOLVE_STAR_EXPAND", "Cannot resolve `%s`.* given input columns %s.", st.Qualifier[0].Name, columnList(sc.cols))
			}
		}
	}
	if len(st.Except) == 0 {
		return cols, nil
	}
	for _, ex := range st.Except {
		name := ex.Parts[len(ex.Parts)-1].Name
		qual := ""
		if len(ex.Parts) == 2 {
			qual = strings.ToLower(ex.Parts[0].Name)
		} else if len(ex.Parts) > 2 {
			return nil, unsupported(ex.P, "", "a nested field in * EXCEPT")
		}
		i := slices.IndexFunc(cols, func(c *column) bool {
			return strings.EqualFold(c.name, name) && (qual == "" || c.qual == qual)
		})
		if i < 0 {
			return nil, sparkErr(ex.P, "UNRESOLVED_COLUMN.WITH_SUGGESTION", "A column, variable, or function parameter with name `%s` cannot be resolved. Did you mean one of the following? %s.", name, columnList(cols))
		}
		cols = slices.Delete(slices.Clone(cols), i, i+1)
	}
	return cols, nil
}

func identNames(ids []Ident) []string {
	out := make([]string, len(ids))
	for i, id := range ids {
		out[i] = id.Name
	}
	return out
}

// columnList is Spark's suggestion list: [`a`, `b`].
func columnList(cols []*column) string {
	var names []string
	for i, c := range cols {
		if i == 5 {
			break
		}
		names = append(names, "`"+c.name+"`")
	}
	return "[" + strings.Join(names, ", ") + "]"
}

// ------------------------------------------------------------------ FROM

// tableExpr resolves a FROM item, adds its columns to sc and returns its
// DuckDB SQL.
func (r *resolver) tableExpr(te TableExpr, sc *scope) (string, error) {
	switch n := te.(type) {
	case *TableName:
		return r.tableName(n, sc)
	case *DerivedTable:
		inner := sc.parent
		if n.Lateral {
			inner = sc
		}
		sub := &scope{parent: inner, ctes: sc.ctes}
		rel, err := r.query(n.Query, sub, false)
		if err != nil {
			return "", err
		}
		a := r.alias()
		if err := addRelation(sc, rel.cols, a, n.Alias, n.Columns, n.P); err != nil {
			return "", err
		}
		sql := "(" + rel.sql + ") AS " + a
		if n.Lateral {
			sql = "LATERAL " + sql
		}
		return sql, nil
	case *ValuesTable:
		rel, err := r.values(n.Rows, n.P, n.Columns)
		if err != nil {
			return "", err
		}
		a := r.alias()
		if err := addRelation(sc, rel.cols, a, n.Alias, nil, n.P); err != nil {
			return "", err
		}
		return "(" + rel.sql + ") AS " + a, nil
	case *TableFunc:
		return r.tableFunc(n, sc)
	case *Join:
		return r.join(n, sc)
	}
	return "", fmt.Errorf("unexpected table node %T", te)
}

// addRelation adds a relation's output columns to sc under alias a (and
// the user's alias and column names).
func addRelation(sc *scope, cols []*column, a string, alias *Ident, names []Ident, pos int) error {
	if len(names) > 0 && len(names) != len(cols) {
		return sparkErr(pos, "ASSIGNMENT_ARITY_MISMATCH", "Number of column aliases does not match number of columns. Number of column aliases: %d; number of columns: %d.", len(names), len(cols))
	}
	qual := ""
	if alias != nil {
		qual = strings.ToLower(alias.Name)
	}
	for i, c := range cols {
		name := c.name
		if len(names) > 0 {
			name = names[i].Name
		}
		sc.cols = append(sc.cols, &column{name: name, t: c.t, sql: a + "." + c.sql, qual: qual})
	}
	return nil
}

func (r *resolver) tableName(n *TableName, sc *scope) (string, error) {
	qual := ""
	if n.Alias != nil {
		qual = strings.ToLower(n.Alias.Name)
	}
	if n.Placeholder != "" {
		if qual == "" {
			qual = placeholderQual(n.Placeholder)
		}
		in, ok := r.inputs[n.Placeholder]
		if !ok {
			return "", unsupported(n.P, "use {df}, or {sources.NAME}/{nodes.NAME} naming a source or node of the pipeline", "{%s} (not an input of this step)", n.Placeholder)
		}
		a := r.alias()
		cols := make([]*column, len(in.Schema))
		for i, c := range in.Schema {
			cols[i] = &column{name: c.Name, t: c.Type, sql: duckIdent(c.Name)}
		}
		if len(n.Columns) > 0 && len(n.Columns) != len(cols) {
			return "", sparkErr(n.P, "ASSIGNMENT_ARITY_MISMATCH", "Number of column aliases does not match number of columns.")
		}
		for i, c := range cols {
			name := c.name
			if len(n.Columns) > 0 {
				name = n.Columns[i].Name
			}
			sc.cols = append(sc.cols, &column{name: name, t: c.t, sql: a + "." + c.sql, qual: qual})
		}
		return in.SQL + " AS " + a, nil
	}
	if len(n.Parts) == 1 {
		if rel := sc.ctes.lookup(n.Parts[0].Name); rel != nil {
			a := r.alias()
			if qual == "" {
				qual = strings.ToLower(n.Parts[0].Name)
			}
			for i, c := range rel.cols {
				name := c.name
				if len(n.Columns) > 0 {
					if len(n.Columns) != len(rel.cols) {
						return "", sparkErr(n.P, "ASSIGNMENT_ARITY_MISMATCH", "Number of column aliases does not match number of columns.")
					}
					name = n.Columns[i].Name
				}
				sc.cols = append(sc.cols, &column{name: name, t: c.t, sql: a + "." + c.sql, qual: qual})
			}
			return rel.sql + " AS " + a, nil
		}
	}
	name := strings.Join(identNames(n.Parts), ".")
	return "", unsupported(n.P, "read the table with a source (table_name: "+name+") and use {sources.NAME}, or {df}", "reading the table `%s` by name in a step", name)
}

// values resolves VALUES rows: each column takes the common type of its
// values (constants only).
func (r *resolver) values(rows [][]Expr, pos int, names []Ident) (*relation, error) {
	width := len(rows[0])
	grid := make([][]*rx, len(rows))
	for i, row := range rows {
		if len(row) != width {
			return nil, sparkErr(pos, "INVALID_INLINE_TABLE.NUM_COLUMNS_MISMATCH", "Invalid inline table. Inline table expected %d columns but found %d columns in row %d.", width, len(row), i)
		}
		for _, e := range row {
			x, err := r.expr(e, &scope{}, &ectx{})
			if err != nil {
				return nil, err
			}
			if !x.foldable {
				return nil, sparkErr(e.Pos(), "INVALID_INLINE_TABLE.CANNOT_EVALUATE_EXPRESSION_IN_INLINE_TABLE", "Invalid inline table. Cannot evaluate the expression %s in inline table definition.", quoteSparkSQL(x.name))
			}
			grid[i] = append(grid[i], x)
		}
	}
	if len(names) > 0 && len(names) != width {
		return nil, sparkErr(pos, "ASSIGNMENT_ARITY_MISMATCH", "Number of column aliases does not match number of columns. Number of column aliases: %d; number of columns: %d.", len(names), width)
	}
	rel := &relation{}
	types := make([]*Type, width)
	for j := range width {
		var ts []*Type
		for i := range grid {
			ts = append(ts, grid[i][j].t)
		}
		t := commonType(ts)
		if t == nil {
			return nil, sparkErr(pos, "INVALID_INLINE_TABLE.INCOMPATIBLE_TYPES_IN_INLINE_TABLE", "Invalid inline table. Found incompatible types in the column `col%d` for inline table.", j+1)
		}
		types[j] = t
		name := fmt.Sprintf("col%d", j+1)
		if len(names) > 0 {
			name = names[j].Name
		}
		rel.cols = append(rel.cols, &column{name: name, t: t, sql: duckIdent("c" + strconv.Itoa(j))})
	}
	var rs []string
	for i := range grid {
		var vs []string
		for j, x := range grid[i] {
			x, err := r.cast(x, types[j], castImplicit)
			if err != nil {
				return nil, err
			}
			vs = append(vs, x.sql)
		}
		rs = append(rs, "("+strings.Join(vs, ", ")+")")
	}
	var cols []string
	for j := range width {
		cols = append(cols, duckIdent("c"+strconv.Itoa(j)))
	}
	rel.sql = "SELECT * FROM (VALUES " + strings.Join(rs, ", ") + ") AS v(" + strings.Join(cols, ", ") + ")"
	return rel, nil
}

func (r *resolver) join(n *Join, sc *scope) (string, error) {
	start := len(sc.cols)
	l, err := r.tableExpr(n.L, sc)
	if err != nil {
		return "", err
	}
	leftEnd := len(sc.cols)
	rs, err := r.tableExpr(n.R, sc)
	if err != nil {
		return "", err
	}
	if _, nested := n.R.(*Join); nested {
		rs = "(" + rs + ")"
	}
	kind := map[string]string{"INNER": "INNER JOIN", "LEFT": "LEFT JOIN", "RIGHT": "RIGHT JOIN", "FULL": "FULL JOIN",
		"CROSS": "CROSS JOIN", "LEFT SEMI": "SEMI JOIN", "LEFT ANTI": "ANTI JOIN"}[n.Kind]
	leftCols := slices.Clone(sc.cols[start:leftEnd])
	rightCols := slices.Clone(sc.cols[leftEnd:])
	var cond string
	switch {
	case n.Natural || len(n.Using) > 0:
		keys := n.Using
		if n.Natural {
			for _, c := range visible(leftCols) {
				if slices.ContainsFunc(visible(rightCols), func(d *column) bool { return strings.EqualFold(c.name, d.name) }) {
					keys = append(keys, Ident{Name: c.name, P: n.P})
				}
			}
		}
		if len(keys) == 0 {
			kind = "CROSS JOIN"
			break
		}
		var conds []string
		var merged, lkeys, rkeys []*column
		for _, k := range keys {
			lc := findVisible(leftCols, k.Name)
			rc := findVisible(rightCols, k.Name)
			if lc == nil || rc == nil {
				side := "left"
				if lc != nil {
					side = "right"
				}
				return "", sparkErr(k.P, "UNRESOLVED_USING_COLUMN_FOR_JOIN", "USING column `%s` cannot be resolved on the %s side of the join.", k.Name, side)
			}
			lx, rxx := colRx(lc, k.P), colRx(rc, k.P)
			eq, err := r.comparison("=", lx, rxx, k.P)
			if err != nil {
				return "", err
			}
			conds = append(conds, eq.sql)
			m := &column{name: lc.name, t: lc.t, sql: lc.sql}
			switch n.Kind {
			case "RIGHT":
				m = &column{name: lc.name, t: rc.t, sql: rc.sql}
			case "FULL":
				t := widerType(lc.t, rc.t)
				if t == nil {
					t = lc.t
				}
				a, err := r.cast(lx, t, castImplicit)
				if err != nil {
					return "", err
				}
				b, err := r.cast(rxx, t, castImplicit)
				if err != nil {
					return "", err
				}
				m = &column{name: lc.name, t: t, sql: "coalesce(" + a.sql + ", " + b.sql + ")"}
			}
			merged = append(merged, m)
			lc.hidden, rc.hidden = true, true
			lkeys, rkeys = append(lkeys, lc), append(rkeys, rc)
		}
		cond = strings.Join(conds, " AND ")
		// Output order: the keys, the other left columns, the other right
		// columns. The keys of each side stay reachable by qualifier, and
		// first in a qualified star (o.* is o's keys, then its others).
		others := func(cols, keys []*column) []*column {
			return slices.DeleteFunc(cols, func(c *column) bool { return slices.Contains(keys, c) })
		}
		var reordered []*column
		reordered = append(reordered, merged...)
		reordered = append(append(reordered, lkeys...), others(leftCols, lkeys)...)
		if n.Kind != "LEFT SEMI" && n.Kind != "LEFT ANTI" {
			reordered = append(append(reordered, rkeys...), others(rightCols, rkeys)...)
		}
		sc.cols = append(sc.cols[:start], reordered...)
	case n.On != nil:
		x, err := r.expr(n.On, sc, &ectx{})
		if err != nil {
			return "", err
		}
		if x, err = r.condition(x, n.On, "ON"); err != nil {
			return "", err
		}
		cond = x.sql
		if n.Kind == "LEFT SEMI" || n.Kind == "LEFT ANTI" {
			sc.cols = sc.cols[:leftEnd]
		}
	default:
		switch n.Kind {
		case "INNER":
			kind = "CROSS JOIN"
		case "CROSS":
		case "LEFT SEMI", "LEFT ANTI":
			kind = map[string]string{"LEFT SEMI": "SEMI JOIN", "LEFT ANTI": "ANTI JOIN"}[n.Kind]
			cond = "true"
			sc.cols = sc.cols[:leftEnd]
		default:
			return "", errAt(n.P, fmt.Sprintf("%s JOIN needs ON or USING", n.Kind))
		}
	}
	if n.Kind == "CROSS" && cond != "" {
		kind = "INNER JOIN"
	}
	if kind == "CROSS JOIN" {
		return l + " CROSS JOIN " + rs, nil
	}
	return l + " " + kind + " " + rs + " ON " + cond, nil
}

func visible(cols []*column) []*column {
	var out []*column
	for _, c := range cols {
		if !c.hidden {
			out = append(out, c)
		}
	}
	return out
}

func findVisible(cols []*column, name string) *column {
	for _, c := range cols {
		if !c.hidden && strings.EqualFold(c.name, name) {
			return c
		}
	}
	return nil
}

// tableFunc resolves a table-valued function in FROM: range, or a
// generator over no input.
func (r *resolver) tableFunc(n *TableFunc, sc *scope) (string, error) {
	name := strings.ToLower(n.Func.Name.Name)
	if g := generatorFor(name); g != nil {
		var aliases []Ident
		f, cols, err := r.generator(n.Func, g, aliases, nil, &scope{parent: sc.parent, ctes: sc.ctes})
		if err != nil {
			return "", err
		}
		qual := ""
		if n.Alias != nil {
			qual = strings.ToLower(n.Alias.Name)
		}
		if len(n.Columns) > 0 && len(n.Columns) != len(cols) {
			return "", sparkErr(n.P, "ASSIGNMENT_ARITY_MISMATCH", "Number of column aliases does not match number of columns.")
		}
		for i, c := range cols {
			if len(n.Columns) > 0 {
				c.name = n.Columns[i].Name
			}
			c.qual = qual
			sc.cols = append(sc.cols, c)
		}
		return "(SELECT 1) AS " + r.alias() + " " + f, nil
	}
	if name != "range" {
		return "", unsupported(n.P, "", "the table function `%s`", n.Func.Name.Name)
	}
	var args []*rx
	for _, a := range n.Func.Args {
		x, err := r.expr(a, &scope{}, &ectx{})
		if err != nil {
			return "", err
		}
		if !x.t.isIntegral() || !x.foldable {
			return "", sparkErr(a.Pos(), "DATATYPE_MISMATCH.UNEXPECTED_INPUT_TYPE", "range takes integer constants")
		}
		args = append(args, x)
	}
	var lo, hi, step string
	switch len(args) {
	case 1:
		lo, hi, step = "0", args[0].sql, "1"
	case 2:
		lo, hi, step = args[0].sql, args[1].sql, "1"
	case 3, 4: // the 4th, the number of partitions, does not change the rows
		lo, hi, step = args[0].sql, args[1].sql, args[2].sql
	default:
		return "", sparkErr(n.P, "WRONG_NUM_ARGS.WITHOUT_SUGGESTION", "The `range` requires [1, 2, 3, 4] parameters but the actual number is %d.", len(args))
	}
	a := r.alias()
	qual := ""
	if n.Alias != nil {
		qual = strings.ToLower(n.Alias.Name)
	}
	name0 := "id"
	if len(n.Columns) == 1 {
		name0 = n.Columns[0].Name
	}
	sc.cols = append(sc.cols, &column{name: name0, t: tLong, sql: a + `."c0"`, qual: qual})
	return fmt.Sprintf(`(SELECT range AS "c0" FROM range(CAST(%s AS BIGINT), CAST(%s AS BIGINT), CAST(%s AS BIGINT))) AS %s`, lo, hi, step, a), nil
}

// lateralView resolves LATERAL VIEW [OUTER] generator(...) t AS cols.
func (r *resolver) lateralView(lv *LateralView, sc *scope) (string, error) {
	name := strings.ToLower(lv.Func.Name.Name)
	g := generatorFor(name)
	if d := lookupFunc(name); g == nil && d != nil && d.support == Unsupported {
		return "", unsupported(lv.Func.P, d.note, "Spark function `%s`", name)
	}
	if g == nil {
		return "", sparkErr(lv.Func.P, "UNSUPPORTED_GENERATOR.NOT_GENERATOR", "The generator is not supported: `%s` is expected to be a generator. However, its class is not a generator.", lv.Func.Name.Name)
	}
	if lv.Outer {
		g = g.outerVariant()
	}
	f, cols, err := r.generator(lv.Func, g, lv.Columns, nil, sc)
	if err != nil {
		return "", err
	}
	for _, c := range cols {
		c.qual = strings.ToLower(lv.Table.Name)
		sc.cols = append(sc.cols, c)
	}
	return f, nil
}
