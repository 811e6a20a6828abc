package tui

import (
	"context"
	"testing"

	"github.com/charmbracelet/x/exp/teatest"
	"github.com/laktory/workbench/runner/history"
	"github.com/laktory/workbench/validate"
	"github.com/laktory/workbench/workspace"
	"github.com/laktory/workbench/workspace/workspacetest"
)

// TestRunAllKey: a runs every pipeline incrementally, as laktory run does,
// whatever is selected.
func TestRunAllKey(t *testing.T) {
	m, _, r := demoApp(t, 120, 40)
	m = selectRow(t, m, "pl-prices.feed_a")
	m = run(t, m, keys("a"))
	if len(r.plans) != 1 || len(r.plans[0].Pipelines) != 0 || len(r.plans[0].Selectors) != 0 || r.plans[0].Refresh != validate.RefreshIncremental {
		t.Fatalf("plans %+v, want one incremental run of every pipeline", r.plans)
	}
	if len(r.started) != 1 || m.runs.live == nil || m.runs.live.target != "incremental run of every pipeline" {
		t.Fatalf("the run did not start: %d started, %+v", len(r.started), m.runs.live)
	}
}

// TestFlowRunAll runs every pipeline of the demo through the workbench and
// the real runner: the run's summary, its history entry (every pipeline,
// every task) and the rows in the Table tab.
func TestFlowRunAll(t *testing.T) {
	dir := workspacetest.Demo(t)
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
	waitFor(t, tm, "all_orders")
	tm.Send(keys("a"))
	waitFor(t, tm, "incremental run of every pipeline", "Summary: succeeded")
	tm.Send(keys("4"))
	waitFor(t, tm, "Rows per writer", "pl-client-acme.orders", "80") // all_orders: 80 rows of acme
	final := finalModel(t, tm)
	if lr := final.runs.live; lr == nil || lr.status != history.StatusSucceeded || len(lr.tasks) != 8 {
		t.Fatalf("run all: %+v", lr)
	}
	page, err := hist.ListRuns(context.Background(), history.Page{Limit: 5}, history.Filter{})
	if err != nil || len(page.Runs) != 1 || len(page.Runs[0].Pipelines) != 0 || page.Runs[0].Tasks != 8 {
		t.Fatalf("history %+v %v: want one run of every pipeline", page.Runs, err)
	}
}
