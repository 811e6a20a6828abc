package local

import (
	"database/sql"
	"errors"
	"io"
	"testing"
)

// TestRows: a query's rows come to Go as JSON objects in the form of
// engine.Rows, null members kept, in the query's order.
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
		TIMESTAMP '2024-01-02 03:04:05' AS ntz, DATE '2024-01-02' AS day, CAST('NaN' AS DOUBLE) AS x,
		CASE WHEN k = 2 THEN 'two' END AS s FROM range(1, 3) t(k) ORDER BY k`)
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	want := []string{
		`{"k":1,"d":"1.50","ts":"2024-01-02T02:04:05.000000Z","ntz":"2024-01-02T03:04:05.000000","day":"2024-01-02","x":"NaN","s":null}`,
		`{"k":2,"d":"3.00","ts":"2024-01-02T02:04:05.000000Z","ntz":"2024-01-02T03:04:05.000000","day":"2024-01-02","x":"NaN","s":"two"}`,
	}
	for i := 0; ; i++ {
		row, err := rows.Next()
		if errors.Is(err, io.EOF) && i == len(want) {
			break
		}
		if err != nil || i >= len(want) || string(row) != want[i] {
			t.Fatalf("row %d: %s %v, want %s", i, row, err, want[min(i, len(want)-1)])
		}
	}
	if _, err := s.Rows(t.Context(), "SELECT nope"); err == nil {
		t.Fatal("a query that does not bind: no error")
	}
}
