package tui

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/laktory/workbench/runner"
	"github.com/laktory/workbench/validate"
	"github.com/laktory/workbench/workspace"
	"github.com/laktory/workbench/workspace/workspacetest"
)

// TestDeltaLakeView: the lake reader tells a VIEW sink's folder from a
// table: its stats say a view (it exists, with its columns, no version),
// and its Table info carries the view's SQL, inputs and columns.
func TestDeltaLakeView(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	workspacetest.Write(t, dir, map[string]string{
		"pl.yaml": `name: pl
nodes:
- name: t
  sources: [{path: data/, format: JSONL}]
  sinks: [{table_name: orders, mode: OVERWRITE}]
- name: v
  sources: [{node_name: t}]
  transformer: {nodes: [{expr: "SELECT k FROM {df}"}]}
  sinks: [{table_name: orders_v, table_type: VIEW}]
`,
		"data/1.jsonl": `{"k": "a"}` + "\n",
	})
	runDemo(t, newRunner(t), dir, runner.Request{})
	snap := workspacetest.LoadDir(t, dir, workspace.Options{})
	lake := NewDeltaLake()
	defer lake.Close()
	stats, err := lake.Stats(ctx, snap)
	if err != nil {
		t.Fatal(err)
	}
	id := tableID(t, snap, "orders_v")
	if st := stats[id]; !st.View || !st.Facts.Exists || st.Facts.Err != "" || st.Version != -1 || strings.Join(st.Facts.Columns, ",") != "k" {
		t.Fatalf("view stats %+v", st)
	}
	info, err := lake.Table(ctx, snap, id)
	if err != nil {
		t.Fatal(err)
	}
	if v := info.View; v == nil || v.SQL != "CREATE OR REPLACE VIEW orders_v AS SELECT k FROM orders" || strings.Join(v.Reads, ",") != "orders" ||
		v.Pipeline != "pl" || v.Node != "v" || len(info.Columns) != 1 {
		t.Fatalf("view info %+v %+v", info, info.View)
	}
}

// TestTableTabView: the Table tab of a view shows its SQL, what it reads
// and its columns, and says it holds no rows (no version).
func TestTableTabView(t *testing.T) {
	m, s, _ := demoApp(t, 120, 60)
	prices := tableID(t, s, "prices")
	m.deps.Lake.(*fakeLake).infos[prices] = &TableInfo{ID: prices, Timestamp: time.Date(2026, 12, 2, 17, 0, 0, 0, time.UTC),
		Stats:   TableStats{Version: -1, View: true, Facts: validate.TableFacts{Exists: true}},
		Columns: []ColumnInfo{{Name: "price", Type: "DOUBLE", Nullable: true}},
		View: &ViewInfo{Name: "prices", SQL: "CREATE OR REPLACE VIEW prices AS SELECT price FROM raw_prices", Dialect: "PYSPARK",
			Pipeline: "pl-prices", Node: "feed_a", Reads: []string{"raw_prices"}}}
	m = run(t, selectLane(t, m, "prices"), keys("4"))
	got := flat(m.View())
	for _, want := range []string{"view · created 2026-12-02 17:00 UTC by pl-prices.feed_a · PYSPARK", "no rows of its own",
		"CREATE OR REPLACE VIEW prices AS SELECT price FROM raw_prices", "Reads", "raw_prices", "Schema (1 columns, when created)"} {
		if !strings.Contains(got, want) {
			t.Fatalf("the Table tab lacks %q:\n%s", want, m.View())
		}
	}
	if strings.Contains(got, "version -1") {
		t.Fatalf("a view has no version:\n%s", m.View())
	}
}
