package frame

import (
	"fmt"
	"regexp"
	"strings"
)

// The narwhals expressions on PYSPARK, as narwhals builds them
// (narwhals/_spark_like, narwhals/_sql), and PySpark's Column methods.

func init() {
	// --- narwhals functions
	regSp(func(e *spEngine, c *call, _ *spExpr) (value, error) {
		a, err := c.bind("*names")
		if err != nil {
			return nil, err
		}
		var cols []*spExpr
		for i, v := range a.rest {
			items := []value{v}
			if elts, ok := elements(v); ok {
				items = elts
			}
			for _, it := range items {
				s, ok := it.(string)
				if !ok {
					return nil, laktoryErr(c.argPos[i], "TypeError: Expected iterable of str, got %s", pyType(it))
				}
				x, err := e.column("nw", s, c.argPos[i])
				if err != nil {
					return nil, err
				}
				cols = append(cols, x)
			}
		}
		if len(cols) == 1 {
			return cols[0], nil
		}
		return &spExpr{fam: "nw", pos: c.at, multi: cols}, nil
	}, "nw.col")
	regSp(func(e *spEngine, c *call, _ *spExpr) (value, error) {
		a, err := c.bind("*names")
		if err != nil {
			return nil, err
		}
		skip := map[string]bool{}
		for _, v := range a.rest {
			items := []value{v}
			if elts, ok := elements(v); ok {
				items = elts
			}
			for _, it := range items {
				s, _ := it.(string)
				skip[s] = true
			}
		}
		if c.fn.key == "nw.all" && len(a.rest) > 0 {
			return nil, laktoryErr(c.pos, "TypeError: all() takes 0 positional arguments")
		}
		out := &spExpr{fam: "nw", pos: c.at}
		for _, col := range e.ev.frame.cols {
			if !skip[col.name] {
				out.multi = append(out.multi, &spExpr{fam: "nw", sql: sparkIdent(col.name), name: col.name, pos: c.at, col: col.name})
			}
		}
		return out, nil
	}, "nw.all", "nw.exclude")
	regSp(func(e *spEngine, c *call, _ *spExpr) (value, error) {
		a, err := c.bind("value, dtype=None")
		if err != nil {
			return nil, err
		}
		x, err := e.literal("nw", a.get("value"), c.at)
		if err != nil {
			return nil, err
		}
		if a.get("dtype") != nil {
			t, err := nwSparkType(a.get("dtype"), a.posOf("dtype"))
			if err != nil {
				return nil, err
			}
			x.sql = "CAST(" + x.sql + " AS " + t + ")"
		}
		return x, nil
	}, "nw.lit")
	regSp(func(e *spEngine, c *call, _ *spExpr) (value, error) {
		if _, err := c.bind(""); err != nil {
			return nil, err
		}
		return &spExpr{fam: "nw", sql: "count(*)" + e.mark(&window{kind: "agg"}), name: "len", pos: c.at, agg: true}, nil
	}, "nw.len")
	regSp(func(e *spEngine, c *call, _ *spExpr) (value, error) {
		a, err := c.bind("*predicates")
		if err != nil {
			return nil, err
		}
		return &whenChain{fam: "nw", conds: []value{predicateAnd(a.rest)}, needThen: true, pos: c.at, eng: e}, nil
	}, "nw.when")
	for _, f := range []string{"sum", "max", "min", "mean", "all", "any"} {
		f := f
		regSp(func(e *spEngine, c *call, _ *spExpr) (value, error) {
			return e.horizontal(c, f)
		}, "nw."+f+"_horizontal")
	}
	regSp(func(e *spEngine, c *call, _ *spExpr) (value, error) {
		a, err := c.bind("exprs, *more_exprs, separator='', ignore_nulls=False")
		if err != nil {
			return nil, err
		}
		xs, err := e.exprArgs("nw", append([]value{a.get("exprs")}, a.rest...), nil, true)
		if err != nil {
			return nil, err
		}
		sep, _ := a.get("separator").(string)
		parts := make([]string, len(xs))
		nulls := make([]string, len(xs))
		for i, x := range xs {
			parts[i], nulls[i] = x.sql, "isnull("+x.sql+")"
		}
		sql := "concat_ws(" + sparkString(sep) + ", " + strings.Join(parts, ", ") + ")"
		if !a.boolean("ignore_nulls") {
			sql = "CASE WHEN (NOT (" + strings.Join(nulls, " OR ") + ")) THEN " + sql + " ELSE NULL END"
		}
		return spCombine(&spExpr{fam: "nw", sql: sql, name: xs[0].name, pos: c.at}, xs...), nil
	}, "nw.concat_str")
	regSp(func(e *spEngine, c *call, _ *spExpr) (value, error) {
		a, err := c.bind("exprs, *more_exprs")
		if err != nil {
			return nil, err
		}
		xs, err := e.exprArgs("nw", append([]value{a.get("exprs")}, a.rest...), nil, true)
		if err != nil {
			return nil, err
		}
		parts := make([]string, len(xs))
		for i, x := range xs {
			parts[i] = x.sql
		}
		return spCombine(&spExpr{fam: "nw", sql: "coalesce(" + strings.Join(parts, ", ") + ")", name: xs[0].name, pos: c.at}, xs...), nil
	}, "nw.coalesce")

	// --- narwhals expression methods
	regSp(func(e *spEngine, c *call, x *spExpr) (value, error) {
		n, err := aliasArg(c)
		if err != nil {
			return nil, err
		}
		y := *x
		y.name = n
		return &y, nil
	}, "nw.Expr.alias")
	regSp(func(e *spEngine, c *call, x *spExpr) (value, error) {
		a, err := c.bind("dtype")
		if err != nil {
			return nil, err
		}
		t, err := nwSparkType(a.get("dtype"), a.posOf("dtype"))
		if err != nil {
			return nil, err
		}
		return x.derive("CAST(" + x.sql + " AS " + t + ")"), nil
	}, "nw.Expr.cast")
	simple := func(key, s string, tmpl func(x string, a *args) (string, error)) {
		regSp(func(e *spEngine, c *call, x *spExpr) (value, error) {
			a, err := c.bind(s)
			if err != nil {
				return nil, err
			}
			sql, err := tmpl(x.sql, a)
			if err != nil {
				return nil, err
			}
			return x.derive(sql), nil
		}, key)
	}
	simple("nw.Expr.is_null", "", func(x string, a *args) (string, error) { return "isnull(" + x + ")", nil })
	simple("nw.Expr.is_nan", "", func(x string, a *args) (string, error) {
		return "CASE WHEN isnull(" + x + ") THEN NULL ELSE isnan(" + x + ") END", nil
	})
	simple("nw.Expr.abs", "", func(x string, a *args) (string, error) { return "abs(" + x + ")", nil })
	simple("nw.Expr.floor", "", func(x string, a *args) (string, error) { return "FLOOR(" + x + ")", nil })
	simple("nw.Expr.ceil", "", func(x string, a *args) (string, error) { return "CEIL(" + x + ")", nil })
	simple("nw.Expr.exp", "", func(x string, a *args) (string, error) { return "EXP(" + x + ")", nil })
	simple("nw.Expr.sin", "", func(x string, a *args) (string, error) { return "SIN(" + x + ")", nil })
	simple("nw.Expr.cos", "", func(x string, a *args) (string, error) { return "COS(" + x + ")", nil })
	simple("nw.Expr.sqrt", "", func(x string, a *args) (string, error) {
		return "CASE WHEN (" + x + " < 0) THEN CAST('NaN' AS DOUBLE) ELSE SQRT(" + x + ") END", nil
	})
	simple("nw.Expr.log", "base=2.718281828459045", func(x string, a *args) (string, error) {
		b, ok := asFloat(a.get("base"))
		if !ok {
			return "", unsupportedAt(a.posOf("base"), "", "log with base %s", pyType(a.get("base")))
		}
		bl, _ := sparkLiteral(b, -1)
		return "CASE WHEN (" + x + " < 0) THEN CAST('NaN' AS DOUBLE) ELSE CASE WHEN (" + x + " = 0) THEN CAST('-Infinity' AS DOUBLE) ELSE (LN(" + x + ") / LN(" + bl + ")) END END", nil
	})
	simple("nw.Expr.round", "decimals=0", func(x string, a *args) (string, error) {
		d, ok := a.get("decimals").(int64)
		if !ok {
			return "", laktoryErr(a.posOf("decimals"), "TypeError: decimals must be an integer")
		}
		return fmt.Sprintf("round(%s, %d)", x, d), nil
	})
	simple("nw.Expr.fill_nan", "value", func(x string, a *args) (string, error) {
		v, err := sparkLiteral(a.get("value"), a.posOf("value"))
		if err != nil {
			return "", err
		}
		return "CASE WHEN isnan(" + x + ") THEN " + v + " ELSE " + x + " END", nil
	})
	regSp(func(e *spEngine, c *call, x *spExpr) (value, error) {
		a, err := c.bind("value=None, strategy=None, limit=None")
		if err != nil {
			return nil, err
		}
		if a.get("strategy") != nil {
			return nil, unsupportedAt(a.posOf("strategy"), "", "fill_null(strategy=...) (it depends on the order of the rows)")
		}
		v, err := e.exprArg("nw", a.get("value"), a.posOf("value"), false)
		if err != nil {
			return nil, err
		}
		return spCombine(x.derive("ifnull("+x.sql+", "+v.sql+")"), x, v), nil
	}, "nw.Expr.fill_null")
	regSp(func(e *spEngine, c *call, x *spExpr) (value, error) {
		a, err := c.bind("other")
		if err != nil {
			return nil, err
		}
		elts, ok := elements(a.get("other"))
		if !ok {
			return nil, unsupportedAt(a.posOf("other"), "pass a list of values", "is_in with a %s", pyType(a.get("other")))
		}
		var vals []string
		for _, it := range elts {
			if it == nil {
				continue
			}
			s, err := sparkLiteral(it, a.posOf("other"))
			if err != nil {
				return nil, err
			}
			vals = append(vals, s)
		}
		m := "FALSE"
		if len(vals) > 0 {
			m = "(" + x.sql + " IN (" + strings.Join(vals, ", ") + "))"
		}
		return x.derive("CASE WHEN isnull(" + x.sql + ") THEN NULL ELSE " + m + " END"), nil
	}, "nw.Expr.is_in")
	regSp(func(e *spEngine, c *call, x *spExpr) (value, error) {
		a, err := c.bind("lower_bound, upper_bound, closed='both'")
		if err != nil {
			return nil, err
		}
		lo, err := e.exprArg("nw", a.get("lower_bound"), a.posOf("lower_bound"), true)
		if err != nil {
			return nil, err
		}
		hi, err := e.exprArg("nw", a.get("upper_bound"), a.posOf("upper_bound"), true)
		if err != nil {
			return nil, err
		}
		ops := map[string][2]string{"both": {">=", "<="}, "left": {">=", "<"}, "right": {">", "<="}, "none": {">", "<"}}[a.str("closed")]
		if ops[0] == "" {
			return nil, laktoryErr(a.posOf("closed"), "ValueError: `closed` must be one of {'left', 'right', 'both', 'none'}, got %s", repr(a.get("closed")))
		}
		return spCombine(x.derive(fmt.Sprintf("((%s %s %s) AND (%s %s %s))", x.sql, ops[0], lo.sql, x.sql, ops[1], hi.sql)), x, lo, hi), nil
	}, "nw.Expr.is_between")
	regSp(func(e *spEngine, c *call, x *spExpr) (value, error) {
		a, err := c.bind("lower_bound=None, upper_bound=None")
		if err != nil {
			return nil, err
		}
		out := x.sql
		if a.get("upper_bound") != nil {
			v, err := e.exprArg("nw", a.get("upper_bound"), a.posOf("upper_bound"), true)
			if err != nil {
				return nil, err
			}
			out = "least(" + out + ", " + v.sql + ")"
		}
		if a.get("lower_bound") != nil {
			v, err := e.exprArg("nw", a.get("lower_bound"), a.posOf("lower_bound"), true)
			if err != nil {
				return nil, err
			}
			out = "greatest(" + out + ", " + v.sql + ")"
		}
		return x.derive("CASE WHEN isnull(" + x.sql + ") THEN NULL ELSE " + out + " END"), nil
	}, "nw.Expr.clip")

	// --- aggregations and windows
	agg := func(name, tmpl string) {
		regSp(func(e *spEngine, c *call, x *spExpr) (value, error) {
			s := ""
			if name == "std" || name == "var" {
				s = "ddof=1"
			}
			a, err := c.bind(s)
			if err != nil {
				return nil, err
			}
			t := tmpl
			if name == "std" || name == "var" {
				d, _ := a.get("ddof").(int64)
				kind := map[string]string{"std": "stddev", "var": "var"}[name]
				switch d {
				case 0:
					t = kind + "_pop(%s)%W"
				case 1:
					t = kind + "_samp(%s)%W"
				default:
					return nil, unsupportedAt(a.posOf("ddof"), "", "%s with ddof=%d", name, d)
				}
			}
			if x.agg {
				return nil, unsupportedAt(c.at, "", "an aggregation of an aggregation")
			}
			w := e.mark(&window{kind: "agg"})
			sql := strings.ReplaceAll(strings.ReplaceAll(t, "%s", x.sql), "%W", w)
			out := x.derive(sql)
			out.agg = true
			return out, nil
		}, "nw.Expr."+name)
	}
	agg("sum", "coalesce(sum(%s)%W, 0)")
	agg("mean", "mean(%s)%W")
	agg("min", "min(%s)%W")
	agg("max", "max(%s)%W")
	agg("count", "count(%s)%W")
	agg("median", "median(%s)%W")
	agg("len", "count(*)%W")
	agg("null_count", "count_if(isnull(%s))%W")
	agg("n_unique", "(count(DISTINCT %s)%W + max(CASE WHEN isnull(%s) THEN 1 ELSE 0 END)%W)")
	agg("std", "")
	agg("var", "")
	agg("all", "coalesce(bool_and(%s)%W, TRUE)")
	agg("any", "coalesce(bool_or(%s)%W, FALSE)")
	regSp(func(e *spEngine, c *call, x *spExpr) (value, error) {
		a, err := c.bind("*partition_by, order_by=None")
		if err != nil {
			return nil, err
		}
		var parts []string
		for _, v := range a.rest {
			items := []value{v}
			if elts, ok := elements(v); ok {
				items = elts
			}
			for _, it := range items {
				p, err := e.exprArg("nw", it, -1, true)
				if err != nil {
					return nil, err
				}
				parts = append(parts, p.sql)
			}
		}
		order := ""
		if ob := a.get("order_by"); ob != nil {
			items := []value{ob}
			if elts, ok := elements(ob); ok {
				items = elts
			}
			var terms []string
			for _, it := range items {
				oe, err := e.exprArg("nw", it, a.posOf("order_by"), true)
				if err != nil {
					return nil, err
				}
				terms = append(terms, oe.sql+" ASC NULLS FIRST")
			}
			order = strings.Join(terms, ", ")
		}
		if len(parts) == 0 && order == "" {
			return nil, laktoryErr(c.pos, "ValueError: At least one of `partition_by` or `order_by` must be specified.")
		}
		if len(parts) == 0 {
			parts = []string{"1"}
		}
		sql, err := e.resolve(x.sql, parts, order, false)
		if err == errOrderDependent {
			return nil, laktoryErr(c.at, "%s", orderDependentMsg)
		}
		if err != nil {
			return nil, err
		}
		out := x.derive(sql)
		out.agg, out.orderDep = false, false
		return out, nil
	}, "nw.Expr.over")
	cum := func(name, fn string) {
		regSp(func(e *spEngine, c *call, x *spExpr) (value, error) {
			a, err := c.bind("reverse=False")
			if err != nil {
				return nil, err
			}
			if a.boolean("reverse") {
				return nil, unsupportedAt(a.posOf("reverse"), "", "%s(reverse=True)", name)
			}
			w := e.mark(&window{kind: "ordered", frame: "ROWS BETWEEN UNBOUNDED PRECEDING AND CURRENT ROW"})
			var sql string
			if name == "cum_count" {
				sql = "count(" + x.sql + ")" + w
			} else {
				sql = "CASE WHEN isnotnull(" + x.sql + ") THEN " + fn + "(" + x.sql + ")" + w + " END"
			}
			out := x.derive(sql)
			out.orderDep = true
			return out, nil
		}, "nw.Expr."+name)
	}
	cum("cum_sum", "sum")
	cum("cum_max", "max")
	cum("cum_min", "min")
	cum("cum_count", "count")
	regSp(func(e *spEngine, c *call, x *spExpr) (value, error) {
		a, err := c.bind("n=1")
		if err != nil {
			return nil, err
		}
		n, _ := a.get("n").(int64)
		out := x.derive(fmt.Sprintf("lag(%s, %d)%s", x.sql, n, e.mark(&window{kind: "ordered"})))
		out.orderDep = true
		return out, nil
	}, "nw.Expr.shift")
	regSp(func(e *spEngine, c *call, x *spExpr) (value, error) {
		if _, err := c.bind(""); err != nil {
			return nil, err
		}
		out := x.derive(fmt.Sprintf("(%s - lag(%s)%s)", x.sql, x.sql, e.mark(&window{kind: "ordered"})))
		out.orderDep = true
		return out, nil
	}, "nw.Expr.diff")
	regSp(func(e *spEngine, c *call, x *spExpr) (value, error) {
		a, err := c.bind("method='average', descending=False")
		if err != nil {
			return nil, err
		}
		dir := "ASC NULLS LAST"
		if a.boolean("descending") {
			dir = "DESC NULLS LAST"
		}
		order := x.sql + " " + dir
		method := a.str("method")
		fn := map[string]string{"min": "rank()", "max": "rank()", "average": "rank()", "dense": "dense_rank()", "ordinal": "row_number()"}[method]
		if fn == "" {
			return nil, laktoryErr(a.posOf("method"), "ValueError: Ranking method must be one of {'average', 'min', 'max', 'dense', 'ordinal'}. Found '%s'", method)
		}
		r := fn + e.mark(&window{kind: "rank", order: order})
		cnt := "count(*)" + e.mark(&window{kind: "partx", order: x.sql})
		switch method {
		case "max":
			r = "((" + r + " + " + cnt + ") - 1)"
		case "average":
			r = "(" + r + " + ((" + cnt + " - 1) / 2.0D))"
		}
		return x.derive("CASE WHEN isnotnull(" + x.sql + ") THEN " + r + " END"), nil
	}, "nw.Expr.rank")

	// --- .str
	strNS := func(name, s string, tmpl func(e *spEngine, x *spExpr, a *args) (string, error)) {
		regSp(func(e *spEngine, c *call, x *spExpr) (value, error) {
			a, err := c.bind(s)
			if err != nil {
				return nil, err
			}
			sql, err := tmpl(e, x, a)
			if err != nil {
				return nil, err
			}
			return x.derive(sql), nil
		}, "nw.Expr.str."+name)
	}
	strNS("len_chars", "", func(e *spEngine, x *spExpr, a *args) (string, error) { return "length(" + x.sql + ")", nil })
	strNS("to_uppercase", "", func(e *spEngine, x *spExpr, a *args) (string, error) { return "upper(" + x.sql + ")", nil })
	strNS("to_lowercase", "", func(e *spEngine, x *spExpr, a *args) (string, error) { return "lower(" + x.sql + ")", nil })
	strNS("strip_chars", "characters=None", func(e *spEngine, x *spExpr, a *args) (string, error) {
		chars := " \t\n\r\x0b\x0c"
		if s, ok := a.get("characters").(string); ok {
			chars = s
		}
		return "btrim(" + x.sql + ", " + sparkString(chars) + ")", nil
	})
	for _, f := range []struct{ name, fn, param string }{{"starts_with", "startswith", "prefix"}, {"ends_with", "endswith", "suffix"}} {
		f := f
		strNS(f.name, f.param, func(e *spEngine, x *spExpr, a *args) (string, error) {
			v, err := e.exprArg("nw", a.get(f.param), a.posOf(f.param), false)
			if err != nil {
				return "", err
			}
			return f.fn + "(" + x.sql + ", " + v.sql + ")", nil
		})
	}
	strNS("contains", "pattern, *, literal=False", func(e *spEngine, x *spExpr, a *args) (string, error) {
		p, err := strArg(a, "pattern")
		if err != nil {
			return "", err
		}
		if a.boolean("literal") {
			return "contains(" + x.sql + ", " + sparkString(p) + ")", nil
		}
		if _, err := regexp.Compile(p); err != nil {
			return "", laktoryErr(a.posOf("pattern"), "ValueError: invalid regular expression %s: %v", pyStr(p), err)
		}
		return "regexp(" + x.sql + ", " + sparkString(p) + ")", nil
	})
	strNS("replace_all", "pattern, value, *, literal=False", func(e *spEngine, x *spExpr, a *args) (string, error) {
		p, err := strArg(a, "pattern")
		if err != nil {
			return "", err
		}
		v, err := e.exprArg("nw", a.get("value"), a.posOf("value"), false)
		if err != nil {
			return "", err
		}
		if a.boolean("literal") {
			return "replace(" + x.sql + ", " + sparkString(p) + ", " + v.sql + ")", nil
		}
		return "regexp_replace(" + x.sql + ", " + sparkString(p) + ", " + v.sql + ")", nil
	})
	strNS("replace", "pattern, value, *, literal=False, n=1", func(e *spEngine, x *spExpr, a *args) (string, error) {
		return "", laktoryErr(-1, "NotImplementedError: str.replace is not implemented for the PySpark backend (use str.replace_all)")
	})
	strNS("slice", "offset, length=None", func(e *spEngine, x *spExpr, a *args) (string, error) {
		off, err := intArg(a, "offset")
		if err != nil {
			return "", err
		}
		length := "length(" + x.sql + ")"
		if a.get("length") != nil {
			n, err := intArg(a, "length")
			if err != nil {
				return "", err
			}
			length = fmt.Sprint(n)
		}
		if off >= 0 {
			return fmt.Sprintf("substr(%s, %d, %s)", x.sql, off+1, length), nil
		}
		startIndex := fmt.Sprintf("(length(%s) + %d)", x.sql, off)
		start := "greatest(1, (" + startIndex + " + 1))"
		count := length
		if a.get("length") != nil {
			count = "greatest(0, (" + length + " + least(0, " + startIndex + ")))"
		}
		return "substr(" + x.sql + ", " + start + ", " + count + ")", nil
	})
	strNS("head", "n=5", func(e *spEngine, x *spExpr, a *args) (string, error) {
		// narwhals' head(n) is slice(0, n); tail(n) is slice(-n).
		n, err := intArg(a, "n")
		if err != nil {
			return "", err
		}
		if n < 0 {
			return "", unsupportedAt(a.posOf("n"), "", "str.head with a negative n")
		}
		return fmt.Sprintf("substr(%s, 1, %d)", x.sql, n), nil
	})
	strNS("tail", "n=5", func(e *spEngine, x *spExpr, a *args) (string, error) {
		n, err := intArg(a, "n")
		if err != nil {
			return "", err
		}
		if n < 0 {
			return "", unsupportedAt(a.posOf("n"), "", "str.tail with a negative n")
		}
		start := fmt.Sprintf("(length(%s) + %d)", x.sql, -n)
		return "substr(" + x.sql + ", greatest(1, (" + start + " + 1)), length(" + x.sql + "))", nil
	})
	strNS("split", "by", func(e *spEngine, x *spExpr, a *args) (string, error) {
		by, err := strArg(a, "by")
		if err != nil {
			return "", err
		}
		return "split(" + x.sql + ", " + sparkString(regexp.QuoteMeta(by)) + ")", nil
	})
	strNS("to_datetime", "format=None", func(e *spEngine, x *spExpr, a *args) (string, error) {
		if a.get("format") == nil {
			return "to_timestamp(replace(" + x.sql + ", 'T', ' '))", nil
		}
		f, err := strArg(a, "format")
		if err != nil {
			return "", err
		}
		sf, err := strptimeToSpark(f, a.posOf("format"))
		if err != nil {
			return "", err
		}
		fn := "to_timestamp_ntz"
		if strings.Contains(f, "%z") || strings.Contains(f, "%Z") {
			fn = "to_timestamp"
		}
		return fn + "(replace(" + x.sql + ", 'T', ' '), " + sparkString(sf) + ")", nil
	})
	strNS("to_date", "format=None", func(e *spEngine, x *spExpr, a *args) (string, error) {
		if a.get("format") == nil {
			return "", unsupportedAt(-1, "pass the format", "str.to_date without a format")
		}
		f, err := strArg(a, "format")
		if err != nil {
			return "", err
		}
		sf, err := strptimeToSpark(f, a.posOf("format"))
		if err != nil {
			return "", err
		}
		return "to_date(" + x.sql + ", " + sparkString(sf) + ")", nil
	})
	strNS("zfill", "length", func(e *spEngine, x *spExpr, a *args) (string, error) {
		w, err := intArg(a, "length")
		if err != nil {
			return "", err
		}
		s := x.sql
		less := fmt.Sprintf("(length(%s) < %d)", s, w)
		pad := fmt.Sprintf("lpad(substr(%s, 2), %d, '0')", s, w-1)
		return fmt.Sprintf("CASE WHEN (startswith(%[1]s, '-') AND %[2]s) THEN concat('-', %[3]s) WHEN (startswith(%[1]s, '+') AND %[2]s) THEN concat('+', %[3]s) WHEN %[2]s THEN lpad(%[1]s, %[4]d, '0') ELSE %[1]s END", s, less, pad, w), nil
	})

	// --- .dt
	dtNS := func(name string, tmpl func(x string) string) {
		regSp(func(e *spEngine, c *call, x *spExpr) (value, error) {
			if _, err := c.bind(""); err != nil {
				return nil, err
			}
			return x.derive(tmpl(x.sql)), nil
		}, "nw.Expr.dt."+name)
	}
	for _, f := range []string{"year", "month", "day", "hour", "minute", "second", "dayofyear"} {
		f := f
		name := f
		if f == "dayofyear" {
			name = "ordinal_day"
		}
		dtNS(name, func(x string) string { return f + "(" + x + ")" })
	}
	dtNS("weekday", func(x string) string { return "((dayofweek(" + x + ") + 6) % 7)" })
	dtNS("date", func(x string) string { return "to_date(" + x + ")" })
	dtNS("millisecond", func(x string) string { return "FLOOR(((unix_micros(" + x + ") % 1000000) / 1000))" })
	dtNS("microsecond", func(x string) string { return "(unix_micros(" + x + ") % 1000000)" })
	regSp(func(e *spEngine, c *call, x *spExpr) (value, error) {
		a, err := c.bind("every")
		if err != nil {
			return nil, err
		}
		every, ok := a.get("every").(string)
		if !ok {
			return nil, unsupportedAt(a.posOf("every"), "", "truncate by a %s", pyType(a.get("every")))
		}
		m := everyRe.FindStringSubmatch(every)
		if m == nil || m[2] == "w" {
			return nil, laktoryErr(a.posOf("every"), "ValueError: Invalid `every` string: %s. Expected string of kind <number><unit>, where 'unit' is one of: ('ns', 'us', 'ms', 's', 'm', 'h', 'd', 'mo', 'q', 'y').", every)
		}
		if m[1] != "1" {
			return nil, laktoryErr(a.posOf("every"), "ValueError: Only multiple 1 is currently supported for Spark-like. Got %s.", m[1])
		}
		unit := map[string]string{"y": "year", "q": "quarter", "mo": "month", "d": "day", "h": "hour", "m": "minute", "s": "second", "ms": "millisecond", "us": "microsecond"}[m[2]]
		if unit == "" {
			return nil, laktoryErr(a.posOf("every"), "NotImplementedError: Truncating to nanoseconds is not yet supported for Spark-like.")
		}
		return x.derive("date_trunc(" + sparkString(unit) + ", " + x.sql + ")"), nil
	}, "nw.Expr.dt.truncate")
	regSp(func(e *spEngine, c *call, x *spExpr) (value, error) {
		a, err := c.bind("format")
		if err != nil {
			return nil, err
		}
		f, err := strArg(a, "format")
		if err != nil {
			return nil, err
		}
		sf, err := strptimeToSpark(f, a.posOf("format"))
		if err != nil {
			return nil, err
		}
		return x.derive("concat(date_format(" + x.sql + ", " + sparkString(sf) + "))"), nil
	}, "nw.Expr.dt.to_string")
	regSp(func(e *spEngine, c *call, x *spExpr) (value, error) {
		a, err := c.bind("by")
		if err != nil {
			return nil, err
		}
		by, _ := a.get("by").(string)
		m := everyRe.FindStringSubmatch(by)
		if m == nil {
			return nil, laktoryErr(a.posOf("by"), "ValueError: Invalid `every` string: %s.", by)
		}
		unit := map[string]string{"y": "year", "q": "quarter", "mo": "month", "w": "week", "d": "day", "h": "hour", "m": "minute", "s": "second", "ms": "millisecond", "us": "microsecond"}[m[2]]
		if unit == "" {
			return nil, laktoryErr(a.posOf("by"), "NotImplementedError: Offsetting by nanoseconds is not yet supported for Spark-like.")
		}
		// narwhals' F.timestamp_add(unit, n, x): x plus an interval.
		n := m[1]
		switch unit {
		case "quarter":
			unit, n = "month", fmt.Sprint(3*atoi(m[1]))
		case "week":
			unit, n = "day", fmt.Sprint(7*atoi(m[1]))
		}
		return x.derive("(" + x.sql + " + INTERVAL '" + n + "' " + strings.ToUpper(unit) + ")"), nil
	}, "nw.Expr.dt.offset_by")
	regSp(func(e *spEngine, c *call, x *spExpr) (value, error) {
		return nil, laktoryErr(c.at, "NotImplementedError: ")
	}, "nw.Expr.dt.timestamp", "nw.Expr.dt.total_seconds", "nw.Expr.dt.total_minutes", "nw.Expr.dt.total_milliseconds", "nw.Expr.dt.total_microseconds")

	// --- .list and .struct
	regSp(func(e *spEngine, c *call, x *spExpr) (value, error) {
		if _, err := c.bind(""); err != nil {
			return nil, err
		}
		return x.derive("array_size(" + x.sql + ")"), nil
	}, "nw.Expr.list.len")
	regSp(func(e *spEngine, c *call, x *spExpr) (value, error) {
		a, err := c.bind("item")
		if err != nil {
			return nil, err
		}
		v, err := e.exprArg("nw", a.get("item"), a.posOf("item"), false)
		if err != nil {
			return nil, err
		}
		return x.derive("array_contains(" + x.sql + ", " + v.sql + ")"), nil
	}, "nw.Expr.list.contains")
	regSp(func(e *spEngine, c *call, x *spExpr) (value, error) {
		a, err := c.bind("index")
		if err != nil {
			return nil, err
		}
		i, err := intArg(a, "index")
		if err != nil {
			return nil, err
		}
		return x.derive(fmt.Sprintf("%s[%d]", x.sql, i)), nil
	}, "nw.Expr.list.get")
	regSp(func(e *spEngine, c *call, x *spExpr) (value, error) {
		if _, err := c.bind(""); err != nil {
			return nil, err
		}
		return x.derive("array_distinct(" + x.sql + ")"), nil
	}, "nw.Expr.list.unique")
	regSp(func(e *spEngine, c *call, x *spExpr) (value, error) {
		a, err := c.bind("name")
		if err != nil {
			return nil, err
		}
		n, ok := a.get("name").(string)
		if !ok {
			return nil, laktoryErr(a.posOf("name"), "TypeError: field name must be a string")
		}
		out := x.derive(x.sql + "." + sparkIdent(n))
		out.name = n
		return out, nil
	}, "nw.Expr.struct.field")
	regSp(func(e *spEngine, c *call, x *spExpr) (value, error) {
		a, err := c.bind("p=1.0")
		if err != nil {
			return nil, err
		}
		p, err := e.operand("nw", a.get("p"), a.posOf("p"))
		if err != nil {
			return nil, err
		}
		q, err := e.binary("/", x, p, c.at)
		if err != nil {
			return nil, err
		}
		r := q.(*spExpr).derive("round(" + q.(*spExpr).sql + ", 0)")
		return e.binary("*", r, p, c.at)
	}, "nw.Expr.laktory.roundp")
	regSp(func(e *spEngine, c *call, x *spExpr) (value, error) {
		if _, err := c.bind(""); err != nil {
			return nil, err
		}
		return &spExpr{fam: "nw", sql: "current_timestamp()", name: "literal", pos: c.at, lit: true}, nil
	}, "nw.laktory.current_timestamp")
}

func atoi(s string) int {
	n := 0
	for _, c := range s {
		n = n*10 + int(c-'0')
	}
	return n
}

// horizontal is sum/max/min/mean/all/any_horizontal on PYSPARK.
func (e *spEngine) horizontal(c *call, f string) (value, error) {
	s := "*exprs"
	if f == "all" || f == "any" {
		s = "*exprs, ignore_nulls"
	}
	a, err := c.bind(s)
	if err != nil {
		return nil, err
	}
	xs, err := e.exprArgs("nw", a.rest, c.argPos, true)
	if err != nil {
		return nil, err
	}
	if len(xs) == 0 {
		return nil, laktoryErr(c.pos, "ValueError: At least one expression must be passed to `%s_horizontal`", f)
	}
	parts := make([]string, len(xs))
	for i, x := range xs {
		parts[i] = x.sql
	}
	var sql string
	switch f {
	case "sum":
		var ts []string
		for _, p := range parts {
			ts = append(ts, "coalesce("+p+", 0)")
		}
		sql = "(" + strings.Join(ts, " + ") + ")"
	case "max":
		sql = "greatest(" + strings.Join(parts, ", ") + ")"
	case "min":
		sql = "least(" + strings.Join(parts, ", ") + ")"
	case "mean":
		var num, den []string
		for _, p := range parts {
			num = append(num, "coalesce("+p+", 0)")
			den = append(den, "CAST(isnotnull("+p+") AS INT)")
		}
		n, d := "("+strings.Join(num, " + ")+")", "("+strings.Join(den, " + ")+")"
		sql = fmt.Sprintf("CASE WHEN (%[2]s != 0) THEN try_divide(%[1]s, %[2]s) WHEN (%[2]s = 0) THEN CASE WHEN (%[1]s = 0) THEN CAST('NaN' AS DOUBLE) WHEN (%[1]s > 0) THEN CAST('Infinity' AS DOUBLE) WHEN (%[1]s < 0) THEN CAST('-Infinity' AS DOUBLE) END END", n, d)
	case "all", "any":
		op := map[string]string{"all": " AND ", "any": " OR "}[f]
		ps := parts
		if a.boolean("ignore_nulls") {
			def := map[string]string{"all": "TRUE", "any": "FALSE"}[f]
			ps = make([]string, len(parts))
			for i, p := range parts {
				ps[i] = "coalesce(" + p + ", " + def + ")"
			}
		}
		sql = "(" + strings.Join(ps, op) + ")"
	}
	return spCombine(&spExpr{fam: "nw", sql: sql, name: xs[0].name, pos: c.at}, xs...), nil
}

// whenExpr is narwhals' when/then/otherwise on PYSPARK (F.when chains).
func (e *spEngine) whenExpr(w *whenChain, otherwise value, has bool, pos int) (Expr, error) {
	var b strings.Builder
	b.WriteString("CASE")
	var name string
	var parts []*spExpr
	for i, cv := range w.conds {
		var conds []value
		if p, ok := cv.(*predicates); ok {
			conds = p.xs
		} else {
			conds = []value{cv}
		}
		var cs []string
		for _, cd := range conds {
			x, err := e.exprArg("nw", cd, pos, true)
			if err != nil {
				return nil, err
			}
			cs = append(cs, x.sql)
			parts = append(parts, x)
		}
		v, err := e.exprArg("nw", w.vals[i], pos, true)
		if err != nil {
			return nil, err
		}
		if i == 0 {
			name = v.name
		}
		parts = append(parts, v)
		b.WriteString(" WHEN " + strings.Join(cs, " AND ") + " THEN " + v.sql)
	}
	if has {
		o, err := e.exprArg("nw", otherwise, pos, true)
		if err != nil {
			return nil, err
		}
		parts = append(parts, o)
		b.WriteString(" ELSE " + o.sql)
	}
	b.WriteString(" END")
	return spCombine(&spExpr{fam: "nw", sql: b.String(), name: name, pos: w.pos}, parts...), nil
}

// strptimeToSpark converts a strftime format to Spark's datetime pattern
// (narwhals' strptime_to_pyspark_format).
func strptimeToSpark(f string, pos int) (string, error) {
	m := map[byte]string{'Y': "yyyy", 'y': "yy", 'm': "MM", 'd': "dd", 'H': "HH", 'I': "hh", 'M': "mm", 'S': "ss", 'p': "a",
		'a': "E", 'A': "EEEE", 'j': "DDD", 'b': "MMM", 'B': "MMMM", 'z': "Z", 'Z': "z", 'f': "SSSSSS"}
	var b strings.Builder
	lit := ""
	flush := func() {
		if lit != "" {
			b.WriteString("'" + strings.ReplaceAll(lit, "'", "''") + "'")
			lit = ""
		}
	}
	for i := 0; i < len(f); i++ {
		c := f[i]
		if c == '%' && i+1 < len(f) {
			s, ok := m[f[i+1]]
			if !ok {
				return "", unsupportedAt(pos, "use %Y, %m, %d, %H, %M, %S and literal text", "the format specifier %%%c", f[i+1])
			}
			flush()
			b.WriteString(s)
			i++
			continue
		}
		if c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' {
			lit += string(c)
			continue
		}
		flush()
		b.WriteByte(c)
	}
	flush()
	return b.String(), nil
}
