package runner

import (
	"fmt"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/laktory/workbench/workspace/workspacetest"
)

// TestCheckpointsFolderRemoved: the whole checkpoints folder removed
// (`.laktory/checkpoints`, the markers beside each flow's folder with it)
// after flows committed batches through it is refused, as one flow's
// folder removed is: the state database records which checkpoints flows
// committed through. The error names the flow's folder and the FULL
// refresh; the refusal holds on the next run too (the refused run made a
// new, empty checkpoint there: before, the second run read every file
// again); nothing is written; the FULL refresh, pasted at once or after
// the refused runs, then gives every row once.
func TestCheckpointsFolderRemoved(t *testing.T) {
	parquet := strings.Replace(fileStreamPipeline, "  - table_name: out\n    mode: APPEND\n", "  - path: ../out/pq/\n    format: PARQUET\n    mode: APPEND\n", 1)
	for _, tc := range []struct {
		name, pipeline, node, file, add string
		files                           map[string]string
		rows                            func(t *testing.T, r *Runner, w *ws) int
		want                            int // rows after the first run
		whole, refused                  bool
	}{
		{name: "stream into a Delta table", pipeline: "pl", node: "s", files: map[string]string{"pipelines/pl.yaml": fileStreamPipeline, "data/in/1.jsonl": jsonl("a", 0, 3, "")},
			file: "data/in/1.jsonl", add: "data/in/2.jsonl", want: 3, whole: true, refused: true,
			rows: func(t *testing.T, r *Runner, w *ws) int { return count(t, r, w.table("out"), "") }},
		{name: "stream into a Delta table, FULL at once", pipeline: "pl", node: "s", files: map[string]string{"pipelines/pl.yaml": fileStreamPipeline, "data/in/1.jsonl": jsonl("a", 0, 3, "")},
			file: "data/in/1.jsonl", add: "data/in/2.jsonl", want: 3, whole: true,
			rows: func(t *testing.T, r *Runner, w *ws) int { return count(t, r, w.table("out"), "") }},
		{name: "stream into a parquet folder", pipeline: "pl", node: "s", files: map[string]string{"pipelines/pl.yaml": parquet, "data/in/1.jsonl": jsonl("a", 0, 3, "")},
			file: "data/in/1.jsonl", add: "data/in/2.jsonl", want: 3, whole: true, refused: true,
			rows: func(t *testing.T, r *Runner, w *ws) int {
				var n int
				fmt.Sscan(sqlRows(t, r, "SELECT count(*) FROM read_parquet('"+w.dir+"/out/pq/*.parquet')")[0][0], &n)
				return n
			}},
		{name: "append flows of a declarative pipeline", pipeline: "decl", node: "live_a", files: declFiles(), file: "data/a/1.jsonl", add: "data/a/2.jsonl", want: 7, whole: true, refused: true,
			rows: func(t *testing.T, r *Runner, w *ws) int { return count(t, r, w.table("events"), "") }},
		{name: "one flow's folder, refused twice", pipeline: "pl", node: "s", files: map[string]string{"pipelines/pl.yaml": fileStreamPipeline, "data/in/1.jsonl": jsonl("a", 0, 3, "")},
			file: "data/in/1.jsonl", add: "data/in/2.jsonl", want: 3, refused: true,
			rows: func(t *testing.T, r *Runner, w *ws) int { return count(t, r, w.table("out"), "") }},
	} {
		t.Run(tc.name, func(t *testing.T) {
			w := newWS(t, tc.files)
			workspacetest.Ordered(t, w.dir, time.Now().Add(-time.Hour), tc.file)
			r := testRunner(t)
			mustRun(t, r, w.load(), Request{})
			if n := tc.rows(t, r, w); n != tc.want {
				t.Fatalf("%d rows after the first run, want %d", n, tc.want)
			}
			cp := flowDir(t, w.load(), tc.pipeline, tc.node)
			gone := cp
			if tc.whole {
				gone = w.load().Layout.CheckpointsDir()
			}
			if !exists(cp) {
				t.Fatalf("no checkpoint %s", cp)
			}
			if err := os.RemoveAll(gone); err != nil {
				t.Fatal(err)
			}
			w.write(map[string]string{tc.add: jsonl("new", 0, 2, "")})
			if tc.refused {
				for i := 0; i < 2; i++ {
					o := run(t, r, w.load(), Request{Selectors: []string{tc.node}})
					if o.err == nil {
						t.Fatalf("run %d went on over a removed checkpoint (%d rows written)", i, o.sum.RowsWritten)
					}
					msg := taskErrs(o)
					for _, want := range []string{cp, "was removed", "laktory run --pipeline " + tc.pipeline + " --select " + tc.node + " --refresh FULL"} {
						if !strings.Contains(msg, want) {
							t.Fatalf("run %d: the error does not say %q:\n%s", i, want, msg)
						}
					}
					if n := tc.rows(t, r, w); n != tc.want {
						t.Fatalf("%d rows after refused run %d, want %d", n, i, tc.want)
					}
				}
			}
			mustRun(t, r, w.load(), Request{Selectors: []string{tc.node}, Refresh: "FULL"})
			mustRun(t, r, w.load(), Request{})
			if n := tc.rows(t, r, w); n != tc.want+2 {
				t.Fatalf("%d rows after the FULL refresh and a run, want %d", n, tc.want+2)
			}
			if o := mustRun(t, r, w.load(), Request{}); o.sum.RowsWritten != 0 {
				t.Fatalf("%d rows written again after the FULL refresh", o.sum.RowsWritten)
			}
		})
	}
}
