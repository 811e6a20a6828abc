package polarssql

import (
	"fmt"
	"math/big"
	"strconv"
	"strings"

	"github.com/laktory/workbench/runner/dialect"
	"github.com/laktory/workbench/runner/sqlfront"
)

// UNNEST as polars 1.32.0's SQLContext computes it.
//
// In the select list, UNNEST(xs) of a List column is polars' explode: a
// row per element, a NULL list and an empty list one NULL row each, the
// element's dtype, named after the column; every UNNEST of the list must
// be of one column, and nothing else of the rows may be selected beside
// it (polars fails with a ShapeError unless each list has one element).
// UNNEST of a literal array ([1, 2], ARRAY['a']) is a column of its
// values whatever the FROM (unaliased: named ""), beside constants and
// other literal arrays of its length. UNNEST of another dtype is its
// argument. In FROM, UNNEST([...], ...) AS t(a, ...) is a relation of a
// column per literal array.

// unnestScope is what the select list's UNNEST calls resolve to: the
// column of the exploded relation each call reads.
type unnestScope map[*sqlfront.Call]*rx

// isUnnest reports whether e is a call of UNNEST.
func isUnnest(e sqlfront.Expr) (*sqlfront.Call, bool) {
	c, ok := e.(*sqlfront.Call)
	return c, ok && strings.EqualFold(c.Name.Name, "unnest") && c.Syntax == "" && c.Over == nil
}

// isArrayLiteral reports whether e is [a, b] or ARRAY[a, b].
func isArrayLiteral(e sqlfront.Expr) (*sqlfront.Call, bool) {
	c, ok := e.(*sqlfront.Call)
	return c, ok && c.Syntax == "BRACKETS"
}

// walkUnnest calls f on every UNNEST call below root and on every column
// reference outside one (out); subqueries are not entered.
func walkUnnest(root any, f func(c *sqlfront.Call), out func(cr *sqlfront.ColumnRef)) {
	sqlfront.Inspect(root, func(node any) bool {
		switch n := node.(type) {
		case *sqlfront.ColumnRef:
			out(n)
			return false
		case *sqlfront.Subquery, *sqlfront.Query, *sqlfront.Exists, *sqlfront.InQuery, *sqlfront.Lambda:
			return false
		case *sqlfront.Call:
			if _, ok := isUnnest(n); ok {
				f(n)
				return false
			}
		}
		return true
	})
}

// litArray is a literal array's values as DuckDB literals of its dtype.
type litArray struct {
	t    *Type // the element dtype (Null when every value is NULL)
	vals []string
}

// selectsUnnest reports whether a select list calls UNNEST.
func selectsUnnest(s *sqlfront.Select) bool {
	found := false
	for _, it := range s.Items {
		walkUnnest(it.Expr, func(*sqlfront.Call) { found = true }, func(*sqlfront.ColumnRef) {})
	}
	return found
}

// arrayLiteral evaluates [a, b, ...] as polars builds its Series: the
// first non-null value's dtype (Int64, Float64, String, Boolean), which
// every other value must have.
func arrayLiteral(c *sqlfront.Call) (*litArray, error) {
	out := &litArray{t: tNull}
	type val struct {
		t    *Type
		sql  string
		text string // as polars prints the value in its SchemaError
	}
	var vs []val
	for _, a := range c.Args {
		e, neg := a, false
		if u, ok := e.(*sqlfront.Unary); ok && (u.Op == "-" || u.Op == "+") {
			e, neg = u.X, u.Op == "-"
		}
		lit, ok := e.(*sqlfront.Literal)
		if !ok || neg && lit.Kind != sqlfront.LitInt && lit.Kind != sqlfront.LitDecimal {
			return nil, unsupported(a.Pos(), "write the array's values as literals", "this array element in Polars SQL (polars 1.32.0 takes literal values only)")
		}
		digits := strings.TrimPrefix(lit.Value, "-")
		neg = neg != strings.HasPrefix(lit.Value, "-")
		switch lit.Kind {
		case sqlfront.LitNull:
			vs = append(vs, val{})
		case sqlfront.LitBool:
			s := strings.ToLower(lit.Value)
			vs = append(vs, val{tBool, s, s})
		case sqlfront.LitString:
			vs = append(vs, val{tString, "'" + strings.ReplaceAll(lit.Value, "'", "''") + "'", strconv.Quote(lit.Value)})
		case sqlfront.LitInt:
			n, ok := new(big.Int).SetString(digits, 10)
			if !ok || !n.IsInt64() {
				return nil, rejected(lit.P, "SQLInterfaceError", "cannot parse literal: %q", digits)
			}
			if neg {
				n.Neg(n)
			}
			vs = append(vs, val{tInt64, n.String(), n.String()})
		case sqlfront.LitDecimal:
			f, err := strconv.ParseFloat(digits, 64)
			if err != nil || strings.ContainsAny(digits, "eE") {
				return nil, rejected(lit.P, "SQLInterfaceError", "cannot parse literal: %q", digits)
			}
			if neg {
				f = -f
			}
			text := strconv.FormatFloat(f, 'f', -1, 64)
			if !strings.Contains(text, ".") {
				text += ".0"
			}
			vs = append(vs, val{tFloat64, "CAST('" + strconv.FormatFloat(f, 'g', -1, 64) + "' AS DOUBLE)", text})
		case sqlfront.LitDouble:
			return nil, rejected(lit.P, "SQLInterfaceError", "cannot parse literal: %q", lit.Value)
		default:
			return nil, unsupported(a.Pos(), "", "this array element in Polars SQL")
		}
	}
	for _, v := range vs {
		if v.t != nil {
			out.t = v.t
			break
		}
	}
	for _, v := range vs {
		switch {
		case v.t == nil:
			out.vals = append(out.vals, "NULL")
		case v.t != out.t:
			return nil, rejected(c.P, "SchemaError", "unexpected value while building Series of type %s; found value of type %s: %s", out.t, v.t, v.text)
		default:
			out.vals = append(out.vals, v.sql)
		}
	}
	return out, nil
}

// list is the array as a DuckDB list of its dtype.
func (a *litArray) list() string {
	vals := make([]string, len(a.vals))
	for i, v := range a.vals {
		vals[i] = "CAST(" + v + " AS " + a.t.DuckDB() + ")"
	}
	return "CAST([" + strings.Join(vals, ", ") + "] AS " + a.t.DuckDB() + "[])"
}

// unnestSelect is the relation a select list holding UNNEST reads: the
// FROM's rows (filtered by WHERE) exploded by the list column, or the
// literal arrays side by side. It returns the scope the select list is
// resolved in, and the relation.
func (r *resolver) unnestSelect(s *sqlfront.Select, sc *scope, from, where string) (*scope, string, error) {
	var calls []*sqlfront.Call
	var outside []*sqlfront.ColumnRef
	for _, it := range s.Items {
		if st, ok := it.Expr.(*sqlfront.Star); ok {
			return nil, "", unsupported(st.P, "", "* beside UNNEST in Polars SQL")
		}
		walkUnnest(it.Expr, func(c *sqlfront.Call) { calls = append(calls, c) }, func(cr *sqlfront.ColumnRef) { outside = append(outside, cr) })
	}
	if s.GroupBy != nil {
		return nil, "", unsupported(s.GroupBy.P, "unnest in a step before the grouping", "UNNEST in a grouped query in Polars SQL")
	}
	a := r.alias()
	us := unnestScope{}
	var items []string
	var colSQL string // the list column's SQL exploded
	var lits []*litArray
	var litCalls []*sqlfront.Call
	for _, c := range calls {
		if len(c.Args) != 1 {
			return nil, "", rejected(c.P, "SQLSyntaxError", "UNNEST expects 1 argument(s), got %d", len(c.Args))
		}
		if arr, ok := isArrayLiteral(c.Args[0]); ok {
			la, err := arrayLiteral(arr)
			if err != nil {
				return nil, "", err
			}
			name := "__lk_u" + strconv.Itoa(len(lits))
			lits = append(lits, la)
			litCalls = append(litCalls, c)
			items = append(items, "unnest("+la.list()+") AS "+name)
			us[c] = &rx{t: la.t, sql: a + "." + name, name: ""}
			continue
		}
		x, err := r.expr(c.Args[0], sc, false)
		if err != nil {
			return nil, "", err
		}
		if x.t.Kind != List {
			continue // UNNEST of a value is the value
		}
		if x.agg {
			return nil, "", unsupported(c.P, "", "UNNEST of an aggregate in Polars SQL")
		}
		if colSQL != "" && colSQL != x.sql {
			return nil, "", unsupported(c.P, "unnest each list in a step of its own", "UNNEST of two lists in one select list (polars 1.32.0 fails with a ShapeError unless their lengths agree row by row)")
		}
		colSQL = x.sql
		us[c] = &rx{t: x.t.Elem, sql: a + ".__lk_u", name: x.name}
	}
	switch {
	case colSQL != "" && len(lits) > 0:
		return nil, "", unsupported(s.P, "", "UNNEST of a list column beside UNNEST of a literal array in Polars SQL")
	case len(outside) > 0 && (colSQL != "" || len(lits) > 0):
		return nil, "", unsupported(outside[0].P, "select the columns in a step of their own", "a column beside UNNEST (polars 1.32.0 fails with a ShapeError unless every list has one element)")
	}
	osc := &scope{unnest: us}
	if colSQL != "" {
		// polars' explode: a NULL or empty list is one NULL row.
		elem := us[firstUnnested(calls, us)].t.DuckDB()
		rel := fmt.Sprintf("(SELECT unnest(CASE WHEN %[1]s IS NULL OR len(%[1]s) = 0 THEN [CAST(NULL AS %[2]s)] ELSE %[1]s END) AS __lk_u FROM %[3]s%[4]s) AS %[5]s", colSQL, elem, from, where, a)
		return osc, rel, nil
	}
	if len(lits) == 0 {
		if from == "" {
			from = "(SELECT 1) AS " + a // SELECT UNNEST('a'): one row
		}
		return sc, from, nil
	}
	if where != "" {
		return nil, "", unsupported(s.Where.Pos(), "", "WHERE beside UNNEST of a literal array in Polars SQL")
	}
	// The frame's height is the longest array's: polars names the first
	// other one.
	height := 0
	for _, la := range lits {
		height = max(height, len(la.vals))
	}
	for i, la := range lits {
		if len(la.vals) != height {
			return nil, "", rejected(litCalls[i].P, "ShapeError", "Series length %d doesn't match the DataFrame height of %d", len(la.vals), height)
		}
	}
	return osc, "(SELECT " + strings.Join(items, ", ") + ") AS " + a, nil
}

func firstUnnested(calls []*sqlfront.Call, us unnestScope) *sqlfront.Call {
	for _, c := range calls {
		if _, ok := us[c]; ok {
			return c
		}
	}
	return nil
}

// unnestCall resolves UNNEST(x) outside a select list that explodes: of a
// value that is not a list, the value.
func (r *resolver) unnestCall(n *sqlfront.Call, sc *scope, grouped bool) (*rx, error) {
	if x, ok := sc.unnest[n]; ok {
		return x, nil
	}
	if len(n.Args) != 1 {
		return nil, rejected(n.P, "SQLSyntaxError", "UNNEST expects 1 argument(s), got %d", len(n.Args))
	}
	if _, ok := isArrayLiteral(n.Args[0]); ok {
		return nil, unsupported(n.P, "", "UNNEST of a literal array here in Polars SQL")
	}
	x, err := r.expr(n.Args[0], sc, grouped)
	if err != nil {
		return nil, err
	}
	if x.t.Kind == List {
		return nil, unsupported(n.P, "unnest in the select list", "UNNEST here in Polars SQL")
	}
	return x, nil
}

// unnestTable resolves UNNEST([...], ...) AS t(a, ...) in FROM: a column
// per literal array, as polars builds the frame.
func (r *resolver) unnestTable(n *sqlfront.TableFunc) (*scope, string, error) {
	switch {
	case n.Alias == nil:
		return nil, "", rejected(n.P, "SQLSyntaxError", "UNNEST table must have an alias")
	case len(n.Columns) == 0:
		return nil, "", rejected(n.P, "SQLSyntaxError", "UNNEST table alias must also declare column names, eg: t (a,b,c)")
	case len(n.Columns) != len(n.Func.Args):
		s := "s"
		if len(n.Func.Args) == 1 {
			s = ""
		}
		return nil, "", rejected(n.P, "SQLSyntaxError", "UNNEST table alias requires %d column name%s, found %d", len(n.Func.Args), s, len(n.Columns))
	}
	var arrays []*litArray
	for _, a := range n.Func.Args {
		arr, ok := isArrayLiteral(a)
		if !ok {
			return nil, "", unsupported(a.Pos(), "unnest a list column in the select list", "UNNEST in FROM of other than literal arrays (polars 1.32.0: Expected array expression)")
		}
		la, err := arrayLiteral(arr)
		if err != nil {
			return nil, "", err
		}
		arrays = append(arrays, la)
	}
	for i, la := range arrays[1:] {
		if len(la.vals) != len(arrays[0].vals) {
			return nil, "", rejected(n.P, "ShapeError", "could not create a new DataFrame: height of column '%s' (%d) does not match height of column '%s' (%d)", n.Columns[i+1].Name, len(la.vals), n.Columns[0].Name, len(arrays[0].vals))
		}
	}
	seen := map[string]bool{}
	for _, c := range n.Columns {
		if seen[c.Name] {
			return nil, "", rejected(n.P, "DuplicateError", "could not create a new DataFrame: column with name '%s' has more than one occurrence", c.Name)
		}
		seen[c.Name] = true
	}
	a := r.alias()
	sc := &scope{}
	var items []string
	for i, la := range arrays {
		name := dialect.QuoteIdent(n.Columns[i].Name)
		items = append(items, "unnest("+la.list()+") AS "+name)
		col := &column{name: n.Columns[i].Name, t: la.t, sql: a + "." + name, qual: n.Alias.Name}
		sc.cols = append(sc.cols, &scopeCol{column: col, starName: col.name})
	}
	return sc, "(SELECT " + strings.Join(items, ", ") + ") AS " + a, nil
}
