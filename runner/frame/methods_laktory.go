package frame

import (
	"fmt"
	"regexp"
	"strings"
)

// Laktory 0.13.1's DataFrame namespace (laktory.*, on narwhals frames):
// laktory/narwhals_ext/dataframe/.

const lazyOrderByMsg = "ValueError: Argument `order_by` is required for LazyFrames. Lazy evaluation does not guarantee row order, so an explicit sort column must be provided to produce deterministic results. Pass one or more column names, e.g. `order_by='timestamp'` or `order_by=['date', 'id']`."

func init() {
	regMethod(func(m *mcall) (*relation, error) {
		a, err := m.call.bind("others")
		if err != nil {
			return nil, err
		}
		return m.union(a.get("others"))
	}, "nw.LazyFrame.laktory.union")
	regMethod(func(m *mcall) (*relation, error) {
		a, err := m.call.bind("partition_by, order_by=None, drop_row_index=True, row_index_name='_row_index', rows_to_keep=1")
		if err != nil {
			return nil, err
		}
		k, ok := a.get("rows_to_keep").(int64)
		if !ok {
			return nil, laktoryErr(-1, "TypeError: '<' not supported between instances of '%s' and 'int'", pyType(a.get("rows_to_keep")))
		}
		if k < 1 {
			return nil, laktoryErr(-1, "ValueError: `rows_to_keep` must be >= 1")
		}
		name := a.str("row_index_name")
		r, err := m.lkRowIndex(name, a.get("order_by"), a.get("partition_by"))
		if err != nil {
			return nil, err
		}
		idx := quoteIdent(name)
		var keep []column
		for _, c := range r.cols {
			if c.name != name || !a.boolean("drop_row_index") {
				keep = append(keep, c)
			}
		}
		q := fmt.Sprintf("SELECT %s FROM %s WHERE %s <= %d", identList(namesOf(keep)), r.sql, idx, k-1)
		return sub(q, keep, m.in.spark), nil
	}, "nw.LazyFrame.laktory.window_filter")
	regMethod(func(m *mcall) (*relation, error) {
		a, err := m.call.bind("name='index', order_by=None, partition_by=None")
		if err != nil {
			return nil, err
		}
		return m.lkRowIndex(a.str("name"), a.get("order_by"), a.get("partition_by"))
	}, "nw.LazyFrame.laktory.with_row_index")
	regMethod(func(m *mcall) (*relation, error) {
		a, err := m.call.bind("groupby_columns=None, agg_expressions=None")
		if err != nil {
			return nil, err
		}
		return m.groupbyAndAgg(a)
	}, "nw.LazyFrame.laktory.groupby_and_agg")
}

// union is laktory.union(others): narwhals' concat of the frames
// (vertical: the same columns in the same order).
func (m *mcall) union(v value) (*relation, error) {
	var others []value
	if elts, ok := elements(v); ok {
		others = elts
	} else {
		others = []value{v}
	}
	parts := []string{"SELECT * FROM " + m.in.sql}
	for _, o := range others {
		f, ok := o.(*frameVal)
		if !ok {
			types := []string{"<class 'narwhals.dataframe.LazyFrame'>"}
			for _, x := range others {
				if _, isFrame := x.(*frameVal); isFrame {
					types = append(types, "<class 'narwhals.dataframe.LazyFrame'>")
				} else {
					types = append(types, "<class '"+pyType(x)+"'>")
				}
			}
			e := laktoryErr(-1, "TypeError: The items to concatenate should either all be eager, or all lazy, got: [%s]", strings.Join(types, ", "))
			if _, isStr := o.(string); isStr {
				e.Hint = "Laktory does not evaluate the items of a list: pass one DataFrame reference, \"{nodes.x}\", per union step"
			}
			return nil, e
		}
		if err := m.sameSchema(f.rel); err != nil {
			return nil, err
		}
		parts = append(parts, "SELECT * FROM "+f.rel.sql)
	}
	return sub(strings.Join(parts, " UNION ALL "), m.in.cols, m.in.spark), nil
}

// sameSchema is concat's check of a frame against the input.
func (m *mcall) sameSchema(r *relation) error {
	same := len(r.cols) == len(m.in.cols)
	for i := 0; same && i < len(r.cols); i++ {
		same = r.cols[i].name == m.in.cols[i].name
		if same && !m.in.spark {
			same = r.cols[i].t.Equal(m.in.cols[i].t)
		}
	}
	if same {
		return nil
	}
	if m.in.spark {
		return laktoryErr(-1, "TypeError: unable to vstack, column names don't match: - dataframe 0: %s - dataframe 1: %s", pyNames(m.in.names()), pyNames(r.names()))
	}
	return laktoryErr(-1, "InvalidOperationError: 'union'/'concat' inputs should all have the same schema, got %s and %s", schemaText(m.in), schemaText(r))
}

func pyNames(ns []string) string {
	q := make([]string, len(ns))
	for i, n := range ns {
		q[i] = pyStr(n)
	}
	return "[" + strings.Join(q, ", ") + "]"
}

func schemaText(r *relation) string {
	var parts []string
	for _, c := range r.cols {
		parts = append(parts, c.name+": "+c.t.String())
	}
	return "{" + strings.Join(parts, ", ") + "}"
}

// lkRowIndex is laktory.with_row_index: a cum_count over the partitions
// (the whole frame without) ordered by order_by, minus 1, appended.
func (m *mcall) lkRowIndex(name string, orderBy, partitionBy value) (*relation, error) {
	if orderBy == nil {
		return nil, laktoryErr(-1, "%s", lazyOrderByMsg)
	}
	var part []string
	if partitionBy != nil {
		var err error
		if part, err = m.names([]value{partitionBy}, "with_row_index"); err != nil {
			return nil, err
		}
		for _, p := range part {
			if _, ok := m.in.find(p); !ok {
				return nil, m.in.notFound("nw", p, -1)
			}
		}
	}
	t := dUInt32
	if m.in.spark {
		return m.spRowIndex(name, orderBy, part)
	}
	return m.rowIndex(name, orderBy, part, t, false, 0)
}

// sqlTypeGuess is DataFrameColumnExpr's guess of an expression's type:
// DF when it calls a method (x.y() ) or names lit(, col(, F., nw., pl.
var dfCallRe = regexp.MustCompile(`\w+\.\w+\(`)

func guessDF(s string) bool {
	clean := strings.ReplaceAll(strings.TrimSpace(s), "\n", " ")
	if dfCallRe.MatchString(clean) {
		return true
	}
	for _, k := range []string{"lit(", "col(", "F.", "nw.", "pl."} {
		if strings.Contains(clean, k) {
			return true
		}
	}
	return false
}

// aggItem evaluates one agg_expressions item as DataFrameColumnExpr
// does: a string, or a dict with `expr` (and `type`); a DF expression is
// evaluated with narwhals' names, SQL with Laktory's sql_expr.
func (m *mcall) aggItem(ev *evaluator, it value) (value, error) {
	var text string
	typ := ""
	switch x := it.(type) {
	case string:
		text = x
	case *pyDict:
		for i, k := range x.keys {
			ks, _ := k.(string)
			switch ks {
			case "expr":
				s, ok := x.vals[i].(string)
				if !ok {
					return nil, laktoryErr(-1, "ValidationError: 1 validation error for DataFrameColumnExpr | expr | Input should be a valid string [type=string_type, input_value=%s]", repr(x.vals[i]))
				}
				text = s
			case "type":
				s, _ := x.vals[i].(string)
				if s != "SQL" && s != "DF" {
					return nil, laktoryErr(-1, "ValidationError: 1 validation error for DataFrameColumnExpr | type | Input should be 'SQL' or 'DF' [type=literal_error, input_value=%s]", repr(x.vals[i]))
				}
				typ = s
			default:
				e := laktoryErr(-1, "ValidationError: 1 validation error for DataFrameColumnExpr | %s | Extra inputs are not permitted [type=extra_forbidden, input_value=%s, input_type=%s]", ks, repr(x.vals[i]), pyType(x.vals[i]))
				if ks == "name" {
					e.Hint = "Laktory 0.13.1's items are {expr: ...}: name the result with .alias(\"...\") in the expression"
				}
				return nil, e
			}
		}
		if text == "" {
			return nil, laktoryErr(-1, "ValidationError: 1 validation error for DataFrameColumnExpr | expr | Field required [type=missing]")
		}
	case Expr, *whenChain:
		return x, nil
	default:
		return nil, laktoryErr(-1, "TypeError: agg_expressions items are strings or {expr: ...}, got %s", pyType(it))
	}
	if typ == "" {
		typ = "SQL"
		if guessDF(text) {
			typ = "DF"
		}
	}
	text = strings.ReplaceAll(text, "\n", " ")
	if typ == "SQL" {
		return ev.sqlExpr(text, "laktory.sql_expr", -1)
	}
	n, err := Parse(text)
	if err != nil {
		if se, ok := err.(*syntaxError); ok {
			return nil, laktoryErr(se.pos, "SyntaxError: %s", se.msg)
		}
		return nil, err
	}
	return ev.eval(n)
}

// groupbyAndAgg is laktory.groupby_and_agg(groupby_columns, agg_expressions):
// narwhals' group_by(groupby_columns).agg(*aggs).
func (m *mcall) groupbyAndAgg(a *args) (*relation, error) {
	if a.get("agg_expressions") == nil {
		return nil, laktoryErr(-1, "ValueError: `agg_expressions` must be specified")
	}
	var groups []string
	if g := a.get("groupby_columns"); g != nil {
		var err error
		if groups, err = m.names([]value{g}, "groupby_and_agg"); err != nil {
			return nil, err
		}
	}
	items, ok := elements(a.get("agg_expressions"))
	if !ok {
		items = []value{a.get("agg_expressions")}
	}
	// The items are evaluated with narwhals' names (DataFrameColumnExpr
	// without a parent uses Laktory's default API).
	ev := m.c.newEvaluator(Narwhals, m.in)
	var aggs []value
	for i, it := range items {
		v, err := m.aggItem(ev, it)
		if err != nil {
			return nil, at(err, fmt.Sprintf("%s[%d]", m.kwArg["agg_expressions"], i))
		}
		aggs = append(aggs, v)
	}
	if m.in.spark {
		return m.spGroupBy(ev, groups, aggs)
	}
	if len(groups) == 0 {
		return nil, laktoryErr(-1, "ComputeError: at least one key is required in a group_by operation")
	}
	e := ev.eng.(*plEngine)
	var sel, by []string
	var cols []column
	for _, g := range groups {
		c, ok := m.in.find(g)
		if !ok {
			return nil, m.in.notFound("nw", g, -1)
		}
		sel = append(sel, quoteIdent(c.name))
		by = append(by, quoteIdent(c.name))
		cols = append(cols, c)
	}
	seen := map[string]bool{}
	for _, g := range groups {
		seen[g] = true
	}
	for i, v := range aggs {
		where := fmt.Sprintf("%s[%d]", m.kwArg["agg_expressions"], i)
		x, err := e.methodArg("nw", v)
		if err != nil {
			return nil, at(err, where)
		}
		xs := x.each()
		for _, y := range xs {
			if !y.agg && !y.lit {
				return nil, at(laktoryErr(-1, "InvalidOperationError: Non-aggregating expressions are not supported in `group_by().agg()`: %s (aggregate it, e.g. .sum(), .first())", y.name), where)
			}
			if seen[y.name] {
				return nil, at(laktoryErr(-1, "DuplicateError: column with name '%s' has more than one occurrence", y.name), where)
			}
			seen[y.name] = true
			s, err := e.resolve(y.sql, nil, "", true)
			if err == errOrderDependent {
				return nil, at(laktoryErr(-1, "%s", orderDependentMsg), where)
			}
			if err != nil {
				return nil, err
			}
			sel = append(sel, typedSQL(s, y)+" AS "+quoteIdent(y.name))
			cols = append(cols, column{name: y.name, t: y.t})
		}
	}
	q := "SELECT " + strings.Join(sel, ", ") + " FROM " + m.in.sql + " GROUP BY " + strings.Join(by, ", ")
	return sub(q, cols, false), nil
}
