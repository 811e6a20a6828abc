// Package spark is the Spark SQL dialect of PYSPARK nodes (Laktory's
// default backend): a dialect.Translator that turns a node's Spark SQL, and
// the expressions Laktory's own parser reads, into DuckDB SQL with Spark's
// semantics through runner/sparksql.
package spark

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"github.com/laktory/workbench/runner/dialect"
	"github.com/laktory/workbench/runner/polarssql"
	"github.com/laktory/workbench/runner/sparksql"
	"github.com/laktory/workbench/runner/sqlfront"
	"github.com/laktory/workbench/workspace"
)

// Translator translates the Spark SQL of a PYSPARK node (Laktory's
// default backend) to DuckDB SQL with Spark's semantics (runner/sparksql),
// in the session settings Opts (Options of the node).
type Translator struct {
	Opts sparksql.Options
}

// Translate implements dialect.Translator.
func (d Translator) Translate(ctx context.Context, st dialect.Step) (dialect.Result, error) {
	if err := ctx.Err(); err != nil {
		return dialect.Result{}, err
	}
	var inputs []sparksql.Input
	for _, in := range st.Inputs {
		if in.Columns == nil {
			return failed(-1, fmt.Sprintf("the columns of {%s} are not known, so its Spark SQL cannot be checked", in.Ref), "run the nodes it reads once, or make its source files available"), nil
		}
		sin := sparksql.Input{Ref: in.Ref, SQL: dialect.QuoteIdent(in.Relation)}
		for _, c := range in.Columns {
			t, err := sparksql.FromDuckDB(c.Type)
			if err != nil {
				return failed(-1, fmt.Sprintf("column `%s` of {%s}: %v", c.Name, in.Ref, err), "cast it to a Spark type in the step that produces it"), nil
			}
			sin.Schema = append(sin.Schema, sparksql.Column{Name: c.Name, Type: t})
		}
		inputs = append(inputs, sin)
	}
	var sql string
	var err error
	switch st.Kind {
	case dialect.Query:
		var r *sparksql.Result
		if r, err = sparksql.Translate(st.Text, inputs, d.Opts); err == nil {
			sql = r.SQL
		}
	case dialect.LaktoryExpression:
		var cols []dialect.Column
		if len(st.Inputs) > 0 {
			cols = st.Inputs[0].Columns
		}
		text, check, name, at, res := laktorySpark(st.Text, cols)
		if res != nil {
			return *res, nil
		}
		var schema []sparksql.Column
		if len(inputs) > 0 {
			schema = inputs[0].Schema
		}
		r, err := sparksql.TranslateExpr(text, sparksql.ExprInput{Schema: schema}, d.Opts, true)
		if err != nil {
			var se *sparksql.Error
			if !errors.As(err, &se) {
				return dialect.Result{}, err
			}
			// The offsets are of the Spark SQL written for the narwhals
			// expression, not of the text.
			res := failed(at, se.Error(), se.Hint)
			res.Diagnostics[0].Rejected = errors.Is(err, sparksql.ErrSpark)
			return res, nil
		}
		out := dialect.Result{SQL: r.SQL, Name: name}
		if check != text {
			// The same expression with comparisons made total: if Spark
			// translated the one, it translates the other.
			c, err := sparksql.TranslateExpr(check, sparksql.ExprInput{Schema: schema}, d.Opts, true)
			if err != nil {
				return dialect.Result{}, fmt.Errorf("the pandas form of %q: %w", st.Text, err)
			}
			out.Check = c.SQL
		}
		return out, nil
	case dialect.Expression, dialect.Predicate:
		var schema []sparksql.Column
		if len(inputs) > 0 {
			schema = inputs[0].Schema
		}
		var r *sparksql.ExprResult
		if st.Kind == dialect.Predicate {
			r, err = sparksql.TranslatePredicate(st.Text, sparksql.ExprInput{Schema: schema}, d.Opts)
		} else {
			r, err = sparksql.TranslateExpr(st.Text, sparksql.ExprInput{Schema: schema}, d.Opts, true)
		}
		if err == nil {
			sql = r.SQL
		}
	default:
		return dialect.Result{}, fmt.Errorf("unknown kind of SQL %d", st.Kind)
	}
	if err != nil {
		var se *sparksql.Error
		if !errors.As(err, &se) {
			return dialect.Result{}, err
		}
		res := failed(se.Pos, se.Error(), se.Hint)
		res.Diagnostics[0].Rejected = errors.Is(err, sparksql.ErrSpark)
		return res, nil
	}
	return dialect.Result{SQL: sql}, nil
}

// laktorySpark reads an expression of Laktory's own SQL parser on the
// PYSPARK backend: it accepts what laktory/sqlparser.py accepts (checked
// by polarssql's translation of that parser, with Laktory's messages;
// columns resolve without case, as Spark's do) and returns the Spark SQL
// of the narwhals expression the parser builds, as narwhals 2.29.0 builds
// it for Spark (true division with NaN and infinities by zero, floored
// modulo, COUNT as count(*), SUM of no rows 0, float literals as doubles),
// and the column name narwhals gives it, with the offset of the text an
// error of that SQL is at (-1: the text). check is the Spark SQL of the
// same narwhals expression over a pandas frame, as Laktory's expectation
// check evaluates it (narwhalsPandas). A non-nil Result is the refusal.
func laktorySpark(text string, cols []dialect.Column) (sql, check, name string, at int, _ *dialect.Result) {
	refuse := func(err error) (string, string, string, int, *dialect.Result) {
		var fe *sqlfront.Error
		if !errors.As(err, &fe) {
			res := failed(-1, err.Error(), "")
			return "", "", "", -1, &res
		}
		res := failed(fe.Pos, fe.Error(), fe.Hint)
		res.Diagnostics[0].Rejected = errors.Is(err, sqlfront.ErrRejected)
		return "", "", "", -1, &res
	}
	e, err := polarssql.LaktorySyntax.ParseExpr(text)
	if err != nil {
		return refuse(err)
	}
	var pcols []polarssql.Column
	for _, c := range cols {
		if t, err := polarssql.FromDuckDB(c.Type); err == nil {
			pcols = append(pcols, polarssql.Column{Name: c.Name, Type: t})
		}
	}
	// Spark resolves names without case (spark.sql.caseSensitive).
	walkLaktory(e, func(x sqlfront.Expr) {
		cr, ok := x.(*sqlfront.ColumnRef)
		if !ok || len(cr.Parts) == 0 {
			return
		}
		name := cr.Parts[0].Name
		exact, fold := false, -1
		for i, c := range pcols {
			exact = exact || c.Name == name
			if strings.EqualFold(c.Name, name) {
				fold = i
			}
		}
		if !exact && fold >= 0 {
			pcols = append(pcols, polarssql.Column{Name: name, Type: pcols[fold].Type})
		}
	})
	x, err := polarssql.TranslateLaktoryExpr(text, "", pcols)
	var fe *sqlfront.Error
	if errors.As(err, &fe) && (fe.Class == "ColumnNotFoundError" || fe.Class == "StructFieldNotFoundError") {
		// Spark's analyzer says what it does not find (or finds a column
		// of a type polars lacks).
		return narwhalsSpark(e, nil), narwhalsSpark(e, pandasFloats(pcols)), leftmostName(e), fe.Pos, nil
	}
	if err != nil {
		return refuse(err)
	}
	return narwhalsSpark(e, nil), narwhalsSpark(e, pandasFloats(pcols)), x.Name, -1, nil
}

// walkLaktory calls f on e and the expressions below it (the forms
// Laktory's parser accepts).
func walkLaktory(e sqlfront.Expr, f func(sqlfront.Expr)) {
	f(e)
	switch n := e.(type) {
	case *sqlfront.Paren:
		walkLaktory(n.X, f)
	case *sqlfront.Binary:
		walkLaktory(n.L, f)
		walkLaktory(n.R, f)
	case *sqlfront.Unary:
		walkLaktory(n.X, f)
	case *sqlfront.IsNull:
		walkLaktory(n.X, f)
	case *sqlfront.IsBool:
		walkLaktory(n.X, f)
	case *sqlfront.Call:
		for _, a := range n.Args {
			walkLaktory(a, f)
		}
	}
}

// leftmostName is the name narwhals gives an expression: its leftmost
// column's (a struct field's own name), "literal" when that is a
// constant.
func leftmostName(e sqlfront.Expr) string {
	switch n := e.(type) {
	case *sqlfront.ColumnRef:
		return n.Parts[len(n.Parts)-1].Name
	case *sqlfront.Paren:
		return leftmostName(n.X)
	case *sqlfront.Binary:
		return leftmostName(n.L)
	case *sqlfront.Unary:
		return leftmostName(n.X)
	case *sqlfront.IsNull:
		return leftmostName(n.X)
	case *sqlfront.IsBool:
		return leftmostName(n.X)
	case *sqlfront.Call:
		if len(n.Args) > 0 {
			return leftmostName(n.Args[0])
		}
	}
	return "literal"
}

// pandasFloats is the pandas form's question for narwhalsSpark: whether
// an expression over cols is a float (Float32 or Float64: what toPandas
// makes a float64 or float32 column that may hold NaN).
func pandasFloats(cols []polarssql.Column) func(sqlfront.Expr) bool {
	floats := map[string]bool{}
	for _, c := range cols {
		if c.Type != nil && (c.Type.Kind == polarssql.Float32 || c.Type.Kind == polarssql.Float64) {
			floats[strings.ToLower(c.Name)] = true
		}
	}
	var float func(sqlfront.Expr) bool
	float = func(e sqlfront.Expr) bool {
		switch n := e.(type) {
		case *sqlfront.Paren:
			return float(n.X)
		case *sqlfront.ColumnRef:
			return len(n.Parts) == 1 && floats[strings.ToLower(n.Parts[0].Name)]
		case *sqlfront.Literal:
			return n.Kind == sqlfront.LitDecimal || n.Kind == sqlfront.LitDouble
		case *sqlfront.Unary:
			return n.Op != "NOT" && float(n.X)
		case *sqlfront.Binary:
			switch n.Op {
			case "/":
				return true
			case "+", "-", "*", "%":
				return float(n.L) || float(n.R)
			}
		case *sqlfront.Call:
			switch strings.ToLower(n.Name.Name) {
			case "avg", "power", "pow", "exp", "cbrt":
				return true
			case "abs", "round", "floor", "min", "max", "sum":
				return len(n.Args) > 0 && float(n.Args[0])
			}
		}
		return false
	}
	return float
}

// narwhalsSpark is the Spark SQL of the narwhals expression Laktory's
// parser builds from e (which it accepted). With pandasFloat (non-nil:
// it says which expressions are floats), it is that expression as
// narwhals evaluates it over the pandas copy of the frame that Laktory
// 0.13.1 checks expectations on (DataQualityExpectation._check_df
// collects a PySpark frame with backend="pandas"): toPandas turns a NULL
// into None or NaN, and a pandas comparison with either is false (!= is
// true), so a comparison is never NULL there; arithmetic and functions
// carry the missing value to it; IS NULL is isna; aggregates skip missing
// values, as Spark's do (COUNT counts every row, as narwhals' len). A
// float NaN, which Spark compares as equal to itself and above every
// number, is a missing value to pandas too: a float operand of a
// comparison, of IS NULL and of an aggregate is NULL where it is NaN.
func narwhalsSpark(e sqlfront.Expr, pandasFloat func(sqlfront.Expr) bool) string {
	pandas := pandasFloat != nil
	sub := func(e sqlfront.Expr) string { return narwhalsSpark(e, pandasFloat) }
	// operand is sub(e), NULL where it is NaN in the pandas form.
	operand := func(e sqlfront.Expr) string {
		s := sub(e)
		if pandas && pandasFloat(e) {
			return "CASE WHEN isnan(" + s + ") THEN NULL ELSE " + s + " END"
		}
		return s
	}
	switch n := e.(type) {
	case *sqlfront.Paren:
		return sub(n.X)
	case *sqlfront.ColumnRef:
		return sqlfront.FormatExpr(n)
	case *sqlfront.Literal:
		if n.Kind == sqlfront.LitDecimal || n.Kind == sqlfront.LitDouble {
			// nw.lit(1.5): a Python float, a DoubleType literal.
			return "CAST('" + n.Value + "' AS DOUBLE)"
		}
		return sqlfront.FormatExpr(n)
	case *sqlfront.IsNull:
		if n.Not {
			return "(" + operand(n.X) + " IS NOT NULL)"
		}
		return "(" + operand(n.X) + " IS NULL)"
	case *sqlfront.IsBool:
		// (x == lit(TRUE)).fill_null(False)
		s := "coalesce(" + sub(n.X) + " = " + n.Value + ", false)"
		if n.Not {
			s = "(NOT " + s + ")"
		}
		return s
	case *sqlfront.Unary:
		if n.Op == "+" {
			return sub(n.X)
		}
		return "(NOT " + sub(n.X) + ")"
	case *sqlfront.Binary:
		a, b := sub(n.L), sub(n.R)
		switch n.Op {
		case "/":
			return fmt.Sprintf("CASE WHEN (%[2]s != 0) THEN try_divide(%[1]s, %[2]s) WHEN (%[2]s = 0) THEN CASE WHEN (%[1]s = 0) THEN CAST('NaN' AS DOUBLE) WHEN (%[1]s > 0) THEN CAST('Infinity' AS DOUBLE) WHEN (%[1]s < 0) THEN CAST('-Infinity' AS DOUBLE) END END", a, b)
		case "%":
			return fmt.Sprintf("(((%[1]s %% %[2]s) + %[2]s) %% %[2]s)", a, b)
		case "==":
			n = &sqlfront.Binary{Op: "=", L: n.L, R: n.R}
		}
		s := "(" + a + " " + n.Op + " " + b + ")"
		if pandas {
			switch n.Op {
			case "=", "<", "<=", ">", ">=", "!=", "<>":
				s = "(" + operand(n.L) + " " + n.Op + " " + operand(n.R) + ")"
			}
			switch n.Op {
			case "=", "<", "<=", ">", ">=":
				s = "coalesce(" + s + ", false)"
			case "!=", "<>":
				s = "coalesce(" + s + ", true)"
			}
		}
		return s
	case *sqlfront.Call:
		name := strings.ToLower(n.Name.Name)
		x := sub(n.Args[0])
		switch name {
		case "sum", "avg", "min", "max":
			// pandas skips NaN as a missing value.
			x = operand(n.Args[0])
		}
		switch name {
		case "count":
			return "count(*)"
		case "sum":
			return "coalesce(sum(" + x + "), 0)"
		case "round":
			return "round(" + x + ", 0)"
		}
		return name + "(" + x + ")"
	}
	return sqlfront.FormatExpr(e)
}

func failed(off int, msg, hint string) dialect.Result {
	return dialect.Result{Diagnostics: []dialect.Diagnostic{{Offset: off, Severity: workspace.SeverityError, Message: msg, Hint: hint}}}
}

// Options are the session settings of a node's Spark SQL: its
// effective spark_conf (spark.sql.session.timeZone).
func Options(n *workspace.Node) sparksql.Options {
	return sparksql.Options{TimeZone: n.SparkConf["spark.sql.session.timeZone"]}
}
