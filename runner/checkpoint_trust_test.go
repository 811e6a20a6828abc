package runner

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/laktory/workbench/runner/checkpoint"
	"github.com/laktory/workbench/runner/sink"
	"github.com/laktory/workbench/workspace/workspacetest"
)

// TestUntrustedCheckpoint: a checkpoint whose logs disagree (parts lost or
// edited) stops the run with an error naming it and the FULL refresh that
// recovers, instead of skipping new files for good or reading old ones
// again; the FULL refresh then gives every row once.
func TestUntrustedCheckpoint(t *testing.T) {
	cases := []struct {
		name   string
		damage func(t *testing.T, cp string)
		says   string
	}{
		{"offsets and commits lost", func(t *testing.T, cp string) {
			os.RemoveAll(filepath.Join(cp, "offsets"))
			os.RemoveAll(filepath.Join(cp, "commits"))
		}, "beyond its offsets/"},
		{"commits lost", func(t *testing.T, cp string) {
			os.RemoveAll(filepath.Join(cp, "commits"))
		}, "more than the one batch a crash leaves uncommitted"},
		{"offsets lost", func(t *testing.T, cp string) {
			os.RemoveAll(filepath.Join(cp, "offsets"))
		}, "but its offsets/ end at -1"},
		{"metadata lost", func(t *testing.T, cp string) {
			os.Remove(filepath.Join(cp, "metadata"))
		}, "has batches but no metadata file"},
		{"workspace map garbled", func(t *testing.T, cp string) {
			os.WriteFile(filepath.Join(cp, checkpoint.WorkspaceMarker), []byte("{\"workspace\": \"not absolute"), 0o644)
		}, "laktory-workspace file is garbled"},
	}
	// A first run of one batch: its sources/0 log alone is what a crash
	// before offsets/0 leaves too, so the table tells them apart.
	oneBatch := strings.Replace(fileStreamPipeline, "maxFilesPerTrigger: 1", "maxFilesPerTrigger: 10", 1)
	cases = append(cases, struct {
		name   string
		damage func(t *testing.T, cp string)
		says   string
	}{"offsets and commits lost after one batch", func(t *testing.T, cp string) {
		os.RemoveAll(filepath.Join(cp, "offsets"))
		os.RemoveAll(filepath.Join(cp, "commits"))
	}, "holds batch 0 of the flow while the checkpoint's offsets/ end at -1"})
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			base := t.TempDir()
			w := &ws{t: t, dir: filepath.Join(base, "ws")}
			pipeline := fileStreamPipeline
			if strings.HasSuffix(tc.name, "after one batch") {
				pipeline = oneBatch
			}
			w.write(map[string]string{"pipelines/pl.yaml": pipeline,
				"data/in/1.jsonl": jsonl("a", 0, 3, ""), "data/in/2.jsonl": jsonl("b", 0, 2, "")})
			r := testRunner(t)
			mustRun(t, r, w.load(), Request{})
			// The workspace moves (the map is what keeps its files read once).
			moved := filepath.Join(base, "moved")
			if err := os.Rename(w.dir, moved); err != nil {
				t.Fatal(err)
			}
			w.dir = moved
			w.write(map[string]string{"data/in/3.jsonl": jsonl("c", 0, 4, "")})
			cp := flowDir(t, w.load(), "pl", "s")
			tc.damage(t, cp)
			o := run(t, r, w.load(), Request{})
			msg := o.sum.Tasks[0].Err
			if o.err == nil || !errors.Is(o.err, ErrCheckpoint) && !strings.Contains(msg, "cannot be trusted") {
				t.Fatalf("the run went on (%v, %d rows written) over a checkpoint that cannot be trusted", o.err, o.sum.RowsWritten)
			}
			for _, want := range []string{cp, tc.says, "laktory run --pipeline pl --select s --refresh FULL"} {
				if !strings.Contains(msg, want) {
					t.Fatalf("the error does not say %q:\n%s", want, msg)
				}
			}
			if n := count(t, r, w.table("out"), ""); n != 5 {
				t.Fatalf("%d rows after the refused run, want the 5 of before", n)
			}
			mustRun(t, r, w.load(), Request{Refresh: "FULL"})
			if n := count(t, r, w.table("out"), ""); n != 9 {
				t.Fatalf("%d rows after the FULL refresh, want 9 (each file once)", n)
			}
			if o := mustRun(t, r, w.load(), Request{}); o.sum.RowsWritten != 0 {
				t.Fatalf("%d rows read again after the FULL refresh", o.sum.RowsWritten)
			}
		})
	}
}

// TestUntrustedCheckpointNoTxn: file sinks (PARQUET, JSON, CSV) and
// ForEach sinks have no Delta txn to show that a batch was written, so
// the flow records each batch its sink wrote in the checkpoint's
// laktory-sinks/ before its commit marker. A first run of one batch
// whose offsets/ and commits/ were lost (sources/0 alone, what a crash
// before offsets/0 leaves too) is then refused naming the checkpoint and
// the FULL refresh; a crash between the sink's write and the commit
// (kill point batch.sink) is still resumed.
func TestUntrustedCheckpointNoTxn(t *testing.T) {
	if testing.Short() {
		t.Skip("re-executes the test binary")
	}
	sinks := map[string]string{
		"parquet": "  - path: ../out/pq/\n    format: PARQUET\n    mode: APPEND\n",
		"json":    "  - path: ../out/js/\n    format: JSON\n    mode: APPEND\n",
		"csv":     "  - path: ../out/cs/\n    format: CSV\n    mode: APPEND\n",
		"foreach": "  - foreach:\n      command: [\"sh\", \"-c\", \"cat >> ../fe.txt\"]\n",
	}
	for _, name := range []string{"parquet", "json", "csv", "foreach"} {
		pipeline := strings.Replace(strings.Replace(fileStreamPipeline, "maxFilesPerTrigger: 1", "maxFilesPerTrigger: 10", 1),
			"  - table_name: out\n    mode: APPEND\n", sinks[name], 1)
		for _, damage := range []string{"offsets and commits lost", "killed between write and commit"} {
			t.Run(name+" "+damage, func(t *testing.T) {
				w := newWS(t, map[string]string{"pipelines/pl.yaml": pipeline, "data/in/1.jsonl": jsonl("a", 0, 3, "")})
				workspacetest.Ordered(t, w.dir, time.Now().Add(-time.Hour), "data/in/1.jsonl")
				r := testRunner(t)
				if damage == "killed between write and commit" {
					killAt(t, w.dir, "s", stepSink, 0)
					cp := flowDir(t, w.load(), "pl", "s")
					if got := fmt.Sprint(batchesOf(t, cp, "offsets"), batchesOf(t, cp, "commits")); got != "[0] []" {
						t.Fatalf("offsets and commits after the kill: %s", got)
					}
					mustRun(t, r, w.load(), Request{}) // resumed: batch 0 replayed
					if got := fmt.Sprint(batchesOf(t, cp, "commits")); got != "[0]" {
						t.Fatalf("commits after the rerun: %s", got)
					}
					// The replayed batch is not written twice (the ForEach
					// sink receives it again, at least once).
					reader := map[string]string{"parquet": "read_parquet('out/pq/*.parquet')", "json": "read_json_auto('out/js/*.json')",
						"csv": "read_csv('out/cs/*.csv')", "foreach": "read_json_auto('fe.txt')"}[name]
					want := map[bool]string{true: "6", false: "3"}[name == "foreach"]
					if got := sqlRows(t, r, "SELECT count(*) FROM "+strings.Replace(reader, "'", "'"+w.dir+"/", 1)); got[0][0] != want {
						t.Fatalf("%s rows in the sink after the replay, want %s", got[0][0], want)
					}
					return
				}
				mustRun(t, r, w.load(), Request{})
				cp := flowDir(t, w.load(), "pl", "s")
				os.RemoveAll(filepath.Join(cp, "offsets"))
				os.RemoveAll(filepath.Join(cp, "commits"))
				w.write(map[string]string{"data/in/2.jsonl": jsonl("b", 0, 2, "")})
				o := run(t, r, w.load(), Request{})
				msg := o.sum.Tasks[0].Err
				if o.err == nil {
					t.Fatalf("the run went on (%d rows written) over a checkpoint whose sink holds a batch beyond its offsets/", o.sum.RowsWritten)
				}
				for _, want := range []string{cp, "recorded batch 0 as written to it (laktory-sinks/0) while the checkpoint's offsets/ end at -1", "laktory run --pipeline pl --select s --refresh FULL"} {
					if !strings.Contains(msg, want) {
						t.Fatalf("the error does not say %q:\n%s", want, msg)
					}
				}
				mustRun(t, r, w.load(), Request{Refresh: "FULL"})
				if o := mustRun(t, r, w.load(), Request{}); o.sum.RowsWritten != 0 {
					t.Fatalf("%d rows written again after the FULL refresh", o.sum.RowsWritten)
				}
			})
		}
	}
}

// TestFileSinkReplayExact: a streaming flow into a file sink (PARQUET, CSV,
// JSON) stopped while the batch's files are moved into place, after the
// first of them (partitioned: one file per partition) or after the last,
// before the checkpoint records the
// batch as written (laktory-sinks/<batch>): the replay removes the files
// of the batch the crash left (the flow recorded their names before the
// first move) and writes the batch again, so every row is there once.
func TestFileSinkReplayExact(t *testing.T) {
	if testing.Short() {
		t.Skip("re-executes the test binary")
	}
	sinks := map[string]string{
		"parquet": "  - path: ../out/pq/\n    format: PARQUET\n    mode: APPEND\n    writer_methods:\n    - name: partitionBy\n      args: [c]\n",
		// DuckDB partitions no JSON: one file per batch.
		"json": "  - path: ../out/js/\n    format: JSON\n    mode: APPEND\n",
		"csv":  "  - path: ../out/cs/\n    format: CSV\n    mode: APPEND\n    writer_methods:\n    - name: partitionBy\n      args: [c]\n",
	}
	readers := map[string]string{"parquet": "read_parquet('%s/out/pq/*/*.parquet')", "json": "read_json_auto('%s/out/js/*.json')",
		"csv": "read_csv('%s/out/cs/*/*.csv')"}
	for _, name := range []string{"parquet", "json", "csv"} {
		pipeline := strings.Replace(strings.Replace(fileStreamPipeline, "maxFilesPerTrigger: 1", "maxFilesPerTrigger: 10", 1),
			"  - table_name: out\n    mode: APPEND\n", sinks[name], 1)
		for _, at := range []string{"1", "2"} {
			if name == "json" && at == "2" {
				continue
			}
			t.Run(name+" moved "+at, func(t *testing.T) {
				w := newWS(t, map[string]string{"pipelines/pl.yaml": pipeline,
					"data/in/1.jsonl": jsonl("a", 0, 3, `, "c": 1`) + jsonl("b", 0, 2, `, "c": 2`)})
				workspacetest.Ordered(t, w.dir, time.Now().Add(-time.Hour), "data/in/1.jsonl")
				crashAt(t, w.dir, sink.FailFilesMoved+":"+at, Request{})
				cp := flowDir(t, w.load(), "pl", "s")
				if got := fmt.Sprint(batchesOf(t, cp, "offsets"), batchesOf(t, cp, checkpoint.SinkLog), batchesOf(t, cp, "commits")); got != "[0] [] []" {
					t.Fatalf("offsets, sink log and commits after the crash: %s", got)
				}
				r := testRunner(t)
				mustRun(t, r, w.load(), Request{}) // batch 0 replayed
				reader := fmt.Sprintf(readers[name], w.dir)
				if got := sqlRows(t, r, "SELECT count(*), count(DISTINCT k) FROM "+reader); fmt.Sprint(got) != "[[5 5]]" {
					t.Fatalf("rows and distinct keys in the sink after the replay: %v, want 5 5", got)
				}
				w.write(map[string]string{"data/in/2.jsonl": jsonl("c", 0, 2, `, "c": 1`)})
				mustRun(t, r, w.load(), Request{})
				if got := sqlRows(t, r, "SELECT count(*), count(DISTINCT k) FROM "+reader); fmt.Sprint(got) != "[[7 7]]" {
					t.Fatalf("rows and distinct keys after the next batch: %v, want 7 7", got)
				}
			})
		}
	}
}

// TestCheckpointFolderRemoved: a flow's whole checkpoint folder removed
// after it wrote batches (a stream into a Delta table or a file sink, an
// append flow and a one-time flow of a declarative pipeline) is refused:
// a new checkpoint would read every file again into the sink. The error
// names the folder and the FULL refresh, nothing is written, and the FULL
// refresh then gives every row once.
func TestCheckpointFolderRemoved(t *testing.T) {
	parquet := strings.Replace(fileStreamPipeline, "  - table_name: out\n    mode: APPEND\n", "  - path: ../out/pq/\n    format: PARQUET\n    mode: APPEND\n", 1)
	decl := declFiles()
	for _, tc := range []struct {
		name, pipeline, node, file, add string
		files                           map[string]string
		rows                            func(t *testing.T, r *Runner, w *ws) int
		want                            int // rows after the first run
	}{
		{name: "stream into a Delta table", pipeline: "pl", node: "s", files: map[string]string{"pipelines/pl.yaml": fileStreamPipeline, "data/in/1.jsonl": jsonl("a", 0, 3, "")},
			file: "data/in/1.jsonl", add: "data/in/2.jsonl", want: 3,
			rows: func(t *testing.T, r *Runner, w *ws) int { return count(t, r, w.table("out"), "") }},
		{name: "stream into a parquet folder", pipeline: "pl", node: "s", files: map[string]string{"pipelines/pl.yaml": parquet, "data/in/1.jsonl": jsonl("a", 0, 3, "")},
			file: "data/in/1.jsonl", add: "data/in/2.jsonl", want: 3,
			rows: func(t *testing.T, r *Runner, w *ws) int {
				var n int
				fmt.Sscan(sqlRows(t, r, "SELECT count(*) FROM read_parquet('"+w.dir+"/out/pq/*.parquet')")[0][0], &n)
				return n
			}},
		{name: "append flow of a declarative pipeline", pipeline: "decl", node: "live_a", files: decl, file: "data/a/1.jsonl", add: "data/a/2.jsonl", want: 7,
			rows: func(t *testing.T, r *Runner, w *ws) int { return count(t, r, w.table("events"), "") }},
		{name: "one-time flow of a declarative pipeline", pipeline: "decl", node: "backfill", files: decl, file: "data/a/1.jsonl", want: 7,
			rows: func(t *testing.T, r *Runner, w *ws) int { return count(t, r, w.table("events"), "") }},
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
			if _, err := os.Stat(filepath.Join(cp, "commits")); err != nil {
				t.Fatalf("no checkpoint to remove: %v", err)
			}
			if err := os.RemoveAll(cp); err != nil {
				t.Fatal(err)
			}
			if tc.add != "" {
				w.write(map[string]string{tc.add: jsonl("new", 0, 2, "")})
			}
			o := run(t, r, w.load(), Request{Selectors: []string{tc.node}})
			if o.err == nil {
				t.Fatalf("the run went on over a removed checkpoint (%d rows written)", o.sum.RowsWritten)
			}
			msg := taskErrs(o)
			for _, want := range []string{cp, "laktory run --pipeline " + tc.pipeline + " --select " + tc.node + " --refresh FULL"} {
				if !strings.Contains(msg, want) {
					t.Fatalf("the error does not say %q:\n%s", want, msg)
				}
			}
			if n := tc.rows(t, r, w); n != tc.want {
				t.Fatalf("%d rows after the refused run, want %d", n, tc.want)
			}
			mustRun(t, r, w.load(), Request{Selectors: []string{tc.node}, Refresh: "FULL"})
			// A declarative table's FULL refresh resets its other flows
			// too: the next run writes their rows again.
			mustRun(t, r, w.load(), Request{})
			want := tc.want
			if tc.add != "" {
				want += 2
			}
			if n := tc.rows(t, r, w); n != want {
				t.Fatalf("%d rows after the FULL refresh and a run, want %d", n, want)
			}
			if o := mustRun(t, r, w.load(), Request{}); o.sum.RowsWritten != 0 {
				t.Fatalf("%d rows written again after the FULL refresh", o.sum.RowsWritten)
			}
		})
	}
}
