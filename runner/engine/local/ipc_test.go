package local

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"testing"
	"time"
)

// TestLoadIPC: an Arrow IPC file polars wrote is loaded once into the
// in-memory catalog (a second read of the unchanged file reuses the
// table), loaded anew when it changes (the previous table dropped), and
// a column type local runs do not read is ErrIPCType.
func TestLoadIPC(t *testing.T) {
	ctx := context.Background()
	db, err := OpenDB(ctx, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	corpus := filepath.Join("..", "..", "polarsread", "testdata", "corpus", "ipc")
	b, err := os.ReadFile(filepath.Join(corpus, "rows.arrow"))
	if err != nil {
		t.Fatal(err)
	}
	p := filepath.Join(t.TempDir(), "rows.arrow")
	if err := os.WriteFile(p, b, 0o644); err != nil {
		t.Fatal(err)
	}
	rel, err := LoadIPC(ctx, db, p)
	if err != nil {
		t.Fatal(err)
	}
	var n int
	if err := db.QueryRowContext(ctx, "SELECT count(*) FROM "+rel+" WHERE s = 'r' || a").Scan(&n); err != nil || n != 10 {
		t.Fatalf("%s: %d rows of a and s = r<a> (%v), want 10", rel, n, err)
	}
	again, err := LoadIPC(ctx, db, p)
	if err != nil || again != rel {
		t.Fatalf("second load: %s, %v; want %s", again, err, rel)
	}
	later := time.Now().Add(time.Minute)
	if err := os.Chtimes(p, later, later); err != nil {
		t.Fatal(err)
	}
	changed, err := LoadIPC(ctx, db, p)
	if err != nil || changed == rel {
		t.Fatalf("load of the changed file: %s, %v; want a new table", changed, err)
	}
	if err := db.QueryRowContext(ctx, "SELECT count(*) FROM duckdb_tables() WHERE database_name = 'memory' AND starts_with(table_name, 'lk_ipc_')").Scan(&n); err != nil || n != 1 {
		t.Fatalf("%d IPC tables (%v), want 1: the stale one dropped", n, err)
	}
	if _, err := LoadIPC(ctx, db, filepath.Join(corpus, "time.arrow")); !errors.Is(err, ErrIPCType) {
		t.Fatalf("a Time column: %v, want ErrIPCType", err)
	}
}
