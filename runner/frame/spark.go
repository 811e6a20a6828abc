package frame

import (
	"errors"
	"fmt"
	"math"
	"strconv"
	"strings"

	"github.com/laktory/workbench/runner/sparksql"
)

// spExpr is a column expression on the PYSPARK backend: a narwhals
// expression (narwhals builds PySpark Columns) or a PySpark Column. It is
// held as the Spark SQL of that Column; the Spark SQL front end
// (runner/sparksql) types it and computes it with Spark's semantics.
type spExpr struct {
	fam  string // "nw" or "F"
	sql  string // Spark SQL
	name string // narwhals' output name; for a Column its alias ("" unaliased)
	pos  int

	lit  bool
	litv value
	col  string
	// agg and orderDep as in plExpr.
	agg      bool
	orderDep bool
	multi    []*spExpr
	// caseOpen: a Column of F.when(...) that takes .when/.otherwise.
	caseOpen bool
	whens    []string
	// sortKey: a Column's sort order (desc(), asc_nulls_last(), ...).
	sortKey string
}

func (x *spExpr) exprFamily() string { return x.fam }
func (x *spExpr) position() int      { return x.pos }

// spEngine builds spExpr values.
type spEngine struct {
	ev      *evaluator
	windows []*window
}

func (e *spEngine) evaluator() *evaluator { return e.ev }

func (e *spEngine) mark(w *window) string {
	e.windows = append(e.windows, w)
	return fmt.Sprintf("%s%d%s", markOpen, len(e.windows)-1, markClose)
}

// resolve is plEngine.resolve for Spark SQL: an empty partition is
// PARTITION BY 1, as narwhals writes its windows.
func (e *spEngine) resolve(sql string, partition []string, order string, inGroup bool) (string, error) {
	pe := &plEngine{windows: e.windows}
	if len(partition) == 0 && e.ev.env.API == Narwhals {
		partition = []string{"1"}
	}
	return pe.resolve(sql, partition, order, inGroup)
}

func (e *spEngine) truthErr(x Expr, pos int) error {
	if x.exprFamily() == "nw" {
		return laktoryErr(pos, "TypeError: the truth value of <class 'narwhals.expr.Expr'> is ambiguous")
	}
	return laktoryErr(pos, "PySparkValueError: [CANNOT_CONVERT_COLUMN_INTO_BOOL] Cannot convert column into bool: please use '&' for 'and', '|' for 'or', '~' for 'not' when building DataFrame boolean expressions.")
}

// sparkIdent quotes a Spark identifier.
func sparkIdent(s string) string { return "`" + strings.ReplaceAll(s, "`", "``") + "`" }

// sparkString is a Spark SQL string literal.
func sparkString(s string) string {
	r := strings.NewReplacer(`\`, `\\`, `'`, `\'`)
	return "'" + r.Replace(s) + "'"
}

// sparkLiteral is the Spark SQL of F.lit(v): ints are int (bigint when
// large), floats double, strings string.
func sparkLiteral(v value, pos int) (string, error) {
	switch x := v.(type) {
	case nil:
		return "NULL", nil
	case bool:
		if x {
			return "TRUE", nil
		}
		return "FALSE", nil
	case int64:
		if x > math.MaxInt32 || x < math.MinInt32 {
			return strconv.FormatInt(x, 10) + "L", nil
		}
		return strconv.FormatInt(x, 10), nil
	case float64:
		switch {
		case math.IsNaN(x):
			return "CAST('NaN' AS DOUBLE)", nil
		case math.IsInf(x, 1):
			return "CAST('Infinity' AS DOUBLE)", nil
		case math.IsInf(x, -1):
			return "CAST('-Infinity' AS DOUBLE)", nil
		}
		s := strconv.FormatFloat(x, 'g', -1, 64)
		if !strings.ContainsAny(s, ".e") {
			s += ".0"
		}
		return s + "D", nil
	case string:
		return sparkString(x), nil
	}
	return "", unsupportedAt(pos, "", "a literal of type %s", pyType(v))
}

// column is a reference to a column of the frame (Spark resolves names
// without case; narwhals checks them first).
func (e *spEngine) column(fam, name string, pos int) (*spExpr, error) {
	if name == "*" && fam == "F" {
		for _, c := range e.ev.frame.cols {
			if e.ev.read != nil {
				e.ev.read(c.name)
			}
		}
		return &spExpr{fam: fam, sql: "*", name: "*", pos: pos, col: "*"}, nil
	}
	c, ok := e.ev.frame.find(name)
	if !ok {
		if fam == "F" && strings.Contains(name, ".") {
			// F.col("data.symbol"): a struct field path.
			parts := strings.Split(name, ".")
			if c, ok := e.ev.frame.find(parts[0]); ok {
				if e.ev.read != nil {
					e.ev.read(c.name)
				}
				q := []string{sparkIdent(c.name)}
				for _, p := range parts[1:] {
					q = append(q, sparkIdent(p))
				}
				return &spExpr{fam: fam, sql: strings.Join(q, "."), pos: pos}, nil
			}
		}
		return nil, e.ev.frame.notFound(fam, name, pos)
	}
	if e.ev.read != nil {
		e.ev.read(c.name)
	}
	x := &spExpr{fam: fam, sql: sparkIdent(c.name), name: c.name, pos: pos, col: c.name}
	if fam == "F" {
		x.name = ""
	}
	return x, nil
}

func (e *spEngine) literal(fam string, v value, pos int) (*spExpr, error) {
	s, err := sparkLiteral(v, pos)
	if err != nil {
		return nil, err
	}
	x := &spExpr{fam: fam, sql: s, pos: pos, lit: true, litv: v}
	if fam == "nw" {
		x.name = "literal"
	}
	return x, nil
}

// operand turns a value into an expression of fam: plain values are
// literals.
func (e *spEngine) operand(fam string, v value, pos int) (*spExpr, error) {
	switch x := v.(type) {
	case *spExpr:
		if x.multi != nil {
			return nil, unsupportedAt(pos, "name the columns one by one", "an operation on a multi-column selection")
		}
		if x.fam != fam {
			if fam == "F" {
				return nil, laktoryErr(pos, "PySparkTypeError: [NOT_COLUMN_OR_STR] Argument `col` should be a Column or str, got Expr.")
			}
			return nil, laktoryErr(pos, "TypeError: Expected an object which can be converted into an expression, got <class 'pyspark.sql.column.Column'>")
		}
		if x.caseOpen {
			return e.closeCase(x, nil), nil
		}
		return x, nil
	case *whenChain:
		y, err := e.whenExpr(x, nil, false, pos)
		if err != nil {
			return nil, err
		}
		return y.(*spExpr), nil
	case Expr:
		return nil, unsupportedAt(pos, "", "mixing %s expressions", x.exprFamily())
	case nil, bool, int64, float64, string:
		return e.literal(fam, v, pos)
	}
	return nil, laktoryErr(pos, "TypeError: cannot use a %s in an expression", pyType(v))
}

// exprArg: strings are column names (narwhals; PySpark's ColumnOrName).
func (e *spEngine) exprArg(fam string, v value, pos int, strAsCol bool) (*spExpr, error) {
	if s, ok := v.(string); ok && strAsCol {
		return e.column(fam, s, pos)
	}
	if x, ok := v.(*spExpr); ok && x.multi != nil && x.fam == fam {
		return x, nil
	}
	return e.operand(fam, v, pos)
}

// methodArg is an expression a DataFrame method receives (see plEngine's).
func (e *spEngine) methodArg(fam string, v value) (*spExpr, error) {
	if w, ok := v.(*whenChain); ok {
		x, err := e.whenExpr(w, nil, false, w.pos)
		if err != nil {
			return nil, err
		}
		v = x
	}
	return e.exprArg(fam, v, -1, true)
}

// each is the expressions x stands for.
func (x *spExpr) each() []*spExpr {
	if x.multi != nil {
		return x.multi
	}
	return []*spExpr{x}
}

func (e *spEngine) exprArgs(fam string, vs []value, pos []int, strAsCol bool) ([]*spExpr, error) {
	var out []*spExpr
	for i, v := range vs {
		p := -1
		if len(pos) > 0 {
			p = pos[min(i, len(pos)-1)]
		}
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

func spCombine(x *spExpr, parts ...*spExpr) *spExpr {
	for _, p := range parts {
		x.agg = x.agg || p.agg
		x.orderDep = x.orderDep || p.orderDep
	}
	return x
}

// derive is a new expression from x (x's name; a Column loses its alias).
func (x *spExpr) derive(sql string) *spExpr {
	y := &spExpr{fam: x.fam, sql: sql, name: x.name, pos: x.pos, agg: x.agg, orderDep: x.orderDep}
	if x.fam == "F" {
		y.name = ""
	}
	return y
}

func (e *spEngine) unary(op string, xe Expr, pos int) (value, error) {
	x, err := e.operand(xe.exprFamily(), xe, pos)
	if err != nil {
		return nil, err
	}
	switch op {
	case "-":
		return x.derive("(- " + x.sql + ")"), nil
	case "+":
		return x, nil
	case "~":
		return x.derive("(NOT " + x.sql + ")"), nil
	}
	return nil, unsupportedAt(pos, "", "the operator %s", op)
}

func (e *spEngine) binary(op string, lv, rv value, pos int) (value, error) {
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
	name := l.name
	if fam == "nw" && reflected {
		name = "literal"
	}
	if fam == "nw" && l.lit && !reflected {
		name = l.name
	}
	out := spCombine(&spExpr{fam: fam, pos: l.pos, name: name}, l, r)
	if fam == "F" {
		out.name = ""
	}
	a, b := l.sql, r.sql
	switch op {
	case "+", "-", "*":
		out.sql = "(" + a + " " + op + " " + b + ")"
	case "/":
		if fam == "nw" {
			// narwhals' true_divide: x/0 is NaN or an infinity, as Polars.
			out.sql = fmt.Sprintf("CASE WHEN (%[2]s != 0) THEN try_divide(%[1]s, %[2]s) WHEN (%[2]s = 0) THEN CASE WHEN (%[1]s = 0) THEN CAST('NaN' AS DOUBLE) WHEN (%[1]s > 0) THEN CAST('Infinity' AS DOUBLE) WHEN (%[1]s < 0) THEN CAST('-Infinity' AS DOUBLE) END END", a, b)
		} else {
			out.sql = "(" + a + " / " + b + ")"
		}
	case "//":
		if fam == "nw" {
			div := fmt.Sprintf("CASE WHEN (%[2]s != 0) THEN try_divide(%[1]s, %[2]s) WHEN (%[2]s = 0) THEN CASE WHEN (%[1]s = 0) THEN CAST('NaN' AS DOUBLE) WHEN (%[1]s > 0) THEN CAST('Infinity' AS DOUBLE) WHEN (%[1]s < 0) THEN CAST('-Infinity' AS DOUBLE) END END", a, b)
			out.sql = fmt.Sprintf("CASE WHEN (%s != 0) THEN FLOOR(%s) ELSE NULL END", b, div)
		} else {
			return nil, laktoryErr(pos, "TypeError: unsupported operand type(s) for //: 'Column' and '%s'", pyType(rv))
		}
	case "%":
		if fam == "nw" {
			out.sql = fmt.Sprintf("(((%[1]s %% %[2]s) + %[2]s) %% %[2]s)", a, b)
		} else {
			out.sql = "(" + a + " % " + b + ")"
		}
	case "**":
		out.sql = "POWER(" + a + ", " + b + ")"
	case "==":
		out.sql = "(" + a + " = " + b + ")"
	case "!=":
		if fam == "F" {
			out.sql = "(NOT (" + a + " = " + b + "))"
		} else {
			out.sql = "(" + a + " != " + b + ")"
		}
	case "<", "<=", ">", ">=":
		out.sql = "(" + a + " " + op + " " + b + ")"
	case "&":
		out.sql = "(" + a + " AND " + b + ")"
	case "|":
		out.sql = "(" + a + " OR " + b + ")"
	case "^":
		if fam == "nw" {
			out.sql = fmt.Sprintf("((%[1]s OR %[2]s) AND (NOT (%[1]s AND %[2]s)))", a, b)
		} else {
			out.sql = "(" + a + " ^ " + b + ")"
		}
	default:
		return nil, unsupportedAt(pos, "", "the operator %s on expressions", op)
	}
	if reflected && (op == "-" || op == "/" || op == "//" || op == "%" || op == "**") {
		// Python evaluated r.__rop__(l): l and r are in written order.
		_ = reflected
	}
	return out, nil
}

func (e *spEngine) attr(xe Expr, name string, pos int) (value, error) {
	x := xe.(*spExpr)
	if x.fam == "F" {
		if name == "__getitem__" {
			return &callable{key: "F.Column.getItem", name: "getItem", recv: x}, nil
		}
		if !hasLibraryName("F.Column", name) {
			// A Column's attribute is a struct field (col.field).
			if !strings.HasPrefix(name, "_") {
				return x.derive(x.sql + "." + sparkIdent(name)), nil
			}
			return nil, laktoryErr(pos, "AttributeError: 'Column' object has no attribute '%s'", name)
		}
		return &callable{key: "F.Column." + name, name: name, recv: x}, nil
	}
	if !hasLibraryName("nw.Expr", name) {
		if name == "__getitem__" {
			return nil, laktoryErr(pos, "TypeError: 'Expr' object is not subscriptable")
		}
		return nil, laktoryErr(pos, "AttributeError: 'Expr' object has no attribute '%s'", name)
	}
	if exprNamespaces[name] {
		return &namespace{family: "nw", name: name, x: x}, nil
	}
	return &callable{key: "nw.Expr." + name, name: name, recv: x}, nil
}

// spFn implements a function or method on PYSPARK.
type spFn func(e *spEngine, c *call, recv *spExpr) (value, error)

var spImpls = map[string]spFn{}

func regSp(fn spFn, keys ...string) {
	for _, k := range keys {
		spImpls[k] = fn
	}
}

func (e *spEngine) call(c *call) (value, error) {
	fn, ok := spImpls[c.fn.key]
	if !ok {
		if strings.HasPrefix(c.fn.key, "F.") && !strings.HasPrefix(c.fn.key, "F.Column.") {
			if spec, known := sparkFuncSpecs[strings.TrimPrefix(c.fn.key, "F.")]; known {
				return e.sparkFunc(c, strings.TrimPrefix(c.fn.key, "F."), spec)
			}
		}
		return nil, unsupportedAt(c.at, "", "%s", describeKey(c.fn.key))
	}
	var recv *spExpr
	if r, ok := c.fn.recv.(*spExpr); ok {
		recv = r
		if r.multi != nil {
			out := &spExpr{fam: r.fam, pos: r.pos}
			for _, x := range r.multi {
				v, err := fn(e, c, x)
				if err != nil {
					return nil, err
				}
				y, ok := v.(*spExpr)
				if !ok || y.multi != nil {
					return nil, unsupportedAt(c.at, "", "%s on a multi-column selection", describeKey(c.fn.key))
				}
				out.multi = append(out.multi, y)
			}
			return out, nil
		}
	}
	return fn(e, c, recv)
}

// typeOf types an expression over the frame with the Spark SQL front end.
func (e *spEngine) typeOf(x *spExpr) (*sparksql.Type, error) {
	s, err := e.resolve(x.sql, nil, "", false)
	if err != nil {
		return nil, err
	}
	r, err := sparksql.TranslateExpr(s, sparksql.ExprInput{Schema: sparkSchema(e.ev.frame)}, e.ev.env.Spark, true)
	if err != nil {
		return nil, sparkError(err, x.pos)
	}
	return r.Type, nil
}

func sparkSchema(r *relation) []sparksql.Column {
	out := make([]sparksql.Column, len(r.cols))
	for i, c := range r.cols {
		out[i] = sparksql.Column{Name: c.name, Type: c.st}
	}
	return out
}

// sparkError is a Spark SQL front end error of generated SQL: Spark's
// analysis error fails in Laktory; a construct the translation lacks is
// not supported.
func sparkError(err error, pos int) error {
	var se *sparksql.Error
	if !errors.As(err, &se) {
		return err
	}
	if errors.Is(err, sparksql.ErrSpark) {
		msg := se.Error()
		if !strings.HasPrefix(msg, "AnalysisException") {
			msg = "AnalysisException: " + msg
		}
		return &Error{Pos: pos, Msg: msg, Hint: se.Hint, kind: ErrLaktory}
	}
	return &Error{Pos: pos, Msg: se.Error(), Hint: se.Hint, kind: ErrUnsupported}
}

// sparkTypeCall is a T.* type instance's Spark SQL type.
func sparkTypeCall(c *call, name string) (string, error) {
	simple := map[string]string{"IntegerType": "INT", "LongType": "BIGINT", "ShortType": "SMALLINT", "ByteType": "TINYINT",
		"StringType": "STRING", "DoubleType": "DOUBLE", "FloatType": "FLOAT", "BooleanType": "BOOLEAN", "DateType": "DATE",
		"TimestampType": "TIMESTAMP", "TimestampNTZType": "TIMESTAMP_NTZ", "BinaryType": "BINARY", "NullType": "VOID"}
	if s, ok := simple[name]; ok {
		if _, err := c.bind(""); err != nil {
			return "", err
		}
		return s, nil
	}
	switch name {
	case "DecimalType":
		a, err := c.bind("precision=10, scale=0")
		if err != nil {
			return "", err
		}
		p, _ := a.get("precision").(int64)
		s, _ := a.get("scale").(int64)
		return fmt.Sprintf("DECIMAL(%d,%d)", p, s), nil
	case "ArrayType":
		a, err := c.bind("elementType, containsNull=True")
		if err != nil {
			return "", err
		}
		d, ok := a.get("elementType").(*dtypeVal)
		if !ok || d.spark == "" {
			return "", unsupportedAt(c.at, "", "ArrayType of %s", pyType(a.get("elementType")))
		}
		return "ARRAY<" + d.spark + ">", nil
	}
	return "", unsupportedAt(c.at, "", "the PySpark type %s", name)
}

// sparkTypeArg is a cast target: a T.* instance or a type string.
func sparkTypeArg(v value, pos int) (string, error) {
	switch d := v.(type) {
	case *dtypeVal:
		if d.family != "T" {
			return "", laktoryErr(pos, "PySparkTypeError: [NOT_DATATYPE_OR_STR] Argument `dataType` should be a DataType or str, got %s.", d.name)
		}
		if d.class {
			return "", laktoryErr(pos, "PySparkTypeError: [NOT_DATATYPE_OR_STR] Argument `dataType` should be a DataType or str, got type.")
		}
		return d.spark, nil
	case string:
		if _, err := sparksql.ParseType(d); err != nil {
			return "", laktoryErr(pos, "ParseException: [PARSE_SYNTAX_ERROR] the type %s: %v", pyStr(d), err)
		}
		return d, nil
	}
	return "", laktoryErr(pos, "PySparkTypeError: [NOT_DATATYPE_OR_STR] Argument `dataType` should be a DataType or str, got %s.", pyType(v))
}

// nwSparkType is the Spark type narwhals casts a narwhals dtype to.
func nwSparkType(v value, pos int) (string, error) {
	d, ok := v.(*dtypeVal)
	if !ok || d.family == "T" {
		return "", laktoryErr(pos, "TypeError: Expected a narwhals data type, got %s", pyType(v))
	}
	t := d.pl
	if t == nil {
		var err error
		if t, err = polarsDtype(d.name, nil); err != nil {
			return "", err
		}
	}
	return sparkTypeOfPolars(t, d.name, pos)
}

func sparkTypeOfPolars(t *DType, name string, pos int) (string, error) {
	switch t.Kind {
	case DBool:
		return "BOOLEAN", nil
	case DInt8:
		return "TINYINT", nil
	case DInt16:
		return "SMALLINT", nil
	case DInt32:
		return "INT", nil
	case DInt64:
		return "BIGINT", nil
	case DFloat32:
		return "FLOAT", nil
	case DFloat64:
		return "DOUBLE", nil
	case DString:
		return "STRING", nil
	case DBinary:
		return "BINARY", nil
	case DDate:
		return "DATE", nil
	case DDecimal:
		return fmt.Sprintf("DECIMAL(%d,%d)", t.P, t.S), nil
	case DDatetime:
		if t.Zone != "" {
			return "TIMESTAMP", nil
		}
		return "TIMESTAMP_NTZ", nil
	case DList:
		inner, err := sparkTypeOfPolars(t.Inner, "", pos)
		if err != nil {
			return "", err
		}
		return "ARRAY<" + inner + ">", nil
	case DUInt8, DUInt16, DUInt32, DUInt64:
		return "", laktoryErr(pos, "UnsupportedDTypeError: Converting to %s dtype is not supported for Spark-Like backend.", t.String())
	}
	return "", unsupportedAt(pos, "", "casting to %s on PYSPARK", t)
}
