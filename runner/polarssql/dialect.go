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
// (dialect.Translator) for POLARS nodes' `expr` steps. Expressions
// (source filters and selects, expectations, with_columns) are evaluated
// by Laktory's own SQL parser or polars' sql_expr depending on where they
// stand and on the node's dataframe_api, which the seam does not say: it
// refuses them until the caller chooses.
type Translator struct{}

// Translate implements dialect.Translator.
func (Translator) Translate(ctx context.Context, st dialect.Step) (dialect.Result, error) {
	if err := ctx.Err(); err != nil {
		return dialect.Result{}, err
	}
	if st.Kind != dialect.Query {
		return failed(-1, "a POLARS node's SQL expression is evaluated by Laktory's SQL parser or polars' sql_expr, which is not translated locally yet", "", false), nil
	}
	var inputs []Input
	for _, in := range st.Inputs {
		if in.Columns == nil {
			return failed(-1, fmt.Sprintf("the columns of {%s} are not known, so its Polars SQL cannot be checked", in.Ref), "run the nodes it reads once, or make its source files available", false), nil
		}
		pin := Input{Ref: in.Ref, SQL: dialect.QuoteIdent(in.Relation)}
		for _, c := range in.Columns {
			t, err := FromDuckDB(c.Type)
			if err != nil {
				return failed(-1, fmt.Sprintf("column `%s` of {%s}: %v", c.Name, in.Ref, err), "cast it in the step that produces it", false), nil
			}
			pin.Schema = append(pin.Schema, Column{Name: c.Name, Type: t})
		}
		inputs = append(inputs, pin)
	}
	r, err := Translate(st.Text, inputs)
	if err != nil {
		var fe *sqlfront.Error
		if !errors.As(err, &fe) {
			return dialect.Result{}, err
		}
		return failed(fe.Pos, fe.Error(), fe.Hint, errors.Is(err, ErrPolars)), nil
	}
	for _, c := range r.Columns {
		if _, err := c.Type.Delta(); err != nil {
			return failed(-1, fmt.Sprintf("column `%s` is %s: Laktory's Delta sink fails on it (%v)", c.Name, c.Type, err), "cast it to a type delta-rs writes", false), nil
		}
	}
	return dialect.Result{SQL: r.SQL}, nil
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
