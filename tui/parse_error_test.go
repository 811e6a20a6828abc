package tui

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/charmbracelet/x/exp/teatest"

	"github.com/laktory/workbench/workspace"
	"github.com/laktory/workbench/workspace/workspacetest"
)

// TestFlowSourceCannotBeParsed: with the real runner, a FULL refresh from
// the workbench of a node whose source file has a malformed line fails
// showing the file, its line and column and the fix, and the table keeps
// its rows.
func TestFlowSourceCannotBeParsed(t *testing.T) {
	dir := t.TempDir()
	workspacetest.Write(t, dir, map[string]string{
		"pipelines/pa.yaml": `name: pa
nodes:
- name: a
  sources:
  - path: ../data/a/
    format: JSONL
  sinks:
  - table_name: orders
    mode: APPEND
`,
		"data/a/1.jsonl": "{\"id\": 1}\n{\"id\": 2}\n",
	})
	r := newRunner(t)
	snap := workspacetest.LoadDir(t, dir, workspace.Options{})
	lake := NewDeltaLake()
	defer lake.Close()
	hist := NewHistoryFile(snap.Layout.StateDB())
	defer hist.Close()
	local := &LocalRunner{R: r}
	defer local.Wait()
	m := New(Deps{Snapshot: snap, Runner: local, History: hist, Lake: lake, Tick: -1})
	tm := teatest.NewTestModel(t, m, teatest.WithInitialTermSize(200, 50))
	waitFor(t, tm, "orders")
	tm.Send(keys("a"))
	waitFor(t, tm, "Summary: succeeded")
	if err := os.WriteFile(filepath.Join(dir, "data/a/1.jsonl"), []byte("{\"id\": 1}\n{\"id\" 2}\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	tm.Send(keys("g"))
	tm.Send(keys("f"))
	waitFor(t, tm, "drop")
	tm.Send(keys("y"))
	waitFor(t, tm, "Summary: failed", "data/a/1.jsonl cannot be parsed as JSONL: line 2, column 7")
	final := finalModel(t, tm)
	if v := final.View(); !strings.Contains(v, "nothing") || !strings.Contains(v, "was written from it: fix the file there (or move it out of the source) and run again") {
		t.Fatalf("the run view does not show the fix:\n%s", v)
	}
	st, err := lake.Stats(t.Context(), snap)
	if err != nil {
		t.Fatal(err)
	}
	if n := st[tableID(t, snap, "orders")].Rows; n != 2 {
		t.Fatalf("the table has %d rows after the failed refresh, want 2", n)
	}
}
