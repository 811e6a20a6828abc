package tui

import (
	"context"
	"fmt"
	"testing"

	"github.com/charmbracelet/x/exp/teatest"
	"github.com/laktory/workbench/delta"
	"github.com/laktory/workbench/runner"
	"github.com/laktory/workbench/workspace"
	"github.com/laktory/workbench/workspace/workspacetest"
)

// tableVersion is the latest version of a demo table.
func tableVersion(t *testing.T, dir, name string) int64 {
	t.Helper()
	snap := workspacetest.LoadDir(t, dir, workspace.Options{})
	s, err := delta.LoadSnapshot(context.Background(), string(tableID(t, snap, name)))
	if err != nil {
		t.Fatal(err)
	}
	return s.Version()
}

// workbench opens the workbench on the demo in dir with the real runner,
// lake and history.
func workbench(t *testing.T, dir string) *teatest.TestModel {
	t.Helper()
	snap := workspacetest.LoadDir(t, dir, workspace.Options{})
	lake := NewDeltaLake()
	t.Cleanup(func() { lake.Close() })
	hist := NewHistoryFile(snap.Layout.StateDB())
	t.Cleanup(func() { hist.Close() })
	local := &LocalRunner{R: newRunner(t)}
	t.Cleanup(local.Wait) // first of the cleanups: the last run may still write when the program quits
	m := New(Deps{Snapshot: snap, Runner: local, History: hist, Lake: lake, Tick: -1})
	return teatest.NewTestModel(t, m, teatest.WithInitialTermSize(140, 50))
}

// TestTableTabFollowsCommits: the Table tab shows a table as it is: after
// a commit by another process (another runner here), with no key pressed,
// and after a RESET with TRUNCATE the workbench ran while the Runs tab was
// shown (it used to keep the old version, history and preview beside
// "0 / 0" rows per writer until ctrl+r).
func TestTableTabFollowsCommits(t *testing.T) {
	dir := ranDemo(t)
	tm := workbench(t, dir)
	waitFor(t, tm, "all_orders")
	tm.Send(keys("4"))
	v := tableVersion(t, dir, "all_orders")
	waitFor(t, tm, fmt.Sprintf("version %d ·", v), "160 rows")

	runDemo(t, newRunner(t), dir, runner.Request{Pipelines: []string{"pl-client-acme"}, Refresh: "FULL"})
	v2 := tableVersion(t, dir, "all_orders")
	if v2 != v+2 {
		t.Fatalf("the FULL refresh made versions %d..%d, want a delete and an append", v, v2)
	}
	waitFor(t, tm, fmt.Sprintf("version %d ·", v2), fmt.Sprintf("v%-4d", v2))

	tm.Send(keys("1")) // the graph: its first row is pl-client-acme.orders, a writer of all_orders
	tm.Send(keys("R"))
	waitFor(t, tm, "Reset mode, from the least")
	tm.Send(keys("down"))
	tm.Send(keys("enter"))
	waitFor(t, tm, "empty the whole table all_orders")
	tm.Send(keys("y"))
	waitFor(t, tm, "Summary: succeeded")
	tm.Send(keys("4"))
	waitFor(t, tm, fmt.Sprintf("version %d ·", v2+1), "0 rows", "TRUNCATE", "the table is empty")
	finalModel(t, tm)
}

// TestWorkbenchFirstRunNoRetries: the demo's first run from the workbench
// creates its tables without commit conflicts.
func TestWorkbenchFirstRunNoRetries(t *testing.T) {
	tm := workbench(t, workspacetest.Demo(t))
	waitFor(t, tm, "all_orders")
	for range 4 {
		tm.Send(keys("down"))
	}
	waitFor(t, tm, "▸-pl-prices.feed_a")
	tm.Send(keys("tab")) // the tree, on pl-prices.feed_a's sink: r runs the selection
	tm.Send(keys("r"))
	waitFor(t, tm, "Summary: succeeded")
	final := finalModel(t, tm)
	if lr := final.runs.live; lr == nil || lr.retries != 0 {
		t.Fatalf("the first run retried commits: %+v", lr)
	}
}
