package runner

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/laktory/workbench/delta"
	"github.com/laktory/workbench/runner/checkpoint"
	"github.com/laktory/workbench/workspace"
	"github.com/laktory/workbench/workspace/workspacetest"
)

// flowDir is the checkpoint of a node's only sink.
func flowDir(t testing.TB, snap *workspace.Snapshot, pipeline, node string) string {
	t.Helper()
	p := snap.Pipeline(pipeline)
	n := p.Node(node)
	return CheckpointDir(snap.Layout, p, n, n.Sinks[0])
}

// batchesOf lists a checkpoint log's batch ids.
func batchesOf(t testing.TB, dir, log string) []int64 {
	t.Helper()
	bs, err := checkpoint.Batches(filepath.Join(dir, log))
	if err != nil {
		t.Fatal(err)
	}
	return bs
}

func readOffsetsFile(t testing.TB, dir string, n int64) checkpoint.OffsetSeq {
	t.Helper()
	cp := &checkpoint.Checkpoint{Dir: dir}
	seq, err := cp.ReadOffsets(n)
	if err != nil {
		t.Fatal(err)
	}
	return seq
}

// touch sets a file's modification time, so file sources order files as
// the test needs.
func touch(t testing.TB, path string, at time.Time) {
	t.Helper()
	if err := os.Chtimes(path, at, at); err != nil {
		t.Fatal(err)
	}
}

const fileStreamPipeline = `name: pl
nodes:
- name: s
  sources:
  - path: ../data/in/
    format: JSONL
    as_stream: true
    reader_kwargs: {maxFilesPerTrigger: 1}
  sinks:
  - table_name: out
    mode: APPEND
`

// TestFileStreamEachFileOnce: a file source processes each new file once,
// maxFilesPerTrigger files per micro-batch; the checkpoint is in Spark's
// layout (metadata, offsets/N, commits/N, sources/0/N with the files).
func TestFileStreamEachFileOnce(t *testing.T) {
	w := newWS(t, map[string]string{"pipelines/pl.yaml": fileStreamPipeline,
		"data/in/1.jsonl": jsonl("a", 0, 3, ""), "data/in/2.jsonl": jsonl("b", 0, 2, "")})
	workspacetest.Ordered(t, w.dir, time.Now().Add(-time.Hour), "data/in/1.jsonl", "data/in/2.jsonl")
	r := testRunner(t)
	snap := w.load()
	o := mustRun(t, r, snap, Request{})
	if n := count(t, r, w.table("out"), ""); n != 5 {
		t.Fatalf("%d rows, want 5", n)
	}
	fp := eventKinds(o.events, EventFlowProgress)
	if len(fp) != 2 || fp[0].Batch != 0 || fp[0].Rows != 3 || fp[1].Batch != 1 || fp[1].Rows != 2 || fp[0].Flow != "pl.s/table-main.default.out" {
		t.Fatalf("flow progress %+v: want batch 0 (3 rows, file 1) then batch 1 (2 rows)", fp)
	}
	cp := flowDir(t, snap, "pl", "s")
	meta, err := os.ReadFile(filepath.Join(cp, "metadata"))
	if err != nil || !strings.HasPrefix(string(meta), `{"id":"`) {
		t.Fatalf("metadata %q %v", meta, err)
	}
	if got := fmt.Sprint(batchesOf(t, cp, "offsets"), batchesOf(t, cp, "commits")); got != "[0 1] [0 1]" {
		t.Fatalf("offsets and commits %s", got)
	}
	raw, _ := os.ReadFile(filepath.Join(cp, "offsets", "1"))
	lines := strings.Split(string(raw), "\n")
	if len(lines) != 3 || lines[0] != "v1" || !strings.Contains(lines[1], `"batchWatermarkMs":0`) || lines[2] != `{"logOffset":1}` {
		t.Fatalf("offsets/1:\n%s", raw)
	}
	commit, _ := os.ReadFile(filepath.Join(cp, "commits", "1"))
	if string(commit) != "v1\n{\"nextBatchWatermarkMs\":0}" {
		t.Fatalf("commits/1: %q", commit)
	}
	log, _ := os.ReadFile(filepath.Join(cp, "sources", "0", "1"))
	if !strings.HasPrefix(string(log), "v1\n{\"path\":\"file:///") || !strings.Contains(string(log), `2.jsonl","timestamp":`) || !strings.Contains(string(log), `"batchId":1}`) {
		t.Fatalf("sources/0/1:\n%s", log)
	}

	// Nothing new: no batch. A new file: only its rows.
	o = mustRun(t, r, snap, Request{})
	if fp := eventKinds(o.events, EventFlowProgress); len(fp) != 0 {
		t.Fatalf("no new file, yet batches %+v", fp)
	}
	w.write(map[string]string{"data/in/3.jsonl": jsonl("c", 0, 4, "")})
	o = mustRun(t, r, snap, Request{})
	if fp := eventKinds(o.events, EventFlowProgress); len(fp) != 1 || fp[0].Batch != 2 || fp[0].Rows != 4 {
		t.Fatalf("batches %+v: want batch 2 with file 3's 4 rows", fp)
	}
	if n := count(t, r, w.table("out"), ""); n != 9 {
		t.Fatalf("%d rows, want 9", n)
	}
	if ts := taskSum(t, o.sum, "pl.s"); ts.RowsRead != 4 || ts.RowsWritten != 4 {
		t.Fatalf("task summary %+v", ts)
	}
}

// deltaStreamFiles: node src appends its data folder to table src_t at
// each run (batch); node s streams src_t into out.
func deltaStreamFiles(readerKwargs string) map[string]string {
	return map[string]string{"pipelines/pl.yaml": `name: pl
nodes:
- name: src
  sources:
  - path: ../data/in/
    format: JSONL
  sinks:
  - table_name: src_t
    mode: APPEND
- name: s
  sources:
  - table_name: src_t
    as_stream: true
    reader_kwargs: ` + readerKwargs + `
  sinks:
  - table_name: out
    mode: APPEND
`, "data/in/1.jsonl": jsonl("a", 0, 3, "")}
}

func offsetOf(t testing.TB, raw json.RawMessage) deltaOffset {
	t.Helper()
	o, err := parseDeltaOffset(raw)
	if err != nil {
		t.Fatal(err)
	}
	return o
}

// TestDeltaStreamSnapshotThenTail: a Delta source reads the snapshot
// (isStartingVersion), then the commits after it, with Spark's offsets;
// the end of a version moves the offset to (version+1, -1).
func TestDeltaStreamSnapshotThenTail(t *testing.T) {
	w := newWS(t, deltaStreamFiles("{}"))
	r := testRunner(t)
	snap := w.load()
	mustRun(t, r, snap, Request{Selectors: []string{"src"}}) // v0 create, v1 append? one commit
	mustRun(t, r, snap, Request{Selectors: []string{"src"}})
	mustRun(t, r, snap, Request{Selectors: []string{"s"}})
	if n := count(t, r, w.table("out"), ""); n != 6 {
		t.Fatalf("%d rows after the snapshot, want 6", n)
	}
	src, _ := delta.LoadSnapshot(context.Background(), w.table("src_t"))
	cp := flowDir(t, snap, "pl", "s")
	o := offsetOf(t, readOffsetsFile(t, cp, 0).Offsets[0])
	if o.ReservoirID != src.TableID() || o.ReservoirVersion != src.Version()+1 || o.Index != -1 || o.IsStartingVersion {
		t.Fatalf("offset after the snapshot %+v (table v%d)", o, src.Version())
	}
	mustRun(t, r, snap, Request{Selectors: []string{"src"}})
	out := mustRun(t, r, snap, Request{Selectors: []string{"s"}})
	if n := count(t, r, w.table("out"), ""); n != 9 {
		t.Fatalf("%d rows after the tail, want 9", n)
	}
	if fp := eventKinds(out.events, EventFlowProgress); len(fp) != 1 || fp[0].Rows != 3 {
		t.Fatalf("tail batches %+v", fp)
	}
	mustRun(t, r, snap, Request{Selectors: []string{"s"}})
	if n := count(t, r, w.table("out"), ""); n != 9 {
		t.Fatalf("%d rows after a run without new commits, want 9", n)
	}
}

// TestDeltaStreamAdmission: maxFilesPerTrigger 1 reads the snapshot's
// files one per batch (index within the starting version), then the
// commits, each batch ending where the last file is.
func TestDeltaStreamAdmission(t *testing.T) {
	w := newWS(t, deltaStreamFiles("{maxFilesPerTrigger: 1}"))
	r := testRunner(t)
	snap := w.load()
	mustRun(t, r, snap, Request{Selectors: []string{"src"}})
	mustRun(t, r, snap, Request{Selectors: []string{"src"}})
	o := mustRun(t, r, snap, Request{Selectors: []string{"s"}})
	fp := eventKinds(o.events, EventFlowProgress)
	if len(fp) != 2 || fp[0].Rows != 3 || fp[1].Rows != 3 {
		t.Fatalf("batches %+v: want one file per batch", fp)
	}
	cp := flowDir(t, snap, "pl", "s")
	first := offsetOf(t, readOffsetsFile(t, cp, 0).Offsets[0])
	if !first.IsStartingVersion || first.Index != 0 {
		t.Fatalf("first offset %+v: want index 0 of the starting version", first)
	}
	if n := count(t, r, w.table("out"), ""); n != 6 {
		t.Fatalf("%d rows, want 6", n)
	}
}

// TestStartingVersion: startingVersion reads the commits from that version
// on, without the snapshot; latest only what comes after the start.
func TestStartingVersion(t *testing.T) {
	cases := []struct {
		name   string
		kwargs string
		want   int
	}{
		{"version 1", "{startingVersion: 1}", 6}, // v0 creates and appends 3, v1 and v2 append 3 each
		{"version 2", "{startingVersion: 2}", 3},
		{"latest", "{startingVersion: latest}", 0},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			w := newWS(t, deltaStreamFiles(tc.kwargs))
			r := testRunner(t)
			snap := w.load()
			for range 3 {
				mustRun(t, r, snap, Request{Selectors: []string{"src"}})
			}
			mustRun(t, r, snap, Request{Selectors: []string{"s"}})
			n := 0
			if exists(w.table("out")) {
				n = count(t, r, w.table("out"), "")
			}
			if n != tc.want {
				t.Fatalf("%d rows, want %d", n, tc.want)
			}
			if tc.name == "latest" {
				mustRun(t, r, snap, Request{Selectors: []string{"src"}})
				mustRun(t, r, snap, Request{Selectors: []string{"s"}})
				if n := count(t, r, w.table("out"), ""); n != 3 {
					t.Fatalf("%d rows after a new commit, want 3", n)
				}
			}
		})
	}
}

// TestStreamErrorsSayWhatToDo: a bad maxFilesPerTrigger and a table
// replaced under a reader fail with a fix.
func TestStreamErrorsSayWhatToDo(t *testing.T) {
	w := newWS(t, deltaStreamFiles("{}"))
	r := testRunner(t)
	snap := w.load()
	mustRun(t, r, snap, Request{Selectors: []string{"src"}})
	mustRun(t, r, snap, Request{Selectors: []string{"s"}})
	// src_t is dropped and created again: a new table id.
	mustRun(t, r, snap, Request{Selectors: []string{"src"}, Refresh: "FULL"})
	o := run(t, r, snap, Request{Selectors: []string{"s"}})
	ts := taskSum(t, o.sum, "pl.s")
	if !errors.Is(o.err, ErrTasksFailed) || !strings.Contains(ts.Err, "was replaced") || !strings.Contains(ts.Err, "--select s --refresh FULL") {
		t.Fatalf("err %v / %q", o.err, ts.Err)
	}
	mustRun(t, r, snap, Request{Selectors: []string{"s"}, Refresh: "FULL"})
	if n := count(t, r, w.table("out"), ""); n != 3 {
		t.Fatalf("%d rows after the reader's FULL refresh, want 3", n)
	}

	w2 := newWS(t, deltaStreamFiles("{maxFilesPerTrigger: 0}"))
	mustRun(t, r, w2.load(), Request{Selectors: []string{"src"}})
	o = run(t, r, w2.load(), Request{Selectors: []string{"s"}})
	if ts := taskSum(t, o.sum, "pl.s"); !strings.Contains(ts.Err, "maxFilesPerTrigger must be a positive number") {
		t.Fatalf("%q", ts.Err)
	}
}

// seedReaders: writers a (3 rows per run) and b (2) of the shared table
// prices, and four streaming readers: of writer a (node_name) and of the
// whole table (table_name), each with the default reader and with
// skipChangeCommits.
func seedReaders() map[string]string {
	reader := func(name, src, kwargs string) string {
		return `- name: ` + name + `
  sources:
  - ` + src + `
    as_stream: true
    reader_kwargs: ` + kwargs + `
  sinks:
  - table_name: ` + name + `
    mode: APPEND
`
	}
	files := scenarioFiles(ownerships[0])
	files["pipelines/pl.yaml"] += reader("r_def", "node_name: a", "{}") + reader("r_skip", "node_name: a", "{skipChangeCommits: true}") +
		reader("t_def", "table_name: prices", "{}") + reader("t_skip", "table_name: prices", "{skipChangeCommits: true}")
	return files
}

// TestSeedReaderTable holds the seed's table of streaming readers of a
// shared table, row by row:
//
//	reader            | FULL refresh of another writer       | FULL refresh of the writer it reads
//	default           | fails: run a full refresh of it      | fails: run a full refresh of it
//	skipChangeCommits | no effect (deletes skipped, filtered) | rows read again: warn, FULL refresh of it
//
// and a whole-table reader with skipChangeCommits duplicates after any
// writer's refresh. The plan warns before the writer's refresh, the run
// warns when the reader skips the delete; a FULL refresh of the reader
// puts it right.
func TestSeedReaderTable(t *testing.T) {
	type want struct {
		fails bool
		rows  int
		warn  string // a run-time warning of the reader's run
	}
	cases := []struct {
		name, refreshed, reader string
		planWarn                string // a warning of the writer's FULL refresh plan
		want                    want
	}{
		{name: "default reader, another writer refreshed", refreshed: "b", reader: "r_def", planWarn: "stops on its next run with DELTA_SOURCE_IGNORE_DELETE (the deleted rows of b)", want: want{fails: true}},
		{name: "skipChangeCommits, another writer refreshed", refreshed: "b", reader: "r_skip", want: want{rows: 3}},
		{name: "default reader, its writer refreshed", refreshed: "a", reader: "r_def", planWarn: "stops on its next run with DELTA_SOURCE_IGNORE_DELETE", want: want{fails: true}},
		{name: "skipChangeCommits, its writer refreshed", refreshed: "a", reader: "r_skip", planWarn: "reads the rows a writes again",
			want: want{rows: 6, warn: "deleted the rows of the writer it reads"}},
		{name: "whole table, default reader", refreshed: "b", reader: "t_def", planWarn: "DELTA_SOURCE_IGNORE_DELETE", want: want{fails: true}},
		{name: "whole table, skipChangeCommits", refreshed: "b", reader: "t_skip", planWarn: "reads the rows b writes again", want: want{rows: 7, warn: "which removed rows"}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			w := newWS(t, seedReaders())
			r := testRunner(t)
			snap := w.load()
			mustRun(t, r, snap, Request{Selectors: []string{"a", "b"}})
			mustRun(t, r, snap, Request{Selectors: []string{tc.reader}})
			out := w.table(tc.reader)
			before := count(t, r, out, "")
			o := mustRun(t, r, snap, Request{Selectors: []string{tc.refreshed}, Refresh: "FULL"})
			planWarns := fmt.Sprint(o.plan.Warnings)
			if tc.planWarn != "" && (!strings.Contains(planWarns, "node '"+tc.reader+"'") || !strings.Contains(planWarns, tc.planWarn)) {
				t.Errorf("plan warnings %s: want %q about %s", planWarns, tc.planWarn, tc.reader)
			}
			if tc.planWarn == "" && strings.Contains(planWarns, "node '"+tc.reader+"'") {
				t.Errorf("plan warnings %s: nothing expected about %s", planWarns, tc.reader)
			}
			o = run(t, r, snap, Request{Selectors: []string{tc.reader}})
			ts := taskSum(t, o.sum, "pl."+tc.reader)
			if tc.want.fails {
				for _, s := range []string{"DELTA_SOURCE_IGNORE_DELETE", "Run a FULL refresh of node '" + tc.reader + "'", "--select " + tc.reader + " --refresh FULL", "skipChangeCommits: true"} {
					if !strings.Contains(ts.Err, s) {
						t.Fatalf("reader error %q: want %q", ts.Err, s)
					}
				}
				if n := count(t, r, out, ""); n != before {
					t.Fatalf("a failed reader wrote: %d rows, had %d", n, before)
				}
			} else {
				if o.err != nil {
					t.Fatalf("reader failed: %v %s", o.err, ts.Err)
				}
				if n := count(t, r, out, ""); n != tc.want.rows {
					t.Fatalf("%d rows, want %d", n, tc.want.rows)
				}
				warns := strings.Join(o.sum.Warnings, "\n")
				if tc.want.warn != "" && (!strings.Contains(warns, tc.want.warn) || !strings.Contains(warns, "run a FULL refresh of node '"+tc.reader+"'")) {
					t.Fatalf("warnings %q: want %q", warns, tc.want.warn)
				}
				if n := strings.Count(warns, tc.want.warn); tc.want.warn != "" && n != 1 {
					t.Fatalf("warnings %q: want %q once, got it %d times", warns, tc.want.warn, n)
				}
				if tc.want.warn == "" && warns != "" {
					t.Fatalf("warnings %q: want none", warns)
				}
			}
			// A FULL refresh of the reader puts it right.
			mustRun(t, r, snap, Request{Selectors: []string{tc.reader}, Refresh: "FULL"})
			want := 3
			if strings.HasPrefix(tc.reader, "t_") {
				want = 5
			}
			if n := count(t, r, out, ""); n != want {
				t.Fatalf("%d rows after the reader's FULL refresh, want %d", n, want)
			}
		})
	}
}

// TestIgnoreDeletes: ignoreDeletes tolerates commits that only delete
// (a RESET of a writer); the default reader stops on them.
func TestIgnoreDeletes(t *testing.T) {
	for _, tc := range []struct {
		kwargs string
		fails  bool
	}{{"{ignoreDeletes: true}", false}, {"{}", true}} {
		t.Run(tc.kwargs, func(t *testing.T) {
			files := scenarioFiles(ownerships[0])
			files["pipelines/pl.yaml"] += `- name: rd
  sources:
  - table_name: prices
    as_stream: true
    reader_kwargs: ` + tc.kwargs + `
  sinks:
  - table_name: rd
    mode: APPEND
`
			w := newWS(t, files)
			r := testRunner(t)
			snap := w.load()
			mustRun(t, r, snap, Request{Selectors: []string{"a", "b", "rd"}})
			mustRun(t, r, snap, Request{Selectors: []string{"b"}, Refresh: "RESET"})
			mustRun(t, r, snap, Request{Selectors: []string{"a"}})
			o := run(t, r, snap, Request{Selectors: []string{"rd"}})
			if ts := taskSum(t, o.sum, "pl.rd"); tc.fails != (o.err != nil) || tc.fails && !strings.Contains(ts.Err, "DELTA_SOURCE_IGNORE_DELETE") {
				t.Fatalf("err %v %q", o.err, ts.Err)
			}
			if !tc.fails {
				if n := count(t, r, w.table("rd"), ""); n != 8 {
					t.Fatalf("%d rows: want 5 + a's 3 new ones", n)
				}
			}
		})
	}
}

// TestStreamingRefresh: a FULL refresh of a streaming writer of a shared
// table deletes its rows and resets its checkpoint: it reprocesses its
// files once (a new flow id, so its batches are not taken for done);
// RESET with DROP resets the checkpoints of every writer of the table in
// the pipeline, which all reprocess on the next run.
func TestStreamingRefresh(t *testing.T) {
	files := scenarioFiles(ownerships[0])
	files["pipelines/pl.yaml"] = strings.ReplaceAll(files["pipelines/pl.yaml"], "    format: JSONL\n", "    format: JSONL\n    as_stream: true\n")
	w := newWS(t, files)
	r := testRunner(t)
	snap := w.load()
	path := w.table("prices")
	mustRun(t, r, snap, Request{Selectors: []string{"a", "b"}})
	mustRun(t, r, snap, Request{Selectors: []string{"a", "b"}})
	if got := writerCounts(t, r, path, "_laktory_writer"); got != "pl.a=3 pl.b=2" {
		t.Fatalf("rows %s: each file once", got)
	}
	cpA, cpB := flowDir(t, snap, "pl", "a"), flowDir(t, snap, "pl", "b")
	idA, _ := os.ReadFile(filepath.Join(cpA, "metadata"))
	o := mustRun(t, r, snap, Request{Selectors: []string{"a"}, Refresh: "FULL"})
	if got := writerCounts(t, r, path, "_laktory_writer"); got != "pl.a=3 pl.b=2" {
		t.Fatalf("rows %s after a's FULL refresh", got)
	}
	if id, _ := os.ReadFile(filepath.Join(cpA, "metadata")); string(id) == string(idA) {
		t.Fatal("the refreshed flow kept its id")
	}
	if !strings.Contains(fmt.Sprint(o.plan.Effects), "reset the streaming checkpoint") {
		t.Fatalf("effects %v", o.plan.Effects)
	}
	resets := 0
	for _, e := range eventKinds(o.events, EventOperation) {
		if e.Operation == "RESET CHECKPOINT" {
			resets++
			if e.Checkpoint != cpA {
				t.Fatalf("checkpoint reset %+v: the event names the folder reset (%s)", e, cpA)
			}
		}
	}
	if resets != 1 {
		t.Fatalf("%d checkpoint resets reported, want a's", resets)
	}
	o = mustRun(t, r, snap, Request{Selectors: []string{"a"}, Refresh: "RESET", ResetMode: "DROP"})
	if exists(cpA) || exists(cpB) || exists(path) {
		t.Fatal("RESET with DROP must drop the table and reset every writer's checkpoint")
	}
	mustRun(t, r, snap, Request{Selectors: []string{"a", "b"}})
	if got := writerCounts(t, r, path, "_laktory_writer"); got != "pl.a=3 pl.b=2" {
		t.Fatalf("rows %s after the reset: every writer reprocesses", got)
	}
}

// TestStreamComplete: a streaming aggregation written in COMPLETE mode
// (Spark's OutputMode.Complete into a Delta sink): each micro-batch
// computes the aggregation over all the input so far and overwrites the
// table with it, so after two runs the table holds the aggregation of
// every file, once; a FULL refresh starts it again from the files.
func TestStreamComplete(t *testing.T) {
	w := newWS(t, map[string]string{
		"pipelines/pl.yaml": `name: pl
nodes:
- name: agg
  sources:
  - path: ../data/a/
    format: JSONL
    as_stream: true
  transformer:
    nodes:
    - expr: SELECT substr(k, 1, 1) AS g, count(*) AS n, sum(v) AS s FROM {df} GROUP BY 1
  sinks:
  - table_name: totals
    mode: COMPLETE
`,
		"data/a/1.jsonl": jsonl("a", 0, 3, ""),
	})
	r := testRunner(t)
	snap := w.load()
	mustRun(t, r, snap, Request{})
	if got := query(t, r, w.table("totals"), "SELECT g, n, s FROM t ORDER BY g"); fmt.Sprint(got) != "[[a 3 3]]" {
		t.Fatalf("after the first batch: %v", got)
	}
	w.write(map[string]string{"data/a/2.jsonl": jsonl("a", 3, 5, "") + jsonl("b", 5, 6, "")})
	mustRun(t, r, snap, Request{})
	want := "[[a 5 10] [b 1 5]]"
	if got := query(t, r, w.table("totals"), "SELECT g, n, s FROM t ORDER BY g"); fmt.Sprint(got) != want {
		t.Fatalf("after the second batch: %v, want %s", got, want)
	}
	mustRun(t, r, snap, Request{Refresh: "FULL"})
	if got := query(t, r, w.table("totals"), "SELECT g, n, s FROM t ORDER BY g"); fmt.Sprint(got) != want {
		t.Fatalf("after a FULL refresh: %v, want %s", got, want)
	}
}

// TestStreamCompletePartial: a COMPLETE aggregation of counts, sums,
// minimums and maximums per key keeps its output as its state, merged with
// each micro-batch's own aggregation, so the state holds one row per key
// however many rows arrived (it held every input row: 3, then 203, then
// 403), and the table is the aggregation of all of them; a query of
// another shape (avg) keeps its input. Two flows over the same files.
func TestStreamCompletePartial(t *testing.T) {
	rows := func(from, to int) string {
		var b strings.Builder
		for i := from; i < to; i++ {
			fmt.Fprintf(&b, `{"k": "%c", "v": %d}`+"\n", 'a'+i%3, i)
		}
		return b.String()
	}
	w := newWS(t, map[string]string{
		"pipelines/pl.yaml": `name: pl
nodes:
- name: agg
  sources:
  - path: ../data/a/
    format: JSONL
    as_stream: true
  transformer:
    nodes:
    - expr: SELECT k, count(*) AS n, count(v) AS nv, sum(v) AS s, min(v) AS lo, max(v) AS hi FROM {df} WHERE v >= 0 GROUP BY k
  sinks:
  - table_name: totals
    mode: COMPLETE
- name: avg
  sources:
  - path: ../data/a/
    format: JSONL
    as_stream: true
  transformer:
    nodes:
    - expr: SELECT k, avg(v) AS m FROM {df} GROUP BY k
  sinks:
  - table_name: means
    mode: COMPLETE
`,
		"data/a/1.jsonl": rows(0, 3),
	})
	r := testRunner(t)
	snap := w.load()
	p := snap.Pipeline("pl")
	if completePartial(p.Node("agg")) == nil || completePartial(p.Node("avg")) != nil {
		t.Fatal("agg merges, avg does not")
	}
	stateRows := func(node, table string) (out, in int64) {
		t.Helper()
		n := p.Node(node)
		dir := filepath.Join(CheckpointDir(snap.Layout, p, n, n.Sinks[0]), "state")
		count := func(glob string) int64 {
			files, _ := filepath.Glob(filepath.Join(dir, "*", glob, "*.parquet"))
			if len(files) == 0 {
				return 0
			}
			var c int64
			if err := r.db.QueryRowContext(t.Context(), "SELECT count(*) FROM read_parquet(?)", files).Scan(&c); err != nil {
				t.Fatal(err)
			}
			return c
		}
		return count(completeState), count("input_*")
	}
	want := func(step string, n int) {
		t.Helper()
		var exp [][]string
		for k := range 3 {
			var c, s, lo, hi int
			lo = -1
			for i := k; i < n; i += 3 {
				c, s, hi = c+1, s+i, i
				if lo < 0 {
					lo = i
				}
			}
			exp = append(exp, []string{string(rune('a' + k)), fmt.Sprint(c), fmt.Sprint(c), fmt.Sprint(s), fmt.Sprint(lo), fmt.Sprint(hi)})
		}
		if got := query(t, r, w.table("totals"), "SELECT k, n, nv, s, lo, hi FROM t ORDER BY k"); fmt.Sprint(got) != fmt.Sprint(exp) {
			t.Fatalf("%s: totals %v, want %v", step, got, exp)
		}
		if got := query(t, r, w.table("means"), "SELECT count(*) FROM t"); fmt.Sprint(got) != "[[3]]" {
			t.Fatalf("%s: means %v", step, got)
		}
		out, in := stateRows("agg", "totals")
		if out != 3 || in != 0 {
			t.Fatalf("%s: the partial aggregation's state holds %d output rows and %d input rows, want 3 and 0", step, out, in)
		}
		if _, in := stateRows("avg", "means"); in != int64(n) {
			t.Fatalf("%s: avg's state holds %d input rows, want %d", step, in, n)
		}
	}
	mustRun(t, r, snap, Request{})
	want("first run", 3)
	w.write(map[string]string{"data/a/2.jsonl": rows(3, 203)})
	mustRun(t, r, snap, Request{})
	want("second run", 203)
	w.write(map[string]string{"data/a/3.jsonl": rows(203, 403)})
	mustRun(t, r, snap, Request{})
	want("third run", 403)
	mustRun(t, r, snap, Request{Refresh: "FULL"})
	want("a FULL refresh", 403)
}
