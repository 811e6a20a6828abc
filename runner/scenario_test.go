package runner

import (
	"errors"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/laktory/workbench/runner/engine"
	"github.com/laktory/workbench/validate"
	"github.com/laktory/workbench/workspace"
)

// ownership describes one way writers own their rows in the scenarios.
type ownership struct {
	name string
	// sharedA / sharedB are the `shared:` YAML of writers a and b.
	sharedA, sharedB string
	// ownsA / ownsB select each writer's rows in the table.
	ownsA, ownsB string
}

var ownerships = []ownership{
	{name: "writer column", sharedA: "true", sharedB: "true",
		ownsA: "_laktory_writer = 'pl.a'", ownsB: "_laktory_writer = 'pl.b'"},
	{name: "where", sharedA: "{where: c = 1}", sharedB: "{where: c = 2}", ownsA: "c = 1", ownsB: "c = 2"},
}

// scenarioFiles is a pipeline with writers a and b of the shared table
// prices (a: 3 rows per run, b: 2) and a regular node c writing solo
// (3 rows per run).
func scenarioFiles(o ownership) map[string]string {
	return map[string]string{
		"pipelines/pl.yaml": `name: pl
nodes:
- name: a
  sources:
  - path: ../data/a/
    format: JSONL
  sinks:
  - table_name: prices
    mode: APPEND
    shared: ` + o.sharedA + `
- name: b
  sources:
  - path: ../data/b/
    format: JSONL
  sinks:
  - table_name: prices
    mode: APPEND
    shared: ` + o.sharedB + `
- name: c
  sources:
  - path: ../data/a/
    format: JSONL
  sinks:
  - table_name: solo
    mode: APPEND
`,
		"data/a/1.jsonl": jsonl("a", 0, 3, `, "c": 1`),
		"data/b/1.jsonl": jsonl("b", 0, 2, `, "c": 2`),
	}
}

// TestRefreshTable covers every row of the refresh table, for a regular
// sink and for a shared sink with each kind of ownership. Each case starts
// from two incremental runs (prices: a 6 rows, b 4; solo: 6 rows).
func TestRefreshTable(t *testing.T) {
	type state struct {
		a, b, solo int // -1: the table does not exist
	}
	cases := []struct {
		name      string
		req       Request
		want      state
		effects   []EffectKind
		deletions map[string]int64 // writer task -> rows deleted
		rejected  string           // code of the plan rejection
	}{
		{name: "incremental", req: Request{}, want: state{9, 6, 9}},
		{name: "full shared writer", req: Request{Refresh: "FULL", Selectors: []string{"a"}}, want: state{3, 4, 6},
			effects: []EffectKind{EffectDeleteRows, EffectResetCheckpoint}, deletions: map[string]int64{"pl.a": 6}},
		{name: "reset shared writer", req: Request{Refresh: "RESET", Selectors: []string{"a"}}, want: state{0, 4, 6},
			effects: []EffectKind{EffectDeleteRows, EffectResetCheckpoint}, deletions: map[string]int64{"pl.a": 6}},
		{name: "full shared ignores sink reset_mode", req: Request{Refresh: "full", Selectors: []string{"b"}}, want: state{6, 2, 6},
			effects: []EffectKind{EffectDeleteRows, EffectResetCheckpoint}, deletions: map[string]int64{"pl.b": 4}},
		{name: "reset drop shared table", req: Request{Refresh: "RESET", ResetMode: "DROP", Selectors: []string{"a"}}, want: state{-1, -1, 6},
			effects: []EffectKind{EffectDropTable, EffectResetCheckpoint, EffectResetCheckpoint}},
		{name: "reset truncate shared table", req: Request{Refresh: "RESET", ResetMode: "truncate", Selectors: []string{"b"}}, want: state{0, 0, 6},
			effects: []EffectKind{EffectTruncateTable, EffectResetCheckpoint, EffectResetCheckpoint}},
		{name: "full drop shared rejected", req: Request{Refresh: "FULL", ResetMode: "DROP", Selectors: []string{"a"}}, rejected: validate.CodeFullOverrideShared},
		{name: "full truncate shared rejected", req: Request{Refresh: "FULL", ResetMode: "TRUNCATE", Selectors: []string{"b"}}, rejected: validate.CodeFullOverrideShared},
		{name: "full regular", req: Request{Refresh: "FULL", Selectors: []string{"c"}}, want: state{6, 4, 3},
			effects: []EffectKind{EffectDropTable}},
		{name: "reset regular", req: Request{Refresh: "RESET", Selectors: []string{"c"}}, want: state{6, 4, -1},
			effects: []EffectKind{EffectDropTable}},
		{name: "full regular with truncate", req: Request{Refresh: "FULL", ResetMode: "TRUNCATE", Selectors: []string{"c"}}, want: state{6, 4, 3},
			effects: []EffectKind{EffectTruncateTable}},
		{name: "reset regular with truncate", req: Request{Refresh: "RESET", ResetMode: "TRUNCATE", Selectors: []string{"c"}}, want: state{6, 4, 0},
			effects: []EffectKind{EffectTruncateTable}},
		{name: "reset regular with drop", req: Request{Refresh: "RESET", ResetMode: "DROP", Selectors: []string{"c"}}, want: state{6, 4, -1},
			effects: []EffectKind{EffectDropTable}},
	}
	for _, own := range ownerships {
		t.Run(own.name, func(t *testing.T) {
			for _, tc := range cases {
				t.Run(tc.name, func(t *testing.T) {
					files := scenarioFiles(own)
					// b's sink declares TRUNCATE: a shared sink ignores it.
					files["pipelines/pl.yaml"] = strings.Replace(files["pipelines/pl.yaml"], "    shared: "+own.sharedB,
						"    shared: "+own.sharedB+"\n    reset_mode: TRUNCATE", 1)
					w := newWS(t, files)
					r := testRunner(t)
					snap := w.load()
					mustRun(t, r, snap, Request{})
					mustRun(t, r, snap, Request{})
					// Streaming checkpoints of both writers of prices.
					for _, n := range []string{"a", "b"} {
						p := snap.Pipeline("pl")
						cp := CheckpointDir(snap.Layout, p, p.Node(n), p.Node(n).Sinks[0])
						if err := os.MkdirAll(cp, 0o755); err != nil {
							t.Fatal(err)
						}
					}
					if tc.rejected != "" {
						pe := planErr(t, r, snap, tc.req)
						if !hasDiag(pe, tc.rejected, "RESET") {
							t.Fatalf("rejection %v lacks %s and the RESET advice", pe, tc.rejected)
						}
						if !errors.Is(pe, ErrInvalidRun) {
							t.Fatal("PlanError must wrap ErrInvalidRun")
						}
						tc.want = state{6, 4, 6}
					} else {
						o := mustRun(t, r, snap, tc.req)
						var kinds []EffectKind
						for _, e := range o.plan.Effects {
							kinds = append(kinds, e.Kind)
						}
						if !slices.Equal(kinds, tc.effects) {
							t.Fatalf("effects %v, want %v: %+v", kinds, tc.effects, o.plan.Effects)
						}
						for _, e := range o.plan.Effects {
							if e.Kind == EffectDeleteRows && e.Rows != tc.deletions[e.Task] {
								t.Fatalf("effect %+v: estimated %d rows, want %d", e, e.Rows, tc.deletions[e.Task])
							}
						}
						got := map[string]int64{}
						for _, d := range o.sum.Deletions {
							got[d.Task] += d.Rows
						}
						if len(got) != len(tc.deletions) {
							t.Fatalf("deletions %+v, want %v", o.sum.Deletions, tc.deletions)
						}
						for k, v := range tc.deletions {
							if got[k] != v {
								t.Fatalf("deleted %d rows for %s, want %d", got[k], k, v)
							}
						}
						hd := detail(t, w, o.sum.RunID)
						if len(hd.Deletions) != len(o.sum.Deletions) {
							t.Fatalf("history deletions %+v", hd.Deletions)
						}
					}
					prices, solo := w.table("prices"), w.table("solo")
					got := state{-1, -1, -1}
					if exists(filepath.Join(prices, "_delta_log")) {
						got.a, got.b = count(t, r, prices, own.ownsA), count(t, r, prices, own.ownsB)
					}
					if exists(filepath.Join(solo, "_delta_log")) {
						got.solo = count(t, r, solo, "")
					}
					if got != tc.want {
						t.Fatalf("after %+v: %+v, want %+v", tc.req, got, tc.want)
					}
					// A FULL or RESET of a writer resets its checkpoint; a
					// whole-table reset those of both writers.
					p := snap.Pipeline("pl")
					for _, n := range []string{"a", "b"} {
						cp := CheckpointDir(snap.Layout, p, p.Node(n), p.Node(n).Sinks[0])
						var reset bool
						if tc.rejected == "" && len(tc.req.Selectors) > 0 && tc.req.Selectors[0] != "c" {
							reset = tc.req.ResetMode != "" || tc.req.Selectors[0] == n
						}
						if exists(cp) == reset {
							t.Fatalf("checkpoint of %s exists=%v after %+v", n, exists(cp), tc.req)
						}
					}
				})
			}
		})
	}
}

// TestFullRefreshDeleteThenAppend: a FULL refresh of a shared writer
// deletes its rows in one commit, then appends the new ones in another, as
// Laktory does (purge, then write): a streaming reader of the table sees
// the delete (and skips it with skipChangeCommits) apart from the new rows.
func TestFullRefreshDeleteThenAppend(t *testing.T) {
	w := newWS(t, scenarioFiles(ownerships[0]))
	r := testRunner(t)
	snap := w.load()
	mustRun(t, r, snap, Request{Selectors: []string{"a", "b"}})
	o := mustRun(t, r, snap, Request{Refresh: "FULL", Selectors: []string{"a"}})
	ops := taskSum(t, o.sum, "pl.a").Operations
	if len(ops) != 2 || ops[0].Operation != "DELETE" || ops[0].RowsDeleted != 3 || ops[0].RowsAdded != 0 || *ops[0].Version != 2 ||
		ops[1].RowsAdded != 3 || ops[1].RowsDeleted != 0 || *ops[1].Version != 3 {
		t.Fatalf("operations %+v: want a commit deleting 3 rows at version 2, then one adding 3 at version 3", ops)
	}
	if !strings.Contains(eventKinds(o.events, EventDeleted)[0].Message, "Deleted 3 rows") {
		t.Fatalf("deleted event %+v", eventKinds(o.events, EventDeleted))
	}
}

// TestSeveralPipelinesOneTable: a FULL refresh of one pipeline touches its
// rows only; FULL with an override is rejected; RESET+DROP warns once that
// the writers of the pipelines outside the run need a FULL refresh.
func TestSeveralPipelinesOneTable(t *testing.T) {
	pipeline := func(name, data string) string {
		return `name: ` + name + `
nodes:
- name: orders
  sources:
  - path: ../data/` + data + `/
    format: JSONL
  sinks:
  - table_name: all_orders
    mode: APPEND
    shared: true
`
	}
	w := newWS(t, map[string]string{
		"pipelines/pl1.yaml": pipeline("pl1", "a"),
		"pipelines/pl2.yaml": pipeline("pl2", "b"),
		"data/a/1.jsonl":     jsonl("a", 0, 3, ""),
		"data/b/1.jsonl":     jsonl("b", 0, 2, ""),
	})
	r := testRunner(t)
	snap := w.load()
	path := w.table("all_orders")
	mustRun(t, r, snap, Request{})
	mustRun(t, r, snap, Request{})
	if got := writerCounts(t, r, path, "_laktory_writer"); got != "pl1.orders=6 pl2.orders=4" {
		t.Fatalf("after two runs: %s", got)
	}
	o := mustRun(t, r, snap, Request{Pipelines: []string{"pl2"}, Refresh: "FULL"})
	if got := writerCounts(t, r, path, "_laktory_writer"); got != "pl1.orders=6 pl2.orders=2" {
		t.Fatalf("after FULL of pl2: %s", got)
	}
	if len(o.sum.Deletions) != 1 || o.sum.Deletions[0].Writer != "pl2.orders" || o.sum.Deletions[0].Rows != 4 {
		t.Fatalf("deletions %+v", o.sum.Deletions)
	}
	pe := planErr(t, r, snap, Request{Pipelines: []string{"pl2"}, Refresh: "FULL", ResetMode: "DROP"})
	if !hasDiag(pe, validate.CodeFullOverrideOthers, "would also delete the rows of the other") {
		t.Fatalf("FULL+DROP: %v", pe)
	}
	plan, err := r.Plan(t.Context(), snap, Request{Pipelines: []string{"pl1"}, Refresh: "RESET", ResetMode: "DROP"})
	if err != nil {
		t.Fatal(err)
	}
	if len(plan.Warnings) != 1 || plan.Warnings[0].Code != validate.CodeResetOtherWriters || !strings.Contains(plan.Warnings[0].Message, "(pl2.orders)") {
		t.Fatalf("warnings %+v: want one naming pl2.orders", plan.Warnings)
	}
	o = start(t, r, plan)
	if o.err != nil || exists(path) {
		t.Fatalf("RESET+DROP: %v, table exists=%v", o.err, exists(path))
	}
	if ws := eventKinds(o.events, EventWarning); len(ws) != 1 || !strings.Contains(ws[0].Message, "(pl2.orders) keep their checkpoints and need a FULL refresh") {
		t.Fatalf("warning events %+v: want the plan's, once", ws)
	}
	// pl2 resumes incrementally: only its new data would come back; here
	// a normal run of pl1 alone leaves the table without pl2's rows.
	mustRun(t, r, snap, Request{Pipelines: []string{"pl1"}})
	if got := writerCounts(t, r, path, "_laktory_writer"); got != "pl1.orders=3" {
		t.Fatalf("after the reset and a run of pl1: %s", got)
	}
	mustRun(t, r, snap, Request{Pipelines: []string{"pl2"}, Refresh: "FULL"})
	if got := writerCounts(t, r, path, "_laktory_writer"); got != "pl1.orders=3 pl2.orders=2" {
		t.Fatalf("after FULL of pl2: %s", got)
	}
}

// TestRemovedWriter: the rows of a writer removed from the YAML survive
// FULL refreshes of the others (a warning names them) until the table is
// reset.
func TestRemovedWriter(t *testing.T) {
	files := scenarioFiles(ownerships[0])
	w := newWS(t, files)
	r := testRunner(t)
	mustRun(t, r, w.load(), Request{Selectors: []string{"a", "b"}})
	w.write(map[string]string{"pipelines/pl.yaml": strings.Replace(files["pipelines/pl.yaml"], `- name: b
  sources:
  - path: ../data/b/
    format: JSONL
  sinks:
  - table_name: prices
    mode: APPEND
    shared: true
`, "", 1)})
	snap := w.load()
	if snap.Node("pl", "b") != nil {
		t.Fatal("node b was not removed")
	}
	plan, err := r.Plan(t.Context(), snap, Request{Refresh: "FULL", Selectors: []string{"a"}})
	if err != nil {
		t.Fatal(err)
	}
	if !slices.ContainsFunc(plan.Warnings, func(d workspace.Diagnostic) bool {
		return d.Code == validate.CodeOrphanWriters && strings.Contains(d.Message, "'pl.b' (2 rows)")
	}) {
		t.Fatalf("warnings %+v: want the orphan rows of pl.b", plan.Warnings)
	}
	start(t, r, plan)
	path := w.table("prices")
	if got := writerCounts(t, r, path, "_laktory_writer"); got != "pl.a=3 pl.b=2" {
		t.Fatalf("after FULL of a: %s (the removed writer's rows stay)", got)
	}
	mustRun(t, r, snap, Request{Refresh: "RESET", ResetMode: "DROP", Selectors: []string{"a"}})
	mustRun(t, r, snap, Request{Selectors: []string{"a"}})
	if got := writerCounts(t, r, path, "_laktory_writer"); got != "pl.a=3" {
		t.Fatalf("after the reset: %s", got)
	}
}

// TestRenamedWriter: renaming a writer without pinning writer_id leaves its
// old rows behind (a FULL refresh no longer deletes them); pinning the old
// id keeps the ownership.
func TestRenamedWriter(t *testing.T) {
	files := scenarioFiles(ownerships[0])
	for _, pinned := range []bool{false, true} {
		t.Run(map[bool]string{false: "not pinned", true: "pinned"}[pinned], func(t *testing.T) {
			w := newWS(t, files)
			r := testRunner(t)
			mustRun(t, r, w.load(), Request{Selectors: []string{"a", "b"}})
			shared := "shared: true"
			if pinned {
				shared = "shared: {writer_id: pl.b}"
			}
			w.write(map[string]string{"pipelines/pl.yaml": strings.Replace(files["pipelines/pl.yaml"], `- name: b
  sources:
  - path: ../data/b/
    format: JSONL
  sinks:
  - table_name: prices
    mode: APPEND
    shared: true`, `- name: b2
  sources:
  - path: ../data/b/
    format: JSONL
  sinks:
  - table_name: prices
    mode: APPEND
    `+shared, 1)})
			o := mustRun(t, r, w.load(), Request{Refresh: "FULL", Selectors: []string{"b2"}})
			path := w.table("prices")
			want := "pl.a=3 pl.b=2 pl.b2=2"
			if pinned {
				want = "pl.a=3 pl.b=2"
			}
			if got := writerCounts(t, r, path, "_laktory_writer"); got != want {
				t.Fatalf("after FULL of the renamed writer: %s, want %s", got, want)
			}
			orphan := slices.ContainsFunc(o.plan.Warnings, func(d workspace.Diagnostic) bool { return d.Code == validate.CodeOrphanWriters })
			if orphan == pinned {
				t.Fatalf("orphan warning = %v with pinned = %v: %+v", orphan, pinned, o.plan.Warnings)
			}
		})
	}
}

// TestLegacyTable: a table written before it was shared makes writes fail
// with the fix, writing nothing; RESET + DROP once cures it.
func TestLegacyTable(t *testing.T) {
	solo := `name: pl
nodes:
- name: a
  sources:
  - path: ../data/a/
    format: JSONL
  sinks:
  - table_name: prices
    mode: APPEND
`
	w := newWS(t, map[string]string{"pipelines/pl.yaml": solo, "data/a/1.jsonl": jsonl("a", 0, 3, "")})
	r := testRunner(t)
	mustRun(t, r, w.load(), Request{})
	w.write(map[string]string{"pipelines/pl.yaml": solo + "    shared: true\n"})
	snap := w.load()
	o := run(t, r, snap, Request{})
	ts := taskSum(t, o.sum, "pl.a")
	if !errors.Is(o.err, ErrTasksFailed) || !strings.Contains(ts.Err, "has no `_laktory_writer` column") ||
		!strings.Contains(ts.Err, "laktory run --select pl.a --refresh RESET --reset-mode DROP && laktory run --select pl.a") {
		t.Fatalf("legacy table: %v / %q", o.err, ts.Err)
	}
	path := w.table("prices")
	if n := count(t, r, path, ""); n != 3 || len(ts.Operations) != 0 {
		t.Fatalf("the failed write changed the table: %d rows, %+v", n, ts.Operations)
	}
	// FULL refresh cannot fix it either: the delete needs the writer column.
	if o := run(t, r, snap, Request{Refresh: "FULL"}); o.err == nil {
		t.Fatal("FULL on a legacy table must fail")
	}
	mustRun(t, r, snap, Request{Refresh: "RESET", ResetMode: "DROP"})
	mustRun(t, r, snap, Request{})
	if got := writerCounts(t, r, path, "_laktory_writer"); got != "pl.a=3" {
		t.Fatalf("after the fix: %s", got)
	}
}

// TestWherePredicateViolation: a where writer producing rows outside its
// predicate fails with the count and an example row, writing nothing, on
// both engines (the row is read through the engine seam).
func TestWherePredicateViolation(t *testing.T) {
	for _, name := range []string{engine.Local, engine.Spark} {
		t.Run(name, func(t *testing.T) { wherePredicateViolation(t, name) })
	}
}

func wherePredicateViolation(t *testing.T, name string) {
	w := newWS(t, map[string]string{
		"pipelines/pl.yaml": `name: pl
nodes:
- name: a
  sources:
  - path: ../data/a/
    format: JSONL
  sinks:
  - table_name: orders
    mode: APPEND
    shared:
      where: c = 1
`,
		"data/a/1.jsonl": jsonl("a", 0, 3, `, "c": 1`) + jsonl("x", 7, 9, `, "c": 5`),
	})
	r := testRunner(t)
	if name == engine.Spark {
		r.cfg.Engine = sparkNamed{&fakeEngine{Engine: r.local}} // its sessions hide DuckDB's connection
	}
	o := run(t, r, w.load(), Request{})
	ts := taskSum(t, o.sum, "pl.a")
	if !strings.Contains(ts.Err, "produced 2 rows that do not match its `shared.where: c = 1`") ||
		!strings.Contains(ts.Err, "c: 5") || !strings.Contains(ts.Err, "x-7") {
		t.Fatalf("error %q: want the count and an example row", ts.Err)
	}
	if exists(w.table("orders")) {
		t.Fatal("nothing may be written")
	}
	d := detail(t, w, o.sum.RunID)
	if d.Run.Errors != 1 || d.Run.TasksFailed != 1 || len(d.Messages) != 1 || d.Messages[0].Text != ts.Err {
		t.Fatalf("history: %+v", d)
	}
}

// TestFailedCreateLeavesNothing: a first write that fails leaves no folder
// behind, and a FULL refresh after it works.
func TestFailedCreateLeavesNothing(t *testing.T) {
	files := map[string]string{
		"pipelines/pl.yaml": `name: pl
nodes:
- name: a
  sources:
  - path: ../data/a/
    format: JSONL
  transformer:
    nodes:
    - expr: SELECT *, CAST(k AS INTEGER) AS broken FROM {df}
  sinks:
  - table_name: t
    mode: APPEND
`,
		"data/a/1.jsonl": jsonl("a", 0, 2, ""),
	}
	w := newWS(t, files)
	r := testRunner(t)
	if o := run(t, r, w.load(), Request{}); o.err == nil {
		t.Fatal("the cast must fail")
	}
	if exists(w.table("t")) {
		t.Fatal("a failed create leaves its folder behind")
	}
	if err := os.MkdirAll(filepath.Join(w.table("t"), "_delta_log"), 0o755); err != nil {
		t.Fatal(err)
	}
	w.write(map[string]string{"pipelines/pl.yaml": strings.Replace(files["pipelines/pl.yaml"], "CAST(k AS INTEGER)", "k", 1)})
	mustRun(t, r, w.load(), Request{Refresh: "FULL"})
	if n := count(t, r, w.table("t"), ""); n != 2 {
		t.Fatalf("%d rows", n)
	}
}

// TestDropCorruptTable: RESET with DROP removes a table whose log cannot
// be read (the plan says so), so the next run starts over.
func TestDropCorruptTable(t *testing.T) {
	w := newWS(t, scenarioFiles(ownerships[0]))
	r := testRunner(t)
	snap := w.load()
	mustRun(t, r, snap, Request{Selectors: []string{"c"}})
	solo := w.table("solo")
	if err := os.WriteFile(filepath.Join(solo, "_delta_log", "00000000000000000000.json"), []byte("not json\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	o := mustRun(t, r, snap, Request{Refresh: "RESET", ResetMode: "DROP", Selectors: []string{"c"}})
	if len(o.plan.Effects) != 1 || o.plan.Effects[0].Rows != -1 || !strings.Contains(o.plan.Effects[0].Description, "cannot be read") {
		t.Fatalf("effects %+v", o.plan.Effects)
	}
	if exists(solo) {
		t.Fatal("the corrupt table was not dropped")
	}
	mustRun(t, r, snap, Request{Selectors: []string{"c"}})
	if n := count(t, r, solo, ""); n != 3 {
		t.Fatalf("%d rows", n)
	}
}
