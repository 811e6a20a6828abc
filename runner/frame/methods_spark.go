package frame

import (
	"fmt"
	"strings"

	"github.com/laktory/workbench/runner/sparksql"
)

// The DataFrame methods on the PYSPARK backend: narwhals' LazyFrame (which
// builds PySpark calls) and PySpark's DataFrame (NATIVE). Methods with
// expressions become Spark SQL over {df}, translated by the Spark SQL
// front end (Spark's types and semantics); the others keep the columns'
// types and are written in DuckDB SQL directly.

func (m *mcall) sp() *spEngine { return m.ev.eng.(*spEngine) }

// spQuery translates a Spark SQL query over {df} (and the frames of refs).
func (m *mcall) spQuery(q string, refs map[string]*relation) (*relation, error) {
	inputs := []sparksql.Input{{Ref: "df", SQL: m.in.sql, Schema: sparkSchema(m.in)}}
	for ref, r := range refs {
		inputs = append(inputs, sparksql.Input{Ref: ref, SQL: r.sql, Schema: sparkSchema(r)})
	}
	res, err := sparksql.Translate(q, inputs, m.c.env.Spark)
	if err != nil {
		return nil, sparkError(err, -1)
	}
	cols := make([]column, len(res.Columns))
	for i, c := range res.Columns {
		cols[i] = column{name: c.Name, st: c.Type}
	}
	return &relation{sql: "(" + res.SQL + ")", cols: cols, spark: true}, nil
}

// spOut is one output of a projection: its Spark SQL and name.
type spOut struct {
	name  string
	sql   string
	named bool // given a name (alias, keyword or narwhals' name)
	agg   bool
}

// spRow resolves an expression's windows in a row context.
func (m *mcall) spRow(x *spExpr) (string, error) {
	if x.orderDep {
		return "", laktoryErr(x.pos, "%s", orderDependentMsg)
	}
	s, err := m.sp().resolve(x.sql, nil, "", false)
	if err == errOrderDependent {
		return "", laktoryErr(x.pos, "%s", orderDependentMsg)
	}
	return s, err
}

// spExprs evaluates the expressions of with_columns/select/withColumns.
func (m *mcall) spExprs(pos []value, kwNames []string, kwVals []value, fam string) ([]spOut, error) {
	e := m.sp()
	var out []spOut
	add := func(v value, name, where string) error {
		x, err := e.methodArg(fam, v)
		if err != nil {
			return at(err, where)
		}
		xs := []*spExpr{x}
		if x.multi != nil {
			if name != "" {
				return at(unsupportedAt(-1, "", "a multi-column selection as a named expression"), where)
			}
			xs = x.multi
		}
		for _, y := range xs {
			s, err := m.spRow(y)
			if err != nil {
				return at(err, where)
			}
			o := spOut{name: y.name, sql: s, named: y.name != "", agg: y.agg}
			if name != "" {
				o.name, o.named = name, true
			}
			out = append(out, o)
		}
		return nil
	}
	for i, v := range pos {
		if elts, ok := elements(v); ok {
			for _, el := range elts {
				if err := add(el, "", m.argName(i)); err != nil {
					return nil, err
				}
			}
			continue
		}
		if err := add(v, "", m.argName(i)); err != nil {
			return nil, err
		}
	}
	for i, k := range kwNames {
		if err := add(kwVals[i], k, m.kwArg[k]); err != nil {
			return nil, err
		}
	}
	return out, nil
}

// spWithColumns replaces (Spark matches names without case) or appends.
func (m *mcall) spWithColumns(outs []spOut) (*relation, error) {
	byName := map[string]int{}
	for i, o := range outs {
		byName[strings.ToLower(o.name)] = i
	}
	var sel []string
	used := map[int]bool{}
	for _, c := range m.in.cols {
		if i, ok := byName[strings.ToLower(c.name)]; ok {
			sel = append(sel, outs[i].sql+" AS "+sparkIdent(outs[i].name))
			used[i] = true
			continue
		}
		sel = append(sel, sparkIdent(c.name))
	}
	for i, o := range outs {
		if !used[i] {
			sel = append(sel, o.sql+" AS "+sparkIdent(o.name))
		}
	}
	return m.spQuery("SELECT "+strings.Join(sel, ", ")+" FROM {df}", nil)
}

func (m *mcall) spSelect(outs []spOut, nw bool) (*relation, error) {
	if len(outs) == 0 {
		return nil, unsupportedAt(-1, "", "select of no columns")
	}
	var sel []string
	for _, o := range outs {
		switch {
		case o.sql == "*":
			sel = append(sel, "*")
		case o.named:
			sel = append(sel, o.sql+" AS "+sparkIdent(o.name))
		default:
			sel = append(sel, o.sql)
		}
	}
	return m.spQuery("SELECT "+strings.Join(sel, ", ")+" FROM {df}", nil)
}

// spFilter is WHERE of Spark SQL predicates; predicates with windows are
// computed first (DataFrame.where allows them, SQL's WHERE does not).
func (m *mcall) spFilter(preds []string) (*relation, error) {
	p := strings.Join(preds, " AND ")
	if strings.Contains(p, " OVER (") {
		var cols []string
		for _, c := range m.in.cols {
			cols = append(cols, sparkIdent(c.name))
		}
		return m.spQuery("SELECT "+strings.Join(cols, ", ")+" FROM (SELECT *, "+p+" AS `__lk_keep` FROM {df}) WHERE `__lk_keep`", nil)
	}
	return m.spQuery("SELECT * FROM {df} WHERE "+p, nil)
}

func (m *mcall) spDuck(sql string, cols []column) *relation {
	return &relation{sql: "(" + sql + ")", cols: cols, spark: true}
}

func sparkFind(r *relation, name string) (column, bool) { return r.find(name) }

func init() {
	// --- narwhals on PYSPARK
	for _, k := range []string{"lazy", "to_native", "laktory.union", "laktory.window_filter", "laktory.with_row_index",
		"laktory.groupby_and_agg", "group_by", "collect_schema", "laktory.has_column", "laktory.signature",
		"laktory.schema_flat", "laktory.display"} {
		sparkShared["nw.LazyFrame."+k] = true
	}
	nwSpark := func(name string, fn method) { spNwMethods["nw.LazyFrame."+name] = fn }
	for _, name := range []string{"tail", "gather_every"} {
		name := name
		nwSpark(name, func(m *mcall) (*relation, error) {
			return nil, laktoryErr(-1, "AttributeError: 'SparkLikeLazyFrame' object has no attribute '%s'", name)
		})
	}
	nwSpark("with_columns", func(m *mcall) (*relation, error) {
		a, err := m.call.bind("*exprs, **named_exprs")
		if err != nil {
			return nil, err
		}
		outs, err := m.spExprs(a.rest, m.call.kwNames, m.call.kwVals, "nw")
		if err != nil {
			return nil, err
		}
		return m.spWithColumns(outs)
	})
	nwSpark("select", func(m *mcall) (*relation, error) {
		a, err := m.call.bind("*exprs, **named_exprs")
		if err != nil {
			return nil, err
		}
		outs, err := m.spExprs(a.rest, m.call.kwNames, m.call.kwVals, "nw")
		if err != nil {
			return nil, err
		}
		allAgg := true
		for _, o := range outs {
			allAgg = allAgg && o.agg
		}
		if allAgg {
			// narwhals aggregates: df.agg(...), no window.
			var sel []string
			for i := range outs {
				s, err := m.sp().resolve(m.rawOuts(outs)[i], nil, "", true)
				if err != nil {
					return nil, err
				}
				sel = append(sel, s+" AS "+sparkIdent(outs[i].name))
			}
			return m.spQuery("SELECT "+strings.Join(sel, ", ")+" FROM {df}", nil)
		}
		return m.spSelect(outs, true)
	})
	nwSpark("filter", func(m *mcall) (*relation, error) {
		a, err := m.call.bind("*predicates, **constraints")
		if err != nil {
			return nil, err
		}
		e := m.sp()
		var preds []string
		for i, v := range a.rest {
			x, err := e.exprArg("nw", v, -1, true)
			if err != nil {
				return nil, at(err, m.argName(i))
			}
			s, err := m.spRow(x)
			if err != nil {
				return nil, at(err, m.argName(i))
			}
			preds = append(preds, "("+s+")")
		}
		for _, k := range a.kwNamesSorted() {
			col, err := e.column("nw", k, -1)
			if err != nil {
				return nil, at(err, m.kwArg[k])
			}
			v, err := e.operand("nw", a.kw[k], -1)
			if err != nil {
				return nil, at(err, m.kwArg[k])
			}
			preds = append(preds, "("+col.sql+" = "+v.sql+")")
		}
		if len(preds) == 0 {
			return nil, laktoryErr(-1, "TypeError: at least one predicate or constraint must be provided")
		}
		return m.spFilter(preds)
	})
	nwSpark("drop", func(m *mcall) (*relation, error) {
		a, err := m.call.bind("*columns, strict=True")
		if err != nil {
			return nil, err
		}
		names, err := m.names(a.rest, "drop")
		if err != nil {
			return nil, err
		}
		var missing []string
		drop := map[string]bool{}
		for _, n := range names {
			if c, ok := m.in.find(n); ok {
				drop[c.name] = true
			} else {
				missing = append(missing, pyStr(n))
			}
		}
		if len(missing) > 0 && a.boolean("strict") {
			return nil, laktoryErr(-1, "ColumnNotFoundError: The following columns were not found: [%s]", strings.Join(missing, ", "))
		}
		var keep []column
		for _, c := range m.in.cols {
			if !drop[c.name] {
				keep = append(keep, c)
			}
		}
		return m.spDuck("SELECT "+identList(namesOf(keep))+" FROM "+m.in.sql, keep), nil
	})
	nwSpark("rename", func(m *mcall) (*relation, error) {
		a, err := m.call.bind("mapping")
		if err != nil {
			return nil, err
		}
		d, ok := a.get("mapping").(*pyDict)
		if !ok {
			return nil, unsupportedAt(-1, "pass a mapping {old: new}", "rename with a %s", pyType(a.get("mapping")))
		}
		r, err := m.rename(d, false)
		if err != nil {
			return nil, err
		}
		r.spark = true
		return r, nil
	})
	nwSpark("unique", func(m *mcall) (*relation, error) {
		a, err := m.call.bind("subset=None, *, keep='any', order_by=None")
		if err != nil {
			return nil, err
		}
		keep, _ := a.get("keep").(string)
		switch keep {
		case "any", "none", "first", "last":
		default:
			return nil, laktoryErr(-1, "ValueError: Expected one of {'any', 'first', 'last', 'none'} for `keep`, got: %s", repr(a.get("keep")))
		}
		if (keep == "first" || keep == "last") && a.get("order_by") == nil {
			return nil, laktoryErr(-1, "InvalidOperationError: narwhals.LazyFrame makes no assumptions about row order, so only 'first' and 'last' are only supported if `order_by` is passed.")
		}
		subset := m.in.names()
		if a.get("subset") != nil {
			if subset, err = m.names([]value{a.get("subset")}, "unique"); err != nil {
				return nil, err
			}
		}
		for _, s := range subset {
			if _, ok := m.in.find(s); !ok {
				return nil, laktoryErr(-1, "ColumnNotFoundError: The following columns were not found: [%s]", pyStr(s))
			}
		}
		order := "1"
		if ob := a.get("order_by"); ob != nil {
			var names []string
			if s, ok := ob.(string); ok {
				// narwhals iterates over the string: its characters are column names.
				for _, r := range s {
					names = append(names, string(r))
				}
			} else if names, err = m.names([]value{ob}, "unique"); err != nil {
				return nil, err
			}
			var terms []string
			for _, n := range names {
				if _, ok := m.in.find(n); !ok {
					return nil, laktoryErr(-1, "AnalysisException: [UNRESOLVED_COLUMN.WITH_SUGGESTION] A column, variable, or function parameter with name `%s` cannot be resolved.", n)
				}
				if keep == "last" {
					terms = append(terms, quoteIdent(n)+" DESC NULLS LAST")
				} else {
					terms = append(terms, quoteIdent(n)+" ASC NULLS FIRST")
				}
			}
			order = strings.Join(terms, ", ")
		}
		fn := "row_number()"
		if keep == "none" {
			fn = "count(*)"
		}
		q := fmt.Sprintf("SELECT %s FROM %s QUALIFY %s OVER (PARTITION BY %s ORDER BY %s) = 1", identList(m.in.names()), m.in.sql, fn, identList(subset), order)
		if keep == "none" {
			q = fmt.Sprintf("SELECT %s FROM %s QUALIFY count(*) OVER (PARTITION BY %s) = 1", identList(m.in.names()), m.in.sql, identList(subset))
		}
		return m.spDuck(q, m.in.cols), nil
	})
	nwSpark("sort", func(m *mcall) (*relation, error) {
		a, err := m.call.bind("by, *more_by, descending=False, nulls_last=False")
		if err != nil {
			return nil, err
		}
		names, err := m.names(append([]value{a.get("by")}, a.rest...), "sort")
		if err != nil {
			return nil, err
		}
		var terms []string
		for i, n := range names {
			c, ok := m.in.find(n)
			if !ok {
				return nil, m.in.notFound("nw", n, -1)
			}
			d := a.get("descending")
			if elts, ok := elements(d); ok {
				if len(elts) != len(names) {
					return nil, laktoryErr(-1, "ValueError: the length of `descending` does not match the number of columns")
				}
				d = elts[i]
			}
			desc, _ := truthy(d)
			terms = append(terms, orderTerm(quoteIdent(c.name), desc, a.boolean("nulls_last")))
		}
		return m.spDuck(m.stableOrder(terms), m.in.cols), nil
	})
	nwSpark("head", func(m *mcall) (*relation, error) {
		a, err := m.call.bind("n=5")
		if err != nil {
			return nil, err
		}
		r, err := m.limit(a.get("n"), false)
		if err != nil {
			return nil, err
		}
		r.spark = true
		return r, nil
	})
	nwSpark("top_k", func(m *mcall) (*relation, error) {
		a, err := m.call.bind("k, *, by, reverse=False")
		if err != nil {
			return nil, err
		}
		names, err := m.names([]value{a.get("by")}, "top_k")
		if err != nil {
			return nil, err
		}
		var terms []string
		for _, n := range names {
			terms = append(terms, orderTerm(quoteIdent(n), !a.boolean("reverse"), true))
		}
		k, _ := a.get("k").(int64)
		return m.spDuck(fmt.Sprintf("SELECT * FROM (%s) LIMIT %d", m.stableOrder(terms), k), m.in.cols), nil
	})
	nwSpark("drop_nulls", func(m *mcall) (*relation, error) {
		a, err := m.call.bind("subset=None")
		if err != nil {
			return nil, err
		}
		names := m.in.names()
		if a.get("subset") != nil {
			if names, err = m.names([]value{a.get("subset")}, "drop_nulls"); err != nil {
				return nil, err
			}
		}
		return m.spDropNulls(names, "any")
	})
	nwSpark("explode", func(m *mcall) (*relation, error) {
		a, err := m.call.bind("columns, *more_columns")
		if err != nil {
			return nil, err
		}
		names, err := m.names(append([]value{a.get("columns")}, a.rest...), "explode")
		if err != nil {
			return nil, err
		}
		if len(names) != 1 {
			return nil, unsupportedAt(-1, "explode one column per step", "exploding several columns at once")
		}
		return m.spExplode(names[0], true)
	})
	nwSpark("unpivot", func(m *mcall) (*relation, error) {
		a, err := m.call.bind("on=None, *, index=None, variable_name='variable', value_name='value'")
		if err != nil {
			return nil, err
		}
		return m.spUnpivot(a)
	})
	nwSpark("with_row_index", func(m *mcall) (*relation, error) {
		a, err := m.call.bind("name='index', *, order_by")
		if err != nil {
			return nil, err
		}
		return m.spRowNumber(a.str("name"), a.get("order_by"), nil, true)
	})
	nwSpark("join", func(m *mcall) (*relation, error) {
		a, err := m.call.bind("other, on=None, how='inner', *, left_on=None, right_on=None, suffix='_right'")
		if err != nil {
			return nil, err
		}
		return m.spNwJoin(a)
	})

	// --- PySpark's DataFrame (NATIVE)
	regMethod(func(m *mcall) (*relation, error) {
		a, err := m.call.bind("colName, col")
		if err != nil {
			return nil, err
		}
		name, ok := a.get("colName").(string)
		if !ok {
			return nil, laktoryErr(-1, "PySparkTypeError: [NOT_STR] Argument `colName` should be a str, got %s.", pyType(a.get("colName")))
		}
		x, ok := a.get("col").(*spExpr)
		if !ok {
			if w, isW := a.get("col").(*whenChain); isW {
				y, err := m.sp().whenExpr(w, nil, false, -1)
				if err != nil {
					return nil, err
				}
				x = y.(*spExpr)
			} else {
				return nil, at(laktoryErr(-1, "PySparkTypeError: [NOT_EXPECTED_TYPE] Argument `col` should be Column, got %s.", pyType(a.get("col"))), m.argName(1))
			}
		}
		x, err = m.sp().operand(x.fam, x, -1)
		if err != nil {
			return nil, err
		}
		s, err := m.spRow(x)
		if err != nil {
			return nil, err
		}
		return m.spWithColumns([]spOut{{name: name, sql: s, named: true}})
	}, "spark.DataFrame.withColumn")
	regMethod(func(m *mcall) (*relation, error) {
		a, err := m.call.bind("*colsMap")
		if err != nil {
			return nil, err
		}
		if len(a.rest) != 1 {
			return nil, laktoryErr(-1, "PySparkTypeError: [NOT_DICT] Argument `colsMap` should be a dict")
		}
		d, ok := a.rest[0].(*pyDict)
		if !ok {
			return nil, laktoryErr(-1, "PySparkTypeError: [NOT_DICT] Argument `colsMap` should be a dict, got %s.", pyType(a.rest[0]))
		}
		var outs []spOut
		for i, k := range d.keys {
			name, _ := k.(string)
			v := d.vals[i]
			// The values of a dict are not evaluated: a string is read as
			// a column name, dots splitting its parts.
			s, isStr := v.(string)
			if !isStr {
				return nil, laktoryErr(-1, "PySparkTypeError: [NOT_COLUMN] withColumns expects Columns, got %s", pyType(v))
			}
			parts := strings.Split(s, ".")
			q := make([]string, len(parts))
			for j, p := range parts {
				q[j] = sparkIdent(p)
			}
			outs = append(outs, spOut{name: name, sql: strings.Join(q, "."), named: true})
		}
		r, err := m.spWithColumns(outs)
		if err != nil {
			if e, ok := err.(*Error); ok {
				e.Hint = "Laktory does not evaluate the values of a dict: use one withColumn step per column"
			}
		}
		return r, err
	}, "spark.DataFrame.withColumns")
	regMethod(func(m *mcall) (*relation, error) {
		a, err := m.call.bind("existing, new")
		if err != nil {
			return nil, err
		}
		old, _ := a.get("existing").(string)
		nw, _ := a.get("new").(string)
		return m.spRename(map[string]string{strings.ToLower(old): nw})
	}, "spark.DataFrame.withColumnRenamed")
	regMethod(func(m *mcall) (*relation, error) {
		a, err := m.call.bind("colsMap")
		if err != nil {
			return nil, err
		}
		d, ok := a.get("colsMap").(*pyDict)
		if !ok {
			return nil, laktoryErr(-1, "PySparkTypeError: [NOT_DICT] Argument `colsMap` should be a dict, got %s.", pyType(a.get("colsMap")))
		}
		to := map[string]string{}
		for i, k := range d.keys {
			ks, _ := k.(string)
			vs, _ := d.vals[i].(string)
			to[strings.ToLower(ks)] = vs
		}
		return m.spRename(to)
	}, "spark.DataFrame.withColumnsRenamed")
	regMethod(func(m *mcall) (*relation, error) {
		a, err := m.call.bind("*cols")
		if err != nil {
			return nil, err
		}
		outs, err := m.spExprs(a.rest, nil, nil, "F")
		if err != nil {
			return nil, err
		}
		return m.spSelect(outs, false)
	}, "spark.DataFrame.select")
	regMethod(func(m *mcall) (*relation, error) {
		a, err := m.call.bind("*expr")
		if err != nil {
			return nil, err
		}
		var sel []string
		for i, v := range a.rest {
			items := []value{v}
			if elts, ok := elements(v); ok {
				items = elts
			}
			for _, it := range items {
				s, ok := it.(string)
				if !ok {
					return nil, at(laktoryErr(-1, "PySparkTypeError: selectExpr expects SQL strings, got %s", pyType(it)), m.argName(i))
				}
				sel = append(sel, s)
			}
		}
		return m.spQuery("SELECT "+strings.Join(sel, ", ")+" FROM {df}", nil)
	}, "spark.DataFrame.selectExpr")
	regMethod(func(m *mcall) (*relation, error) {
		a, err := m.call.bind("condition")
		if err != nil {
			return nil, err
		}
		switch x := a.get("condition").(type) {
		case string:
			return m.spFilter([]string{"(" + x + ")"})
		case *spExpr:
			y, err := m.sp().operand("F", x, -1)
			if err != nil {
				return nil, err
			}
			return m.spFilter([]string{"(" + y.sql + ")"})
		}
		return nil, laktoryErr(-1, "PySparkTypeError: [NOT_COLUMN_OR_STR] Argument `condition` should be a Column or str, got %s.", pyType(a.get("condition")))
	}, "spark.DataFrame.filter", "spark.DataFrame.where")
	regMethod(func(m *mcall) (*relation, error) {
		a, err := m.call.bind("*cols")
		if err != nil {
			return nil, err
		}
		drop := map[string]bool{}
		for _, v := range a.rest {
			switch x := v.(type) {
			case string:
				if c, ok := m.in.find(x); ok {
					drop[c.name] = true
				}
			case *spExpr:
				if x.col != "" {
					drop[x.col] = true
				}
			default:
				return nil, laktoryErr(-1, "PySparkTypeError: [NOT_COLUMN_OR_STR] drop expects column names, got %s", pyType(v))
			}
		}
		var keep []column
		for _, c := range m.in.cols {
			if !drop[c.name] {
				keep = append(keep, c)
			}
		}
		return m.spDuck("SELECT "+identList(namesOf(keep))+" FROM "+m.in.sql, keep), nil
	}, "spark.DataFrame.drop")
	regMethod(func(m *mcall) (*relation, error) {
		a, err := m.call.bind("subset=None")
		if err != nil {
			return nil, err
		}
		subset := m.in.names()
		if a.get("subset") != nil {
			if subset, err = m.names([]value{a.get("subset")}, "dropDuplicates"); err != nil {
				return nil, err
			}
			for i, s := range subset {
				c, ok := m.in.find(s)
				if !ok {
					return nil, laktoryErr(-1, "AnalysisException: [UNRESOLVED_COLUMN_AMONG_FIELD_NAMES] Cannot resolve column name %q among (%s).", s, strings.Join(m.in.names(), ", "))
				}
				subset[i] = c.name
			}
		}
		// Spark keeps the first row it meets of each group.
		q := fmt.Sprintf("SELECT %s FROM (SELECT *, row_number() OVER () AS \"__lk_ord\" FROM %s) QUALIFY row_number() OVER (PARTITION BY %s ORDER BY \"__lk_ord\") = 1", identList(m.in.names()), m.in.sql, identList(subset))
		return m.spDuck(q, m.in.cols), nil
	}, "spark.DataFrame.dropDuplicates", "spark.DataFrame.drop_duplicates")
	regMethod(func(m *mcall) (*relation, error) {
		if _, err := m.call.bind(""); err != nil {
			return nil, err
		}
		return m.spDuck("SELECT DISTINCT * FROM "+m.in.sql, m.in.cols), nil
	}, "spark.DataFrame.distinct")
	regMethod(func(m *mcall) (*relation, error) {
		a, err := m.call.bind("*cols, **kwargs")
		if err != nil {
			return nil, err
		}
		return m.spOrderBy(a)
	}, "spark.DataFrame.orderBy", "spark.DataFrame.sort")
	regMethod(func(m *mcall) (*relation, error) {
		a, err := m.call.bind("num")
		if err != nil {
			return nil, err
		}
		r, err := m.limit(a.get("num"), false)
		if err != nil {
			return nil, err
		}
		r.spark = true
		return r, nil
	}, "spark.DataFrame.limit")
	regMethod(func(m *mcall) (*relation, error) {
		a, err := m.call.bind("other")
		if err != nil {
			return nil, err
		}
		o, err := m.frameArg(a.get("other"), "union")
		if err != nil {
			return nil, err
		}
		return m.spQuery("SELECT * FROM {df} UNION ALL SELECT * FROM {sources.lk_other}", map[string]*relation{"sources.lk_other": o})
	}, "spark.DataFrame.union", "spark.DataFrame.unionAll")
	regMethod(func(m *mcall) (*relation, error) {
		a, err := m.call.bind("other, allowMissingColumns=False")
		if err != nil {
			return nil, err
		}
		o, err := m.frameArg(a.get("other"), "unionByName")
		if err != nil {
			return nil, err
		}
		var sel []string
		for _, c := range m.in.cols {
			oc, ok := o.find(c.name)
			if !ok {
				if a.boolean("allowMissingColumns") {
					sel = append(sel, "NULL AS "+sparkIdent(c.name))
					continue
				}
				return nil, laktoryErr(-1, "AnalysisException: [NUM_COLUMNS_MISMATCH] UNION can only be performed on inputs with the same number of columns: the column %s is missing", sparkIdent(c.name))
			}
			sel = append(sel, sparkIdent(oc.name))
		}
		if len(o.cols) > len(m.in.cols) && !a.boolean("allowMissingColumns") {
			return nil, laktoryErr(-1, "AnalysisException: [NUM_COLUMNS_MISMATCH] UNION can only be performed on inputs with the same number of columns")
		}
		return m.spQuery("SELECT * FROM {df} UNION ALL SELECT "+strings.Join(sel, ", ")+" FROM {sources.lk_other}", map[string]*relation{"sources.lk_other": o})
	}, "spark.DataFrame.unionByName")
	regMethod(func(m *mcall) (*relation, error) {
		a, err := m.call.bind("other, on=None, how=None")
		if err != nil {
			return nil, err
		}
		return m.spJoin(a)
	}, "spark.DataFrame.join")
	regMethod(func(m *mcall) (*relation, error) {
		a, err := m.call.bind("how='any', thresh=None, subset=None")
		if err != nil {
			return nil, err
		}
		if a.get("thresh") != nil {
			return nil, unsupportedAt(-1, "", "dropna(thresh=...)")
		}
		names := m.in.names()
		if a.get("subset") != nil {
			if names, err = m.names([]value{a.get("subset")}, "dropna"); err != nil {
				return nil, err
			}
		}
		return m.spDropNulls(names, a.str("how"))
	}, "spark.DataFrame.dropna")
	regMethod(func(m *mcall) (*relation, error) {
		a, err := m.call.bind("value, subset=None")
		if err != nil {
			return nil, err
		}
		return m.spFillna(a)
	}, "spark.DataFrame.fillna")
}

// rawOuts returns the unresolved SQL of outputs (their aggregates
// without windows); outs were resolved for a row context.
func (m *mcall) rawOuts(outs []spOut) []string {
	out := make([]string, len(outs))
	for i, o := range outs {
		out[i] = strings.ReplaceAll(o.sql, " OVER (PARTITION BY 1)", "")
	}
	return out
}

// stableOrder is ORDER BY terms with ties in the frame's order.
func (m *mcall) stableOrder(terms []string) string {
	return fmt.Sprintf("SELECT %s FROM (SELECT *, row_number() OVER () AS \"__lk_ord\" FROM %s) ORDER BY %s, \"__lk_ord\"", identList(m.in.names()), m.in.sql, strings.Join(terms, ", "))
}

func (m *mcall) spRename(to map[string]string) (*relation, error) {
	var sel []string
	var cols []column
	for _, c := range m.in.cols {
		if n, ok := to[strings.ToLower(c.name)]; ok {
			sel = append(sel, quoteIdent(c.name)+" AS "+quoteIdent(n))
			cols = append(cols, column{name: n, st: c.st})
			continue
		}
		sel = append(sel, quoteIdent(c.name))
		cols = append(cols, c)
	}
	return m.spDuck("SELECT "+strings.Join(sel, ", ")+" FROM "+m.in.sql, cols), nil
}

func (m *mcall) spDropNulls(names []string, how string) (*relation, error) {
	var conds []string
	for _, n := range names {
		c, ok := m.in.find(n)
		if !ok {
			return nil, laktoryErr(-1, "AnalysisException: [UNRESOLVED_COLUMN_AMONG_FIELD_NAMES] Cannot resolve column name %q among (%s).", n, strings.Join(m.in.names(), ", "))
		}
		conds = append(conds, quoteIdent(c.name)+" IS NOT NULL")
	}
	op := " AND "
	if how == "all" {
		op = " OR "
	} else if how != "any" {
		return nil, laktoryErr(-1, "PySparkValueError: how ('%s') should be 'any' or 'all'", how)
	}
	if len(conds) == 0 {
		return m.in, nil
	}
	return m.spDuck("SELECT * FROM "+m.in.sql+" WHERE "+strings.Join(conds, op), m.in.cols), nil
}

func (m *mcall) spExplode(name string, outer bool) (*relation, error) {
	c, ok := m.in.find(name)
	if !ok {
		return nil, m.in.notFound("nw", name, -1)
	}
	if c.st.Kind != sparksql.KArray {
		return nil, laktoryErr(-1, "InvalidOperationError: `explode` operation not supported for dtype `%s`, expected List type", c.st)
	}
	var sel []string
	var cols []column
	for _, col := range m.in.cols {
		if col.name == c.name {
			q := quoteIdent(col.name)
			elem := col.st.Elem
			if outer {
				sel = append(sel, fmt.Sprintf("unnest(CASE WHEN %[1]s IS NULL OR len(%[1]s) = 0 THEN [NULL::%[2]s] ELSE %[1]s END) AS %[1]s", q, elem.DuckDB()))
			} else {
				sel = append(sel, "unnest("+q+") AS "+q)
			}
			cols = append(cols, column{name: col.name, st: elem})
			continue
		}
		sel = append(sel, quoteIdent(col.name))
		cols = append(cols, col)
	}
	return m.spDuck("SELECT "+strings.Join(sel, ", ")+" FROM "+m.in.sql, cols), nil
}

func (m *mcall) spUnpivot(a *args) (*relation, error) {
	on, index, err := m.unpivotNames(a)
	if err != nil {
		return nil, err
	}
	variable, val := a.str("variable_name"), a.str("value_name")
	var parts []string
	for _, n := range on {
		sel := []string{}
		for _, i := range index {
			sel = append(sel, sparkIdent(i))
		}
		sel = append(sel, sparkString(n)+" AS "+sparkIdent(variable), sparkIdent(n)+" AS "+sparkIdent(val))
		parts = append(parts, "SELECT "+strings.Join(sel, ", ")+" FROM {df}")
	}
	if len(parts) == 0 {
		return nil, unsupportedAt(-1, "", "unpivot without value columns")
	}
	return m.spQuery(strings.Join(parts, " UNION ALL "), nil)
}

// spRowWindow is the ORDER BY (ascending, nulls first) and the PARTITION BY
// (1 without partition columns) of with_row_index's window.
func (m *mcall) spRowWindow(orderBy value, part []string) (order, partition string, err error) {
	names, err := m.names([]value{orderBy}, "with_row_index")
	if err != nil {
		return "", "", err
	}
	var terms []string
	for _, n := range names {
		if _, ok := m.in.find(n); !ok {
			return "", "", m.in.notFound("nw", n, -1)
		}
		terms = append(terms, sparkIdent(n)+" ASC NULLS FIRST")
	}
	partition = "1"
	if len(part) > 0 {
		var ps []string
		for _, p := range part {
			ps = append(ps, sparkIdent(p))
		}
		partition = strings.Join(ps, ", ")
	}
	return strings.Join(terms, ", "), partition, nil
}

// spRowNumber adds row_number() - 1 ordered by orderBy (within partition).
func (m *mcall) spRowNumber(name string, orderBy value, part []string, first bool) (*relation, error) {
	if orderBy == nil {
		return nil, laktoryErr(-1, "TypeError: Must pass `order_by` to `with_row_index` for PySpark-like")
	}
	order, pb, err := m.spRowWindow(orderBy, part)
	if err != nil {
		return nil, err
	}
	idx := fmt.Sprintf("(row_number() OVER (PARTITION BY %s ORDER BY %s) - 1) AS %s", pb, order, sparkIdent(name))
	if first {
		return m.spQuery("SELECT "+idx+", * FROM {df}", nil)
	}
	return m.spQuery("SELECT *, "+idx+" FROM {df}", nil)
}

// spRowIndex is laktory.with_row_index on PYSPARK: narwhals' cum_count
// over the window, minus 1 (bigint), appended.
func (m *mcall) spRowIndex(name string, orderBy value, part []string) (*relation, error) {
	order, pb, err := m.spRowWindow(orderBy, part)
	if err != nil {
		return nil, err
	}
	idx := fmt.Sprintf("(count(1) OVER (PARTITION BY %s ORDER BY %s ROWS BETWEEN UNBOUNDED PRECEDING AND CURRENT ROW) - 1) AS %s", pb, order, sparkIdent(name))
	return m.spQuery("SELECT *, "+idx+" FROM {df}", nil)
}

// spNwJoin is narwhals' join on PYSPARK (its renaming of the right side).
func (m *mcall) spNwJoin(a *args) (*relation, error) {
	right, err := m.frameArg(a.get("other"), "join")
	if err != nil {
		return nil, err
	}
	how, _ := a.get("how").(string)
	switch how {
	case "inner", "left", "full", "cross", "anti", "semi":
	default:
		return nil, laktoryErr(-1, "NotImplementedError: Only the following join strategies are supported: ('inner', 'left', 'full', 'cross', 'anti', 'semi'); found %s.", pyStr(how))
	}
	var lon, ron []string
	if a.get("on") != nil {
		if lon, err = m.names([]value{a.get("on")}, "join"); err != nil {
			return nil, err
		}
		ron = lon
	} else {
		if a.get("left_on") != nil {
			lon, _ = m.names([]value{a.get("left_on")}, "join")
		}
		if a.get("right_on") != nil {
			ron, _ = m.names([]value{a.get("right_on")}, "join")
		}
	}
	if how != "cross" && (len(lon) == 0 || len(lon) != len(ron)) {
		return nil, laktoryErr(-1, "ValueError: Either (`left_on` and `right_on`) or `on` keys should be specified for %s join.", how)
	}
	suffix := a.str("suffix")
	left := map[string]bool{}
	for _, c := range m.in.cols {
		left[c.name] = true
	}
	// The right side renamed: keys to the left's names, clashes suffixed
	// (for full joins every right column).
	rename := map[string]string{}
	for i := range ron {
		rename[ron[i]] = lon[i]
	}
	for _, c := range right.cols {
		if indexOf(ron, c.name) >= 0 && how != "full" {
			continue
		}
		n := c.name
		if left[n] {
			n += suffix
		}
		rename[c.name] = n
	}
	var rsel []string
	for _, c := range right.cols {
		rsel = append(rsel, sparkIdent(c.name)+" AS "+sparkIdent(rename[c.name]))
	}
	var sel []string
	for _, c := range m.in.cols {
		sel = append(sel, "l."+sparkIdent(c.name))
	}
	switch how {
	case "inner", "left", "cross":
		for _, c := range right.cols {
			if indexOf(ron, c.name) < 0 {
				sel = append(sel, "r."+sparkIdent(rename[c.name]))
			}
		}
	case "full":
		for _, c := range right.cols {
			sel = append(sel, "r."+sparkIdent(rename[c.name]))
		}
	}
	kind := map[string]string{"inner": "INNER JOIN", "left": "LEFT JOIN", "full": "FULL OUTER JOIN", "cross": "CROSS JOIN", "semi": "LEFT SEMI JOIN", "anti": "LEFT ANTI JOIN"}[how]
	var cond []string
	for i := range lon {
		if _, ok := m.in.find(lon[i]); !ok {
			return nil, m.in.notFound("nw", lon[i], -1)
		}
		if _, ok := right.find(ron[i]); !ok {
			return nil, right.notFound("nw", ron[i], -1)
		}
		if how == "full" {
			cond = append(cond, "l."+sparkIdent(lon[i])+" = r."+sparkIdent(rename[ron[i]]))
		}
	}
	q := "SELECT " + strings.Join(sel, ", ") + " FROM {df} AS l " + kind + " (SELECT " + strings.Join(rsel, ", ") + " FROM {sources.lk_other}) AS r"
	switch how {
	case "cross":
	case "full":
		q += " ON " + strings.Join(cond, " AND ")
	default:
		var keys []string
		for _, k := range lon {
			keys = append(keys, sparkIdent(k))
		}
		// USING over the left's key names, as PySpark's join(on=[...]).
		q = "SELECT " + strings.Join(sel, ", ") + " FROM {df} AS l " + kind + " (SELECT " + strings.Join(rsel, ", ") + " FROM {sources.lk_other}) AS r USING (" + strings.Join(keys, ", ") + ")"
	}
	return m.spQuery(q, map[string]*relation{"sources.lk_other": right})
}

// spJoin is PySpark's DataFrame.join(other, on, how).
func (m *mcall) spJoin(a *args) (*relation, error) {
	right, err := m.frameArg(a.get("other"), "join")
	if err != nil {
		return nil, err
	}
	how := "inner"
	if h, ok := a.get("how").(string); ok {
		how = strings.ToLower(h)
	}
	kind := map[string]string{"inner": "INNER JOIN", "cross": "CROSS JOIN", "outer": "FULL OUTER JOIN", "full": "FULL OUTER JOIN",
		"fullouter": "FULL OUTER JOIN", "full_outer": "FULL OUTER JOIN", "left": "LEFT JOIN", "leftouter": "LEFT JOIN",
		"left_outer": "LEFT JOIN", "right": "RIGHT JOIN", "rightouter": "RIGHT JOIN", "right_outer": "RIGHT JOIN",
		"semi": "LEFT SEMI JOIN", "leftsemi": "LEFT SEMI JOIN", "left_semi": "LEFT SEMI JOIN", "anti": "LEFT ANTI JOIN",
		"leftanti": "LEFT ANTI JOIN", "left_anti": "LEFT ANTI JOIN"}[how]
	if kind == "" {
		return nil, laktoryErr(-1, "AnalysisException: [UNSUPPORTED_JOIN_TYPE] Unsupported join type '%s'.", how)
	}
	refs := map[string]*relation{"sources.lk_other": right}
	switch on := a.get("on").(type) {
	case nil:
		if kind == "CROSS JOIN" || kind == "INNER JOIN" {
			return m.spQuery("SELECT * FROM {df} CROSS JOIN {sources.lk_other}", refs)
		}
		return nil, unsupportedAt(-1, "", "a join without `on`")
	case *spExpr:
		return nil, unsupportedAt(-1, "join on the column names: on: [key]", "a join on a Column expression")
	default:
		keys, err := m.names([]value{on}, "join")
		if err != nil {
			return nil, err
		}
		var q []string
		for _, k := range keys {
			q = append(q, sparkIdent(k))
		}
		return m.spQuery("SELECT * FROM {df} "+kind+" {sources.lk_other} USING ("+strings.Join(q, ", ")+")", refs)
	}
}

// spOrderBy is orderBy/sort(*cols, ascending=...).
func (m *mcall) spOrderBy(a *args) (*relation, error) {
	e := m.sp()
	var items []value
	for _, v := range a.rest {
		if elts, ok := elements(v); ok {
			items = append(items, elts...)
		} else {
			items = append(items, v)
		}
	}
	asc := a.kw["ascending"]
	var terms []string
	for i, it := range items {
		x, err := e.exprArg("F", it, -1, true)
		if err != nil {
			return nil, err
		}
		dir := x.sortKey
		if dir == "" {
			up := true
			if asc != nil {
				v := asc
				if elts, ok := elements(asc); ok {
					if i < len(elts) {
						v = elts[i]
					}
				}
				up, _ = truthy(v)
			}
			dir = "ASC NULLS FIRST"
			if !up {
				dir = "DESC NULLS LAST"
			}
		}
		terms = append(terms, x.sql+" "+dir)
	}
	if len(terms) == 0 {
		return nil, laktoryErr(-1, "PySparkValueError: [CANNOT_BE_EMPTY] At least one column must be specified.")
	}
	// Spark SQL for the keys (expressions), the frame's order on ties.
	q := "SELECT * FROM {df} ORDER BY " + strings.Join(terms, ", ")
	r, err := m.spQuery(q, nil)
	if err != nil {
		return nil, err
	}
	return r, nil
}

// spFillna is fillna(value, subset): a number fills the numeric columns,
// a string the strings, a bool the booleans; a dict names the columns.
func (m *mcall) spFillna(a *args) (*relation, error) {
	vals := map[string]value{}
	var subset []string
	if a.get("subset") != nil {
		s, err := m.names([]value{a.get("subset")}, "fillna")
		if err != nil {
			return nil, err
		}
		subset = s
	}
	if d, ok := a.get("value").(*pyDict); ok {
		for i, k := range d.keys {
			ks, _ := k.(string)
			vals[strings.ToLower(ks)] = d.vals[i]
		}
	}
	var sel []string
	for _, c := range m.in.cols {
		v, has := vals[strings.ToLower(c.name)]
		if len(vals) == 0 {
			v, has = a.get("value"), subset == nil || indexOf(subset, c.name) >= 0
		}
		fill := false
		if has {
			switch v.(type) {
			case int64, float64:
				fill = c.st.Kind >= sparksql.KByte && c.st.Kind <= sparksql.KDecimal
			case string:
				fill = c.st.Kind == sparksql.KString
			case bool:
				fill = c.st.Kind == sparksql.KBool
			}
		}
		if !fill {
			sel = append(sel, sparkIdent(c.name))
			continue
		}
		lit, err := sparkLiteral(v, -1)
		if err != nil {
			return nil, err
		}
		sel = append(sel, "coalesce("+sparkIdent(c.name)+", CAST("+lit+" AS "+c.st.String()+")) AS "+sparkIdent(c.name))
	}
	return m.spQuery("SELECT "+strings.Join(sel, ", ")+" FROM {df}", nil)
}

// spGroupBy is narwhals' group_by(keys).agg(*aggs) on PYSPARK.
func (m *mcall) spGroupBy(ev *evaluator, groups []string, aggs []value) (*relation, error) {
	e := ev.eng.(*spEngine)
	var sel, by []string
	for _, g := range groups {
		c, ok := m.in.find(g)
		if !ok {
			return nil, m.in.notFound("nw", g, -1)
		}
		sel = append(sel, sparkIdent(c.name))
		by = append(by, sparkIdent(c.name))
	}
	for i, v := range aggs {
		where := fmt.Sprintf("%s[%d]", m.kwArg["agg_expressions"], i)
		x, err := e.methodArg("nw", v)
		if err != nil {
			return nil, at(err, where)
		}
		xs := x.each()
		for _, y := range xs {
			s, err := e.resolve(y.sql, nil, "", true)
			if err != nil {
				return nil, at(err, where)
			}
			sel = append(sel, s+" AS "+sparkIdent(y.name))
		}
	}
	q := "SELECT " + strings.Join(sel, ", ") + " FROM {df}"
	if len(by) > 0 {
		q += " GROUP BY " + strings.Join(by, ", ")
	}
	return m.spQuery(q, nil)
}
