package sparksql

import (
	"math/big"
	"strconv"
	"strings"
)

// Spark's exact percentiles (PercentileBase in Spark 4.2): percentile(x,
// p [, frequency]), median(x), percentile_cont(p) and percentile_disc(p)
// WITHIN GROUP (ORDER BY x [DESC]). The aggregate collects the group's
// values with their frequencies, and the local engine's spark_percentile
// (a Go function) computes Spark's result from them: the distinct values
// sorted as Spark sorts them (descending for DESC), their cumulative
// counts, the position (n - 1) * p interpolated linearly for percentile and
// percentile_cont, the value whose cumulative count reaches n * p for
// percentile_disc, in doubles as Spark computes them.

// Flags of spark_percentile (runner/engine/local).
const (
	pctDisc    = 1
	pctReverse = 2
	pctFloat   = 4
	pctFloat32 = 8
)

// tYearMonth is Spark's YearMonthIntervalType(), the type of a percentile
// of any YEAR TO MONTH interval.
var tYearMonth = &Type{Kind: KIntervalYM, From: "YEAR", To: "MONTH"}

// pctSpec is a percentile call once its arguments are known.
type pctSpec struct {
	x        *rx    // the values
	xName    string // how Spark's type errors name them
	p        *rx    // the percentage(s)
	pNode    Expr
	freq     *rx // nil: 1
	disc     bool
	reverse  bool
	internal string // Spark's name of the expression in its analysis errors
}

// percentileOf emits the aggregate of s.
func (c *fcall) percentileOf(s pctSpec) (*rx, error) {
	x := s.x
	var d, k string
	flags := 0
	out := tDouble
	switch x.t.Kind {
	case KByte, KShort, KInt:
		d, k = "CAST("+x.sql+" AS DOUBLE)", "CAST(NULL AS VARCHAR)"
	case KLong:
		// Longs beyond 2^53 share doubles: the identity tells them apart.
		d, k = "CAST("+x.sql+" AS DOUBLE)", "CAST("+x.sql+" AS VARCHAR)"
	case KDecimal:
		// Spark's Decimal.toDouble is the double nearest the decimal (Java's
		// BigDecimal.doubleValue): through the decimal's text, which DuckDB
		// reads correctly rounded, as its DECIMAL to DOUBLE cast is not.
		d, k = "CAST(CAST("+x.sql+" AS VARCHAR) AS DOUBLE)", "CAST(NULL AS VARCHAR)"
		if x.t.P > 15 {
			k = "CAST(" + x.sql + " AS VARCHAR)"
		}
	case KFloat, KDouble:
		d, k = "CAST("+x.sql+" AS DOUBLE)", "CAST(NULL AS VARCHAR)"
		flags |= pctFloat
		if x.t.Kind == KFloat {
			flags |= pctFloat32
		}
	case KString, KVoid:
		y, err := c.r.cast(x, tDouble, castImplicit)
		if err != nil {
			return nil, err
		}
		d, k = y.sql, "CAST(NULL AS VARCHAR)"
		flags |= pctFloat
	case KIntervalDT:
		d, k = "CAST(epoch_us("+x.sql+") AS DOUBLE)", "CAST(epoch_us("+x.sql+") AS VARCHAR)"
		out = tDaySec
	case KIntervalYM:
		// Months, exact in doubles; Spark's result is truncated (toInt).
		m := "CAST(datepart('year', " + x.sql + ") * 12 + datepart('month', " + x.sql + ") AS DOUBLE)"
		d, k = m, "CAST(NULL AS VARCHAR)"
		out = tYearMonth
	default:
		return nil, sparkErr(x.pos, "DATATYPE_MISMATCH.UNEXPECTED_INPUT_TYPE", "Cannot resolve %s due to data type mismatch: The first parameter requires the (\"NUMERIC\" or \"INTERVAL DAY TO SECOND\" or \"INTERVAL YEAR TO MONTH\") type, however %s has the type %q.",
			quoteSparkSQL(c.name), quoteSparkSQL(s.xName), strings.ToUpper(x.t.String()))
	}
	if s.disc {
		flags |= pctDisc
	}
	if s.reverse {
		flags |= pctReverse
	}
	ps, isArray, err := c.percentages(s)
	if err != nil {
		return nil, err
	}
	w := "CAST(1 AS BIGINT)"
	var neg string
	if f := s.freq; f != nil {
		switch {
		case f.t.isIntegral():
			w = "CAST(" + f.sql + " AS BIGINT)"
		case f.t.Kind == KVoid:
			w = "CAST(NULL AS BIGINT)"
		default:
			return nil, sparkErr(f.pos, "DATATYPE_MISMATCH.UNEXPECTED_INPUT_TYPE", "Cannot resolve %s due to data type mismatch: The third parameter requires the \"INTEGRAL\" type, however %s has the type %q.",
				quoteSparkSQL(c.name), quoteSparkSQL(f.name), strings.ToUpper(f.t.String()))
		}
		if f.lit == nil {
			neg = "min(CASE WHEN " + x.sql + " IS NOT NULL THEN " + w + " END)"
		} else if v, err := strconv.ParseInt(f.lit.Value, 10, 64); err == nil && v < 0 {
			neg = "min(CASE WHEN " + x.sql + " IS NOT NULL THEN " + w + " END)"
		}
	}
	if c.node.Distinct && flags&pctFloat != 0 {
		// Spark groups DISTINCT values normalized (NormalizeFloatingNumbers):
		// -0.0 is 0.0.
		d = "CASE WHEN " + d + " = 0 THEN CAST(0 AS DOUBLE) ELSE " + d + " END"
	}
	entries := "list(" + c.distinct() + "struct_pack(d := " + d + ", k := " + k + ", w := " + w + "))"
	call := "spark_percentile(%[1]s, " + ps + ", " + strconv.Itoa(flags) + ")"
	t := out
	switch out.Kind {
	case KIntervalDT:
		v := c.r.lambdaName()
		call = "list_transform(" + call + ", " + v + " -> to_microseconds(CAST(trunc(" + v + ") AS BIGINT)))"
	case KIntervalYM:
		v := c.r.lambdaName()
		call = "list_transform(" + call + ", " + v + " -> to_months(CAST(trunc(" + v + ") AS INTEGER)))"
	}
	if isArray {
		t = arrayOf(out)
	} else {
		call = "(" + call + ")[1]"
	}
	parts := []string{entries}
	if neg != "" {
		fname := "boundreference()"
		if s.freq != nil {
			fname = s.freq.name
		}
		fname = strings.ReplaceAll(fname, "%", "%%") // call is a format
		call = "CASE WHEN %[2]s < 0 THEN error(" + sqlq("[NEGATIVE_VALUES_IN_FREQUENCY_EXPRESSION] Found the negative value in \""+fname+"\": ") + " || CAST(%[2]s AS VARCHAR) || 'L, but expected a positive integral value.') ELSE " + call + " END"
		parts = append(parts, neg)
	}
	return c.aggOut(t, call, parts...), nil
}

// percentages are s's percentage(s) as a DOUBLE[] in DuckDB SQL, with
// Spark's checks: a constant (a literal, or an array(...) of literals),
// not NULL, each within [0, 1].
func (c *fcall) percentages(s pctSpec) (string, bool, error) {
	p := s.p
	pos := p.pos
	if !p.foldable {
		return "", false, sparkErr(pos, "DATATYPE_MISMATCH.NON_FOLDABLE_INPUT", "Cannot resolve %s due to data type mismatch: the input `percentage` should be a foldable \"DOUBLE\" expression; however, got %s.", quoteSparkSQL(s.internal), quoteSparkSQL(p.name))
	}
	outOfRange := func(vals []string) error {
		return sparkErr(pos, "DATATYPE_MISMATCH.VALUE_OUT_OF_RANGE", "Cannot resolve %s due to data type mismatch: The percentage must be between [0.0, 1.0] (current value = %s).", quoteSparkSQL(s.internal), strings.Join(vals, ","))
	}
	value := func(e Expr) (float64, bool) {
		neg := false
		if u, ok := e.(*Unary); ok && (u.Op == "-" || u.Op == "+") {
			neg, e = u.Op == "-", u.X
		}
		l, ok := e.(*Literal)
		if !ok || l.Kind == LitNull || l.Kind == LitBool || l.Kind == LitString {
			return 0, false
		}
		v, err := strconv.ParseFloat(strings.TrimRight(l.Value, "DdFfLlSsYyBb"), 64)
		if err != nil {
			return 0, false
		}
		if neg {
			v = -v
		}
		return v, true
	}
	show := func(v float64) string { return javaDouble(v) + "D" }
	if p.t.Kind == KVoid {
		return "", false, sparkErr(pos, "DATATYPE_MISMATCH.UNEXPECTED_NULL", "Cannot resolve %s due to data type mismatch: The percentage must not be null.", quoteSparkSQL(s.internal))
	}
	if p.t.Kind == KArray {
		call, ok := s.pNode.(*Call)
		if !ok || !strings.EqualFold(call.Name.Name, "array") {
			return "", false, unsupported(pos, "write the percentages as array(p1, p2, ...) of number literals", "this array of percentages")
		}
		var vals []float64
		for _, a := range call.Args {
			if l, ok := a.(*Literal); ok && l.Kind == LitNull {
				return "", false, sparkErr(pos, "DATATYPE_MISMATCH.UNEXPECTED_INPUT_TYPE", "Cannot resolve %s due to data type mismatch: The second parameter requires the \"ARRAY<DOUBLE>\" type, however %s has the type %q.", quoteSparkSQL(c.name), quoteSparkSQL(p.name), strings.ToUpper(p.t.String()))
			}
			v, ok := value(a)
			if !ok {
				return "", false, unsupported(a.Pos(), "write the percentages as array(p1, p2, ...) of number literals", "this array of percentages")
			}
			vals = append(vals, v)
		}
		var shown, sql []string
		bad := false
		for _, v := range vals {
			bad = bad || v < 0 || v > 1
			shown = append(shown, show(v))
			sql = append(sql, "CAST("+strconv.FormatFloat(v, 'g', -1, 64)+" AS DOUBLE)")
		}
		if bad {
			return "", false, outOfRange(shown)
		}
		// No percentage (array()): Spark's result is NULL.
		return "CAST([" + strings.Join(sql, ", ") + "] AS DOUBLE[])", true, nil
	}
	if !implicitlyCastable(p.t, tDouble) {
		return "", false, sparkErr(pos, "DATATYPE_MISMATCH.UNEXPECTED_INPUT_TYPE", "Cannot resolve %s due to data type mismatch: The second parameter requires the \"DOUBLE\" type, however %s has the type %q.", quoteSparkSQL(c.name), quoteSparkSQL(p.name), strings.ToUpper(p.t.String()))
	}
	if v, ok := value(s.pNode); ok {
		if v < 0 || v > 1 {
			return "", false, outOfRange([]string{show(v)})
		}
		return "[CAST(" + strconv.FormatFloat(v, 'g', -1, 64) + " AS DOUBLE)]", false, nil
	}
	if v, ok := constValue(s.pNode); ok {
		// A constant expression of number literals (1 / 0.5, 3 - 1),
		// computed exactly: Spark's analysis error where it is clearly
		// out of range; at the edges it is checked as it runs.
		if v.Cmp(big.NewRat(-1, 1_000_000_000)) < 0 || v.Cmp(big.NewRat(1_000_000_001, 1_000_000_000)) > 0 {
			f, _ := v.Float64()
			return "", false, outOfRange([]string{show(f)})
		}
	}
	pd, err := c.r.cast(p, tDouble, castImplicit)
	if err != nil {
		return "", false, err
	}
	// Another constant (1/4, CAST('0.5' AS DOUBLE)): checked as it runs.
	check := "CASE WHEN " + pd.sql + " IS NULL THEN error(" + sqlq("[DATATYPE_MISMATCH.UNEXPECTED_NULL] Cannot resolve "+quoteSparkSQL(s.internal)+" due to data type mismatch: The percentage must not be null.") + ")" +
		" WHEN " + pd.sql + " < 0 OR " + pd.sql + " > 1 THEN error(" + sqlq("[DATATYPE_MISMATCH.VALUE_OUT_OF_RANGE] Cannot resolve "+quoteSparkSQL(s.internal)+" due to data type mismatch: The percentage must be between [0.0, 1.0].") + ") ELSE " + pd.sql + " END"
	return "[" + check + "]", false, nil
}

// withinGroup is the ordering of percentile_cont(p) and percentile_disc(p)
// WITHIN GROUP (ORDER BY x [DESC]), checked as Spark checks it.
func (c *fcall) withinGroup() (*OrderItem, error) {
	name := c.def.name
	switch len(c.node.Within) {
	case 0:
		return nil, sparkErr(c.pos(), "INVALID_WITHIN_GROUP_EXPRESSION.WITHIN_GROUP_MISSING", "Invalid function `%s` with WITHIN GROUP. WITHIN GROUP is required for the function.", name)
	case 1:
		return c.node.Within[0], nil
	}
	return nil, sparkErr(c.pos(), "INVALID_WITHIN_GROUP_EXPRESSION.WRONG_NUM_ORDERINGS", "Invalid function `%s` with WITHIN GROUP. The function requires 1 orderings in WITHIN GROUP but got %d.", name, len(c.node.Within))
}

// withinGroupRefused is Spark's error for WITHIN GROUP (ORDER BY ...)
// after a function that takes none (all but mode, percentile_cont and
// percentile_disc here), raised once the arguments are counted.
func withinGroupRefused(n *Call, def *fnDef, lname string) error {
	if len(n.Within) == 0 || def.name == "mode" || def.name == "percentile_cont" || def.name == "percentile_disc" || def.name == "listagg" || def.name == "string_agg" {
		return nil
	}
	if len(n.Args) < def.min || def.max >= 0 && len(n.Args) > def.max {
		return arityError(n, def)
	}
	return sparkErr(n.P, "INVALID_SQL_SYNTAX.FUNCTION_WITH_UNSUPPORTED_SYNTAX", "Invalid SQL syntax: The function `%s` does not support WITHIN GROUP (ORDER BY ...).", lname)
}

// orderedWindowRefused is Spark's INVALID_WINDOW_SPEC_FOR_AGGREGATION_FUNC
// for percentile_cont and percentile_disc WITHIN GROUP, and median (which
// Spark rewrites into percentile_cont), over a window with an ORDER BY or
// a frame other than the whole partition (ROWS BETWEEN UNBOUNDED
// PRECEDING AND UNBOUNDED FOLLOWING; a RANGE frame is refused too).
func orderedWindowRefused(n *Call, def *fnDef, spec *WindowSpec) error {
	var shown string
	switch {
	case (def.name == "percentile_cont" || def.name == "percentile_disc") && len(n.Within) == 1 && len(n.Args) == 1:
		shown = def.name + "(" + FormatExpr(n.Within[0].X) + ", " + FormatExpr(n.Args[0]) + ")"
	case def.name == "median" && len(n.Args) == 1:
		shown = "median(" + FormatExpr(n.Args[0]) + ")"
	default:
		return nil
	}
	whole := func(f *Frame) bool {
		return f.Unit == "ROWS" && f.Start != nil && f.Start.Kind == "UNBOUNDED PRECEDING" && f.End != nil && f.End.Kind == "UNBOUNDED FOLLOWING"
	}
	if len(spec.OrderBy) == 0 && (spec.Frame == nil || whole(spec.Frame)) {
		return nil
	}
	return sparkErr(n.P, "INVALID_WINDOW_SPEC_FOR_AGGREGATION_FUNC", "Cannot specify ORDER BY or a window frame for \"%s\".", shown)
}

func percentileFuncs() []*fnDef {
	percentile := agg("percentile", Rewritten, 2, 3, func(c *fcall) (*rx, error) {
		s := pctSpec{x: c.args[0], xName: c.args[0].name, p: c.args[1], pNode: c.node.Args[1]}
		if len(c.args) == 3 {
			s.freq = c.args[2]
		} else {
			c.name = strings.TrimSuffix(c.name, ")") + ", 1)"
		}
		s.internal = c.name
		return c.percentileOf(s)
	})
	median := agg("median", Rewritten, 1, 1, func(c *fcall) (*rx, error) {
		half := &Literal{Kind: LitDecimal, Value: "0.5", Text: "0.5", P: c.pos()}
		p := litRx(tDouble, "CAST(0.5 AS DOUBLE)", "0.5", half)
		return c.percentileOf(pctSpec{x: c.args[0], xName: c.args[0].name, p: p, pNode: half, internal: c.name})
	})
	within := func(name string, disc bool) *fnDef {
		return agg(name, Rewritten, 1, 1, func(c *fcall) (*rx, error) {
			it, err := c.withinGroup()
			if err != nil {
				return nil, err
			}
			x, err := c.r.expr(it.X, c.sc, c.ctx)
			if err != nil {
				return nil, err
			}
			p := c.args[0]
			internal := name + "(" + x.name + ", " + p.name + ")"
			dir := ""
			if it.Desc {
				dir = " DESC"
			}
			c.name = name + "(" + c.distinct() + p.name + ") WITHIN GROUP (ORDER BY " + x.name + dir + ")"
			return c.percentileOf(pctSpec{x: x, xName: x.name, p: p, pNode: c.node.Args[0], disc: disc, reverse: it.Desc, internal: internal})
		})
	}
	return []*fnDef{percentile, median, within("percentile_cont", false), within("percentile_disc", true)}
}

// constValue is the exact value of a constant expression of number
// literals with + - * / and unary signs (false for anything else, or a
// division by zero).
func constValue(e Expr) (*big.Rat, bool) {
	switch n := e.(type) {
	case *Literal:
		if n.Kind == LitNull || n.Kind == LitBool || n.Kind == LitString {
			return nil, false
		}
		v, ok := new(big.Rat).SetString(strings.TrimRight(n.Value, "DdFfLlSsYyBb"))
		return v, ok
	case *Unary:
		v, ok := constValue(n.X)
		switch {
		case !ok:
			return nil, false
		case n.Op == "-":
			return v.Neg(v), true
		case n.Op == "+":
			return v, true
		}
	case *Binary:
		l, ok1 := constValue(n.L)
		r, ok2 := constValue(n.R)
		if !ok1 || !ok2 {
			return nil, false
		}
		switch n.Op {
		case "+":
			return l.Add(l, r), true
		case "-":
			return l.Sub(l, r), true
		case "*":
			return l.Mul(l, r), true
		case "/":
			if r.Sign() == 0 {
				return nil, false
			}
			return l.Quo(l, r), true
		}
	}
	return nil, false
}

// approxPercentile is refused (Spark's answer comes from its own sketch),
// after Spark's analysis checks of its percentage: a constant out of
// [0, 1] is Spark's error, as it is when Spark analyses the query.
func approxPercentile(name string) *fnDef {
	const note = "Spark's approximation cannot be reproduced; use percentile"
	d := agg(name, Unsupported, 2, 3, func(c *fcall) (*rx, error) {
		p, pn := c.args[1], c.node.Args[1]
		internal := name + "(" + c.args[0].name + ", " + p.name + ", 10000)"
		var vals []*big.Rat
		if call, ok := pn.(*Call); ok && strings.EqualFold(call.Name.Name, "array") {
			for _, a := range call.Args {
				v, ok := constValue(a)
				if !ok {
					vals = nil
					break
				}
				vals = append(vals, v)
			}
		} else if v, ok := constValue(pn); ok {
			vals = append(vals, v)
		}
		var shown []string
		bad := false
		for _, v := range vals {
			f, _ := v.Float64()
			bad = bad || f < 0 || f > 1
			shown = append(shown, javaDouble(f)+"D")
		}
		if bad {
			return nil, sparkErr(p.pos, "DATATYPE_MISMATCH.VALUE_OUT_OF_RANGE", "Cannot resolve %s due to data type mismatch: The percentage must be between [0.0, 1.0] (current value = %s).", quoteSparkSQL(internal), strings.Join(shown, ","))
		}
		return nil, unsupported(c.pos(), note, "Spark function `%s`", name)
	})
	d.note = note
	return d
}
