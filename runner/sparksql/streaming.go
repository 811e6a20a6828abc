package sparksql

import (
	"sort"
	"strings"
)

// StreamPlan is what Spark's check of a streaming query
// (UnsupportedOperationChecker, over the analyzed plan) sees of one query.
type StreamPlan struct {
	// Streaming: the query's result is a stream (it reads one outside
	// subquery expressions).
	Streaming bool
	// Aggregate: the plan has a streaming aggregation (GROUP BY, HAVING,
	// an aggregate function in the select list or ORDER BY, or DISTINCT,
	// of a SELECT that reads a stream; a UNION without ALL of a stream; in
	// a CTE, read or not), which the COMPLETE output mode needs. INTERSECT and EXCEPT are not
	// (Spark 4.2 refuses them in COMPLETE mode), and neither is an
	// aggregation inside a subquery expression, a window function, or an
	// aggregation over batch inputs only.
	Aggregate bool
	// Chained: a streaming aggregation reads the output of another (a
	// derived table, a UNION without ALL or SELECT DISTINCT over an
	// aggregate, a later step over an aggregating one), which Spark 4.2
	// refuses as a possible correctness issue of the global watermark.
	// Through a CTE it is not: the analyzed plan reads a CTE by a leaf
	// reference, which the check does not look into.
	Chained bool
	// Distinct is the first aggregate call with DISTINCT of a streaming
	// aggregation (count(DISTINCT v)), which Spark refuses on streams;
	// "" when none.
	Distinct string
	// Intersect: an INTERSECT with a streaming side, which Spark refuses.
	Intersect bool
	// Unresolved is a function Spark's analyzer refuses before its
	// streaming check: a name Spark does not know (a Python UDF, which
	// Laktory 0.13.1 cannot register from YAML) or a distinct window
	// function; "" when none.
	Unresolved string
	// Aggregated: the query's result is the output of a streaming
	// aggregation (what a later step that aggregates again chains on).
	Aggregated bool
}

// AnalyzeStream parses a Spark SQL query and tells what Spark's streaming
// check sees of it. stream reports whether a placeholder ("df",
// "sources.x", "nodes.x") reads a stream; tables named in the text are
// batch tables. err is the parser's *Error when the text does not parse.
func AnalyzeStream(sql string, stream func(placeholder string) bool) (StreamPlan, error) {
	return AnalyzeStreamOver(sql, func(ph string) StreamPlan {
		return StreamPlan{Streaming: stream != nil && stream(ph)}
	})
}

// AnalyzeStreamOver is AnalyzeStream where a placeholder may read the
// output of a streaming aggregation (read(ph).Aggregated: {df} of a step
// after an aggregating one).
func AnalyzeStreamOver(sql string, read func(placeholder string) StreamPlan) (StreamPlan, error) {
	q, err := ParseQuery(sql)
	if err != nil {
		return StreamPlan{}, err
	}
	a := streamAnalysis{read: read}
	return a.query(q, nil), nil
}

// IsAggregate reports whether name is one of Spark 4.2's aggregate
// functions (the registry's group agg_funcs): the function table marks
// each, translated or not (TestStreamAggregateNames).
func IsAggregate(name string) bool {
	d := lookupFunc(strings.ToLower(name))
	return d != nil && d.agg
}

// Aggregates lists the functions the table marks as aggregates, sorted.
func Aggregates() []string {
	var out []string
	for name, d := range table() {
		if d.agg {
			out = append(out, name)
		}
	}
	sort.Strings(out)
	return out
}

type streamAnalysis struct {
	read func(string) StreamPlan
}

// merge folds the findings of an input into p (not Aggregated, which is
// the operator's own).
func (p *StreamPlan) merge(q StreamPlan) {
	p.Streaming = p.Streaming || q.Streaming
	p.Aggregate = p.Aggregate || q.Aggregate
	p.Chained = p.Chained || q.Chained
	p.Intersect = p.Intersect || q.Intersect
	if p.Distinct == "" {
		p.Distinct = q.Distinct
	}
	if p.Unresolved == "" {
		p.Unresolved = q.Unresolved
	}
}

// ctes are the CTEs in scope by lower-case name, innermost last.
type cteScope map[string]StreamPlan

func (a streamAnalysis) query(q *Query, outer cteScope) StreamPlan {
	sc := outer
	var defs StreamPlan // what the CTE definitions hold, read or not
	if len(q.With) > 0 {
		sc = cteScope{}
		for k, v := range outer {
			sc[k] = v
		}
		for _, c := range q.With {
			p := a.query(c.Query, sc)
			// A reference reads the CTE by a leaf (CTERelationRef): what
			// streams, not what the definition holds.
			sc[strings.ToLower(c.Name.Name)] = StreamPlan{Streaming: p.Streaming}
			// The analyzed plan keeps every CTE's definition, read or
			// not (WithCTE): an unread CTE's streaming aggregation counts.
			p.Streaming = false
			defs.merge(p)
		}
	}
	var order []Expr
	for _, o := range q.OrderBy {
		order = append(order, o.X)
	}
	p := a.body(q.Body, sc, order)
	p.merge(defs)
	return p
}

func (a streamAnalysis) body(b QueryExpr, sc cteScope, order []Expr) StreamPlan {
	switch n := b.(type) {
	case *Query:
		return a.query(n, sc)
	case *SetOp:
		l, r := a.body(n.L, sc, nil), a.body(n.R, sc, nil)
		var p StreamPlan
		p.merge(l)
		p.merge(r)
		switch {
		case p.Streaming && n.Op == "UNION" && !n.All:
			// a Distinct over the Union, as SELECT DISTINCT
			p.Chained = p.Chained || l.Aggregated || r.Aggregated
			p.Aggregate, p.Aggregated = true, true
		case n.Op == "UNION":
			p.Aggregated = l.Aggregated || r.Aggregated
		case n.Op == "INTERSECT" && p.Streaming:
			p.Intersect = true
		}
		return p
	case *Select:
		var p StreamPlan
		input := false // an input is a streaming aggregation's output
		for _, t := range n.From {
			f := a.table(t, sc)
			p.merge(f)
			input = input || f.Aggregated
		}
		p.Unresolved = firstString(p.Unresolved, unresolvedCall(n, order))
		if p.Streaming && (n.Distinct || selectAggregates(n, order)) {
			p.Aggregate, p.Aggregated = true, true
			p.Chained = p.Chained || input
			p.Distinct = firstString(p.Distinct, distinctAggregate(n, order))
		} else {
			p.Aggregated = input
		}
		return p
	}
	return StreamPlan{} // VALUES
}

func (a streamAnalysis) table(t TableExpr, sc cteScope) StreamPlan {
	switch n := t.(type) {
	case *TableName:
		if n.Placeholder != "" {
			if a.read == nil {
				return StreamPlan{}
			}
			in := a.read(n.Placeholder)
			return StreamPlan{Streaming: in.Streaming, Aggregated: in.Streaming && in.Aggregated}
		}
		if len(n.Parts) == 1 {
			if p, ok := sc[strings.ToLower(n.Parts[0].Name)]; ok {
				return p
			}
		}
		return StreamPlan{} // a catalog table: batch
	case *DerivedTable:
		return a.query(n.Query, sc)
	case *Join:
		l, r := a.table(n.L, sc), a.table(n.R, sc)
		var p StreamPlan
		p.merge(l)
		p.merge(r)
		p.Aggregated = l.Aggregated || r.Aggregated
		return p
	}
	return StreamPlan{} // VALUES, table functions
}

// selectAggregates reports whether a SELECT block is an Aggregate: GROUP
// BY, or an aggregate function (not over a window) in its select list,
// HAVING or ORDER BY.
func selectAggregates(s *Select, order []Expr) bool {
	if s.GroupBy != nil || s.Having != nil {
		return true
	}
	found := false
	look := func(e Expr) {
		walkExpr(e, func(x Expr) bool {
			if c, ok := x.(*Call); ok && c.Over == nil && IsAggregate(c.Name.Name) {
				found = true
			}
			return !found
		})
	}
	for _, it := range s.Items {
		look(it.Expr)
	}
	for _, e := range order {
		look(e)
	}
	return found
}

func firstString(a, b string) string {
	if a != "" {
		return a
	}
	return b
}

// selectExprs are the expressions of a SELECT block that an aggregation
// evaluates: the select list, HAVING and ORDER BY.
func selectExprs(s *Select, order []Expr) []Expr {
	var out []Expr
	for _, it := range s.Items {
		out = append(out, it.Expr)
	}
	if s.Having != nil {
		out = append(out, s.Having)
	}
	return append(out, order...)
}

// distinctAggregate is the first aggregate call with DISTINCT (not over a
// window) of a SELECT block, as Spark names it ("count(DISTINCT v)").
func distinctAggregate(s *Select, order []Expr) string {
	found := ""
	for _, e := range selectExprs(s, order) {
		walkExpr(e, func(x Expr) bool {
			if c, ok := x.(*Call); ok && c.Distinct && c.Over == nil && IsAggregate(c.Name.Name) {
				found = strings.ToLower(c.Name.Name) + "(DISTINCT ...)"
			}
			return found == ""
		})
	}
	return found
}

// unresolvedCall is the first call of a SELECT block that Spark's
// analyzer refuses before its streaming check: a function Spark 4.2 does
// not have, or a distinct window function.
func unresolvedCall(s *Select, order []Expr) string {
	exprs := selectExprs(s, order)
	if s.Where != nil {
		exprs = append(exprs, s.Where)
	}
	for _, lv := range s.Laterals {
		exprs = append(exprs, lv.Func)
	}
	found := ""
	for _, e := range exprs {
		walkExpr(e, func(x Expr) bool {
			c, ok := x.(*Call)
			if !ok {
				return true
			}
			name := strings.ToLower(c.Name.Name)
			switch {
			case c.Syntax == "" && lookupFunc(name) == nil && !sparkFunctions()[name]:
				found = "[UNRESOLVED_ROUTINE] Cannot resolve routine `" + c.Name.Name + "`"
			case c.Distinct && c.Over != nil:
				found = "[DISTINCT_WINDOW_FUNCTION_UNSUPPORTED] Distinct window functions are not supported: " + name + "(DISTINCT ...) OVER (...)"
			}
			return found == ""
		})
	}
	return found
}
