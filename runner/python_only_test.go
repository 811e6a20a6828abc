package runner

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/laktory/workbench/validate"
)

// TestPythonOnlyRefused: what truly needs Python (issue 27 item 4: a
// CUSTOM source's custom_reader, a DATAFRAME source without inline data, a
// sink's custom_writer) stays a clear refusal naming the construct: a
// warning at validate (LK182) and the plan's error before anything runs
// (LK183).
func TestPythonOnlyRefused(t *testing.T) {
	for _, tc := range []struct {
		name, source, sink, validate, plan string
	}{
		{"custom reader", "type: CUSTOM\n    custom_reader: {func_name: my.reader}", "table_name: out", "is a CUSTOM source, which only exists in Python", "a custom source (source #1), which only exists in Python"},
		{"dataframe without data", "type: DATAFRAME\n    df: my_df", "table_name: out", "is a DATAFRAME source, which only exists in Python", "a dataframe source (source #1), which only exists in Python"},
		{"custom writer", "path: ../data/a.jsonl\n    format: JSONL", "custom_writer: my.writer", "writes with the Python custom_writer my.writer", "the Python custom_writer my.writer"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			w := newWS(t, map[string]string{
				"pipelines/pl.yaml": fmt.Sprintf("name: pl\nnodes:\n- name: a\n  sources:\n  - %s\n  sinks:\n  - %s\n", tc.source, tc.sink),
				"data/a.jsonl":      "{\"k\": 1}\n",
			})
			r := testRunner(t)
			snap := w.load()
			ds, err := r.Validate(context.Background(), snap, validate.Options{})
			if err != nil {
				t.Fatal(err)
			}
			if !slices.ContainsFunc(ds, func(d validate.Diagnostic) bool {
				return d.Code == validate.CodeLocalFormat && strings.Contains(d.Message, tc.validate)
			}) {
				t.Errorf("validate: want %s %q, got %v", validate.CodeLocalFormat, tc.validate, ds)
			}
			pe := planErr(t, r, snap, Request{})
			if !hasDiag(pe, validate.CodeLocalUnsupported, tc.plan) {
				t.Errorf("plan: want %s %q, got %v", validate.CodeLocalUnsupported, tc.plan, pe.Diagnostics)
			}
		})
	}
}
