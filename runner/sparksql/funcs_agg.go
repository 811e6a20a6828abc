package sparksql

import (
	"fmt"
	"strings"
)

var aggMacros = []macro{
	{"spark_long_sum", "h", "CASE WHEN h > 9223372036854775807 OR h < -9223372036854775808 THEN error('[ARITHMETIC_OVERFLOW] long overflow. Use ''try_sum'' to tolerate overflow and return NULL instead. If necessary set \"spark.sql.ansi.enabled\" to \"false\" to bypass this error.') ELSE CAST(h AS BIGINT) END"},
}

// extraMacros are the macros of the function families.
var extraMacros = func() []macro {
	var out []macro
	for _, ms := range [][]macro{stringMacros, caseMacros, formatMacros, mathMacros, datetimeMacros, collectionMacros, aggMacros, jsonMacros, codecMacros} {
		out = append(out, ms...)
	}
	return out
}()

// DuckDB's statistical aggregates fail when their result is not finite;
// Spark's give NaN when an input is NaN or infinite and Infinity or NaN
// (by the order of the rows) when squares overflow. statFormat combines
// the aggregate over the finite inputs below 1e150 (%[1]s) with the
// counts of non-finite inputs (%[2]s: the result is NaN) and of larger
// ones (%[3]s: the run stops, saying why).
const statFormat = "CASE WHEN %[2]s > 0 THEN CAST('NaN' AS DOUBLE) WHEN %[3]s > 0 THEN error('[LOCALLY_UNSUPPORTED.STATISTIC_OVERFLOW] A variance, standard deviation, covariance or correlation of values above 1e150 in magnitude: Spark computes Infinity or NaN there, by the order of the rows, which the local run does not reproduce.') ELSE %[1]s END"

// finiteParts: x when finite and at most 1e150 in magnitude (else NULL),
// the condition "x is NaN or infinite", the condition "x is larger".
func finiteParts(x string) (f, nan, big string) {
	return "CASE WHEN isfinite(" + x + ") AND abs(" + x + ") <= 1e150 THEN " + x + " END",
		"NOT isfinite(" + x + ")", "(isfinite(" + x + ") AND abs(" + x + ") > 1e150)"
}

// agg is an aggregate table entry.
func agg(name string, s Support, min, max int, impl func(c *fcall) (*rx, error)) *fnDef {
	d := fn(name, s, min, max, impl)
	d.agg = true
	return d
}

// noAgg is an aggregate local runs do not translate: marked as one, so
// that what reads the table (the grouped-query checks, LK168's streaming
// aggregations) knows it aggregates.
func noAgg(name, note string) *fnDef {
	d := no(name, note)
	d.agg = true
	return d
}

// win is a window function entry.
func win(name string, min, max int, impl func(c *fcall) (*rx, error)) *fnDef {
	d := fn(name, Rewritten, min, max, impl)
	d.win = true
	return d
}

// distinct is "DISTINCT " when the call has it.
func (c *fcall) distinct() string {
	if c.node.Distinct {
		return "DISTINCT "
	}
	return ""
}

func aggFuncs() []*fnDef {
	sum := func(name string, try bool) *fnDef {
		return agg(name, Rewritten, 1, 1, func(c *fcall) (*rx, error) {
			x := c.args[0]
			if x.t.Kind == KString {
				y, err := c.typed(0, tDouble)
				if err != nil {
					return nil, err
				}
				x = y
			}
			d := c.distinct()
			switch {
			case x.t.isIntegral():
				if try {
					return c.aggOut(tLong, "TRY_CAST(%[1]s AS BIGINT)", "sum("+d+"CAST("+x.sql+" AS BIGINT))"), nil
				}
				return c.aggOut(tLong, "spark_long_sum(%[1]s)", "sum("+d+"CAST("+x.sql+" AS BIGINT))"), nil
			case x.t.Kind == KDecimal:
				t := boundedDecimal(x.t.P+10, x.t.S)
				cast := "CAST"
				if try {
					cast = "TRY_CAST"
				}
				return c.aggOut(t, cast+"(%[1]s AS "+t.DuckDB()+")", "sum("+d+x.sql+")"), nil
			case x.t.isFractional():
				return c.aggOut(tDouble, "%[1]s", "sum("+d+"CAST("+x.sql+" AS DOUBLE))"), nil
			case x.t.Kind == KVoid:
				return c.aggOut(tDouble, "CAST(%[1]s AS DOUBLE)", "sum("+d+"CAST(NULL AS DOUBLE))"), nil
			}
			return nil, c.wrongType(0, `"NUMERIC" or "ANSI INTERVAL"`)
		})
	}
	avg := func(name string, try bool) *fnDef {
		return agg(name, Rewritten, 1, 1, func(c *fcall) (*rx, error) {
			x := c.args[0]
			d := c.distinct()
			switch {
			case x.t.Kind == KDecimal:
				t := boundedDecimal(x.t.P+4, x.t.S+4)
				// Exact: round(sum * 10^4 / count), half up, at scale s+4.
				s := x.t.S
				unscaledSum := unscaled("%[1]s", s, s)
				div := fmt.Sprintf("spark_round_div(%s * CAST(10000 AS HUGEINT), CAST(%%[2]s AS HUGEINT))", unscaledSum)
				val := "CAST(" + div + " AS DECIMAL(38,0))"
				if t.S > 0 {
					val = "(" + val + " * " + pow10(-t.S) + ")"
				}
				cast := "CAST"
				if try {
					cast = "TRY_CAST"
				}
				return c.aggOut(t, "CASE WHEN %[2]s = 0 THEN NULL ELSE "+cast+"("+val+" AS "+t.DuckDB()+") END", "sum("+d+x.sql+")", "count("+d+x.sql+")"), nil
			case x.t.isNumeric() || x.t.Kind == KString || x.t.Kind == KVoid:
				y, err := c.typed(0, tDouble)
				if err != nil {
					return nil, err
				}
				return c.aggOut(tDouble, "%[1]s", "avg("+d+y.sql+")"), nil
			}
			return nil, c.wrongType(0, `"NUMERIC" or "ANSI INTERVAL"`)
		})
	}
	count := agg("count", Rewritten, 0, -1, func(c *fcall) (*rx, error) {
		if c.node.StarArg || len(c.args) == 0 {
			c.name = "count(1)"
			return c.aggOut(tLong, "%[1]s", "count(*)"), nil
		}
		d := c.distinct()
		if len(c.args) == 1 {
			x := c.args[0]
			if x.lit != nil && x.t.Kind != KVoid && d == "" {
				return c.aggOut(tLong, "%[1]s", "count(*)"), nil
			}
			return c.aggOut(tLong, "%[1]s", "count("+d+x.sql+")"), nil
		}
		var conds, fields []string
		for i, a := range c.args {
			conds = append(conds, a.sql+" IS NOT NULL")
			fields = append(fields, fmt.Sprintf("'f%d': %s", i, a.sql))
		}
		return c.aggOut(tLong, "%[1]s", "count("+d+"CASE WHEN "+strings.Join(conds, " AND ")+" THEN {"+strings.Join(fields, ", ")+"} END)"), nil
	})
	minmax := func(name string) *fnDef {
		return agg(name, Same, 1, 1, func(c *fcall) (*rx, error) {
			x := c.args[0]
			if !orderable(x.t) {
				return nil, c.wrongType(0, "an orderable type")
			}
			if needsOrderKey(x.t) {
				// Spark's order of nested NULLs (ordering.go).
				return c.aggOut(x.t, "%[1]s", "arg_"+name+"("+x.sql+", "+c.r.orderKey(x.sql, x.t)+")"), nil
			}
			return c.aggOut(x.t, "%[1]s", name+"("+x.sql+")"), nil
		})
	}
	first := func(name, duck string) *fnDef {
		return agg(name, Rewritten, 1, 2, func(c *fcall) (*rx, error) {
			x := c.args[0]
			ignore := c.node.Nulls == "IGNORE"
			if len(c.args) == 2 {
				b := c.args[1]
				if b.lit == nil || b.lit.Kind != LitBool {
					return nil, sparkErr(c.argPos(1), "DATATYPE_MISMATCH.UNEXPECTED_INPUT_TYPE", "The second argument of %s must be a boolean literal.", name)
				}
				ignore = ignore || b.lit.Value == "TRUE"
				c.args = c.args[:1]
			}
			c.name = name + "(" + x.name + ")"
			if ignore {
				c.name += " ignore nulls"
				out := c.aggOut(x.t, "%[1]s", duck+"("+x.sql+") FILTER (WHERE "+x.sql+" IS NOT NULL)")
				out.winParts = []string{duck + "_value(" + x.sql + " IGNORE NULLS)"}
				return out, nil
			}
			return c.aggOut(x.t, "%[1]s", duck+"("+x.sql+")"), nil
		})
	}
	collect := func(name string, distinct bool) *fnDef {
		return agg(name, Rewritten, 1, 1, func(c *fcall) (*rx, error) {
			x := c.args[0]
			d := c.distinct()
			if distinct {
				d = "DISTINCT "
				if x.t.Kind == KMap {
					return nil, c.wrongType(0, "a type that is not a MAP")
				}
			}
			v := c.r.lambdaName()
			t := arrayOf(x.t)
			return c.aggOut(t, "coalesce(list_filter(%[1]s, "+v+" -> "+v+" IS NOT NULL), CAST([] AS "+t.DuckDB()+"))", "list("+d+x.sql+")"), nil
		})
	}
	stat := func(name, duck string) *fnDef {
		return agg(name, Same, 1, 1, func(c *fcall) (*rx, error) {
			x, err := c.typed(0, tDouble)
			if err != nil {
				return nil, err
			}
			f, nan, big := finiteParts(x.sql)
			return c.aggOut(tDouble, statFormat, duck+"("+c.distinct()+f+")", "count_if("+nan+")", "count_if("+big+")"), nil
		})
	}
	stat2 := func(name, duck string) *fnDef {
		return agg(name, Same, 2, 2, func(c *fcall) (*rx, error) {
			a, err := c.typed(0, tDouble)
			if err != nil {
				return nil, err
			}
			b, err := c.typed(1, tDouble)
			if err != nil {
				return nil, err
			}
			fa, nana, biga := finiteParts(a.sql)
			fb, nanb, bigb := finiteParts(b.sql)
			both := "(" + a.sql + " IS NOT NULL AND " + b.sql + " IS NOT NULL)"
			return c.aggOut(tDouble, statFormat, duck+"(CASE WHEN "+both+" THEN "+fa+" END, CASE WHEN "+both+" THEN "+fb+" END)",
				"count_if("+both+" AND ("+nana+" OR "+nanb+"))", "count_if("+both+" AND ("+biga+" OR "+bigb+"))"), nil
		})
	}
	boolAgg := func(name, duck string) *fnDef {
		return agg(name, Same, 1, 1, func(c *fcall) (*rx, error) {
			x, err := c.r.boolArg(c.args[0], c.node.Args[0])
			if err != nil {
				return nil, err
			}
			return c.aggOut(tBool, "%[1]s", duck+"("+x.sql+")"), nil
		})
	}
	byFn := func(name, duck string) *fnDef {
		return agg(name, Same, 2, 2, func(c *fcall) (*rx, error) {
			x, y := c.args[0], c.args[1]
			if !orderable(y.t) {
				return nil, c.wrongType(1, "an orderable type")
			}
			// The value of the row with the greatest (least) ordering key,
			// NULL or not; rows whose key is NULL are skipped. Of rows tied
			// on the key Spark keeps the last one its task reads, which
			// depends on how the input is split: two picks, by the hash of
			// the value upward and downward, find tied rows of different
			// values, and there the run stops rather than differ.
			key := c.r.orderKey(y.sql, y.t)
			pick := func(h string) string {
				return duck + "_null(" + x.sql + ", CASE WHEN (" + key + ") IS NULL THEN NULL ELSE struct_pack(k := " + key + ", h := " + h + ") END)"
			}
			tie := "error('[LOCALLY_UNSUPPORTED.MAX_BY_TIE] " + name + "() of a group whose rows tied on the ordering key hold different values: Spark returns the one its task reads last, which depends on how the input is split; add a tie-breaker to the key, as in " + name + "(v, struct(ts, seq)).')"
			return c.aggOut(x.t, "CASE WHEN %[1]s IS DISTINCT FROM %[2]s THEN "+tie+" ELSE %[1]s END", pick("hash("+x.sql+")"), pick("~hash("+x.sql+")")), nil
		})
	}
	countIf := agg("count_if", Same, 1, 1, func(c *fcall) (*rx, error) {
		x, err := c.r.boolArg(c.args[0], c.node.Args[0])
		if err != nil {
			return nil, err
		}
		return c.aggOut(tLong, "CAST(%[1]s AS BIGINT)", "count_if("+x.sql+")"), nil
	})
	boolAnd := boolAgg("bool_and", "bool_and")
	boolOr := boolAgg("bool_or", "bool_or")
	stddev := stat("stddev", "stddev_samp")
	variance := stat("variance", "var_samp")
	// mode(x [, deterministic]) and mode() WITHIN GROUP (ORDER BY x): the
	// most frequent non-NULL value. Where several are, Spark returns the
	// lowest with deterministic (the highest for ORDER BY x DESC) and an
	// unspecified one without: there the run stops rather than differ.
	modeAgg := agg("mode", Rewritten, 0, 2, func(c *fcall) (*rx, error) {
		var x *rx
		lowest, det := true, false
		switch {
		case len(c.args) == 0 && len(c.node.Within) == 1:
			it := c.node.Within[0]
			var err error
			if x, err = c.r.expr(it.X, c.sc, c.ctx); err != nil {
				return nil, err
			}
			det, lowest = true, !it.Desc
		case len(c.args) >= 1 && len(c.node.Within) == 0:
			x = c.args[0]
			if len(c.args) == 2 {
				d := c.args[1]
				if d.t.Kind != KBool || d.lit == nil {
					return nil, unsupported(c.argPos(1), "write true or false", "a non-constant deterministic argument of mode")
				}
				det = strings.EqualFold(d.lit.Value, "true")
			}
		default:
			return nil, unsupported(c.pos(), "write mode(x) or mode() WITHIN GROUP (ORDER BY x)", "this form of mode")
		}
		switch x.t.Kind {
		case KFloat, KDouble:
			return nil, unsupported(c.pos(), "cast the values to DECIMAL or STRING", "mode of floating-point values (Spark tells 0.0 from -0.0 and NaNs apart as the local engine does not)")
		case KArray, KMap, KStruct, KBinary:
			return nil, unsupported(c.pos(), "", "mode of %s values", strings.ToUpper(x.t.String()))
		}
		pick := "error('[LOCALLY_UNSUPPORTED.MODE_TIE] mode() of a group with several most frequent values: Spark returns any one of them; pass true as its second argument for the lowest.')"
		if det {
			pick = "list_min(list_transform(m_mdt, m_mdk -> m_mdk.key))"
			if !lowest {
				pick = "list_max(list_transform(m_mdt, m_mdk -> m_mdk.key))"
			}
		}
		format := "list_transform([%[1]s], m_mdh -> CASE WHEN m_mdh IS NULL OR cardinality(m_mdh) = 0 THEN NULL ELSE " +
			"list_transform([list_filter(map_entries(m_mdh), m_mde -> m_mde.value = list_max(map_values(m_mdh)))], m_mdt -> CASE WHEN len(m_mdt) = 1 THEN m_mdt[1].key ELSE " + pick + " END)[1] END)[1]"
		return c.aggOut(x.t, "CAST("+format+" AS "+x.t.DuckDB()+")", "histogram("+x.sql+")"), nil
	})
	collectList := collect("collect_list", false)
	return append(statFuncs(avg("avg", false).impl), []*fnDef{
		sum("sum", false), sum("try_sum", true), avg("avg", false), alias("mean", avg("avg", false)), avg("try_avg", true),
		count, minmax("min"), minmax("max"),
		first("first", "first"), first("first_value", "first"), first("last", "last"), first("last_value", "last"),
		withNote(agg("any_value", Same, 1, 2, func(c *fcall) (*rx, error) {
			x := c.args[0]
			return c.aggOut(x.t, "%[1]s", "first("+x.sql+")"), nil
		}), "any value of the group, as in Spark"),
		collectList, alias("array_agg", collectList), collect("collect_set", true),
		countIf, boolAnd, alias("every", boolAnd), boolOr, alias("some", boolOr), alias("any", boolOr),
		stddev, alias("stddev_samp", stddev), alias("std", stddev), stat("stddev_pop", "stddev_pop"),
		variance, alias("var_samp", variance), stat("var_pop", "var_pop"),
		corrFunc(), stat2("covar_pop", "covar_pop"), stat2("covar_samp", "covar_samp"),
		byFn("max_by", "arg_max"), byFn("min_by", "arg_min"),
		agg("grouping", Same, 1, 1, func(c *fcall) (*rx, error) {
			if err := c.groupingSets(); err != nil {
				return nil, err
			}
			return c.aggOut(tByte, "CAST(%[1]s AS TINYINT)", "grouping("+c.args[0].sql+")"), nil
		}),
		agg("grouping_id", Same, 0, -1, func(c *fcall) (*rx, error) {
			if err := c.groupingSets(); err != nil {
				return nil, err
			}
			if len(c.args) == 0 {
				return c.aggOut(tLong, "CAST(%[1]s AS BIGINT)", "grouping("+gidPlaceholder+")"), nil
			}
			if g := c.r.gidArgs; len(g) > 0 {
				g[len(g)-1] = append(g[len(g)-1], sqls(c.args))
			}
			return c.aggOut(tLong, "CAST(%[1]s AS BIGINT)", "grouping("+strings.Join(sqls(c.args), ", ")+")"), nil
		}),
		noAgg("histogram_numeric", "Spark's approximation cannot be reproduced"), noAgg("approx_top_k", "Spark's approximation cannot be reproduced"),
		noAgg("count_min_sketch", "Spark's sketch cannot be reproduced"),
		noAgg("bitmap_construct_agg", "not translated yet"), noAgg("bitmap_or_agg", "not translated yet"),
		noAgg("bitmap_and_agg", "not translated yet"),
		modeAgg,
		noAgg("hll_sketch_agg", "Spark's sketch cannot be reproduced"), noAgg("hll_union_agg", "Spark's sketch cannot be reproduced"),
		noAgg("approx_top_k_accumulate", "Spark's sketch cannot be reproduced"), noAgg("approx_top_k_combine", "Spark's sketch cannot be reproduced"),
		noAgg("kll_sketch_agg_bigint", "Spark's sketch cannot be reproduced"), noAgg("kll_sketch_agg_double", "Spark's sketch cannot be reproduced"),
		noAgg("kll_sketch_agg_float", "Spark's sketch cannot be reproduced"), noAgg("kll_merge_agg_bigint", "Spark's sketch cannot be reproduced"),
		noAgg("kll_merge_agg_double", "Spark's sketch cannot be reproduced"), noAgg("kll_merge_agg_float", "Spark's sketch cannot be reproduced"),
		noAgg("theta_sketch_agg", "Spark's sketch cannot be reproduced"), noAgg("theta_union_agg", "Spark's sketch cannot be reproduced"),
		noAgg("theta_intersection_agg", "Spark's sketch cannot be reproduced"),
		noAgg("tuple_sketch_agg_double", "Spark's sketch cannot be reproduced"), noAgg("tuple_sketch_agg_integer", "Spark's sketch cannot be reproduced"),
		noAgg("tuple_union_agg_double", "Spark's sketch cannot be reproduced"), noAgg("tuple_union_agg_integer", "Spark's sketch cannot be reproduced"),
		noAgg("tuple_intersection_agg_double", "Spark's sketch cannot be reproduced"), noAgg("tuple_intersection_agg_integer", "Spark's sketch cannot be reproduced"),
		noAgg("measure", "metric views are not modelled locally"),
	}...)
}

func windowFuncs() []*fnDef {
	intWin := func(name, duck string) *fnDef {
		return win(name, 0, 0, func(c *fcall) (*rx, error) {
			return c.aggOut(tInt, "CAST(%[1]s AS INTEGER)", duck+"()"), nil
		})
	}
	dblWin := func(name string) *fnDef {
		return win(name, 0, 0, func(c *fcall) (*rx, error) {
			return c.aggOut(tDouble, "%[1]s", name+"()"), nil
		})
	}
	lagLead := func(name string) *fnDef {
		return win(name, 1, 3, func(c *fcall) (*rx, error) {
			x := c.args[0]
			off := "1"
			if len(c.args) >= 2 {
				n, err := c.litInt(1, "offset")
				if err != nil {
					return nil, err
				}
				off = fmt.Sprint(n)
			}
			def := &rx{t: tVoid, sql: "NULL", name: "NULL", foldable: true}
			if len(c.args) == 3 {
				def = c.args[2]
			}
			// The default takes the input's type (Spark casts it).
			t := x.t
			if !implicitlyCastable(def.t, t) && !(def.t.isNumeric() && t.isNumeric()) {
				return nil, sparkErr(c.pos(), "DATATYPE_MISMATCH.DATA_DIFF_TYPES", "The default value of %s must have the input's type.", name)
			}
			xv, err := c.r.cast(x, t, castImplicit)
			if err != nil {
				return nil, err
			}
			dv, err := c.r.cast(def, t, castExplicit)
			if err != nil {
				return nil, err
			}
			ignore := ""
			if c.node.Nulls == "IGNORE" {
				ignore = " IGNORE NULLS"
			}
			frame := off
			if name == "lag" {
				frame = "-" + off
			}
			c.name = fmt.Sprintf("%s(%s, %s, %s)", name, x.name, off, def.name)
			x2 := c.aggOut(t, "%[1]s", fmt.Sprintf("%s(%s, %s, %s%s)", name, xv.sql, off, dv.sql, ignore))
			x2.frameName = "ROWS BETWEEN " + frame + " FOLLOWING AND " + frame + " FOLLOWING"
			return x2, nil
		})
	}
	return []*fnDef{
		intWin("row_number", "row_number"), intWin("rank", "rank"), intWin("dense_rank", "dense_rank"),
		dblWin("percent_rank"), dblWin("cume_dist"),
		win("ntile", 1, 1, func(c *fcall) (*rx, error) {
			n, err := c.litInt(0, "number of buckets")
			if err != nil {
				return nil, err
			}
			if n <= 0 {
				return nil, sparkErr(c.argPos(0), "DATATYPE_MISMATCH.VALUE_OUT_OF_RANGE", "The value of buckets must be positive, but got %d.", n)
			}
			return c.aggOut(tInt, "CAST(%[1]s AS INTEGER)", fmt.Sprintf("ntile(%d)", n)), nil
		}),
		lagLead("lag"), lagLead("lead"),
		win("nth_value", 2, 2, func(c *fcall) (*rx, error) {
			n, err := c.litInt(1, "offset")
			if err != nil {
				return nil, err
			}
			x := c.args[0]
			ignore := ""
			if c.node.Nulls == "IGNORE" {
				ignore = " IGNORE NULLS"
			}
			return c.aggOut(x.t, "%[1]s", fmt.Sprintf("nth_value(%s, %d%s)", x.sql, n, ignore)), nil
		}),
	}
}

// groupingSets: grouping() and grouping_id() need a GROUP BY with
// grouping sets in their own SELECT (Spark's analysis error otherwise).
func (c *fcall) groupingSets() error {
	if g := c.r.grouping; len(g) > 0 && g[len(g)-1] {
		return nil
	}
	return sparkErr(c.node.P, "UNSUPPORTED_GROUPING_EXPRESSION", "grouping()/grouping_id() can only be used with GroupingSets/Cube/Rollup.")
}
