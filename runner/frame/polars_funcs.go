package frame

import (
	"fmt"
	"math"
	"strings"
)

// plFn implements a function or method on the POLARS backend; recv is
// the bound expression of a method (nil for functions).
type plFn func(e *plEngine, c *call, recv *plExpr) (value, error)

// plImpls are the implementations, by key: "nw.col", "pl.Expr.round",
// "nw.Expr.str.slice". Functions narwhals passes through to Polars are
// registered for both families.
var plImpls = map[string]plFn{}

// reg registers fn under each key; a key "*.x" stands for nw.x and pl.x.
func reg(fn plFn, keys ...string) {
	for _, k := range keys {
		if strings.HasPrefix(k, "*.") {
			plImpls["nw."+k[2:]] = fn
			plImpls["pl."+k[2:]] = fn
			continue
		}
		plImpls[k] = fn
	}
}

func (e *plEngine) attr(xe Expr, name string, pos int) (value, error) {
	x := xe.(*plExpr)
	owner := x.fam + ".Expr"
	if !hasLibraryName(owner, name) {
		if name == "__getitem__" {
			return nil, laktoryErr(pos, "TypeError: 'Expr' object is not subscriptable")
		}
		return nil, laktoryErr(pos, "AttributeError: 'Expr' object has no attribute '%s'", name)
	}
	if exprNamespaces[name] {
		return &namespace{family: x.fam, name: name, x: x}, nil
	}
	return &callable{key: owner + "." + name, name: name, recv: x}, nil
}

func (e *plEngine) call(c *call) (value, error) {
	fn, ok := plImpls[c.fn.key]
	if !ok {
		return nil, unsupportedAt(c.at, "", "%s", describeKey(c.fn.key))
	}
	var recv *plExpr
	if c.fn.recv != nil {
		switch r := c.fn.recv.(type) {
		case *plExpr:
			recv = r
			if r.multi != nil && !multiOK[strings.TrimPrefix(strings.TrimPrefix(c.fn.key, "nw."), "pl.")] {
				return e.multiApply(c, fn, r)
			}
		}
	}
	return fn(e, c, recv)
}

// multiOK are the methods of a multi-column selection that keep it one
// (exclude, name.*); others apply to each column.
var multiOK = map[string]bool{"Expr.exclude": true}

// multiApply applies a method to each column of a multi-column selection.
func (e *plEngine) multiApply(c *call, fn plFn, m *plExpr) (value, error) {
	out := &plExpr{fam: m.fam, pos: m.pos, multi: []*plExpr{}, selector: m.selector}
	for _, x := range m.multi {
		v, err := fn(e, c, x)
		if err != nil {
			return nil, err
		}
		y, ok := v.(*plExpr)
		if !ok || y.multi != nil {
			return nil, unsupportedAt(c.at, "", "%s on a multi-column selection", describeKey(c.fn.key))
		}
		out.multi = append(out.multi, y)
	}
	return out, nil
}

// describeKey names an implementation key for messages: narwhals'
// Expr.str.pad_end, polars' pl.cum_sum_horizontal.
func describeKey(key string) string {
	fam, rest, _ := strings.Cut(key, ".")
	lib := map[string]string{"nw": "narwhals'", "pl": "polars'", "F": "pyspark's", "T": "pyspark's", "laktory": "Laktory's"}[fam]
	if lib == "" {
		lib = fam
	}
	if fam == "F" && !strings.HasPrefix(rest, "Column") {
		return lib + " F." + rest
	}
	if fam == "pl" && !strings.HasPrefix(rest, "Expr") {
		return lib + " pl." + rest
	}
	return lib + " " + rest
}

// exprArg is an argument as an expression: strings are column names
// (narwhals and Polars parse them so), other values literals.
func (e *plEngine) exprArg(fam string, v value, pos int, strAsCol bool) (*plExpr, error) {
	if s, ok := v.(string); ok && strAsCol {
		return e.column(fam, s, pos)
	}
	if x, ok := v.(*plExpr); ok && x.multi != nil && x.fam == fam {
		// A multi-column selection is expanded by the method.
		return x, nil
	}
	return e.operand(fam, v, pos)
}

// methodArg is an expression a DataFrame method receives: a when() chain
// without otherwise() ends there (its other rows are null), a string is a
// column name.
func (e *plEngine) methodArg(fam string, v value) (*plExpr, error) {
	if w, ok := v.(*whenChain); ok {
		x, err := e.whenExpr(w, nil, false, w.pos)
		if err != nil {
			return nil, err
		}
		v = x
	}
	return e.exprArg(fam, v, -1, true)
}

// each is the expressions x stands for: its columns for a multi-column
// selection, else x.
func (x *plExpr) each() []*plExpr {
	if x.multi != nil {
		return x.multi
	}
	return []*plExpr{x}
}

// exprArgs flattens positional arguments (lists included) into expressions.
func (e *plEngine) exprArgs(fam string, vs []value, pos []int, strAsCol bool) ([]*plExpr, error) {
	var out []*plExpr
	for i, v := range vs {
		p := pos[min(i, len(pos)-1)]
		if elts, ok := elements(v); ok {
			sub, err := e.exprArgs(fam, elts, []int{p}, strAsCol)
			if err != nil {
				return nil, err
			}
			out = append(out, sub...)
			continue
		}
		x, err := e.exprArg(fam, v, p, strAsCol)
		if err != nil {
			return nil, err
		}
		if x.multi != nil {
			out = append(out, x.multi...)
			continue
		}
		out = append(out, x)
	}
	return out, nil
}

// aliasArg is the name alias(name) gives.
func aliasArg(c *call) (string, error) {
	a, err := c.bind("name")
	if err != nil {
		return "", err
	}
	n, ok := a.get("name").(string)
	if !ok {
		return "", laktoryErr(a.posOf("name"), "TypeError: alias() argument 'name' must be str, not %s", pyType(a.get("name")))
	}
	return n, nil
}

func famOf(key string) string { f, _, _ := strings.Cut(key, "."); return f }

func init() {
	// --- column selection
	reg(func(e *plEngine, c *call, _ *plExpr) (value, error) {
		a, err := c.bind("*names")
		if err != nil {
			return nil, err
		}
		fam := famOf(c.fn.key)
		var cols []*plExpr
		for i, v := range a.rest {
			items := []value{v}
			if elts, ok := elements(v); ok {
				items = elts
			}
			for _, it := range items {
				s, ok := it.(string)
				if !ok {
					if d, isDt := it.(*dtypeVal); isDt {
						return nil, unsupportedAt(c.argPos[i], "name the columns", "selecting columns by data type (%s)", repr(d))
					}
					return nil, laktoryErr(c.argPos[i], "TypeError: Expected iterable of str, got %s", pyType(it))
				}
				if strings.HasPrefix(s, "^") && strings.HasSuffix(s, "$") {
					return nil, unsupportedAt(c.argPos[i], "name the columns", "a regular expression column selection")
				}
				x, err := e.column(fam, s, c.argPos[i])
				if err != nil {
					return nil, err
				}
				cols = append(cols, x)
			}
		}
		if len(cols) == 1 {
			return cols[0], nil
		}
		if len(cols) == 0 {
			return nil, laktoryErr(c.pos, "TypeError: col() missing 1 required positional argument")
		}
		return &plExpr{fam: fam, pos: c.at, multi: cols}, nil
	}, "*.col")
	reg(func(e *plEngine, c *call, _ *plExpr) (value, error) {
		if _, err := c.bind(""); err != nil {
			return nil, err
		}
		return e.selectAll(famOf(c.fn.key), nil, c.at), nil
	}, "*.all")
	reg(func(e *plEngine, c *call, _ *plExpr) (value, error) {
		a, err := c.bind("*names")
		if err != nil {
			return nil, err
		}
		var ex []string
		for _, v := range a.rest {
			items := []value{v}
			if elts, ok := elements(v); ok {
				items = elts
			}
			for _, it := range items {
				s, _ := it.(string)
				ex = append(ex, s)
			}
		}
		return e.selectAll(famOf(c.fn.key), ex, c.at), nil
	}, "*.exclude")
	reg(func(e *plEngine, c *call, recv *plExpr) (value, error) {
		a, err := c.bind("*names")
		if err != nil {
			return nil, err
		}
		if recv.multi == nil {
			return nil, unsupportedAt(c.at, "", "exclude() on a single column")
		}
		drop := map[string]bool{}
		for _, v := range a.rest {
			if s, ok := v.(string); ok {
				drop[s] = true
			}
		}
		out := &plExpr{fam: recv.fam, pos: recv.pos, selector: true, multi: []*plExpr{}}
		for _, x := range recv.multi {
			if !drop[x.name] {
				out.multi = append(out.multi, x)
			}
		}
		return out, nil
	}, "pl.Expr.exclude")

	// --- literals
	reg(func(e *plEngine, c *call, _ *plExpr) (value, error) {
		a, err := c.bind("value, dtype=None")
		if err != nil {
			return nil, err
		}
		var dt *DType
		if a.get("dtype") != nil {
			if dt, err = plType(a.get("dtype"), a.posOf("dtype")); err != nil {
				return nil, err
			}
		}
		if x, ok := a.get("value").(*plExpr); ok {
			if famOf(c.fn.key) == "nw" {
				return nil, laktoryErr(a.posOf("value"), "TypeError: Expected `value` to be a scalar, got: narwhals Expr")
			}
			return x, nil
		}
		return e.literal(famOf(c.fn.key), a.get("value"), dt, c.at)
	}, "*.lit")
	reg(func(e *plEngine, c *call, _ *plExpr) (value, error) {
		if _, err := c.bind(""); err != nil {
			return nil, err
		}
		return e.aggregate(&plExpr{fam: famOf(c.fn.key), name: "len", pos: c.at}, dUInt32, "count(*)"), nil
	}, "*.len")

	// --- naming and casting
	reg(func(e *plEngine, c *call, x *plExpr) (value, error) {
		n, err := aliasArg(c)
		if err != nil {
			return nil, err
		}
		y := *x
		y.name = n
		return &y, nil
	}, "*.Expr.alias")
	reg(func(e *plEngine, c *call, x *plExpr) (value, error) {
		sigs := "dtype"
		if famOf(c.fn.key) == "pl" {
			sigs = "dtype, *, strict=True, wrap_numerical=False"
		}
		a, err := c.bind(sigs)
		if err != nil {
			return nil, err
		}
		t, err := plType(a.get("dtype"), a.posOf("dtype"))
		if err != nil {
			return nil, err
		}
		strict := true
		if a.given("strict") {
			strict = a.boolean("strict")
		}
		return e.cast(x, t, strict, c.at)
	}, "*.Expr.cast")

	// --- nulls
	reg(func(e *plEngine, c *call, x *plExpr) (value, error) {
		if _, err := c.bind(""); err != nil {
			return nil, err
		}
		return x.derive(dBool, "("+x.sql+" IS NULL)"), nil
	}, "*.Expr.is_null")
	reg(func(e *plEngine, c *call, x *plExpr) (value, error) {
		if _, err := c.bind(""); err != nil {
			return nil, err
		}
		return x.derive(dBool, "("+x.sql+" IS NOT NULL)"), nil
	}, "pl.Expr.is_not_null")
	reg(func(e *plEngine, c *call, x *plExpr) (value, error) {
		if _, err := c.bind(""); err != nil {
			return nil, err
		}
		if !x.t.IsFloat() {
			if x.t.IsNumeric() {
				return x.derive(dBool, "CASE WHEN "+x.sql+" IS NULL THEN NULL ELSE FALSE END"), nil
			}
			return nil, laktoryErr(c.at, "InvalidOperationError: `is_nan` operation not supported for dtype `%s`", shortDtype(x.t))
		}
		return x.derive(dBool, "isnan("+x.sql+")"), nil
	}, "*.Expr.is_nan")
	reg(func(e *plEngine, c *call, x *plExpr) (value, error) {
		if _, err := c.bind(""); err != nil {
			return nil, err
		}
		if !x.t.IsFloat() {
			return x.derive(dBool, "CASE WHEN "+x.sql+" IS NULL THEN NULL ELSE TRUE END"), nil
		}
		return x.derive(dBool, "isfinite("+x.sql+")"), nil
	}, "*.Expr.is_finite")
	reg(func(e *plEngine, c *call, x *plExpr) (value, error) {
		s := "value=None, strategy=None, limit=None"
		a, err := c.bind(s)
		if err != nil {
			return nil, err
		}
		if a.get("strategy") != nil {
			st := a.str("strategy")
			switch st {
			case "zero":
				return e.fillNull(x, &plExpr{fam: x.fam, t: x.t, sql: castSQL("0", dInt32, x.t), lit: true, scalar: true}, c.at)
			case "one":
				return e.fillNull(x, &plExpr{fam: x.fam, t: x.t, sql: castSQL("1", dInt32, x.t), lit: true, scalar: true}, c.at)
			case "max", "min", "mean":
				agg, err := e.aggCall(x, st, c.at)
				if err != nil {
					return nil, err
				}
				return e.fillNull(x, agg, c.at)
			case "forward", "backward":
				return nil, unsupportedAt(a.posOf("strategy"), "", "fill_null(strategy=%s) (it depends on the order of the rows)", pyStr(st))
			}
			return nil, laktoryErr(a.posOf("strategy"), "ValueError: strategy must be one of {'forward', 'backward', 'min', 'max', 'mean', 'zero', 'one'}, got %s", pyStr(st))
		}
		if !a.given("value") {
			return nil, laktoryErr(c.pos, "ValueError: must specify either a fill `value` or `strategy`")
		}
		v, err := e.exprArg(x.fam, a.get("value"), a.posOf("value"), false)
		if err != nil {
			return nil, err
		}
		return e.fillNull(x, v, c.at)
	}, "*.Expr.fill_null")
	reg(func(e *plEngine, c *call, x *plExpr) (value, error) {
		a, err := c.bind("value")
		if err != nil {
			return nil, err
		}
		v, err := e.exprArg(x.fam, a.get("value"), a.posOf("value"), false)
		if err != nil {
			return nil, err
		}
		if !x.t.IsFloat() {
			return x, nil
		}
		vt := e.typed(v, x.t)
		st := supertype(x.t, vt)
		if st == nil {
			return nil, laktoryErr(c.at, "InvalidOperationError: fill_nan: cannot combine %s and %s", shortDtype(x.t), shortDtype(vt))
		}
		out := combine(x.derive(st, fmt.Sprintf("CASE WHEN isnan(%[1]s) THEN %[2]s ELSE %[1]s END", castSQL(x.sql, x.t, st), castSQL(v.sql, v.t, st))), x, v)
		out.name = x.name
		return out, nil
	}, "*.Expr.fill_nan")

	// --- comparisons by method
	reg(func(e *plEngine, c *call, x *plExpr) (value, error) {
		s := "other"
		if famOf(c.fn.key) == "pl" {
			s = "other, *, nulls_equal=False"
		}
		a, err := c.bind(s)
		if err != nil {
			return nil, err
		}
		elts, ok := elements(a.get("other"))
		if !ok {
			return nil, unsupportedAt(a.posOf("other"), "pass a list of values", "is_in with a %s", pyType(a.get("other")))
		}
		var items []string
		for _, it := range elts {
			if it == nil {
				continue
			}
			l, err := e.literal(x.fam, it, nil, a.posOf("other"))
			if err != nil {
				return nil, err
			}
			lt := e.typed(l, x.t)
			st := supertype(x.t, lt)
			if st == nil || (x.t.Kind == DString) != (lt.Kind == DString) {
				return nil, laktoryErr(a.posOf("other"), "InvalidOperationError: 'is_in' cannot check for %s values in %s data", shortDtype(lt), shortDtype(x.t))
			}
			items = append(items, castSQL(l.sql, l.t, x.t))
		}
		if len(items) == 0 {
			return x.derive(dBool, "CASE WHEN "+x.sql+" IS NULL THEN NULL ELSE FALSE END"), nil
		}
		return x.derive(dBool, "("+x.sql+" IN ("+strings.Join(items, ", ")+"))"), nil
	}, "*.Expr.is_in")
	reg(func(e *plEngine, c *call, x *plExpr) (value, error) {
		a, err := c.bind("lower_bound, upper_bound, closed='both'")
		if err != nil {
			return nil, err
		}
		lo, err := e.exprArg(x.fam, a.get("lower_bound"), a.posOf("lower_bound"), true)
		if err != nil {
			return nil, err
		}
		hi, err := e.exprArg(x.fam, a.get("upper_bound"), a.posOf("upper_bound"), true)
		if err != nil {
			return nil, err
		}
		ops := map[string][2]string{"both": {">=", "<="}, "left": {">=", "<"}, "right": {">", "<="}, "none": {">", "<"}}[a.str("closed")]
		if ops[0] == "" {
			return nil, laktoryErr(a.posOf("closed"), "ValueError: `closed` must be one of {'left', 'right', 'both', 'none'}, got %s", repr(a.get("closed")))
		}
		l, err := e.comparison(ops[0], x, lo, c.at)
		if err != nil {
			return nil, err
		}
		r, err := e.comparison(ops[1], x, hi, c.at)
		if err != nil {
			return nil, err
		}
		out, err := e.logical("&", l, r, c.at)
		if err != nil {
			return nil, err
		}
		out.name = x.name
		return out, nil
	}, "*.Expr.is_between")

	// --- math
	reg(func(e *plEngine, c *call, x *plExpr) (value, error) {
		s := "decimals=0"
		if famOf(c.fn.key) == "pl" {
			s = "decimals=0, mode='half_to_even'"
		}
		a, err := c.bind(s)
		if err != nil {
			return nil, err
		}
		d, ok := a.get("decimals").(int64)
		if !ok {
			return nil, laktoryErr(a.posOf("decimals"), "TypeError: argument 'decimals': %s object cannot be interpreted as an integer", pyType(a.get("decimals")))
		}
		switch {
		case x.t.IsInteger():
			return x, nil
		case x.t.IsFloat():
			fn := "round_even"
			if a.str("mode") == "half_away_from_zero" {
				fn = "round"
			}
			return x.derive(x.t, fmt.Sprintf("CAST(%s(CAST(%s AS DOUBLE), %d) AS %s)", fn, x.sql, d, x.t.Duck())), nil
		case x.t.Kind == DDecimal:
			return nil, unsupportedAt(c.at, "cast to Float64 first", "round of a Decimal")
		}
		return nil, laktoryErr(c.at, "InvalidOperationError: `round` operation not supported for dtype `%s`", shortDtype(x.t))
	}, "*.Expr.round")
	reg(func(e *plEngine, c *call, x *plExpr) (value, error) {
		if _, err := c.bind(""); err != nil {
			return nil, err
		}
		if !x.t.IsNumeric() && x.t.Kind != DDuration {
			return nil, laktoryErr(c.at, "InvalidOperationError: `abs` operation not supported for dtype `%s`", shortDtype(x.t))
		}
		return x.derive(x.t, "abs("+x.sql+")"), nil
	}, "*.Expr.abs")
	for _, fn := range []string{"floor", "ceil"} {
		fn := fn
		reg(func(e *plEngine, c *call, x *plExpr) (value, error) {
			if _, err := c.bind(""); err != nil {
				return nil, err
			}
			switch {
			case x.t.IsInteger():
				return x, nil
			case x.t.IsFloat():
				return x.derive(x.t, fn+"("+x.sql+")"), nil
			}
			return nil, laktoryErr(c.at, "InvalidOperationError: `%s` operation not supported for dtype `%s`", fn, shortDtype(x.t))
		}, "*.Expr."+fn)
	}
	floatFn := func(name string, sql func(string) string) {
		reg(func(e *plEngine, c *call, x *plExpr) (value, error) {
			if _, err := c.bind(""); err != nil {
				return nil, err
			}
			if !x.t.IsNumeric() {
				return nil, laktoryErr(c.at, "InvalidOperationError: `%s` operation not supported for dtype `%s`", name, shortDtype(x.t))
			}
			t := dFloat64
			if x.t.Kind == DFloat32 {
				t = dFloat32
			}
			return x.derive(t, "CAST("+sql("CAST("+x.sql+" AS DOUBLE)")+" AS "+t.Duck()+")"), nil
		}, "*.Expr."+name)
	}
	floatFn("sqrt", func(s string) string { return "CASE WHEN " + s + " < 0 THEN 'nan'::DOUBLE ELSE sqrt(" + s + ") END" })
	floatFn("cbrt", func(s string) string { return "cbrt(" + s + ")" })
	floatFn("exp", func(s string) string { return "exp(" + s + ")" })
	for _, f := range []string{"sin", "cos", "tan", "arcsin", "arccos", "arctan", "sinh", "cosh", "tanh"} {
		duck := map[string]string{"arcsin": "asin", "arccos": "acos", "arctan": "atan"}[f]
		if duck == "" {
			duck = f
		}
		floatFn(f, func(s string) string { return duck + "(" + s + ")" })
	}
	reg(func(e *plEngine, c *call, x *plExpr) (value, error) {
		a, err := c.bind("base=2.718281828459045")
		if err != nil {
			return nil, err
		}
		b, ok := asFloat(a.get("base"))
		if !ok {
			return nil, unsupportedAt(a.posOf("base"), "", "log with base %s", pyType(a.get("base")))
		}
		if !x.t.IsNumeric() {
			return nil, laktoryErr(c.at, "InvalidOperationError: `log` operation not supported for dtype `%s`", shortDtype(x.t))
		}
		s := "CAST(" + x.sql + " AS DOUBLE)"
		ln := "CASE WHEN " + s + " < 0 OR isnan(" + s + ") THEN 'nan'::DOUBLE WHEN " + s + " = 0 THEN '-inf'::DOUBLE ELSE ln(" + s + ") END"
		t := dFloat64
		if x.t.Kind == DFloat32 {
			t = dFloat32
		}
		out := "(" + ln + ")"
		if b != math.E {
			out = "(" + ln + ") / ln(" + floatSQL(b) + ")"
		}
		return x.derive(t, "CAST("+out+" AS "+t.Duck()+")"), nil
	}, "*.Expr.log")
	reg(func(e *plEngine, c *call, x *plExpr) (value, error) {
		a, err := c.bind("lower_bound=None, upper_bound=None")
		if err != nil {
			return nil, err
		}
		if !x.t.IsNumeric() && !x.t.IsTemporal() {
			return nil, laktoryErr(c.at, "InvalidOperationError: `clip` operation not supported for dtype `%s`", shortDtype(x.t))
		}
		out := x.sql
		for _, b := range []struct {
			name, fn string
		}{{"upper_bound", "least"}, {"lower_bound", "greatest"}} {
			if a.get(b.name) == nil {
				continue
			}
			v, err := e.exprArg(x.fam, a.get(b.name), a.posOf(b.name), true)
			if err != nil {
				return nil, err
			}
			out = fmt.Sprintf("%s(%s, %s)", b.fn, out, castSQL(v.sql, v.t, x.t))
		}
		return x.derive(x.t, "CASE WHEN "+x.sql+" IS NULL THEN NULL ELSE "+out+" END"), nil
	}, "*.Expr.clip")

	// --- aggregations
	for _, agg := range []string{"sum", "mean", "min", "max", "count", "n_unique", "median", "null_count", "any", "all"} {
		agg := agg
		reg(func(e *plEngine, c *call, x *plExpr) (value, error) {
			sigs := ""
			if agg == "any" || agg == "all" {
				sigs = "*, ignore_nulls=True"
				if famOf(c.fn.key) == "nw" {
					sigs = ""
				}
			}
			if _, err := c.bind(sigs); err != nil {
				return nil, err
			}
			return e.aggCall(x, agg, c.at)
		}, "*.Expr."+agg)
	}
	for _, agg := range []string{"std", "var"} {
		agg := agg
		reg(func(e *plEngine, c *call, x *plExpr) (value, error) {
			a, err := c.bind("ddof=1")
			if err != nil {
				return nil, err
			}
			d, _ := a.get("ddof").(int64)
			return e.aggCall(x, fmt.Sprintf("%s:%d", agg, d), c.at)
		}, "*.Expr."+agg)
	}
	reg(func(e *plEngine, c *call, x *plExpr) (value, error) {
		a, err := c.bind("quantile, interpolation='nearest'")
		if err != nil {
			return nil, err
		}
		q, ok := asFloat(a.get("quantile"))
		if !ok {
			return nil, unsupportedAt(a.posOf("quantile"), "", "quantile with a %s", pyType(a.get("quantile")))
		}
		if a.str("interpolation") != "linear" {
			return nil, unsupportedAt(a.posOf("interpolation"), "use interpolation=\"linear\"", "quantile with interpolation %s", pyStr(a.str("interpolation")))
		}
		return e.aggregate(x, dFloat64, fmt.Sprintf("quantile_cont(%s, %s)", x.sql, floatSQL(q))), nil
	}, "*.Expr.quantile")

	// --- windows
	reg(func(e *plEngine, c *call, x *plExpr) (value, error) {
		var a *args
		var err error
		if famOf(c.fn.key) == "nw" {
			a, err = c.bind("*partition_by, order_by=None")
		} else {
			a, err = c.bind("partition_by=None, *more_exprs, order_by=None, descending=False, nulls_last=False, mapping_strategy='group_to_rows'")
			if err == nil && a.get("partition_by") != nil {
				a.rest = append([]value{a.get("partition_by")}, a.rest...)
			}
		}
		if err != nil {
			return nil, err
		}
		return e.over(x, a, c)
	}, "*.Expr.over")
	for _, f := range []string{"cum_sum", "cum_count", "cum_max", "cum_min", "cum_prod"} {
		f := f
		reg(func(e *plEngine, c *call, x *plExpr) (value, error) {
			a, err := c.bind("reverse=False")
			if err != nil {
				return nil, err
			}
			if a.boolean("reverse") {
				return nil, unsupportedAt(a.posOf("reverse"), "", "%s(reverse=True)", f)
			}
			return e.cumulative(x, f, c.at)
		}, "*.Expr."+f)
	}
	reg(func(e *plEngine, c *call, x *plExpr) (value, error) {
		s := "n=1"
		if famOf(c.fn.key) == "pl" {
			s = "n=1, *, fill_value=None"
		}
		a, err := c.bind(s)
		if err != nil {
			return nil, err
		}
		n, ok := a.get("n").(int64)
		if !ok {
			return nil, unsupportedAt(a.posOf("n"), "", "shift by a %s", pyType(a.get("n")))
		}
		return e.shift(x, n, c.at)
	}, "*.Expr.shift")
	reg(func(e *plEngine, c *call, x *plExpr) (value, error) {
		s := ""
		if famOf(c.fn.key) == "pl" {
			s = "n=1, null_behavior='ignore'"
		}
		a, err := c.bind(s)
		if err != nil {
			return nil, err
		}
		n := int64(1)
		if a.get("n") != nil {
			n, _ = a.get("n").(int64)
		}
		prev, err := e.shift(x, n, c.at)
		if err != nil {
			return nil, err
		}
		out, err := e.arith("-", x, prev, c.at)
		if err != nil {
			return nil, err
		}
		out.orderDep = true
		return out, nil
	}, "*.Expr.diff")
	reg(func(e *plEngine, c *call, x *plExpr) (value, error) {
		s := "method='average', descending=False"
		if famOf(c.fn.key) == "pl" {
			s = "method='average', *, descending=False, seed=None"
		}
		a, err := c.bind(s)
		if err != nil {
			return nil, err
		}
		return e.rank(x, a.str("method"), a.boolean("descending"), a.posOf("method"))
	}, "*.Expr.rank")
	for _, f := range []string{"is_duplicated", "is_unique"} {
		f := f
		reg(func(e *plEngine, c *call, x *plExpr) (value, error) {
			if _, err := c.bind(""); err != nil {
				return nil, err
			}
			op := ">"
			if f == "is_unique" {
				op = "="
			}
			// Rows with the same value (nulls alike) counted over the frame.
			return x.derive(dBool, fmt.Sprintf("(count(*) OVER (PARTITION BY %s) %s 1)", x.sql, op)), nil
		}, "*.Expr."+f)
	}

	// --- horizontal functions
	reg(func(e *plEngine, c *call, _ *plExpr) (value, error) {
		return e.horizontal(c, "sum")
	}, "*.sum_horizontal")
	reg(func(e *plEngine, c *call, _ *plExpr) (value, error) {
		return e.horizontal(c, "max")
	}, "*.max_horizontal")
	reg(func(e *plEngine, c *call, _ *plExpr) (value, error) {
		return e.horizontal(c, "min")
	}, "*.min_horizontal")
	reg(func(e *plEngine, c *call, _ *plExpr) (value, error) {
		return e.horizontal(c, "mean")
	}, "*.mean_horizontal")
	reg(func(e *plEngine, c *call, _ *plExpr) (value, error) {
		return e.horizontal(c, "all")
	}, "*.all_horizontal")
	reg(func(e *plEngine, c *call, _ *plExpr) (value, error) {
		return e.horizontal(c, "any")
	}, "*.any_horizontal")
	reg(func(e *plEngine, c *call, _ *plExpr) (value, error) {
		fam := famOf(c.fn.key)
		a, err := c.bind("exprs, *more_exprs")
		if err != nil {
			return nil, err
		}
		xs, err := e.exprArgs(fam, append([]value{a.get("exprs")}, a.rest...), append([]int{a.posOf("exprs")}, restPos(c, 1)...), true)
		if err != nil {
			return nil, err
		}
		t := xs[0].t
		for _, x := range xs[1:] {
			if t = supertype(t, e.typed(x, t)); t == nil {
				return nil, laktoryErr(c.at, "InvalidOperationError: coalesce: the input types do not have a common supertype")
			}
		}
		parts := make([]string, len(xs))
		for i, x := range xs {
			parts[i] = castSQL(x.sql, x.t, t)
		}
		out := combine(&plExpr{fam: fam, t: t, name: xs[0].name, pos: c.at, sql: "coalesce(" + strings.Join(parts, ", ") + ")"}, xs...)
		return out, nil
	}, "*.coalesce")
	reg(func(e *plEngine, c *call, _ *plExpr) (value, error) {
		fam := famOf(c.fn.key)
		a, err := c.bind("exprs, *more_exprs, separator='', ignore_nulls=False")
		if err != nil {
			return nil, err
		}
		xs, err := e.exprArgs(fam, append([]value{a.get("exprs")}, a.rest...), append([]int{a.posOf("exprs")}, restPos(c, 1)...), true)
		if err != nil {
			return nil, err
		}
		sep, _ := a.get("separator").(string)
		parts := make([]string, len(xs))
		for i, x := range xs {
			s, err := e.cast(x, dString, true, c.at)
			if err != nil {
				return nil, err
			}
			parts[i] = s.sql
		}
		var sql string
		if a.boolean("ignore_nulls") {
			sql = "concat_ws(" + quoteString(sep) + ", " + strings.Join(parts, ", ") + ")"
		} else {
			sql = "(" + strings.Join(parts, " || "+quoteString(sep)+" || ") + ")"
			if sep == "" {
				sql = "(" + strings.Join(parts, " || ") + ")"
			}
		}
		return combine(&plExpr{fam: fam, t: dString, name: xs[0].name, pos: c.at, sql: sql}, xs...), nil
	}, "*.concat_str")
	// nw.sum("a", "b") is col("a", "b").sum(); likewise mean, min, max, median.
	for _, agg := range []string{"sum", "mean", "min", "max", "median"} {
		agg := agg
		reg(func(e *plEngine, c *call, _ *plExpr) (value, error) {
			fam := famOf(c.fn.key)
			a, err := c.bind("*columns")
			if err != nil {
				return nil, err
			}
			var outs []*plExpr
			for i, v := range a.rest {
				s, ok := v.(string)
				if !ok {
					return nil, laktoryErr(c.argPos[i], "TypeError: expected a column name, got %s", pyType(v))
				}
				x, err := e.column(fam, s, c.argPos[i])
				if err != nil {
					return nil, err
				}
				y, err := e.aggCall(x, agg, c.at)
				if err != nil {
					return nil, err
				}
				outs = append(outs, y)
			}
			if len(outs) == 1 {
				return outs[0], nil
			}
			return &plExpr{fam: fam, pos: c.at, multi: outs}, nil
		}, "*."+agg)
	}

	// --- conditionals
	reg(func(e *plEngine, c *call, _ *plExpr) (value, error) {
		return e.when(c, nil)
	}, "*.when")
}

func restPos(c *call, from int) []int {
	if from >= len(c.argPos) {
		return nil
	}
	return c.argPos[from:]
}

// selectAll is all() (exclude: exclude(...)): the frame's columns.
func (e *plEngine) selectAll(fam string, exclude []string, pos int) *plExpr {
	out := &plExpr{fam: fam, pos: pos, selector: true, multi: []*plExpr{}}
	skip := map[string]bool{}
	for _, s := range exclude {
		skip[s] = true
	}
	for _, c := range e.ev.frame.cols {
		if !skip[c.name] {
			out.multi = append(out.multi, &plExpr{fam: fam, t: c.t, sql: quoteIdent(c.name), name: c.name, pos: pos, col: c.name})
		}
	}
	return out
}

// fillNull is fill_null(value): the supertype of both.
func (e *plEngine) fillNull(x, v *plExpr, pos int) (*plExpr, error) {
	vt := e.typed(v, x.t)
	st := supertype(x.t, vt)
	if st == nil {
		return nil, laktoryErr(pos, "InvalidOperationError: fill_null: cannot combine %s and %s", shortDtype(x.t), shortDtype(vt))
	}
	out := combine(&plExpr{fam: x.fam, t: st, name: x.name, pos: x.pos,
		sql: "coalesce(" + castSQL(x.sql, x.t, st) + ", " + castSQL(v.sql, v.t, st) + ")"}, x, v)
	return out, nil
}

// aggregate is an aggregate expression: %W in sql marks where each
// aggregate call's OVER clause goes (none in a group).
func (e *plEngine) aggregate(x *plExpr, t *DType, sql string) *plExpr {
	if !strings.Contains(sql, "%W") {
		sql += "%W"
	}
	sql = strings.ReplaceAll(sql, "%W", e.mark(&window{kind: "agg"}))
	return &plExpr{fam: x.fam, t: t, name: x.name, pos: x.pos, sql: "CAST(" + sql + " AS " + t.Duck() + ")", scalar: true, agg: true}
}

// aggCall is one of Polars' aggregations of x.
func (e *plEngine) aggCall(x *plExpr, agg string, pos int) (*plExpr, error) {
	if x.agg {
		return nil, unsupportedAt(pos, "", "an aggregation of an aggregation")
	}
	t := x.t
	name, ddof, _ := strings.Cut(agg, ":")
	numericOnly := func() error {
		if !t.IsNumeric() && t.Kind != DBool {
			return laktoryErr(pos, "InvalidOperationError: `%s` operation not supported for dtype `%s`", name, shortDtype(t))
		}
		return nil
	}
	switch name {
	case "sum":
		if err := numericOnly(); err != nil {
			return nil, err
		}
		rt := t
		switch t.Kind {
		case DInt8, DInt16, DUInt8, DUInt16:
			rt = dInt64
		case DBool:
			rt = dUInt32
		}
		agg := e.aggregate(x, rt, "coalesce(sum("+castSQL(x.sql, t, rt)+")%W, 0)")
		return agg, nil
	case "mean":
		if err := numericOnly(); err != nil {
			if t.Kind != DDate && t.Kind != DDatetime {
				return nil, err
			}
			return nil, unsupportedAt(pos, "", "mean of %s", t)
		}
		rt := dFloat64
		if t.Kind == DFloat32 {
			rt = dFloat32
		}
		return e.aggregate(x, rt, "avg("+castSQL(x.sql, t, dFloat64)+")"), nil
	case "median":
		if err := numericOnly(); err != nil {
			return nil, err
		}
		rt := dFloat64
		if t.Kind == DFloat32 {
			rt = dFloat32
		}
		return e.aggregate(x, rt, "quantile_cont("+castSQL(x.sql, t, dFloat64)+", 0.5)"), nil
	case "min", "max":
		if t.Kind == DList || t.Kind == DStruct {
			return nil, unsupportedAt(pos, "", "%s of %s", name, t)
		}
		if t.IsFloat() {
			// Polars skips NaN unless every value is NaN.
			return e.aggregate(x, t, fmt.Sprintf("coalesce(%[1]s(CASE WHEN isnan(%[2]s) THEN NULL ELSE %[2]s END)%%W, %[1]s(%[2]s)%%W)", name, x.sql)), nil
		}
		return e.aggregate(x, t, name+"("+x.sql+")"), nil
	case "count":
		return e.aggregate(x, dUInt32, "count("+x.sql+")"), nil
	case "null_count":
		return e.aggregate(x, dUInt32, "count(*)%W - count("+x.sql+")%W"), nil
	case "n_unique":
		// Polars counts null as one more distinct value.
		return e.aggregate(x, dUInt32, "count(DISTINCT "+x.sql+")%W + CASE WHEN count(*)%W > count("+x.sql+")%W THEN 1 ELSE 0 END"), nil
	case "std", "var":
		if err := numericOnly(); err != nil {
			return nil, err
		}
		f := map[string]string{"std1": "stddev_samp", "std0": "stddev_pop", "var1": "var_samp", "var0": "var_pop"}[name+ddof]
		if f == "" {
			return nil, unsupportedAt(pos, "", "%s with ddof=%s", name, ddof)
		}
		rt := dFloat64
		if t.Kind == DFloat32 {
			rt = dFloat32
		}
		return e.aggregate(x, rt, f+"("+castSQL(x.sql, t, dFloat64)+")"), nil
	case "any", "all":
		if t.Kind != DBool {
			return nil, laktoryErr(pos, "InvalidOperationError: `%s` operation not supported for dtype `%s`", name, shortDtype(t))
		}
		f := map[string]string{"any": "bool_or", "all": "bool_and"}[name]
		def := map[string]string{"any": "FALSE", "all": "TRUE"}[name]
		return e.aggregate(x, dBool, "coalesce("+f+"("+x.sql+")%W, "+def+")"), nil
	}
	return nil, unsupportedAt(pos, "", "the aggregation %s", agg)
}

// over is x.over(partition_by, order_by=...): its aggregates and window
// functions computed per partition (ordered by order_by).
func (e *plEngine) over(x *plExpr, a *args, c *call) (*plExpr, error) {
	var parts []string
	for i, v := range a.rest {
		p := c.argPos[min(i, len(c.argPos)-1)]
		items := []value{v}
		if elts, ok := elements(v); ok {
			items = elts
		}
		for _, it := range items {
			pe, err := e.exprArg(x.fam, it, p, true)
			if err != nil {
				return nil, err
			}
			parts = append(parts, pe.sql)
		}
	}
	order := ""
	if ob := a.get("order_by"); ob != nil {
		items := []value{ob}
		if elts, ok := elements(ob); ok {
			items = elts
		}
		desc := a.boolean("descending")
		nullsLast := a.boolean("nulls_last")
		var terms []string
		for _, it := range items {
			oe, err := e.exprArg(x.fam, it, a.posOf("order_by"), true)
			if err != nil {
				return nil, err
			}
			terms = append(terms, orderTerm(oe.sql, desc, nullsLast))
		}
		order = strings.Join(terms, ", ")
	}
	if len(parts) == 0 && order == "" {
		return nil, laktoryErr(c.pos, "ValueError: At least one of `partition_by` or `order_by` must be specified.")
	}
	if !x.agg && !x.orderDep && !strings.Contains(x.sql, markOpen) {
		// An element-wise expression over a window is itself.
		if order == "" {
			return x, nil
		}
	}
	sql, err := e.resolve(x.sql, parts, order, false)
	if err == errOrderDependent {
		return nil, laktoryErr(c.at, "%s", orderDependentMsg)
	}
	if err != nil {
		return nil, err
	}
	out := x.derive(x.t, sql)
	out.scalar, out.agg, out.orderDep = false, false, false
	return out, nil
}

func orderTerm(sql string, desc, nullsLast bool) string {
	t := sql + " ASC"
	if desc {
		t = sql + " DESC"
	}
	if nullsLast {
		return t + " NULLS LAST"
	}
	return t + " NULLS FIRST"
}

// cumulative is cum_sum, cum_count, ... (ordered windows: over(order_by)).
func (e *plEngine) cumulative(x *plExpr, f string, pos int) (*plExpr, error) {
	t := x.t
	var sql string
	w := e.mark(&window{kind: "ordered", frame: "ROWS BETWEEN UNBOUNDED PRECEDING AND CURRENT ROW"})
	switch f {
	case "cum_sum":
		rt := t
		switch t.Kind {
		case DInt8, DInt16, DUInt8, DUInt16:
			rt = dInt64
		case DBool:
			rt = dUInt32
		}
		if !t.IsNumeric() && t.Kind != DBool {
			return nil, laktoryErr(pos, "InvalidOperationError: `cum_sum` operation not supported for dtype `%s`", shortDtype(t))
		}
		sql = fmt.Sprintf("CASE WHEN %s IS NULL THEN NULL ELSE CAST(sum(%s)%s AS %s) END", x.sql, castSQL(x.sql, t, rt), w, rt.Duck())
		t = rt
	case "cum_count":
		t = dUInt32
		sql = fmt.Sprintf("CAST(count(%s)%s AS UINTEGER)", x.sql, w)
	case "cum_max", "cum_min":
		sql = fmt.Sprintf("CASE WHEN %s IS NULL THEN NULL ELSE %s(%s)%s END", x.sql, strings.TrimPrefix(f, "cum_"), x.sql, w)
	case "cum_prod":
		return nil, unsupportedAt(pos, "", "cum_prod")
	}
	out := x.derive(t, sql)
	out.orderDep = true
	return out, nil
}

// shift is x.shift(n): lag(x, n), lead for negative n.
func (e *plEngine) shift(x *plExpr, n int64, pos int) (*plExpr, error) {
	w := e.mark(&window{kind: "ordered"})
	f := "lag"
	if n < 0 {
		f, n = "lead", -n
	}
	out := x.derive(x.t, fmt.Sprintf("%s(%s, %d)%s", f, x.sql, n, w))
	out.orderDep = true
	return out, nil
}

// rank is x.rank(method, descending): nulls get no rank.
func (e *plEngine) rank(x *plExpr, method string, desc bool, pos int) (*plExpr, error) {
	dir := "ASC"
	if desc {
		dir = "DESC"
	}
	// Nulls sort last, so they do not move the ranks of the values.
	order := x.sql + " " + dir + " NULLS LAST"
	var sql string
	var t *DType = dUInt32
	switch method {
	case "dense":
		sql = "dense_rank()" + e.mark(&window{kind: "rank", order: order})
	case "min":
		sql = "rank()" + e.mark(&window{kind: "rank", order: order})
	case "max":
		// count(*) OVER (ORDER BY x) counts through the last tie.
		sql = "count(*)" + e.mark(&window{kind: "rank", order: order})
	case "average":
		t = dFloat64
		sql = "((rank()" + e.mark(&window{kind: "rank", order: order}) + " + count(*)" + e.mark(&window{kind: "rank", order: order}) + ") / 2.0)"
	case "ordinal":
		return nil, unsupportedAt(pos, "use method=\"dense\", \"min\" or \"max\"", "rank(method=\"ordinal\") (ties are broken by row order)")
	default:
		return nil, laktoryErr(pos, "ValueError: `method` must be one of {'average', 'min', 'max', 'dense', 'ordinal', 'random'}, got %s", pyStr(method))
	}
	// Rank the non-null values only: nulls rank among themselves, then are null.
	out := x.derive(t, "CASE WHEN "+x.sql+" IS NULL THEN NULL ELSE CAST("+sql+" AS "+t.Duck()+") END")
	return out, nil
}

// horizontal is sum/max/min/mean/all/any_horizontal(*exprs).
func (e *plEngine) horizontal(c *call, f string) (value, error) {
	fam := famOf(c.fn.key)
	s := "*exprs"
	if f == "all" || f == "any" {
		s = "*exprs, ignore_nulls"
		if fam == "pl" {
			s = "*exprs"
		}
	}
	if fam == "pl" && (f == "sum" || f == "mean") {
		s = "*exprs, ignore_nulls=True"
	}
	a, err := c.bind(s)
	if err != nil {
		return nil, err
	}
	xs, err := e.exprArgs(fam, a.rest, c.argPos, true)
	if err != nil {
		return nil, err
	}
	if len(xs) == 0 {
		return nil, laktoryErr(c.pos, "ValueError: At least one expression must be passed to `%s_horizontal`", f)
	}
	t := xs[0].t
	for _, x := range xs[1:] {
		if t = supertype(t, e.typed(x, t)); t == nil {
			return nil, laktoryErr(c.at, "InvalidOperationError: %s_horizontal: the input types have no common supertype", f)
		}
	}
	parts := make([]string, len(xs))
	for i, x := range xs {
		parts[i] = castSQL(x.sql, x.t, t)
	}
	out := combine(&plExpr{fam: fam, name: xs[0].name, pos: c.at}, xs...)
	switch f {
	case "sum":
		// The supertype itself (Int8 stays Int8); booleans count as UInt32.
		rt := t
		if t.Kind == DBool {
			rt = dUInt32
		}
		if !rt.IsNumeric() {
			return nil, laktoryErr(c.at, "InvalidOperationError: `sum_horizontal` operation not supported for dtype `%s`", shortDtype(t))
		}
		terms := make([]string, len(parts))
		for i, p := range parts {
			terms[i] = "coalesce(" + castSQL(p, t, rt) + ", 0)"
		}
		out.t, out.sql = rt, "CAST(("+strings.Join(terms, " + ")+") AS "+rt.Duck()+")"
	case "max", "min":
		fn := map[string]string{"max": "greatest", "min": "least"}[f]
		out.t, out.sql = t, fn+"("+strings.Join(parts, ", ")+")"
	case "mean":
		var sum, n []string
		for _, p := range parts {
			sum = append(sum, "coalesce(CAST("+p+" AS DOUBLE), 0)")
			n = append(n, "CASE WHEN "+p+" IS NULL THEN 0 ELSE 1 END")
		}
		cnt := "(" + strings.Join(n, " + ") + ")"
		rt := dFloat64
		if t.Kind == DFloat32 {
			rt = dFloat32
		}
		out.t, out.sql = rt, "CAST(CASE WHEN "+cnt+" = 0 THEN NULL ELSE ("+strings.Join(sum, " + ")+") / "+cnt+" END AS "+rt.Duck()+")"
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
		out.t, out.sql = dBool, "("+strings.Join(ps, op)+")"
	}
	return out, nil
}
