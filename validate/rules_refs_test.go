package validate

import (
	"testing"

	"github.com/laktory/workbench/workspace"
	"github.com/laktory/workbench/workspace/workspacetest"
)

// TestUnresolvedRefs: a misspelt ${vars.x} in what a run uses (a source
// path, a filter, an expr, an expectation, a sink's table name or
// `shared.where`) is an error (LK114) beside LK009's warning; in a comment
// it stays a warning.
func TestUnresolvedRefs(t *testing.T) {
	s := workspacetest.Load(t, map[string]string{"pl.yaml": `name: pl
variables:
  dir: b
nodes:
- name: a
  comment: ${vars.nope}
  sources:
  - path: ../data/${vars.dri}/
    format: JSONL
    filter: x > ${vars.min}
  transformer:
    nodes:
    - expr: SELECT * FROM {df} WHERE ${vars.cond}
  expectations:
  - name: e
    expr: x > ${vars.low}
  sinks:
  - table_name: t_${vars.sufix}
    mode: APPEND
  - table_name: u
    mode: APPEND
    shared:
      where: c = ${vars.client}
- name: b
  sources:
  - path: ../data/${vars.dir}/
    format: JSONL
`}, workspace.Options{})
	var got []Diagnostic
	for _, d := range Check(s, Options{}) {
		if d.Code == CodeUnresolvedRef {
			got = append(got, d)
		}
	}
	workspacetest.Expect(t, s, got, []W{
		D("pl.yaml", 8, 11, CodeUnresolvedRef, "the `path` of source #1 of node 'a' holds ${vars.dri}, which names no variable: a run would use \"../data/${vars.dri}/\" as written"),
		D("pl.yaml", 10, 13, CodeUnresolvedRef, "the `filter` of source #1 of node 'a' holds ${vars.min}"),
		D("pl.yaml", 13, 13, CodeUnresolvedRef, "the `expr` of step #1 of node 'a' holds ${vars.cond}"),
		D("pl.yaml", 16, 11, CodeUnresolvedRef, "the `expr` of expectation 'e' of node 'a' holds ${vars.low}"),
		D("pl.yaml", 18, 17, CodeUnresolvedRef, "the `table_name` of sink #1 of node 'a' holds ${vars.sufix}"),
		D("pl.yaml", 23, 14, CodeUnresolvedRef, "the `shared.where` of sink #2 of node 'a' holds ${vars.client}"),
	})
}

// TestWhereFloatEquality: with the table's column types known (the schema
// flow), a `where` comparing a FLOAT or DOUBLE column for equality is an
// error (LK115); ranges and exact types are not.
func TestWhereFloatEquality(t *testing.T) {
	types := map[string]string{"d": "DOUBLE", "f": "FLOAT", "c": "BIGINT", "s": "VARCHAR", "m": "DECIMAL(10,2)"}
	tests := []struct {
		where string
		bad   bool
	}{
		{"d = 0.1", true},
		{"0.1 = D", true},
		{"d <> 0.1", true},
		{"d IN (0.1, 0.2)", true},
		{"NOT (f = 1)", true},
		{"c = 1 AND (d = 2 OR s = 'x')", true},
		{"d >= 0.1 AND d < 0.2", false},
		{"d BETWEEN 1 AND 2", false},
		{"c = 1", false},
		{"m = 0.1", false},
		{"s IN ('a', 'b')", false},
	}
	for _, tt := range tests {
		t.Run(tt.where, func(t *testing.T) {
			s := workspacetest.Load(t, map[string]string{"pl.yaml": writers("pl", "", where(`"`+tt.where+`"`), where("c = 99"))}, workspace.Options{})
			opts := Options{SQL: testSQL, TableColumnTypes: map[workspace.TableID]map[string]string{s.Tables[0].ID: types}}
			var got []Diagnostic
			for _, d := range Check(s, opts) {
				if d.Code == CodeWhereFloatEqual {
					got = append(got, d)
				}
			}
			var want []W
			if tt.bad {
				want = []W{D("pl.yaml", 8, 14, CodeWhereFloatEqual, "compares the")}
			}
			workspacetest.Expect(t, s, got, want)
		})
	}
}

// TestWhereRoundingUnproven: two writers owning d = 1e16 and
// d = 10000000000000001 (one value per writer, so the pair is not sent
// through the per-value index as disjoint) are "cannot prove" (LK112,
// saying why) unless the column is known to be of an exact type.
func TestWhereRoundingUnproven(t *testing.T) {
	for _, typ := range []string{"", "DOUBLE", "BIGINT"} {
		t.Run(typ, func(t *testing.T) {
			s := workspacetest.Load(t, map[string]string{"pl.yaml": writers("pl", "", where("d = 1e16"), where("d = 10000000000000001"))}, workspace.Options{})
			opts := Options{SQL: testSQL}
			if typ != "" {
				opts.TableColumnTypes = map[workspace.TableID]map[string]string{s.Tables[0].ID: {"d": typ}}
			}
			var got []Diagnostic
			for _, d := range Check(s, opts) {
				if d.Code == CodeWhereUnproven || d.Code == CodeWhereOverlap {
					got = append(got, d)
				}
			}
			var want []W
			if typ != "BIGINT" {
				want = []W{D("pl.yaml", 8, 14, CodeWhereUnproven, "differ only by digits a double does not keep"), D("pl.yaml", 14, 14, CodeWhereUnproven, "a double does not keep")}
			}
			workspacetest.Expect(t, s, got, want)
		})
	}
}
