package polarssql

import (
	"math"
	"math/big"
	"strings"

	"github.com/laktory/workbench/runner/dialect"
	"github.com/laktory/workbench/runner/sqlfront"
)

// Laktory evaluates a source's `filter` and `selects`, and expectations
// on the NARWHALS dataframe_api, with its own SQL parser
// (laktory/sqlparser.py, on sqlglot): the text becomes a narwhals
// expression, here computed with Polars' semantics (its POLARS backend).
// It accepts much less than Polars SQL: columns (a struct's field as
// a.b), literal numbers and strings, + - * / % (true division), the
// comparisons, AND, OR, NOT, IS [NOT] NULL (or UNKNOWN), IS [NOT]
// TRUE/FALSE (NULL is false), brackets, and ABS, LOWER, UPPER, ROUND(x), FLOOR, POWER, CBRT
// (x ** (1/3)), EXP (e ** x, named literal) and the aggregates MIN, MAX,
// SUM, AVG and COUNT (which counts every row, NULLs too). LN and LOG fail
// in polars (numpy through map_batches on a LazyFrame), a temporal column
// compared with a string fails as polars' expressions fail, and a
// constant alone (one row when selected alone) is not supported locally. What it refuses is ErrPolars with Laktory's exception and message;
// what it computes other than the SQL says (CEIL is FLOOR) is refused
// naming what it would do.

// LaktorySyntax is sqlglot's default dialect as Laktory parses with it:
// "x" is a name, strings double their quotes, sqlglot's precedences and
// IS of any operand (x IS 5, which Laktory refuses with its message).
var LaktorySyntax = &sqlfront.Syntax{
	Name:                    "Laktory SQL expressions",
	SyntaxErrorClass:        "ParseError",
	DoubleQuotedIdentifiers: true,
	Sqlglot:                 true,
	TypeNames:               Syntax.TypeNames,
	UnknownType: func(pos int, name string) *sqlfront.Error {
		return laktoryErr(pos, "AttributeError", "module 'narwhals' has no attribute 'Utf8'")
	},
}

// Expr is a translated Laktory expression.
type Expr struct {
	SQL       string // a DuckDB expression over the relation's columns
	Name      string // the column name Polars gives it
	Type      *Type  // its Polars dtype
	Aggregate bool   // it reduces the relation to one row
}

// TranslateLaktoryExpr translates one expression of Laktory's SQL parser
// over cols, whose SQL names are quoted column names (alias "" ) or
// alias."name".
func TranslateLaktoryExpr(text, alias string, cols []Column) (_ *Expr, err error) {
	defer func() {
		if v := recover(); v != nil {
			err = sqlfront.Unsupported(0, "report the expression", "this expression (internal error of the translation of Laktory's SQL parser: %v)", v)
		}
	}()
	e, err := LaktorySyntax.ParseExpr(text)
	if err != nil {
		return nil, err
	}
	sc := &scope{}
	for _, c := range cols {
		ref := dialect.QuoteIdent(c.Name)
		if alias != "" {
			ref = dialect.QuoteIdent(alias) + "." + ref
		}
		sc.cols = append(sc.cols, &scopeCol{column: &column{name: c.Name, t: c.Type, sql: ref}, starName: c.Name})
	}
	lk := &laktory{text: text, sc: sc}
	// Laktory's parser raises while building the narwhals expression,
	// before polars sees a column or a dtype.
	if err := lk.visit(e); err != nil {
		return nil, err
	}
	x, err := lk.expr(e)
	if err != nil {
		return nil, err
	}
	if x.constant && !x.agg {
		// polars selects a literal alone as one row, beside columns it
		// is broadcast: which one Laktory gets depends on the other
		// selects.
		return nil, unsupported(e.Pos(), "select a column, or compute the constant in a SQL step", "an expression of literals only in Laktory's SQL parser (selected alone it gives one row)")
	}
	return &Expr{SQL: x.sql, Name: x.name, Type: x.t, Aggregate: x.agg}, nil
}

// laktoryErr is an exception Laktory raises while parsing the expression.
func laktoryErr(pos int, class, format string, args ...any) *sqlfront.Error {
	return sqlfront.Rejected(pos, class, format, args...)
}

type laktory struct {
	text string
	sc   *scope
}

// notSupported is Laktory's message for a node its visitor lacks.
func (lk *laktory) notSupported(e sqlfront.Expr, class string) error {
	if !strings.Contains(class, ".") {
		class = "sqlglot.expressions.core." + class
	}
	return laktoryErr(e.Pos(), "Exception", "expression %s of type '<class '%s'>' is not currently supported", sqlglotText(e, lk.text), class)
}

// laktoryFuncs are the functions Laktory's parser computes, by sqlglot
// class (Pow is a binary operator to it).
var laktoryFuncs = map[string]string{
	"Abs": "abs", "Cbrt": "cbrt", "Ceil": "ceil", "Exp": "exp", "Floor": "floor", "Ln": "ln", "Log": "log",
	"Round": "round", "Min": "min", "Max": "max", "Sum": "sum", "Avg": "avg", "Count": "count",
	"Lower": "lower", "Upper": "upper", "Pow": "power", "Pi": "pi",
}

// laktoryFunc is the function Laktory computes for a call ("" when its
// parser does not support it).
func laktoryFunc(n *sqlfront.Call) string {
	f, ok := sqlglotFuncs[strings.ToLower(n.Name.Name)]
	if !ok {
		return ""
	}
	return laktoryFuncs[f.class[strings.LastIndex(f.class, ".")+1:]]
}

// sqlglotClass is the sqlglot class of the node e parses to.
func sqlglotClass(e sqlfront.Expr) string {
	core := func(c string) string { return "sqlglot.expressions.core." + c }
	switch n := e.(type) {
	case *sqlfront.Paren:
		return core("Paren")
	case *sqlfront.ColumnRef:
		if c := nullaryCall(n); c != "" {
			return c
		}
		return core("Column")
	case *sqlfront.Literal:
		switch n.Kind {
		case sqlfront.LitNull:
			return core("Null")
		case sqlfront.LitBool:
			return core("Boolean")
		}
		if strings.HasPrefix(n.Value, "-") {
			return core("Neg")
		}
		return core("Literal")
	case *sqlfront.Unary:
		switch n.Op {
		case "NOT":
			return core("Not")
		case "+":
			return sqlglotClass(n.X)
		case "~":
			return core("BitwiseNot")
		}
		return core("Neg")
	case *sqlfront.Binary:
		if c, ok := laktoryBinaryClass[n.Op]; ok {
			return core(c)
		}
		return core(map[string]string{"+": "Add", "-": "Sub", "*": "Mul", "/": "Div", "%": "Mod", "=": "EQ", "==": "EQ", "<>": "NEQ", "!=": "NEQ",
			"<": "LT", "<=": "LTE", ">": "GT", ">=": "GTE", "AND": "And", "OR": "Or"}[n.Op])
	case *sqlfront.IsNull, *sqlfront.IsBool, *sqlfront.IsExpr:
		if isNot(n) {
			return core("Not")
		}
		return core("Is")
	case *sqlfront.IsDistinct:
		if n.Not {
			return core("NullSafeEQ")
		}
		return core("NullSafeNEQ")
	case *sqlfront.InList, *sqlfront.InQuery:
		if isNot(n) {
			return core("Not")
		}
		return core("In")
	case *sqlfront.Between:
		if n.Not {
			return core("Not")
		}
		return core("Between")
	case *sqlfront.Like:
		return core(map[string]string{"LIKE": "Like", "ILIKE": "ILike", "RLIKE": "RegexpLike", "REGEXP": "RegexpLike"}[n.Op])
	case *sqlfront.Interval:
		return "sqlglot.expressions.datatypes.Interval"
	case *sqlfront.Case:
		return "sqlglot.expressions.functions.Case"
	case *sqlfront.Cast:
		if n.Try {
			return "sqlglot.expressions.functions.TryCast"
		}
		return "sqlglot.expressions.functions.Cast"
	case *sqlfront.Call:
		if f, ok := sqlglotFuncs[strings.ToLower(n.Name.Name)]; ok {
			return f.class
		}
		return core("Anonymous")
	case *sqlfront.Star:
		return core("Star")
	case *sqlfront.Subquery:
		return "sqlglot.expressions.query.Subquery"
	case *sqlfront.Row:
		return "sqlglot.expressions.query.Tuple"
	case *sqlfront.Subscript:
		return core("Bracket")
	}
	return ""
}

func isNot(e sqlfront.Expr) bool {
	switch n := e.(type) {
	case *sqlfront.IsNull:
		return n.Not
	case *sqlfront.IsBool:
		return n.Not
	case *sqlfront.IsExpr:
		return n.Not
	case *sqlfront.InList:
		return n.Not
	case *sqlfront.InQuery:
		return n.Not
	}
	return false
}

// visit raises what laktory/sqlparser.py's visit_expr raises building the
// narwhals expression of e, in its order (left before right, a
// function's arguments before nothing else): nil when it builds one.
func (lk *laktory) visit(e sqlfront.Expr) error {
	switch n := e.(type) {
	case *sqlfront.Paren:
		return lk.visit(n.X)
	case *sqlfront.ColumnRef:
		if c := nullaryCall(n); c != "" {
			return laktoryErr(n.P, "ValueError", "Unsupported function None of type <class '%s'>", c)
		}
		if len(n.Parts) > 2 {
			return laktoryErr(n.P, "Exception", "Column expression %s with more than 2 parts is not supported", sqlglotText(n, lk.text))
		}
		return nil
	case *sqlfront.Literal:
		switch {
		case n.Kind == sqlfront.LitBool:
			return lk.notSupported(n, "Boolean")
		case n.Kind == sqlfront.LitNull:
			return lk.notSupported(n, "Null")
		case strings.HasPrefix(n.Value, "-"):
			return lk.notSupported(n, "Neg")
		}
		return nil
	case *sqlfront.IsNull:
		return lk.visit(n.X)
	case *sqlfront.IsBool:
		return lk.visit(n.X)
	case *sqlfront.IsExpr:
		if err := lk.visit(n.X); err != nil {
			return err
		}
		return laktoryErr(n.R.Pos(), "Exception", "IS expression with right-hand side %s of type '<class '%s'>' is not currently supported", sqlglotText(n.R, lk.text), sqlglotClass(n.R))
	case *sqlfront.Unary:
		switch n.Op {
		case "NOT", "+":
			return lk.visit(n.X)
		}
		return lk.notSupported(n, sqlglotClass(n))
	case *sqlfront.Binary:
		if err := lk.visit(n.L); err != nil {
			return err
		}
		if err := lk.visit(n.R); err != nil {
			return err
		}
		if c, ok := laktoryBinaryClass[n.Op]; ok {
			return laktoryErr(n.P, "ValueError", "Unsupported binary operator <class 'sqlglot.expressions.core.%s'>", c)
		}
		return nil
	case *sqlfront.IsDistinct:
		if err := lk.visit(n.L); err != nil {
			return err
		}
		if err := lk.visit(n.R); err != nil {
			return err
		}
		return laktoryErr(n.P, "ValueError", "Unsupported binary operator <class '%s'>", sqlglotClass(n))
	case *sqlfront.Like:
		if err := lk.visit(n.X); err != nil {
			return err
		}
		if n.Pattern != nil {
			if err := lk.visit(n.Pattern); err != nil {
				return err
			}
		}
		return laktoryErr(n.P, "ValueError", "Unsupported binary operator <class '%s'>", sqlglotClass(n))
	case *sqlfront.Cast:
		// Laktory's map_sql_type builds its table with narwhals.Utf8,
		// which narwhals 2.29.0 lacks: every CAST fails.
		return laktoryErr(n.P, "AttributeError", "module 'narwhals' has no attribute 'Utf8'")
	case *sqlfront.Case:
		this := "None"
		if n.Operand != nil {
			this = sqlglotText(n.Operand, lk.text)
		}
		return laktoryErr(n.P, "ValueError", "Unsupported function %s of type <class 'sqlglot.expressions.functions.Case'>", this)
	case *sqlfront.InList:
		in := *n
		in.Not = false
		return lk.notSupported(&in, "In")
	case *sqlfront.InQuery:
		in := *n
		in.Not = false
		return lk.notSupported(&in, "In")
	case *sqlfront.Between:
		b := *n
		b.Not = false
		return lk.notSupported(&b, "Between")
	case *sqlfront.Call:
		f := laktoryFunc(n)
		if f == "" {
			return lk.unsupportedFunc(n, strings.ToLower(n.Name.Name))
		}
		if n.StarArg {
			return lk.notSupported(&sqlfront.Star{P: n.P}, "Star")
		}
		if n.Distinct {
			// sqlglot's this is Distinct(expressions=[args]).
			return laktoryErr(n.P, "Exception", "expression DISTINCT %s of type '<class 'sqlglot.expressions.core.Distinct'>' is not currently supported", lk.argsText(n.Args))
		}
		for _, a := range n.Args {
			if err := lk.visit(a); err != nil {
				return err
			}
		}
		return nil
	}
	if c := sqlglotClass(e); c != "" {
		return lk.notSupported(e, c)
	}
	return nil
}

func (lk *laktory) expr(e sqlfront.Expr) (*rx, error) {
	switch n := e.(type) {
	case *sqlfront.Paren:
		return lk.expr(n.X)
	case *sqlfront.ColumnRef:
		switch len(n.Parts) {
		case 1:
			c, err := lk.sc.lookup(n)
			if err != nil {
				return nil, err
			}
			return &rx{t: c.t, sql: c.sql, name: c.name, col: c}, nil
		case 2:
			c, err := lk.sc.lookup(&sqlfront.ColumnRef{Parts: n.Parts[:1], P: n.P})
			if err != nil {
				return nil, err
			}
			if c.t.Kind != Struct {
				return nil, unsupported(n.P, "", "a field of a column of %s", c.t)
			}
			f := n.Parts[1].Name
			for _, fd := range c.t.Fields {
				if fd.Name == f {
					return &rx{t: fd.Type, sql: "(" + c.sql + ")." + dialect.QuoteIdent(f), name: f}, nil
				}
			}
			return nil, laktoryErr(n.P, "StructFieldNotFoundError", "%s", f)
		}
		return nil, laktoryErr(n.P, "Exception", "Column expression %s with more than 2 parts is not supported", sqlglotText(n, lk.text))
	case *sqlfront.Literal:
		switch n.Kind {
		case sqlfront.LitBool:
			return nil, lk.notSupported(n, "Boolean")
		case sqlfront.LitNull:
			return nil, lk.notSupported(n, "Null")
		case sqlfront.LitInt, sqlfront.LitDecimal, sqlfront.LitDouble:
			if strings.HasPrefix(n.Value, "-") {
				return nil, lk.notSupported(n, "Neg")
			}
		case sqlfront.LitString:
		default:
			return nil, unsupported(n.P, "", "this literal in Laktory's SQL parser")
		}
		return literal(n)
	case *sqlfront.IsNull:
		x, err := lk.expr(n.X)
		if err != nil {
			return nil, err
		}
		op := " IS NULL)"
		if n.Not {
			op = " IS NOT NULL)"
		}
		return derive(x, tBool, "("+x.sql+op), nil
	case *sqlfront.IsBool:
		x, err := lk.expr(n.X)
		if err != nil {
			return nil, err
		}
		if x.t.Kind != Boolean {
			return nil, unsupported(n.P, "", "IS %s on %s in Laktory's SQL parser", n.Value, x.t)
		}
		// (x == lit(TRUE)).fill_null(False): NULL is false.
		sql := "COALESCE(" + x.sql + " = " + n.Value + ", FALSE)"
		if n.Not {
			sql = "(NOT " + sql + ")"
		}
		return derive(x, tBool, sql), nil
	case *sqlfront.Unary:
		if n.Op == "+" {
			return lk.expr(n.X) // sqlglot drops a unary plus
		}
		if n.Op != "NOT" {
			return nil, lk.notSupported(n, "Neg")
		}
		x, err := lk.expr(n.X)
		if err != nil {
			return nil, err
		}
		if x.t.Kind != Boolean {
			return nil, unsupported(n.P, "", "NOT on %s in Laktory's SQL parser", x.t)
		}
		return derive(x, tBool, "(NOT "+x.sql+")"), nil
	case *sqlfront.Binary:
		return lk.binary(n)
	case *sqlfront.Cast:
		// Laktory's map_sql_type builds its table with narwhals.Utf8,
		// which narwhals 2.29.0 lacks: every CAST fails.
		return nil, laktoryErr(n.P, "AttributeError", "module 'narwhals' has no attribute 'Utf8'")
	case *sqlfront.Call:
		return lk.call(n)
	case *sqlfront.InList, *sqlfront.InQuery:
		return nil, lk.notSupported(n, "In")
	case *sqlfront.Between:
		return nil, lk.notSupported(n, "Between")
	case *sqlfront.Like:
		class := map[string]string{"LIKE": "Like", "ILIKE": "ILike", "RLIKE": "RegexpLike", "REGEXP": "RegexpLike"}[n.Op]
		return nil, laktoryErr(n.P, "ValueError", "Unsupported binary operator <class 'sqlglot.expressions.core.%s'>", class)
	case *sqlfront.Case:
		return nil, laktoryErr(n.P, "ValueError", "Unsupported function None of type <class 'sqlglot.expressions.functions.Case'>")
	}
	return nil, unsupported(e.Pos(), "", "%s in Laktory's SQL parser", describe(e))
}

var laktoryBinaryClass = map[string]string{"||": "DPipe", "<=>": "NullSafeEQ", "&": "BitwiseAnd", "|": "BitwiseOr", "^": "BitwiseXor", "DIV": "IntDiv", "<<": "BitwiseLeftShift", ">>": "BitwiseRightShift"}

func (lk *laktory) binary(n *sqlfront.Binary) (*rx, error) {
	if c, ok := laktoryBinaryClass[n.Op]; ok {
		return nil, laktoryErr(n.P, "ValueError", "Unsupported binary operator <class 'sqlglot.expressions.core.%s'>", c)
	}
	l, err := lk.expr(n.L)
	if err != nil {
		return nil, err
	}
	r, err := lk.expr(n.R)
	if err != nil {
		return nil, err
	}
	// An aggregate compared with (or computed with) a constant or another
	// aggregate is one value (COUNT(x) > 10, an AGGREGATE expectation);
	// beside a column polars would broadcast it.
	if (l.agg && !r.agg && !r.constant) || (r.agg && !l.agg && !l.constant) {
		return nil, unsupported(n.P, "", "an aggregate beside a column in Laktory's SQL parser")
	}
	switch n.Op {
	case "=", "==", "<>", "!=", "<", "<=", ">", ">=":
		// narwhals compares a temporal column with a string as polars'
		// expressions do (no SQL cast): polars refuses it.
		temporal := func(x *rx) bool { return x.t.Kind == Date || x.t.Kind == Datetime || x.t.Kind == Time }
		if temporal(l) && r.t.Kind == String || temporal(r) && l.t.Kind == String {
			return nil, laktoryErr(n.P, "InvalidOperationError", "%s", `cannot compare 'date/datetime/time' to a string value (create native python { 'date', 'datetime', 'time' } or compare to a temporal column)`)
		}
	}
	if n.Op == "/" {
		// narwhals' / is true division: integers divide as Float64.
		if !l.t.isNumeric() || !r.t.isNumeric() {
			return nil, unsupported(n.P, "", "/ on %s and %s", l.t, r.t)
		}
		t := supertype(l, r)
		if t == nil {
			return nil, unsupported(n.P, "", "/ on %s and %s", l.t, r.t)
		}
		if t.isInt() {
			t = tFloat64
		}
		return &rx{t: t, sql: floatDiv(castTo(l, t), castTo(r, t), t, r.constant && !l.constant), name: l.name, agg: l.agg || r.agg, constant: l.constant && r.constant}, nil
	}
	return binary(n, l, r)
}

func (lk *laktory) call(n *sqlfront.Call) (*rx, error) {
	name := laktoryFunc(n)
	if n.StarArg {
		return nil, lk.notSupported(&sqlfront.ColumnRef{Parts: []sqlfront.Ident{{Name: "*"}}, P: n.P}, "Star")
	}
	if n.Over != nil || n.Distinct || n.Filter != nil || n.Syntax != "" {
		return nil, unsupported(n.P, "", "%s with OVER, DISTINCT, FILTER or a special syntax in Laktory's SQL parser", strings.ToUpper(name))
	}
	switch name {
	case "ceil":
		return nil, unsupported(n.P, "use FLOOR if the floor is meant, or compute the ceiling in a SQL step", "CEIL, which Laktory 0.13.1's SQL parser computes as the floor ((-1) * ((-1) * x) // 1) named literal,")
	case "pi":
		return nil, unsupported(n.P, "", "PI() in Laktory's SQL parser (a literal selected alone gives one row)")
	case "power", "cbrt", "exp":
		return lk.power(n, name)
	case "ln", "log":
		// x.map_batches(numpy's log): polars refuses it on the LazyFrame
		// Laktory reads.
		return nil, laktoryErr(n.P, "InvalidOperationError", "Order-dependent expressions are not supported for use in LazyFrame.")
	case "abs", "lower", "upper", "round", "floor", "min", "max", "sum", "avg", "count":
	default:
		return nil, lk.unsupportedFunc(n, strings.ToLower(n.Name.Name))
	}
	if name == "round" && len(n.Args) > 1 {
		return nil, laktoryErr(n.P, "TypeError", "argument 'decimals': 'Expr' object cannot be interpreted as an integer")
	}
	if len(n.Args) != 1 {
		return nil, unsupported(n.P, "", "%s with %d arguments in Laktory's SQL parser", strings.ToUpper(name), len(n.Args))
	}
	x, err := lk.expr(n.Args[0])
	if err != nil {
		return nil, err
	}
	if x.agg {
		return nil, unsupported(n.P, "", "an aggregate inside %s", strings.ToUpper(name))
	}
	switch name {
	case "abs":
		if !x.t.isNumeric() {
			return nil, unsupported(n.P, "", "ABS of %s", x.t)
		}
		return derive(x, x.t, "abs("+x.sql+")"), nil
	case "lower", "upper":
		if x.t.Kind != String {
			return nil, unsupported(n.P, "", "%s of %s", strings.ToUpper(name), x.t)
		}
		return derive(x, tString, "polars_"+name+"("+x.sql+")"), nil
	case "round", "floor":
		switch {
		case x.t.isInt():
			return derive(x, x.t, x.sql), nil
		case x.t.isFloat() && name == "round":
			return derive(x, x.t, "CAST(polars_round_even("+x.sql+", 0) AS "+x.t.DuckDB()+")"), nil
		case x.t.isFloat():
			return derive(x, x.t, "CAST(floor("+x.sql+") AS "+x.t.DuckDB()+")"), nil
		}
		return nil, unsupported(n.P, "", "%s of %s", strings.ToUpper(name), x.t)
	case "count":
		// narwhals' len: every row, NULLs too.
		return &rx{t: tUInt32, sql: "CAST(count(*) AS UINTEGER)", name: x.name, agg: true}, nil
	}
	if x.col == nil {
		return nil, unsupported(n.P, "aggregate a column", "%s of an expression in Laktory's SQL parser", strings.ToUpper(name))
	}
	out, err := (&resolver{}).call(&sqlfront.Call{Name: sqlfront.Ident{Name: name}, Args: []sqlfront.Expr{n.Args[0]}, P: n.P}, lk.sc, true)
	if err != nil {
		return nil, err
	}
	return out, nil
}

// argsText is a call's arguments as sqlglot prints them.
func (lk *laktory) argsText(args []sqlfront.Expr) string {
	parts := make([]string, len(args))
	for i, a := range args {
		parts[i] = sqlglotText(a, lk.text)
	}
	return strings.Join(parts, ", ")
}

// sqlglotFunc is the sqlglot class of a function's node and the argument
// that is its `this` (-1: none).
type sqlglotFunc struct {
	class string
	this  int
}

// unsupportedFunc is Laktory's message for a function its parser lacks:
// "Unsupported function {expr.this} of type {type(expr)}", `this` being
// the node's first argument for most of sqlglot's classes, None for some,
// and the name of a function sqlglot does not know (Anonymous).
func (lk *laktory) unsupportedFunc(n *sqlfront.Call, name string) error {
	f, ok := sqlglotFuncs[name]
	if !ok {
		return laktoryErr(n.P, "ValueError", "Unsupported function %s of type <class 'sqlglot.expressions.core.Anonymous'>", name)
	}
	this := "None"
	switch {
	case n.Distinct && f.this == 0:
		this = "DISTINCT " + lk.argsText(n.Args)
	case f.this >= 0 && f.this < len(n.Args):
		this = sqlglotText(n.Args[f.this], lk.text)
	}
	return laktoryErr(n.P, "ValueError", "Unsupported function %s of type <class '%s'>", this, f.class)
}

// power is POWER(x, y) (sqlglot's Pow, a binary operator to Laktory:
// x.__pow__(y)), CBRT(x) (x ** (1.0 / 3.0)) and EXP(x) (math.e ** x), as
// polars 1.32.0 raises to a power (checked on 20,000 random values per
// case against polars): an integer to a non-negative integer literal
// stays in its dtype, wrapped around as Rust's wrapping_pow; a float (an
// integer with a float exponent is cast to Float64) to a literal 1 is
// itself, to 0.5 its square root, to an integral 2..9 the product
// ((x * x) * x)... in its dtype, to anything else C's pow (Float64; a
// Float32's powf rounds otherwise than Float64's pow and is not
// supported locally); a Float64 column to a numeric column is pow of the
// two as Float64. EXP is named literal, the rest after the base.
func (lk *laktory) power(n *sqlfront.Call, name string) (*rx, error) {
	want := map[string]int{"power": 2, "cbrt": 1, "exp": 1}[name]
	if len(n.Args) != want {
		return nil, unsupported(n.P, "", "%s with %d arguments in Laktory's SQL parser", strings.ToUpper(name), len(n.Args))
	}
	args := make([]*rx, len(n.Args))
	for i, a := range n.Args {
		x, err := lk.expr(a)
		if err != nil {
			return nil, err
		}
		if x.agg || !x.t.isNumeric() || x.t.isDecimal() {
			return nil, unsupported(n.P, "", "%s of %s in Laktory's SQL parser", strings.ToUpper(name), x.t)
		}
		args[i] = x
	}
	var base, exp *rx
	switch name {
	case "cbrt":
		base, exp = args[0], &rx{t: tFloat64, sql: "CAST(1.0 / 3.0 AS DOUBLE)", name: "literal", constant: true, dyn: true, fval: 1.0 / 3.0}
	case "exp":
		base, exp = &rx{t: tFloat64, sql: "CAST('2.718281828459045' AS DOUBLE)", name: "literal", constant: true, dyn: true, fval: 2.718281828459045}, args[0]
	default:
		base, exp = args[0], args[1]
	}
	return powerOf(n.P, name, base, exp, "Laktory's SQL parser")
}

// powerOf is base to the power exp as polars' pow computes it (see
// power), in the dialect named in its refusals.
func powerOf(pos int, name string, base, exp *rx, dialectName string) (*rx, error) {
	out := func(t *Type, sql string) *rx {
		return &rx{t: t, sql: sql, name: base.name, constant: base.constant && exp.constant}
	}
	f64 := func(x *rx) string { return castTo(x, tFloat64) }
	refuse := func() (*rx, error) {
		return nil, unsupported(pos, "", "%s of %s to the power of %s in %s", strings.ToUpper(name), base.t, exp.t, dialectName)
	}
	lit := exp.constant && exp.dyn // one value: polars' special cases apply
	if base.t.isInt() && lit && exp.t.isInt() {
		if exp.ival < 0 || exp.ival > maxIntPower {
			return refuse()
		}
		return out(base.t, intPower(base.sql, base.t, int(exp.ival))), nil
	}
	if !base.t.isFloat() && !(base.t.isInt() && exp.t.isFloat()) {
		return refuse()
	}
	ft := tFloat64
	if base.t.isFloat() {
		ft = base.t
	}
	b := castTo(base, ft)
	if !lit {
		if ft.Kind != Float64 || base.constant && exp.t.Kind == Float32 {
			return refuse()
		}
		return out(tFloat64, "pow("+b+", "+f64(exp)+")"), nil
	}
	if exp.t.Kind == Float32 {
		return refuse()
	}
	ev := exp.fval
	if exp.t.isInt() {
		ev = float64(exp.ival)
	}
	switch {
	case ev == 1:
		return out(ft, b), nil
	case ev == 0.5:
		// sqrt: NaN below zero (-inf too), -0.0 kept.
		return out(ft, "CAST(CASE WHEN "+b+" < 0 THEN CAST('nan' AS DOUBLE) ELSE sqrt(CAST("+b+" AS DOUBLE)) END AS "+ft.DuckDB()+")"), nil
	case ev == math.Trunc(ev) && ev > 1 && ev < 10:
		prod := b
		for range int(ev) - 1 {
			prod = "CAST((" + prod + " * " + b + ") AS " + ft.DuckDB() + ")"
		}
		return out(ft, prod), nil
	case ft.Kind == Float64:
		return out(tFloat64, "pow("+b+", "+f64(exp)+")"), nil
	}
	return refuse()
}

// maxIntPower is the largest integer exponent computed locally (the
// product's expression grows with it).
const maxIntPower = 512

// intPower is x to the power e in integer dtype t, wrapped around as
// Rust's wrapping_pow: the product in HUGEINT wrapped once when it fits
// (e * bits <= 126), else a balanced tree of products of x's residue
// modulo 2^bits in UHUGEINT (each below 2^128), signed back at the end.
func intPower(x string, t *Type, e int) string {
	if e == 0 {
		return "CAST(CASE WHEN " + x + " IS NULL THEN NULL ELSE 1 END AS " + t.DuckDB() + ")"
	}
	bits := t.intBits()
	if e*bits <= 126 {
		prod := "CAST(1 AS HUGEINT)"
		for range e {
			prod += " * CAST(" + x + " AS HUGEINT)"
		}
		return wrapInt(prod, t)
	}
	mod := new(big.Int).Lsh(big.NewInt(1), uint(bits)).String()
	leaf := "CAST(((CAST(" + x + " AS HUGEINT) % " + mod + ") + " + mod + ") % " + mod + " AS UHUGEINT)"
	var tree func(n int) string
	tree = func(n int) string {
		if n == 1 {
			return leaf
		}
		return "((" + tree(n/2) + " * " + tree(n-n/2) + ") % CAST(" + mod + " AS UHUGEINT))"
	}
	return wrapInt("CAST("+tree(e)+" AS HUGEINT)", t)
}
