// Package enginetest holds what the tests of every engine share: the
// rows a query of the same values returns through engine.Session.Rows.
package enginetest

import (
	_ "embed"
	"errors"
	"io"
	"strings"
	"testing"

	"github.com/laktory/workbench/runner/engine"
)

//go:embed testdata/rows.jsonl
var wantRows string

// CheckRows checks that rows are testdata/rows.jsonl, in order: the rows
// of a query, in the engine's SQL, of the columns
//
//	k BIGINT 1 and 2, d DECIMAL(6, 2) k * 1.5, ts the timestamp with a time
//	zone 2024-01-02 03:04:05+01:00, ntz the timestamp without one
//	2024-01-02 03:04:05, day DATE 2024-01-02, x DOUBLE NaN, f k / 4,
//	b k = 1, bin the bytes 0x01 0x02, s NULL then 'two "2"'
//
// ordered by k. It closes rows.
func CheckRows(t testing.TB, rows engine.Rows) {
	t.Helper()
	defer rows.Close()
	want := strings.Split(strings.TrimSpace(wantRows), "\n")
	for i := 0; ; i++ {
		row, err := rows.Next()
		if errors.Is(err, io.EOF) && i == len(want) {
			return
		}
		if err != nil || i >= len(want) || string(row) != want[i] {
			t.Fatalf("row %d: %s %v, want %s", i, row, err, want[min(i, len(want)-1)])
		}
	}
}
