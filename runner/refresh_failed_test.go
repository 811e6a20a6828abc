//go:build unix

package runner

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/laktory/workbench/workspace/workspacetest"
)

// resumes returns the resume effects of the next run's plan of req.
func resumes(t *testing.T, r *Runner, w *ws, req Request) []Effect {
	t.Helper()
	plan, err := r.Plan(t.Context(), w.load(), req)
	if err != nil {
		t.Fatal(err)
	}
	var out []Effect
	for _, e := range plan.Effects {
		if e.Kind == EffectResume {
			out = append(out, e)
		}
	}
	return out
}

// TestFailedRefreshLeavesNothing: a FULL refresh that fails before it
// changed anything (a source it cannot parse) leaves no record of an
// interrupted refresh: the next plain run is not turned into a FULL
// refresh announced as "interrupted", and is not refused as destructive
// (before, a shared writer's failed FULL refresh left its intent, and the
// next `laktory run` was refused without --yes, `run --watch` did not run
// it, the workbench asked to confirm it). One that did commit keeps its
// record: the rerun redoes it, and the rows come out exact (neither lost
// nor duplicated), whether the source is fixed or not.
func TestFailedRefreshLeavesNothing(t *testing.T) {
	const bad = `{"k": "x", v: 1}` + "\n"
	t.Run("shared writers of one table, nothing committed", func(t *testing.T) {
		const pl = `name: pl
nodes:
- name: a
  source:
    path: ../data/a.jsonl
    format: JSONL
  sinks:
  - table_name: t
    mode: APPEND
    shared: true
- name: b
  source:
    path: ../data/b.jsonl
    format: JSONL
  sinks:
  - table_name: t
    mode: APPEND
    shared: true
`
		w := newWS(t, map[string]string{"pipelines/pl.yaml": pl, "data/a.jsonl": jsonl("a", 0, 3, ""), "data/b.jsonl": jsonl("b", 0, 2, "")})
		r := testRunner(t)
		mustRun(t, r, w.load(), Request{})
		w.write(map[string]string{"data/b.jsonl": bad})
		for _, sel := range [][]string{{"b"}, nil} {
			o := run(t, r, w.load(), Request{Refresh: "FULL", Selectors: sel, Parallel: 1})
			if o.err == nil || !strings.Contains(taskSum(t, o.sum, "pl.b").Err, "cannot be parsed") {
				t.Fatalf("FULL %v: err %v, %+v", sel, o.err, o.sum.Tasks)
			}
			b := w.load().Pipeline("pl").Node("b")
			if p := intentPath(CheckpointDir(w.load().Layout, w.load().Pipeline("pl"), b, b.Sinks[0])); exists(p) {
				t.Fatalf("FULL %v: the failed refresh left its record %s", sel, p)
			}
			plan, err := r.Plan(t.Context(), w.load(), Request{Selectors: []string{"b"}})
			if err != nil {
				t.Fatal(err)
			}
			if plan.Destructive() {
				t.Fatalf("FULL %v: the next plain run of b is destructive: %+v", sel, plan.Effects)
			}
			if got, want := writerCounts(t, r, w.table("t"), "_laktory_writer"), "pl.a=3 pl.b=2"; got != want {
				t.Fatalf("FULL %v: rows per writer %s, want %s", sel, got, want)
			}
		}
		w.write(map[string]string{"data/b.jsonl": jsonl("b", 0, 4, "")})
		mustRun(t, r, w.load(), Request{Refresh: "FULL", Selectors: []string{"b"}})
		if got, want := writerCounts(t, r, w.table("t"), "_laktory_writer"), "pl.a=3 pl.b=4"; got != want {
			t.Fatalf("rows per writer after the FULL refresh of the fixed source: %s, want %s", got, want)
		}
	})

	t.Run("streaming shared writer, a batch committed", func(t *testing.T) {
		const pl = `name: pl
nodes:
- name: s
  sources:
  - path: ../data/in/
    format: JSONL
    as_stream: true
    reader_kwargs: {maxFilesPerTrigger: 1}
  sinks:
  - table_name: t
    mode: APPEND
    shared: true
`
		w := newWS(t, map[string]string{"pipelines/pl.yaml": pl, "data/in/1.jsonl": jsonl("a", 0, 3, "")})
		r := testRunner(t)
		mustRun(t, r, w.load(), Request{})
		w.write(map[string]string{"data/in/2.jsonl": bad})
		workspacetest.Ordered(t, w.dir, time.Now().Add(-time.Hour), "data/in/1.jsonl", "data/in/2.jsonl")
		for i, req := range []Request{{Refresh: "FULL"}, {}} {
			o := run(t, r, w.load(), req)
			if o.err == nil {
				t.Fatalf("run %d: read a file it cannot parse", i)
			}
			if n := count(t, r, w.table("t"), ""); n != 3 {
				t.Fatalf("run %d: %d rows, want 1.jsonl's 3 once", i, n)
			}
			if res := resumes(t, r, w, Request{}); len(res) != 1 {
				t.Fatalf("run %d: the refresh that reset the checkpoint and committed a batch is not redone: %+v", i, res)
			}
		}
		w.write(map[string]string{"data/in/2.jsonl": jsonl("b", 0, 2, "")})
		workspacetest.Ordered(t, w.dir, time.Now().Add(-time.Hour), "data/in/1.jsonl", "data/in/2.jsonl")
		mustRun(t, r, w.load(), Request{})
		if n, d := count(t, r, w.table("t"), ""), len(query(t, r, w.table("t"), "SELECT DISTINCT k FROM t")); n != 5 || d != 5 {
			t.Fatalf("after the source was fixed: %d rows, %d distinct, want 5 and 5", n, d)
		}
		if res := resumes(t, r, w, Request{}); len(res) != 0 {
			t.Fatalf("the redone refresh left its record: %+v", res)
		}
	})

	// A task that never started (skipped: its upstream failed) keeps the
	// record its run made for it: another run may have changed what it
	// reads meanwhile (recordPending leaves a writer another run holds to
	// its own task). The upstream's own record goes (it started and
	// changed nothing).
	t.Run("skipped reader", func(t *testing.T) {
		const pl = `name: pl
nodes:
- name: a
  source:
    path: ../data/a.jsonl
    format: JSONL
  sinks:
  - table_name: t
    mode: APPEND
    shared: true
- name: g
  sources:
  - node_name: a
    as_stream: true
    reader_kwargs: {skipChangeCommits: true}
  sinks:
  - table_name: gold
    mode: APPEND
`
		w := newWS(t, map[string]string{"pipelines/pl.yaml": pl, "data/a.jsonl": jsonl("a", 0, 3, "")})
		r := testRunner(t)
		mustRun(t, r, w.load(), Request{})
		w.write(map[string]string{"data/a.jsonl": bad})
		o := run(t, r, w.load(), Request{Refresh: "FULL", Parallel: 1})
		if o.err == nil || taskSum(t, o.sum, "pl.g").Status != "skipped" {
			t.Fatalf("err %v, %+v", o.err, o.sum.Tasks)
		}
		if res := resumes(t, r, w, Request{}); len(res) != 1 || res[0].Task != "pl.g" {
			t.Fatalf("the next run's redos: %+v, want g's only", res)
		}
	})

	// A task that changed nothing keeps the record another task of the
	// run made for it when what it reads changed: g, a streaming reader
	// of a's rows, fails before it starts (injected) after a's FULL
	// refresh committed: the next run still refreshes g, reading a's
	// rows once.
	t.Run("reader of a refreshed writer", func(t *testing.T) {
		const pl = crashPipeline + `- name: g
  sources:
  - node_name: a
    as_stream: true
    reader_kwargs: {skipChangeCommits: true}
  sinks:
  - table_name: gold
    mode: APPEND
`
		w := newWS(t, map[string]string{"pipelines/pl.yaml": pl,
			"data/a/1.jsonl": jsonl("a", 0, 3, ""), "data/b/1.jsonl": jsonl("b", 0, 2, "")})
		mustRun(t, testRunner(t), w.load(), Request{})
		failing := testRunner(t, func(c *Config) {
			c.afterPathCheck = func(task string) {
				if task == "pl.g" {
					panic(fmt.Sprint("injected failure of ", task))
				}
			}
		})
		o := run(t, failing, w.load(), Request{Pipelines: []string{"pl"}, Refresh: "FULL", Parallel: 1})
		if o.err == nil || !strings.Contains(taskSum(t, o.sum, "pl.g").Err, "injected") {
			t.Fatalf("err %v, %+v", o.err, o.sum.Tasks)
		}
		r := testRunner(t)
		if res := resumes(t, r, w, Request{}); len(res) != 1 || res[0].Task != "pl.g" {
			t.Fatalf("the next run does not refresh g: %+v", res)
		}
		mustRun(t, r, w.load(), Request{})
		if n := count(t, r, w.table("gold"), ""); n != 3 {
			t.Fatalf("gold holds %d rows after the rerun, want a's 3 (once each)", n)
		}
	})
}
