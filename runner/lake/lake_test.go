package lake_test

import (
	"context"
	"database/sql"
	"errors"
	"path/filepath"
	"testing"

	"github.com/laktory/workbench/delta"
	"github.com/laktory/workbench/runner/engine/local"
	"github.com/laktory/workbench/runner/lake"
	"github.com/laktory/workbench/workspace"
)

// writeTable writes a Delta table of three rows at root.
func writeTable(t *testing.T, db *sql.DB, root string) {
	t.Helper()
	ctx := context.Background()
	query := `SELECT * FROM (VALUES ('a', 1), ('b', 2), ('b', 3)) v(w, x)`
	schema, err := delta.QuerySchema(ctx, db, query)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := delta.Create(ctx, root, delta.TableDefinition{Schema: schema, PartitionColumns: []string{"w"}}, delta.WriteOptions{}); err != nil {
		t.Fatal(err)
	}
	if _, err := delta.Append(ctx, db, root, query, delta.WriteOptions{}); err != nil {
		t.Fatal(err)
	}
}

// TestReaderHandedDB: a reader over a database it is handed reads with
// it and leaves it open on Close; later calls get ErrClosed.
func TestReaderHandedDB(t *testing.T) {
	ctx := context.Background()
	db, err := local.OpenDB(ctx, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	root := filepath.Join(t.TempDir(), "t")
	writeTable(t, db, root)
	s, err := delta.LoadSnapshot(ctx, root)
	if err != nil {
		t.Fatal(err)
	}
	r := lake.New(db, nil)
	if n, err := r.Count(ctx, s, delta.ScanOptions{Where: "x > 1"}); err != nil || n != 2 {
		t.Fatalf("Count = %d, %v; want 2", n, err)
	}
	rows, err := r.Query(ctx, s, delta.ScanOptions{Columns: []string{"x"}}, 2)
	if err != nil {
		t.Fatal(err)
	}
	n := 0
	for rows.Next() {
		n++
	}
	rows.Close()
	if n != 2 {
		t.Fatalf("Query with limit 2 returned %d rows", n)
	}
	info, err := r.Table(ctx, &workspace.Table{ID: workspace.TableID(root), Path: root}, lake.TableOptions{PreviewRows: 1, HistoryLimit: 1})
	if err != nil {
		t.Fatal(err)
	}
	if info.Stats.Version != 1 || info.Stats.Rows != 3 || len(info.History) != 1 || len(info.Preview.Rows) != 1 || !info.Preview.More ||
		len(info.Columns) != 2 || !info.Columns[0].Partition || info.Columns[1].Partition {
		t.Fatalf("Table = %+v", info)
	}
	if err := r.Close(); err != nil {
		t.Fatal(err)
	}
	if err := db.PingContext(ctx); err != nil {
		t.Fatalf("the handed database after the reader's Close: %v", err)
	}
	if _, err := r.Count(ctx, s, delta.ScanOptions{Where: "x > 1"}); !errors.Is(err, lake.ErrClosed) {
		t.Fatalf("Count after Close: %v, want ErrClosed", err)
	}
}

// TestReaderOwnDB: Open's reader opens its database on first need and
// closes it on Close.
func TestReaderOwnDB(t *testing.T) {
	ctx := context.Background()
	db, err := local.OpenDB(ctx, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	root := filepath.Join(t.TempDir(), "t")
	writeTable(t, db, root)
	s, err := delta.LoadSnapshot(ctx, root)
	if err != nil {
		t.Fatal(err)
	}
	r := lake.Open()
	if n, err := r.Count(ctx, s, delta.ScanOptions{Where: "w = 'b'"}); err != nil || n != 2 {
		t.Fatalf("Count = %d, %v; want 2", n, err)
	}
	if err := r.Close(); err != nil {
		t.Fatal(err)
	}
	if _, _, err := r.Optimize(ctx, root, delta.OptimizeOptions{}, delta.WriteOptions{}); !errors.Is(err, lake.ErrClosed) {
		t.Fatalf("Optimize after Close: %v, want ErrClosed", err)
	}
}
