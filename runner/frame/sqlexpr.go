package frame

import (
	"errors"
	"fmt"
	"strings"

	"github.com/laktory/workbench/runner/polarssql"
	"github.com/laktory/workbench/runner/sqlfront"
)

// sql_expr("..."): on the NARWHALS api Laktory's own SQL parser
// (laktory.narwhals_ext.functions.sql_expr, the expression computed by
// narwhals), on NATIVE POLARS polars' pl.sql_expr (Polars SQL). Both are
// the Polars SQL front end's (runner/polarssql) on POLARS.

func init() {
	reg(func(e *plEngine, c *call, _ *plExpr) (value, error) {
		a, err := c.bind("sql")
		if err != nil {
			return nil, err
		}
		s, ok := a.get("sql").(string)
		if !ok {
			return nil, laktoryErr(a.posOf("sql"), "TypeError: sql_expr expects a string, got %s", pyType(a.get("sql")))
		}
		return e.ev.sqlExpr(s, "laktory.sql_expr", a.posOf("sql"))
	}, "laktory.sql_expr", "nw.laktory.sql_expr")
	reg(func(e *plEngine, c *call, _ *plExpr) (value, error) {
		a, err := c.bind("sql")
		if err != nil {
			return nil, err
		}
		s, ok := a.get("sql").(string)
		if !ok {
			return nil, unsupportedAt(a.posOf("sql"), "pass one SQL string", "pl.sql_expr of a %s", pyType(a.get("sql")))
		}
		return e.ev.sqlExpr(s, "pl.sql_expr", a.posOf("sql"))
	}, "pl.sql_expr")
	regSp(func(e *spEngine, c *call, _ *spExpr) (value, error) {
		return nil, unsupportedAt(c.at, "write the expression with nw.col(...)", "Laktory's sql_expr on the PYSPARK backend")
	}, "laktory.sql_expr", "nw.laktory.sql_expr")
}

// sqlExpr translates sql_expr's text over the frame (pos: the string's
// offset in the argument, for errors).
func (ev *evaluator) sqlExpr(text, key string, pos int) (value, error) {
	if ev.env.Backend != Polars {
		return nil, unsupportedAt(pos, "write the expression with nw.col(...)", "%s on the PYSPARK backend", describeKey(key))
	}
	var cols []polarssql.Column
	for _, c := range ev.frame.cols {
		t, err := polarssql.FromDuckDB(c.t.Duck())
		if err != nil {
			return nil, unsupportedAt(pos, "", "sql_expr over the column %s (%s)", c.name, c.t)
		}
		cols = append(cols, polarssql.Column{Name: c.name, Type: t})
	}
	fam := "nw"
	var sql, name string
	var duck string
	var agg bool
	if key == "laktory.sql_expr" {
		x, err := polarssql.TranslateLaktoryExpr(text, "", cols)
		if err != nil {
			return nil, sqlfrontErr(err, pos, text)
		}
		sql, name, duck, agg = x.SQL, x.Name, x.Type.DuckDB(), x.Aggregate
	} else {
		// Polars SQL inside an expression: polarssql translates queries.
		return nil, unsupportedAt(pos, "write the expression with pl.col(...), or the step as SQL (`expr:`)", "pl.sql_expr (Polars SQL inside an expression)")
	}
	t := FromDuckDB(duck)
	// An aggregate (SUM(x)) is computed in groups only (groupby_and_agg).
	return &plExpr{fam: fam, t: t, sql: sql, name: name, pos: pos, agg: agg, scalar: agg, groupOnly: agg}, nil
}

// sqlfrontErr maps an error of the SQL front end: Laktory's (or Polars')
// rejection fails in Laktory, the rest is not supported locally.
func sqlfrontErr(err error, pos int, text string) error {
	var fe *sqlfront.Error
	if !errors.As(err, &fe) {
		return err
	}
	msg := fe.Msg
	if fe.Class != "" && !strings.HasPrefix(msg, fe.Class) {
		msg = fe.Class + ": " + msg
	}
	at := pos
	if pos >= 0 {
		// The string's offset plus its opening quote.
		at = pos + 1 + fe.Pos
	}
	kind := ErrUnsupported
	if errors.Is(err, sqlfront.ErrRejected) {
		kind = ErrLaktory
	}
	return &Error{Pos: at, Msg: fmt.Sprintf("%s (in sql_expr(%s))", msg, pyStr(text)), Hint: fe.Hint, kind: kind}
}
