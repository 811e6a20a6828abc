package polarssql

import (
	"context"
	"errors"
	"fmt"
	"strconv"
	"strings"

	"github.com/laktory/workbench/runner/dialect"
	"github.com/laktory/workbench/runner/sqlfront"
	"github.com/laktory/workbench/workspace"
)

// Translator is the Polars SQL dialect as the runner's dialect seam
// (dialect.Translator) for POLARS nodes: an `expr` step (dialect.Query)
// is polars' SQLContext (Translate), an expression of Laktory's own SQL
// parser (dialect.LaktoryExpression: a source's filter and selects, an
// expectation) is TranslateLaktoryExpr, any other expression
// (dialect.Expression; dialect.Predicate: a merge's delete condition) is
// polars' sql_expr (TranslateExpr).
type Translator struct{}

// Translate implements dialect.Translator.
func (Translator) Translate(ctx context.Context, st dialect.Step) (dialect.Result, error) {
	if err := ctx.Err(); err != nil {
		return dialect.Result{}, err
	}
	var inputs []Input
	for _, in := range st.Inputs {
		if in.Columns == nil {
			return failed(-1, fmt.Sprintf("the columns of {%s} are not known, so its Polars SQL cannot be checked", in.Ref), "run the nodes it reads once, or make its source files available", false), nil
		}
		pin := Input{Ref: in.Ref, SQL: dialect.QuoteIdent(in.Relation)}
		var items []string
		cast := false
		for _, c := range in.Columns {
			t, err := FromDuckDB(c.Type)
			if err != nil {
				return failed(-1, fmt.Sprintf("column `%s` of {%s}: %v", c.Name, in.Ref, err), "cast it in the step that produces it", false), nil
			}
			pin.Schema = append(pin.Schema, Column{Name: c.Name, Type: t})
			q := dialect.QuoteIdent(c.Name)
			if u := strings.ToUpper(c.Type); strings.Contains(u, "JSON") || strings.Contains(u, "HUGEINT") {
				// Held in polars' dtype's own DuckDB type.
				q, cast = "CAST("+q+" AS "+t.DuckDB()+") AS "+q, true
			}
			items = append(items, q)
		}
		if cast {
			pin.SQL = "(SELECT " + strings.Join(items, ", ") + " FROM " + pin.SQL + ")"
		}
		inputs = append(inputs, pin)
	}
	if st.Kind != dialect.Query {
		var cols []Column
		if len(inputs) > 0 {
			cols = inputs[0].Schema
		}
		var x *Expr
		var err error
		switch st.Kind {
		case dialect.LaktoryExpression:
			x, err = TranslateLaktoryExpr(st.Text, "", cols)
		case dialect.Expression, dialect.Predicate:
			x, err = TranslateExpr(st.Text, cols)
		default:
			return dialect.Result{}, fmt.Errorf("unknown kind of SQL %d", st.Kind)
		}
		if err != nil {
			return frontError(err)
		}
		return dialect.Result{SQL: x.SQL, Name: x.Name}, nil
	}
	r, err := Translate(st.Text, inputs)
	if err != nil {
		return frontError(err)
	}
	for _, c := range r.Columns {
		if _, err := c.Type.Delta(); err != nil {
			return failed(-1, fmt.Sprintf("column `%s` is %s: Laktory's Delta sink fails on it (%v)", c.Name, c.Type, err), "cast it to a type delta-rs writes", false), nil
		}
	}
	return dialect.Result{SQL: r.SQL}, nil
}

// frontError is the diagnostic of the front end's error: polars' (or
// Laktory's) rejection is Rejected, the rest is not translated locally.
func frontError(err error) (dialect.Result, error) {
	var fe *sqlfront.Error
	if !errors.As(err, &fe) {
		return dialect.Result{}, err
	}
	return failed(fe.Pos, fe.Error(), fe.Hint, errors.Is(err, ErrPolars)), nil
}

// TranslateExpr translates one expression of polars' sql_expr (Polars
// SQL, as a SELECT item reads it) over cols, whose SQL names are the
// quoted column names.
func TranslateExpr(text string, cols []Column) (_ *Expr, err error) {
	defer func() {
		if v := recover(); v != nil {
			err = sqlfront.Unsupported(0, "report the expression", "this expression (internal error of the Polars SQL translation: %v)", v)
		}
	}()
	e, err := Syntax.ParseExpr(text)
	if err != nil {
		return nil, err
	}
	sc := &scope{}
	for _, c := range cols {
		sc.cols = append(sc.cols, &scopeCol{column: &column{name: c.Name, t: c.Type, sql: dialect.QuoteIdent(c.Name)}, starName: c.Name})
	}
	x, err := (&resolver{inputs: map[string]*Input{}}).expr(e, sc, false)
	if err != nil {
		return nil, err
	}
	return &Expr{SQL: x.sql, Name: x.name, Type: x.t, Aggregate: x.agg}, nil
}

func failed(off int, msg, hint string, rejected bool) dialect.Result {
	return dialect.Result{Diagnostics: []dialect.Diagnostic{{Offset: off, Severity: workspace.SeverityError, Message: msg, Hint: hint, Rejected: rejected}}}
}

// FromDuckDB is the Polars dtype of a column DuckDB holds as type s (as
// DESCRIBE prints it): the dtype Type.DuckDB maps back to s.
func FromDuckDB(s string) (*Type, error) {
	u := strings.ToUpper(strings.TrimSpace(s))
	if e, ok := strings.CutSuffix(u, "[]"); ok {
		el, err := FromDuckDB(e)
		if err != nil {
			return nil, err
		}
		return &Type{Kind: List, Elem: el}, nil
	}
	if strings.HasPrefix(u, "STRUCT(") && strings.HasSuffix(u, ")") {
		t := &Type{Kind: Struct}
		body := strings.TrimSpace(s)[len("STRUCT(") : len(strings.TrimSpace(s))-1]
		for _, f := range splitFields(body) {
			name, rest, err := fieldName(strings.TrimSpace(f))
			if err != nil {
				return nil, fmt.Errorf("the DuckDB type %s has no Polars dtype here", s)
			}
			ft, err := FromDuckDB(rest)
			if err != nil {
				return nil, err
			}
			t.Fields = append(t.Fields, Field{Name: name, Type: ft})
		}
		return t, nil
	}
	if rest, ok := strings.CutPrefix(u, "DECIMAL("); ok {
		p, sc, _ := strings.Cut(strings.TrimSuffix(rest, ")"), ",")
		pi, err1 := strconv.Atoi(strings.TrimSpace(p))
		si, err2 := strconv.Atoi(strings.TrimSpace(sc))
		if err1 != nil || err2 != nil {
			return nil, fmt.Errorf("the DuckDB type %s has no Polars dtype here", s)
		}
		return &Type{Kind: Decimal, P: pi, S: si}, nil
	}
	simple := map[string]*Type{
		// DuckDB's readers type a JSON key that is null in every object
		// JSON, where polars' is Null; and integers of both signs beyond
		// what one of BIGINT and UBIGINT holds HUGEINT, where polars'
		// are Int64. Translator casts such columns to the dtype's type.
		"JSON": tNull, "HUGEINT": tInt64,
		"BOOLEAN": tBool, "TINYINT": {Kind: Int8}, "SMALLINT": {Kind: Int16}, "INTEGER": tInt32, "BIGINT": tInt64,
		"UTINYINT": {Kind: UInt8}, "USMALLINT": {Kind: UInt16}, "UINTEGER": tUInt32, "UBIGINT": {Kind: UInt64},
		"FLOAT": tFloat32, "DOUBLE": tFloat64, "VARCHAR": tString, "BLOB": {Kind: Binary}, "DATE": {Kind: Date},
		"TIMESTAMP": {Kind: Datetime, Unit: "us"}, "TIMESTAMP_NS": {Kind: Datetime, Unit: "ns"}, "TIMESTAMP_MS": {Kind: Datetime, Unit: "ms"},
		"TIMESTAMP WITH TIME ZONE": {Kind: Datetime, Unit: "us", Zone: "UTC"}, "TIMESTAMPTZ": {Kind: Datetime, Unit: "us", Zone: "UTC"},
		"TIME": {Kind: Time}, "INTERVAL": {Kind: Duration, Unit: "us"},
	}
	if t, ok := simple[u]; ok {
		return t, nil
	}
	return nil, fmt.Errorf("the DuckDB type %s has no Polars dtype here", s)
}

// splitFields splits a STRUCT's fields at the commas outside brackets and
// quoted names.
func splitFields(s string) []string {
	var out []string
	depth, start, quoted := 0, 0, false
	for i := 0; i < len(s); i++ {
		switch c := s[i]; {
		case c == '"':
			quoted = !quoted
		case quoted:
		case c == '(':
			depth++
		case c == ')':
			depth--
		case c == ',' && depth == 0:
			out = append(out, s[start:i])
			start = i + 1
		}
	}
	return append(out, s[start:])
}

// fieldName reads a STRUCT field's name (bare or double-quoted) and
// returns the type after it.
func fieldName(f string) (name, rest string, err error) {
	if strings.HasPrefix(f, `"`) {
		var b strings.Builder
		for i := 1; i < len(f); i++ {
			if f[i] == '"' {
				if i+1 < len(f) && f[i+1] == '"' {
					b.WriteByte('"')
					i++
					continue
				}
				return b.String(), strings.TrimSpace(f[i+1:]), nil
			}
			b.WriteByte(f[i])
		}
		return "", "", fmt.Errorf("unterminated name in %s", f)
	}
	name, rest, ok := strings.Cut(f, " ")
	if !ok {
		return "", "", fmt.Errorf("no type in %s", f)
	}
	return name, strings.TrimSpace(rest), nil
}
