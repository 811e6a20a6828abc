package frame

import (
	"fmt"
	"math"
	"strconv"
	"strings"
)

// plExpr is a column expression on the POLARS backend: a narwhals
// expression (which narwhals hands to Polars as is) or a Polars one. It
// carries the Polars type and output name Polars gives it, and DuckDB SQL
// computing Polars' values.
type plExpr struct {
	fam  string // "nw" or "pl"
	t    *DType
	sql  string
	name string
	pos  int

	// lit: a literal; dyn is Polars' dynamic literal type ("int",
	// "float", "str", "bool", "null") that adapts to the other operand,
	// "" once typed (lit(1, dtype) or combined).
	lit  bool
	dyn  string
	litv value
	// col: a plain column reference (its name).
	col string
	// scalar: one value per frame or group (an aggregate or a literal).
	scalar bool
	// agg: the expression aggregates (contains an aggregate not inside a
	// window), so it needs a group or a window to be evaluated.
	agg bool
	// orderDep: an order-dependent window function (cum_sum, shift,
	// diff, ...) whose order narwhals requires from over(order_by=...).
	orderDep bool
	// multi: the outputs of a multi-column selection (col("a", "b"),
	// all(), exclude(...)), each a column.
	multi []*plExpr
	// selector: multi came from all()/exclude() (names depend on the frame).
	selector bool
	// lengthChanging: explode(), unique(), drop_nulls() as expressions.
	lengthChanging string
	// groupOnly: an aggregate that runs only in a group (sql_expr's).
	groupOnly bool
}

func (x *plExpr) exprFamily() string { return x.fam }
func (x *plExpr) position() int      { return x.pos }

// derive is a new expression computed from x (its name, aggregate and
// window properties).
func (x *plExpr) derive(t *DType, sql string) *plExpr {
	return &plExpr{fam: x.fam, t: t, sql: sql, name: x.name, pos: x.pos, scalar: x.scalar, agg: x.agg, orderDep: x.orderDep, groupOnly: x.groupOnly}
}

// plEngine builds plExpr values: narwhals and Polars expressions on the
// POLARS backend.
type plEngine struct {
	ev *evaluator
	// windows are the pending windows of aggregate and window calls: the
	// SQL holds markers (winMark) resolved when the expression's context
	// is known (a group, over(...), a broadcast over the whole frame).
	windows []*window
}

// window is a window function call waiting for its OVER clause.
type window struct {
	// kind: "agg" (an aggregate: no OVER in a group, OVER () broadcast,
	// OVER (PARTITION BY ...) in over()), "ordered" (needs ORDER BY:
	// cum_sum, shift), "rank" (its own ORDER BY).
	kind  string
	order string // rank: the ORDER BY terms
	frame string // ordered: a frame clause (ROWS BETWEEN ...)
	// running: cumulative functions (a frame clause; their default)
}

const markOpen, markClose = "\x00W", "\x00"

// mark registers a window and returns its marker.
func (e *plEngine) mark(w *window) string {
	e.windows = append(e.windows, w)
	return fmt.Sprintf("%s%d%s", markOpen, len(e.windows)-1, markClose)
}

// resolve replaces the markers of sql: partition/order are the OVER
// clause of over(...) ("" for none); inGroup drops aggregates' markers
// (a GROUP BY context).
func (e *plEngine) resolve(sql string, partition []string, order string, inGroup bool) (string, error) {
	var b strings.Builder
	for {
		i := strings.Index(sql, markOpen)
		if i < 0 {
			b.WriteString(sql)
			return b.String(), nil
		}
		j := strings.Index(sql[i+len(markOpen):], markClose)
		n, _ := strconv.Atoi(sql[i+len(markOpen) : i+len(markOpen)+j])
		w := e.windows[n]
		b.WriteString(sql[:i])
		sql = sql[i+len(markOpen)+j+len(markClose):]
		if w.kind == "agg" && inGroup {
			continue
		}
		var parts []string
		part := partition
		if w.kind == "partx" {
			// count(*) over the rows of the same value (rank ties).
			part = append(append([]string{}, partition...), w.order)
		}
		if len(part) > 0 {
			parts = append(parts, "PARTITION BY "+strings.Join(part, ", "))
		}
		switch w.kind {
		case "rank":
			parts = append(parts, "ORDER BY "+w.order)
		case "ordered":
			if order == "" {
				return "", errOrderDependent
			}
			parts = append(parts, "ORDER BY "+order)
			if w.frame != "" {
				parts = append(parts, w.frame)
			}
		case "agg":
			if order != "" && w.frame != "" {
				parts = append(parts, "ORDER BY "+order, w.frame)
			}
		}
		b.WriteString(" OVER (" + strings.Join(parts, " ") + ")")
	}
}

var errOrderDependent = fmt.Errorf("order-dependent")

// narwhals' message for an order-dependent expression without order_by.
const orderDependentMsg = "InvalidOperationError: Order-dependent expressions are not supported for use in LazyFrame. Hint: To make the expression valid, specify `order_by`."

func (e *plEngine) truthErr(x Expr, pos int) error {
	if x.exprFamily() == "nw" {
		return laktoryErr(pos, "TypeError: the truth value of <class 'narwhals.expr.Expr'> is ambiguous")
	}
	return laktoryErr(pos, "TypeError: the truth value of an Expr is ambiguous")
}

// column is a reference to a column of the frame.
func (e *plEngine) column(fam, name string, pos int) (*plExpr, error) {
	c, ok := e.ev.frame.find(name)
	if !ok {
		return nil, e.ev.frame.notFound(fam, name, pos)
	}
	if e.ev.read != nil {
		e.ev.read(c.name)
	}
	return &plExpr{fam: fam, t: c.t, sql: quoteIdent(c.name), name: c.name, pos: pos, col: c.name}, nil
}

// literal is lit(v) (dtype nil: Polars infers a dynamic type).
func (e *plEngine) literal(fam string, v value, dt *DType, pos int) (*plExpr, error) {
	x := &plExpr{fam: fam, name: "literal", pos: pos, lit: true, litv: v, scalar: true}
	switch y := v.(type) {
	case nil:
		x.t, x.sql, x.dyn = dNull, "NULL", "null"
	case bool:
		x.t, x.sql, x.dyn = dBool, strings.ToUpper(strconv.FormatBool(y)), "bool"
	case int64:
		x.t, x.dyn = dInt32, "int"
		if y > math.MaxInt32 || y < math.MinInt32 {
			x.t = dInt64
		}
		x.sql = strconv.FormatInt(y, 10)
	case float64:
		x.t, x.sql, x.dyn = dFloat64, floatSQL(y), "float"
	case string:
		x.t, x.sql, x.dyn = dString, quoteString(y), "str"
	default:
		return nil, unsupportedAt(pos, "", "a literal of type %s", pyType(v))
	}
	if dt != nil {
		c, err := e.cast(x, dt, true, pos)
		if err != nil {
			return nil, err
		}
		c.lit, c.litv, c.scalar, c.name = true, v, true, "literal"
		return c, nil
	}
	return x, nil
}

func floatSQL(f float64) string {
	switch {
	case math.IsNaN(f):
		return "'nan'::DOUBLE"
	case math.IsInf(f, 1):
		return "'inf'::DOUBLE"
	case math.IsInf(f, -1):
		return "'-inf'::DOUBLE"
	}
	return strconv.FormatFloat(f, 'g', -1, 64) + "::DOUBLE"
}

// typed gives a dynamic literal the type t (the other operand's), as
// Polars does: an int literal takes an integer column's type if it fits
// (else the smallest wider one) and a float column's type; a float literal
// keeps a float column's type and is Float64 with an integer.
func (e *plEngine) typed(x *plExpr, t *DType) *DType {
	if !x.lit || x.dyn == "" {
		return x.t
	}
	switch x.dyn {
	case "int":
		v := x.litv.(int64)
		switch {
		case t.IsInteger():
			if intFits(v, t) {
				return t
			}
			for _, c := range []*DType{dInt16, dInt32, dInt64} {
				if t.IsSigned() && c.bits() > t.bits() && intFits(v, c) {
					return c
				}
			}
			return dInt64
		case t.IsFloat(), t.Kind == DDecimal:
			return t
		}
		return dInt32
	case "float":
		if t.IsFloat() {
			return t
		}
		return dFloat64
	case "null":
		return t
	}
	return x.t
}

func intFits(v int64, t *DType) bool {
	switch t.Kind {
	case DInt8:
		return v >= math.MinInt8 && v <= math.MaxInt8
	case DInt16:
		return v >= math.MinInt16 && v <= math.MaxInt16
	case DInt32:
		return v >= math.MinInt32 && v <= math.MaxInt32
	case DInt64:
		return true
	case DUInt8:
		return v >= 0 && v <= math.MaxUint8
	case DUInt16:
		return v >= 0 && v <= math.MaxUint16
	case DUInt32:
		return v >= 0 && v <= math.MaxUint32
	case DUInt64:
		return v >= 0
	}
	return false
}

// supertype is Polars' supertype of two types for arithmetic and
// comparison, or nil when there is none.
func supertype(a, b *DType) *DType {
	if a.Equal(b) {
		return a
	}
	if a.Kind == DNull {
		return b
	}
	if b.Kind == DNull {
		return a
	}
	switch {
	case a.IsInteger() && b.IsInteger():
		if a.IsSigned() == b.IsSigned() {
			if a.bits() >= b.bits() {
				return a
			}
			return b
		}
		s, u := a, b
		if !a.IsSigned() {
			s, u = b, a
		}
		if s.bits() > u.bits() {
			return s
		}
		switch u.bits() {
		case 8:
			return dInt16
		case 16:
			return dInt32
		case 32:
			return dInt64
		}
		return dFloat64
	case a.IsInteger() && b.IsFloat(), a.IsFloat() && b.IsInteger():
		i, f := a, b
		if a.IsFloat() {
			i, f = b, a
		}
		if f.Kind == DFloat32 && i.bits() <= 16 {
			return dFloat32
		}
		return dFloat64
	case a.IsFloat() && b.IsFloat():
		return dFloat64
	case a.Kind == DBool && b.IsNumeric():
		return b
	case b.Kind == DBool && a.IsNumeric():
		return a
	case a.Kind == DDecimal && b.Kind == DDecimal:
		s := max(a.S, b.S)
		return &DType{Kind: DDecimal, P: min(38, max(a.P-a.S, b.P-b.S)+s), S: s}
	case a.Kind == DDecimal && b.IsInteger(), b.Kind == DDecimal && a.IsInteger():
		if a.Kind == DDecimal {
			return a
		}
		return b
	case a.Kind == DDecimal && b.IsFloat(), b.Kind == DDecimal && a.IsFloat():
		return dFloat64
	case a.Kind == DDatetime && b.Kind == DDate:
		return a
	case a.Kind == DDate && b.Kind == DDatetime:
		return b
	case a.Kind == DDatetime && b.Kind == DDatetime:
		if a.Zone == b.Zone {
			return &DType{Kind: DDatetime, Unit: finerUnit(a.Unit, b.Unit), Zone: a.Zone}
		}
	}
	return nil
}

func finerUnit(a, b string) string {
	rank := map[string]int{"ms": 0, "us": 1, "ns": 2}
	if rank[a] >= rank[b] {
		return a
	}
	return b
}

// operand turns a plain Python value into a literal expression.
func (e *plEngine) operand(fam string, v value, pos int) (*plExpr, error) {
	switch x := v.(type) {
	case *plExpr:
		if x.multi != nil {
			return nil, unsupportedAt(pos, "name the columns one by one", "an operation on a multi-column selection")
		}
		if x.fam != fam {
			if fam == "pl" {
				return nil, laktoryErr(pos, "TypeError: cannot create expression literal for value of type Expr.")
			}
			return nil, laktoryErr(pos, "TypeError: Expected an object which can be converted into an expression, got <class 'polars.expr.expr.Expr'>")
		}
		return x, nil
	case Expr:
		return nil, unsupportedAt(pos, "", "mixing %s expressions", x.exprFamily())
	case nil, bool, int64, float64, string:
		return e.literal(fam, v, nil, pos)
	case *pyList:
		if fam == "pl" {
			return nil, unsupportedAt(pos, "", "a list literal in an expression")
		}
	}
	return nil, laktoryErr(pos, "TypeError: Expected an object which can be converted into an expression, got %s", pyType(v))
}

// combine carries aggregate and window properties of parts into x.
func combine(x *plExpr, parts ...*plExpr) *plExpr {
	x.scalar = true
	for _, p := range parts {
		x.scalar = x.scalar && p.scalar
		x.agg = x.agg || p.agg
		x.orderDep = x.orderDep || p.orderDep
		x.groupOnly = x.groupOnly || p.groupOnly
	}
	return x
}

func (e *plEngine) unary(op string, xe Expr, pos int) (value, error) {
	x, err := e.operand(xe.exprFamily(), xe, pos)
	if err != nil {
		return nil, err
	}
	switch op {
	case "-":
		if !x.t.IsNumeric() && x.t.Kind != DDuration {
			return nil, laktoryErr(pos, "InvalidOperationError: `neg` operation not supported for dtype `%s`", shortDtype(x.t))
		}
		if x.t.IsInteger() && !x.t.IsSigned() {
			return nil, laktoryErr(pos, "InvalidOperationError: `neg` operation not supported for dtype `%s`", shortDtype(x.t))
		}
		return x.derive(x.t, "(-"+x.sql+")"), nil
	case "+":
		return x, nil
	case "~":
		switch {
		case x.t.Kind == DBool:
			return x.derive(dBool, "(NOT "+x.sql+")"), nil
		case x.t.IsInteger():
			return x.derive(x.t, "(~"+x.sql+")"), nil
		}
		return nil, laktoryErr(pos, "InvalidOperationError: `not` operation not supported for dtype `%s`", shortDtype(x.t))
	}
	return nil, unsupportedAt(pos, "", "the operator %s", op)
}

// shortDtype is Polars' short name of a type in error messages (i64, str).
func shortDtype(t *DType) string {
	switch t.Kind {
	case DInt8, DInt16, DInt32, DInt64:
		return "i" + strconv.Itoa(t.bits())
	case DUInt8, DUInt16, DUInt32, DUInt64:
		return "u" + strconv.Itoa(t.bits())
	case DFloat32:
		return "f32"
	case DFloat64:
		return "f64"
	case DString:
		return "str"
	case DBool:
		return "bool"
	case DDate:
		return "date"
	case DDatetime:
		if t.Zone != "" {
			return "datetime[" + t.Unit + ", " + t.Zone + "]"
		}
		return "datetime[" + t.Unit + "]"
	case DDuration:
		return "duration[" + t.Unit + "]"
	case DNull:
		return "null"
	case DList:
		return "list[" + shortDtype(t.Inner) + "]"
	case DStruct:
		return "struct[" + strconv.Itoa(len(t.Fields)) + "]"
	}
	return strings.ToLower(t.String())
}

func (e *plEngine) binary(op string, lv, rv value, pos int) (value, error) {
	fam := ""
	reflected := false
	if x, ok := lv.(Expr); ok {
		fam = x.exprFamily()
	} else if x, ok := rv.(Expr); ok {
		fam, reflected = x.exprFamily(), true
	}
	l, err := e.operand(fam, lv, pos)
	if err != nil {
		return nil, err
	}
	r, err := e.operand(fam, rv, pos)
	if err != nil {
		return nil, err
	}
	if reflected && l.lit {
		// 1 - col: Expr.__rsub__, named after the literal.
		l.name = "literal"
	}
	switch op {
	case "+", "-", "*", "/", "//", "%", "**":
		return e.arith(op, l, r, pos)
	case "==", "!=", "<", "<=", ">", ">=":
		return e.comparison(op, l, r, pos)
	case "&", "|", "^":
		return e.logical(op, l, r, pos)
	}
	return nil, unsupportedAt(pos, "", "the operator %s on expressions", op)
}

// operandTypes types two operands, dynamic literals taking the other's type.
func (e *plEngine) operandTypes(l, r *plExpr) (*DType, *DType) {
	lt, rt := l.t, r.t
	if l.lit && l.dyn != "" && !(r.lit && r.dyn != "") {
		lt = e.typed(l, rt)
	}
	if r.lit && r.dyn != "" && !(l.lit && l.dyn != "") {
		rt = e.typed(r, lt)
	}
	return lt, rt
}

func (e *plEngine) arith(op string, l, r *plExpr, pos int) (*plExpr, error) {
	lt, rt := e.operandTypes(l, r)
	out := combine(&plExpr{fam: l.fam, name: l.name, pos: l.pos}, l, r)
	if l.lit && r.lit && l.dyn != "" && r.dyn != "" {
		out.lit = true
		out.dyn = l.dyn
		if l.dyn != r.dyn {
			out.dyn = ""
		}
		out.litv = nil
	}
	if op == "+" && lt.Kind == DString && rt.Kind == DString {
		out.t, out.sql = dString, "("+l.sql+" || "+r.sql+")"
		return out, nil
	}
	if lt.IsTemporal() || rt.IsTemporal() {
		return e.temporalArith(op, l, r, lt, rt, out, pos)
	}
	st := supertype(lt, rt)
	if st == nil || !st.IsNumeric() && st.Kind != DBool {
		return nil, laktoryErr(pos, "InvalidOperationError: %s operation not supported for dtypes `%s` and `%s`", arithName(op), shortDtype(lt), shortDtype(rt))
	}
	if st.Kind == DBool {
		st = dInt64
		if op == "+" || op == "-" {
			// Polars adds booleans as integers (UInt32 counts).
			st = dUInt32
		}
	}
	ls, rs := castSQL(l.sql, lt, st), castSQL(r.sql, rt, st)
	switch op {
	case "+", "-", "*":
		out.t, out.sql = st, fmt.Sprintf("CAST((%s %s %s) AS %s)", ls, op, rs, st.Duck())
	case "/":
		ft := dFloat64
		if st.Kind == DFloat32 {
			ft = dFloat32
		}
		if st.Kind == DDecimal {
			return nil, unsupportedAt(pos, "", "decimal division")
		}
		out.t = ft
		// DuckDB's / of doubles follows IEEE (x/0 is inf or nan), as Polars.
		out.sql = fmt.Sprintf("CAST((CAST(%s AS DOUBLE) / CAST(%s AS DOUBLE)) AS %s)", ls, rs, ft.Duck())
	case "//":
		out.t = st
		if st.IsInteger() {
			// Floor division; by zero null.
			out.sql = fmt.Sprintf("CAST(CASE WHEN %[2]s = 0 THEN NULL ELSE floor(CAST(%[1]s AS DOUBLE) / CAST(%[2]s AS DOUBLE)) END AS %[3]s)", ls, rs, st.Duck())
			if st.bits() == 64 {
				out.sql = fmt.Sprintf("CAST(CASE WHEN %[2]s = 0 THEN NULL ELSE (%[1]s // %[2]s) - CASE WHEN (%[1]s %% %[2]s <> 0) AND ((%[1]s < 0) <> (%[2]s < 0)) THEN 1 ELSE 0 END END AS %[3]s)", ls, rs, st.Duck())
			}
		} else {
			out.sql = fmt.Sprintf("CAST(floor(CAST(%s AS DOUBLE) / CAST(%s AS DOUBLE)) AS %s)", ls, rs, st.Duck())
		}
	case "%":
		out.t = st
		if st.IsInteger() {
			out.sql = fmt.Sprintf("CAST(CASE WHEN %[2]s = 0 THEN NULL WHEN (%[1]s %% %[2]s <> 0) AND ((%[1]s %% %[2]s < 0) <> (%[2]s < 0)) THEN (%[1]s %% %[2]s) + %[2]s ELSE %[1]s %% %[2]s END AS %[3]s)", ls, rs, st.Duck())
		} else {
			out.sql = fmt.Sprintf("CAST(CASE WHEN fmod(%[1]s, %[2]s) <> 0 AND ((fmod(%[1]s, %[2]s) < 0) <> (%[2]s < 0)) THEN fmod(%[1]s, %[2]s) + %[2]s ELSE fmod(%[1]s, %[2]s) END AS %[3]s)", ls, rs, st.Duck())
		}
	case "**":
		// An integer base with an integer exponent stays an integer (the
		// base's type); a float exponent makes it a float.
		switch {
		case lt.IsInteger() && rt.IsInteger():
			out.t = lt
			out.sql = fmt.Sprintf("CAST(pow(%s, %s) AS %s)", l.sql, r.sql, lt.Duck())
		default:
			ft := dFloat64
			if lt.Kind == DFloat32 && (rt.Kind == DFloat32 || rt.IsInteger()) {
				ft = dFloat32
			}
			out.t = ft
			out.sql = fmt.Sprintf("CAST(pow(CAST(%s AS DOUBLE), CAST(%s AS DOUBLE)) AS %s)", l.sql, r.sql, ft.Duck())
		}
	}
	return out, nil
}

func arithName(op string) string {
	return map[string]string{"+": "add", "-": "sub", "*": "mul", "/": "div", "//": "floor_div", "%": "rem", "**": "pow"}[op]
}

// castSQL casts sql of type from to type to (nothing when equal).
func castSQL(sql string, from, to *DType) string {
	if from.Equal(to) {
		return sql
	}
	return "CAST(" + sql + " AS " + to.Duck() + ")"
}

func (e *plEngine) temporalArith(op string, l, r *plExpr, lt, rt *DType, out *plExpr, pos int) (*plExpr, error) {
	switch {
	case op == "-" && lt.Kind == DDatetime && rt.Kind == DDatetime && lt.Zone == rt.Zone:
		out.t = &DType{Kind: DDuration, Unit: finerUnit(lt.Unit, rt.Unit)}
		out.sql = fmt.Sprintf("(%s - %s)", l.sql, r.sql)
		return out, nil
	case (op == "+" || op == "-") && lt.Kind == DDatetime && rt.Kind == DDuration:
		out.t = lt
		out.sql = fmt.Sprintf("(%s %s %s)", l.sql, op, r.sql)
		return out, nil
	case op == "+" && lt.Kind == DDuration && rt.Kind == DDatetime:
		out.t = rt
		out.sql = fmt.Sprintf("(%s + %s)", r.sql, l.sql)
		return out, nil
	}
	return nil, unsupportedAt(pos, "use .dt methods", "%s between %s and %s", arithName(op), lt, rt)
}

func (e *plEngine) comparison(op string, l, r *plExpr, pos int) (*plExpr, error) {
	lt, rt := e.operandTypes(l, r)
	out := combine(&plExpr{fam: l.fam, name: l.name, pos: l.pos, t: dBool}, l, r)
	sqlOp := map[string]string{"==": "=", "!=": "<>"}[op]
	if sqlOp == "" {
		sqlOp = op
	}
	if lt.Kind == DNull || rt.Kind == DNull {
		out.sql = "CAST(NULL AS BOOLEAN)"
		return out, nil
	}
	st := supertype(lt, rt)
	switch {
	case lt.Kind == DString && rt.Kind == DString, lt.Kind == DBool && rt.Kind == DBool:
		st = lt
	case st == nil:
		return nil, laktoryErr(pos, "ComputeError: cannot compare %s with %s", polarsCompareName(lt), polarsCompareName(rt))
	case lt.Kind == DString || rt.Kind == DString:
		return nil, laktoryErr(pos, "ComputeError: cannot compare string with numeric type (%s)", shortDtype(st))
	}
	out.sql = fmt.Sprintf("(%s %s %s)", castSQL(l.sql, lt, st), sqlOp, castSQL(r.sql, rt, st))
	// Polars compares NaN as equal to NaN and greater than any number.
	if st.IsFloat() {
		out.sql = fmt.Sprintf("(%s %s %s)", castSQL(l.sql, lt, st), sqlOp, castSQL(r.sql, rt, st))
	}
	return out, nil
}

func polarsCompareName(t *DType) string {
	if t.IsNumeric() {
		return "numeric type"
	}
	return shortDtype(t)
}

func (e *plEngine) logical(op string, l, r *plExpr, pos int) (*plExpr, error) {
	lt, rt := e.operandTypes(l, r)
	out := combine(&plExpr{fam: l.fam, name: l.name, pos: l.pos}, l, r)
	switch {
	case lt.Kind == DBool && rt.Kind == DBool, lt.Kind == DBool && rt.Kind == DNull, lt.Kind == DNull && rt.Kind == DBool:
		out.t = dBool
		switch op {
		case "&":
			out.sql = fmt.Sprintf("(%s AND %s)", l.sql, r.sql)
		case "|":
			out.sql = fmt.Sprintf("(%s OR %s)", l.sql, r.sql)
		case "^":
			out.sql = fmt.Sprintf("(%s <> %s)", l.sql, r.sql)
		}
		return out, nil
	case lt.IsInteger() && rt.IsInteger():
		st := supertype(lt, rt)
		out.t = st
		sqlOp := map[string]string{"&": "&", "|": "|", "^": "xor"}[op]
		if op == "^" {
			out.sql = fmt.Sprintf("xor(%s, %s)", castSQL(l.sql, lt, st), castSQL(r.sql, rt, st))
		} else {
			out.sql = fmt.Sprintf("(%s %s %s)", castSQL(l.sql, lt, st), sqlOp, castSQL(r.sql, rt, st))
		}
		return out, nil
	}
	return nil, laktoryErr(pos, "InvalidOperationError: %s operation not supported for dtypes `%s` and `%s`",
		map[string]string{"&": "bitand", "|": "bitor", "^": "bitxor"}[op], shortDtype(lt), shortDtype(rt))
}
