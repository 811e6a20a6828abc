package workspace_test

import (
	"reflect"
	"testing"

	"github.com/laktory/workbench/workspace"
	"github.com/laktory/workbench/workspace/workspacetest"
)

func TestDecodeMergeCDC(t *testing.T) {
	s := workspacetest.Load(t, map[string]string{"pl.yaml": `
name: pl
nodes:
- name: a
  source: {path: in.csv, format: CSV}
  sinks:
  - path: out/a
    format: DELTA
    mode: MERGE
    merge_cdc_options: {primary_keys: [id], order_by: seq}
  - path: out/b
    format: DELTA
    mode: MERGE
    merge_cdc_options:
      primary_keys: [id, k]
      order_by: seq
      scd_type: 2
      delete_where: op = 'D'
      exclude_columns: [op]
      ignore_null_updates: true
      null_equals_null: true
      start_at_column_name: valid_from
      end_at_column_name: valid_to
  - path: out/c
    format: DELTA
    mode: MERGE
    merge_cdc_options: {primary_keys: [id], scd_type: 3, order: seq}
`}, workspace.Options{})
	workspacetest.Expect(t, s, s.Diagnostics, []workspacetest.Want{
		workspacetest.D("pl.yaml", 27, 0, workspace.CodeBadEnum, "must be 1 or 2"),
		workspacetest.D("pl.yaml", 27, 0, workspace.CodeUnknownKey, "did you mean `order_by`?"),
	})
	sinks := s.Pipeline("pl").Node("a").Sinks
	a := sinks[0].MergeCDC
	if want := (workspace.MergeCDC{Located: a.Located, PrimaryKeys: []string{"id"}, OrderBy: "seq", SCDType: 1, StartAt: "__start_at", EndAt: "__end_at"}); !reflect.DeepEqual(*a, want) {
		t.Errorf("defaults: %+v", *a)
	}
	b := sinks[1].MergeCDC
	if want := (workspace.MergeCDC{Located: b.Located, PrimaryKeys: []string{"id", "k"}, OrderBy: "seq", SCDType: 2, DeleteWhere: "op = 'D'",
		ExcludeColumns: []string{"op"}, IgnoreNullUpdates: true, NullEqualsNull: true, StartAt: "valid_from", EndAt: "valid_to"}); !reflect.DeepEqual(*b, want) {
		t.Errorf("options: %+v", *b)
	}
	if !sinks[0].IsMerge() || b.At("delete_where").Line != 18 {
		t.Errorf("IsMerge %v, delete_where at %v", sinks[0].IsMerge(), b.At("delete_where"))
	}
	if got := b.UpdateColumns([]string{"id", "k", "v", "op", "seq"}); !reflect.DeepEqual(got, []string{"v", "seq"}) {
		t.Errorf("update columns %v", got)
	}
}
