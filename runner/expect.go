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
	// out is the relation the regular sinks write: the rows for which every
	// DROP and QUARANTINE expectation is TRUE (a row where one is NULL is in
	// neither out nor quarantine, as in Laktory). quarantine is what a
	// quarantine sink writes: the rows for which every QUARANTINE
	// expectation is FALSE (Laktory ANDs their fail filters), or every row
	// checked when the node has expectations but none is QUARANTINE
	// (Laktory's quarantine frame is then the whole frame); "" without
	// expectations.
	out, quarantine string
	// rows counts the rows before expectations (-1 when not counted),
	// kept the rows of out (-1 likewise).
	rows, kept int64
	// warnings are Laktory's messages of the expectations whose status is
	// FAIL with another action than FAIL; notes the DROP/QUARANTINE counts.
	warnings []string
	notes    []string
	// materialized: out is a table (read it any number of times).
	materialized bool
}

// expectations evaluates the node's expectations over view df as Laktory
// 0.13.1 does (PipelineNode.check_expectations, DataQualityExpectation
// .run_check): a ROW expectation's failures are the rows where it is FALSE
// (NULL is not a failure); its status is FAIL beyond the tolerance (abs,
// else rel of the rows; 0 rows always PASS, even for AGGREGATE); an
// AGGREGATE one FAILs unless its value is TRUE. A FAIL status warns with
// Laktory's message, or for action FAIL returns ErrExpectation. The output
// keeps the rows where the DROP and QUARANTINE expectations are all TRUE.
// Without expectations df is returned as is. Otherwise df is materialized
// once, so every count, filter and write sees the same rows.
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
		if exprs[i], err = c.translate(ctx, dialect.LaktoryExpression, e.Expr, tbl, origin{what: fmt.Sprintf("expectation '%s'", e.Name), at: e.At("expr"), exact: true}); err != nil {
			return res, fmt.Errorf("%s: expectation '%s': %w", c.where(), e.Name, err)
		}
	}
	// Per ROW expectation: the rows where it is FALSE (Laktory's fails
	// count: df.filter(~expr) keeps neither FALSE-negated NULLs) and where
	// it is NULL (removed silently by a DROP or QUARANTINE one).
	var counts []string
	var idx []int
	for i, e := range c.n.Expectations {
		if strings.EqualFold(e.Type, "AGGREGATE") {
			continue
		}
		counts = append(counts, fmt.Sprintf("count(*) FILTER (WHERE (%s) IS FALSE)", exprs[i]),
			fmt.Sprintf("count(*) FILTER (WHERE (%s) IS NULL)", exprs[i]))
		idx = append(idx, i)
	}
	failures := make([]int64, len(c.n.Expectations))
	nulls := make([]int64, len(c.n.Expectations))
	if len(counts) > 0 && total > 0 {
		dest := make([]any, len(counts))
		for k, i := range idx {
			dest[2*k], dest[2*k+1] = &failures[i], &nulls[i]
		}
		if err := c.s.queryRow(ctx, fmt.Sprintf("SELECT %s FROM %s", strings.Join(counts, ", "), quoteIdent(base)), dest...); err != nil {
			return res, fmt.Errorf("%w: %s: evaluate expectations: %v", ErrExpectation, c.where(), err)
		}
	}
	var keep, quarantine []string
	hasQuarantine := false
	for i, e := range c.n.Expectations {
		action := strings.ToUpper(e.Action)
		if action == "" {
			action = "WARN"
		}
		aggregate := strings.EqualFold(e.Type, "AGGREGATE")
		failed := false
		switch {
		case total == 0:
			// Laktory: an empty frame passes every expectation unevaluated.
		case aggregate:
			var ok *bool
			q := fmt.Sprintf("SELECT (%s) FROM %s", exprs[i], quoteIdent(tbl))
			if aq, isDF := fx.agg[i]; isDF {
				q = aq
			}
			if err := c.s.queryRow(ctx, q, &ok); err != nil {
				return res, fmt.Errorf("%w: %s: expectation '%s': %v", ErrExpectation, c.where(), e.Name, err)
			}
			failed = ok == nil || !*ok
		default:
			failed = beyondTolerance(e, failures[i], total)
		}
		msg := laktoryLogMsg(e, aggregate, failures[i], total)
		switch action {
		case "DROP", "QUARANTINE":
			if aggregate {
				break // refused at validate (Laktory's validate_action)
			}
			keep = append(keep, "("+exprs[i]+") IS TRUE")
			verb := "dropped"
			if action == "QUARANTINE" {
				hasQuarantine, verb = true, "quarantined"
				quarantine = append(quarantine, "("+exprs[i]+") IS FALSE")
			}
			if failures[i] > 0 || nulls[i] > 0 {
				note := fmt.Sprintf("expectation '%s' (%s) %s %d of %d rows", e.Name, e.Expr, verb, failures[i], total)
				if nulls[i] > 0 {
					note += fmt.Sprintf("; %d rows where it is NULL removed from the output, not quarantined (as Laktory does)", nulls[i])
				}
				res.notes = append(res.notes, note)
			}
		}
		if !failed {
			continue
		}
		if action == "FAIL" {
			return res, fmt.Errorf("%w: %s: Expectation '%s' failed on node '%s' | %s; nothing was written",
				ErrExpectation, c.where(), e.Name, c.n.Name, msg)
		}
		res.warnings = append(res.warnings, fmt.Sprintf("Expectation '%s' for node '%s' FAILED | %s", e.Name, c.n.Name, msg))
	}
	res.out = tbl
	res.kept = total
	res.quarantine = tbl
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
	if hasQuarantine {
		v, err := c.s.view(ctx, "quarantine", fmt.Sprintf("SELECT *%s FROM %s WHERE %s", extra, quoteIdent(base), strings.Join(quarantine, " AND ")))
		if err != nil {
			return res, err
		}
		res.quarantine = v
	}
	return res, nil
}

// laktoryLogMsg is DataQualityExpectation.log_msg once the check ran with
// status FAIL: the expression, the status, and for a ROW expectation with
// failures their count, the rows and the rate ("%5.2f %%").
func laktoryLogMsg(e *workspace.Expectation, aggregate bool, failures, total int64) string {
	msg := fmt.Sprintf("expr: %s | status: FAIL", e.Expr)
	if !aggregate && failures > 0 {
		rate := 0.0
		if total > 0 {
			rate = float64(failures) / float64(total)
		}
		msg += fmt.Sprintf(" | fails count: %d / %d (%5.2f %%)", failures, total, 100*rate)
	}
	return msg
}

// beyondTolerance reports whether failures exceed an expectation's
// tolerance as Laktory's _check_df does: abs rows when set, else rel
// fraction of total; default abs 0.
func beyondTolerance(e *workspace.Expectation, failures, total int64) bool {
	switch {
	case e.ToleranceAbs != nil:
		return failures > *e.ToleranceAbs
	case e.ToleranceRel != nil:
		return total > 0 && float64(failures)/float64(total) > *e.ToleranceRel
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
