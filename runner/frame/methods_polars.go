package frame

import (
	"fmt"
	"strings"
)

// The DataFrame methods on the POLARS backend: narwhals' LazyFrame
// (which hands them to Polars) and Polars' own LazyFrame (NATIVE).

// fam is the expression family of the call's API on POLARS.
func (m *mcall) fam() string {
	if m.api == Narwhals {
		return "nw"
	}
	return "pl"
}

func (m *mcall) pl() *plEngine { return m.ev.eng.(*plEngine) }

// outCol is one output column of a projection.
type outCol struct {
	name  string
	x     *plExpr
	where string // the argument it comes from
}

// exprsOf evaluates the expressions of with_columns/select: positional
// ones (strings are column names, lists are flattened, multi-column
// selections expanded) then named ones (aliased).
func (m *mcall) exprsOf(pos []value, kwNames []string, kwVals []value) ([]outCol, error) {
	e := m.pl()
	var out []outCol
	add := func(v value, where string) error {
		x, err := e.methodArg(m.fam(), v)
		if err != nil {
			return at(err, where)
		}
		if x.multi != nil {
			for _, y := range x.multi {
				out = append(out, outCol{name: y.name, x: y, where: where})
			}
			return nil
		}
		out = append(out, outCol{name: x.name, x: x, where: where})
		return nil
	}
	for i, v := range pos {
		where := m.argName(i)
		if elts, ok := elements(v); ok {
			for _, el := range elts {
				if err := add(el, where); err != nil {
					return nil, err
				}
			}
			continue
		}
		if err := add(v, where); err != nil {
			return nil, err
		}
	}
	for i, k := range kwNames {
		v := kwVals[i]
		x, err := e.methodArg(m.fam(), v)
		if err != nil {
			return nil, at(err, m.kwArg[k])
		}
		if x.multi != nil {
			return nil, at(unsupportedAt(-1, "", "a multi-column selection as a named expression"), m.kwArg[k])
		}
		y := *x
		y.name = k
		out = append(out, outCol{name: k, x: &y, where: m.kwArg[k]})
	}
	return out, nil
}

func (m *mcall) argName(i int) string {
	if i < len(m.argNames) {
		return m.argNames[i]
	}
	return ""
}

// rowSQL is an expression evaluated per row: its aggregates broadcast
// over the whole frame (OVER ()).
func (m *mcall) rowSQL(x *plExpr) (string, error) {
	if x.groupOnly {
		return "", unsupportedAt(x.pos, "use it in laktory.groupby_and_agg, or write nw.col(...).sum()", "an aggregate sql_expr outside a group")
	}
	if x.orderDep {
		return "", laktoryErr(x.pos, "%s", orderDependentMsg)
	}
	s, err := m.pl().resolve(x.sql, nil, "", false)
	if err == errOrderDependent {
		return "", laktoryErr(x.pos, "%s", orderDependentMsg)
	}
	return s, err
}

// typedSQL is the SQL of a projected expression with its DuckDB type.
func typedSQL(sql string, x *plExpr) string {
	if x.col != "" && x.lit == false {
		return sql
	}
	if x.t.Kind == DNull {
		return "CAST(" + sql + " AS INTEGER)"
	}
	return "CAST(" + sql + " AS " + x.t.Duck() + ")"
}

// dupCheck is Polars' error for two outputs of one name.
func dupCheck(outs []outCol, method string) error {
	seen := map[string]bool{}
	for _, o := range outs {
		if seen[o.name] {
			return laktoryErr(-1, "DuplicateError: the name '%s' passed to `LazyFrame.%s` is duplicate", o.name, method)
		}
		seen[o.name] = true
	}
	return nil
}

func init() {
	regMethod(func(m *mcall) (*relation, error) {
		a, err := m.call.bind("*exprs, **named_exprs")
		if err != nil {
			return nil, err
		}
		outs, err := m.exprsOf(a.rest, m.call.kwNames, m.call.kwVals)
		if err != nil {
			return nil, err
		}
		if err := dupCheck(outs, "with_columns"); err != nil {
			return nil, err
		}
		return m.withColumns(outs)
	}, "*.with_columns")
	regMethod(func(m *mcall) (*relation, error) {
		a, err := m.call.bind("*exprs, **named_exprs")
		if err != nil {
			return nil, err
		}
		outs, err := m.exprsOf(a.rest, m.call.kwNames, m.call.kwVals)
		if err != nil {
			return nil, err
		}
		if err := dupCheck(outs, "select"); err != nil {
			return nil, err
		}
		return m.selectOuts(outs)
	}, "*.select")
	regMethod(func(m *mcall) (*relation, error) {
		a, err := m.call.bind("*predicates, **constraints")
		if err != nil {
			return nil, err
		}
		return m.filter(a)
	}, "*.filter")
	regMethod(func(m *mcall) (*relation, error) {
		s := "*columns, strict=True"
		a, err := m.call.bind(s)
		if err != nil {
			return nil, err
		}
		names, err := m.names(a.rest, "drop")
		if err != nil {
			return nil, err
		}
		drop := map[string]bool{}
		for _, n := range names {
			if _, ok := m.in.find(n); !ok {
				if a.boolean("strict") {
					e := laktoryErr(-1, "ColumnNotFoundError: %q not found", n)
					e.Hint = candidates(n, m.in.names())
					return nil, e
				}
				continue
			}
			drop[n] = true
		}
		var keep []column
		for _, c := range m.in.cols {
			if !drop[c.name] {
				keep = append(keep, c)
			}
		}
		return m.project(keep), nil
	}, "*.drop")
	regMethod(func(m *mcall) (*relation, error) {
		s := "mapping"
		if m.api == Native {
			s = "mapping, *, strict=True"
		}
		a, err := m.call.bind(s)
		if err != nil {
			return nil, err
		}
		d, ok := a.get("mapping").(*pyDict)
		if !ok {
			return nil, unsupportedAt(-1, "pass a mapping {old: new}", "rename with a %s", pyType(a.get("mapping")))
		}
		return m.rename(d, !a.given("strict") || a.boolean("strict"))
	}, "*.rename")
	regMethod(func(m *mcall) (*relation, error) {
		s := "subset=None, *, keep='any', order_by=None"
		if m.api == Native {
			s = "subset=None, *, keep='any', maintain_order=False"
		}
		a, err := m.call.bind(s)
		if err != nil {
			return nil, err
		}
		return m.unique(a)
	}, "*.unique")
	regMethod(func(m *mcall) (*relation, error) {
		s := "by, *more_by, descending=False, nulls_last=False"
		if m.api == Native {
			s = "by, *more_by, descending=False, nulls_last=False, maintain_order=False, multithreaded=True"
		}
		a, err := m.call.bind(s)
		if err != nil {
			return nil, err
		}
		return m.sort(append([]value{a.get("by")}, a.rest...), a.get("descending"), a.get("nulls_last"))
	}, "*.sort")
	regMethod(func(m *mcall) (*relation, error) {
		a, err := m.call.bind("n=5")
		if err != nil {
			return nil, err
		}
		return m.limit(a.get("n"), false)
	}, "*.head", "pl.LazyFrame.limit")
	regMethod(func(m *mcall) (*relation, error) {
		a, err := m.call.bind("n=5")
		if err != nil {
			return nil, err
		}
		return m.limit(a.get("n"), true)
	}, "*.tail")
	regMethod(func(m *mcall) (*relation, error) {
		s := "other, on=None, how='inner', *, left_on=None, right_on=None, suffix='_right'"
		if m.api == Native {
			s = "other, on=None, how='inner', *, left_on=None, right_on=None, suffix='_right', validate='m:m', nulls_equal=False, coalesce=None, maintain_order=None, allow_parallel=True, force_parallel=False"
		}
		a, err := m.call.bind(s)
		if err != nil {
			return nil, err
		}
		return m.join(a)
	}, "*.join")
	regMethod(func(m *mcall) (*relation, error) {
		a, err := m.call.bind("subset=None")
		if err != nil {
			return nil, err
		}
		var names []string
		if a.get("subset") != nil {
			if names, err = m.names([]value{a.get("subset")}, "drop_nulls"); err != nil {
				return nil, err
			}
		} else {
			names = m.in.names()
		}
		var conds []string
		for _, n := range names {
			c, ok := m.in.find(n)
			if !ok {
				e := laktoryErr(-1, "ColumnNotFoundError: unable to find column %q; valid columns: %s", n, quotedList(m.in.names()))
				e.Hint = candidates(n, m.in.names())
				return nil, e
			}
			conds = append(conds, quoteIdent(c.name)+" IS NOT NULL")
		}
		if len(conds) == 0 {
			return m.in, nil
		}
		return sub("SELECT * FROM "+m.in.sql+" WHERE "+strings.Join(conds, " AND "), m.in.cols, false), nil
	}, "*.drop_nulls")
	regMethod(func(m *mcall) (*relation, error) {
		a, err := m.call.bind("columns, *more_columns")
		if err != nil {
			return nil, err
		}
		names, err := m.names(append([]value{a.get("columns")}, a.rest...), "explode")
		if err != nil {
			return nil, err
		}
		return m.explode(names)
	}, "*.explode")
	regMethod(func(m *mcall) (*relation, error) {
		s := "on=None, *, index=None, variable_name='variable', value_name='value'"
		if m.api == Native {
			s = "on=None, *, index=None, variable_name=None, value_name=None, streamable=True"
		}
		a, err := m.call.bind(s)
		if err != nil {
			return nil, err
		}
		return m.unpivot(a)
	}, "*.unpivot")
	regMethod(func(m *mcall) (*relation, error) {
		if m.api == Narwhals {
			a, err := m.call.bind("name='index', *, order_by")
			if err != nil {
				return nil, err
			}
			return m.rowIndex(a.str("name"), a.get("order_by"), nil, dInt64, true, 0)
		}
		a, err := m.call.bind("name='index', offset=0")
		if err != nil {
			return nil, err
		}
		off, _ := a.get("offset").(int64)
		return m.rowIndex(a.str("name"), nil, nil, dUInt32, true, off)
	}, "*.with_row_index")
	regMethod(func(m *mcall) (*relation, error) {
		s := "k, *, by, reverse=False"
		a, err := m.call.bind(s)
		if err != nil {
			return nil, err
		}
		// The k largest (smallest with reverse); nulls come last.
		r, err := m.sort([]value{a.get("by")}, !a.boolean("reverse"), true)
		if err != nil {
			return nil, err
		}
		m.in = r
		return m.limit(a.get("k"), false)
	}, "*.top_k")
	regMethod(func(m *mcall) (*relation, error) {
		a, err := m.call.bind("n, offset=0")
		if err != nil {
			return nil, err
		}
		n, ok := a.get("n").(int64)
		off, ok2 := a.get("offset").(int64)
		if !ok || !ok2 || n <= 0 {
			return nil, laktoryErr(-1, "ValueError: gather_every needs a positive n, got %s", repr(a.get("n")))
		}
		cols := m.in.names()
		q := fmt.Sprintf("SELECT %s FROM (SELECT *, row_number() OVER () - 1 AS \"__lk_i\" FROM %s) WHERE \"__lk_i\" >= %d AND (\"__lk_i\" - %d) %% %d = 0", identList(cols), m.in.sql, off, off, n)
		return sub(q, m.in.cols, false), nil
	}, "*.gather_every")
	regMethod(func(m *mcall) (*relation, error) {
		if _, err := m.call.bind(""); err != nil {
			return nil, err
		}
		return m.in, nil
	}, "nw.LazyFrame.lazy", "pl.LazyFrame.lazy", "nw.LazyFrame.to_native")
	regMethod(func(m *mcall) (*relation, error) {
		s := "dtypes, *, strict=True"
		a, err := m.call.bind(s)
		if err != nil {
			return nil, err
		}
		return m.castFrame(a.get("dtypes"), a.boolean("strict"))
	}, "*.cast")
	regMethod(func(m *mcall) (*relation, error) {
		a, err := m.call.bind("value=None, strategy=None, limit=None, *, matches_supertype=True")
		if err != nil {
			return nil, err
		}
		if a.get("strategy") != nil {
			return nil, unsupportedAt(-1, "", "fill_null(strategy=...) on a frame")
		}
		e := m.pl()
		v, err := e.operand("pl", a.get("value"), -1)
		if err != nil {
			return nil, err
		}
		var outs []outCol
		for _, c := range m.in.cols {
			x := &plExpr{fam: "pl", t: c.t, sql: quoteIdent(c.name), name: c.name, col: c.name}
			vt := e.typed(v, c.t)
			if st := supertype(c.t, vt); st != nil && (!v.lit || v.dyn == "" || st.Equal(c.t) || a.boolean("matches_supertype")) && (c.t.IsNumeric() == vt.IsNumeric()) {
				f, err := e.fillNull(x, v, -1)
				if err != nil {
					return nil, err
				}
				outs = append(outs, outCol{name: c.name, x: f})
				continue
			}
			outs = append(outs, outCol{name: c.name, x: x})
		}
		return m.withColumns(outs)
	}, "pl.LazyFrame.fill_null")
	regMethod(func(m *mcall) (*relation, error) {
		a, err := m.call.bind("query, *, table_name='self'")
		if err != nil {
			return nil, err
		}
		_ = a
		return nil, unsupportedAt(-1, "write the query as an `expr:` step (Polars SQL with {df})", "LazyFrame.sql")
	}, "pl.LazyFrame.sql")

	// Methods that do not return a DataFrame: Laktory fails when it turns
	// their result into one.
	for key, ret := range map[string]string{
		"nw.LazyFrame.group_by":                   "<class 'narwhals.group_by.LazyGroupBy'>",
		"pl.LazyFrame.group_by":                   "<class 'polars.lazyframe.group_by.LazyGroupBy'>",
		"nw.LazyFrame.collect_schema":             "<class 'narwhals.schema.Schema'>",
		"pl.LazyFrame.collect_schema":             "<class 'polars.schema.Schema'>",
		"nw.LazyFrame.laktory.has_column":         "<class 'bool'>",
		"nw.LazyFrame.laktory.signature":          "<class 'str'>",
		"nw.LazyFrame.laktory.schema_flat":        "<class 'list'>",
		"nw.LazyFrame.laktory.display":            "<class 'NoneType'>",
		"pl.LazyFrame.explain":                    "<class 'str'>",
		"pl.LazyFrame.describe":                   "<class 'polars.dataframe.frame.DataFrame'>",
		"spark.DataFrame.groupBy":                 "<class 'pyspark.sql.group.GroupedData'>",
		"spark.DataFrame.groupby":                 "<class 'pyspark.sql.group.GroupedData'>",
		"spark.DataFrame.rollup":                  "<class 'pyspark.sql.group.GroupedData'>",
		"spark.DataFrame.cube":                    "<class 'pyspark.sql.group.GroupedData'>",
		"spark.DataFrame.count":                   "<class 'int'>",
		"spark.DataFrame.collect":                 "<class 'list'>",
		"spark.DataFrame.show":                    "<class 'NoneType'>",
		"spark.DataFrame.printSchema":             "<class 'NoneType'>",
		"spark.DataFrame.isEmpty":                 "<class 'bool'>",
		"spark.DataFrame.createOrReplaceTempView": "<class 'NoneType'>",
	} {
		ret := ret
		regMethod(func(m *mcall) (*relation, error) {
			return nil, laktoryErr(-1, "TypeError: Unsupported dataframe type, got: %s", ret)
		}, key)
		notFrames[key] = ret
	}
}

// notFrames are the methods whose result is no DataFrame (Laktory fails
// turning it into one), with the type they return.
var notFrames = map[string]string{}

// names are column names given as strings or lists of strings.
func (m *mcall) names(vs []value, method string) ([]string, error) {
	var out []string
	for _, v := range vs {
		if v == nil {
			continue
		}
		if elts, ok := elements(v); ok {
			sub, err := m.names(elts, method)
			if err != nil {
				return nil, err
			}
			out = append(out, sub...)
			continue
		}
		switch x := v.(type) {
		case string:
			out = append(out, x)
		case *plExpr:
			if x.col != "" {
				out = append(out, x.col)
				continue
			}
			if x.multi != nil {
				for _, y := range x.multi {
					out = append(out, y.name)
				}
				continue
			}
			return nil, unsupportedAt(-1, "name the columns", "an expression as a column of %s", method)
		default:
			return nil, laktoryErr(-1, "TypeError: %s expects column names, got %s", method, pyType(v))
		}
	}
	return out, nil
}

// project keeps cols of the input.
func (m *mcall) project(cols []column) *relation {
	return sub("SELECT "+identList(namesOf(cols))+" FROM "+m.in.sql, cols, false)
}

func namesOf(cols []column) []string {
	out := make([]string, len(cols))
	for i, c := range cols {
		out[i] = c.name
	}
	return out
}

func identList(names []string) string {
	q := make([]string, len(names))
	for i, n := range names {
		q[i] = quoteIdent(n)
	}
	return strings.Join(q, ", ")
}

// withColumns replaces or appends outs, all computed from the input.
func (m *mcall) withColumns(outs []outCol) (*relation, error) {
	byName := map[string]int{}
	for i, o := range outs {
		byName[o.name] = i
	}
	var sel []string
	var cols []column
	used := map[string]bool{}
	for _, c := range m.in.cols {
		if i, ok := byName[c.name]; ok {
			s, err := m.rowSQL(outs[i].x)
			if err != nil {
				return nil, at(err, outs[i].where)
			}
			sel = append(sel, typedSQL(s, outs[i].x)+" AS "+quoteIdent(c.name))
			cols = append(cols, column{name: c.name, t: outs[i].x.t})
			used[c.name] = true
			continue
		}
		sel = append(sel, quoteIdent(c.name))
		cols = append(cols, c)
	}
	for _, o := range outs {
		if used[o.name] {
			continue
		}
		s, err := m.rowSQL(o.x)
		if err != nil {
			return nil, at(err, o.where)
		}
		sel = append(sel, typedSQL(s, o.x)+" AS "+quoteIdent(o.name))
		cols = append(cols, column{name: o.name, t: o.x.t})
	}
	return sub("SELECT "+strings.Join(sel, ", ")+" FROM "+m.in.sql, cols, false), nil
}

// selectOuts is select(...): one row when every output is a scalar (an
// aggregate or a literal), else each row with scalars broadcast.
func (m *mcall) selectOuts(outs []outCol) (*relation, error) {
	if len(outs) == 0 {
		return sub("SELECT * FROM "+m.in.sql+" WHERE FALSE", nil, false), nil
	}
	allScalar, anyAgg := true, false
	for _, o := range outs {
		allScalar = allScalar && o.x.scalar
		anyAgg = anyAgg || o.x.agg
	}
	var sel []string
	var cols []column
	for _, o := range outs {
		var s string
		var err error
		if allScalar {
			s, err = m.pl().resolve(o.x.sql, nil, "", true)
		} else {
			s, err = m.rowSQL(o.x)
		}
		if err != nil {
			return nil, at(err, o.where)
		}
		sel = append(sel, typedSQL(s, o.x)+" AS "+quoteIdent(o.name))
		cols = append(cols, column{name: o.name, t: o.x.t})
	}
	q := "SELECT " + strings.Join(sel, ", ")
	if !allScalar || anyAgg {
		q += " FROM " + m.in.sql
	}
	return sub(q, cols, false), nil
}

// filter keeps the rows where every predicate holds (null drops a row).
func (m *mcall) filter(a *args) (*relation, error) {
	e := m.pl()
	var conds []*plExpr
	for i, v := range a.rest {
		items := []value{v}
		if elts, ok := elements(v); ok {
			items = elts
		}
		for _, it := range items {
			x, err := e.methodArg(m.fam(), it)
			if err != nil {
				if s, isStr := it.(string); isStr && strings.ContainsAny(s, " <>=!") {
					if er, ok := err.(*Error); ok {
						er.Hint = "narwhals reads a string as a column name: write the predicate as an expression, e.g. nw.col(\"a\") > 0, or as sql_expr(\"...\")"
					}
				}
				return nil, at(err, m.argName(i))
			}
			conds = append(conds, x)
		}
	}
	for k, name := range a.kwNamesSorted() {
		_ = k
		col, err := e.column(m.fam(), name, -1)
		if err != nil {
			return nil, at(err, m.kwArg[name])
		}
		v, err := e.operand(m.fam(), a.kw[name], -1)
		if err != nil {
			return nil, at(err, m.kwArg[name])
		}
		eq, err := e.comparison("==", col, v, -1)
		if err != nil {
			return nil, at(err, m.kwArg[name])
		}
		conds = append(conds, eq)
	}
	if len(conds) == 0 {
		return nil, laktoryErr(-1, "TypeError: at least one predicate or constraint must be provided")
	}
	var preds []string
	windowed := false
	for i, x := range conds {
		if x.t.Kind != DBool && x.t.Kind != DNull {
			if m.api == Native {
				return nil, at(laktoryErr(-1, "ComputeError: filter predicate must be of type `Boolean`, got `%s`", shortDtype(x.t)), m.argName(i))
			}
			return nil, at(laktoryErr(-1, "InvalidOperationError: filter predicate must be of type `Boolean`, got `%s`", shortDtype(x.t)), m.argName(i))
		}
		s, err := m.rowSQL(x)
		if err != nil {
			return nil, at(err, m.argName(i))
		}
		windowed = windowed || strings.Contains(s, " OVER (")
		preds = append(preds, "("+s+")")
	}
	cols := m.in.names()
	if windowed {
		q := fmt.Sprintf("SELECT %s FROM (SELECT *, %s AS \"__lk_keep\" FROM %s) WHERE \"__lk_keep\"", identList(cols), strings.Join(preds, " AND "), m.in.sql)
		return sub(q, m.in.cols, false), nil
	}
	return sub("SELECT * FROM "+m.in.sql+" WHERE "+strings.Join(preds, " AND "), m.in.cols, false), nil
}

// rename is rename({old: new}).
func (m *mcall) rename(d *pyDict, strict bool) (*relation, error) {
	to := map[string]string{}
	for i, k := range d.keys {
		ks, ok1 := k.(string)
		vs, ok2 := d.vals[i].(string)
		if !ok1 || !ok2 {
			return nil, laktoryErr(-1, "TypeError: rename expects a mapping of column names, got %s: %s", repr(k), repr(d.vals[i]))
		}
		if _, ok := m.in.find(ks); !ok {
			if strict {
				e := laktoryErr(-1, "ColumnNotFoundError: %q not found", ks)
				e.Hint = candidates(ks, m.in.names())
				return nil, e
			}
			continue
		}
		to[ks] = vs
	}
	var sel []string
	var cols []column
	seen := map[string]bool{}
	for _, c := range m.in.cols {
		n := c.name
		if v, ok := to[n]; ok {
			sel = append(sel, quoteIdent(n)+" AS "+quoteIdent(v))
			n = v
		} else {
			sel = append(sel, quoteIdent(n))
		}
		if seen[n] {
			return nil, laktoryErr(-1, "DuplicateError: column '%s' is duplicate", n)
		}
		seen[n] = true
		nc := c
		nc.name = n
		cols = append(cols, nc)
	}
	return sub("SELECT "+strings.Join(sel, ", ")+" FROM "+m.in.sql, cols, false), nil
}

// unique keeps one row per subset (keep any/first/last) or the rows whose
// subset is unique (keep none).
func (m *mcall) unique(a *args) (*relation, error) {
	var subset []string
	var err error
	if a.get("subset") != nil {
		if subset, err = m.names([]value{a.get("subset")}, "unique"); err != nil {
			return nil, err
		}
		for _, s := range subset {
			if _, ok := m.in.find(s); !ok {
				e := laktoryErr(-1, "ColumnNotFoundError: unable to find column %q; valid columns: %s", s, quotedList(m.in.names()))
				e.Hint = candidates(s, m.in.names())
				return nil, e
			}
		}
	} else {
		subset = m.in.names()
	}
	keep, _ := a.get("keep").(string)
	var order string
	if m.api == Narwhals {
		switch keep {
		case "any", "none":
		case "first", "last":
			ob := a.get("order_by")
			if ob == nil {
				return nil, laktoryErr(-1, "InvalidOperationError: narwhals.LazyFrame makes no assumptions about row order, so only 'first' and 'last' are only supported if `order_by` is passed.")
			}
			names, err := m.names([]value{ob}, "unique")
			if err != nil {
				return nil, err
			}
			var terms []string
			for _, n := range names {
				if _, ok := m.in.find(n); !ok {
					return nil, m.in.notFound("nw", n, -1)
				}
				terms = append(terms, orderTerm(quoteIdent(n), keep == "last", keep == "first"))
			}
			order = strings.Join(terms, ", ")
		default:
			return nil, laktoryErr(-1, "ValueError: Expected one of {'any', 'first', 'last', 'none'} for `keep`, got: %s", repr(a.get("keep")))
		}
	} else {
		switch keep {
		case "any", "none":
		case "first", "last":
			// Polars keeps the first (last) row in the frame's order.
			order = `"__lk_ord" ASC`
			if keep == "last" {
				order = `"__lk_ord" DESC`
			}
		default:
			return nil, laktoryErr(-1, "ValueError: `keep` must be one of {'first', 'last', 'any', 'none'}, got %s", repr(a.get("keep")))
		}
	}
	cols := m.in.names()
	part := identList(subset)
	if keep == "none" {
		q := fmt.Sprintf("SELECT %s FROM %s QUALIFY count(*) OVER (PARTITION BY %s) = 1", identList(cols), m.in.sql, part)
		return sub(q, m.in.cols, false), nil
	}
	src := m.in.sql
	if order == "" || strings.Contains(order, "__lk_ord") {
		// Keep the frame's order: the first row of a group is kept.
		src = fmt.Sprintf("(SELECT *, row_number() OVER () AS \"__lk_ord\" FROM %s)", m.in.sql)
		if order == "" {
			order = `"__lk_ord" ASC`
		}
	}
	q := fmt.Sprintf("SELECT %s FROM %s QUALIFY row_number() OVER (PARTITION BY %s ORDER BY %s) = 1", identList(cols), src, part, order)
	if m.api == Native && a.boolean("maintain_order") {
		q = fmt.Sprintf("SELECT %s FROM (SELECT * FROM %s QUALIFY row_number() OVER (PARTITION BY %s ORDER BY %s) = 1) ORDER BY \"__lk_ord\"", identList(cols), src, part, order)
	}
	return sub(q, m.in.cols, false), nil
}

// sort orders the rows, stably (ties keep the frame's order, as Polars).
func (m *mcall) sort(by []value, descending, nullsLast value) (*relation, error) {
	e := m.pl()
	var keys []*plExpr
	for _, v := range by {
		items := []value{v}
		if elts, ok := elements(v); ok {
			items = elts
		}
		for _, it := range items {
			x, err := e.exprArg(m.fam(), it, -1, true)
			if err != nil {
				return nil, err
			}
			if x.multi != nil {
				keys = append(keys, x.multi...)
				continue
			}
			keys = append(keys, x)
		}
	}
	flag := func(v value, i int) (bool, error) {
		if elts, ok := elements(v); ok {
			if len(elts) != len(keys) {
				return false, laktoryErr(-1, "ValueError: the length of `descending` (%d) does not match the length of `by` (%d)", len(elts), len(keys))
			}
			b, _ := truthy(elts[i])
			return b, nil
		}
		b, _ := truthy(v)
		return b, nil
	}
	var terms []string
	for i, k := range keys {
		d, err := flag(descending, i)
		if err != nil {
			return nil, err
		}
		nl, err := flag(nullsLast, i)
		if err != nil {
			return nil, err
		}
		s, err := m.rowSQL(k)
		if err != nil {
			return nil, err
		}
		terms = append(terms, orderTerm(s, d, nl))
	}
	cols := m.in.names()
	q := fmt.Sprintf("SELECT %s FROM (SELECT *, row_number() OVER () AS \"__lk_ord\" FROM %s) ORDER BY %s, \"__lk_ord\"", identList(cols), m.in.sql, strings.Join(terms, ", "))
	return sub(q, m.in.cols, false), nil
}

// limit is head(n) (tail: the last n rows).
func (m *mcall) limit(v value, tail bool) (*relation, error) {
	n, ok := v.(int64)
	if !ok {
		return nil, laktoryErr(-1, "TypeError: 'n' must be an integer, got %s", pyType(v))
	}
	if n < 0 {
		return nil, unsupportedAt(-1, "", "a negative number of rows")
	}
	if tail {
		cols := m.in.names()
		q := fmt.Sprintf("SELECT %s FROM (SELECT *, row_number() OVER () AS \"__lk_ord\" FROM %s) QUALIFY \"__lk_ord\" > count(*) OVER () - %d ORDER BY \"__lk_ord\"", identList(cols), m.in.sql, n)
		return sub(q, m.in.cols, false), nil
	}
	return sub(fmt.Sprintf("SELECT * FROM %s LIMIT %d", m.in.sql, n), m.in.cols, false), nil
}

// frameArg is a DataFrame argument ({sources.x}, {nodes.x}).
func (m *mcall) frameArg(v value, what string) (*relation, error) {
	f, ok := v.(*frameVal)
	if !ok {
		if s, isStr := v.(string); isStr {
			return nil, laktoryErr(-1, "TypeError: %s expects a DataFrame, got the string %s (reference one as \"{sources.<name>}\" or \"{nodes.<name>}\")", what, pyStr(s))
		}
		return nil, laktoryErr(-1, "TypeError: %s expects a DataFrame, got %s", what, pyType(v))
	}
	return f.rel, nil
}

// join is narwhals' (or Polars') join.
func (m *mcall) join(a *args) (*relation, error) {
	right, err := m.frameArg(a.get("other"), "join")
	if err != nil {
		return nil, err
	}
	how, _ := a.get("how").(string)
	valid := []string{"inner", "left", "full", "cross", "anti", "semi"}
	if m.api == Native {
		valid = append(valid, "right")
	}
	ok := false
	for _, v := range valid {
		ok = ok || v == how
	}
	if !ok {
		if m.api == Narwhals {
			return nil, laktoryErr(-1, "NotImplementedError: Only the following join strategies are supported: ('inner', 'left', 'full', 'cross', 'anti', 'semi'); found %s.", pyStr(how))
		}
		return nil, laktoryErr(-1, "ValueError: `how` must be one of {'inner', 'left', 'full', 'semi', 'anti', 'cross', 'right'}, got %s", pyStr(how))
	}
	var lon, ron []string
	if a.get("on") != nil {
		if lon, err = m.names([]value{a.get("on")}, "join"); err != nil {
			return nil, err
		}
		ron = lon
	} else {
		if a.get("left_on") != nil {
			if lon, err = m.names([]value{a.get("left_on")}, "join"); err != nil {
				return nil, err
			}
		}
		if a.get("right_on") != nil {
			if ron, err = m.names([]value{a.get("right_on")}, "join"); err != nil {
				return nil, err
			}
		}
	}
	if how == "cross" {
		if len(lon) > 0 {
			return nil, laktoryErr(-1, "ValueError: Can not pass `left_on`, `right_on` or `on` keys for cross join")
		}
	} else if len(lon) == 0 || len(lon) != len(ron) {
		return nil, laktoryErr(-1, "ValueError: Either (`left_on` and `right_on`) or `on` keys should be specified for %s join.", how)
	}
	suffix, _ := a.get("suffix").(string)
	coalesce := how != "full"
	if m.api == Native {
		if cv := a.get("coalesce"); cv != nil {
			coalesce, _ = truthy(cv)
		}
	}
	var cond []string
	for i := range lon {
		lc, ok := m.in.find(lon[i])
		if !ok {
			return nil, m.in.notFound(m.fam(), lon[i], -1)
		}
		rc, ok := right.find(ron[i])
		if !ok {
			return nil, right.notFound(m.fam(), ron[i], -1)
		}
		if supertype(lc.t, rc.t) == nil || (lc.t.Kind == DString) != (rc.t.Kind == DString) {
			return nil, laktoryErr(-1, "SchemaError: datatypes of join keys don't match - `%s`: %s on left does not match `%s`: %s on right", lc.name, shortDtype(lc.t), rc.name, shortDtype(rc.t))
		}
		cond = append(cond, "l."+quoteIdent(lc.name)+" = r."+quoteIdent(rc.name))
	}
	kind := map[string]string{"inner": "INNER JOIN", "left": "LEFT JOIN", "right": "RIGHT JOIN", "full": "FULL JOIN", "cross": "CROSS JOIN", "semi": "SEMI JOIN", "anti": "ANTI JOIN"}[how]
	var sel []string
	var cols []column
	leftNames := map[string]bool{}
	for _, c := range m.in.cols {
		leftNames[c.name] = true
	}
	rightKey := map[string]int{}
	for i, r := range ron {
		rightKey[r] = i
	}
	for _, c := range m.in.cols {
		ref := "l." + quoteIdent(c.name)
		if i := indexOf(lon, c.name); i >= 0 && coalesce && (how == "full" || how == "right") {
			ref = "coalesce(l." + quoteIdent(c.name) + ", r." + quoteIdent(ron[i]) + ")"
		}
		sel = append(sel, ref+" AS "+quoteIdent(c.name))
		cols = append(cols, c)
	}
	if how != "semi" && how != "anti" {
		for _, c := range right.cols {
			if _, isKey := rightKey[c.name]; isKey && coalesce && how != "cross" {
				continue
			}
			name := c.name
			if leftNames[name] {
				name += suffix
			}
			sel = append(sel, "r."+quoteIdent(c.name)+" AS "+quoteIdent(name))
			cols = append(cols, column{name: name, t: c.t})
		}
	}
	q := fmt.Sprintf("SELECT %s FROM %s AS l %s %s AS r", strings.Join(sel, ", "), m.in.sql, kind, right.sql)
	if how != "cross" {
		q += " ON " + strings.Join(cond, " AND ")
	}
	seen := map[string]bool{}
	for _, c := range cols {
		if seen[c.name] {
			return nil, laktoryErr(-1, "DuplicateError: column with name '%s' has more than one occurrence", c.name)
		}
		seen[c.name] = true
	}
	return sub(q, cols, false), nil
}

func indexOf(ss []string, s string) int {
	for i, x := range ss {
		if x == s {
			return i
		}
	}
	return -1
}

// explode gives each element of the list columns its row; an empty or
// null list gives one row with null, as Polars.
func (m *mcall) explode(names []string) (*relation, error) {
	set := map[string]bool{}
	for _, n := range names {
		c, ok := m.in.find(n)
		if !ok {
			return nil, m.in.notFound(m.fam(), n, -1)
		}
		if c.t.Kind != DList {
			return nil, laktoryErr(-1, "InvalidOperationError: `explode` operation not supported for dtype `%s`", shortDtype(c.t))
		}
		set[n] = true
	}
	if len(names) > 1 {
		return nil, unsupportedAt(-1, "explode one column per step", "exploding several columns at once")
	}
	var sel []string
	var cols []column
	for _, c := range m.in.cols {
		if set[c.name] {
			q := quoteIdent(c.name)
			sel = append(sel, fmt.Sprintf("unnest(CASE WHEN %[1]s IS NULL OR len(%[1]s) = 0 THEN [NULL::%[2]s] ELSE %[1]s END) AS %[1]s", q, c.t.Inner.Duck()))
			cols = append(cols, column{name: c.name, t: c.t.Inner})
			continue
		}
		sel = append(sel, quoteIdent(c.name))
		cols = append(cols, c)
	}
	return sub("SELECT "+strings.Join(sel, ", ")+" FROM "+m.in.sql, cols, false), nil
}

// unpivotNames are unpivot's `on` columns (by default every column not in
// `index`) and its `index` columns.
func (m *mcall) unpivotNames(a *args) (on, index []string, err error) {
	if a.get("index") != nil {
		if index, err = m.names([]value{a.get("index")}, "unpivot"); err != nil {
			return nil, nil, err
		}
	}
	if a.get("on") != nil {
		if on, err = m.names([]value{a.get("on")}, "unpivot"); err != nil {
			return nil, nil, err
		}
		return on, index, nil
	}
	for _, c := range m.in.cols {
		if indexOf(index, c.name) < 0 {
			on = append(on, c.name)
		}
	}
	return on, index, nil
}

// unpivot turns the `on` columns into (variable, value) rows.
func (m *mcall) unpivot(a *args) (*relation, error) {
	on, index, err := m.unpivotNames(a)
	if err != nil {
		return nil, err
	}
	variable, value := "variable", "value"
	if s, ok := a.get("variable_name").(string); ok {
		variable = s
	}
	if s, ok := a.get("value_name").(string); ok {
		value = s
	}
	var vt *DType
	for _, n := range append(append([]string{}, index...), on...) {
		if _, ok := m.in.find(n); !ok {
			return nil, m.in.notFound(m.fam(), n, -1)
		}
	}
	for _, n := range on {
		c, _ := m.in.find(n)
		if vt == nil {
			vt = c.t
		} else if vt = supertype(vt, c.t); vt == nil {
			return nil, laktoryErr(-1, "SchemaError: unpivot: the `on` columns have no common supertype")
		}
	}
	if len(on) == 0 {
		return nil, unsupportedAt(-1, "", "unpivot without value columns")
	}
	var parts []string
	for _, n := range on {
		c, _ := m.in.find(n)
		sel := []string{}
		for _, i := range index {
			sel = append(sel, quoteIdent(i))
		}
		sel = append(sel, quoteString(n)+" AS "+quoteIdent(variable), castSQL(quoteIdent(n), c.t, vt)+" AS "+quoteIdent(value))
		parts = append(parts, "SELECT "+strings.Join(sel, ", ")+" FROM "+m.in.sql)
	}
	var cols []column
	for _, i := range index {
		c, _ := m.in.find(i)
		cols = append(cols, c)
	}
	cols = append(cols, column{name: variable, t: dString}, column{name: value, t: vt})
	return sub(strings.Join(parts, " UNION ALL "), cols, false), nil
}

// rowIndex adds the row number (from offset) ordered by orderBy, within
// partitions; first puts it first (with_row_index), else last.
func (m *mcall) rowIndex(name string, orderBy value, partition []string, t *DType, first bool, offset int64) (*relation, error) {
	var order []string
	if orderBy != nil {
		names, err := m.names([]value{orderBy}, "with_row_index")
		if err != nil {
			return nil, err
		}
		for _, n := range names {
			if _, ok := m.in.find(n); !ok {
				return nil, m.in.notFound(m.fam(), n, -1)
			}
			order = append(order, orderTerm(quoteIdent(n), false, false))
		}
	}
	over := ""
	if len(partition) > 0 {
		over = "PARTITION BY " + identList(partition) + " "
	}
	if len(order) > 0 {
		over += "ORDER BY " + strings.Join(order, ", ")
	}
	idx := fmt.Sprintf("CAST(row_number() OVER (%s) - 1 + %d AS %s) AS %s", over, offset, t.Duck(), quoteIdent(name))
	rc := column{name: name, t: t}
	if _, dup := m.in.find(name); dup {
		return nil, laktoryErr(-1, "DuplicateError: column with name '%s' already exists", name)
	}
	if first {
		return sub("SELECT "+idx+", * FROM "+m.in.sql, append([]column{rc}, m.in.cols...), false), nil
	}
	return sub("SELECT *, "+idx+" FROM "+m.in.sql, append(append([]column{}, m.in.cols...), rc), false), nil
}

// castFrame is cast({name: dtype}) or cast(dtype) of every column.
func (m *mcall) castFrame(v value, strict bool) (*relation, error) {
	e := m.pl()
	to := map[string]*DType{}
	switch d := v.(type) {
	case *pyDict:
		for i, k := range d.keys {
			name, ok := k.(string)
			if !ok {
				return nil, unsupportedAt(-1, "", "cast keyed by %s", pyType(k))
			}
			t, err := plType(d.vals[i], -1)
			if err != nil {
				return nil, err
			}
			if _, ok := m.in.find(name); !ok {
				return nil, m.in.notFound(m.fam(), name, -1)
			}
			to[name] = t
		}
	default:
		t, err := plType(v, -1)
		if err != nil {
			return nil, err
		}
		for _, c := range m.in.cols {
			to[c.name] = t
		}
	}
	var outs []outCol
	for _, c := range m.in.cols {
		t, ok := to[c.name]
		if !ok {
			continue
		}
		x := &plExpr{fam: m.fam(), t: c.t, sql: quoteIdent(c.name), name: c.name, col: c.name}
		y, err := e.cast(x, t, strict, -1)
		if err != nil {
			return nil, err
		}
		y.col = ""
		outs = append(outs, outCol{name: c.name, x: y})
	}
	return m.withColumns(outs)
}
