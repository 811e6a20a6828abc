package sparksql

import (
	"fmt"
	"strings"
	"time"
	_ "time/tzdata" // zone names are checked wherever the product runs
)

// Column is a named, typed column of a relation.
type Column struct {
	Name string
	Type *Type
}

// Input is a relation a step reads through a placeholder.
type Input struct {
	Ref    string   // the placeholder's name: df, sources.x, nodes.x
	SQL    string   // the DuckDB relation: a quoted view name or a bracketed query
	Schema []Column // its columns
}

// Options are the session settings translation depends on.
type Options struct {
	// TimeZone is spark.sql.session.timeZone (default UTC): the zone of
	// TIMESTAMP values' local time.
	TimeZone string
}

// Result is a translated query.
type Result struct {
	SQL     string   // DuckDB SQL computing what Spark computes
	Columns []Column // the result's columns with Spark's names and types
}

// Translate translates one Spark SQL query reading the given inputs into
// DuckDB SQL. Errors are *Error with the offset in sql.
func Translate(sql string, inputs []Input, opts Options) (_ *Result, err error) {
	var r *resolver
	defer recoverTranslation(sql, &r, &err)
	q, err := ParseQuery(sql)
	if err != nil {
		return nil, err
	}
	r, err = newResolver(opts)
	if err != nil {
		return nil, err
	}
	for i := range inputs {
		r.inputs[inputs[i].Ref] = &inputs[i]
	}
	rel, err := r.query(q, nil, true)
	if err != nil {
		return nil, err
	}
	seen := map[string]bool{}
	res := &Result{SQL: rel.sql}
	for _, c := range rel.cols {
		low := strings.ToLower(c.name)
		if c.name == "" {
			return nil, unsupported(q.P, "give the column a name with AS", "a result column with an empty name (Spark names the column of '' so)")
		}
		if seen[low] {
			return nil, unsupported(q.P, "give each column its own name with AS", "a result with two columns named `%s`", c.name)
		}
		seen[low] = true
		if c.t.hasCalendar() {
			return nil, calendarResult(q.P, c.name, c.t)
		}
		res.Columns = append(res.Columns, Column{Name: c.name, Type: c.t})
	}
	return res, nil
}

// ExprInput is the relation an expression reads: its columns are
// referred to as Alias."name" (or "name" without an alias).
type ExprInput struct {
	Alias  string
	Schema []Column
}

// ExprResult is a translated expression.
type ExprResult struct {
	SQL  string // a DuckDB expression
	Type *Type  // its Spark type
	Name string // Spark's name for it as an unaliased column
}

// TranslateExpr translates one Spark SQL expression over the columns of
// in (with_columns values, expectations). Aggregates are allowed only
// with agg (aggregate expectations).
func TranslateExpr(expr string, in ExprInput, opts Options, agg bool) (_ *ExprResult, err error) {
	var r *resolver
	defer recoverTranslation(expr, &r, &err)
	e, err := ParseExpr(expr)
	if err != nil {
		return nil, err
	}
	r, err = newResolver(opts)
	if err != nil {
		return nil, err
	}
	sc := r.exprScope(in)
	x, err := r.expr(e, sc, &ectx{agg: agg, aggOK: agg, winOK: true})
	if err != nil {
		return nil, err
	}
	if x.gen != nil {
		return nil, unsupported(e.Pos(), "use a query step with LATERAL VIEW", "a generator (%s) in an expression", x.gen.name)
	}
	if x.t.hasCalendar() {
		return nil, calendarResult(e.Pos(), x.name, x.t)
	}
	return &ExprResult{SQL: x.sql, Type: x.t, Name: x.name}, nil
}

// calendarResult refuses a result column holding a CalendarInterval
// (make_interval): Spark cannot collect one (NOT_IMPLEMENTED) nor save it
// in a table.
func calendarResult(pos int, name string, t *Type) error {
	return unsupported(pos, "add it to a date or timestamp, or cast it to STRING", "the result column `%s` of type %s (make_interval's CalendarInterval, which Spark can neither collect nor save in a table)", name, t.sqlName())
}

// TranslatePredicate translates a boolean predicate (filter, a `where`
// ownership predicate, a DROP/QUARANTINE expectation). It must be one
// boolean expression without subqueries, aggregates, windows, generators
// or non-deterministic functions, so that it means the same for every row
// whenever it is evaluated (as Spark's DELETE ... WHERE does).
func TranslatePredicate(expr string, in ExprInput, opts Options) (_ *ExprResult, err error) {
	var r *resolver
	defer recoverTranslation(expr, &r, &err)
	e, err := ParseExpr(expr)
	if err != nil {
		return nil, err
	}
	if err := checkPredicateShape(e); err != nil {
		return nil, err
	}
	r, err = newResolver(opts)
	if err != nil {
		return nil, err
	}
	r.markFilterIn(e)
	x, err := r.expr(e, r.exprScope(in), &ectx{clause: "WHERE"})
	if err != nil {
		return nil, err
	}
	if x.t.Kind != KBool && x.t.Kind != KVoid {
		return nil, sparkErr(e.Pos(), "DATATYPE_MISMATCH.FILTER_NOT_BOOLEAN", "Cannot resolve %s due to data type mismatch: Filter expression %s of type %q is not a boolean.", quoteSparkSQL(x.name), quoteSparkSQL(x.name), strings.ToUpper(x.t.String()))
	}
	if x.gen != nil || x.hasWin || x.hasAgg {
		return nil, unsupported(e.Pos(), "", "an aggregate, window or generator in a predicate")
	}
	if x.nondet {
		return nil, unsupported(e.Pos(), "a predicate must give the same answer whenever it is evaluated", "a non-deterministic function in a predicate")
	}
	return &ExprResult{SQL: x.sql, Type: tBool, Name: x.name}, nil
}

// checkPredicateShape rejects subqueries in a predicate.
func checkPredicateShape(e Expr) error {
	var bad Node
	walkExpr(e, func(n Expr) bool {
		switch n.(type) {
		case *Subquery, *InQuery, *Exists:
			if bad == nil {
				bad = n
			}
			return false
		}
		return true
	})
	if bad != nil {
		return unsupported(bad.Pos(), "compare columns with constants", "a subquery in a predicate")
	}
	return nil
}

// walkExpr calls f for e and its sub-expressions (not descending into
// subqueries) while f returns true.
func walkExpr(e Expr, f func(Expr) bool) {
	if e == nil || !f(e) {
		return
	}
	w := func(xs ...Expr) {
		for _, x := range xs {
			walkExpr(x, f)
		}
	}
	switch n := e.(type) {
	case *Unary:
		w(n.X)
	case *Binary:
		w(n.L, n.R)
	case *IsNull:
		w(n.X)
	case *IsBool:
		w(n.X)
	case *IsDistinct:
		w(n.L, n.R)
	case *Between:
		w(n.X, n.Lo, n.Hi)
	case *InList:
		w(n.X)
		w(n.List...)
	case *InQuery:
		w(n.X)
	case *Like:
		w(n.X, n.Pattern)
		w(n.Patterns...)
	case *Case:
		w(n.Operand, n.Else)
		for _, wh := range n.Whens {
			w(wh.Cond, wh.Result)
		}
	case *Cast:
		w(n.X)
	case *PathExtract:
		w(n.X)
	case *Call:
		w(n.Args...)
		w(n.Filter)
	case *Lambda:
		w(n.Body)
	case *Subscript:
		w(n.X, n.Index)
	case *FieldAccess:
		w(n.X)
	case *Row:
		w(n.Items...)
	}
}

// quoteSparkSQL quotes an expression's SQL as Spark's messages do.
func quoteSparkSQL(s string) string { return `"` + s + `"` }

// resolver translates one statement.
type resolver struct {
	opts Options
	// jsonW and jsonR are the options of the to_json or from_json call
	// being translated (nil: Spark's defaults).
	jsonW  *jsonWrite
	jsonR  *jsonRead
	tz     string // DuckDB zone name of the session time zone
	inputs map[string]*Input
	n      int // counter for relation aliases
	// at is the stack of constructs being resolved (innermost last), so
	// that a panic names the one it happened in (recoverTranslation).
	at []Node
	// grouping is the stack of the SELECTs being resolved: whether each
	// groups by grouping sets (ROLLUP, CUBE, GROUPING SETS), where
	// grouping() and grouping_id() are allowed.
	grouping []bool
	// gidArgs: per SELECT being resolved, the arguments of each
	// grouping_id(...), which must be its grouping expressions in order.
	gidArgs [][][]string
	// filterIn holds the IN subqueries that are conjuncts of a filter
	// (WHERE, HAVING, a predicate), where Spark plans a semi join or a
	// NULL-aware anti join, so SQL's three-valued IN holds; anywhere else
	// Spark plans an existence join, which is never NULL (markFilterIn).
	filterIn map[*InQuery]bool
}

// gidPlaceholder stands for the grouping expressions in grouping_id()
// until the GROUP BY is resolved (after the select list).
const gidPlaceholder = "\x00grouping_id\x00"

func newResolver(opts Options) (*resolver, error) {
	tz, err := sessionZone(opts.TimeZone)
	if err != nil {
		return nil, err
	}
	return &resolver{opts: opts, tz: tz, inputs: map[string]*Input{}}, nil
}

// alias returns a new relation alias for the emitted SQL.
func (r *resolver) alias() string {
	r.n++
	return fmt.Sprintf("t%d", r.n)
}

// exprScope is the scope of a stand-alone expression.
func (r *resolver) exprScope(in ExprInput) *scope {
	sc := &scope{}
	for _, c := range in.Schema {
		ref := duckIdent(c.Name)
		if in.Alias != "" {
			ref = duckIdent(in.Alias) + "." + ref
		}
		sc.cols = append(sc.cols, &column{name: c.Name, t: c.Type, sql: ref})
	}
	return sc
}

// sessionZone checks a session time zone and returns the name DuckDB
// knows it by.
func sessionZone(tz string) (string, error) {
	switch strings.ToUpper(tz) {
	case "", "UTC", "Z", "GMT", "ETC/UTC", "+00:00":
		return "UTC", nil
	}
	if !validZone(tz) {
		return "", &Error{Msg: fmt.Sprintf("spark.sql.session.timeZone %q is not a time zone (use a region such as Europe/Paris, or UTC)", tz), Class: "INVALID_CONF_VALUE.TIME_ZONE", Kind: ErrSpark}
	}
	return tz, nil
}

// validZone accepts region IDs (Area/City) of the IANA database.
func validZone(tz string) bool {
	if len(tz) > 64 || !strings.Contains(tz, "/") {
		return false
	}
	if _, err := time.LoadLocation(tz); err != nil {
		return false
	}
	for _, c := range tz {
		if !(c == '/' || c == '_' || c == '-' || c == '+' || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9')) {
			return false
		}
	}
	return true
}
