package polarssql

import (
	"math"
	"math/big"
	"regexp"
	"strconv"
	"strings"

	"github.com/laktory/workbench/runner/sqlfront"
)

// rx is a resolved expression: its dtype, its DuckDB SQL and the name
// polars gives it as an unaliased column (the output name of its
// leftmost input: a column's name, "literal" for a constant, "len" for
// COUNT(*)).
type rx struct {
	t        *Type
	sql      string
	name     string
	col      *column // a plain column reference
	agg      bool    // an aggregate
	constant bool    // no column
	// dyn marks a literal number whose dtype follows the other operand's
	// (polars' dynamic int and float literals).
	dyn bool
	// ival is a dynamic integer literal's value, fval a dynamic float
	// literal's.
	ival int64
	fval float64
	// iv is an INTERVAL literal's value.
	iv *interval
}

var (
	tBool    = &Type{Kind: Boolean}
	tInt32   = &Type{Kind: Int32}
	tInt64   = &Type{Kind: Int64}
	tUInt32  = &Type{Kind: UInt32}
	tFloat32 = &Type{Kind: Float32}
	tFloat64 = &Type{Kind: Float64}
	tString  = &Type{Kind: String}
	tNull    = &Type{Kind: Null}
)

func (t *Type) isInt() bool      { return t.Kind >= Int8 && t.Kind <= UInt64 }
func (t *Type) isUnsigned() bool { return t.Kind >= UInt8 && t.Kind <= UInt64 }
func (t *Type) isFloat() bool    { return t.Kind == Float32 || t.Kind == Float64 }
func (t *Type) isNumeric() bool  { return t.isInt() || t.isFloat() }

// intBits is an integer dtype's width.
func (t *Type) intBits() int {
	switch t.Kind {
	case Int8, UInt8:
		return 8
	case Int16, UInt16:
		return 16
	case Int32, UInt32:
		return 32
	}
	return 64
}

func signedOf(bits int) *Type {
	return &Type{Kind: map[int]Kind{8: Int8, 16: Int16, 32: Int32, 64: Int64}[bits]}
}

// supertype is the dtype polars computes two numeric operands in: UInt64
// with a signed integer is Float64 in polars 1.32.0 (a value beyond 2^53
// rounded, in comparisons too).
func supertype(a, b *rx) *Type {
	switch {
	case a.dyn && b.dyn:
		if a.t.isFloat() || b.t.isFloat() {
			return tFloat64
		}
		if a.t.Kind == Int64 || b.t.Kind == Int64 {
			return tInt64
		}
		return tInt32
	case a.dyn:
		return litSuper(a, b.t)
	case b.dyn:
		return litSuper(b, a.t)
	}
	x, y := a.t, b.t
	switch {
	case x.Kind == y.Kind:
		return x
	case x.isFloat() || y.isFloat():
		if x.Kind == Float64 || y.Kind == Float64 {
			return tFloat64
		}
		// Float32 with an integer: Float32 holds 8- and 16-bit ones.
		other := x
		if other.isFloat() {
			other = y
		}
		if other.intBits() <= 16 {
			return tFloat32
		}
		return tFloat64
	case x.isUnsigned() == y.isUnsigned():
		if x.intBits() >= y.intBits() {
			return x
		}
		return y
	}
	u, s := x, y
	if !u.isUnsigned() {
		u, s = y, x
	}
	if u.intBits() == 64 {
		return tFloat64
	}
	return signedOf(max(s.intBits(), 2*u.intBits()))
}

// litSuper is the dtype of a dynamic literal with an operand of dtype t,
// as polars' get_supertype makes it: t, when the literal's value fits it;
// else the supertype of t and the smallest integer dtype that holds the
// value (unsigned for an unsigned t and a value from 0, signed otherwise;
// Int64 for UInt64 with a negative value): Int8 + 1000 is Int16, UInt32 +
// -1 is Int64, UInt32 + 5000000000 is UInt64. A Boolean meets an integer
// literal as Int32 (Int64 past its range), the literal's own dtype.
func litSuper(lit *rx, t *Type) *Type {
	if lit.t.isFloat() && t.isInt() {
		return tFloat64
	}
	if lit.t.isInt() && t.Kind == Boolean {
		if fits(lit.ival, tInt32) {
			return tInt32
		}
		return tInt64
	}
	if lit.t.isInt() && t.isInt() && !fits(lit.ival, t) {
		var small *Type
		for _, k := range []Kind{Int8, Int16, Int32, Int64} {
			if small = (&Type{Kind: k}); fits(lit.ival, small) {
				break
			}
		}
		if t.isUnsigned() && lit.ival >= 0 {
			for _, k := range []Kind{UInt8, UInt16, UInt32, UInt64} {
				if small = (&Type{Kind: k}); fits(lit.ival, small) {
					break
				}
			}
		}
		if t.Kind == UInt64 && !small.isUnsigned() {
			return tInt64
		}
		return supertype(&rx{t: t}, &rx{t: small})
	}
	return t
}

// fits reports whether v is a value of integer dtype t.
func fits(v int64, t *Type) bool {
	bits := t.intBits()
	if t.isUnsigned() {
		return v >= 0 && (bits == 64 || v < int64(1)<<bits)
	}
	if bits == 64 {
		return true
	}
	return v >= -(int64(1)<<(bits-1)) && v < int64(1)<<(bits-1)
}

func (r *resolver) expr(e sqlfront.Expr, sc *scope, grouped bool) (*rx, error) {
	switch n := e.(type) {
	case *sqlfront.Literal:
		if m, _, exp := strings.Cut(strings.ToLower(n.Value), "e"); exp && !strings.Contains(m, ".") && (n.Kind == sqlfront.LitDecimal || n.Kind == sqlfront.LitDouble) {
			// Polars SQL reads a number with an exponent only after a
			// decimal point (1.5e3, .5e2; not 1e3, which Laktory's parser
			// reads).
			return nil, rejected(n.P, "SQLInterfaceError", "cannot parse literal: %q", n.Value)
		}
		return literal(n)
	case *sqlfront.ColumnRef:
		c, err := sc.lookup(n)
		if err != nil {
			return nil, err
		}
		return &rx{t: c.t, sql: c.sql, name: c.name, col: c}, nil
	case *sqlfront.Binary:
		l, err := r.expr(n.L, sc, grouped)
		if err != nil {
			return nil, err
		}
		rr, err := r.expr(n.R, sc, grouped)
		if err != nil {
			return nil, err
		}
		return binary(n, l, rr)
	case *sqlfront.Unary:
		x, err := r.expr(n.X, sc, grouped)
		if err != nil {
			return nil, err
		}
		switch {
		case n.Op == "NOT" && (x.t.Kind == Boolean || x.t.Kind == Null):
			return derive(x, tBool, "(NOT "+x.sql+")"), nil
		case n.Op == "-" && x.t.isNumeric() && !x.t.isUnsigned():
			out := derive(x, x.t, "(-"+x.sql+")")
			out.dyn, out.ival, out.fval = x.dyn, -x.ival, -x.fval
			return out, nil
		case n.Op == "-" && x.t.isDecimal():
			// polars' negation of a decimal is unbounded.
			t := decType(0, x.t.S)
			return derive(x, t, "CAST(-"+x.sql+" AS "+t.DuckDB()+")"), nil
		}
		return nil, unsupported(n.P, "", "the operator %s on %s in Polars SQL", n.Op, x.t)
	case *sqlfront.IsNull:
		x, err := r.expr(n.X, sc, grouped)
		if err != nil {
			return nil, err
		}
		op := " IS NULL)"
		if n.Not {
			op = " IS NOT NULL)"
		}
		return derive(x, tBool, "("+x.sql+op), nil
	case *sqlfront.Cast:
		x, err := r.expr(n.X, sc, grouped)
		if err != nil {
			return nil, err
		}
		return cast(n, x)
	case *sqlfront.Call:
		return r.call(n, sc, grouped)
	case *sqlfront.InList:
		return r.inList(n, sc, grouped)
	case *sqlfront.Like:
		return r.like(n, sc, grouped)
	case *sqlfront.Case:
		return r.caseExpr(n, sc, grouped)
	case *sqlfront.Between:
		return r.between(n, sc, grouped)
	case *sqlfront.Interval:
		return intervalLiteral(n)
	}
	return nil, unsupported(e.Pos(), "", "%s in Polars SQL", describe(e))
}

// between is x [NOT] BETWEEN lo AND hi as polars' is_between computes it:
// x >= lo AND x <= hi, each comparison with its own supertype, NULLs as
// in AND (5 BETWEEN NULL AND 3 is false); named after x.
func (r *resolver) between(n *sqlfront.Between, sc *scope, grouped bool) (*rx, error) {
	x, err := r.expr(n.X, sc, grouped)
	if err != nil {
		return nil, err
	}
	var sides [2]*rx
	for i, b := range []struct {
		op string
		e  sqlfront.Expr
	}{{">=", n.Lo}, {"<=", n.Hi}} {
		y, err := r.expr(b.e, sc, grouped)
		if err != nil {
			return nil, err
		}
		if sides[i], err = binary(&sqlfront.Binary{Op: b.op, L: n.X, R: b.e, P: n.P}, x, y); err != nil {
			return nil, err
		}
	}
	sql := "(" + sides[0].sql + " AND " + sides[1].sql + ")"
	if n.Not {
		sql = "(NOT " + sql + ")"
	}
	out := derive(x, tBool, sql)
	out.agg = sides[0].agg || sides[1].agg
	out.constant = sides[0].constant && sides[1].constant
	return out, nil
}

func describe(e sqlfront.Expr) string {
	switch e.(type) {
	case *sqlfront.Case:
		return "CASE"
	case *sqlfront.InList, *sqlfront.InQuery:
		return "IN"
	case *sqlfront.Like:
		return "LIKE"
	case *sqlfront.Between:
		return "BETWEEN"
	case *sqlfront.Interval:
		return "an interval"
	case *sqlfront.Subquery, *sqlfront.Exists:
		return "a subquery"
	}
	return "the expression `" + sqlfront.FormatExpr(e) + "`"
}

// derive is an expression over x keeping its name (polars names an
// expression after its leftmost input).
func derive(x *rx, t *Type, sql string) *rx {
	return &rx{t: t, sql: sql, name: x.name, agg: x.agg, constant: x.constant}
}

func literal(n *sqlfront.Literal) (*rx, error) {
	lit := func(t *Type, sql string) *rx { return &rx{t: t, sql: sql, name: "literal", constant: true} }
	switch n.Kind {
	case sqlfront.LitNull:
		return lit(tNull, "NULL"), nil
	case sqlfront.LitBool:
		return lit(tBool, strings.ToUpper(n.Value)), nil
	case sqlfront.LitString:
		return lit(tString, "'"+strings.ReplaceAll(n.Value, "'", "''")+"'"), nil
	case sqlfront.LitInt:
		v, err := strconv.ParseInt(n.Value, 10, 64)
		if err != nil {
			return nil, unsupported(n.P, "", "the integer literal %s", n.Value)
		}
		x := lit(tInt64, "CAST("+n.Value+" AS BIGINT)")
		if v >= math.MinInt32 && v <= math.MaxInt32 {
			x = lit(tInt32, "CAST("+n.Value+" AS INTEGER)")
		}
		x.dyn, x.ival = true, v
		return x, nil
	case sqlfront.LitDate:
		if !dateLit.MatchString(n.Value) {
			return nil, unsupported(n.P, "write the date as YYYY-MM-DD", "the date literal '%s'", n.Value)
		}
		return lit(&Type{Kind: Date}, "DATE '"+n.Value+"'"), nil
	case sqlfront.LitTimestamp:
		if !datetimeText.MatchString(n.Value) {
			return nil, unsupported(n.P, "write the timestamp as YYYY-MM-DD HH:MM:SS", "the timestamp literal '%s'", n.Value)
		}
		return lit(&Type{Kind: Datetime, Unit: "us"}, "TIMESTAMP '"+strings.Replace(n.Value, "T", " ", 1)+"'"), nil
	case sqlfront.LitDecimal, sqlfront.LitDouble:
		f, err := strconv.ParseFloat(n.Value, 64)
		if err != nil || math.IsInf(f, 0) {
			return nil, unsupported(n.P, "", "the number %s", n.Value)
		}
		x := lit(tFloat64, "CAST('"+strconv.FormatFloat(f, 'g', -1, 64)+"' AS DOUBLE)")
		x.dyn, x.fval = true, f
		return x, nil
	}
	return nil, unsupported(n.P, "", "this literal in Polars SQL")
}

var dateLit = regexp.MustCompile(`^\d{4}-\d{2}-\d{2}$`)

// wrapInt is a HUGEINT expression wrapped around into integer dtype t
// (two's complement, as Rust's wrapping arithmetic).
func wrapInt(sql string, t *Type) string {
	bits := t.intBits()
	mod := new(big.Int).Lsh(big.NewInt(1), uint(bits)).String()
	if t.isUnsigned() {
		return "CAST(((" + sql + " % " + mod + ") + " + mod + ") % " + mod + " AS " + t.DuckDB() + ")"
	}
	half := new(big.Int).Lsh(big.NewInt(1), uint(bits-1)).String()
	return "CAST(((((" + sql + " + " + half + ") % " + mod + ") + " + mod + ") % " + mod + ") - " + half + " AS " + t.DuckDB() + ")"
}

// floatDiv is a / b in float dtype t, IEEE's (x/0 is inf, -inf or NaN).
// Polars divides a column by a scalar as a product with the scalar's
// reciprocal (2.5 / 3 is 2.5 * (1 / 3), 0.8333333333333333), which
// rounds otherwise than a division.
func floatDiv(a, b string, t *Type, byScalar bool) string {
	if byScalar {
		return "CAST(" + a + " * CAST(polars_div(CAST(1 AS " + t.DuckDB() + "), " + b + ") AS " + t.DuckDB() + ") AS " + t.DuckDB() + ")"
	}
	return "CAST(polars_div(" + a + ", " + b + ") AS " + t.DuckDB() + ")"
}

func castTo(x *rx, t *Type) string {
	if x.t.Equal(t) {
		return x.sql
	}
	if x.t.Kind == UInt64 && t.Kind == Int64 {
		// UInt64 meets a negative literal as Int64, cast as polars casts
		// to a supertype: a value beyond Int64 is NULL.
		return "TRY_CAST(" + x.sql + " AS BIGINT)"
	}
	if t.isDecimal() {
		if sql, ok := decOperand(x, t, true); ok {
			return sql
		}
	}
	return "CAST(" + x.sql + " AS " + t.DuckDB() + ")"
}

// Equal reports whether two dtypes are the same.
func (t *Type) Equal(u *Type) bool { return t.String() == u.String() }

func binary(n *sqlfront.Binary, l, rr *rx) (*rx, error) {
	out := func(t *Type, sql string) *rx {
		return &rx{t: t, sql: sql, name: l.name, agg: l.agg || rr.agg, constant: l.constant && rr.constant}
	}
	switch n.Op {
	case "AND", "OR":
		for _, x := range []*rx{l, rr} {
			if x.t.Kind != Boolean && x.t.Kind != Null {
				return nil, unsupported(n.P, "", "%s on %s in Polars SQL", n.Op, x.t)
			}
		}
		return out(tBool, "("+l.sql+" "+n.Op+" "+rr.sql+")"), nil
	case "=", "==", "<>", "!=", "<", "<=", ">", ">=":
		op := map[string]string{"==": "=", "!=": "<>"}[n.Op]
		if op == "" {
			op = n.Op
		}
		if tl := temporalSide(l, rr); tl != nil {
			l, rr = tl[0], tl[1]
		} else if l.constant && l.t.Kind == String && (rr.t.Kind == Date || rr.t.Kind == Datetime) {
			// polars casts a string compared with a temporal column only on
			// the right-hand side.
			return nil, rejected(n.P, "InvalidOperationError", "%s", `cannot compare 'date/datetime/time' to a string value (create native python { 'date', 'datetime', 'time' } or compare to a temporal column)`)
		}
		if x, ok, err := decimalBinary(&sqlfront.Binary{Op: op, L: n.L, R: n.R, P: n.P}, l, rr, out); ok {
			return x, err
		}
		if x, ok, err := durationCompare(n.P, op, l, rr, out); ok {
			return x, err
		}
		switch {
		case l.t.isNumeric() && rr.t.isNumeric():
			t := supertype(l, rr)
			if t == nil {
				break
			}
			return out(tBool, "("+castTo(l, t)+" "+op+" "+castTo(rr, t)+")"), nil
		case l.t.Equal(rr.t) && (l.t.Kind == String || l.t.Kind == Boolean || l.t.Kind == Date || (l.t.Kind == Datetime && l.t.Zone == "")):
			return out(tBool, "("+l.sql+" "+op+" "+rr.sql+")"), nil
		}
		return nil, unsupported(n.P, "cast one side to the other's type", "comparing %s with %s in Polars SQL", l.t, rr.t)
	case "||":
		if l.t.Kind != String || rr.t.Kind != String {
			return nil, unsupported(n.P, "", "|| on %s and %s in Polars SQL", l.t, rr.t)
		}
		return out(tString, "("+l.sql+" || "+rr.sql+")"), nil
	case "+", "-", "*", "/", "%":
		if (l.t.Kind == String && rr.t.isNumeric()) || (rr.t.Kind == String && l.t.isNumeric()) {
			return nil, rejected(n.P, "InvalidOperationError", "arithmetic on string and numeric not allowed, try an explicit cast first")
		}
		if x, ok, err := decimalBinary(n, l, rr, out); ok {
			return x, err
		}
		if x, ok, err := temporalArith(n, l, rr, out); ok {
			return x, err
		}
		if !l.t.isNumeric() || !rr.t.isNumeric() {
			return nil, unsupported(n.P, "", "%s on %s and %s in Polars SQL", n.Op, l.t, rr.t)
		}
		t := supertype(l, rr)
		if t == nil {
			return nil, unsupported(n.P, "cast an operand", "%s on %s and %s in Polars SQL", n.Op, l.t, rr.t)
		}
		a, b := castTo(l, t), castTo(rr, t)
		var sql string
		switch {
		case n.Op == "/" && t.isInt():
			// Integer division floors; by zero it is NULL.
			sql = "CAST(polars_floor_div(" + a + ", " + b + ") AS " + t.DuckDB() + ")"
		case n.Op == "%" && t.isInt():
			sql = "CAST(polars_floor_mod(" + a + ", " + b + ") AS " + t.DuckDB() + ")"
		case n.Op == "%" && t.isFloat():
			// polars' float remainder: a - b * floor(a / b) in the float
			// dtype (the sign of b, -0.0 % 2 is 0.0, by 0 or of inf NaN);
			// by a scalar, a / b is a times b's reciprocal, as polars
			// divides by a scalar (checked on 20,000 random values).
			ft := t.DuckDB()
			q := floatDiv(a, b, t, rr.constant && !l.constant)
			sql = "(CASE WHEN isnan(" + a + ") OR isnan(" + b + ") THEN CAST('nan' AS " + ft + ") ELSE CAST(" + a + " - CAST(" + b + " * CAST(floor(" + q + ") AS " + ft + ") AS " + ft + ") AS " + ft + ") END)"
		case n.Op == "/":
			sql = floatDiv(a, b, t, rr.constant && !l.constant)
		case t.isInt():
			// polars' integer arithmetic wraps around on overflow.
			sql = wrapInt("(CAST("+a+" AS HUGEINT) "+n.Op+" CAST("+b+" AS HUGEINT))", t)
		default:
			sql = "(" + a + " " + n.Op + " " + b + ")"
		}
		res := out(t, sql)
		res.dyn = l.dyn && rr.dyn
		return res, nil
	}
	return nil, unsupported(n.P, "", "the operator %s in Polars SQL", n.Op)
}

func (r *resolver) call(n *sqlfront.Call, sc *scope, grouped bool) (*rx, error) {
	name := strings.ToLower(n.Name.Name)
	if n.Syntax == "EXTRACT" {
		x, err := r.expr(n.Args[1], sc, grouped)
		if err != nil {
			return nil, err
		}
		return extract(n, n.Args[0].(*sqlfront.ColumnRef).Parts[0].Name, x)
	}
	if _, ok := isUnnest(n); ok {
		return r.unnestCall(n, sc, grouped)
	}
	if n.Syntax == "BRACKETS" {
		return nil, unsupported(n.P, "", "a literal array outside UNNEST in Polars SQL")
	}
	if n.Syntax != "" && !strings.HasPrefix(n.Syntax, "TRIM_") {
		return nil, unsupported(n.P, "", "%s in Polars SQL", strings.ReplaceAll(n.Syntax, "_", " "))
	}
	if polarsLacks[name] {
		return nil, rejected(n.P, "SQLInterfaceError", "unsupported function '%s'", name)
	}
	if n.Filter != nil || n.Nulls != "" || len(n.Within) > 0 {
		return nil, unsupported(n.P, "", "%s with FILTER, IGNORE NULLS or WITHIN GROUP in Polars SQL", name)
	}
	if n.Over != nil {
		return r.window(n, name, sc, grouped)
	}
	if n.StarArg {
		if name != "count" || n.Distinct {
			return nil, unsupported(n.P, "", "%s(*) in Polars SQL", name)
		}
		return &rx{t: tUInt32, sql: "CAST(count(*) AS UINTEGER)", name: "len", agg: true}, nil
	}
	if name == "if" && len(n.Args) == 3 && !n.Distinct {
		// polars' IF is when(cond).then(a).otherwise(b): CASE's rules.
		return r.expr(&sqlfront.Case{Whens: []*sqlfront.When{{Cond: n.Args[0], Result: n.Args[1]}}, Else: n.Args[2], P: n.P}, sc, grouped)
	}
	if name == "mod" && len(n.Args) == 2 && !n.Distinct {
		// MOD(a, b) is a % b.
		return r.expr(&sqlfront.Binary{Op: "%", L: n.Args[0], R: n.Args[1], P: n.P}, sc, grouped)
	}
	if n.Distinct && name == "count" && len(n.Args) == 1 {
		// n_unique of the non-null values, UInt32.
		x, err := r.expr(n.Args[0], sc, grouped)
		if err != nil {
			return nil, err
		}
		if x.agg {
			return nil, unsupported(n.P, "", "an aggregate inside an aggregate")
		}
		return &rx{t: tUInt32, sql: "CAST(count(DISTINCT " + x.sql + ") AS UINTEGER)", name: x.name, agg: true}, nil
	}
	if n.Distinct {
		return nil, unsupported(n.P, "", "%s(DISTINCT ...) in Polars SQL", name)
	}
	var args []*rx
	for _, a := range n.Args {
		x, err := r.expr(a, sc, grouped)
		if err != nil {
			return nil, err
		}
		if x.agg && aggFuncs[name] {
			return nil, unsupported(a.Pos(), "", "an aggregate inside an aggregate")
		}
		args = append(args, x)
	}
	arity := func(k int) error {
		if len(args) != k {
			return rejected(n.P, "SQLSyntaxError", "%s expects %d argument(s), got %d", strings.ToUpper(name), k, len(args))
		}
		return nil
	}
	str := func() error {
		if err := arity(1); err != nil {
			return err
		}
		if args[0].t.Kind != String {
			return unsupported(n.P, "", "%s of %s in Polars SQL", name, args[0].t)
		}
		return nil
	}
	if x, ok, err := textCall(n, name, args); ok {
		return x, err
	}
	if x, ok, err := r.strptime(n, name, args, grouped); ok {
		return x, err
	}
	switch name {
	case "upper":
		if err := str(); err != nil {
			return nil, err
		}
		// Unicode's full upper case, as Rust's to_uppercase: ß is SS; the
		// other letters with a special upper case are refused at run time.
		return derive(args[0], tString, "polars_upper("+args[0].sql+")"), nil
	case "lower":
		if err := str(); err != nil {
			return nil, err
		}
		return derive(args[0], tString, "polars_lower("+args[0].sql+")"), nil
	case "length", "char_length", "character_length":
		if err := str(); err != nil {
			return nil, err
		}
		return derive(args[0], tUInt32, "CAST(length("+args[0].sql+") AS UINTEGER)"), nil
	case "octet_length":
		if err := str(); err != nil {
			return nil, err
		}
		return derive(args[0], tUInt32, "CAST(strlen("+args[0].sql+") AS UINTEGER)"), nil
	case "power", "pow":
		if err := arity(2); err != nil {
			return nil, err
		}
		for _, a := range args {
			if a.agg || !a.t.isNumeric() || a.t.isDecimal() {
				return nil, unsupported(n.P, "", "%s of %s in Polars SQL", strings.ToUpper(name), a.t)
			}
		}
		return powerOf(n.P, "power", args[0], args[1], "Polars SQL")
	case "ln", "log10", "log2", "exp", "cbrt", "sin", "cos", "tan", "atan", "degrees", "radians":
		// Float64 (integers cast), through the same C library functions
		// as polars' Rust ones; a Float32 polars computes in single
		// precision, whose rounding differs.
		if err := arity(1); err != nil {
			return nil, err
		}
		x := args[0]
		if x.t.Kind == Float32 && (name == "degrees" || name == "radians") {
			// Rust's f32 to_degrees and to_radians: one Float32
			// product (DuckDB multiplies FLOATs in single precision).
			return derive(x, tFloat32, "("+x.sql+" * CAST('"+f32Const[name]+"' AS FLOAT))"), nil
		}
		if !x.t.isNumeric() || x.t.isDecimal() || x.t.Kind == Float32 {
			// A Float32 polars computes with the C library's
			// single-precision functions (logf, expf, sinf, ...), which
			// are not the double ones rounded: logf differs from
			// (float)log((double)x) for 416,909 of the 2^32 Float32
			// values, expf from exp for 170,648.
			return nil, unsupported(n.P, "", "%s of %s in Polars SQL", strings.ToUpper(name), x.t)
		}
		v := castTo(x, tFloat64)
		nan, negInf := "CAST('nan' AS DOUBLE)", "CAST('-inf' AS DOUBLE)"
		var sql string
		switch name {
		case "ln", "log10", "log2":
			fn := map[string]string{"ln": "ln", "log10": "log10", "log2": "log2"}[name]
			sql = "CASE WHEN isnan(" + v + ") THEN " + v + " WHEN " + v + " < 0 THEN " + nan + " WHEN " + v + " = 0 THEN " + negInf + " ELSE " + fn + "(" + v + ") END"
		case "sin", "cos", "tan":
			sql = "CASE WHEN isinf(" + v + ") THEN " + nan + " ELSE " + name + "(" + v + ") END"
		case "degrees":
			sql = "(" + v + " * CAST(57.29577951308232 AS DOUBLE))" // Rust's to_degrees: x * (180 / PI)
		case "radians":
			sql = "(" + v + " * CAST(0.017453292519943295 AS DOUBLE))" // to_radians: x * (PI / 180)
		default:
			sql = name + "(" + v + ")"
		}
		return derive(x, tFloat64, sql), nil
	case "sqrt":
		if err := arity(1); err != nil {
			return nil, err
		}
		x := args[0]
		if !x.t.isNumeric() || x.t.isDecimal() {
			return nil, unsupported(n.P, "", "SQRT of %s in Polars SQL", x.t)
		}
		ft := tFloat64
		if x.t.isFloat() {
			ft = x.t
		}
		v := castTo(x, ft)
		// NaN below zero (-inf too), -0.0 kept; integers as Float64.
		return derive(x, ft, "CAST(CASE WHEN "+v+" < 0 THEN CAST('nan' AS DOUBLE) ELSE sqrt(CAST("+v+" AS DOUBLE)) END AS "+ft.DuckDB()+")"), nil
	case "sign":
		if err := arity(1); err != nil {
			return nil, err
		}
		x := args[0]
		switch {
		case x.t.isInt():
			return derive(x, x.t, "CAST(sign("+x.sql+") AS "+x.t.DuckDB()+")"), nil
		case x.t.isFloat():
			// NaN and zeros (-0.0 too) are themselves.
			return derive(x, x.t, "CASE WHEN isnan("+x.sql+") OR "+x.sql+" = 0 THEN "+x.sql+" ELSE CAST(sign("+x.sql+") AS "+x.t.DuckDB()+") END"), nil
		}
		return nil, unsupported(n.P, "", "SIGN of %s in Polars SQL", x.t)
	case "greatest", "least":
		// max_horizontal / min_horizontal: nulls skipped (null when all
		// are), NaN the greatest, in the arguments' supertype, a literal
		// as Int32 or Float64; named after the first.
		if len(args) == 0 {
			return nil, rejected(n.P, "SQLSyntaxError", "%s expects at least 1 argument", strings.ToUpper(name))
		}
		lit := func(a *rx) *rx {
			if !a.dyn {
				return a
			}
			c := *a
			c.dyn = false
			switch {
			case a.t.isInt() && fits(a.ival, tInt32):
				c.t = tInt32
			case a.t.isInt():
				c.t = tInt64
			default:
				c.t = tFloat64
			}
			return &c
		}
		t := lit(args[0]).t
		for _, a := range args[1:] {
			switch {
			case t.Kind == String && a.t.Kind == String:
			case t.isNumeric() && !t.isDecimal() && a.t.isNumeric() && !a.t.isDecimal():
				if t = supertype(&rx{t: t}, lit(a)); t == nil {
					return nil, unsupported(n.P, "", "%s over these types in Polars SQL", strings.ToUpper(name))
				}
			default:
				return nil, unsupported(n.P, "", "%s of %s and %s in Polars SQL", strings.ToUpper(name), t, a.t)
			}
		}
		items := make([]string, len(args))
		agg := false
		for i, a := range args {
			items[i] = castTo(lit(a), t)
			agg = agg || a.agg
		}
		x := derive(args[0], t, name+"("+strings.Join(items, ", ")+")")
		x.agg = agg
		return x, nil
	case "abs":
		if err := arity(1); err != nil {
			return nil, err
		}
		if !args[0].t.isNumeric() && !args[0].t.isDecimal() {
			return nil, unsupported(n.P, "", "abs of %s in Polars SQL", args[0].t)
		}
		return derive(args[0], args[0].t, "abs("+args[0].sql+")"), nil
	case "coalesce", "ifnull":
		if len(args) == 0 || (name == "ifnull" && len(args) != 2) {
			return nil, unsupported(n.P, "", "%s with %d arguments in Polars SQL", strings.ToUpper(name), len(args))
		}
		t, err := common(args, n.P)
		if err != nil {
			return nil, err
		}
		var parts []string
		for _, a := range args {
			parts = append(parts, castValue(a, t))
		}
		return derive(args[0], t, "COALESCE("+strings.Join(parts, ", ")+")"), nil
	case "nullif":
		if err := arity(2); err != nil {
			return nil, err
		}
		eq, err := binary(&sqlfront.Binary{Op: "=", P: n.P}, args[0], args[1])
		if err != nil {
			return nil, err
		}
		// polars writes NULLIF as when(a = b).then(NULL).otherwise(a):
		// named after the NULL, "literal".
		out := derive(args[0], args[0].t, "CASE WHEN "+eq.sql+" THEN NULL ELSE "+args[0].sql+" END")
		out.name = "literal"
		return out, nil
	case "concat", "concat_ws":
		// polars' concat_str: each value as its cast to String writes it,
		// NULLs skipped (with their separator), '' where all are NULL, as
		// DuckDB's concat and concat_ws; named after the first value.
		vals, sep := args, ""
		if name == "concat_ws" {
			if len(n.Args) > 0 {
				lit, ok := n.Args[0].(*sqlfront.Literal)
				switch {
				case ok && lit.Kind == sqlfront.LitString:
					sep = args[0].sql
				case ok && lit.Kind == sqlfront.LitNull:
					return nil, rejected(n.P, "SQLSyntaxError", "CONCAT_WS 'separator' must be a literal string (found null)")
				default:
					if cr, isCol := n.Args[0].(*sqlfront.ColumnRef); isCol {
						return nil, rejected(n.P, "SQLSyntaxError", "CONCAT_WS 'separator' must be a literal string (found col(%q))", cr.Parts[len(cr.Parts)-1].Name)
					}
					return nil, unsupported(n.P, "", "CONCAT_WS with a separator that is not a literal string in Polars SQL")
				}
			}
			if len(args) < 2 {
				return nil, unsupported(n.P, "", "CONCAT_WS without values in Polars SQL")
			}
			vals = args[1:]
		}
		if len(vals) == 0 {
			return nil, rejected(n.P, "SQLSyntaxError", "CONCAT expects at least 1 argument (found 0)")
		}
		var parts []string
		for _, a := range vals {
			if a.agg {
				return nil, unsupported(n.P, "", "%s of an aggregate in Polars SQL", strings.ToUpper(name))
			}
			if a.t.Kind == Null {
				continue
			}
			text := a.sql
			if a.t.Kind != String {
				var err error
				if text, err = castToText(n.P, a); err != nil {
					return nil, err
				}
			}
			parts = append(parts, text)
		}
		if len(parts) == 0 {
			return nil, unsupported(n.P, "", "%s of NULLs only in Polars SQL", strings.ToUpper(name))
		}
		if name == "concat_ws" {
			return derive(vals[0], tString, "concat_ws("+sep+", "+strings.Join(parts, ", ")+")"), nil
		}
		return derive(vals[0], tString, "concat("+strings.Join(parts, ", ")+")"), nil
	case "pi":
		if err := arity(0); err != nil {
			return nil, err
		}
		return &rx{t: tFloat64, sql: "CAST(3.141592653589793 AS DOUBLE)", name: "literal", constant: true}, nil
	case "asin", "acos", "cot", "atan2", "log", "sind", "cosd", "tand", "cotd", "asind", "acosd", "atand", "atan2d":
		// Float64 (integers cast), through the C library functions
		// polars' Rust ones call; COT is 1 / tan(x); LOG(x, base) is
		// ln(x) / ln(base), as Rust's f64::log. A Float32 polars
		// computes in single precision.
		k := 1
		if name == "atan2" || name == "log" || name == "atan2d" {
			k = 2
		}
		if err := arity(k); err != nil {
			return nil, err
		}
		for _, a := range args {
			if !a.t.isNumeric() || a.t.Kind == Float32 {
				return nil, unsupported(n.P, "", "%s of %s in Polars SQL", strings.ToUpper(name), a.t)
			}
		}
		v := castTo(args[0], tFloat64)
		nan := "CAST('nan' AS DOUBLE)"
		// In degrees: the argument's to_radians (x * (PI / 180)) for
		// SIND, COSD, TAND, COTD; the result's to_degrees (* (180 / PI))
		// for ASIND, ACOSD, ATAND, ATAN2D.
		toDeg := false
		switch name {
		case "sind", "cosd", "tand", "cotd":
			v = "(" + v + " * CAST(0.017453292519943295 AS DOUBLE))"
			name = strings.TrimSuffix(name, "d")
		case "asind", "acosd", "atand", "atan2d":
			toDeg = true
			name = strings.TrimSuffix(name, "d")
		}
		var sql string
		switch name {
		case "sin", "cos", "tan", "atan":
			sql = name + "(" + v + ")"
			if name != "atan" {
				sql = "CASE WHEN isinf(" + v + ") THEN " + nan + " ELSE " + sql + " END"
			}
		case "asin", "acos":
			// DuckDB fails outside [-1, 1] (NaN compares above 1).
			sql = "CASE WHEN " + v + " < -1 OR " + v + " > 1 THEN " + nan + " ELSE " + name + "(" + v + ") END"
		case "cot":
			sql = "CASE WHEN " + v + " = 0 THEN CASE WHEN signbit(" + v + ") THEN CAST('-inf' AS DOUBLE) ELSE CAST('inf' AS DOUBLE) END WHEN NOT isfinite(" + v + ") THEN " + nan + " ELSE 1 / tan(" + v + ") END"
		case "atan2":
			sql = "atan2(" + v + ", " + castTo(args[1], tFloat64) + ")"
		case "log":
			lit, ok := n.Args[1].(*sqlfront.Literal)
			var b float64
			var err error
			if ok && (lit.Kind == sqlfront.LitInt || lit.Kind == sqlfront.LitDecimal || lit.Kind == sqlfront.LitDouble) {
				b, err = strconv.ParseFloat(lit.Value, 64)
			}
			if !ok || err != nil || b <= 0 || b == 1 || math.IsInf(b, 0) {
				return nil, unsupported(n.Args[1].Pos(), "", "LOG to a base that is not a positive constant other than 1 in Polars SQL")
			}
			ln := "CASE WHEN isnan(" + v + ") THEN " + v + " WHEN " + v + " < 0 THEN " + nan + " WHEN " + v + " = 0 THEN CAST('-inf' AS DOUBLE) ELSE ln(" + v + ") END"
			sql = "((" + ln + ") / ln(CAST(" + strconv.FormatFloat(b, 'g', -1, 64) + " AS DOUBLE)))"
		}
		if toDeg {
			sql = "((" + sql + ") * CAST(57.29577951308232 AS DOUBLE))"
		}
		return derive(args[0], tFloat64, sql), nil
	case "replace":
		if err := arity(3); err != nil {
			return nil, err
		}
		for _, a := range args {
			if a.t.Kind != String {
				return nil, unsupported(n.P, "", "REPLACE of %s in Polars SQL", a.t)
			}
		}
		return derive(args[0], tString, "replace("+args[0].sql+", "+args[1].sql+", "+args[2].sql+")"), nil
	case "starts_with", "ends_with":
		if err := arity(2); err != nil {
			return nil, err
		}
		if args[0].t.Kind != String || args[1].t.Kind != String {
			return nil, unsupported(n.P, "", "%s of %s in Polars SQL", strings.ToUpper(name), args[0].t)
		}
		f := map[string]string{"starts_with": "starts_with", "ends_with": "suffix"}[name]
		return derive(args[0], tBool, f+"("+args[0].sql+", "+args[1].sql+")"), nil
	case "floor", "ceil", "ceiling":
		if err := arity(1); err != nil {
			return nil, err
		}
		x := args[0]
		switch {
		case x.t.isInt():
			return derive(x, x.t, x.sql), nil
		case x.t.isFloat():
			return derive(x, x.t, "CAST("+map[string]string{"floor": "floor", "ceil": "ceil", "ceiling": "ceil"}[name]+"("+x.sql+") AS "+x.t.DuckDB()+")"), nil
		case x.t.isDecimal():
			v := "CAST(" + map[string]string{"floor": "floor", "ceil": "ceil", "ceiling": "ceil"}[name] + "(" + x.sql + ") AS DECIMAL(38," + strconv.Itoa(x.t.S) + "))"
			return derive(x, x.t, fitDecimal(v, x.t, strings.ToUpper(name))), nil
		}
		return nil, unsupported(n.P, "", "%s of %s in Polars SQL", strings.ToUpper(name), x.t)
	case "round":
		if len(args) != 1 && len(args) != 2 {
			return nil, unsupported(n.P, "", "ROUND with %d arguments in Polars SQL", len(args))
		}
		x := args[0]
		digits := "0"
		if len(args) == 2 {
			lit, ok := n.Args[1].(*sqlfront.Literal)
			if !ok || lit.Kind != sqlfront.LitInt || strings.HasPrefix(lit.Value, "-") {
				return nil, unsupported(n.Args[1].Pos(), "", "ROUND to a non-constant or negative number of decimals in Polars SQL")
			}
			digits = lit.Value
		}
		switch {
		case x.t.isInt():
			return derive(x, x.t, x.sql), nil
		case x.t.isFloat():
			// polars rounds half to even.
			return derive(x, x.t, "CAST(polars_round_even("+x.sql+", "+digits+") AS "+x.t.DuckDB()+")"), nil
		case x.t.isDecimal():
			d, _ := strconv.Atoi(digits)
			return derive(x, x.t, decRound(x, d)), nil
		}
		return nil, unsupported(n.P, "", "ROUND of %s in Polars SQL", x.t)
	case "date_part":
		if err := arity(2); err != nil {
			return nil, err
		}
		f, ok := n.Args[0].(*sqlfront.Literal)
		if !ok || f.Kind != sqlfront.LitString {
			return nil, unsupported(n.P, "", "DATE_PART with a non-constant field in Polars SQL")
		}
		return extract(n, f.Value, args[1])
	case "strftime":
		if err := arity(2); err != nil {
			return nil, err
		}
		f, ok := n.Args[1].(*sqlfront.Literal)
		if !ok || f.Kind != sqlfront.LitString || !plainFormat(f.Value) || (args[0].t.Kind != Date && args[0].t.Kind != Datetime) {
			return nil, unsupported(n.P, "", "STRFTIME other than of a date or datetime with %%Y %%m %%d %%H %%M %%S in Polars SQL")
		}
		return derive(args[0], tString, "strftime("+localTime(args[0])+", "+args[1].sql+")"), nil
	case "strpos":
		if err := arity(2); err != nil {
			return nil, err
		}
		if args[0].t.Kind != String || args[1].t.Kind != String || !args[1].constant {
			return nil, unsupported(n.P, "", "STRPOS other than of a string and a constant string in Polars SQL")
		}
		// polars counts the position in bytes (1-based), 0 when not
		// found, NULL strings included.
		p := "strpos(" + args[0].sql + ", " + args[1].sql + ")"
		return derive(args[0], tUInt32, "CAST(COALESCE(CASE WHEN "+p+" = 0 THEN 0 ELSE strlen(substr("+args[0].sql+", 1, "+p+" - 1)) + 1 END, 0) AS UINTEGER)"), nil
	case "substr", "left", "right":
		if len(args) < 2 || len(args) > 3 || (name != "substr" && len(args) != 2) {
			return nil, unsupported(n.P, "", "%s with %d arguments in Polars SQL", strings.ToUpper(name), len(args))
		}
		if args[0].t.Kind != String {
			return nil, unsupported(n.P, "", "%s of %s in Polars SQL", strings.ToUpper(name), args[0].t)
		}
		var nums []string
		for _, a := range n.Args[1:] {
			lit, ok := a.(*sqlfront.Literal)
			if !ok || lit.Kind != sqlfront.LitInt || strings.HasPrefix(lit.Value, "-") || (name == "substr" && lit.Value == "0" && len(nums) == 0) {
				return nil, unsupported(a.Pos(), "", "%s with a non-constant, negative or zero position in Polars SQL", strings.ToUpper(name))
			}
			nums = append(nums, lit.Value)
		}
		return derive(args[0], tString, name+"("+args[0].sql+", "+strings.Join(nums, ", ")+")"), nil
	case "stddev", "stdev", "stddev_samp", "stdev_samp", "variance", "var", "var_samp":
		if len(args) != 1 {
			return nil, rejected(n.P, "SQLInterfaceError", "no function matches the given name and arguments: `%s`", sqlfront.FormatExpr(n))
		}
		if args[0].t.isDecimal() && !grouped && name[0] == 'v' {
			return nil, rejected(n.P, "InvalidOperationError", "`var` operation not supported for dtype `decimal[%d,%d]`", args[0].t.precision(), args[0].t.S)
		}
		if k := args[0].t.Kind; !grouped && (k == String || k == Date) {
			// A whole-frame std or var of these fails; grouped, polars
			// gives NULLs of the dtype (refused by variance).
			op := map[bool]string{true: "std", false: "var"}[strings.Contains(name, "st")]
			return nil, rejected(n.P, "InvalidOperationError", "`%s` operation not supported for dtype `%s`", op, map[Kind]string{String: "str", Date: "date"}[k])
		}
		t, sql, err := aggregate(n, name, args[0], "")
		if err != nil {
			return nil, err
		}
		return &rx{t: t, sql: sql, name: args[0].name, agg: true}, nil
	case "quantile_cont", "quantile_disc":
		// polars' quantile, linear or equiprobable (the value at ceil(n * q) - 1 of the sorted
		// values, as DuckDB's quantile_disc); nulls skipped, NaN sorted
		// last; Float64, a Float32 kept.
		if err := arity(2); err != nil {
			return nil, err
		}
		up := strings.ToUpper(name)
		lit, ok := n.Args[1].(*sqlfront.Literal)
		if !ok || (lit.Kind != sqlfront.LitInt && lit.Kind != sqlfront.LitDecimal && lit.Kind != sqlfront.LitDouble) {
			if cr, isCol := n.Args[1].(*sqlfront.ColumnRef); isCol {
				return nil, rejected(n.P, "SQLSyntaxError", "invalid value for %s (%s)", up, cr.Parts[len(cr.Parts)-1].Name)
			}
			return nil, unsupported(n.Args[1].Pos(), "", "%s of a quantile that is not a number in Polars SQL", up)
		}
		q, err := strconv.ParseFloat(lit.Value, 64)
		if err != nil {
			return nil, unsupported(n.Args[1].Pos(), "", "%s of the quantile %s in Polars SQL", up, lit.Value)
		}
		if q < 0 || q > 1 {
			return nil, rejected(n.P, "SQLSyntaxError", "%s value must be between 0 and 1 (%s)", up, lit.Value)
		}
		x := args[0]
		if x.agg {
			return nil, unsupported(n.P, "", "an aggregate inside an aggregate")
		}
		if !x.t.isInt() && !x.t.isFloat() {
			return nil, unsupported(n.P, "", "%s of %s in Polars SQL", up, x.t)
		}
		// The values sorted stably (-0.0 and 0.0 are equal and keep their
		// order, as in polars' sort), NaN last.
		v := "CAST(" + x.sql + " AS DOUBLE)"
		sorted := "polars_stable_sort(list(" + v + ") FILTER (WHERE " + v + " IS NOT NULL))"
		qs := "CAST(" + strconv.FormatFloat(q, 'g', -1, 64) + " AS DOUBLE)"
		sql := "polars_quantile_equiprobable(" + sorted + ", " + qs + ")"
		if name == "quantile_cont" {
			// polars' own interpolation, not DuckDB's: the index (n - 1)
			// * q offset by the NULLs (sorted first), its fraction times
			// (hi - lo) plus lo; DuckDB's quantile_cont differs in the
			// last bit for most quantiles other than 0.5.
			sql = "polars_quantile_linear(" + sorted + ", count(*) - count(" + v + "), " + qs + ")"
		}
		if x.t.Kind == Float32 {
			return &rx{t: tFloat32, sql: "CAST(" + sql + " AS FLOAT)", name: x.name, agg: true}, nil
		}
		return &rx{t: tFloat64, sql: sql, name: x.name, agg: true}, nil
	case "sum", "min", "max", "avg", "count", "median":
		if err := arity(1); err != nil {
			return nil, err
		}
		t, sql, err := aggregate(n, name, args[0], "")
		if err != nil {
			return nil, err
		}
		return &rx{t: t, sql: sql, name: args[0].name, agg: true}, nil
	}
	return nil, unsupported(n.P, "", "the function %s in Polars SQL", strings.ToUpper(name))
}

var aggFuncs = map[string]bool{"sum": true, "min": true, "max": true, "avg": true, "count": true, "median": true,
	"stddev": true, "stdev": true, "stddev_samp": true, "stdev_samp": true, "variance": true, "var": true, "var_samp": true,
	"quantile_cont": true, "quantile_disc": true}

// inList is x [NOT] IN (constants of x's kind, no NULL: polars answers
// false, not NULL, for a value missing from a list holding a NULL).
func (r *resolver) inList(n *sqlfront.InList, sc *scope, grouped bool) (*rx, error) {
	x, err := r.expr(n.X, sc, grouped)
	if err != nil {
		return nil, err
	}
	var items []string
	for _, e := range n.List {
		v, err := r.expr(e, sc, grouped)
		if err != nil {
			return nil, err
		}
		switch {
		case !v.constant || v.t.Kind == Null:
			return nil, unsupported(e.Pos(), "", "IN with a non-constant or NULL item in Polars SQL")
		case x.t.isDecimal() && (v.dyn || v.t.isDecimal()):
			// A literal takes the decimal's dtype (a float truncated).
			sql, _ := decOperand(v, x.t, false)
			items = append(items, sql)
		case x.t.isNumeric() && v.t.isNumeric() && supertype(x, v) != nil:
			t := supertype(x, v)
			if !t.Equal(x.t) {
				return nil, unsupported(e.Pos(), "", "IN with an item of another type than %s in Polars SQL", x.t)
			}
			items = append(items, castTo(v, t))
		case v.t.Equal(x.t) && (x.t.Kind == String || x.t.Kind == Boolean || x.t.Kind == Date):
			items = append(items, v.sql)
		default:
			return nil, unsupported(e.Pos(), "", "IN of %s with %s in Polars SQL", x.t, v.t)
		}
	}
	op := " IN ("
	if n.Not {
		op = " NOT IN ("
	}
	return derive(x, tBool, "("+x.sql+op+strings.Join(items, ", ")+"))"), nil
}

// regexOpName is how polars names a regex operator in its messages.
func regexOpName(n *sqlfront.Like) string {
	if n.Op == "~" || n.Op == "~*" {
		if n.Not {
			return "!" + n.Op
		}
		return n.Op
	}
	return n.Op
}

// like is [NOT] LIKE / ILIKE with a constant pattern and no ESCAPE, and
// the regular expression matches (~, ~*, their negations, RLIKE,
// REGEXP).
func (r *resolver) like(n *sqlfront.Like, sc *scope, grouped bool) (*rx, error) {
	if n.Escape != nil || len(n.Patterns) > 0 || n.Pattern == nil {
		return nil, unsupported(n.P, "", "LIKE ANY/ALL or ESCAPE in Polars SQL")
	}
	x, err := r.expr(n.X, sc, grouped)
	if err != nil {
		return nil, err
	}
	p, err := r.expr(n.Pattern, sc, grouped)
	if err != nil {
		return nil, err
	}
	switch n.Op {
	case "~", "RLIKE", "REGEXP":
		// polars: str.contains(pattern), a regular expression.
		return regexMatch(n.P, x, p, "", n.Not, regexOpName(n))
	case "~*":
		return regexMatch(n.P, x, p, "(?i)", n.Not, regexOpName(n))
	case "LIKE", "ILIKE":
	default:
		return nil, unsupported(n.P, "", "%s in Polars SQL", n.Op)
	}
	if x.t.Kind != String || p.t.Kind != String || !p.constant {
		return nil, unsupported(n.P, "", "LIKE on %s with a non-constant pattern in Polars SQL", x.t)
	}
	op := " " + n.Op + " "
	if n.Not {
		op = " NOT" + op
	}
	return derive(x, tBool, "("+x.sql+op+p.sql+")"), nil
}

// caseExpr is CASE [operand] WHEN ... THEN ... [ELSE ...] END: named after
// its first THEN value, typed as the values' supertype.
func (r *resolver) caseExpr(n *sqlfront.Case, sc *scope, grouped bool) (*rx, error) {
	var operand *rx
	if n.Operand != nil {
		var err error
		if operand, err = r.expr(n.Operand, sc, grouped); err != nil {
			return nil, err
		}
	}
	var conds, vals []*rx
	for _, w := range n.Whens {
		c, err := r.expr(w.Cond, sc, grouped)
		if err != nil {
			return nil, err
		}
		if operand != nil {
			if c, err = binary(&sqlfront.Binary{Op: "=", L: n.Operand, R: w.Cond, P: w.Cond.Pos()}, operand, c); err != nil {
				return nil, err
			}
		}
		if c.t.Kind != Boolean && c.t.Kind != Null {
			return nil, unsupported(w.Cond.Pos(), "", "a WHEN condition of type %s in Polars SQL", c.t)
		}
		v, err := r.expr(w.Result, sc, grouped)
		if err != nil {
			return nil, err
		}
		conds, vals = append(conds, c), append(vals, v)
	}
	if n.Else != nil {
		v, err := r.expr(n.Else, sc, grouped)
		if err != nil {
			return nil, err
		}
		vals = append(vals, v)
	}
	t, err := common(vals, n.P)
	if err != nil {
		return nil, err
	}
	var b strings.Builder
	b.WriteString("CASE")
	for i, c := range conds {
		b.WriteString(" WHEN " + c.sql + " THEN " + castValue(vals[i], t))
	}
	if n.Else != nil {
		b.WriteString(" ELSE " + castValue(vals[len(vals)-1], t))
	}
	b.WriteString(" END")
	out := &rx{t: t, sql: b.String(), name: vals[0].name}
	for _, x := range append(conds, vals...) {
		out.agg = out.agg || x.agg
	}
	return out, nil
}

// castValue is x in the dtype common gave the values of one column: a
// value cast to String as polars writes it (castToText), else castTo.
func castValue(x *rx, t *Type) string {
	if t.Kind == String && x.t.Kind != String && x.t.Kind != Null {
		if s, err := castToText(0, x); err == nil {
			return s
		}
	}
	return castTo(x, t)
}

// common is the dtype of values that meet in one column (CASE, COALESCE):
// the same dtype, or numbers' supertype; NULLs take the others' dtype.
func common(vals []*rx, pos int) (*Type, error) {
	var dec *Type
	for _, v := range vals {
		if v.t.isDecimal() {
			if dec == nil {
				dec = v.t
			} else {
				dec = decSuper(dec, v.t)
			}
		}
	}
	if dec != nil {
		// Decimals meet integers and literal numbers in their supertype.
		for _, v := range vals {
			if !v.t.isDecimal() && v.t.Kind != Null && !v.t.isInt() && !(v.dyn && v.t.isFloat()) {
				return nil, unsupported(pos, "cast the values to one type", "values of %s and %s in one column in Polars SQL", dec, v.t)
			}
		}
		return dec, nil
	}
	// A string among the values makes them all strings (polars'
	// supertype of any dtype but Binary with String), each as its cast
	// to String writes it.
	for _, v := range vals {
		if v.t.Kind != String {
			continue
		}
		for _, w := range vals {
			if w.t.Kind != String && w.t.Kind != Null {
				if _, err := castToText(pos, w); err != nil {
					return nil, unsupported(pos, "cast the values to one type", "values of %s and %s in one column in Polars SQL", v.t, w.t)
				}
			}
		}
		return tString, nil
	}
	var acc *rx
	for _, v := range vals {
		switch {
		case v.t.Kind == Null:
		case acc == nil:
			acc = v
		case acc.t.Equal(v.t) && !(acc.dyn && !v.dyn):
			if acc.dyn && v.dyn && v.ival > acc.ival {
				// two integer literals: polars keeps the larger value
				// to size the dtype.
				acc = v
			}
		case (acc.t.Kind == Boolean && v.dyn && v.t.isInt()) || (v.t.Kind == Boolean && acc.dyn && acc.t.isInt()):
			acc = &rx{t: supertype(acc, v)}
		case acc.t.isNumeric() && v.t.isNumeric() && supertype(acc, v) != nil:
			acc = &rx{t: supertype(acc, v), dyn: acc.dyn && v.dyn, ival: max(acc.ival, v.ival)}
		default:
			return nil, unsupported(pos, "cast the values to one type", "values of %s and %s in one column in Polars SQL", acc.t, v.t)
		}
	}
	if acc == nil {
		return tNull, nil
	}
	return acc.t, nil
}

// medianHi is a quantile just above 0.5: ceil(n * medianHi) - 1 is the
// upper middle index for an even n below 2^50 (n / 2 + n * 2^-50, exact),
// the middle for an odd one.
var medianHi = strconv.FormatFloat(0.5+math.Ldexp(1, -50), 'g', -1, 64)

// aggregate is an aggregate's dtype and SQL, over a window when over is
// an OVER clause: polars sums no rows, or only NULLs, to 0 and integer
// sums wrap around on overflow; COUNT counts non-NULL values (UInt32).
func aggregate(n *sqlfront.Call, name string, x *rx, over string) (*Type, string, error) {
	switch name {
	case "count":
		return tUInt32, "CAST(count(" + x.sql + ")" + over + " AS UINTEGER)", nil
	case "sum":
		if !x.t.isNumeric() && !x.t.isDecimal() {
			return nil, "", unsupported(n.P, "", "sum of %s in Polars SQL", x.t)
		}
		t := x.t
		if x.t.isInt() && x.t.intBits() < 32 {
			t = tInt64
		}
		if t.isInt() {
			return t, wrapInt("COALESCE(sum(CAST("+x.sql+" AS HUGEINT))"+over+", 0)", t), nil
		}
		sum := "CAST(COALESCE(sum(" + x.sql + ")" + over + ", 0) AS " + t.DuckDB() + ")"
		if t.isFloat() {
			sum = negativeZero(x.sql, over, t, sum)
		}
		return t, sum, nil
	case "stddev", "stdev", "stddev_samp", "stdev_samp", "variance", "var", "var_samp":
		return variance(n, name, x, over)
	case "median":
		// quantile 0.5, linear: the middle value, or the two middle ones
		// interpolated; nulls skipped, NaN sorted last; Float64, a Float32
		// kept (polars interpolates in Float64 and rounds).
		if !x.t.isInt() && !x.t.isFloat() {
			return nil, "", unsupported(n.P, "", "MEDIAN of %s in Polars SQL", x.t)
		}
		// polars' linear quantile at 0.5: 0.5 * (hi - lo) + lo of the
		// two middle values (DuckDB's quantile_cont rounds otherwise),
		// each taken by quantile_disc (the value at ceil(n * q) - 1 of
		// the sorted values: q = 0.5 and just above it).
		v := "CAST(" + x.sql + " AS DOUBLE)"
		med := "polars_qlin3(quantile_disc(" + v + ", 0.5)" + over + ", quantile_disc(" + v + ", " + medianHi + ")" + over + ", 0.5)"
		if x.t.Kind == Float32 {
			return tFloat32, "CAST(" + med + " AS FLOAT)", nil
		}
		return tFloat64, med, nil
	case "avg":
		if !x.t.isNumeric() && !x.t.isDecimal() {
			return nil, "", unsupported(n.P, "", "avg of %s in Polars SQL", x.t)
		}
		avg := "avg(CAST(" + x.sql + " AS DOUBLE))" + over
		if x.t.isFloat() {
			avg = negativeZero(x.sql, over, tFloat64, avg)
		}
		if x.t.Kind == Float32 {
			// polars' mean of a Float32 is a Float32: the Float64 mean
			// rounded (never past the Float32 range).
			return tFloat32, "CAST(" + avg + " AS FLOAT)", nil
		}
		return tFloat64, avg, nil
	}
	// min and max: of a datetime (naive or aware) and a time as well,
	// in its dtype.
	if !x.t.isNumeric() && !x.t.isDecimal() && x.t.Kind != String && x.t.Kind != Date && x.t.Kind != Boolean && x.t.Kind != Datetime && x.t.Kind != Time {
		return nil, "", unsupported(n.P, "", "%s of %s in Polars SQL", name, x.t)
	}
	if x.t.isFloat() {
		// polars skips NaN unless the values hold nothing else (NULLs
		// skipped too); DuckDB takes NaN for the greatest value.
		return x.t, "coalesce(" + name + "(CASE WHEN isnan(" + x.sql + ") THEN NULL ELSE " + x.sql + " END)" + over + ", " + name + "(" + x.sql + ")" + over + ")", nil
	}
	return x.t, name + "(" + x.sql + ")" + over, nil
}

// negativeZero is agg, or -0.0 where every value is -0.0: polars' float
// sums start from -0.0 (a sum or mean of -0.0 values is -0.0), DuckDB's
// from 0.0.
func negativeZero(x, over string, t *Type, agg string) string {
	return "CASE WHEN bool_and(signbit(" + x + ") AND " + x + " = 0)" + over + " THEN CAST('-0.0' AS " + t.DuckDB() + ") ELSE " + agg + " END"
}

// window is an aggregate over a window of PARTITION BY columns (polars'
// .over()): polars 1.32.0 ignores a window's ORDER BY and frame, and
// needs a key.
func (r *resolver) window(n *sqlfront.Call, name string, sc *scope, grouped bool) (*rx, error) {
	w := n.Over
	switch {
	case grouped:
		return nil, unsupported(n.P, "", "a window function in a grouped query in Polars SQL")
	case w.Name != "":
		return nil, unsupported(n.P, "", "a named window in Polars SQL")
	case len(w.OrderBy) > 0 || w.Frame != nil:
		return nil, unsupported(w.P, "compute a running total with a self-join, or drop the ORDER BY if the whole partition is meant", "a window's ORDER BY or frame, which polars 1.32.0 ignores (it computes %s over the whole partition),", strings.ToUpper(name))
	case name == "quantile_cont" || name == "quantile_disc":
		return nil, unsupported(n.P, "", "%s over a window, which polars 1.32.0 computes over the whole frame (it ignores the partition),", strings.ToUpper(name))
	case !aggFuncs[name]:
		return nil, unsupported(n.P, "", "%s over a window in Polars SQL", strings.ToUpper(name))
	case n.Distinct:
		return nil, unsupported(n.P, "", "%s(DISTINCT ...) over a window in Polars SQL", name)
	case len(w.PartitionBy) == 0:
		return nil, rejected(w.P, "ComputeError", "at least one key is required in a group_by operation")
	}
	var keys []string
	for _, p := range w.PartitionBy {
		cr, ok := p.(*sqlfront.ColumnRef)
		if !ok {
			return nil, unsupported(p.Pos(), "", "a PARTITION BY key that is not a column in Polars SQL")
		}
		c, err := sc.lookup(cr)
		if err != nil {
			return nil, err
		}
		keys = append(keys, c.sql)
	}
	over := " OVER (PARTITION BY " + strings.Join(keys, ", ") + ")"
	if n.StarArg {
		if name != "count" {
			return nil, unsupported(n.P, "", "%s(*) in Polars SQL", name)
		}
		return &rx{t: tUInt32, sql: "CAST(count(*)" + over + " AS UINTEGER)", name: "len"}, nil
	}
	if len(n.Args) != 1 {
		return nil, unsupported(n.P, "", "%s with %d arguments in Polars SQL", strings.ToUpper(name), len(n.Args))
	}
	x, err := r.expr(n.Args[0], sc, false)
	if err != nil {
		return nil, err
	}
	if x.agg {
		return nil, unsupported(n.P, "", "an aggregate inside a window function")
	}
	t, sql, err := aggregate(n, name, x, over)
	if err != nil {
		return nil, err
	}
	return &rx{t: t, sql: sql, name: x.name}, nil
}

// polarsLacks are functions polars 1.32.0's SQL does not have ("unsupported
// function"), found by calling each.
var polarsLacks = setOf(`row_number rank dense_rank lag lead ntile percent_rank cume_dist first_value last_value nth_value
	nvl nvl2 lpad rpad date_trunc datediff dateadd mean mode var_pop stddev_pop stdev_pop variance_pop variance_samp string_agg listagg approx_count_distinct
	bool_and bool_or every any_value group_concat collect_list collect_set size cardinality instr locate regexp_extract
	regexp_replace regexp_substr split translate repeat space ascii chr char format printf md5 sha1 sha2 hash uuid random
	rand now current_timestamp today to_date to_timestamp to_char to_number typeof unix_timestamp from_unixtime
	date_format date_add date_sub add_months last_day months_between next_day year month day hour minute second quarter
	week weekofyear dayofweek dayofyear dayofmonth epoch trunc truncate isnull isnan nanvl len btrim sinh cosh tanh explode
	named_struct map element_at get_json_object json_extract iff iif case_when decode`)

func setOf(s string) map[string]bool {
	m := map[string]bool{}
	for _, f := range strings.Fields(s) {
		m[f] = true
	}
	return m
}

// extractFields are the EXTRACT and DATE_PART fields translated: their
// DuckDB function and polars' dtype (Sunday is DOW 0 and ISODOW 7).
var extractFields = map[string]struct {
	fn string
	t  *Type
}{
	"YEAR": {"year", tInt32}, "MONTH": {"month", &Type{Kind: Int8}}, "DAY": {"day", &Type{Kind: Int8}},
	"HOUR": {"hour", &Type{Kind: Int8}}, "MINUTE": {"minute", &Type{Kind: Int8}}, "SECOND": {"second", &Type{Kind: Int8}},
	"DOW": {"dayofweek", &Type{Kind: Int8}}, "ISODOW": {"isodow", &Type{Kind: Int8}},
	"QUARTER": {"quarter", &Type{Kind: Int8}}, "WEEK": {"week", &Type{Kind: Int8}}, "ISOWEEK": {"week", &Type{Kind: Int8}},
	"DOY": {"dayofyear", &Type{Kind: Int16}}, "DAYOFYEAR": {"dayofyear", &Type{Kind: Int16}}, "ISOYEAR": {"isoyear", tInt32},
	"DECADE": {"decade", tInt32}, "CENTURY": {"century", tInt32}, "MILLENNIUM": {"millennium", tInt32},
}

// subSecond are the EXTRACT fields of the second with its fraction (a
// Float64), as DuckDB's microsecond (the minute's microseconds) divided:
// both divide the same exact number, so give the same double.
var subSecond = map[string]string{
	"MILLISECOND": " / 1000", "MILLISECONDS": " / 1000", "MICROSECOND": "", "MICROSECONDS": "", "NANOSECOND": " * 1000", "NANOSECONDS": " * 1000",
}

func extract(n *sqlfront.Call, field string, x *rx) (*rx, error) {
	f := strings.ToUpper(field)
	if x.t.Kind != Date && x.t.Kind != Datetime {
		return nil, unsupported(n.P, "", "EXTRACT from %s in Polars SQL", x.t)
	}
	if f == "EPOCH" && x.t.Kind == Datetime {
		return derive(x, tFloat64, "(CAST(epoch_us("+x.sql+") AS DOUBLE) / 1000000)"), nil
	}
	if div, ok := subSecond[f]; ok {
		switch {
		case x.t.Kind == Date:
			return nil, rejected(n.P, "InvalidOperationError", "`second` operation not supported for dtype `date`")
		case x.t.Unit != "us" && x.t.Unit != "ms":
			return nil, unsupported(n.P, "", "EXTRACT(%s FROM %s) in Polars SQL", f, x.t)
		}
		return derive(x, tFloat64, "(CAST(microsecond("+localTime(x)+") AS DOUBLE)"+div+")"), nil
	}
	d, ok := extractFields[f]
	if !ok || (x.t.Kind == Date && (f == "HOUR" || f == "MINUTE" || f == "SECOND")) {
		return nil, unsupported(n.P, "", "EXTRACT(%s FROM %s) in Polars SQL", f, x.t)
	}
	return derive(x, d.t, "CAST("+d.fn+"("+localTime(x)+") AS "+d.t.DuckDB()+")"), nil
}

// localTime is a date or datetime as its wall-clock time: an aware
// datetime in its own zone.
func localTime(x *rx) string {
	if x.t.Kind == Datetime && x.t.Zone != "" {
		return "(" + x.sql + " AT TIME ZONE '" + strings.ReplaceAll(x.t.Zone, "'", "''") + "')"
	}
	return x.sql
}

// plainFormat: a strftime format of %Y %m %d %H %M %S and plain text,
// which chrono and DuckDB format alike.
func plainFormat(f string) bool {
	for i := 0; i < len(f); i++ {
		if f[i] == '%' {
			if i+1 >= len(f) || !strings.ContainsRune("YmdHMS", rune(f[i+1])) {
				return false
			}
			i++
		}
	}
	return true
}

var (
	dateText     = regexp.MustCompile(`^\d{4}-\d{2}-\d{2}$`)
	datetimeText = regexp.MustCompile(`^\d{4}-\d{2}-\d{2}[ T]\d{2}:\d{2}(:\d{2}(\.\d{1,6})?)?$`)
)

// temporalLiteral is a string literal compared with a date or naive
// datetime, as polars casts it to the column's dtype; nil when the text
// is not one this translation reads exactly as polars does.
func temporalLiteral(lit *rx, t *Type) *rx {
	v := strings.TrimSuffix(strings.TrimPrefix(lit.sql, "'"), "'")
	switch {
	case t.Kind == Date && dateText.MatchString(v):
		return &rx{t: t, sql: "DATE '" + v + "'", name: lit.name, constant: true}
	case t.Kind == Datetime && t.Zone == "" && (dateText.MatchString(v) || datetimeText.MatchString(v)):
		return &rx{t: t, sql: "CAST(TIMESTAMP '" + strings.Replace(v, "T", " ", 1) + "' AS " + t.DuckDB() + ")", name: lit.name, constant: true}
	}
	return nil
}

// temporalSide turns a string literal compared with a date or datetime
// into a literal of that dtype (nil when neither side is one).
func temporalSide(l, r *rx) []*rx {
	switch {
	case r.constant && r.t.Kind == String && (l.t.Kind == Date || l.t.Kind == Datetime) && !strings.Contains(r.sql, "''"):
		if lit := temporalLiteral(r, l.t); lit != nil {
			return []*rx{l, lit}
		}
	}
	return nil
}
