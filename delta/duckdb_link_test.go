package delta

import (
	"database/sql"
	"testing"

	_ "github.com/duckdb/duckdb-go/v2"
)

// TestDuckDBLinks proves the pinned DuckDB bindings link and run a query.
func TestDuckDBLinks(t *testing.T) {
	db, err := sql.Open("duckdb", "")
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	var n int
	var v string
	if err := db.QueryRow("SELECT 40 + 2, version()").Scan(&n, &v); err != nil {
		t.Fatal(err)
	}
	if n != 42 || v == "" {
		t.Fatalf("got %d, %q", n, v)
	}
	t.Logf("DuckDB %s", v)
}
