package frame

import (
	"strings"
)

// whenChain is when(...).then(...)[.when(...).then(...)][.otherwise(...)]
// of narwhals or Polars: after a then() it is an expression too (null
// where no condition holds).
type whenChain struct {
	fam      string
	conds    []value
	vals     []value
	needThen bool
	pos      int
	eng      whenBuilder
}

// whenBuilder turns a chain into the engine's expression.
type whenBuilder interface {
	whenExpr(w *whenChain, otherwise value, hasOtherwise bool, pos int) (Expr, error)
}

func (w *whenChain) attr(name string, pos int) (value, error) {
	switch name {
	case "then", "when", "otherwise":
		if w.needThen && name != "then" {
			return nil, laktoryErr(pos, "AttributeError: 'When' object has no attribute '%s'", name)
		}
		if !w.needThen && name == "then" {
			return nil, laktoryErr(pos, "AttributeError: 'Then' object has no attribute 'then'")
		}
		return &callable{key: "when." + name, name: name, recv: w}, nil
	}
	if w.needThen {
		return nil, laktoryErr(pos, "AttributeError: 'When' object has no attribute '%s'", name)
	}
	x, err := w.eng.whenExpr(w, nil, false, w.pos)
	if err != nil {
		return nil, err
	}
	if ev, ok := w.eng.(interface{ evaluator() *evaluator }); ok {
		return ev.evaluator().eng.attr(x, name, pos)
	}
	return nil, unsupportedAt(pos, "", "%s on a when chain", name)
}

// whenCall runs then(), when() and otherwise() of a chain.
func whenCall(c *call, w *whenChain) (value, error) {
	name := strings.TrimPrefix(c.fn.key, "when.")
	switch name {
	case "when":
		a, err := c.bind("*predicates")
		if err != nil {
			return nil, err
		}
		if len(a.rest) == 0 {
			return nil, laktoryErr(c.pos, "TypeError: when() missing at least one predicate")
		}
		n := *w
		n.conds = append(append([]value{}, w.conds...), predicateAnd(a.rest))
		n.needThen = true
		return &n, nil
	case "then":
		a, err := c.bind("statement")
		if err != nil {
			return nil, err
		}
		n := *w
		n.vals = append(append([]value{}, w.vals...), a.get("statement"))
		n.needThen = false
		return &n, nil
	case "otherwise":
		a, err := c.bind("statement")
		if err != nil {
			return nil, err
		}
		return w.eng.whenExpr(w, a.get("statement"), true, w.pos)
	}
	return nil, unsupportedAt(c.at, "", "%s", name)
}

// predicateAnd is when(a, b): both must hold (kept as a list to combine
// with the engine's &).
type predicates struct{ xs []value }

func predicateAnd(xs []value) value {
	if len(xs) == 1 {
		return xs[0]
	}
	return &predicates{xs: xs}
}

// whenExpr builds CASE WHEN ... END with Polars' rules: the result's type
// is the supertype of the branches; strings are column names; the name is
// the first branch's.
func (e *plEngine) whenExpr(w *whenChain, otherwise value, has bool, pos int) (Expr, error) {
	var conds, vals []*plExpr
	for i, cv := range w.conds {
		cond, err := e.predicate(w.fam, cv, pos)
		if err != nil {
			return nil, err
		}
		if cond.t.Kind != DBool && cond.t.Kind != DNull {
			return nil, laktoryErr(pos, "InvalidOperationError: the predicate of when() must be a boolean, got %s", shortDtype(cond.t))
		}
		v, err := e.exprArg(w.fam, w.vals[i], pos, true)
		if err != nil {
			return nil, err
		}
		conds, vals = append(conds, cond), append(vals, v)
	}
	var other *plExpr
	if has {
		var err error
		if other, err = e.exprArg(w.fam, otherwise, pos, true); err != nil {
			return nil, err
		}
	}
	// The result type: the supertype of the branches (dynamic literals
	// adapt to the typed ones).
	all := append([]*plExpr{}, vals...)
	if other != nil {
		all = append(all, other)
	}
	var t *DType
	for _, v := range all {
		if v.lit && v.dyn != "" {
			continue
		}
		if t == nil {
			t = v.t
		} else if t = supertype(t, v.t); t == nil {
			return nil, laktoryErr(pos, "InvalidOperationError: the branches of when/then/otherwise have no common supertype")
		}
	}
	if t == nil {
		for _, v := range all {
			if t == nil || t.Kind == DNull {
				t = v.t
			} else if v.t.Kind != DNull {
				if st := supertype(t, v.t); st != nil {
					t = st
				}
			}
		}
	} else {
		for _, v := range all {
			if v.lit && v.dyn != "" {
				vt := e.typed(v, t)
				if st := supertype(t, vt); st != nil {
					t = st
				} else {
					return nil, laktoryErr(pos, "InvalidOperationError: the branches of when/then/otherwise have no common supertype (%s and %s)", shortDtype(t), shortDtype(vt))
				}
			}
		}
	}
	var b strings.Builder
	b.WriteString("CASE")
	for i := range conds {
		b.WriteString(" WHEN " + conds[i].sql + " THEN " + castSQL(vals[i].sql, e.typed(vals[i], t), t))
	}
	if other != nil {
		b.WriteString(" ELSE " + castSQL(other.sql, e.typed(other, t), t))
	}
	b.WriteString(" END")
	if t.Kind != DNull {
		// Literal branches were written untyped: cast them all.
		s := b.String()
		b.Reset()
		b.WriteString("CAST(" + s + " AS " + t.Duck() + ")")
	}
	out := combine(&plExpr{fam: w.fam, t: t, name: vals[0].name, pos: w.pos, sql: b.String()}, append(conds, all...)...)
	if vals[0].lit {
		out.name = "literal"
	}
	return out, nil
}

// predicate is a when() condition (several are and-ed).
func (e *plEngine) predicate(fam string, v value, pos int) (*plExpr, error) {
	if p, ok := v.(*predicates); ok {
		var out *plExpr
		for _, x := range p.xs {
			c, err := e.predicate(fam, x, pos)
			if err != nil {
				return nil, err
			}
			if out == nil {
				out = c
				continue
			}
			if out, err = e.logical("&", out, c, pos); err != nil {
				return nil, err
			}
		}
		return out, nil
	}
	return e.exprArg(fam, v, pos, true)
}

func (e *plEngine) evaluator() *evaluator { return e.ev }

// when is when(*predicates).
func (e *plEngine) when(c *call, _ *plExpr) (value, error) {
	a, err := c.bind("*predicates")
	if err != nil {
		return nil, err
	}
	if len(a.rest) == 0 {
		return nil, laktoryErr(c.pos, "TypeError: when() missing at least one predicate")
	}
	return &whenChain{fam: famOf(c.fn.key), conds: []value{predicateAnd(a.rest)}, needThen: true, pos: c.at, eng: e}, nil
}
