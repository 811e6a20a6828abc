package local

import (
	"context"
	"errors"
	"io"
	"testing"
)

// sliceRows are engine.Rows from memory.
type sliceRows struct{ rows []string }

func (r *sliceRows) Next() ([]byte, error) {
	if len(r.rows) == 0 {
		return nil, io.EOF
	}
	row := r.rows[0]
	r.rows = r.rows[1:]
	return []byte(row), nil
}

func (r *sliceRows) Close() error { return nil }

// TestAppendJSONRows: the rows an engine returns land in a new one-column
// table, in order; a done context stops the append with its error.
func TestAppendJSONRows(t *testing.T) {
	ctx := context.Background()
	db, err := OpenDB(ctx, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	want := []string{`{"a":1}`, `{"a":2}`, `{"b":"x"}`}
	if err := AppendJSONRows(ctx, db, "t one", &sliceRows{rows: want}); err != nil {
		t.Fatal(err)
	}
	rows, err := db.QueryContext(ctx, `SELECT j FROM memory.main."t one"`)
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	var got []string
	for rows.Next() {
		var j string
		if err := rows.Scan(&j); err != nil {
			t.Fatal(err)
		}
		got = append(got, j)
	}
	if len(got) != len(want) || got[0] != want[0] || got[1] != want[1] || got[2] != want[2] {
		t.Fatalf("rows %q, want %q", got, want)
	}

	cctx, cancel := context.WithCancel(ctx)
	cancel()
	if err := AppendJSONRows(cctx, db, "t2", &sliceRows{rows: want}); !errors.Is(err, context.Canceled) {
		t.Fatalf("cancelled append: %v, want context.Canceled", err)
	}
}
