package polarssql

import (
	"errors"
	"fmt"
	"maps"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/laktory/workbench/runner/dialect"
	"github.com/laktory/workbench/runner/sqlfront"
)

// Syntax is Polars SQL's variant of the one parser (sqlparser-rs's
// generic dialect, as polars' SQLContext parses): "x" is a name, strings
// double their quotes and take no escapes.
var Syntax = &sqlfront.Syntax{
	Name:                    "Polars SQL",
	SyntaxErrorClass:        "SQLSyntaxError",
	DoubleQuotedIdentifiers: true,
	RegexOperators:          true,
	BracketArrays:           true,
	PlaceholderQualifiers:   true,
	TypeNames: map[string]string{
		"boolean": "boolean", "bool": "boolean", "tinyint": "tinyint", "smallint": "smallint", "int2": "smallint",
		"int": "int", "integer": "int", "int4": "int", "bigint": "bigint", "int8": "bigint", "float": "double",
		"real": "float", "float4": "float", "double": "double", "float8": "double",
		"string": "string", "varchar": "string", "text": "string", "date": "date",
		"decimal": "decimal", "numeric": "decimal", "dec": "decimal", "timestamp": "timestamp", "datetime": "timestamp",
		"int1": "tinyint", "int16": "smallint", "int32": "int", "int64": "bigint",
		"utinyint": "utinyint", "uint1": "utinyint", "usmallint": "usmallint", "uint2": "usmallint", "uint16": "usmallint",
		"uint": "uint", "uinteger": "uint", "uint4": "uint", "uint32": "uint", "ubigint": "ubigint", "uint8": "ubigint", "uint64": "ubigint",
		"mediumint": "int", "char": "string", "character": "string",
	},
	// sqlparser-rs' type names (polars 1.32.0 casts to them): several
	// words, a width, UNSIGNED.
	TypeWords: map[string]string{
		"double precision": "double", "character varying": "string", "char varying": "string",
		"timestamp with time zone": "timestamp with time zone", "timestamp without time zone": "timestamp with time zone",
	},
	TypeWidths: map[string]bool{
		"tinyint": true, "smallint": true, "mediumint": true, "int": true, "integer": true, "bigint": true,
		"int2": true, "int4": true, "int8": true, "float": true, "timestamp": true, "datetime": true,
		"varchar": true, "char": true, "character": true, "string": true, "character varying": true, "char varying": true,
	},
	Unsigned: map[string]string{
		"tinyint": "utinyint", "smallint": "usmallint", "mediumint": "uint", "int": "uint", "integer": "uint",
		"bigint": "ubigint", "int2": "usmallint", "int4": "uint", "int8": "ubigint",
	},
	UnknownType: func(pos int, name string) *sqlfront.Error {
		return sqlfront.Unsupported(pos, "", "the type %s in Polars SQL", strings.ToUpper(name))
	},
}

// Errors are *sqlfront.Error; ErrRejected ones carry Polars' exception
// class and message.
var (
	ErrUnsupported = sqlfront.ErrUnsupported
	ErrPolars      = sqlfront.ErrRejected
)

// Column is a named, typed column of a relation.
type Column struct {
	Name string
	Type *Type
}

// Input is a relation a step reads through a placeholder.
type Input struct {
	Ref    string   // df, sources.x, nodes.x
	SQL    string   // the DuckDB relation: a quoted view name or a bracketed query
	Schema []Column // its columns
}

// Result is a translated query.
type Result struct {
	SQL     string   // DuckDB SQL computing what polars' SQLContext computes
	Columns []Column // Polars' names and dtypes
	// of a SELECT: its FROM's scope, and the column of it each output
	// column is a plain reference to (nil for other expressions), so that
	// ORDER BY can name a selected column as the FROM names it (o.id).
	from    *scope
	sources []*column
}

// Translate translates one Polars SQL query reading inputs to DuckDB SQL.
func Translate(sql string, inputs []Input) (_ *Result, err error) {
	defer func() {
		if v := recover(); v != nil {
			err = sqlfront.Unsupported(0, "report the SQL", "this SQL (internal error of the Polars SQL translation: %v)", v)
		}
	}()
	var res *Result
	q, err := Syntax.ParseQuery(sql)
	if err == nil {
		r := &resolver{inputs: map[string]*Input{}}
		for i := range inputs {
			r.inputs[inputs[i].Ref] = &inputs[i]
		}
		res, err = r.query(q)
	}
	var fe *sqlfront.Error
	if errors.As(err, &fe) && fe.Class == "SQLInterfaceError" && strings.HasPrefix(fe.Msg, "sql parser error: ") && !strings.Contains(fe.Msg, " at Line: ") {
		// sqlparser-rs places its errors in the SQL polars parses: the
		// step's, its placeholders renamed as Laktory renames them.
		line, col := polarsLineCol(sql, fe.Pos)
		fe.Msg += fmt.Sprintf(" at Line: %d, Column: %d", line, col)
	}
	return res, err
}

var placeholderRe = regexp.MustCompile(`\{(nodes|sources)\.(.*?)\}|\{df\}`)

// polarsLineCol is the line and column (from 1, in characters) sqlparser-rs
// gives the byte offset pos of sql once Laktory's to_safe_expr renamed its
// placeholders ({df} is __df__, {nodes.x} __nodes_x___).
func polarsLineCol(sql string, pos int) (int, int) {
	if pos < 0 || pos > len(sql) {
		pos = 0
	}
	start := strings.LastIndexByte(sql[:pos], '\n') + 1
	line := strings.Count(sql[:start], "\n") + 1
	before := placeholderRe.ReplaceAllStringFunc(sql[start:pos], func(m string) string {
		if m == "{df}" {
			return "__df__"
		}
		kind, name, _ := strings.Cut(m[1:len(m)-1], ".")
		return "__" + kind + "_" + name + "___"
	})
	return line, utf8.RuneCountInString(before) + 1
}

// column is a column visible in a scope.
type column struct {
	name string
	t    *Type
	sql  string
	qual string // the relation's alias (or its placeholder's frame name)
}

type resolver struct {
	inputs map[string]*Input
	ctes   []cte
	depth  int // nesting of the query being resolved (1: the step's)
	n      int
}

func (r *resolver) alias() string {
	r.n++
	return "t" + strconv.Itoa(r.n)
}

func rejected(pos int, class, format string, args ...any) *sqlfront.Error {
	return sqlfront.Rejected(pos, class, format, args...)
}

func unsupported(pos int, hint, format string, args ...any) *sqlfront.Error {
	return sqlfront.Unsupported(pos, hint, format, args...)
}

// query resolves a SELECT [FROM one relation or a join] [WHERE] [GROUP
// BY columns] [ORDER BY] [LIMIT]; anything else is refused.
func (r *resolver) query(q *sqlfront.Query) (*Result, error) {
	saved := r.ctes
	r.depth++
	defer func() { r.ctes, r.depth = saved, r.depth-1 }()
	for _, c := range q.With {
		if len(c.Columns) > 0 {
			return nil, unsupported(c.Name.P, "", "column names of a WITH query in Polars SQL")
		}
		res, err := r.query(c.Query)
		if err != nil {
			return nil, err
		}
		// A CTE is a frame of the context under its name.
		r.ctes = append(r.ctes, cte{name: c.Name.Name, in: &Input{Ref: c.Name.Name, SQL: "(" + res.SQL + ")", Schema: res.Columns}})
	}
	if q.Offset != nil {
		return nil, unsupported(q.Offset.Pos(), "", "OFFSET in Polars SQL")
	}
	res, err := r.body(q.Body)
	if err != nil {
		return nil, err
	}
	return r.orderLimit(res, q)
}

// cte is a WITH query visible by name.
type cte struct {
	name string
	in   *Input
}

// body resolves a SELECT, a bracketed query or UNION [ALL] of queries
// with the same column names and dtypes.
func (r *resolver) body(b sqlfront.QueryExpr) (*Result, error) {
	switch n := b.(type) {
	case *sqlfront.Select:
		return r.selectBody(n)
	case *sqlfront.Query:
		return r.query(n)
	case *sqlfront.SetOp:
		if n.Op != "UNION" || n.ByName {
			return nil, unsupported(n.P, "", "%s in Polars SQL", n.Op)
		}
		l, err := r.body(n.L)
		if err != nil {
			return nil, err
		}
		rr, err := r.body(n.R)
		if err != nil {
			return nil, err
		}
		if len(l.Columns) != len(rr.Columns) {
			return nil, unsupported(n.P, "", "UNION of queries with different columns in Polars SQL")
		}
		for i := range l.Columns {
			if l.Columns[i].Name != rr.Columns[i].Name || !l.Columns[i].Type.Equal(rr.Columns[i].Type) {
				return nil, unsupported(n.P, "give both sides the same column names and types", "UNION of `%s` %s with `%s` %s in Polars SQL", l.Columns[i].Name, l.Columns[i].Type, rr.Columns[i].Name, rr.Columns[i].Type)
			}
		}
		op := " UNION "
		if n.All {
			op = " UNION ALL "
		}
		return &Result{SQL: "(" + l.SQL + ")" + op + "(" + rr.SQL + ")", Columns: l.Columns}, nil
	}
	return nil, unsupported(b.Pos(), "", "VALUES in Polars SQL")
}

func (r *resolver) selectBody(s *sqlfront.Select) (*Result, error) {
	switch {
	case s.Having != nil:
		return nil, unsupported(s.Having.Pos(), "filter the grouped rows in a step of their own", "HAVING, which polars 1.32.0 ignores (it keeps every group),")
	case s.Qualify != nil:
		return nil, unsupported(s.Qualify.Pos(), "", "QUALIFY, which polars 1.32.0 ignores (it keeps every row),")
	case len(s.Laterals) > 0 || len(s.Windows) > 0:
		return nil, unsupported(s.P, "", "LATERAL VIEW and WINDOW in Polars SQL")
	case len(s.From) == 0 && selectsUnnest(s):
		// SELECT UNNEST([1, 2]): the arrays are the frame.
	case len(s.From) != 1:
		return nil, unsupported(s.P, "join the relations with JOIN ... ON", "a FROM with other than one relation")
	}
	sc, from := &scope{}, ""
	if len(s.From) == 1 {
		var err error
		if sc, from, err = r.from(s.From[0]); err != nil {
			return nil, err
		}
	}
	var where string
	if s.Where != nil {
		x, err := r.expr(s.Where, sc, false)
		if err != nil {
			return nil, err
		}
		if x.t.Kind != Boolean && x.t.Kind != Null {
			return nil, rejected(s.Where.Pos(), "ComputeError", "filter predicate must be of type `Boolean`, got `%s`", x.t)
		}
		where = " WHERE " + x.sql
	}
	if selectsUnnest(s) {
		var err error
		if sc, from, err = r.unnestSelect(s, sc, from, where); err != nil {
			return nil, err
		}
		where = ""
	}
	grouped := s.GroupBy != nil
	var groupSQL []string
	var groupCols []*column
	var keys []groupKey
	exprKeys := false
	if grouped {
		if s.GroupBy.All || s.GroupBy.With != "" {
			return nil, unsupported(s.GroupBy.P, "", "GROUP BY ALL, ROLLUP and CUBE in Polars SQL")
		}
		for _, it := range s.GroupBy.Items {
			if lit, ok := it.(*sqlfront.Literal); ok && lit.Kind == sqlfront.LitInt {
				// GROUP BY 2: the select item's column.
				k, _ := strconv.Atoi(lit.Value)
				if k < 1 || k > len(s.Items) {
					return nil, unsupported(lit.P, "", "GROUP BY position %s", lit.Value)
				}
				it = s.Items[k-1].Expr
			}
			cr, ok := it.(*sqlfront.ColumnRef)
			if !ok {
				if _, pos := it.(*sqlfront.Literal); pos {
					return nil, unsupported(it.Pos(), "group by the expression itself", "GROUP BY the position of an expression (polars 1.32.0 groups by the aliased expression, then cannot find its columns)")
				}
				x, err := r.expr(it, sc, false)
				if err != nil {
					return nil, err
				}
				if x.agg {
					return nil, unsupported(it.Pos(), "", "an aggregate as a GROUP BY key")
				}
				exprKeys = true
				keys = append(keys, groupKey{name: x.name, t: x.t, sql: x.sql})
				groupSQL = append(groupSQL, x.sql)
				continue
			}
			c, err := sc.lookup(cr)
			if err != nil {
				return nil, err
			}
			groupCols = append(groupCols, c)
			keys = append(keys, groupKey{name: c.name, t: c.t, sql: c.sql})
			groupSQL = append(groupSQL, c.sql)
		}
	}
	if exprKeys {
		return r.groupByExprs(s, sc, from, where, keys, groupSQL)
	}
	// The select list.
	var items []string
	var out []Column
	var sources []*column
	seen := map[string]bool{}
	add := func(name string, x *rx, pos int) error {
		if name == "" {
			return unsupported(pos, "alias it", "a column named \"\" (polars' name of an unaliased UNNEST of a literal array)")
		}
		if seen[name] {
			return rejected(pos, "DuplicateError", "the name '%s' is duplicate", name)
		}
		seen[name] = true
		items = append(items, x.sql+" AS "+dialect.QuoteIdent(name))
		out = append(out, Column{Name: name, Type: x.t})
		sources = append(sources, x.col)
		return nil
	}
	hasAgg := false
	for _, it := range s.Items {
		if st, ok := it.Expr.(*sqlfront.Star); ok {
			if grouped || len(st.Except) > 0 || len(st.Qualifier) > 0 {
				return nil, unsupported(st.P, "", "this form of * in Polars SQL")
			}
			for _, c := range sc.cols {
				if err := add(c.starName, &rx{t: c.t, sql: c.sql, col: c.column}, st.P); err != nil {
					return nil, err
				}
			}
			continue
		}
		if len(it.Aliases) > 0 {
			return nil, unsupported(it.Expr.Pos(), "", "AS (a, b) in Polars SQL")
		}
		x, err := r.expr(it.Expr, sc, grouped)
		if err != nil {
			return nil, err
		}
		if grouped && !x.agg && !x.constant {
			if x.col == nil || !containsCol(groupCols, x.col) {
				return nil, unsupported(it.Expr.Pos(), "aggregate the column or group by it", "a column of a grouped query that is neither a key nor aggregated")
			}
		}
		if x.agg && !grouped {
			hasAgg = true
		}
		name := x.name
		if it.Alias != nil {
			name = it.Alias.Name
		}
		if err := add(name, x, it.Expr.Pos()); err != nil {
			return nil, err
		}
	}
	if hasAgg {
		for _, it := range s.Items {
			if x, _ := r.expr(it.Expr, sc, false); x != nil && !x.agg && !x.constant {
				return nil, unsupported(it.Expr.Pos(), "", "columns beside aggregates without GROUP BY")
			}
		}
	}
	sql := "SELECT "
	if s.Distinct {
		sql += "DISTINCT "
	}
	sql += strings.Join(items, ", ") + " FROM " + from + where
	if grouped {
		sql += " GROUP BY " + strings.Join(groupSQL, ", ")
	}
	return &Result{SQL: sql, Columns: out, from: sc, sources: sources}, nil
}

// groupKey is a GROUP BY key: polars names it after its leftmost input
// (a column's name, "literal").
type groupKey struct {
	name string
	t    *Type
	sql  string
}

// groupByExprs is a grouped query with an expression among its keys, as
// polars 1.32.0's SQL computes it: the frame is grouped by the keys,
// each named after its leftmost input, and the aggregates of the select
// list are computed per group; then every other item is evaluated over
// that grouped frame, whose columns are the keys by those names (and the
// aggregates by theirs): `id % 2 AS k` grouped by `id % 2` is
// (id % 2) % 2, `id / 3 AS t` grouped by `id / 3` is (id // 3) // 3, and a
// column named like a key is the key's value. What polars gives as a List
// of each group's values (a function call selected, an aggregate beside a
// key) or fails on is refused, naming it.
func (r *resolver) groupByExprs(s *sqlfront.Select, sc *scope, from, where string, keys []groupKey, groupSQL []string) (*Result, error) {
	seen := map[string]bool{}
	var inner []string
	a := r.alias()
	osc := &scope{}
	for _, k := range keys {
		if seen[k.name] {
			return nil, rejected(s.GroupBy.P, "DuplicateError", "could not create a new DataFrame: column with name '%s' has more than one occurrence", k.name)
		}
		seen[k.name] = true
		inner = append(inner, k.sql+" AS "+dialect.QuoteIdent(k.name))
		osc.cols = append(osc.cols, &scopeCol{column: &column{name: k.name, t: k.t, sql: a + "." + dialect.QuoteIdent(k.name)}, starName: k.name})
	}
	keyNames := maps.Clone(seen)
	type deferred struct {
		e    sqlfront.Expr
		name string
	}
	var later []deferred
	for _, it := range s.Items {
		if st, ok := it.Expr.(*sqlfront.Star); ok {
			return nil, unsupported(st.P, "", "this form of * in Polars SQL")
		}
		if len(it.Aliases) > 0 {
			return nil, unsupported(it.Expr.Pos(), "", "AS (a, b) in Polars SQL")
		}
		x, err := r.expr(it.Expr, sc, true)
		if err != nil {
			return nil, err
		}
		name := x.name
		if it.Alias != nil {
			name = it.Alias.Name
		}
		e := unparen(it.Expr)
		switch cr, isCol := e.(*sqlfront.ColumnRef); {
		case isCol:
			if len(cr.Parts) != 1 || !keyNames[cr.Parts[0].Name] {
				return nil, rejected(it.Expr.Pos(), "SQLSyntaxError", "'%s' should participate in the GROUP BY clause or an aggregate function", cr.Parts[len(cr.Parts)-1].Name)
			}
		case x.agg:
			if keyNames[name] {
				return nil, unsupported(it.Expr.Pos(), "alias the aggregate", "an aggregate named like a GROUP BY key `%s` (polars 1.32.0 evaluates it over the keys, or fails)", name)
			}
			if !r.aggregatesOnly(e, sc) {
				return nil, unsupported(it.Expr.Pos(), "compute it in a step after the grouping", "an aggregate beside a column of the rows grouped by an expression (polars 1.32.0 gives a List of each group's values)")
			}
			if seen[name] {
				return nil, rejected(it.Expr.Pos(), "DuplicateError", "the name '%s' is duplicate", name)
			}
			seen[name] = true
			inner = append(inner, x.sql+" AS "+dialect.QuoteIdent(name))
			osc.cols = append(osc.cols, &scopeCol{column: &column{name: name, t: x.t, sql: a + "." + dialect.QuoteIdent(name)}, starName: name})
			later = append(later, deferred{e: &sqlfront.ColumnRef{Parts: []sqlfront.Ident{{Name: name}}, P: it.Expr.Pos()}, name: name})
			continue
		case it.Alias == nil && !x.constant:
			return nil, unsupported(it.Expr.Pos(), "alias it", "an unaliased expression in a query grouped by an expression (polars 1.32.0 fails: Unsupported operation in the GROUP BY clause)")
		default:
			// polars evaluates a binary operation, a CASE, BETWEEN or a
			// literal over the grouped keys; a function call (IS NULL, IN,
			// COALESCE, UPPER, ...) is a List of each group's values, and a
			// cast of a key is the key uncast.
			ok := false
			switch n := e.(type) {
			case *sqlfront.Literal, *sqlfront.Case, *sqlfront.Between:
				ok = true
			case *sqlfront.Binary:
				ok = slices.Contains([]string{"+", "-", "*", "/", "%", "||", "=", "==", "<>", "!=", "<", "<=", ">", ">=", "AND", "OR"}, strings.ToUpper(n.Op))
			}
			if !ok {
				return nil, unsupported(it.Expr.Pos(), "compute it in a step before the grouping and group by its column", "a function call, cast or sign selected from rows grouped by an expression (polars 1.32.0 gives a List of each group's values, or the key uncast)")
			}
		}
		later = append(later, deferred{e: it.Expr, name: name})
	}
	var items []string
	var out []Column
	names := map[string]bool{}
	for _, d := range later {
		x, err := r.expr(d.e, osc, false)
		if err != nil {
			return nil, unsupported(d.e.Pos(), "compute it in a step after the grouping", "an expression evaluated over the GROUP BY keys that cannot be (%v)", err)
		}
		if names[d.name] {
			return nil, rejected(d.e.Pos(), "DuplicateError", "the name '%s' is duplicate", d.name)
		}
		names[d.name] = true
		items = append(items, x.sql+" AS "+dialect.QuoteIdent(d.name))
		out = append(out, Column{Name: d.name, Type: x.t})
	}
	sql := "SELECT " + strings.Join(inner, ", ") + " FROM " + from + where + " GROUP BY " + strings.Join(groupSQL, ", ")
	sel := "SELECT "
	if s.Distinct {
		sel += "DISTINCT "
	}
	sql = sel + strings.Join(items, ", ") + " FROM (" + sql + ") AS " + a
	return &Result{SQL: sql, Columns: out, sources: make([]*column, len(out))}, nil
}

// aggregatesOnly reports whether an expression reads the rows only
// through aggregates (SUM(x), MAX(x) - MIN(x), ROUND(AVG(x), 2), a
// literal): one that reads a column beside them is a List in polars.
func (r *resolver) aggregatesOnly(e sqlfront.Expr, sc *scope) bool {
	switch n := unparen(e).(type) {
	case *sqlfront.Literal:
		return true
	case *sqlfront.Binary:
		return r.aggregatesOnly(n.L, sc) && r.aggregatesOnly(n.R, sc)
	case *sqlfront.Cast:
		return r.aggregatesOnly(n.X, sc)
	case *sqlfront.Call:
		if n.Over != nil {
			return false
		}
		x, err := r.expr(n, sc, true)
		if err != nil || !x.agg {
			return false
		}
		nested := false
		for _, arg := range n.Args {
			if ax, err := r.expr(arg, sc, true); err == nil && ax.agg {
				nested = true
			}
		}
		if !nested {
			return true // an aggregate of the rows
		}
		for _, arg := range n.Args {
			if !r.aggregatesOnly(arg, sc) {
				return false
			}
		}
		return true
	}
	return false
}

func unparen(e sqlfront.Expr) sqlfront.Expr {
	for {
		p, ok := e.(*sqlfront.Paren)
		if !ok {
			return e
		}
		e = p.X
	}
}

// orderLimit applies a query's ORDER BY (output columns, by name or
// position) and LIMIT.
func (r *resolver) orderLimit(res *Result, q *sqlfront.Query) (*Result, error) {
	sql, out := res.SQL, res.Columns
	if r.depth == 1 {
		sql = sinkTypes(sql, out)
	}
	if len(q.OrderBy) > 0 {
		a := r.alias()
		osc := &scope{}
		for _, c := range out {
			osc.cols = append(osc.cols, &scopeCol{column: &column{name: c.Name, t: c.Type, sql: a + "." + dialect.QuoteIdent(c.Name)}, starName: c.Name})
		}
		var terms []string
		for _, o := range q.OrderBy {
			var x *rx
			var err error
			if lit, ok := o.X.(*sqlfront.Literal); ok && lit.Kind == sqlfront.LitInt {
				// ORDER BY 2: the second output column.
				k, _ := strconv.Atoi(lit.Value)
				if k < 1 || k > len(out) {
					return nil, unsupported(lit.P, "", "ORDER BY position %s", lit.Value)
				}
				c := osc.cols[k-1]
				x = &rx{t: c.t, sql: c.sql}
			} else if c, ok := o.X.(*sqlfront.Literal); ok {
				return nil, unsupported(c.P, "", "ORDER BY a constant in Polars SQL")
			} else {
				x, err = r.expr(o.X, osc, false)
				if cr, ok := o.X.(*sqlfront.ColumnRef); ok && err != nil && res.from != nil {
					// A selected column named as the FROM names it.
					if c, lerr := res.from.lookup(cr); lerr == nil {
						for i, src := range res.sources {
							if src == c {
								x, err = &rx{t: osc.cols[i].t, sql: osc.cols[i].sql}, nil
								break
							}
						}
					}
				}
			}
			if err != nil {
				return nil, unsupported(o.X.Pos(), "order by a column of the result", "ORDER BY on what the query does not select")
			}
			term := x.sql
			// polars sorts NULLs as the largest values: last ascending,
			// first descending, unless the query says otherwise.
			switch {
			case o.Desc && o.Nulls == "":
				term += " DESC NULLS FIRST"
			case o.Desc:
				term += " DESC NULLS " + o.Nulls
			case o.Nulls == "":
				term += " ASC NULLS LAST"
			default:
				term += " ASC NULLS " + o.Nulls
			}
			terms = append(terms, term)
		}
		sql = "SELECT * FROM (" + sql + ") AS " + a + " ORDER BY " + strings.Join(terms, ", ")
	}
	if q.Limit != nil {
		lit, ok := q.Limit.(*sqlfront.Literal)
		if !ok || lit.Kind != sqlfront.LitInt {
			return nil, unsupported(q.Limit.Pos(), "", "a LIMIT that is not a number")
		}
		sql += " LIMIT " + lit.Value
	}
	return &Result{SQL: sql, Columns: out}, nil
}

// sinkTypes casts the unsigned columns of a query to the signed integers
// of their width, the Delta types delta-rs writes for them (a value that
// does not fit fails the run instead of being written otherwise).
func sinkTypes(sql string, cols []Column) string {
	unsigned := false
	for _, c := range cols {
		unsigned = unsigned || c.Type.isUnsigned()
	}
	if !unsigned {
		return sql
	}
	items := make([]string, len(cols))
	for i, c := range cols {
		q := dialect.QuoteIdent(c.Name)
		items[i] = q
		if c.Type.isUnsigned() {
			// delta-rs' error for a value beyond the signed type.
			st := signedOf(c.Type.intBits())
			msg := "[DeltaError] Generic DeltaTable error: Arrow error: Cast error: Failed to convert into Arrow schema: Cast error: Failed to cast " +
				c.Name + " from " + st.String() + " to " + c.Type.String() + ": Can't cast value "
			items[i] = "CASE WHEN " + q + " > " + maxSigned[c.Type.intBits()] + " THEN error(" + sqlQuote(msg) + " || " + q + " || " +
				sqlQuote(" to type "+st.String()) + ") ELSE CAST(" + q + " AS " + st.DuckDB() + ") END AS " + q
		}
	}
	return "SELECT " + strings.Join(items, ", ") + " FROM (" + sql + ")"
}

var maxSigned = map[int]string{8: "127", 16: "32767", 32: "2147483647", 64: "9223372036854775807"}

func sqlQuote(s string) string { return "'" + strings.ReplaceAll(s, "'", "''") + "'" }

func containsCol(cs []*column, c *column) bool {
	for _, x := range cs {
		if x == c {
			return true
		}
	}
	return false
}

// scope is the columns a query's expressions see.
type scope struct {
	cols   []*scopeCol
	unnest unnestScope // the select list's UNNEST calls (unnest.go)
}

type scopeCol struct {
	*column
	starName string // its name in SELECT * (right-hand duplicates of a join get ":alias")
}

func (sc *scope) lookup(cr *sqlfront.ColumnRef) (*column, error) {
	var qual, name string
	switch len(cr.Parts) {
	case 1:
		name = cr.Parts[0].Name
	case 2:
		qual, name = cr.Parts[0].Name, cr.Parts[1].Name
		if strings.HasPrefix(qual, "{") && strings.HasSuffix(qual, "}") {
			// {df}.x: the frame Laktory names __df__.
			qual = frameName(qual[1 : len(qual)-1])
		}
		if !sc.hasRelation(qual) {
			// No relation of that name: a struct column's field (s.f).
			return sc.field(cr)
		}
	default:
		return nil, unsupported(cr.P, "", "a struct field path in Polars SQL")
	}
	var found *column
	var names []string
	for _, c := range sc.cols {
		names = append(names, strconv.Quote(c.name))
		// polars matches names exactly (case-sensitive).
		if c.name == name && (qual == "" || c.qual == qual) {
			if found != nil {
				return nil, unsupported(cr.P, "qualify the column with its relation's alias", "an ambiguous column `%s`", name)
			}
			found = c.column
		}
	}
	if found == nil {
		shown := name
		if qual != "" {
			shown = qual + "." + name
		}
		return nil, rejected(cr.P, "ColumnNotFoundError", "unable to find column %q; valid columns: [%s]", shown, strings.Join(dedup(names), ", "))
	}
	return found, nil
}

// hasRelation reports whether a relation of the scope is named (or
// aliased) qual.
func (sc *scope) hasRelation(qual string) bool {
	for _, c := range sc.cols {
		if c.qual == qual {
			return true
		}
	}
	return false
}

// field resolves s.f, the field f of the struct column s, as polars does
// (named after the field).
func (sc *scope) field(cr *sqlfront.ColumnRef) (*column, error) {
	c, err := sc.lookup(&sqlfront.ColumnRef{Parts: cr.Parts[:1], P: cr.P})
	if err != nil {
		return nil, err
	}
	f := cr.Parts[1].Name
	if c.t.Kind != Struct {
		return nil, unsupported(cr.P, "", "a field of a column of %s in Polars SQL", c.t)
	}
	for _, fd := range c.t.Fields {
		if fd.Name == f {
			return &column{name: f, t: fd.Type, sql: "(" + c.sql + ")." + dialect.QuoteIdent(f)}, nil
		}
	}
	return nil, rejected(cr.P, "StructFieldNotFoundError", "%s", f)
}

func dedup(xs []string) []string {
	var out []string
	seen := map[string]bool{}
	for _, x := range xs {
		if !seen[x] {
			seen[x] = true
			out = append(out, x)
		}
	}
	return out
}

// from resolves a FROM item: a placeholder with an optional alias, or an
// INNER/LEFT join of two on equal columns.
func (r *resolver) from(te sqlfront.TableExpr) (*scope, string, error) {
	switch n := te.(type) {
	case *sqlfront.TableName:
		return r.table(n)
	case *sqlfront.Join:
		return r.join(n)
	case *sqlfront.DerivedTable:
		return r.derived(n)
	case *sqlfront.TableFunc:
		if strings.EqualFold(n.Func.Name.Name, "unnest") {
			return r.unnestTable(n)
		}
	}
	return nil, "", unsupported(te.Pos(), "", "this FROM item in Polars SQL")
}

// join resolves l JOIN r (l itself a join or a relation, r a relation):
// INNER, LEFT, FULL and CROSS keep both sides' columns (SELECT * suffixes
// the right side's duplicates with ":alias"), SEMI and ANTI the left's;
// ON takes equalities of columns, USING names columns of both sides.
func (r *resolver) join(n *sqlfront.Join) (*scope, string, error) {
	kind := n.Kind
	switch kind {
	case "INNER", "LEFT", "FULL", "CROSS":
	case "LEFT SEMI":
		kind = "SEMI"
	case "LEFT ANTI":
		kind = "ANTI"
	default:
		return nil, "", unsupported(n.P, "", "a %s JOIN in Polars SQL", kind)
	}
	if n.Natural {
		return nil, "", unsupported(n.P, "", "NATURAL JOIN in Polars SQL")
	}
	switch n.R.(type) {
	case *sqlfront.TableName, *sqlfront.TableFunc:
	default:
		return nil, "", unsupported(n.R.Pos(), "", "a bracketed join in Polars SQL")
	}
	ls, lsql, err := r.from(n.L)
	if err != nil {
		return nil, "", err
	}
	rs, rsql, err := r.from(n.R)
	if err != nil {
		return nil, "", err
	}
	both := &scope{cols: append([]*scopeCol{}, ls.cols...)}
	for _, c := range rs.cols {
		cc := *c
		for _, l := range ls.cols {
			if l.starName == c.name {
				cc.starName = c.name + ":" + c.qual
			}
		}
		both.cols = append(both.cols, &cc)
	}
	sc := both
	if kind == "SEMI" || kind == "ANTI" {
		sc = ls
	}
	switch {
	case kind == "CROSS":
		if n.On != nil || len(n.Using) > 0 {
			return nil, "", unsupported(n.P, "", "CROSS JOIN with a condition")
		}
		return sc, lsql + " CROSS JOIN " + rsql, nil
	case len(n.Using) > 0:
		var conds []string
		for _, u := range n.Using {
			l, err := ls.lookup(&sqlfront.ColumnRef{Parts: []sqlfront.Ident{u}, P: u.P})
			if err != nil {
				return nil, "", err
			}
			rc, err := rs.lookup(&sqlfront.ColumnRef{Parts: []sqlfront.Ident{u}, P: u.P})
			if err != nil {
				return nil, "", err
			}
			if !l.t.Equal(rc.t) {
				return nil, "", unsupported(u.P, "", "joining %s with %s in Polars SQL", l.t, rc.t)
			}
			conds = append(conds, l.sql+" = "+rc.sql)
		}
		return sc, lsql + " " + kind + " JOIN " + rsql + " ON " + strings.Join(conds, " AND "), nil
	case n.On == nil:
		return nil, "", unsupported(n.P, "", "a join without ON or USING in Polars SQL")
	}
	if !equiJoin(n.On) {
		return nil, "", unsupported(n.On.Pos(), "", "a join condition other than equal columns in Polars SQL")
	}
	if _, err := r.expr(n.On, both, false); err != nil {
		return nil, "", err
	}
	var conds []string
	for _, b := range equalities(n.On) {
		l, _ := r.expr(b.L, both, false)
		rr, _ := r.expr(b.R, both, false)
		switch {
		case l.t.Equal(rr.t):
			conds = append(conds, l.sql+" = "+rr.sql)
		case l.t.isInt() && rr.t.isInt():
			// polars joins integer keys of other widths or signs by their
			// values (UInt64 with Int64 too, not as the Float64 of their
			// comparison).
			conds = append(conds, "CAST("+l.sql+" AS HUGEINT) = CAST("+rr.sql+" AS HUGEINT)")
		default:
			return nil, "", unsupported(b.P, "cast the keys to one type", "joining %s with %s in Polars SQL", l.t, rr.t)
		}
	}
	return sc, lsql + " " + kind + " JOIN " + rsql + " ON (" + strings.Join(conds, " AND ") + ")", nil
}

func equalities(e sqlfront.Expr) []*sqlfront.Binary {
	b := e.(*sqlfront.Binary)
	if b.Op == "AND" {
		return append(equalities(b.L), equalities(b.R)...)
	}
	return []*sqlfront.Binary{b}
}

func equiJoin(e sqlfront.Expr) bool {
	b, ok := e.(*sqlfront.Binary)
	if !ok {
		return false
	}
	if b.Op == "AND" {
		return equiJoin(b.L) && equiJoin(b.R)
	}
	_, l := b.L.(*sqlfront.ColumnRef)
	_, rr := b.R.(*sqlfront.ColumnRef)
	return b.Op == "=" && l && rr
}

func (r *resolver) table(n *sqlfront.TableName) (*scope, string, error) {
	var in *Input
	qual := ""
	if n.Placeholder == "" {
		name := n.Parts[len(n.Parts)-1].Name
		for i := len(r.ctes) - 1; i >= 0 && len(n.Parts) == 1; i-- {
			if r.ctes[i].name == name {
				in = r.ctes[i].in
				break
			}
		}
		if in == nil {
			return nil, "", rejected(n.P, "SQLInterfaceError", "relation '%s' was not found", name)
		}
		qual = name
	} else {
		var ok bool
		if in, ok = r.inputs[n.Placeholder]; !ok {
			return nil, "", unsupported(n.P, "use {df}, {sources.<name>} or {nodes.<name>}", "{%s}, which names no input of the step,", n.Placeholder)
		}
		qual = frameName(n.Placeholder)
	}
	if len(n.Columns) > 0 {
		return nil, "", unsupported(n.P, "", "column aliases of a table in Polars SQL")
	}
	a := r.alias()
	if n.Alias != nil {
		qual = n.Alias.Name
	}
	sc := &scope{}
	for _, c := range in.Schema {
		col := &column{name: c.Name, t: c.Type, sql: a + "." + dialect.QuoteIdent(c.Name), qual: qual}
		sc.cols = append(sc.cols, &scopeCol{column: col, starName: c.Name})
	}
	return sc, in.SQL + " AS " + a, nil
}

// derived resolves a query in FROM: a relation under its alias (which
// polars requires), its columns renamed by the alias' column list.
func (r *resolver) derived(n *sqlfront.DerivedTable) (*scope, string, error) {
	switch {
	case n.Lateral:
		return nil, "", rejected(n.P, "SQLInterfaceError", "LATERAL not supported")
	case n.Alias == nil:
		return nil, "", rejected(n.P, "SQLSyntaxError", "derived tables must have aliases")
	}
	res, err := r.query(n.Query)
	if err != nil {
		return nil, "", err
	}
	cols := res.Columns
	if len(n.Columns) > 0 {
		if len(n.Columns) != len(cols) {
			return nil, "", rejected(n.P, "SQLSyntaxError", "number of columns (%d) in alias '%s' does not match the number of columns in the table/query (%d)", len(n.Columns), n.Alias.Name, len(cols))
		}
		renamed := make([]Column, len(cols))
		seen := map[string]bool{}
		var outer []string
		for i, c := range cols {
			name := n.Columns[i].Name
			if seen[name] {
				return nil, "", unsupported(n.P, "", "the column alias %s twice in Polars SQL", name)
			}
			seen[name] = true
			renamed[i] = Column{Name: name, Type: c.Type}
			outer = append(outer, dialect.QuoteIdent(c.Name)+" AS "+dialect.QuoteIdent(name))
		}
		res = &Result{SQL: "SELECT " + strings.Join(outer, ", ") + " FROM (" + res.SQL + ")", Columns: renamed}
		cols = renamed
	}
	a := r.alias()
	sc := &scope{}
	for _, c := range cols {
		col := &column{name: c.Name, t: c.Type, sql: a + "." + dialect.QuoteIdent(c.Name), qual: n.Alias.Name}
		sc.cols = append(sc.cols, &scopeCol{column: col, starName: c.Name})
	}
	return sc, "(" + res.SQL + ") AS " + a, nil
}

// frameName is the name Laktory registers a placeholder's frame under in
// polars' SQLContext ({df} is __df__, {nodes.x} is __nodes_x___).
func frameName(ref string) string {
	if k, x, ok := strings.Cut(ref, "."); ok {
		return "__" + k + "_" + x + "___"
	}
	return "__" + ref + "__"
}
