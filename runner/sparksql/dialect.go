package sparksql

import (
	"fmt"

	"github.com/laktory/workbench/runner/sqlfront"
)

// Dialect is Spark SQL as a sqlfront.Dialect: expressions built with a
// sqlfront.Builder over Spark-typed columns resolve as the same Spark SQL
// text would (Spark's function table, type rules, names and errors).
func Dialect(opts Options) sqlfront.Dialect { return sparkDialect{opts: opts} }

type sparkDialect struct{ opts Options }

func (sparkDialect) Syntax() *sqlfront.Syntax { return sparkSyntax }

func (sparkDialect) ParseType(name string) (sqlfront.Type, error) {
	t, err := ParseType(name)
	if err != nil {
		return nil, err
	}
	return t, nil
}

func (d sparkDialect) Resolve(e sqlfront.Expr, cols []sqlfront.Column, agg bool) (_ *sqlfront.Value, err error) {
	var r *resolver
	defer recoverTranslation(FormatExpr(e), &r, &err)
	in := ExprInput{}
	for _, c := range cols {
		t, ok := c.Type.(*Type)
		if !ok {
			return nil, fmt.Errorf("sparksql: column %s has type %v of another dialect", c.Name, c.Type)
		}
		in.Schema = append(in.Schema, Column{Name: c.Name, Type: t})
	}
	if r, err = newResolver(d.opts); err != nil {
		return nil, err
	}
	x, err := r.expr(e, r.exprScope(in), &ectx{agg: agg, aggOK: agg, winOK: true})
	if err != nil {
		return nil, err
	}
	if x.gen != nil {
		return nil, unsupported(e.Pos(), "use a query step with LATERAL VIEW", "a generator (%s) in an expression", x.gen.name)
	}
	return &sqlfront.Value{Expr: e, Type: x.t, SQL: x.sql, Name: x.name, Aggregate: x.hasAgg, Window: x.hasWin}, nil
}
