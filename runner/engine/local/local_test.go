package local

import (
	"database/sql"
	"testing"

	"github.com/laktory/workbench/runner/engine/enginetest"
)

// TestRows: a query's rows come to Go as JSON objects in the form of
// engine.Rows, null members kept, in the query's order (the rows the
// Spark engine's test expects too).
func TestRows(t *testing.T) {
	db, err := sql.Open("duckdb", "")
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	s, err := New(db, nil).Open(t.Context())
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	rows, err := s.Rows(t.Context(), `SELECT k, CAST(k * 1.5 AS DECIMAL(6, 2)) AS d, TIMESTAMPTZ '2024-01-02 03:04:05+01' AS ts,
		TIMESTAMP '2024-01-02 03:04:05' AS ntz, DATE '2024-01-02' AS day, CAST('NaN' AS DOUBLE) AS x, k / 4 AS f, k = 1 AS b,
		'\x01\x02'::BLOB AS bin, CASE WHEN k = 2 THEN 'two "2"' END AS s FROM range(1, 3) t(k) ORDER BY k`)
	if err != nil {
		t.Fatal(err)
	}
	enginetest.CheckRows(t, rows)
	if _, err := s.Rows(t.Context(), "SELECT nope"); err == nil {
		t.Fatal("a query that does not bind: no error")
	}
}
