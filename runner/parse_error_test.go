package runner

import (
	"context"
	"fmt"
	"path/filepath"
	"strings"
	"testing"
)

// TestSourceCannotBeParsed: a source file that exists but cannot be
// parsed (a malformed JSON line early in the file, one beyond what the
// reader samples, a JSON array file cut short) fails the run with the
// file (relative to the workspace), the exact line and column, and the
// fix, and nothing is written: a FULL refresh of a sink that is not
// shared (its table dropped before the new rows are written) keeps the
// table as it was, as does the FULL refresh of a shared writer, and
// neither leaves a refresh for the next run to redo.
func TestSourceCannotBeParsed(t *testing.T) {
	const pipeline = `name: pl
nodes:
- name: a
  source:
    path: ../data/in.FORMAT
    format: FORMAT_NAME
  sinks:
  - table_name: t
    mode: APPEND
`
	var many strings.Builder
	for i := 0; i < 30000; i++ {
		fmt.Fprintf(&many, `{"k": "m-%d", "v": %d}`+"\n", i, i)
	}
	for _, tc := range []struct {
		name, format, body, shared, at string
	}{
		{"jsonl, line 2", "jsonl", `{"k": "a", "v": 1}` + "\n" + `{"k": "b", v: 2}` + "\n" + `{"k": "c", "v": 3}` + "\n", "", "line 2, column 12"},
		{"jsonl, line 30001, beyond the sample", "jsonl", many.String() + `{"k": "z", "v": 1` + "\n", "", "line 30001, column 18"},
		{"jsonl, shared writer", "jsonl", `{"k": "a", "v": 1}` + "\n\n" + `{"k": "b" "v": 2}` + "\n", "    shared: true\n", "line 3, column 11"},
		{"json array cut short", "json", "[\n  {\"k\": \"a\", \"v\": 1},\n  {\"k\": \"b\", \"v\": 2\n", "", "line 3, column 20"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			p := strings.NewReplacer("FORMAT_NAME", strings.ToUpper(tc.format), "FORMAT", tc.format).Replace(pipeline)
			p = strings.Replace(p, "mode: APPEND\n", "mode: APPEND\n"+tc.shared, 1)
			file := "data/in." + tc.format
			good := jsonl("g", 0, 3, "")
			if tc.format == "json" {
				good = `[{"k": "g-0", "v": 0}, {"k": "g-1", "v": 1}, {"k": "g-2", "v": 2}]`
			}
			w := newWS(t, map[string]string{"pipelines/pl.yaml": p, file: good})
			r := testRunner(t)
			mustRun(t, r, w.load(), Request{})
			table := w.table("t")
			before := listTree(t, table)
			w.write(map[string]string{file: tc.body})
			for _, req := range []Request{{}, {Refresh: "FULL"}} {
				o := run(t, r, w.load(), req)
				if o.err == nil {
					t.Fatalf("%+v: the run read a file it cannot parse (%d rows written)", req, o.sum.RowsWritten)
				}
				msg := taskErrs(o)
				for _, want := range []string{file + " cannot be parsed as " + strings.ToUpper(tc.format), tc.at, "nothing was written", "fix"} {
					if !strings.Contains(msg, want) {
						t.Fatalf("%+v: the error does not say %q:\n%s", req, want, msg)
					}
				}
				if strings.Contains(msg, filepath.Join(w.dir, file)) {
					t.Fatalf("%+v: the error names the file by its absolute path:\n%s", req, msg)
				}
				if o.sum.RowsWritten != 0 || o.sum.RowsDeleted != 0 {
					t.Fatalf("%+v: %d rows written, %d deleted", req, o.sum.RowsWritten, o.sum.RowsDeleted)
				}
				if after := listTree(t, table); after != before {
					t.Fatalf("%+v: the table changed:\nbefore %s\nafter  %s", req, before, after)
				}
				// Nothing was changed: the next run has no refresh to redo
				// (a sink that is not shared computes its rows before the
				// refresh starts; a shared writer's FULL refresh, which
				// defers its delete, clears its intent as the run ends).
				plan, err := r.Plan(context.Background(), w.load(), Request{})
				if err != nil {
					t.Fatal(err)
				}
				for _, e := range plan.Effects {
					if e.Kind == EffectResume {
						t.Fatalf("%+v: the next run redoes the failed refresh: %s", req, e.Description)
					}
				}
			}
		})
	}
}
