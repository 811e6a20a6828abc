package runner

import (
	"context"
	"fmt"
	"slices"
	"strings"

	"github.com/laktory/workbench/runner/dialect"
	"github.com/laktory/workbench/workspace"
)

// stepArgs are a func_name step's arguments: positional and by name,
// with where each comes from in the YAML.
type stepArgs struct {
	pos   []any
	kw    map[string]any
	posAt []origin
	kwAt  map[string]origin
}

func argsOf(st *workspace.Step) stepArgs {
	a := stepArgs{kw: map[string]any{}, kwAt: map[string]origin{}}
	what := fmt.Sprintf("transformer step #%d (%s)", st.Index+1, st.FuncName)
	at := func(x workspace.Arg) origin {
		_, scalar := x.Value.(string)
		return origin{what: what, at: x.Pos, exact: scalar}
	}
	for _, x := range st.FuncArgs {
		if x.Name == "" {
			a.pos = append(a.pos, x.Value)
			a.posAt = append(a.posAt, at(x))
		} else {
			a.kw[x.Name], a.kwAt[x.Name] = x.Value, at(x)
		}
	}
	for _, x := range st.FuncKwargs {
		a.kw[x.Name], a.kwAt[x.Name] = x.Value, at(x)
	}
	return a
}

// get returns the argument at position i or named one of names.
func (a stepArgs) get(i int, names ...string) (any, bool) {
	v, _, ok := a.getAt(i, names...)
	return v, ok
}

// getAt is get with the argument's origin.
func (a stepArgs) getAt(i int, names ...string) (any, origin, bool) {
	for _, n := range names {
		if v, ok := a.kw[n]; ok {
			return v, a.kwAt[n], true
		}
	}
	if i >= 0 && i < len(a.pos) {
		return a.pos[i], a.posAt[i], true
	}
	return nil, origin{}, false
}

// strings flattens the positional arguments from i (and the named ones)
// into strings: func(a, b), func([a, b]) and func(names=[a, b]) alike.
func (a stepArgs) strings(i int, names ...string) ([]string, error) {
	out, _, err := a.stringsAt(i, names...)
	return out, err
}

// stringsAt is strings with the origin of each string (a list item is
// placed at its list).
func (a stepArgs) stringsAt(i int, names ...string) ([]string, []origin, error) {
	var vals []any
	var ats []origin
	for _, n := range names {
		if v, ok := a.kw[n]; ok {
			vals, ats = append(vals, v), append(ats, a.kwAt[n])
		}
	}
	if i >= 0 && i < len(a.pos) {
		vals, ats = append(vals, a.pos[i:]...), append(ats, a.posAt[i:]...)
	}
	var out []string
	var outAt []origin
	var add func(v any, o origin) error
	add = func(v any, o origin) error {
		switch x := v.(type) {
		case string:
			out, outAt = append(out, x), append(outAt, o)
		case []any:
			o.exact = false
			for _, e := range x {
				if err := add(e, o); err != nil {
					return err
				}
			}
		case nil:
		default:
			return fmt.Errorf("%w: expected column names or SQL expressions, got %v", ErrStep, v)
		}
		return nil
	}
	for k, v := range vals {
		if err := add(v, ats[k]); err != nil {
			return nil, nil, err
		}
	}
	return out, outAt, nil
}

// funcSQL maps a func_name step to a SELECT over df. The supported names
// are validate.LocalFuncs; arguments are column names or SQL expressions.
func (c *compiler) funcSQL(ctx context.Context, st *workspace.Step, df string) (string, error) {
	a := argsOf(st)
	from := quoteIdent(df)
	name := strings.TrimPrefix(st.FuncName, "laktory.")
	switch name {
	case "select":
		exprs, ats, err := a.stringsAt(0, "columns", "exprs")
		if err != nil {
			return "", err
		}
		cols := make([]string, 0, len(exprs))
		for i, e := range exprs {
			x, err := c.columnExpr(ctx, e, df, ats[i])
			if err != nil {
				return "", err
			}
			cols = append(cols, x)
		}
		for _, k := range sortedKeys(a.kw) {
			if k == "columns" || k == "exprs" {
				continue
			}
			x, err := c.exprArg(ctx, a.kw[k], df, a.kwAt[k])
			if err != nil {
				return "", err
			}
			cols = append(cols, x+" AS "+quoteIdent(k))
		}
		if len(cols) == 0 {
			return "", fmt.Errorf("%w: select needs columns", ErrStep)
		}
		return fmt.Sprintf("SELECT %s FROM %s", strings.Join(cols, ", "), from), nil
	case "drop":
		cols, ats, err := a.stringsAt(0, "columns", "cols")
		if err != nil {
			return "", err
		}
		if len(cols) == 0 {
			return "", fmt.Errorf("%w: drop needs columns", ErrStep)
		}
		return fmt.Sprintf("SELECT * EXCLUDE (%s) FROM %s", c.identList(cols, ats), from), nil
	case "rename":
		m, at, ok := a.getAt(0, "mapping", "columns")
		mp, isMap := m.(map[string]any)
		if !ok {
			mp, isMap = map[string]any{}, true
			for k, v := range a.kw {
				mp[k] = v
			}
		}
		if !isMap || len(mp) == 0 {
			return "", fmt.Errorf("%w: rename needs a mapping {old: new}", ErrStep)
		}
		var rs []string
		for _, k := range sortedKeys(mp) {
			o := at
			if !ok {
				o = a.kwAt[k]
			}
			o.exact = false
			rs = append(rs, c.ident(k, o)+" AS "+quoteIdent(fmt.Sprint(mp[k])))
		}
		return fmt.Sprintf("SELECT * RENAME (%s) FROM %s", strings.Join(rs, ", "), from), nil
	case "filter", "where":
		preds, ats, err := a.stringsAt(0, "predicate", "condition", "predicates")
		if err != nil {
			return "", err
		}
		if len(preds) == 0 {
			return "", fmt.Errorf("%w: filter needs a SQL predicate", ErrStep)
		}
		for i, p := range preds {
			x, err := c.translate(ctx, dialect.Expression, p, df, ats[i])
			if err != nil {
				return "", err
			}
			preds[i] = "(" + x + ")"
		}
		return fmt.Sprintf("SELECT * FROM %s WHERE %s", from, strings.Join(preds, " AND ")), nil
	case "with_columns", "with_column":
		return c.withColumns(ctx, a, df)
	case "unique", "drop_duplicates", "distinct":
		subset, ats, err := a.stringsAt(0, "subset")
		if err != nil {
			return "", err
		}
		if len(subset) == 0 {
			return "SELECT DISTINCT * FROM " + from, nil
		}
		keep, _ := a.get(-1, "keep")
		if fmt.Sprint(keep) == "none" {
			return fmt.Sprintf("SELECT * FROM %s QUALIFY count(*) OVER (PARTITION BY %s) = 1", from, c.identList(subset, ats)), nil
		}
		return fmt.Sprintf("SELECT * FROM %s QUALIFY row_number() OVER (PARTITION BY %s) = 1", from, c.identList(subset, ats)), nil
	case "join":
		return c.join(ctx, a, df)
	case "union", "union_by_name", "concat":
		others, err := a.strings(0, "other", "others", "items")
		if err != nil {
			return "", err
		}
		if len(others) == 0 {
			return "", fmt.Errorf("%w: union needs another DataFrame: other: \"{nodes.x}\" or \"{sources.x}\"", ErrStep)
		}
		parts := []string{"SELECT * FROM " + from}
		for _, o := range others {
			v, err := c.resolveRef(ctx, o, df)
			if err != nil {
				return "", err
			}
			parts = append(parts, "SELECT * FROM "+quoteIdent(v))
		}
		return strings.Join(parts, " UNION ALL BY NAME "), nil
	case "sort", "order_by", "orderBy":
		by, ats, err := a.stringsAt(0, "by", "cols")
		if err != nil {
			return "", err
		}
		if len(by) == 0 {
			return "", fmt.Errorf("%w: sort needs columns", ErrStep)
		}
		desc, _ := a.get(-1, "descending")
		nullsLast, _ := a.get(-1, "nulls_last")
		terms := make([]string, len(by))
		for i, b := range by {
			x, err := c.columnExpr(ctx, b, df, ats[i])
			if err != nil {
				return "", err
			}
			terms[i] = x
			d := desc
			if l, ok := desc.([]any); ok && i < len(l) {
				d = l[i]
			}
			if truthy(d) {
				terms[i] += " DESC"
			} else {
				terms[i] += " ASC"
			}
			if truthy(nullsLast) {
				terms[i] += " NULLS LAST"
			} else {
				terms[i] += " NULLS FIRST"
			}
		}
		return fmt.Sprintf("SELECT * FROM %s ORDER BY %s", from, strings.Join(terms, ", ")), nil
	case "limit", "head":
		v, ok := a.get(0, "n", "num")
		n, isInt := v.(int64)
		if !ok {
			n, isInt = 5, true
		}
		if !isInt || n < 0 {
			return "", fmt.Errorf("%w: limit needs a number of rows, got %v", ErrStep, v)
		}
		return fmt.Sprintf("SELECT * FROM %s LIMIT %d", from, n), nil
	case "groupby_and_agg":
		return c.groupByAgg(ctx, a, df)
	}
	return "", fmt.Errorf("%w: func_name %s does not run locally (write it as an `expr:` SQL step)", ErrStep, st.FuncName)
}

// exprArg is an argument as a SQL expression over df: a string is an
// expression of the node's dialect (translated), other values literals.
func (c *compiler) exprArg(ctx context.Context, v any, df string, o origin) (string, error) {
	switch x := v.(type) {
	case string:
		return c.translate(ctx, dialect.Expression, x, df, o)
	case nil:
		return "NULL", nil
	case bool:
		return fmt.Sprintf("%t", x), nil
	case int64, float64:
		return fmt.Sprint(x), nil
	}
	return quoteString(fmt.Sprint(v)), nil
}

// columnExpr is a column name quoted, or an expression of the node's
// dialect over df, translated.
func (c *compiler) columnExpr(ctx context.Context, s, df string, o origin) (string, error) {
	if isIdent(s) {
		return c.ident(s, o), nil
	}
	return c.translate(ctx, dialect.Expression, s, df, o)
}

func (c *compiler) withColumns(ctx context.Context, a stepArgs, df string) (string, error) {
	named := map[string]any{}
	ats := map[string]origin{}
	for _, k := range sortedKeys(a.kw) {
		named[k], ats[k] = a.kw[k], a.kwAt[k]
	}
	// with_column(name, expr) (Spark's withColumn).
	if len(a.pos) == 2 {
		if n, ok := a.pos[0].(string); ok && isIdent(n) {
			named[n], ats[n] = a.pos[1], a.posAt[1]
		}
	} else {
		for i, p := range a.pos {
			if m, ok := p.(map[string]any); ok {
				o := a.posAt[i]
				o.exact = false
				for k, v := range m {
					named[k], ats[k] = v, o
				}
			}
		}
	}
	if len(named) == 0 {
		return "", fmt.Errorf("%w: with_columns needs name: SQL expression pairs", ErrStep)
	}
	cols, err := c.columns(ctx, df)
	if err != nil {
		return "", err
	}
	existing := columnNames(cols)
	var replace, add []string
	for _, k := range sortedKeys(named) {
		x, err := c.exprArg(ctx, named[k], df, ats[k])
		if err != nil {
			return "", err
		}
		e := "(" + x + ") AS " + quoteIdent(k)
		if slices.Contains(existing, k) {
			replace = append(replace, e)
		} else {
			add = append(add, e)
		}
	}
	sel := "*"
	if len(replace) > 0 {
		sel += " REPLACE (" + strings.Join(replace, ", ") + ")"
	}
	if len(add) > 0 {
		sel += ", " + strings.Join(add, ", ")
	}
	return fmt.Sprintf("SELECT %s FROM %s", sel, quoteIdent(df)), nil
}

// join maps narwhals' join(other, on, how, left_on, right_on, suffix).
func (c *compiler) join(ctx context.Context, a stepArgs, df string) (string, error) {
	o, ok := a.get(0, "other")
	other, isStr := o.(string)
	if !ok || !isStr {
		return "", fmt.Errorf("%w: join needs other: \"{nodes.x}\" or \"{sources.x}\"", ErrStep)
	}
	rv, err := c.resolveRef(ctx, other, df)
	if err != nil {
		return "", err
	}
	on, onAt, err := a.stringsAt(-1, "on")
	if err != nil {
		return "", err
	}
	if len(on) == 0 && len(a.pos) > 1 {
		if on, onAt, err = a.stringsAt(1); err != nil {
			return "", err
		}
	}
	leftOn, leftAt, err := a.stringsAt(-1, "left_on")
	if err != nil {
		return "", err
	}
	rightOn, rightAt, err := a.stringsAt(-1, "right_on")
	if err != nil {
		return "", err
	}
	how := "inner"
	if h, ok := a.get(-1, "how"); ok {
		how = strings.ToLower(fmt.Sprint(h))
	}
	suffix := "_right"
	if s, ok := a.get(-1, "suffix"); ok {
		suffix = fmt.Sprint(s)
	}
	if len(on) > 0 {
		leftOn, rightOn, leftAt, rightAt = on, on, onAt, onAt
	}
	if len(leftOn) != len(rightOn) || (len(leftOn) == 0 && how != "cross") {
		return "", fmt.Errorf("%w: join needs `on`, or `left_on` and `right_on` of the same length", ErrStep)
	}
	kind, ok := map[string]string{"inner": "INNER JOIN", "left": "LEFT JOIN", "right": "RIGHT JOIN", "full": "FULL JOIN",
		"outer": "FULL JOIN", "semi": "SEMI JOIN", "anti": "ANTI JOIN", "cross": "CROSS JOIN"}[how]
	if !ok {
		return "", fmt.Errorf("%w: join how=%q is not one of inner, left, right, full, semi, anti, cross", ErrStep, how)
	}
	lcols, err := c.columns(ctx, df)
	if err != nil {
		return "", err
	}
	rcols, err := c.columns(ctx, rv)
	if err != nil {
		return "", err
	}
	cond := make([]string, len(leftOn))
	for i := range leftOn {
		cond[i] = "l." + c.ident(leftOn[i], leftAt[i]) + " = r." + c.ident(rightOn[i], rightAt[i])
	}
	// Output: the left columns (the join keys coalesced for full joins),
	// then the right columns that are not join keys (suffixed on clashes).
	var sel []string
	lnames := columnNames(lcols)
	for _, lc := range lnames {
		if i := slices.Index(leftOn, lc); i >= 0 && (how == "full" || how == "outer" || how == "right") && on != nil {
			sel = append(sel, fmt.Sprintf("coalesce(l.%s, r.%s) AS %s", quoteIdent(lc), quoteIdent(rightOn[i]), quoteIdent(lc)))
			continue
		}
		sel = append(sel, "l."+quoteIdent(lc))
	}
	if how != "semi" && how != "anti" {
		for _, rc := range columnNames(rcols) {
			if slices.Contains(rightOn, rc) && how != "cross" {
				continue
			}
			alias := rc
			if slices.Contains(lnames, rc) {
				alias = rc + suffix
			}
			sel = append(sel, "r."+quoteIdent(rc)+" AS "+quoteIdent(alias))
		}
	}
	q := fmt.Sprintf("SELECT %s FROM %s AS l %s %s AS r", strings.Join(sel, ", "), quoteIdent(df), kind, quoteIdent(rv))
	if how != "cross" {
		q += " ON " + strings.Join(cond, " AND ")
	}
	return q, nil
}

// groupByAgg maps laktory.groupby_and_agg(groupby_columns, agg_expressions
// [{name, expr}], groupby_window {time_column, window_duration}) with SQL
// aggregate expressions.
func (c *compiler) groupByAgg(ctx context.Context, a stepArgs, df string) (string, error) {
	from := quoteIdent(df)
	groups, groupsAt, err := a.stringsAt(-1, "groupby_columns")
	if err != nil {
		return "", err
	}
	aggs, aggsAt, _ := a.getAt(-1, "agg_expressions")
	aggsAt.exact = false
	list, ok := aggs.([]any)
	if !ok || len(list) == 0 {
		return "", fmt.Errorf("%w: laktory.groupby_and_agg needs agg_expressions: [{name, expr}] with SQL aggregates (e.g. expr: avg(price))", ErrStep)
	}
	var sel, by []string
	if w, ok := a.get(-1, "groupby_window"); ok && w != nil {
		wm, ok := w.(map[string]any)
		tc, _ := wm["time_column"].(string)
		dur, _ := wm["window_duration"].(string)
		if !ok || tc == "" || dur == "" {
			return "", fmt.Errorf("%w: groupby_window needs time_column and window_duration", ErrStep)
		}
		if s, ok := wm["slide_duration"]; ok && s != nil && fmt.Sprint(s) != dur {
			return "", fmt.Errorf("%w: sliding windows (slide_duration) do not run locally; use a tumbling window", ErrStep)
		}
		start := fmt.Sprintf("time_bucket(INTERVAL %s, %s)", quoteString(dur), quoteIdent(tc))
		sel = append(sel, fmt.Sprintf("{'start': %s, 'end': %s + INTERVAL %s} AS \"window\"", start, start, quoteString(dur)))
		by = append(by, start)
	}
	for i, g := range groups {
		x, err := c.columnExpr(ctx, g, df, groupsAt[i])
		if err != nil {
			return "", err
		}
		sel = append(sel, x)
		by = append(by, x)
	}
	for _, it := range list {
		m, ok := it.(map[string]any)
		name, _ := m["name"].(string)
		expr, _ := m["expr"].(string)
		if !ok || name == "" || expr == "" {
			return "", fmt.Errorf("%w: each agg_expressions item needs name and expr (a SQL aggregate), got %v", ErrStep, it)
		}
		x, err := c.translate(ctx, dialect.Expression, expr, df, aggsAt)
		if err != nil {
			return "", err
		}
		sel = append(sel, "("+x+") AS "+quoteIdent(name))
	}
	q := fmt.Sprintf("SELECT %s FROM %s", strings.Join(sel, ", "), from)
	if len(by) > 0 {
		q += " GROUP BY " + strings.Join(by, ", ")
	}
	return q, nil
}

func sortedKeys[V any](m map[string]V) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	return keys
}
