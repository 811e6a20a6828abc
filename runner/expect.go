package runner

import (
	"context"
	"fmt"
	"slices"
	"strings"

	"github.com/laktory/workbench/runner/dialect"
	"github.com/laktory/workbench/workspace"
)

// expectResult is the node's output once expectations ran.
type expectResult struct {
	// out is the relation the regular sinks write (rows passing the DROP
	// and QUARANTINE expectations), quarantine the rows failing a
	// QUARANTINE one ("" without QUARANTINE expectations).
	out, quarantine string
	// rows counts the rows before expectations (-1 when not counted),
	// kept the rows of out (-1 likewise).
	rows, kept int64
	// messages are the WARN failures and the DROP/QUARANTINE counts.
	warnings []string
	notes    []string
	// materialized: out is a table (read it any number of times).
	materialized bool
}

// expectations evaluates the node's expectations over view df. Without
// expectations df is returned as is. Otherwise df is materialized once, so
// every count, filter and write sees the same rows; a FAIL expectation
// failing beyond its tolerance returns ErrExpectation.
func (c *compiler) expectations(ctx context.Context, df string) (expectResult, error) {
	res := expectResult{out: df, rows: -1, kept: -1}
	if len(c.n.Expectations) == 0 {
		return res, nil
	}
	tbl, total, err := c.s.table(ctx, "checked", "SELECT * FROM "+quoteIdent(df))
	if err != nil {
		return res, fmt.Errorf("%s: %w", c.where(), err)
	}
	res.rows, res.materialized = total, true
	// Expectations written as narwhals expressions are columns of a view
	// of tbl (ROW) or one-row queries (AGGREGATE), through runner/frame.
	fx, err := c.dfExpectations(ctx, tbl)
	if err != nil {
		return res, err
	}
	base, extra := tbl, ""
	if fx.rel != "" {
		base = fx.rel
		var names []string
		for _, i := range sortedInts(fx.cols) {
			names = append(names, quoteIdent(fx.cols[i]))
		}
		extra = " EXCLUDE (" + strings.Join(names, ", ") + ")"
	}
	exprs := make([]string, len(c.n.Expectations))
	for i, e := range c.n.Expectations {
		if col, ok := fx.cols[i]; ok {
			exprs[i] = quoteIdent(col)
			continue
		}
		if _, ok := fx.agg[i]; ok {
			continue
		}
		if exprs[i], err = c.translate(ctx, dialect.Expression, e.Expr, tbl, origin{what: fmt.Sprintf("expectation '%s'", e.Name), at: e.At("expr"), exact: true}); err != nil {
			return res, fmt.Errorf("%s: expectation '%s': %w", c.where(), e.Name, err)
		}
	}
	var counts []string
	var idx []int
	for i, e := range c.n.Expectations {
		if strings.EqualFold(e.Type, "AGGREGATE") {
			continue
		}
		// Laktory counts the rows of df.filter(~expr): a row the
		// expectation is NULL on is no failure (nor kept, nor quarantined).
		counts = append(counts, fmt.Sprintf("count(*) FILTER (WHERE NOT (%s))", exprs[i]))
		idx = append(idx, i)
	}
	failures := make([]int64, len(c.n.Expectations))
	if len(counts) > 0 {
		dest := make([]any, len(counts))
		for i := range dest {
			dest[i] = &failures[idx[i]]
		}
		if err := c.s.queryRow(ctx, fmt.Sprintf("SELECT %s FROM %s", strings.Join(counts, ", "), quoteIdent(base)), dest...); err != nil {
			return res, fmt.Errorf("%w: %s: evaluate expectations: %v", ErrExpectation, c.where(), err)
		}
	}
	var keep, quarantine []string
	for i, e := range c.n.Expectations {
		action := strings.ToUpper(e.Action)
		if action == "" {
			action = "WARN"
		}
		failed, what := false, ""
		if strings.EqualFold(e.Type, "AGGREGATE") {
			var ok *bool
			q := fmt.Sprintf("SELECT (%s) FROM %s", exprs[i], quoteIdent(tbl))
			if aq, isDF := fx.agg[i]; isDF {
				q = aq
			}
			if err := c.s.queryRow(ctx, q, &ok); err != nil {
				return res, fmt.Errorf("%w: %s: expectation '%s': %v", ErrExpectation, c.where(), e.Name, err)
			}
			failed, what = ok == nil || !*ok, "the aggregate is not true"
		} else {
			failed = beyondTolerance(e, failures[i], total)
			what = fmt.Sprintf("%d of %d rows fail it", failures[i], total)
		}
		switch action {
		case "DROP":
			keep = append(keep, "("+exprs[i]+") IS TRUE")
			if failures[i] > 0 {
				res.notes = append(res.notes, fmt.Sprintf("expectation '%s' (%s) dropped %d of %d rows", e.Name, e.Expr, failures[i], total))
			}
		case "QUARANTINE":
			keep = append(keep, "("+exprs[i]+") IS TRUE")
			quarantine = append(quarantine, "NOT ("+exprs[i]+")")
			if failures[i] > 0 {
				res.notes = append(res.notes, fmt.Sprintf("expectation '%s' (%s) quarantined %d of %d rows", e.Name, e.Expr, failures[i], total))
			}
		case "FAIL":
			if failed {
				return res, fmt.Errorf("%w: %s: expectation '%s' (%s) with action FAIL: %s; nothing was written",
					ErrExpectation, c.where(), e.Name, e.Expr, what)
			}
		default: // WARN
			if failed {
				res.warnings = append(res.warnings, fmt.Sprintf("%s: expectation '%s' (%s) failed: %s", c.where(), e.Name, e.Expr, what))
			}
		}
	}
	res.out = tbl
	res.kept = total
	if len(keep) > 0 {
		v, err := c.s.view(ctx, "kept", fmt.Sprintf("SELECT *%s FROM %s WHERE %s", extra, quoteIdent(base), strings.Join(keep, " AND ")))
		if err != nil {
			return res, err
		}
		res.out = v
		if res.kept, err = c.s.count(ctx, v); err != nil {
			return res, err
		}
	}
	if len(quarantine) > 0 {
		v, err := c.s.view(ctx, "quarantine", fmt.Sprintf("SELECT *%s FROM %s WHERE %s", extra, quoteIdent(base), strings.Join(quarantine, " OR ")))
		if err != nil {
			return res, err
		}
		res.quarantine = v
	}
	return res, nil
}

// beyondTolerance reports whether failures exceed an expectation's
// tolerance (abs rows, or rel fraction of total; default none tolerated).
func beyondTolerance(e *workspace.Expectation, failures, total int64) bool {
	switch {
	case e.ToleranceAbs != nil:
		return failures > *e.ToleranceAbs
	case e.ToleranceRel != nil && total > 0:
		return float64(failures)/float64(total) > *e.ToleranceRel
	}
	return failures > 0
}

func sortedInts[V any](m map[int]V) []int {
	keys := make([]int, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	return keys
}
