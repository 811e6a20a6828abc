package sqlfront

import (
	"fmt"
	"math"
	"strconv"
	"strings"
)

// Type is a data type of a dialect's type system (Spark's types, Polars'
// dtypes): its name as the dialect prints it and the DuckDB type holding
// its values.
type Type interface {
	String() string
	DuckDB() string
}

// Column is a named, typed column of a relation.
type Column struct {
	Name string
	Type Type
}

// Value is the typed form of an expression: its syntax tree, its type in
// the dialect's type system, the DuckDB SQL computing what the dialect's
// engine computes, and the name the engine gives it as an unaliased
// column.
type Value struct {
	Expr      Expr
	Type      Type
	SQL       string
	Name      string
	Aggregate bool // contains an aggregate outside a window
	Window    bool // contains a window function
}

// Dialect resolves expressions with one engine's semantics: its function
// table, type rules, name rules and messages. runner/sparksql is Spark's.
type Dialect interface {
	// Syntax is the dialect's variant of the parser.
	Syntax() *Syntax
	// ParseType reads a type name in the dialect's spelling.
	ParseType(name string) (Type, error)
	// Resolve types and translates an expression over cols (columns named
	// by their name alone). Aggregates are allowed only with agg.
	Resolve(e Expr, cols []Column, agg bool) (*Value, error)
}

// Builder builds typed expressions over one relation's columns without
// SQL text (the frame-expression front end's narwhals, Polars and PySpark
// expressions): each method builds the syntax tree SQL text would parse
// to and resolves it with the dialect, so that a built expression means
// exactly what the same SQL means, names, types, errors and all. pos is
// the byte offset errors report (in the caller's text).
type Builder struct {
	d    Dialect
	cols []Column
	agg  bool
}

// NewBuilder builds over cols with d; aggregates are allowed with agg.
func NewBuilder(d Dialect, cols []Column, agg bool) *Builder {
	return &Builder{d: d, cols: cols, agg: agg}
}

// Resolve resolves a tree (built here or parsed).
func (b *Builder) Resolve(e Expr) (*Value, error) { return b.d.Resolve(e, b.cols, b.agg) }

// Parse resolves an expression written in the dialect's SQL (Laktory's
// sql_expr and F.expr).
func (b *Builder) Parse(sql string) (*Value, error) {
	e, err := b.d.Syntax().ParseExpr(sql)
	if err != nil {
		return nil, err
	}
	return b.Resolve(e)
}

// Column is the column of the relation named name (matched as the
// dialect matches names).
func (b *Builder) Column(pos int, name string) (*Value, error) {
	return b.Resolve(&ColumnRef{Parts: []Ident{{Name: name, Quoted: true, P: pos}}, P: pos})
}

// Field is field name of a struct value.
func (b *Builder) Field(pos int, x *Value, name string) (*Value, error) {
	return b.Resolve(&FieldAccess{X: x.Expr, Field: Ident{Name: name, Quoted: true, P: pos}, P: pos})
}

// Literal is a constant: nil, a bool, an integer (int, int64), a float64
// (a double), a string, or a Decimal (its digits, e.g. "1.50").
func (b *Builder) Literal(pos int, v any) (*Value, error) {
	lit := &Literal{P: pos}
	switch x := v.(type) {
	case nil:
		lit.Kind = LitNull
	case bool:
		lit.Kind, lit.Value = LitBool, strings.ToUpper(strconv.FormatBool(x))
	case int:
		lit.Kind, lit.Value = LitInt, strconv.Itoa(x)
	case int64:
		lit.Kind, lit.Value = LitInt, strconv.FormatInt(x, 10)
	case float64:
		if math.IsNaN(x) || math.IsInf(x, 0) {
			return nil, Unsupported(pos, "", "the literal %v", x)
		}
		lit.Kind, lit.Value = LitDouble, strconv.FormatFloat(x, 'g', -1, 64)
	case string:
		lit.Kind, lit.Value = LitString, x
	case Decimal:
		lit.Kind, lit.Value = LitDecimal, string(x)
	default:
		return nil, fmt.Errorf("sqlfront: a literal of Go type %T", v)
	}
	return b.Resolve(lit)
}

// Decimal is a decimal literal's digits ("1.50").
type Decimal string

// Call calls a function of the dialect's function table by name.
func (b *Builder) Call(pos int, name string, args ...*Value) (*Value, error) {
	return b.Resolve(&Call{Name: Ident{Name: name, P: pos}, Args: exprs(args), P: pos})
}

// Aggregate calls an aggregate function (count with no argument is
// count(*)).
func (b *Builder) Aggregate(pos int, name string, distinct bool, args ...*Value) (*Value, error) {
	c := &Call{Name: Ident{Name: name, P: pos}, Args: exprs(args), Distinct: distinct, P: pos}
	if len(args) == 0 && strings.EqualFold(name, "count") {
		c.StarArg = true
	}
	return b.Resolve(c)
}

// Op applies a binary operator (+ - * / % || = <> < <= > >= AND OR, and
// the dialect's others) or, with r nil, a unary one (-, NOT, ~).
func (b *Builder) Op(pos int, op string, l, r *Value) (*Value, error) {
	if r == nil {
		return b.Resolve(&Unary{Op: strings.ToUpper(op), X: l.Expr, P: pos})
	}
	return b.Resolve(&Binary{Op: strings.ToUpper(op), L: l.Expr, R: r.Expr, P: pos})
}

// IsNull is x IS [NOT] NULL.
func (b *Builder) IsNull(pos int, x *Value, not bool) (*Value, error) {
	return b.Resolve(&IsNull{X: x.Expr, Not: not, P: pos})
}

// In is x [NOT] IN (list...).
func (b *Builder) In(pos int, x *Value, not bool, list ...*Value) (*Value, error) {
	return b.Resolve(&InList{X: x.Expr, List: exprs(list), Not: not, P: pos})
}

// When is CASE WHEN cond THEN value ... ELSE otherwise END (otherwise
// nil: no ELSE).
func (b *Builder) When(pos int, conds, values []*Value, otherwise *Value) (*Value, error) {
	if len(conds) != len(values) || len(conds) == 0 {
		return nil, fmt.Errorf("sqlfront: When needs as many values as conditions")
	}
	c := &Case{P: pos}
	for i := range conds {
		c.Whens = append(c.Whens, &When{Cond: conds[i].Expr, Result: values[i].Expr})
	}
	if otherwise != nil {
		c.Else = otherwise.Expr
	}
	return b.Resolve(c)
}

// Cast casts x to a type written in the dialect's spelling (try: NULL
// where the value does not convert, where the dialect has TRY_CAST).
func (b *Builder) Cast(pos int, x *Value, typeName string, try bool) (*Value, error) {
	tn, err := b.d.Syntax().ParseTypeName(typeName)
	if err != nil {
		if e, ok := err.(*Error); ok {
			e.Pos = pos
		}
		return nil, err
	}
	tn.P = pos
	return b.Resolve(&Cast{X: x.Expr, Type: tn, Try: try, P: pos})
}

// Order is a window's or a sort's ordering term.
type Order struct {
	X          *Value
	Desc       bool
	NullsFirst *bool // nil: the dialect's default
}

// Window runs f (a call: an aggregate or a window function) over a window
// partitioned by partition, ordered by order, within frame (nil: the
// dialect's default frame).
func (b *Builder) Window(pos int, f *Value, partition []*Value, order []Order, frame *Frame) (*Value, error) {
	c, ok := f.Expr.(*Call)
	if !ok || c.Over != nil {
		return nil, Unsupported(pos, "call an aggregate or a window function", "a window over an expression that is not a function call")
	}
	w := &WindowSpec{PartitionBy: exprs(partition), Frame: frame, Paren: true, P: pos}
	for _, o := range order {
		it := &OrderItem{X: o.X.Expr, Desc: o.Desc, Dir: true}
		if o.NullsFirst != nil {
			it.Nulls = "LAST"
			if *o.NullsFirst {
				it.Nulls = "FIRST"
			}
		}
		w.OrderBy = append(w.OrderBy, it)
	}
	cc := *c
	cc.Over = w
	return b.Resolve(&cc)
}

func exprs(vs []*Value) []Expr {
	out := make([]Expr, len(vs))
	for i, v := range vs {
		out[i] = v.Expr
	}
	return out
}
