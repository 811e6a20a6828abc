package runner

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/laktory/workbench/workspace"
	"github.com/laktory/workbench/workspace/workspacetest"
)

// TestDemoEndToEnd runs the demo workspace as its README tells: every
// pipeline, then again after new landing files arrive (only their rows),
// then a FULL refresh of feed_a (feed_b's rows untouched; gld_prices_a,
// reading feed_a with skipChangeCommits, reads feed_a's rows again and is
// told to run a FULL refresh, which puts it right).
func TestDemoEndToEnd(t *testing.T) {
	dir := workspacetest.Demo(t)
	w := &ws{t: t, dir: dir}
	r := testRunner(t)
	snap := workspacetest.LoadDir(t, dir, workspace.Options{})
	outbox := filepath.Join(dir, "outbox", "alerts.jsonl")
	lines := func() int {
		b, err := os.ReadFile(outbox)
		if err != nil {
			t.Fatal(err)
		}
		return strings.Count(string(b), "\n")
	}
	type counts struct {
		prices, orders string
		gold, events   int
		alerts         int
	}
	check := func(want counts) {
		t.Helper()
		if got := writerCounts(t, r, w.table("prices"), "_laktory_writer"); got != want.prices {
			t.Errorf("prices %s, want %s", got, want.prices)
		}
		if got := writerCounts(t, r, w.table("all_orders"), "client"); got != want.orders {
			t.Errorf("all_orders %s, want %s", got, want.orders)
		}
		if n := count(t, r, w.table("gld_prices_a"), ""); n != want.gold {
			t.Errorf("gld_prices_a %d rows, want %d", n, want.gold)
		}
		if n := count(t, r, w.table("events"), ""); n != want.events {
			t.Errorf("events %d rows, want %d", n, want.events)
		}
		if n := lines(); n != want.alerts {
			t.Errorf("outbox %d alerts, want %d", n, want.alerts)
		}
	}

	// First run: every landing file; the backfill's 100 archived events;
	// the high-severity events (21 archived, 7 landed) in the outbox.
	o := mustRun(t, r, snap, Request{})
	check(counts{prices: "pl-prices.feed_a=100 pl-prices.feed_b=100", orders: "acme=80 globex=80", gold: 100, events: 160, alerts: 28})
	if len(o.sum.Warnings) != 0 {
		t.Errorf("warnings %v", o.sum.Warnings)
	}

	// Nothing new: nothing written.
	o = mustRun(t, r, snap, Request{})
	if o.sum.RowsWritten != 0 {
		t.Fatalf("%d rows written without new data", o.sum.RowsWritten)
	}

	// The spare files land: only their rows are processed.
	workspacetest.LandSpare(t, dir)
	o = mustRun(t, r, snap, Request{})
	if o.sum.RowsWritten != 50+50+50+40+40+30+5 {
		t.Fatalf("%d rows written for the new files, want 265", o.sum.RowsWritten)
	}
	check(counts{prices: "pl-prices.feed_a=150 pl-prices.feed_b=150", orders: "acme=120 globex=120", gold: 150, events: 190, alerts: 33})

	// A FULL refresh of feed_a: feed_b's rows are untouched; the plan warns
	// that gld_prices_a will read feed_a's rows again.
	o = mustRun(t, r, snap, Request{Pipelines: []string{"pl-prices"}, Selectors: []string{"feed_a"}, Refresh: "FULL"})
	if !strings.Contains(warningsOf(o), "node 'gld_prices_a' of pipeline 'pl-prices' streams main.default.prices and is not refreshed by this run") {
		t.Fatalf("plan warnings %v", o.plan.Warnings)
	}
	check(counts{prices: "pl-prices.feed_a=150 pl-prices.feed_b=150", orders: "acme=120 globex=120", gold: 150, events: 190, alerts: 33})
	// gld_prices_a skips the delete and reads feed_a's rows again, and the
	// run says a FULL refresh of it is due.
	o = mustRun(t, r, snap, Request{})
	if !strings.Contains(strings.Join(o.sum.Warnings, "\n"), "node 'gld_prices_a' skipped version") {
		t.Fatalf("warnings %v", o.sum.Warnings)
	}
	check(counts{prices: "pl-prices.feed_a=150 pl-prices.feed_b=150", orders: "acme=120 globex=120", gold: 300, events: 190, alerts: 33})
	mustRun(t, r, snap, Request{Pipelines: []string{"pl-prices"}, Selectors: []string{"gld_prices_a"}, Refresh: "FULL"})
	check(counts{prices: "pl-prices.feed_a=150 pl-prices.feed_b=150", orders: "acme=120 globex=120", gold: 150, events: 190, alerts: 33})

	// A FULL refresh of the declarative pipeline clears events once and
	// resets every flow: the backfill runs again; the ForEach sink's
	// destination is not cleaned (the run says so), so alerts arrive again.
	o = mustRun(t, r, snap, Request{Pipelines: []string{"pl-events"}, Refresh: "FULL"})
	if !strings.Contains(strings.Join(o.sum.Warnings, "\n"), "was not cleaned up") {
		t.Fatalf("warnings %v", o.sum.Warnings)
	}
	check(counts{prices: "pl-prices.feed_a=150 pl-prices.feed_b=150", orders: "acme=120 globex=120", gold: 150, events: 190, alerts: 66})
}

func warningsOf(o outcome) string {
	var b strings.Builder
	for _, d := range o.plan.Warnings {
		b.WriteString(d.Message + "\n")
	}
	return b.String()
}
