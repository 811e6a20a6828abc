package runner

import (
	"context"
	"errors"
	"fmt"

	"github.com/laktory/workbench/runner/dialect"
	"github.com/laktory/workbench/runner/sparksql"
	"github.com/laktory/workbench/workspace"
)

// sparkDialect translates the Spark SQL of a PYSPARK node (Laktory's
// default backend) to DuckDB SQL with Spark's semantics (runner/sparksql).
type sparkDialect struct {
	opts sparksql.Options
}

// Translate implements dialect.Translator.
func (d sparkDialect) Translate(ctx context.Context, st dialect.Step) (dialect.Result, error) {
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
		if r, err = sparksql.Translate(st.Text, inputs, d.opts); err == nil {
			sql = r.SQL
		}
	case dialect.Expression:
		var schema []sparksql.Column
		if len(inputs) > 0 {
			schema = inputs[0].Schema
		}
		var r *sparksql.ExprResult
		if r, err = sparksql.TranslateExpr(st.Text, sparksql.ExprInput{Schema: schema}, d.opts, true); err == nil {
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

func failed(off int, msg, hint string) dialect.Result {
	return dialect.Result{Diagnostics: []dialect.Diagnostic{{Offset: off, Severity: workspace.SeverityError, Message: msg, Hint: hint}}}
}

// sparkOptions are the session settings of a node's Spark SQL: its
// effective spark_conf (spark.sql.session.timeZone).
func sparkOptions(n *workspace.Node) sparksql.Options {
	return sparksql.Options{TimeZone: n.SparkConf["spark.sql.session.timeZone"]}
}
