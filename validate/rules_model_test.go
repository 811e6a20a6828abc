package validate

import (
	"testing"

	"github.com/laktory/workbench/workspace"
	"github.com/laktory/workbench/workspace/workspacetest"
)

// TestNestedDTypes: nested dtypes Laktory 0.13.1 accepts (a List with
// its inner type, a Struct with fields, an Array with inner and shape)
// are no LK109, but a warning that local runs do not read them (LK182);
// aliases and names in any case are Laktory's, and a Datetime without
// time zone is a timestamp_ntz.
func TestNestedDTypes(t *testing.T) {
	s := workspacetest.Load(t, map[string]string{"pl.yaml": `name: pl
nodes:
- name: a
  sources:
  - path: ./in.json
    format: JSON
    schema:
      columns:
        id: BIGINT
        at: {dtype: {name: datetime, time_zone: null}}
        tags: {dtype: {name: list, inner: str}}
        point: {dtype: {name: Array, inner: Float64, shape: 2}}
        geo:
          dtype:
            name: Struct
            fields:
            - {name: kind, dtype: string}
  sinks:
  - table_name: t
`}, workspace.Options{})
	workspacetest.Expect(t, s, Check(s, Options{}), []W{
		D("pl.yaml", 11, 23, CodeLocalFormat, "column 'tags' of the schema of source #1 of node 'a' is a List"),
		D("pl.yaml", 12, 24, CodeLocalFormat, "column 'point' of the schema of source #1 of node 'a' is a Array"),
		D("pl.yaml", 15, 13, CodeLocalFormat, "column 'geo' of the schema of source #1 of node 'a' is a Struct"),
	})
	cols := s.Pipelines[0].Nodes[0].Sources[0].Schema.Columns
	if cols[0].Type != "BIGINT" || cols[1].Type != "timestamp_ntz" || cols[2].DType.Inner == nil || cols[2].DType.Inner.Name != "str" {
		t.Errorf("columns: %+v", cols)
	}
}
