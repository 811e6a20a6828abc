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
