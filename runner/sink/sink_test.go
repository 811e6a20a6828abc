package sink

import (
	"errors"
	"fmt"
	"testing"

	"github.com/laktory/workbench/runner/engine"
	"github.com/laktory/workbench/workspace"
)

// TestMode: a sink's effective mode: APPEND for a Delta sink without one,
// OVERWRITE for a file sink without one, ERRORIFEXISTS is ERROR, any case.
func TestMode(t *testing.T) {
	for _, tc := range []struct {
		format, mode, want string
	}{
		{"DELTA", "", workspace.ModeAppend},
		{"PARQUET", "", workspace.ModeOverwrite},
		{"DELTA", "overwrite", workspace.ModeOverwrite},
		{"CSV", "errorifexists", ModeError},
		{"DELTA", "Ignore", ModeIgnore},
		{"DELTA", "MERGE", workspace.ModeMerge},
	} {
		sk := &workspace.Sink{Kind: workspace.SinkTable, Format: tc.format, Mode: tc.mode}
		if got := Mode(sk); got != tc.want {
			t.Errorf("%s %q: %s, want %s", tc.format, tc.mode, got, tc.want)
		}
	}
}

// TestQuery: a writer-column shared sink writes its writer id first, in
// place of a column of that name; an unshared sink reads the relation as
// it is.
func TestQuery(t *testing.T) {
	cols := []engine.Column{{Name: "_LAKTORY_WRITER", Type: "VARCHAR"}, {Name: "k", Type: "BIGINT"}}
	w := &workspace.Writer{Ownership: workspace.OwnerColumn, Column: "_laktory_writer", WriterID: "pl.it's"}
	for _, tc := range []struct {
		name string
		w    *workspace.Writer
		want string
	}{
		{"unshared", nil, `SELECT * FROM "b"`},
		{"writer column", w, `SELECT CAST('pl.it''s' AS STRING) AS "_laktory_writer", "k" FROM "b"`},
		{"where", &workspace.Writer{Ownership: workspace.OwnerWhere, Where: "k > 1"}, `SELECT * FROM "b"`},
	} {
		if got := Query(tc.w, "", "b", cols); got != tc.want {
			t.Errorf("%s: %s, want %s", tc.name, got, tc.want)
		}
	}
}

type names struct{ Task }

func (names) Names() (string, string) { return "pl", "n" }

// TestWriteError: an error of the sinks' own is returned as it is; any
// other is an ErrSink naming the node, its pipeline and the table.
func TestWriteError(t *testing.T) {
	own := fmt.Errorf("%w: x", ErrOwnership)
	if got := WriteError(names{}, "tbl", own); got != own {
		t.Fatalf("%v rewrapped", got)
	}
	err := WriteError(names{}, "tbl", errors.New("disk full"))
	if !errors.Is(err, ErrSink) || err.Error() != "cannot write sink: node 'n' of pipeline 'pl', table tbl: disk full" {
		t.Fatalf("%v", err)
	}
}
