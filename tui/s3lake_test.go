package tui

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/laktory/workbench/delta"
	"github.com/laktory/workbench/delta/s3test"
	"github.com/laktory/workbench/runner"
	"github.com/laktory/workbench/workspace"
	"github.com/laktory/workbench/workspace/workspacetest"
)

// TestFlowS3Lake drives the workbench, with the real runner, lake reader
// and history, on the demo with its lake in a bucket of a moto server on
// loopback (lake: s3://BUCKET/lake): run all, the Table tab's rows per
// writer read from the bucket, a commit by another runner shown with no
// key pressed (the tab lists the table's log every 5 s on a bucket), a FULL
// refresh of feed_a from its confirmation (feed_b's rows untouched), and a
// RESET with TRUNCATE of the shared all_orders, after which the tab shows
// the empty table. No local folder stands for the bucket.
func TestFlowS3Lake(t *testing.T) {
	srv := s3test.Shared(t)
	srv.Setenv(t)
	delta.SetObjectCache(&delta.ObjectCache{Dir: t.TempDir()})
	t.Cleanup(func() { delta.SetObjectCache(nil) })
	dir := workspacetest.Demo(t)
	lake := "s3://" + srv.Bucket(t) + "/lake"
	workspacetest.Write(t, dir, map[string]string{workspace.ConfigFileName: "lake: " + lake + "\n"})
	if snap := workspacetest.LoadDir(t, dir, workspace.Options{}); snap.Layout.Lake != lake {
		t.Fatalf("the lake is %q, want %q", snap.Layout.Lake, lake)
	}

	tm := workbench(t, dir)
	waitFor(t, tm, "all_orders")
	tm.Send(keys("a"))
	waitFor(t, tm, "incremental run of every pipeline", "Summary: succeeded")
	tm.Send(keys("4")) // the Table tab, on all_orders
	v := tableVersion(t, dir, "all_orders")
	waitFor(t, tm, "Rows per writer", "pl-client-acme.orders", "80", fmt.Sprintf("version %d ·", v), "160 rows")

	// Another process's commit, seen by the tab's listing of the log.
	runDemo(t, newRunner(t), dir, runner.Request{Pipelines: []string{"pl-client-acme"}, Refresh: "FULL"})
	v2 := tableVersion(t, dir, "all_orders")
	if v2 != v+2 {
		t.Fatalf("the FULL refresh made versions %d..%d, want a delete and an append", v, v2)
	}
	waitFor(t, tm, fmt.Sprintf("version %d ·", v2))

	// A FULL refresh of feed_a, confirmed in the workbench.
	before := pricesRows(t, dir)
	tm.Send(keys("1"))
	for range 4 {
		tm.Send(keys("down"))
	}
	waitFor(t, tm, "▸-pl-prices.feed_a")
	tm.Send(keys("f"))
	waitFor(t, tm, "of pl-prices.feed_a from prices")
	tm.Send(keys("y"))
	waitFor(t, tm, "Summary: succeeded")
	after := pricesRows(t, dir)
	if after["pl-prices.feed_b"] != before["pl-prices.feed_b"] || after["pl-prices.feed_a"] != before["pl-prices.feed_a"] {
		t.Fatalf("rows per writer of prices %v after the FULL refresh of feed_a, want %v", after, before)
	}

	// RESET with TRUNCATE of the shared all_orders.
	tm.Send(keys("1"))
	for range 4 {
		tm.Send(keys("up"))
	}
	waitFor(t, tm, "▸ pl-client-acme.orders")
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

	filepath.WalkDir(dir, func(p string, d os.DirEntry, err error) error { //nolint:errcheck // a walk of a test folder
		if err == nil && (strings.HasPrefix(d.Name(), "s3:") || d.Name() == workspace.LakeDirName) {
			t.Errorf("a local folder for the bucket's lake: %s", p)
		}
		return nil
	})
}
