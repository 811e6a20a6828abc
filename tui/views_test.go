package tui

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/charmbracelet/x/exp/golden"
	"github.com/laktory/workbench/runner"
	"github.com/laktory/workbench/runner/history"
	"github.com/laktory/workbench/workspace"
)

// demoApp is the workbench on the demo with fake tables, history and
// runner, after its first reads (the results of Init fed back).
func demoApp(t testing.TB, w, h int) (Model, *workspace.Snapshot, *fakeRunner) {
	t.Helper()
	s := demo(t)
	r := &fakeRunner{plan: fullPlan(t, s)}
	m := app(t, s, Deps{Lake: demoLake(t, s), History: demoHistory(), Runner: r})
	m = run(t, m, size(w, h))
	for _, msg := range execCmd(m.Init()) {
		m = run(t, m, msg)
	}
	return m, s, r
}

// selectLane moves the graph's lane cursor to a table.
func selectLane(t testing.TB, m Model, name string) Model {
	t.Helper()
	for range len(m.ws.graph.Lanes) {
		if tb := m.ws.table(m.graph.selectedTable()); tb != nil && tableLabel(tb) == name {
			return m
		}
		m = run(t, m, keys("right"))
	}
	t.Fatalf("no lane %s", name)
	return m
}

// selectRow moves the graph's row cursor to a writer.
func selectRow(t testing.TB, m Model, label string) Model {
	t.Helper()
	m = run(t, m, keys("g"))
	for range len(m.graph.rows) {
		if r, ok := m.graph.selectedRow(); ok && r.Label == label {
			return m
		}
		m = run(t, m, keys("down"))
	}
	t.Fatalf("no row %s", label)
	return m
}

func TestViewsGolden(t *testing.T) {
	sizes := []struct{ w, h int }{{80, 24}, {120, 40}, {200, 60}}
	tabs := []struct {
		name string
		prep func(t testing.TB, m Model) Model
	}{
		{"graph", func(t testing.TB, m Model) Model { return selectLane(t, selectRow(t, m, "pl-prices.feed_a"), "prices") }},
		{"problems", func(t testing.TB, m Model) Model { return run(t, m, keys("2")) }},
		{"runs", func(t testing.TB, m Model) Model { return run(t, m, keys("3")) }},
		{"run_detail", func(t testing.TB, m Model) Model { return run(t, run(t, m, keys("3")), keys("enter")) }},
		{"table", func(t testing.TB, m Model) Model { return run(t, selectLane(t, m, "prices"), keys("4")) }},
		{"tree_focus", func(t testing.TB, m Model) Model {
			m = run(t, m, keys("tab"))
			for range 15 {
				m = run(t, m, keys("down"))
			}
			return m
		}},
		{"help", func(t testing.TB, m Model) Model { return run(t, m, keys("?")) }},
		{"graph_search", func(t testing.TB, m Model) Model { return typeKeys(t, run(t, m, keys("/")), "feed") }},
		{"table_search", func(t testing.TB, m Model) Model {
			return run(t, typeKeys(t, run(t, run(t, selectLane(t, m, "prices"), keys("4")), keys("/")), "aapl"), keys("enter"))
		}},
		{"watch", func(t testing.TB, m Model) Model { return step(t, m, keys("w")) }},
	}
	for _, sz := range sizes {
		for _, tab := range tabs {
			t.Run(fmt.Sprintf("%s_%dx%d", tab.name, sz.w, sz.h), func(t *testing.T) {
				m, _, _ := demoApp(t, sz.w, sz.h)
				m = tab.prep(t, m)
				v := viewText(m)
				if n := strings.Count(v, "\n"); n != sz.h {
					t.Fatalf("view has %d lines, want %d", n, sz.h)
				}
				for i, l := range strings.Split(strings.TrimSuffix(m.View(), "\n"), "\n") {
					if w := len([]rune(l)); w > sz.w {
						t.Fatalf("line %d is %d wide: %q", i, w, l)
					}
				}
				golden.RequireEqual(t, v)
			})
		}
	}
}

// runEvents is a FULL refresh of feed_a as the runner reports it: the
// plan's warning, a conflict retried, the writer's rows deleted, new rows
// appended in a micro-batch of its flow.
func runEvents(s *workspace.Snapshot) []runner.Event {
	at := func(ms int) time.Time { return clock.Add(time.Duration(ms) * time.Millisecond) }
	flow := "pl-prices.feed_a/table-main.default.prices"
	return []runner.Event{
		{RunID: "3", Seq: 1, At: at(0), Kind: runner.EventRunStarted},
		{RunID: "3", Seq: 2, At: at(1), Kind: runner.EventWarning, Message: gldWarning},
		{RunID: "3", Seq: 3, At: at(10), Kind: runner.EventTaskStarted, Task: "pl-prices.feed_a"},
		{RunID: "3", Seq: 4, At: at(300), Kind: runner.EventTaskProgress, Task: "pl-prices.feed_a", Phase: "write", Rows: 640},
		{RunID: "3", Seq: 4, At: at(500), Kind: runner.EventTaskProgress, Task: "pl-prices.feed_a", Phase: "write",
			Table: "main.default.prices", Rows: 320, Bytes: 48 << 10},
		{RunID: "3", Seq: 5, At: at(400), Kind: runner.EventRetry, Task: "pl-prices.feed_a", Table: "main.default.prices",
			Attempt: 1, Delay: 200 * time.Millisecond, Err: "concurrent append: version 4 added files"},
		{RunID: "3", Seq: 6, At: at(700), Kind: runner.EventDeleted, Task: "pl-prices.feed_a", Table: "main.default.prices",
			Writer: "pl-prices.feed_a", Rows: 620},
		{RunID: "3", Seq: 7, At: at(900), Kind: runner.EventOperation, Task: "pl-prices.feed_a", Table: "main.default.prices",
			Operation: "STREAMING UPDATE", Version: 6, Rows: 640},
		{RunID: "3", Seq: 8, At: at(910), Kind: runner.EventFlowProgress, Task: "pl-prices.feed_a", Flow: flow, Batch: 0, Rows: 640,
			Status: "COMPLETED"},
		{RunID: "3", Seq: 9, At: at(1000), Kind: runner.EventTaskFinished, Task: "pl-prices.feed_a", Status: history.StatusSucceeded},
		{RunID: "3", Seq: 10, At: at(1100), Kind: runner.EventRunFinished, Status: history.StatusSucceeded},
	}
}

func TestRunViewsGolden(t *testing.T) {
	for _, sz := range []struct{ w, h int }{{80, 24}, {120, 40}, {200, 60}} {
		t.Run(fmt.Sprintf("%dx%d", sz.w, sz.h), func(t *testing.T) {
			m, s, r := demoApp(t, sz.w, sz.h)
			m = selectLane(t, selectRow(t, m, "pl-prices.feed_a"), "prices")
			m = run(t, m, keys("f"))
			t.Run("confirm", func(t *testing.T) { golden.RequireEqual(t, viewText(m)) })
			m = run(t, m, keys("y"))
			if len(r.started) != 1 {
				t.Fatalf("started %d runs, want 1", len(r.started))
			}
			token := m.runs.live.token
			evs := runEvents(s)
			for _, ev := range evs[:7] {
				m = step(t, m, runEventMsg{token: token, ev: ev})
			}
			t.Run("progress", func(t *testing.T) { golden.RequireEqual(t, viewText(m)) })
			for _, ev := range evs[7:] {
				m = step(t, m, runEventMsg{token: token, ev: ev})
			}
			m = step(t, m, runClosedMsg{token: token})
			t.Run("summary", func(t *testing.T) { golden.RequireEqual(t, viewText(m)) })
		})
	}
}

func TestScrub(t *testing.T) {
	tests := []struct{ name, in, want string }{
		{"tmp path", "dir /tmp/TestX123/001/demo/pipelines/a.yaml:3", "dir <tmp>:3"},
		{"macOS tmp", "at /private/var/folders/xy/T/abc rest", "at <tmp> rest"},
		{"untouched", "pipelines/pl-prices.yaml 3.2s", "pipelines/pl-prices.yaml 3.2s"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := scrub(tt.in); got != tt.want {
				t.Fatalf("scrub(%q) = %q, want %q", tt.in, got, tt.want)
			}
		})
	}
}
