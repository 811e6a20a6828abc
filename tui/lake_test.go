package tui

import (
	"bytes"
	"context"
	"errors"
	"os"
	"path/filepath"
	"slices"
	"sync"
	"testing"

	"github.com/laktory/workbench/delta"
	"github.com/laktory/workbench/runner"
	"github.com/laktory/workbench/runner/history"
	"github.com/laktory/workbench/workspace"
	"github.com/laktory/workbench/workspace/workspacetest"
)

// ranDemo is the demo after runs of pl-prices and both client pipelines.
func ranDemo(t *testing.T) string {
	t.Helper()
	dir := workspacetest.Demo(t)
	runDemo(t, newRunner(t), dir, runner.Request{Pipelines: []string{"pl-prices", "pl-client-acme", "pl-client-globex"}})
	return dir
}

func TestDeltaLake(t *testing.T) {
	ctx := context.Background()
	dir := ranDemo(t)
	snap := workspacetest.LoadDir(t, dir, workspace.Options{})
	lake := NewDeltaLake()
	defer lake.Close()
	stats, err := lake.Stats(ctx, snap)
	if err != nil {
		t.Fatal(err)
	}
	prices := stats[tableID(t, snap, "prices")]
	a, b := prices.Facts.WriterRows["pl-prices.feed_a"], prices.Facts.WriterRows["pl-prices.feed_b"]
	if !prices.Facts.Exists || prices.Version < 1 || a == 0 || b == 0 || prices.Rows != a+b || !prices.RowsExact ||
		prices.Facts.WriterColumn != workspace.DefaultWriterColumn {
		t.Fatalf("prices: %+v", prices)
	}
	orders := stats[tableID(t, snap, "all_orders")]
	c1, c2 := orders.PredicateRows["client_id = 1"], orders.PredicateRows["client_id = 2"]
	if !orders.Facts.Exists || c1 == 0 || c2 == 0 || c1+c2 != orders.Rows || len(orders.PredicateErr) != 0 {
		t.Fatalf("all_orders: %+v", orders)
	}
	if ev := stats[tableID(t, snap, "events")]; ev.Facts.Exists || ev.Version != -1 || ev.Facts.Err != "" {
		t.Fatalf("events was never written: %+v", ev)
	}

	lake.PreviewRows = 2
	info, err := lake.Table(ctx, snap, tableID(t, snap, "prices"))
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(info.Partitions, []string{workspace.DefaultWriterColumn}) || len(info.Columns) == 0 ||
		info.Columns[0].Name != workspace.DefaultWriterColumn || !info.Columns[0].Partition {
		t.Fatalf("schema %+v, partitions %v", info.Columns, info.Partitions)
	}
	if len(info.History) == 0 || info.History[0].Version != prices.Version || info.Files == 0 || info.SizeBytes == 0 {
		t.Fatalf("history %+v, files %d", info.History, info.Files)
	}
	p := info.Preview
	if p.Err != "" || len(p.Rows) != 2 || !p.More || len(p.Columns) != len(info.Columns) || len(p.Rows[0]) != len(p.Columns) {
		t.Fatalf("preview %+v", p)
	}
	if _, err := lake.Table(ctx, snap, "/no/such/table"); !errors.Is(err, ErrNoTable) {
		t.Fatalf("unknown table: %v", err)
	}
}

func TestDeltaLakeBadTables(t *testing.T) {
	ctx := context.Background()
	dir := ranDemo(t)
	// A predicate DuckDB cannot evaluate, and a corrupt commit.
	acme := filepath.Join(dir, "pipelines", "pl-client-acme.yaml")
	b, _ := os.ReadFile(acme)
	if err := os.WriteFile(acme, bytes.Replace(b, []byte("where: client_id = 1"), []byte("where: no_such_column = 1"), 1), 0o644); err != nil {
		t.Fatal(err)
	}
	snap := workspacetest.LoadDir(t, dir, workspace.Options{})
	prices := snap.Table(tableID(t, snap, "prices"))
	log := filepath.Join(prices.Path, delta.LogDirName, delta.CommitFileName(1))
	if err := os.WriteFile(log, []byte("{not json\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	lake := NewDeltaLake()
	defer lake.Close()
	stats, err := lake.Stats(ctx, snap)
	if err != nil {
		t.Fatal(err)
	}
	if st := stats[prices.ID]; st.Facts.Err == "" || st.Facts.Exists {
		t.Fatalf("a corrupt table must report its error: %+v", st)
	}
	orders := stats[tableID(t, snap, "all_orders")]
	if orders.PredicateErr["no_such_column = 1"] == "" || orders.PredicateRows["client_id = 2"] == 0 {
		t.Fatalf("a bad predicate fails alone: %+v", orders)
	}
}

func TestHistoryFile(t *testing.T) {
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), ".laktory", "state.db")
	h := NewHistoryFile(path)
	defer h.Close()
	page, err := h.ListRuns(ctx, history.Page{}, history.Filter{})
	if err != nil || len(page.Runs) != 0 {
		t.Fatalf("no file: %+v, %v", page, err)
	}
	if _, err := h.RunDetail(ctx, 1); !errors.Is(err, history.ErrNotFound) {
		t.Fatalf("detail without a file: %v", err)
	}
	if ts, err := h.LastTasks(ctx, ""); err != nil || len(ts) != 0 {
		t.Fatalf("last tasks without a file: %v, %v", ts, err)
	}
	if _, err := os.Stat(path); !errors.Is(err, os.ErrNotExist) {
		t.Fatalf("showing an empty history created %s", path)
	}
	s, err := history.Open(ctx, path)
	if err != nil {
		t.Fatal(err)
	}
	id, err := s.StartRun(ctx, history.RunStart{Workspace: "/ws"})
	if err != nil {
		t.Fatal(err)
	}
	if err := s.FinishRun(ctx, id, history.RunEnd{Status: history.StatusSucceeded}); err != nil {
		t.Fatal(err)
	}
	s.Close()
	page, err = h.ListRuns(ctx, history.Page{}, history.Filter{})
	if err != nil || len(page.Runs) != 1 || page.Runs[0].ID != id {
		t.Fatalf("once the file exists: %+v, %v", page, err)
	}
	if d, err := h.RunDetail(ctx, id); err != nil || d.Run.Status != history.StatusSucceeded {
		t.Fatalf("detail: %+v, %v", d, err)
	}
}

// TestClosedStaysClosed: a command still in flight when the program quits
// must not reopen the history (creating files in the workspace the program
// is done with) nor the lake's database.
func TestClosedStaysClosed(t *testing.T) {
	dir := ranDemo(t)
	snap := workspacetest.LoadDir(t, dir, workspace.Options{})
	hist := NewHistoryFile(snap.Layout.StateDB())
	if _, err := hist.ListRuns(context.Background(), history.Page{Limit: 1}, history.Filter{}); err != nil {
		t.Fatal(err)
	}
	hist.Close()
	if _, err := hist.ListRuns(context.Background(), history.Page{Limit: 1}, history.Filter{}); !errors.Is(err, ErrClosed) {
		t.Fatalf("history after Close: %v, want ErrClosed", err)
	}
	lake := NewDeltaLake()
	lake.Close()
	if _, err := lake.duck(context.Background()); !errors.Is(err, ErrClosed) {
		t.Fatalf("lake after Close: %v, want ErrClosed", err)
	}
}

// TestHistoryCloseWaitsForCalls: Close returns only once the calls in
// flight are done, so that their SQLite connections are closed (and the
// -wal and -shm files they keep removed) before the workspace may be: the
// workbench's tests removed it while a command still read the history
// (TempDir cleanup: directory not empty).
func TestHistoryCloseWaitsForCalls(t *testing.T) {
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "state.db")
	s, err := history.Open(ctx, path)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := s.StartRun(ctx, history.RunStart{Workspace: "/ws"}); err != nil {
		t.Fatal(err)
	}
	s.Close()
	for round := range 20 {
		hist := NewHistoryFile(path)
		var wg sync.WaitGroup
		started := make(chan struct{}, 8)
		for range 8 {
			wg.Go(func() {
				for i := 0; ; i++ {
					_, err := hist.RunDetail(ctx, 1)
					if i == 0 {
						started <- struct{}{}
					}
					if errors.Is(err, ErrClosed) {
						return
					}
				}
			})
		}
		for range 8 {
			<-started
		}
		if err := hist.Close(); err != nil {
			t.Fatal(err)
		}
		for _, side := range []string{"-wal", "-shm"} {
			if _, err := os.Stat(path + side); err == nil {
				t.Fatalf("round %d: state.db%s is still there once Close returned", round, side)
			}
		}
		wg.Wait()
	}
}
