package main

import (
	"strings"
	"testing"

	"github.com/laktory/workbench/workspace/workspacetest"
)

// TestValidateSchemas: validate --schemas prints the schema each Delta
// sink writes with the Delta types of its pipeline's backend: on POLARS
// the types delta-rs writes for the Polars dtypes (COUNT(*) is UInt32,
// written as integer; a Datetime as
// timestamp_ntz), a writer column first; in --json too.
func TestValidateSchemas(t *testing.T) {
	dir := t.TempDir()
	workspacetest.Write(t, dir, map[string]string{
		"pipelines/pl.yaml": `name: pl
dataframe_backend: POLARS
nodes:
- name: a
  sources:
  - path: ../data/a.jsonl
    format: JSONL
  transformer:
    nodes:
    - expr: SELECT s, COUNT(*) AS n, CAST(MAX(ts) AS TIMESTAMP) AS ts FROM {df} GROUP BY s
  sinks:
  - path: ../lake/a
    format: DELTA
    mode: APPEND
    shared: true
`,
		"data/a.jsonl": `{"s": "x", "ts": "2024-01-01T00:00:00"}` + "\n",
	})
	code, out, errs := runCLI(t, nil, "validate", "--schemas", dir)
	if code != ExitOK {
		t.Fatalf("exit %d\n%s%s", code, out, errs)
	}
	want := "  pl.a -> path ../lake/a (POLARS)\n    _laktory_writer  string\n    s                string\n    n                integer\n    ts               timestamp_ntz\n"
	if !strings.Contains(out, want) {
		t.Fatalf("validate --schemas:\n%s\nwant\n%s", out, want)
	}
	_, out, _ = runCLI(t, nil, "validate", "--schemas", "--json", dir)
	if !strings.Contains(out, `"sink_schemas"`) || !strings.Contains(out, `"name": "n"`) || !strings.Contains(out, `"type": "integer"`) {
		t.Fatalf("validate --schemas --json:\n%s", out)
	}
}
