package sparksql

import (
	"fmt"
	"strconv"
	"strings"
)

// The aggregates of round 8: bit_and/bit_or/bit_xor, skewness/kurtosis,
// the regr_ family and listagg/string_agg, with Spark 4.2's NULL
// handling, result types and empty groups.

// msgStatOverflow is the run's stop for statistics over values whose
// squares overflow (see statFormat).
const msgStatOverflow = "[LOCALLY_UNSUPPORTED.STATISTIC_OVERFLOW] A variance, standard deviation, covariance or correlation of values above 1e150 in magnitude: Spark computes Infinity or NaN there, by the order of the rows, which the local run does not reproduce."

// statGuard wraps a statistic's format: NaN where an input counted by
// part nan (an index of the parts) is NaN or infinite, the run stopped
// where one counted by part big is above 1e150, else inner.
func statGuard(inner string, nan, big int) string {
	return fmt.Sprintf("CASE WHEN %%[%d]s > 0 THEN CAST('NaN' AS DOUBLE) WHEN %%[%d]s > 0 THEN error(%s) ELSE %s END", nan, big, sqlq(msgStatOverflow), inner)
}

// pairs are the two double arguments of a statistic over pairs (y, x):
// the pair's values where both are non-NULL (NULL otherwise) and finite
// below 1e150, and the conditions "the pair has a NaN or infinite value"
// and "the pair has a larger one", over the given sides.
type pairs struct {
	both, py, px string
}

func newPairs(y, x string) *pairs {
	both := "(" + y + " IS NOT NULL AND " + x + " IS NOT NULL)"
	fy, _, _ := finiteParts(y)
	fx, _, _ := finiteParts(x)
	return &pairs{both: both, py: "CASE WHEN " + both + " THEN " + fy + " END", px: "CASE WHEN " + both + " THEN " + fx + " END"}
}

// guards are the counts of the pairs whose sides (y, x or both) are
// NaN or infinite, and above 1e150.
func (p *pairs) guards(sides ...string) (nan, big string) {
	var ns, bs []string
	for _, s := range sides {
		_, n, b := finiteParts(s)
		ns, bs = append(ns, n), append(bs, b)
	}
	return "count_if(" + p.both + " AND (" + strings.Join(ns, " OR ") + "))", "count_if(" + p.both + " AND (" + strings.Join(bs, " OR ") + "))"
}

func statFuncs(avgImpl func(c *fcall) (*rx, error)) []*fnDef {
	bit := func(name string) *fnDef {
		return agg(name, Same, 1, 1, func(c *fcall) (*rx, error) {
			x := c.args[0]
			if !x.t.isIntegral() {
				return nil, c.wrongType(0, `"INTEGRAL"`)
			}
			return c.aggOut(x.t, "%[1]s", name+"("+c.distinct()+x.sql+")"), nil
		})
	}
	// skewness and kurtosis: Spark's CentralMomentAgg folds the values
	// in the order it reads them; spark_moment (runner/engine/local)
	// folds the group's list with the same expressions.
	moment := func(name string, order int) *fnDef {
		return withNote(agg(name, Rewritten, 1, 1, func(c *fcall) (*rx, error) {
			x, err := c.typed(0, tDouble)
			if err != nil {
				return nil, err
			}
			return c.aggOut(tDouble, "spark_moment(%[1]s, "+strconv.Itoa(order)+")", "list("+c.distinct()+x.sql+")"), nil
		}), "Spark's update expressions, folded in the order the rows are read")
	}
	// numeric is argument i for the regr_ functions that take Spark's
	// NumericType (regr_count, regr_avgx, regr_avgy): a string is cast to
	// a double.
	numeric := func(c *fcall, i int) (*rx, error) {
		x := c.args[i]
		if x.t.isNumeric() {
			return x, nil
		}
		if x.t.Kind == KString || x.t.Kind == KVoid {
			return c.typed(i, tDouble)
		}
		return nil, c.wrongType(i, `"NUMERIC"`)
	}
	doubles := func(c *fcall) (y, x *rx, err error) {
		if y, err = c.typed(0, tDouble); err != nil {
			return nil, nil, err
		}
		if x, err = c.typed(1, tDouble); err != nil {
			return nil, nil, err
		}
		return y, x, nil
	}
	regrCount := agg("regr_count", Rewritten, 2, 2, func(c *fcall) (*rx, error) {
		y, err := numeric(c, 0)
		if err != nil {
			return nil, err
		}
		x, err := numeric(c, 1)
		if err != nil {
			return nil, err
		}
		return c.aggOut(tLong, "CAST(%[1]s AS BIGINT)", "count_if("+y.sql+" IS NOT NULL AND "+x.sql+" IS NOT NULL)"), nil
	})
	// regr_avgx and regr_avgy are Spark's avg of the side where both
	// are non-NULL (a decimal average for decimals).
	regrAvg := func(name string, side int) *fnDef {
		return agg(name, Rewritten, 2, 2, func(c *fcall) (*rx, error) {
			y, err := numeric(c, 0)
			if err != nil {
				return nil, err
			}
			x, err := numeric(c, 1)
			if err != nil {
				return nil, err
			}
			v := x
			if side == 0 {
				v = y
			}
			arg := mk(v.t, "CASE WHEN "+y.sql+" IS NOT NULL AND "+x.sql+" IS NOT NULL THEN "+v.sql+" END", v.name, y, x)
			sub := *c
			sub.args = []*rx{arg}
			out, err := avgImpl(&sub)
			if err != nil {
				return nil, err
			}
			out.name = c.name
			return out, nil
		})
	}
	// regr over doubles: inner is the format over the parts, then the
	// guards over the sides the statistic reads.
	regr := func(name string, build func(p *pairs) (inner string, parts []string, sides string)) *fnDef {
		return agg(name, Rewritten, 2, 2, func(c *fcall) (*rx, error) {
			y, x, err := doubles(c)
			if err != nil {
				return nil, err
			}
			p := newPairs(y.sql, x.sql)
			inner, parts, sides := build(p)
			var ss []string
			if strings.Contains(sides, "y") {
				ss = append(ss, y.sql)
			}
			if strings.Contains(sides, "x") {
				ss = append(ss, x.sql)
			}
			nan, big := p.guards(ss...)
			parts = append(parts, nan, big)
			return c.aggOut(tDouble, statGuard(inner, len(parts)-1, len(parts)), parts...), nil
		})
	}
	return []*fnDef{
		bit("bit_and"), bit("bit_or"), bit("bit_xor"),
		moment("skewness", 3), moment("kurtosis", 4),
		regrCount, regrAvg("regr_avgx", 1), regrAvg("regr_avgy", 0),
		// Spark: NULL where the x values' second moment is 0, else
		// covar_pop * n / (var_pop(x) * n).
		regr("regr_slope", func(p *pairs) (string, []string, string) {
			return "CASE WHEN %[2]s = 0 THEN NULL ELSE %[1]s / %[2]s END", []string{"covar_pop(" + p.py + ", " + p.px + ")", "var_pop(" + p.px + ")"}, "xy"
		}),
		regr("regr_intercept", func(p *pairs) (string, []string, string) {
			return "CASE WHEN %[2]s = 0 THEN NULL ELSE %[3]s - %[1]s / %[2]s * %[4]s END",
				[]string{"covar_pop(" + p.py + ", " + p.px + ")", "var_pop(" + p.px + ")", "avg(" + p.py + ")", "avg(" + p.px + ")"}, "xy"
		}),
		// NULL where x is constant, 1.0 where y is, else corr².
		regr("regr_r2", func(p *pairs) (string, []string, string) {
			return "CASE WHEN %[1]s = 0 THEN NULL WHEN %[2]s = 0 THEN CAST(1.0 AS DOUBLE) ELSE %[3]s * %[3]s END",
				[]string{"var_pop(" + p.px + ")", "var_pop(" + p.py + ")", "corr(" + p.py + ", " + p.px + ")"}, "xy"
		}),
		regr("regr_sxx", func(p *pairs) (string, []string, string) {
			return "CASE WHEN %[2]s = 0 THEN NULL ELSE %[1]s * %[2]s END", []string{"var_pop(" + p.px + ")", "count(" + p.px + ")"}, "x"
		}),
		regr("regr_syy", func(p *pairs) (string, []string, string) {
			return "CASE WHEN %[2]s = 0 THEN NULL ELSE %[1]s * %[2]s END", []string{"var_pop(" + p.py + ")", "count(" + p.py + ")"}, "y"
		}),
		regr("regr_sxy", func(p *pairs) (string, []string, string) {
			return "CASE WHEN %[2]s = 0 THEN NULL ELSE %[1]s * %[2]s END", []string{"covar_pop(" + p.py + ", " + p.px + ")", "count(" + p.px + ")"}, "xy"
		}),
		listagg("listagg"), listagg("string_agg"),
	}
}

// corrFunc is Spark's corr with ANSI mode: NULL for fewer than two pairs,
// DIVIDE_BY_ZERO where x or y is constant (ck / sqrt(xMk * yMk) divides
// by zero), NaN where a value is NaN or infinite.
func corrFunc() *fnDef {
	return agg("corr", Same, 2, 2, func(c *fcall) (*rx, error) {
		a, err := c.typed(0, tDouble)
		if err != nil {
			return nil, err
		}
		b, err := c.typed(1, tDouble)
		if err != nil {
			return nil, err
		}
		p := newPairs(a.sql, b.sql)
		nan, big := p.guards(a.sql, b.sql)
		inner := "CASE WHEN %[2]s = 0 OR %[3]s = 0 THEN error(" + sqlq(msgDivideByZero) + ") ELSE %[1]s END"
		format := "CASE WHEN %[4]s < 2 THEN NULL ELSE " + statGuard(inner, 5, 6) + " END"
		return c.aggOut(tDouble, format, "corr("+c.distinct()+p.py+", "+p.px+")", "var_pop("+p.py+")", "var_pop("+p.px+")", "count_if("+p.both+")", nan, big), nil
	})
}

// listagg(x [, delimiter]) [WITHIN GROUP (ORDER BY ...)]: the group's
// non-NULL values as strings joined by the delimiter (none when it is
// NULL or missing), in the order asked for; NULL for none. Spark joins
// the values in the order it reads them where no ordering (or a tie)
// decides, which depends on how the input is split: a group where that
// order matters stops the run rather than differ.
func listagg(name string) *fnDef {
	return agg(name, Rewritten, 1, 2, func(c *fcall) (*rx, error) {
		x := c.args[0]
		if x.t.Kind == KBinary {
			return nil, unsupported(c.pos(), "cast the values to STRING", "%s of BINARY values", name)
		}
		x, err := c.typed(0, tString)
		if err != nil {
			return nil, err
		}
		delim := "''"
		if len(c.args) == 2 {
			if !c.args[1].foldable {
				return nil, sparkErr(c.argPos(1), "DATATYPE_MISMATCH.NON_FOLDABLE_INPUT", "Cannot resolve %s due to data type mismatch: the input `delimiter` should be a foldable \"STRING\" expression; however, got %s.", quoteSparkSQL(c.name), quoteSparkSQL(c.args[1].name))
			}
			d, null, err := c.litStr(1, "delimiter")
			if err != nil {
				return nil, err
			}
			if !null {
				delim = duckString(d)
			}
		}
		var keys, kfields []string
		for i, it := range c.node.Within {
			o, err := c.r.expr(it.X, c.sc, c.ctx)
			if err != nil {
				return nil, err
			}
			if c.node.Distinct && FormatExpr(it.X) != FormatExpr(c.node.Args[0]) {
				return nil, sparkErr(c.pos(), "INVALID_WITHIN_GROUP_EXPRESSION.MISMATCH_WITH_DISTINCT_INPUT", "Invalid function `%s` with WITHIN GROUP. The function is invoked with DISTINCT and WITHIN GROUP but expressions %s and %s do not match.", name, quoteSparkSQL(x.name), quoteSparkSQL(o.name))
			}
			dir, nulls := "ASC", "FIRST"
			if it.Desc {
				dir, nulls = "DESC", "LAST"
			}
			if it.Nulls != "" {
				nulls = it.Nulls
			}
			k := c.r.orderKey(o.sql, o.t)
			keys = append(keys, k+" "+dir+" NULLS "+nulls)
			kfields = append(kfields, fmt.Sprintf("k%d := %s", i, k))
		}
		order := ""
		if len(keys) > 0 {
			order = " ORDER BY " + strings.Join(keys, ", ")
		}
		d := c.distinct()
		join := "string_agg(" + d + x.sql + ", " + delim + order + ")"
		if d != "" && len(keys) > 0 {
			return c.aggOut(tString, "%[1]s", join), nil
		}
		stop := "error(" + sqlq("[LOCALLY_UNSUPPORTED.LISTAGG_ORDER] "+name+"() of a group whose values are not all ordered by WITHIN GROUP (ORDER BY ...): Spark joins them in the order it reads the rows, which depends on how the input is split; order them by a key that tells the rows apart.") + ")"
		nn := "CASE WHEN " + x.sql + " IS NOT NULL THEN "
		if len(keys) == 0 {
			return c.aggOut(tString, "CASE WHEN %[2]s > 1 THEN "+stop+" ELSE %[1]s END", join, "count(DISTINCT "+x.sql+")"), nil
		}
		withV := nn + "struct_pack(" + strings.Join(kfields, ", ") + ", v := " + x.sql + ") END"
		keysOnly := nn + "struct_pack(" + strings.Join(kfields, ", ") + ") END"
		return c.aggOut(tString, "CASE WHEN %[2]s > %[3]s THEN "+stop+" ELSE %[1]s END", join, "count(DISTINCT "+withV+")", "count(DISTINCT "+keysOnly+")"), nil
	})
}
