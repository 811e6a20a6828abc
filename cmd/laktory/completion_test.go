package main

import (
	"strings"
	"testing"

	"github.com/laktory/workbench/workspace/workspacetest"
)

// TestCompletion completes values through cobra's __complete (what the
// shell scripts of laktory completion call): pipelines, nodes (as
// pipeline.node and by name), tags, tables, refresh and reset modes.
func TestCompletion(t *testing.T) {
	dir := workspacetest.Demo(t)
	cases := []struct {
		name string
		args []string
		want []string
		not  []string
	}{
		{"pipelines", []string{"run", dir, "--pipeline", "pl-c"}, []string{"pl-client-acme", "pl-client-globex"}, []string{"pl-prices"}},
		{"nodes", []string{"run", dir, "--select", ""}, []string{"pl-prices.feed_a", "pl-events.events_live", "feed_b", "gld_prices_a"}, nil},
		{"nodes of --pipeline", []string{"run", dir, "--pipeline", "pl-prices", "--select", ""}, []string{"pl-prices.feed_a", "feed_a"}, []string{"pl-events.events_live", "orders"}},
		{"pipeline.node prefix", []string{"plan", dir, "--select", "pl-prices.f"}, []string{"pl-prices.feed_a", "pl-prices.feed_b"}, []string{"pl-prices.gld_prices_a"}},
		{"refresh", []string{"run", "--refresh", ""}, []string{"INCREMENTAL", "FULL", "RESET"}, nil},
		{"reset modes", []string{"plan", "--reset-mode", ""}, []string{"DROP", "TRUNCATE"}, nil},
		{"engines", []string{"run", "--engine", ""}, []string{"local", "spark"}, nil},
		{"tables", []string{"table", "describe", "--dir", dir, ""}, []string{"prices", "all_orders", "main.default.events"}, nil},
		{"table of scan", []string{"table", "scan", "--dir", dir, "pr"}, []string{"prices"}, []string{"events"}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			code, out, errs := runCLI(t, nil, append([]string{"__complete"}, tc.args...)...)
			if code != ExitOK {
				t.Fatalf("exit %d: %s", code, errs)
			}
			lines := strings.Split(strings.TrimSpace(out), "\n")
			got := map[string]bool{}
			for _, l := range lines[:len(lines)-1] { // the last is the directive
				got[strings.SplitN(l, "\t", 2)[0]] = true
			}
			for _, w := range tc.want {
				if !got[w] {
					t.Errorf("completions %v lack %q", lines, w)
				}
			}
			for _, n := range tc.not {
				if got[n] {
					t.Errorf("completions %v hold %q", lines, n)
				}
			}
		})
	}
}
