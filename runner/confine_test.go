package runner

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/laktory/workbench/delta"
	"github.com/laktory/workbench/validate"
)

// TestRunTouchesNothingOutside: paths that name the workspace itself, a
// folder above it or an outside folder are refused (by validation, and by
// the run's guard), and nothing there is removed or emptied.
func TestRunTouchesNothingOutside(t *testing.T) {
	tests := []struct {
		name    string
		sink    string
		refresh string
		stream  bool
	}{
		{"file sink OVERWRITE at the workspace", "  - path: ..\n    format: CSV\n    mode: OVERWRITE\n", "", false},
		{"file sink OVERWRITE outside", "  - path: ../../outside\n    format: CSV\n    mode: OVERWRITE\n", "", false},
		{"file sink APPEND outside", "  - path: ../../outside\n    format: CSV\n    mode: APPEND\n", "", false},
		{"file sink FULL refresh outside", "  - path: ../../outside\n    format: CSV\n    mode: APPEND\n", validate.RefreshFull, false},
		{"Delta path sink outside", "  - path: ../../outside\n    format: DELTA\n    mode: APPEND\n", validate.RefreshFull, false},
		{"checkpoint_path at the workspace", "  - table_name: t\n    mode: APPEND\n    checkpoint_path: ..\n", validate.RefreshFull, true},
		{"checkpoint_path outside", "  - table_name: t\n    mode: APPEND\n    checkpoint_path: ../../outside\n", validate.RefreshFull, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			base := t.TempDir()
			dir := filepath.Join(base, "ws")
			outside := filepath.Join(base, "outside")
			os.MkdirAll(outside, 0o755)
			keep := filepath.Join(outside, "keep.txt")
			os.WriteFile(keep, []byte("x"), 0o644)
			w := &ws{t: t, dir: dir}
			stream := ""
			if tt.stream {
				stream = "    as_stream: true\n"
			}
			os.MkdirAll(dir, 0o755)
			w.write(map[string]string{
				"pipelines/p.yaml": "name: p\nnodes:\n- name: n\n  sources:\n  - path: ../data/\n    format: JSONL\n" + stream + "  sinks:\n" + tt.sink,
				"data/1.jsonl":     jsonl("a", 0, 3, ""),
			})
			marks := []string{keep, filepath.Join(dir, "pipelines", "p.yaml"), filepath.Join(dir, "data", "1.jsonl")}
			r := testRunner(t)
			// A first run, then the refresh: at least one of them must fail.
			failed := false
			for _, req := range []Request{{}, {Refresh: tt.refresh}} {
				o := run(t, r, w.load(), req)
				failed = failed || errors.Is(o.err, ErrTasksFailed)
				if tt.refresh == "" {
					break
				}
			}
			if !failed {
				t.Error("the runs succeeded")
			}
			for _, m := range marks {
				if _, err := os.Stat(m); err != nil {
					t.Errorf("%s is gone: %v", m, err)
				}
			}
			if entries, _ := os.ReadDir(outside); len(entries) != 1 {
				t.Errorf("the outside folder holds %d entries, want only keep.txt", len(entries))
			}
		})
	}
}

// TestRunRefusesSymlinkedTable: a table folder replaced by a symbolic link
// to a table outside the roots after validation is neither appended to,
// truncated nor dropped.
func TestRunRefusesSymlinkedTable(t *testing.T) {
	w := newWS(t, map[string]string{
		"pipelines/p.yaml": "name: p\nnodes:\n- name: n\n  sources:\n  - path: ../data/\n    format: JSONL\n  sinks:\n  - table_name: t\n    mode: APPEND\n",
		"data/1.jsonl":     jsonl("a", 0, 3, ""),
	})
	r := testRunner(t)
	mustRun(t, r, w.load(), Request{})
	table := w.table("t")
	before, err := delta.LoadSnapshot(context.Background(), table)
	if err != nil {
		t.Fatal(err)
	}
	outside := filepath.Join(t.TempDir(), "t")
	if err := os.Rename(table, outside); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink(outside, table); err != nil {
		t.Fatal(err)
	}
	for _, req := range []Request{
		{},
		{Refresh: validate.RefreshReset, ResetMode: "TRUNCATE"},
		{Refresh: validate.RefreshReset, ResetMode: "DROP"},
		{Refresh: validate.RefreshFull},
	} {
		o := run(t, r, w.load(), req)
		if !errors.Is(o.err, ErrTasksFailed) {
			t.Fatalf("%+v: the run did not fail: %v", req, o.err)
		}
		if got := taskSum(t, o.sum, "p.n").Err; !strings.Contains(got, "outside the allowed roots") {
			t.Fatalf("%+v: task error %q", req, got)
		}
	}
	s, err := delta.LoadSnapshot(context.Background(), outside)
	if err != nil {
		t.Fatal(err)
	}
	if s.Version() != before.Version() {
		t.Fatalf("the outside table is at version %d, want %d (untouched)", s.Version(), before.Version())
	}
}

// TestRunWritesIntoConfiguredRoot: a root the workbench config names
// accepts sinks like the workspace does; its parent still does not.
func TestRunWritesIntoConfiguredRoot(t *testing.T) {
	base := t.TempDir()
	dir := filepath.Join(base, "ws")
	os.MkdirAll(filepath.Join(base, "shared"), 0o755)
	w := &ws{t: t, dir: dir}
	os.MkdirAll(dir, 0o755)
	w.write(map[string]string{
		"laktory-workbench.yaml": "roots: [../shared]\n",
		"pipelines/p.yaml": "name: p\nnodes:\n- name: n\n  sources:\n  - path: ../data/\n    format: JSONL\n  sinks:\n" +
			"  - path: ../../shared/out\n    format: DELTA\n    mode: OVERWRITE\n",
		"data/1.jsonl": jsonl("a", 0, 3, ""),
	})
	r := testRunner(t)
	mustRun(t, r, w.load(), Request{})
	mustRun(t, r, w.load(), Request{Refresh: validate.RefreshReset, ResetMode: "DROP"})
	if exists(filepath.Join(base, "shared", "out")) {
		t.Fatal("the DROP left the table in the configured root")
	}
	if !exists(filepath.Join(base, "shared")) {
		t.Fatal("the configured root itself was removed")
	}
}
