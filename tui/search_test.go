package tui

import (
	"strings"
	"testing"

	"github.com/charmbracelet/x/exp/teatest"
)

func typeKeys(t testing.TB, m Model, s string) Model {
	t.Helper()
	for _, r := range s {
		m = run(t, m, keys(string(r)))
	}
	return m
}

// TestSearchPanes: / filters the focused pane as the query is typed, n/N
// move between the matches once enter kept it, esc clears it, in the
// tree, the graph, the problems, the runs and the table preview.
func TestSearchPanes(t *testing.T) {
	t.Run("tree", func(t *testing.T) {
		m, _, _ := demoApp(t, 120, 40)
		m = run(t, m, keys("tab")) // the tree
		m = typeKeys(t, run(t, m, keys("/")), "feed")
		if it, ok := m.tree.selected(); !ok || it.label != "feed_a" {
			t.Fatalf("the cursor is on %+v, want the first match feed_a", it)
		}
		var labels []string
		for _, i := range m.tree.vis {
			labels = append(labels, m.tree.items[i].label)
		}
		if got := strings.Join(labels, "|"); got != "pl-prices|feed_a|→ prices|feed_b|→ prices" {
			t.Fatalf("visible items %s: the matches and their parents", got)
		}
		if !strings.Contains(viewText(m), "/feed▏  2 matches") {
			t.Fatalf("the footer shows the search:\n%s", viewText(m))
		}
		m = run(t, run(t, m, keys("enter")), keys("n"))
		if it, _ := m.tree.selected(); it.label != "feed_b" {
			t.Fatalf("n moved to %q, want feed_b", it.label)
		}
		m = run(t, m, keys("N"))
		if it, _ := m.tree.selected(); it.label != "feed_a" {
			t.Fatalf("N moved to %q, want feed_a", it.label)
		}
		if got := m.graph.selectedMembers(); len(got) != 1 || got[0].Label != "pl-prices.feed_a" {
			t.Fatalf("the graph follows the tree's search: %+v", got)
		}
		m = run(t, m, keys("esc"))
		if len(m.tree.vis) != len(m.tree.items) || m.tree.query() != "" {
			t.Fatalf("esc must clear the search: %d of %d items", len(m.tree.vis), len(m.tree.items))
		}
	})
	t.Run("graph", func(t *testing.T) {
		m, _, _ := demoApp(t, 120, 40)
		m = typeKeys(t, run(t, m, keys("/")), "events")
		var rows []string
		for _, r := range m.graph.rows {
			rows = append(rows, r.Label)
		}
		if got := strings.Join(rows, "|"); got != "pl-events.events_backfill|pl-events.events_live" {
			t.Fatalf("rows %s", got)
		}
		m = run(t, m, keys("backspace"))
		m = typeKeys(t, m, "s_live")
		if len(m.graph.rows) != 1 || m.graph.rows[0].Label != "pl-events.events_live" {
			t.Fatalf("rows after editing the search: %+v", m.graph.rows)
		}
		m = run(t, m, keys("esc"))
		if len(m.graph.rows) != 7 {
			t.Fatalf("esc while typing clears the search: %d rows", len(m.graph.rows))
		}
	})
	t.Run("problems", func(t *testing.T) {
		m, _, _ := demoApp(t, 120, 40)
		m = typeKeys(t, run(t, run(t, m, keys("2")), keys("/")), "lk151")
		if len(m.probs.ds) != 1 || m.probs.ds[0].Code != "LK151" {
			t.Fatalf("problems %+v", m.probs.ds)
		}
	})
	t.Run("runs", func(t *testing.T) {
		m, _, _ := demoApp(t, 120, 40)
		m = typeKeys(t, run(t, run(t, m, keys("3")), keys("/")), "full")
		v := viewText(m)
		if r, ok := m.runs.selectedRun(); !ok || r.ID != 2 || strings.Contains(v, "INCREMENTAL") {
			t.Fatalf("runs: %+v\n%s", r, v)
		}
	})
	t.Run("table preview", func(t *testing.T) {
		m, _, _ := demoApp(t, 120, 40)
		m = run(t, selectLane(t, m, "prices"), keys("4"))
		m = typeKeys(t, run(t, m, keys("/")), "msft")
		v := viewText(m)
		if !strings.Contains(v, "402.25") || strings.Contains(v, "187.75") || !strings.Contains(v, `1 of 3 rows hold "msft"`) {
			t.Fatalf("preview:\n%s", v)
		}
	})
}

// TestFlowSearch types a search in the real program: the graph filters as
// the letters come, enter keeps the filter, n moves, esc clears.
func TestFlowSearch(t *testing.T) {
	s := demo(t)
	m := app(t, s, Deps{Lake: demoLake(t, s)})
	tm := teatest.NewTestModel(t, m, teatest.WithInitialTermSize(120, 36))
	waitFor(t, tm, "all_orders")
	tm.Type("/acme")
	waitFor(t, tm, "/acme▏", "1 match")
	tm.Send(keys("enter"))
	waitFor(t, tm, "/acme n/N next/prev")
	tm.Send(keys("esc"))
	waitFor(t, tm, "pl-prices.gld_prices_a")
	final := finalModel(t, tm)
	if final.graph.query() != "" || len(final.graph.rows) != 7 {
		t.Fatalf("after esc: query %q, %d rows", final.graph.query(), len(final.graph.rows))
	}
}
