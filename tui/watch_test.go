package tui

import (
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/charmbracelet/x/exp/teatest"
	"github.com/laktory/workbench/runner"
	"github.com/laktory/workbench/runner/watch"
	"github.com/laktory/workbench/workspace"
	"github.com/laktory/workbench/workspace/workspacetest"
)

// fakeData is a DataWatcher the test feeds.
type fakeData struct{ ch chan []string }

func (f *fakeData) Changes() <-chan []string   { return f.ch }
func (f *fakeData) Update(*workspace.Snapshot) {}

// testClock is a clock the test moves.
type testClock struct {
	mu sync.Mutex
	t  time.Time
}

func (c *testClock) now() time.Time { c.mu.Lock(); defer c.mu.Unlock(); return c.t }
func (c *testClock) add(d time.Duration) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.t = c.t.Add(d)
}

// TestWatchMode: w turns watch mode on (the header says so and what it
// waits for); a landing file queues its node and its reader, run
// incrementally once the changes stop, in the background (the tab stays);
// changes during the run wait for it and run next, coalesced.
func TestWatchMode(t *testing.T) {
	s := demo(t)
	clk := &testClock{t: clock}
	r := &fakeRunner{plan: fullPlan(t, s)}
	m := app(t, s, Deps{Lake: demoLake(t, s), History: demoHistory(), Runner: r, Data: &fakeData{}, Now: clk.now,
		WatchDebounce: 500 * time.Millisecond})
	m = run(t, m, size(160, 40))
	m = run(t, m, keys("4")) // the Table tab: it stays shown
	m = step(t, m, keys("w"))
	if v := viewText(m); !strings.Contains(strings.Split(v, "\n")[0], "watch: waiting for changes") {
		t.Fatalf("the header does not say watch is on:\n%s", v)
	}
	landing := filepath.Join(s.Dir, "data", "landing")
	m = step(t, m, dataMsg{paths: []string{filepath.Join(landing, "feed_a", "prices_2026-01-03.json")}})
	head := strings.Split(viewText(m), "\n")[0]
	if !strings.Contains(head, "watch: pl-prices [feed_a, gld_prices_a] in 0.5s") {
		t.Fatalf("header %q: what watch waits for", head)
	}
	m = step(t, m, autoTickMsg{}) // not due yet
	if len(r.plans) != 0 {
		t.Fatal("a run before the changes stopped")
	}
	clk.add(time.Second)
	m = run(t, m, autoTickMsg{})
	if len(r.plans) != 1 || strings.Join(r.plans[0].Selectors, " ") != "pl-prices.feed_a pl-prices.gld_prices_a" ||
		r.plans[0].Refresh != "INCREMENTAL" || r.plans[0].ResetMode != "" {
		t.Fatalf("plans %+v: one incremental run of the affected nodes", r.plans)
	}
	if len(r.started) != 1 || m.ActiveTab() != TabTable {
		t.Fatalf("started %d, tab %v: the run starts in the background", len(r.started), m.ActiveTab())
	}
	token := m.runs.live.token
	// Changes during the run: queued, coalesced, run after it.
	m = step(t, m, dataMsg{paths: []string{filepath.Join(landing, "orders", "acme", "o.json")}})
	m = step(t, m, dataMsg{paths: []string{filepath.Join(landing, "feed_a", "more.json")}})
	clk.add(time.Second)
	m = run(t, m, autoTickMsg{})
	if len(r.plans) != 1 {
		t.Fatal("a second run while one is in progress")
	}
	if head := strings.Split(viewText(m), "\n")[0]; !strings.Contains(head, "watch: running pl-prices [feed_a, gld_prices_a]; then") {
		t.Fatalf("header %q", head)
	}
	m = step(t, m, runEventMsg{token: token, ev: runner.Event{Kind: runner.EventRunFinished, Status: "succeeded"}})
	m = run(t, m, runClosedMsg{token: token})
	if len(r.plans) != 2 || strings.Join(r.plans[1].Selectors, " ") != "pl-client-acme.orders pl-prices.feed_a pl-prices.gld_prices_a" {
		t.Fatalf("plans %+v: the queued changes in one run", r.plans)
	}
	// w turns it off: changes run nothing.
	m = step(t, m, keys("w"))
	m = step(t, m, dataMsg{paths: []string{filepath.Join(landing, "feed_b", "x.csv")}})
	clk.add(time.Second)
	m = run(t, m, autoTickMsg{})
	if len(r.plans) != 2 || strings.Contains(viewText(m), "watch:") {
		t.Fatalf("watch off: %d plans", len(r.plans))
	}
}

// TestFlowWatch: with laktory tui --watch on the demo, a file dropped into
// landing produces a run, and its rows show in the Table tab.
func TestFlowWatch(t *testing.T) {
	dir := workspacetest.Demo(t)
	r := newRunner(t)
	runDemo(t, r, dir, runner.Request{})
	snap := workspacetest.LoadDir(t, dir, workspace.Options{})
	ctx := t.Context()
	data, err := watch.WatchSources(ctx, snap)
	if err != nil {
		t.Fatal(err)
	}
	lake := NewDeltaLake()
	defer lake.Close()
	hist := NewHistoryFile(snap.Layout.StateDB())
	defer hist.Close()
	local := &LocalRunner{R: r}
	defer local.Wait()
	m := New(Deps{Context: ctx, Snapshot: snap, Runner: local, History: hist, Lake: lake, Tick: -1, Watch: true, Data: data,
		WatchDebounce: 100 * time.Millisecond})
	tm := teatest.NewTestModel(t, m, teatest.WithInitialTermSize(160, 50))
	waitFor(t, tm, "watch: waiting for changes")
	for range 2 {
		tm.Send(keys("right")) // the prices lane
	}
	tm.Send(keys("4"))
	waitFor(t, tm, "prices  main.default.prices", "200 rows")
	spare, err := os.ReadFile(filepath.Join(dir, "data", "spare", "feed_a", "prices_2026-01-03.json"))
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "data", "landing", "feed_a", "prices_2026-01-03.json"), spare, 0o644); err != nil {
		t.Fatal(err)
	}
	waitFor(t, tm, "watch run of pl-prices [feed_a, gld_prices_a]")
	waitFor(t, tm, "250 rows", "watch: waiting for changes") // feed_a's 50 new rows, in the Table tab
	final := finalModel(t, tm)
	if final.ActiveTab() != TabTable {
		t.Fatalf("the watch's run switched the tab to %v", final.ActiveTab())
	}
}
