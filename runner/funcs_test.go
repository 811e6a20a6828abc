package runner

import (
	"testing"

	"github.com/laktory/workbench/validate"
	"github.com/laktory/workbench/workspace/workspacetest"
)

// TestValidateFrameLaktoryRules: the func_name steps Laktory 0.13.1 fails
// on at run time (docs/laktory-rules.md) are validation errors at the
// step, with Laktory's message, found by the schema flow through
// runner/frame.
func TestValidateFrameLaktoryRules(t *testing.T) {
	tests := []struct {
		name, step string
		want       W
	}{
		{"DataFrameMethod.execute#2", "    - func_name: no_such_method\n",
			D("pipelines/pl.yaml", 10, 18, validate.CodeFrameFails, "Function no_such_method is not available on dataframe of type <class 'narwhals.dataframe.LazyFrame'> with NARWHALS API")},
		{"DataFrameMethod.execute#1", "    - func_name: nope.no_such_method\n",
			D("pipelines/pl.yaml", 10, 18, validate.CodeFrameFails, "Function nope.no_such_method is not available on dataframe of type <class 'narwhals.dataframe.LazyFrame'> with NARWHALS API: the dataframe has no attribute 'nope'")},
		{"window_filter#1", "    - func_name: laktory.window_filter\n      func_kwargs: {partition_by: [symbol], order_by: [{sql_expression: qty, desc: true}], rows_to_keep: 0}\n",
			D("pipelines/pl.yaml", 10, 18, validate.CodeFrameFails, "`rows_to_keep` must be >= 1")},
		{"with_row_index#1", "    - func_name: laktory.with_row_index\n",
			D("pipelines/pl.yaml", 10, 18, validate.CodeFrameFails, "Argument `order_by` is required for LazyFrames")},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			w := newWS(t, map[string]string{"pipelines/pl.yaml": node("  transformer:\n    nodes:\n" + tt.step), "data/prices.csv": sqlData["data/prices.csv"]})
			s := w.load()
			ds, err := testRunner(t).Validate(t.Context(), s, validate.Options{})
			if err != nil {
				t.Fatal(err)
			}
			workspacetest.Expect(t, s, ds, []W{tt.want})
		})
	}
}
