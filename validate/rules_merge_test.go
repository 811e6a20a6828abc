package validate

import (
	"testing"

	"github.com/laktory/workbench/workspace"
	"github.com/laktory/workbench/workspace/workspacetest"
)

func TestMergeRules(t *testing.T) {
	sink := func(opts string) string {
		return "name: pl\nnodes:\n- name: a\n  sinks:\n  - path: out/\n    format: DELTA\n    mode: MERGE\n" + opts
	}
	for _, tc := range []struct {
		name string
		yaml string
		want []W
	}{
		{"valid", sink("    merge_cdc_options: {primary_keys: [id], order_by: seq, delete_where: \"op = 'D'\"}\n"), nil},
		{"SCD2 takes delete_where as written", sink("    merge_cdc_options: {primary_keys: [id], order_by: seq, scd_type: 2, delete_where: x IS NOT NULL}\n"), nil},
		{"no options", sink(""), []W{D("pl.yaml", 7, 11, CodeMergeOptions, "must be specified")}},
		{"no keys", sink("    merge_cdc_options: {order_by: seq}\n"), []W{D("pl.yaml", 8, 24, CodeMergeOptions, "sets no `primary_keys`")}},
		{"SCD2 without order_by", sink("    merge_cdc_options: {primary_keys: [id], scd_type: 2}\n"), []W{D("pl.yaml", 8, 24, CodeMergeOptions, "requires specific of `order_by`")}},
		{"include and exclude", sink("    merge_cdc_options: {primary_keys: [id], include_columns: [a], exclude_columns: [b]}\n"),
			[]W{D("pl.yaml", 8, 0, CodeMergeOptions, "mutually exclusive")}},
		{"order_by excluded", sink("    merge_cdc_options: {primary_keys: [id], order_by: seq, exclude_columns: [seq]}\n"),
			[]W{D("pl.yaml", 8, 0, CodeMergeOptions, "can't be excluded")}},
		{"order_by not included", sink("    merge_cdc_options: {primary_keys: [id], order_by: seq, include_columns: [v]}\n"),
			[]W{D("pl.yaml", 8, 0, CodeMergeOptions, "not in `include_columns`")}},
		{"SCD1 delete_where Laktory breaks", sink("    merge_cdc_options:\n      primary_keys: [id]\n      delete_where: x IS NOT NULL\n"),
			[]W{D("pl.yaml", 10, 21, CodeMergeDeleteWhere, "turns `x IS NOT NULL` into `source.x source.IS NOT NULL`")}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s := workspacetest.Load(t, map[string]string{"pl.yaml": tc.yaml}, workspace.Options{})
			var ds []Diagnostic
			for _, d := range Check(s, Options{}) {
				if d.Code == CodeMergeOptions || d.Code == CodeMergeDeleteWhere {
					ds = append(ds, d)
				}
			}
			workspacetest.Expect(t, s, ds, tc.want)
		})
	}
}
