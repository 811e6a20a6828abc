package sparksql

import (
	"errors"
	"fmt"
	"strings"
	"testing"
)

// A constant percentage out of [0, 1] is Spark's analysis error at
// translation (validate), not only when the query runs: over a grouped
// input with no rows the run raises nothing (r8_pct_const_expr_grouped_empty),
// and percentile_approx is refused before it runs at all.
func TestPercentageCheckedAtTranslation(t *testing.T) {
	in := []Input{{Ref: "df", SQL: "t", Schema: []Column{{"k", tInt}, {"ms", tInt}}}}
	for _, c := range []struct {
		sql   string
		class string // "" for a translation
	}{
		{"SELECT percentile(ms, 1.5) AS p FROM {df}", "DATATYPE_MISMATCH.VALUE_OUT_OF_RANGE"},
		{"SELECT k, percentile(ms, 3 - 1) AS p FROM {df} GROUP BY k", "DATATYPE_MISMATCH.VALUE_OUT_OF_RANGE"},
		{"SELECT percentile(ms, 1 / 0.5) AS p FROM {df}", "DATATYPE_MISMATCH.VALUE_OUT_OF_RANGE"},
		{"SELECT percentile(ms, -(0.25 * 2)) AS p FROM {df}", "DATATYPE_MISMATCH.VALUE_OUT_OF_RANGE"},
		{"SELECT percentile_cont(0.5 + 1) WITHIN GROUP (ORDER BY ms) AS p FROM {df}", "DATATYPE_MISMATCH.VALUE_OUT_OF_RANGE"},
		{"SELECT percentile_approx(ms, -0.1) AS p FROM {df}", "DATATYPE_MISMATCH.VALUE_OUT_OF_RANGE"},
		{"SELECT approx_percentile(ms, array(0.5, 1.01)) AS p FROM {df}", "DATATYPE_MISMATCH.VALUE_OUT_OF_RANGE"},
		// In range, or at the edge: translated (checked as it runs).
		{"SELECT percentile(ms, 1 / 4) AS p FROM {df}", ""},
		{"SELECT percentile(ms, 0.1 + 0.9) AS p FROM {df}", ""},
		{"SELECT percentile(ms, 1 - 1) AS p FROM {df}", ""},
	} {
		_, err := Translate(c.sql, in, Options{})
		var pe *Error
		switch {
		case c.class == "" && err != nil:
			t.Errorf("%s: %v", c.sql, err)
		case c.class != "" && (!errors.As(err, &pe) || !errors.Is(err, ErrSpark) || pe.Class != c.class):
			t.Errorf("%s: %v, want Spark's %s", c.sql, err, c.class)
		}
	}
	// An in-range percentage of percentile_approx is refused, naming it.
	_, err := Translate("SELECT percentile_approx(ms, 0.5) AS p FROM {df}", in, Options{})
	if !errors.Is(err, ErrUnsupported) || !strings.Contains(err.Error(), "percentile_approx") {
		t.Errorf("percentile_approx(ms, 0.5): %v, want it refused", err)
	}
}

// stack(n, ...) is a generator: n rows of the values, row by row; a
// number of rows that is not a positive literal, or a column of two types,
// raises Spark's analysis error.
func TestStackGenerator(t *testing.T) {
	in := []Input{{Ref: "df", SQL: "t", Schema: []Column{{"k", tInt}, {"s", tString}}}}
	r, err := Translate("SELECT stack(2, k, s, 7, NULL) AS (a, b) FROM {df}", in, Options{})
	if err != nil {
		t.Fatal(err)
	}
	if got := fmt.Sprint(r.Columns); !strings.Contains(got, "a int") || !strings.Contains(got, "b string") {
		t.Errorf("columns %s, want a int, b string", got)
	}
	for _, c := range []struct{ sql, class string }{
		{"SELECT stack(k, 1, 2) FROM {df}", "DATATYPE_MISMATCH.NON_FOLDABLE_INPUT"},
		{"SELECT stack(0, 1, 2) FROM {df}", "DATATYPE_MISMATCH.VALUE_OUT_OF_RANGE"},
		{"SELECT stack(2, 1, 'x', 'y', 2) FROM {df}", "DATATYPE_MISMATCH.STACK_COLUMN_DIFF_TYPES"},
	} {
		if _, err := Translate(c.sql, in, Options{}); err == nil || !strings.Contains(err.Error(), "["+c.class+"]") {
			t.Errorf("%s: %v, want Spark's %s", c.sql, err, c.class)
		}
	}
}

// skewness and kurtosis over a window are refused: spark_moment folds a
// list per row, quadratic in the frame.
func TestMomentWindowRefused(t *testing.T) {
	in := []Input{{Ref: "df", SQL: "t", Schema: []Column{{"k", tInt}, {"x", tDouble}}}}
	for _, sql := range []string{
		"SELECT skewness(x) OVER (PARTITION BY k) AS s FROM {df}",
		"SELECT kurtosis(x) OVER (ORDER BY k ROWS BETWEEN UNBOUNDED PRECEDING AND CURRENT ROW) AS s FROM {df}",
	} {
		if _, err := Translate(sql, in, Options{}); !errors.Is(err, ErrUnsupported) || !strings.Contains(err.Error(), "as a window function") {
			t.Errorf("%s: %v, want it refused", sql, err)
		}
	}
	if _, err := Translate("SELECT k, skewness(x) AS s FROM {df} GROUP BY k", in, Options{}); err != nil {
		t.Error(err)
	}
}
