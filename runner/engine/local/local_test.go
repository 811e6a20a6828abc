package local

import (
	"database/sql"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/laktory/workbench/runner/engine/enginetest"
)

// TestRows: a query's rows come to Go as JSON objects in the form of
// engine.Rows, null members kept, in the query's order (the rows the
// Spark engine's test expects too).
func TestRows(t *testing.T) {
	s := open(t)
	rows, err := s.Rows(t.Context(), checkRowsSQL)
	if err != nil {
		t.Fatal(err)
	}
	enginetest.CheckRows(t, rows)
	if _, err := s.Rows(t.Context(), "SELECT nope"); err == nil {
		t.Fatal("a query that does not bind: no error")
	}
}

// checkRowsSQL is the query of enginetest.CheckRows in DuckDB's SQL.
const checkRowsSQL = `SELECT k, CAST(k * 1.5 AS DECIMAL(6, 2)) AS d, TIMESTAMPTZ '2024-01-02 03:04:05+01' AS ts,
	TIMESTAMP '2024-01-02 03:04:05' AS ntz, DATE '2024-01-02' AS day, CAST('NaN' AS DOUBLE) AS x, k / 4 AS f, k = 1 AS b,
	'\x01\x02'::BLOB AS bin, CASE WHEN k = 2 THEN 'two "2"' END AS s FROM range(1, 3) t(k) ORDER BY k`

func open(t *testing.T) *Session {
	t.Helper()
	db, err := sql.Open("duckdb", "")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	s, err := New(db, nil).Open(t.Context())
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close() })
	return s.(*Session)
}

// TestSaveParquet: SaveParquet writes the rows of a query in a new folder,
// as one Parquet file part-00000.parquet, read back with the same values
// and types; a folder that exists is refused (the runner clears it).
func TestSaveParquet(t *testing.T) {
	s := open(t)
	dir := filepath.Join(t.TempDir(), "output.parquet")
	if err := s.SaveParquet(t.Context(), dir, checkRowsSQL); err != nil {
		t.Fatal(err)
	}
	if entries, err := os.ReadDir(dir); err != nil || len(entries) != 1 || entries[0].Name() != "part-00000.parquet" {
		t.Fatalf("the folder holds %v %v", entries, err)
	}
	rows, err := s.Rows(t.Context(), "SELECT * FROM read_parquet('"+filepath.Join(dir, "part-00000.parquet")+"') ORDER BY k")
	if err != nil {
		t.Fatal(err)
	}
	enginetest.CheckRows(t, rows)
	if err := s.SaveParquet(t.Context(), dir, "SELECT 1"); !os.IsExist(err) {
		t.Fatalf("saved into a folder that exists: %v", err)
	}
}

// TestDescribe: Describe gives a query's columns and DuckDB's types
// through a connection and through a database, DuckDB's error for a query
// that does not bind, and ErrStatements for a text of several statements,
// running none of them.
func TestDescribe(t *testing.T) {
	s := open(t)
	db, err := sql.Open("duckdb", "")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	for _, q := range []struct {
		name string
		q    Querier
	}{{"conn", s.Conn}, {"db", db}} {
		for _, c := range []struct {
			query, want string
			err         error
		}{
			{query: "SELECT 1::BIGINT AS a, 'x' AS \"b c\", 1.5::DECIMAL(18,2) AS d, [1] AS l, {'f': 1} AS s",
				want: `[{a BIGINT} {b c VARCHAR} {d DECIMAL(18,2)} {l INTEGER[]} {s STRUCT(f INTEGER)}]`},
			{query: "SELECT 1 AS a LIMIT 0", want: `[{a INTEGER}]`},
			{query: "SELECT 1 AS a; CREATE TABLE made AS SELECT 1", err: ErrStatements},
			{query: "SELECT nope"},
		} {
			t.Run(q.name+"/"+c.query, func(t *testing.T) {
				cols, err := Describe(t.Context(), q.q, c.query)
				switch {
				case c.err != nil && !errors.Is(err, c.err):
					t.Fatalf("error %v, want %v", err, c.err)
				case c.err == nil && c.want == "" && (err == nil || !strings.Contains(err.Error(), "nope")):
					t.Fatalf("error %v, want DuckDB's binder error", err)
				case c.want != "" && (err != nil || fmt.Sprint(cols) != c.want):
					t.Fatalf("got %v %v, want %s", cols, err, c.want)
				}
				if _, err := Describe(t.Context(), q.q, "SELECT * FROM made"); err == nil {
					t.Fatal("a statement before the query ran")
				}
			})
		}
	}
}
