package workspace_test

import (
	"testing"

	"github.com/laktory/workbench/workspace"
	"github.com/laktory/workbench/workspace/workspacetest"
)

// TestDemoLoads loads the embedded demo workspace: four pipelines, no load
// diagnostics but the extension warnings of pl-events (the only pipeline
// Laktory 0.13.1 does not load), and the shared tables of its README.
func TestDemoLoads(t *testing.T) {
	s := workspacetest.LoadDir(t, workspacetest.Demo(t), workspace.Options{})
	workspacetest.Expect(t, s, s.Diagnostics, workspacetest.DemoExtensionWarnings())
	if len(s.Pipelines) != 4 {
		t.Fatalf("pipelines: %d", len(s.Pipelines))
	}
	owners := map[string][]string{}
	for _, tb := range s.Tables {
		for _, w := range tb.Writers {
			owners[tb.Name] = append(owners[tb.Name], w.Pipeline+"."+w.Node+": "+w.Owner())
		}
	}
	want := map[string][]string{
		"main.default.prices":       {"pl-prices.feed_a: _laktory_writer = 'pl-prices.feed_a'", "pl-prices.feed_b: _laktory_writer = 'pl-prices.feed_b'"},
		"main.default.all_orders":   {"pl-client-acme.orders: where client_id = 1", "pl-client-globex.orders: where client_id = 2"},
		"main.default.events":       {"pl-events.events_backfill: whole table", "pl-events.events_live: whole table"},
		"main.default.gld_prices_a": {"pl-prices.gld_prices_a: whole table"},
	}
	for name, ws := range want {
		if got := owners[name]; len(got) != len(ws) || got[0] != ws[0] || got[len(got)-1] != ws[len(ws)-1] {
			t.Errorf("%s: writers %v, want %v", name, got, ws)
		}
	}
}
