package sqlfront

import (
	"strings"
)

// pivot parses PIVOT (...) or UNPIVOT (...) after the FROM item te and
// returns the derived table it means, as Spark's analyzer rewrites it:
//
//	te PIVOT (agg1 [AS a1], ... FOR col IN (v1 [AS n1], ...))
//	  = SELECT * EXCEPT (the columns the aggregates and col read),
//	           agg1 FILTER (WHERE col <=> v1) AS n1_a1, ... FROM te GROUP BY ALL
//
// (one column per value and aggregate, value by value; named by the
// value alone when there is one aggregate), and
//
//	te UNPIVOT [INCLUDE | EXCLUDE NULLS] (v FOR n IN (c1 [AS a1], ...))
//	  = SELECT * EXCEPT (c1, ...), 'a1' AS n, c1 AS v FROM te [WHERE c1 IS NOT NULL]
//	    UNION ALL ...
//
// Forms it does not rewrite (several pivot columns, values that are not
// literals, multi-column UNPIVOT) are refused naming them.
func (p *parser) pivot(te TableExpr) (TableExpr, error) {
	kw := p.next()
	var q *Query
	var err error
	if kw.is("PIVOT") {
		q, err = p.pivotClause(te, kw.pos)
	} else {
		q, err = p.unpivotClause(te, kw.pos)
	}
	if err != nil {
		return nil, err
	}
	dt := &DerivedTable{Query: q, P: kw.pos}
	if dt.Alias, err = p.optAlias(); err != nil {
		return nil, err
	}
	return dt, nil
}

func (p *parser) pivotClause(te TableExpr, pos int) (*Query, error) {
	if err := p.expectOp("("); err != nil {
		return nil, err
	}
	type aggItem struct {
		call  *Call
		alias *Ident
	}
	var aggs []aggItem
	for {
		e, err := p.expr()
		if err != nil {
			return nil, err
		}
		call, ok := e.(*Call)
		if !ok || call.Over != nil {
			return nil, unsupported(e.Pos(), "", "a PIVOT value that is not an aggregate call")
		}
		var a *Ident
		if !p.peek().is("FOR") {
			if a, err = p.optAlias(); err != nil {
				return nil, err
			}
		}
		aggs = append(aggs, aggItem{call, a})
		if !p.acceptOp(",") {
			break
		}
	}
	if err := p.expect("FOR"); err != nil {
		return nil, err
	}
	if p.peek().isOp("(") {
		return nil, unsupported(p.peek().pos, "", "PIVOT over several columns")
	}
	col, err := p.columnRefOnly()
	if err != nil {
		return nil, err
	}
	if err := p.expect("IN"); err != nil {
		return nil, err
	}
	if err := p.expectOp("("); err != nil {
		return nil, err
	}
	type value struct {
		lit  Expr
		name string
	}
	var vals []value
	for {
		e, err := p.expr()
		if err != nil {
			return nil, err
		}
		name, ok := pivotValueName(e)
		if !ok {
			return nil, unsupported(e.Pos(), "", "a PIVOT value that is not a literal")
		}
		a, err := p.optAlias()
		if err != nil {
			return nil, err
		}
		if a != nil {
			name = a.Name
		}
		vals = append(vals, value{e, name})
		if !p.acceptOp(",") {
			break
		}
	}
	if err := p.expectOp(")"); err != nil {
		return nil, err
	}
	if err := p.expectOp(")"); err != nil {
		return nil, err
	}
	// The columns the aggregates and the pivot column read are not
	// grouped by.
	var read []*ColumnRef
	seen := map[string]bool{}
	add := func(c *ColumnRef) {
		k := strings.ToLower(identPath(c.Parts))
		if !seen[k] {
			seen[k] = true
			read = append(read, &ColumnRef{Parts: c.Parts, P: c.P})
		}
	}
	for _, a := range aggs {
		ok := true
		walkRefs(a.call, func(c *ColumnRef) { add(c) }, &ok)
		if !ok {
			return nil, unsupported(a.call.P, "", "a PIVOT aggregate with a subquery or a lambda")
		}
	}
	add(col)
	// Spark aggregates each (group, value) first where every aggregate
	// gives a number or a boolean (PivotFirst), and a combination
	// without rows is NULL; otherwise an aggregate reads the rows of its
	// value (a count of none is 0). Only counts tell the two apart: with
	// a count, the other aggregates must be of the known numeric ones.
	counts, others := false, false
	for _, a := range aggs {
		n := strings.ToLower(a.call.Name.Name)
		switch {
		case pivotCounts[n]:
			counts = true
		case !pivotNumeric[n]:
			others = true
		}
	}
	if counts && others {
		return nil, unsupported(pos, "pivot the counts and the other aggregates apart", "a PIVOT of a count beside an aggregate whose type decides how Spark pivots it")
	}
	items := []*SelectItem{{Expr: &Star{Except: read, P: pos}}}
	for _, v := range vals {
		for _, a := range aggs {
			c := *a.call
			cond := Expr(&Binary{Op: "<=>", L: &ColumnRef{Parts: col.Parts, P: col.P}, R: v.lit, P: pos})
			if c.Filter != nil {
				cond = &Binary{Op: "AND", L: c.Filter, R: cond, P: pos}
			}
			c.Filter = cond
			var out Expr = &c
			if pivotCounts[strings.ToLower(c.Name.Name)] {
				rows := &Call{Name: Ident{Name: "count", P: pos}, StarArg: true, Filter: &Binary{Op: "<=>", L: &ColumnRef{Parts: col.Parts, P: col.P}, R: v.lit, P: pos}, P: pos}
				out = &Case{Whens: []*When{{Cond: &Binary{Op: "=", L: rows, R: &Literal{Kind: LitInt, Value: "0", P: pos}, P: pos}, Result: &Literal{Kind: LitNull, P: pos}}}, Else: &c, P: pos}
			}
			name := v.name
			if len(aggs) > 1 {
				an := FormatExpr(a.call)
				if a.alias != nil {
					an = a.alias.Name
				}
				name += "_" + an
			}
			items = append(items, &SelectItem{Expr: out, Alias: &Ident{Name: name, Quoted: true, P: pos}})
		}
	}
	sel := &Select{Items: items, From: []TableExpr{te}, GroupBy: &GroupBy{All: true, P: pos}, P: pos}
	return &Query{Body: sel, P: pos}, nil
}

func (p *parser) unpivotClause(te TableExpr, pos int) (*Query, error) {
	exclude := true
	if p.accept("INCLUDE") {
		exclude = false
		if err := p.expect("NULLS"); err != nil {
			return nil, err
		}
	} else if p.accept("EXCLUDE") {
		if err := p.expect("NULLS"); err != nil {
			return nil, err
		}
	}
	if err := p.expectOp("("); err != nil {
		return nil, err
	}
	if p.peek().isOp("(") {
		return nil, unsupported(p.peek().pos, "", "UNPIVOT into several value columns")
	}
	val, err := p.ident()
	if err != nil {
		return nil, err
	}
	if err := p.expect("FOR"); err != nil {
		return nil, err
	}
	name, err := p.ident()
	if err != nil {
		return nil, err
	}
	if err := p.expect("IN"); err != nil {
		return nil, err
	}
	if err := p.expectOp("("); err != nil {
		return nil, err
	}
	type src struct {
		col   *ColumnRef
		label string
	}
	var cols []src
	for {
		if p.peek().isOp("(") {
			return nil, unsupported(p.peek().pos, "", "UNPIVOT of column tuples")
		}
		c, err := p.columnRefOnly()
		if err != nil {
			return nil, err
		}
		label := c.Parts[len(c.Parts)-1].Name
		a, err := p.optAlias()
		if err != nil {
			return nil, err
		}
		if a != nil {
			label = a.Name
		}
		cols = append(cols, src{c, label})
		if !p.acceptOp(",") {
			break
		}
	}
	if err := p.expectOp(")"); err != nil {
		return nil, err
	}
	if err := p.expectOp(")"); err != nil {
		return nil, err
	}
	var except []*ColumnRef
	for _, c := range cols {
		except = append(except, &ColumnRef{Parts: c.col.Parts, P: c.col.P})
	}
	var body QueryExpr
	for _, c := range cols {
		sel := &Select{
			Items: []*SelectItem{
				{Expr: &Star{Except: except, P: pos}},
				{Expr: &Literal{Kind: LitString, Value: c.label, P: pos}, Alias: &Ident{Name: name.Name, Quoted: name.Quoted, P: name.P}},
				{Expr: &ColumnRef{Parts: c.col.Parts, P: c.col.P}, Alias: &Ident{Name: val.Name, Quoted: val.Quoted, P: val.P}},
			},
			From: []TableExpr{te},
			P:    pos,
		}
		if exclude {
			sel.Where = &IsNull{X: &ColumnRef{Parts: c.col.Parts, P: c.col.P}, Not: true, P: pos}
		}
		if body == nil {
			body = sel
		} else {
			body = &SetOp{Op: "UNION", All: true, L: body, R: sel, P: pos}
		}
	}
	return &Query{Body: body, P: pos}, nil
}

// pivotValueName is the column name Spark gives a PIVOT value: a
// literal's value as a string.
func pivotValueName(e Expr) (string, bool) {
	neg := ""
	if u, ok := e.(*Unary); ok && u.Op == "-" {
		neg, e = "-", u.X
	}
	l, ok := e.(*Literal)
	if !ok {
		return "", false
	}
	switch l.Kind {
	case LitNull:
		return "null", neg == ""
	case LitString:
		return l.Value, neg == ""
	case LitBool:
		return strings.ToLower(l.Value), neg == ""
	case LitInt:
		return neg + l.Value, true
	}
	return "", false
}

func identPath(ids []Ident) string {
	var out []string
	for _, id := range ids {
		out = append(out, id.Name)
	}
	return strings.Join(out, ".")
}

// walkRefs calls f on every column reference below root; ok turns false
// at a subquery or a lambda (whose names are not the table's columns).
func walkRefs(root any, f func(*ColumnRef), ok *bool) {
	Inspect(root, func(node any) bool {
		switch n := node.(type) {
		case *ColumnRef:
			f(n)
			return false
		case *Subquery, *Lambda, *Query, *Exists, *InQuery:
			*ok = false
			return false
		}
		return true
	})
}

// pivotCounts are the aggregates whose result over no rows is not NULL
// (a BIGINT); pivotNumeric those whose result is a number, so that with
// them Spark pivots through PivotFirst.
var (
	pivotCounts  = map[string]bool{"count": true, "count_if": true, "regr_count": true}
	pivotNumeric = map[string]bool{
		"sum": true, "avg": true, "mean": true, "try_sum": true, "try_avg": true, "stddev": true, "stddev_samp": true,
		"stddev_pop": true, "std": true, "variance": true, "var_samp": true, "var_pop": true, "corr": true,
		"covar_pop": true, "covar_samp": true, "skewness": true, "kurtosis": true, "regr_slope": true,
		"regr_intercept": true, "regr_r2": true, "regr_sxx": true, "regr_syy": true, "regr_sxy": true,
		"bit_and": true, "bit_or": true, "bit_xor": true,
	}
)
