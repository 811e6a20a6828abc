package tui

import (
	"fmt"
	"testing"

	"github.com/charmbracelet/x/exp/golden"
	"github.com/charmbracelet/x/exp/teatest"
	"github.com/laktory/workbench/runner"
	"github.com/laktory/workbench/validate"
	"github.com/laktory/workbench/workspace"
	"github.com/laktory/workbench/workspace/workspacetest"
)

// overlapPlan is the plan of a FULL refresh of acme's orders whose
// predicate (from a parameter, say) also matches 16 rows of globex.
func overlapPlan(t testing.TB, s *workspace.Snapshot) func(runner.Request) (*runner.Plan, error) {
	orders := tableID(t, s, "all_orders")
	return func(req runner.Request) (*runner.Plan, error) {
		return &runner.Plan{Request: req, Params: validate.RunParams{Refresh: req.Refresh},
			Tasks: []*runner.Task{{Key: "pl-client-acme.orders", Pipeline: "pl-client-acme", Node: "orders"}},
			Effects: []runner.Effect{{Kind: runner.EffectDeleteRows, Task: "pl-client-acme.orders", Table: orders,
				Writer: "client_id = 1 OR order_id > 0", Predicate: "client_id = 1 OR order_id > 0", Rows: 40,
				Overlaps: []runner.Overlap{{Writer: "pl-client-globex.orders", Where: "client_id = 2", Rows: 16}}}}}, nil
	}
}

// TestOverlapConfirmGolden: a FULL refresh whose step deletes rows of
// another writer lists them (writer, predicate, count) in the
// confirmation, which y does not confirm (the run does not start, the
// status says why, as --yes alone is refused by laktory run); D starts
// it with the acknowledgement (Request.AllowOverlap); n cancels it.
func TestOverlapConfirmGolden(t *testing.T) {
	for _, sz := range []struct{ w, h int }{{80, 24}, {120, 40}} {
		t.Run(fmt.Sprintf("%dx%d", sz.w, sz.h), func(t *testing.T) {
			s := demo(t)
			r := &fakeRunner{plan: overlapPlan(t, s)}
			m := app(t, s, Deps{Lake: demoLake(t, s), History: demoHistory(), Runner: r})
			m = run(t, m, size(sz.w, sz.h))
			for _, msg := range execCmd(m.Init()) {
				m = run(t, m, msg)
			}
			m = selectLane(t, selectRow(t, m, "pl-client-acme.orders"), "all_orders")
			m = run(t, m, keys("f"))
			t.Run("confirm", func(t *testing.T) { golden.RequireEqual(t, viewText(m)) })
			m = run(t, m, keys("y"))
			if len(r.started) != 0 || m.dialog == nil || m.dialog.kind != dlgConfirm {
				t.Fatalf("y started the overlapping run (%d started) or closed the dialog", len(r.started))
			}
			t.Run("y", func(t *testing.T) { golden.RequireEqual(t, viewText(m)) })
			m = run(t, m, keys("n"))
			if len(r.started) != 0 || m.dialog != nil {
				t.Fatalf("n: %d started, dialog %v", len(r.started), m.dialog)
			}
			m = run(t, m, keys("f"))
			m = run(t, m, keys("D"))
			if len(r.started) != 1 || !r.started[0].plan.Request.AllowOverlap {
				t.Fatalf("D: %d started, want 1 acknowledging the overlap", len(r.started))
			}
		})
	}
}

// TestOverlapConfirmNoOverlap: D does nothing in the confirmation of a
// run that deletes no other writer's rows (y runs it, unacknowledged).
func TestOverlapConfirmNoOverlap(t *testing.T) {
	m, _, r := demoApp(t, 120, 40)
	m = selectLane(t, selectRow(t, m, "pl-prices.feed_a"), "prices")
	m = run(t, m, keys("f"))
	m = run(t, m, keys("D"))
	if len(r.started) != 0 || m.dialog == nil {
		t.Fatalf("D started a run without overlaps: %d", len(r.started))
	}
	m = run(t, m, keys("y"))
	if len(r.started) != 1 || r.started[0].plan.Request.AllowOverlap {
		t.Fatalf("y: %d started", len(r.started))
	}
}

// overlapWorkspace is two pipelines sharing orders by where predicates
// the prover cannot decide (different columns, a warning): pa's
// client_id = 1 OR id > 3 also matches pb's rows 4 and 5.
func overlapWorkspace(t *testing.T) string {
	t.Helper()
	dir := t.TempDir()
	workspacetest.Write(t, dir, map[string]string{
		"pipelines/pa.yaml": `name: pa
nodes:
- name: a
  sources:
  - path: ../data/a/
    format: JSONL
  sinks:
  - table_name: orders
    mode: APPEND
    shared:
      where: client_id = 1 OR id > 3
`,
		"pipelines/pb.yaml": `name: pb
nodes:
- name: b
  sources:
  - path: ../data/b/
    format: JSONL
  sinks:
  - table_name: orders
    mode: APPEND
    shared:
      where: client_id = 2
`,
		"data/a/1.jsonl": "{\"id\": 1, \"client_id\": 1}\n{\"id\": 2, \"client_id\": 1}\n{\"id\": 3, \"client_id\": 1}\n",
		"data/b/1.jsonl": "{\"id\": 4, \"client_id\": 2}\n{\"id\": 5, \"client_id\": 2}\n",
	})
	return dir
}

// TestFlowOverlapConfirm: with the real runner, a FULL refresh of pa
// (whose predicate also matches pb's 2 rows) lists pb's rows in the
// confirmation; y does not run it and n cancels it (pb keeps its rows);
// D runs it, deleting them as listed.
func TestFlowOverlapConfirm(t *testing.T) {
	dir := overlapWorkspace(t)
	r := newRunner(t)
	snap := workspacetest.LoadDir(t, dir, workspace.Options{})
	lake := NewDeltaLake()
	defer lake.Close()
	hist := NewHistoryFile(snap.Layout.StateDB())
	defer hist.Close()
	local := &LocalRunner{R: r}
	defer local.Wait()
	m := New(Deps{Snapshot: snap, Runner: local, History: hist, Lake: lake, Tick: -1})
	tm := teatest.NewTestModel(t, m, teatest.WithInitialTermSize(140, 50))
	waitFor(t, tm, "orders")
	tm.Send(keys("a"))
	waitFor(t, tm, "Summary: succeeded")
	orders := tableID(t, snap, "orders")
	pbRows := func() int64 {
		t.Helper()
		st, err := lake.Stats(t.Context(), snap)
		if err != nil {
			t.Fatal(err)
		}
		return st[orders].PredicateRows["client_id = 2"]
	}
	if n := pbRows(); n != 2 {
		t.Fatalf("pb's rows after the first run: %d", n)
	}
	tm.Send(keys("g")) // the tree's first row: pipeline pa
	tm.Send(keys("f"))
	waitFor(t, tm, "also deletes 2 rows of writer pb.b (where client_id = 2)", "D delete their rows too and run")
	tm.Send(keys("y"))
	waitFor(t, tm, "this run deletes rows of other writers")
	tm.Send(keys("n"))
	waitFor(t, tm, "run cancelled: nothing was changed")
	if n := pbRows(); n != 2 {
		t.Fatalf("pb's rows after y and n: %d, want 2", n)
	}
	tm.Send(keys("f"))
	waitFor(t, tm, "D delete their rows too and run")
	tm.Send(keys("D"))
	waitFor(t, tm, "FULL refresh of", "Summary: succeeded")
	finalModel(t, tm)
	if n := pbRows(); n != 0 {
		t.Fatalf("pb's rows after D: %d, want 0 (listed and acknowledged)", n)
	}
}
