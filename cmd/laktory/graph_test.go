package main

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/charmbracelet/x/exp/golden"
	"github.com/laktory/workbench/workspace/workspacetest"
)

// TestGraphCompleteMode: laktory graph judges a COMPLETE-mode stream as
// laktory validate does, with the Spark SQL front end (LK168): SELECT
// DISTINCT is a streaming aggregation to Spark, count(*) in a comment is
// none.
func TestGraphCompleteMode(t *testing.T) {
	for _, tc := range []struct {
		sql  string
		want int
	}{
		{"SELECT DISTINCT k FROM {df}", ExitOK},
		{"SELECT k FROM {df} -- count(*)", ExitProblems},
	} {
		dir := t.TempDir()
		workspacetest.Write(t, dir, map[string]string{"pipelines/p.yaml": `name: p
nodes:
- name: n
  sources: [{table_name: src, as_stream: true}]
  transformer: {nodes: [{expr: "` + tc.sql + `"}]}
  sinks: [{table_name: out, mode: COMPLETE}]
`})
		code, _, stderr := runCLI(t, nil, "graph", dir)
		if code != tc.want {
			t.Errorf("%s: exit %d, want %d: %s", tc.sql, code, tc.want, strings.TrimSpace(stderr))
		}
	}
}

func TestGraphDemoJSON(t *testing.T) {
	dir := writeDemo(t)
	code, out, stderr := runCLI(t, nil, "graph", "--json", dir)
	if code != ExitOK {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	var g graphJSON
	if err := json.Unmarshal([]byte(out), &g); err != nil {
		t.Fatal(err)
	}
	tables := map[string]tableJSON{}
	for _, tb := range g.Tables {
		tables[tb.Name] = tb
	}
	prices := tables["main.default.prices"]
	if !prices.Shared || len(prices.Writers) != 2 || prices.Writers[0].Ownership != "column" ||
		prices.Writers[0].WriterID != "pl-prices.feed_a" || prices.Writers[0].Column != "_laktory_writer" {
		t.Errorf("prices: %+v", prices)
	}
	if len(prices.Readers) != 1 || prices.Readers[0].Node != "gld_prices_a" || prices.Readers[0].Kind != "node_name" ||
		!prices.Readers[0].SkipChangeCommits || !prices.Readers[0].AsStream {
		t.Errorf("prices readers: %+v", prices.Readers)
	}
	orders := tables["main.default.all_orders"]
	if len(orders.Writers) != 2 || orders.Writers[1].Ownership != "where" || orders.Writers[1].Where != "client_id = 2" {
		t.Errorf("all_orders: %+v", orders)
	}
	if ev := tables["main.default.events"]; len(ev.Writers) != 2 || ev.Writers[0].Flow != "events__events_backfill" {
		t.Errorf("events: %+v", ev)
	}
	var prices2 pipelineJSON
	for _, p := range g.Pipelines {
		if p.Name == "pl-prices" {
			prices2 = p
		}
	}
	if len(prices2.Order) != 3 || len(prices2.Edges) != 1 || prices2.Edges[0] != (edgeJSON{"feed_a", "gld_prices_a", "node_name"}) {
		t.Errorf("pl-prices DAG: %+v", prices2)
	}
}

// TestGraphHuman: the text graph (golden file; -update rewrites it). A
// workspace with errors still draws, with a note on stderr naming the file
// that does not load, and exits 1.
func TestGraphHuman(t *testing.T) {
	code, out, stderr := runCLI(t, nil, "graph", "testdata/ws_errors")
	if code != ExitProblems || stderr != "laktory: the workspace has 5 errors: run laktory validate\n"+
		"laktory: testdata/ws_errors/pipelines/broken.yaml:4 does not load (YAML syntax error: did not find expected node content): the pipelines it declares are missing from the graph\n" {
		t.Fatalf("exit %d, stderr %q", code, stderr)
	}
	golden.RequireEqual(t, out)
}
