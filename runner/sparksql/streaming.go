package sparksql

import "strings"

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
}

// AnalyzeStream parses a Spark SQL query and tells what Spark's streaming
// check sees of it. stream reports whether a placeholder ("df",
// "sources.x", "nodes.x") reads a stream; tables named in the text are
// batch tables. err is the parser's *Error when the text does not parse.
func AnalyzeStream(sql string, stream func(placeholder string) bool) (StreamPlan, error) {
	q, err := ParseQuery(sql)
	if err != nil {
		return StreamPlan{}, err
	}
	a := streamAnalysis{stream: stream}
	return a.query(q, nil), nil
}

// IsAggregate reports whether name is one of Spark 4.2's aggregate
// functions (the registry's group agg_funcs).
func IsAggregate(name string) bool {
	name = strings.ToLower(name)
	if d := lookupFunc(name); d != nil && d.agg {
		return true
	}
	return extraAggregates[name]
}

// extraAggregates are Spark 4.2's aggregate functions the function table
// does not mark as such (those it does not translate, and a few it
// translates by rewriting), from the registry's agg_funcs
// (TestStreamAggregateNames).
var extraAggregates = map[string]bool{
	"approx_count_distinct": true, "approx_percentile": true, "approx_top_k": true,
	"approx_top_k_accumulate": true, "approx_top_k_combine": true, "bit_and": true, "bit_or": true,
	"bit_xor": true, "bitmap_and_agg": true, "bitmap_construct_agg": true, "bitmap_or_agg": true,
	"count_min_sketch": true, "histogram_numeric": true, "hll_sketch_agg": true, "hll_union_agg": true,
	"kll_merge_agg_bigint": true, "kll_merge_agg_double": true, "kll_merge_agg_float": true,
	"kll_sketch_agg_bigint": true, "kll_sketch_agg_double": true, "kll_sketch_agg_float": true,
	"kurtosis": true, "listagg": true, "measure": true, "percentile_approx": true, "regr_avgx": true,
	"regr_avgy": true, "regr_count": true, "regr_intercept": true, "regr_r2": true, "regr_slope": true,
	"regr_sxx": true, "regr_sxy": true, "regr_syy": true, "skewness": true, "string_agg": true,
	"theta_intersection_agg": true, "theta_sketch_agg": true, "theta_union_agg": true,
	"tuple_intersection_agg_double": true, "tuple_intersection_agg_integer": true,
	"tuple_sketch_agg_double": true, "tuple_sketch_agg_integer": true, "tuple_union_agg_double": true,
	"tuple_union_agg_integer": true,
}

type streamAnalysis struct {
	stream func(string) bool
}

// ctes are the CTEs in scope by lower-case name, innermost last.
type cteScope map[string]StreamPlan

func (a streamAnalysis) query(q *Query, outer cteScope) StreamPlan {
	sc := outer
	cteAgg := false
	if len(q.With) > 0 {
		sc = cteScope{}
		for k, v := range outer {
			sc[k] = v
		}
		for _, c := range q.With {
			p := a.query(c.Query, sc)
			sc[strings.ToLower(c.Name.Name)] = p
			// The analyzed plan keeps every CTE's definition, read or
			// not (WithCTE): an unread CTE's streaming aggregation counts.
			cteAgg = cteAgg || p.Aggregate
		}
	}
	var order []Expr
	for _, o := range q.OrderBy {
		order = append(order, o.X)
	}
	p := a.body(q.Body, sc, order)
	p.Aggregate = p.Aggregate || cteAgg
	return p
}

func (a streamAnalysis) body(b QueryExpr, sc cteScope, order []Expr) StreamPlan {
	switch n := b.(type) {
	case *Query:
		return a.query(n, sc)
	case *SetOp:
		l, r := a.body(n.L, sc, nil), a.body(n.R, sc, nil)
		p := StreamPlan{Streaming: l.Streaming || r.Streaming, Aggregate: l.Aggregate || r.Aggregate}
		if p.Streaming && n.Op == "UNION" && !n.All {
			p.Aggregate = true // a Distinct over the Union, as SELECT DISTINCT
		}
		return p
	case *Select:
		var p StreamPlan
		for _, t := range n.From {
			f := a.table(t, sc)
			p.Streaming = p.Streaming || f.Streaming
			p.Aggregate = p.Aggregate || f.Aggregate
		}
		if p.Streaming && (n.Distinct || selectAggregates(n, order)) {
			p.Aggregate = true
		}
		return p
	}
	return StreamPlan{} // VALUES
}

func (a streamAnalysis) table(t TableExpr, sc cteScope) StreamPlan {
	switch n := t.(type) {
	case *TableName:
		if n.Placeholder != "" {
			return StreamPlan{Streaming: a.stream != nil && a.stream(n.Placeholder)}
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
		return StreamPlan{Streaming: l.Streaming || r.Streaming, Aggregate: l.Aggregate || r.Aggregate}
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
