package polarssql

import (
	"fmt"
	"math"
	"math/big"
	"strconv"
	"strings"

	"github.com/laktory/workbench/runner/sqlfront"
)

// Polars 1.32.0's decimals, as measured (scripts/polars/corpus.py's
// corpus, decimals families):
//
//   - Two decimals meet in their supertype: the larger precision (an
//     unbounded one yields to a bounded one) and the larger scale S; the
//     values are cast to it, failing when one does not fit.
//   - An integer column meets a Decimal(p,s) as Decimal(p,s) (NULL where
//     a value does not fit); a literal number takes the decimal's dtype:
//     an integer NULL when it does not fit, a float truncated toward zero
//     from its binary value (1.005 is 1.004 at scale 3).
//   - + and - give Decimal(None,S), * Decimal(None,2S) and / Decimal(None,
//     S+4) floored (NULL when dividing by zero); a decimal with a Float64
//     computes in Float64; % is polars' InvalidOperationError.
//   - SUM, MIN and MAX keep the dtype, AVG is Float64; ROUND keeps the
//     dtype and rounds half to even; a cast to Decimal(p,s) truncates
//     toward zero and fails when the value does not fit.

func (t *Type) isDecimal() bool { return t.Kind == Decimal }

func decType(p, s int) *Type { return &Type{Kind: Decimal, P: p, S: s} }

// decSuper is the supertype of two decimals.
func decSuper(a, b *Type) *Type {
	p := max(a.P, b.P)
	if a.P == 0 || b.P == 0 {
		// An unbounded precision yields to the bounded one.
		p = a.P + b.P
	}
	return decType(p, max(a.S, b.S))
}

// decOperand is x as a decimal of dtype t (x meeting a decimal): its SQL,
// or ok false where x is not a number polars meets a decimal with. strict
// casts a decimal that does not fit fail (arithmetic); otherwise they give
// NULL (comparisons).
func decOperand(x *rx, t *Type, strict bool) (string, bool) {
	holder := t.DuckDB()
	switch {
	case x.t.Kind == Null:
		return "CAST(NULL AS " + holder + ")", true
	case x.t.isDecimal():
		if x.t.Equal(t) {
			return x.sql, true
		}
		if strict {
			return "CAST(" + x.sql + " AS " + holder + ")", true
		}
		return "TRY_CAST(" + x.sql + " AS " + holder + ")", true
	case x.dyn && x.t.isInt():
		v := new(big.Int).Mul(big.NewInt(x.ival), new(big.Int).Exp(big.NewInt(10), big.NewInt(int64(t.S)), nil))
		return decLiteral(v, t), true
	case x.dyn && x.t.isFloat():
		h := math.Trunc(x.fval * math.Pow10(t.S))
		if math.IsInf(h, 0) || math.IsNaN(h) || math.Abs(h) >= 1e38 {
			return "CAST(NULL AS " + holder + ")", true
		}
		v, _ := new(big.Float).SetFloat64(h).Int(nil)
		return decLiteral(v, t), true
	case x.t.isInt():
		// polars casts the column non-strictly: NULL where it does not fit.
		return "TRY_CAST(" + x.sql + " AS " + holder + ")", true
	}
	return "", false
}

// decLiteral is the decimal of unscaled value v and dtype t, NULL when v
// has more digits than t's precision.
func decLiteral(v *big.Int, t *Type) string {
	digits := len(new(big.Int).Abs(v).String())
	if digits > t.precision() {
		return "CAST(NULL AS " + t.DuckDB() + ")"
	}
	return "CAST('" + decimalText(v, t.S) + "' AS " + t.DuckDB() + ")"
}

// decimalText is the unscaled value v at scale s as a decimal number.
func decimalText(v *big.Int, s int) string {
	neg := v.Sign() < 0
	d := new(big.Int).Abs(v).String()
	for len(d) <= s {
		d = "0" + d
	}
	if s > 0 {
		d = d[:len(d)-s] + "." + d[len(d)-s:]
	}
	if neg {
		d = "-" + d
	}
	return d
}

// pow10 is 10^k as a HUGEINT literal.
func pow10(k int) string {
	return "CAST('1" + strings.Repeat("0", k) + "' AS HUGEINT)"
}

// unscaled is the HUGEINT of a decimal x (SQL of dtype Decimal(_,s))
// times 10^s.
func unscaled(x string, s int) string {
	return "CAST(CAST(" + x + " AS DECIMAL(38," + strconv.Itoa(s) + ")) * " + pow10(s) + " AS HUGEINT)"
}

// scaled is the decimal of dtype t from a HUGEINT h of unscaled value at
// t's scale.
func scaled(h string, t *Type) string {
	if t.S == 0 {
		return "CAST(" + h + " AS " + t.DuckDB() + ")"
	}
	unit := "0." + strings.Repeat("0", t.S-1) + "1"
	return "CAST(CAST(" + h + " AS DECIMAL(38,0)) * CAST('" + unit + "' AS DECIMAL(" + strconv.Itoa(t.S+1) + "," + strconv.Itoa(t.S) + ")) AS " + t.DuckDB() + ")"
}

// decimalBinary is an arithmetic operator or a comparison where one side
// is a decimal; handled false when neither is.
func decimalBinary(n *sqlfront.Binary, l, r *rx, out func(*Type, string) *rx) (_ *rx, handled bool, _ error) {
	if !l.t.isDecimal() && !r.t.isDecimal() {
		return nil, false, nil
	}
	comparison := map[string]bool{"=": true, "<>": true, "<": true, "<=": true, ">": true, ">=": true}[n.Op]
	if (l.t.Kind == Float64 && !l.dyn) || (r.t.Kind == Float64 && !r.dyn) {
		// A decimal with a Float64 column computes in Float64.
		a, b := castTo(l, tFloat64), castTo(r, tFloat64)
		if comparison {
			return out(tBool, "("+a+" "+n.Op+" "+b+")"), true, nil
		}
		if n.Op == "/" {
			return out(tFloat64, "CAST(polars_div("+a+", "+b+") AS DOUBLE)"), true, nil
		}
		if n.Op == "%" {
			return nil, true, unsupported(n.P, "", "%% on Float64 in Polars SQL")
		}
		return out(tFloat64, "("+a+" "+n.Op+" "+b+")"), true, nil
	}
	var t *Type
	switch {
	case l.t.isDecimal() && r.t.isDecimal():
		t = decSuper(l.t, r.t)
	case l.t.isDecimal():
		t = l.t
	default:
		t = r.t
	}
	a, okA := decOperand(l, t, !comparison)
	b, okB := decOperand(r, t, !comparison)
	if !okA || !okB {
		return nil, true, unsupported(n.P, "cast one side", "%s on %s and %s in Polars SQL", n.Op, l.t, r.t)
	}
	if comparison {
		return out(tBool, "("+a+" "+n.Op+" "+b+")"), true, nil
	}
	s := t.S
	switch n.Op {
	case "+", "-":
		res := decType(0, s)
		return out(res, "CAST(CAST("+a+" AS DECIMAL(38,"+strconv.Itoa(s)+")) "+n.Op+" CAST("+b+" AS DECIMAL(38,"+strconv.Itoa(s)+")) AS "+res.DuckDB()+")"), true, nil
	case "*":
		if t.P > 0 && 2*s > t.P {
			return nil, true, unsupported(n.P, "cast the operands to a wider decimal", "* of %s and %s (scale %d above the precision %d) in Polars SQL", l.t, r.t, 2*s, t.P)
		}
		res := decType(0, 2*s)
		return out(res, "CAST(CAST("+a+" AS DECIMAL(38,"+strconv.Itoa(s)+")) * CAST("+b+" AS DECIMAL(38,"+strconv.Itoa(s)+")) AS "+res.DuckDB()+")"), true, nil
	case "/":
		rs := s + 4
		if t.P > 0 && rs > t.P {
			return nil, true, unsupported(n.P, "cast the operands to a wider decimal", "/ of %s and %s (scale %d above the precision %d) in Polars SQL", l.t, r.t, rs, t.P)
		}
		res := decType(0, rs)
		q := "polars_floor_div(" + unscaled(a, s) + " * " + pow10(rs) + ", " + unscaled(b, s) + ")"
		return out(res, scaled(q, res)), true, nil
	case "%":
		return nil, true, rejected(n.P, "InvalidOperationError", "`remainder` operation not supported for dtype `decimal[%d,%d]`", t.precision(), t.S)
	}
	return nil, true, unsupported(n.P, "", "%s on %s and %s in Polars SQL", n.Op, l.t, r.t)
}

// decRound is ROUND(x, digits) of a decimal: half to even, the dtype kept.
func decRound(x *rx, digits int) string {
	s := x.t.S
	if digits >= s {
		return x.sql
	}
	unit := pow10(s - digits)
	h := unscaled(x.sql, s)
	q := "polars_floor_div(" + h + ", " + unit + ")"
	rem := "(" + h + " - " + q + " * " + unit + ")"
	up := "CASE WHEN 2 * " + rem + " > " + unit + " OR (2 * " + rem + " = " + unit + " AND " + q + " % 2 <> 0) THEN 1 ELSE 0 END"
	return fitDecimal(scaled("("+q+" + "+up+") * "+unit, decType(0, s)), x.t, "ROUND")
}

// fitDecimal is a decimal value v (of scale t.S) as dtype t, where polars
// keeps the dtype of an operation whose result can outgrow its precision
// (ROUND, FLOOR, CEIL of 99.9 in Decimal(3,1)): polars 1.32.0 writes such
// a value beyond the column's precision, which a Delta table cannot hold
// here: the query fails naming it.
func fitDecimal(v string, t *Type, what string) string {
	if t.P == 0 {
		return "CAST(" + v + " AS " + t.DuckDB() + ")"
	}
	limit := "CAST('1" + strings.Repeat("0", t.P-t.S) + "' AS DECIMAL(38," + strconv.Itoa(t.S) + "))"
	return "CASE WHEN abs(" + v + ") >= " + limit + " THEN error('[ComputeError] " + what + " gives ' || CAST(" + v + " AS VARCHAR) || ', beyond the precision of " + t.String() + ", which polars 1.32.0 writes to the Delta table regardless: not supported locally') ELSE CAST(" + v + " AS " + t.DuckDB() + ") END"
}

// decCast is a cast of x to Decimal(p,s): truncated toward zero, failing
// when a value does not fit.
func decCast(pos int, x *rx, t *Type) (string, error) {
	switch {
	case x.t.isDecimal():
		if x.t.S <= t.S {
			return "CAST(" + x.sql + " AS " + t.DuckDB() + ")", nil
		}
		// Truncated toward zero (DuckDB's cast rounds).
		h := unscaled(x.sql, x.t.S)
		unit := pow10(x.t.S - t.S)
		q := "CASE WHEN " + h + " < 0 THEN -((-" + h + ") // " + unit + ") ELSE " + h + " // " + unit + " END"
		return scaled(q, t), nil
	case x.t.isInt():
		return "CAST(" + x.sql + " AS " + t.DuckDB() + ")", nil
	case x.t.isFloat():
		if x.dyn {
			sql, _ := decOperand(x, t, true)
			if strings.HasPrefix(sql, "CAST(NULL") {
				return "", rejected(pos, "ComputeError", "decimal precision %d can't fit the value", t.precision())
			}
			return sql, nil
		}
		// The float times 10^s, truncated (polars' conversion), which must
		// fit the precision.
		return scaled("CAST(trunc(CAST("+x.sql+" AS DOUBLE) * "+strconv.FormatFloat(math.Pow10(t.S), 'f', -1, 64)+") AS HUGEINT)", t), nil
	case x.t.Kind == String:
		// polars parses [+-]digits[.digits], the extra digits dropped.
		re := `^[+-]?([0-9]+\.?[0-9]*|\.[0-9]+)$`
		keep := `^[+-]?[0-9]*(\.[0-9]{0,` + strconv.Itoa(t.S) + `})?`
		return "CASE WHEN " + x.sql + " IS NULL THEN NULL WHEN NOT regexp_matches(" + x.sql + ", '" + re + "') THEN error('[InvalidOperationError] conversion from `str` to `decimal[" + fmt.Sprint(t.precision(), ",", t.S) + "]` failed for the value ' || " + x.sql + ") ELSE CAST(regexp_extract(" + x.sql + ", '" + keep + "') AS " + t.DuckDB() + ") END", nil
	case x.t.Kind == Null:
		return "CAST(NULL AS " + t.DuckDB() + ")", nil
	}
	return "", unsupported(pos, "", "a cast from %s to %s in Polars SQL", x.t, t)
}
