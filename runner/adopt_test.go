package runner

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/laktory/workbench/delta"
	"github.com/laktory/workbench/runner/checkpoint"
	"github.com/laktory/workbench/validate"
)

const adoptPipeline = `name: pl
nodes:
- name: a
  source:
    path: ../data/in.jsonl
    format: JSONL
  sinks:
  - table_name: t
    mode: OVERWRITE
`

// userFiles writes a user's folder: a file and a table-looking subfolder.
func userFiles(t *testing.T, dir string) map[string]string {
	t.Helper()
	files := map[string]string{"keep.txt": "mine\n", "main/default/t/user.csv": "a\n1\n"}
	for rel, body := range files {
		p := filepath.Join(dir, filepath.FromSlash(rel))
		os.MkdirAll(filepath.Dir(p), 0o755)
		if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return files
}

// sameFiles fails unless dir holds exactly files (nothing added, removed
// or changed).
func sameFiles(t *testing.T, dir string, files map[string]string) {
	t.Helper()
	n := 0
	filepath.WalkDir(dir, func(p string, d os.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		n++
		rel, _ := filepath.Rel(dir, p)
		b, _ := os.ReadFile(p)
		if want, ok := files[filepath.ToSlash(rel)]; !ok || want != string(b) {
			t.Errorf("%s: %s was written in the user's folder", dir, rel)
		}
		return nil
	})
	if n != len(files) {
		t.Errorf("%s holds %d files, want the user's %d", dir, n, len(files))
	}
}

// TestSymlinkedLakeNotAdopted: a default .laktory/lake that is a symbolic
// link onto a folder outside the workspace is not a root: validate and the
// plan refuse the table sinks there (LK403), so no run (nor a RESET DROP)
// makes the user's folder a table or deletes it.
func TestSymlinkedLakeNotAdopted(t *testing.T) {
	base := t.TempDir()
	outside := filepath.Join(base, "outside")
	files := userFiles(t, outside)
	w := &ws{t: t, dir: filepath.Join(base, "ws")}
	w.write(map[string]string{"pipelines/pl.yaml": adoptPipeline, "data/in.jsonl": jsonl("a", 0, 2, "")})
	os.MkdirAll(filepath.Join(w.dir, ".laktory"), 0o755)
	if err := os.Symlink(outside, filepath.Join(w.dir, ".laktory", "lake")); err != nil {
		t.Fatal(err)
	}
	r := testRunner(t)
	snap := w.load()
	for _, req := range []Request{{}, {Refresh: "FULL"}, {Refresh: "RESET", ResetMode: "DROP"}} {
		pe := planErr(t, r, snap, req)
		if !hasDiag(pe, validate.CodePathOutside, "outside") {
			t.Fatalf("%+v: the plan does not refuse the table in the linked lake: %v", req, pe)
		}
	}
	sameFiles(t, outside, files)
}

// TestTableFolderNotAdopted: a table sink's folder that already holds a
// user's files (no Delta table) is not made a table: the run fails naming
// what it holds, and the folder is left as it was, RESET DROP included.
func TestTableFolderNotAdopted(t *testing.T) {
	w := newWS(t, map[string]string{"pipelines/pl.yaml": adoptPipeline, "data/in.jsonl": jsonl("a", 0, 2, "")})
	folder := w.table("t")
	files := map[string]string{"notes.txt": "mine\n", "sub/x.csv": "a\n1\n"}
	for rel, body := range files {
		p := filepath.Join(folder, filepath.FromSlash(rel))
		os.MkdirAll(filepath.Dir(p), 0o755)
		os.WriteFile(p, []byte(body), 0o644)
	}
	r := testRunner(t)
	o := run(t, r, w.load(), Request{})
	if o.err == nil || !errors.Is(o.err, delta.ErrNotDeltaTable) && !contains(taskErrs(o), "refusing to create a table in") {
		t.Fatalf("the run made the user's folder a table: %v %s", o.err, taskErrs(o))
	}
	if !contains(taskErrs(o), "notes.txt, sub") {
		t.Fatalf("the error does not name what the folder holds: %s", taskErrs(o))
	}
	sameFiles(t, folder, files)
	if _, err := r.Plan(context.Background(), w.load(), Request{Refresh: "RESET", ResetMode: "DROP"}); err == nil {
		o = run(t, r, w.load(), Request{Refresh: "RESET", ResetMode: "DROP"})
		_ = o
	}
	sameFiles(t, folder, files)
}

func contains(s, sub string) bool { return strings.Contains(s, sub) }

// TestTableLinkFlippedMidRun: a lake table folder that is a symbolic link
// (to a folder inside the lake) flipped by another process onto an
// outside Delta table between the run's check and its commit: the run
// writes where the check resolved the link, so the outside table gets no
// file and no commit, for an append and for the FULL refresh of a shared
// writer (its DELETE of the writer's rows, then its append) and for a
// RESET TRUNCATE of the whole shared table.
func TestTableLinkFlippedMidRun(t *testing.T) {
	const pipeline = `name: pl
nodes:
- name: a
  source:
    path: ../data/in.jsonl
    format: JSONL
  sinks:
  - table_name: t
    mode: APPEND
`
	for _, tc := range []struct {
		name, pipeline, refresh, resetMode string
		want                               int
	}{
		{"append", pipeline, "", "", 4},
		{"FULL refresh of a shared writer", strings.Replace(pipeline, "mode: APPEND\n", "mode: APPEND\n    shared: true\n", 1), "FULL", "", 2},
		{"RESET TRUNCATE of a shared table", strings.Replace(pipeline, "mode: APPEND\n", "mode: APPEND\n    shared: true\n", 1), "RESET", "TRUNCATE", 0},
	} {
		t.Run(tc.name, func(t *testing.T) {
			base := t.TempDir()
			w := &ws{t: t, dir: filepath.Join(base, "ws")}
			w.write(map[string]string{"pipelines/pl.yaml": tc.pipeline, "data/in.jsonl": jsonl("a", 0, 2, "")})
			r := testRunner(t)
			mustRun(t, r, w.load(), Request{})
			link := w.table("t")
			realDir := link + "_real"
			outside := filepath.Join(base, "outside", "t")
			os.MkdirAll(filepath.Dir(outside), 0o755)
			if err := os.Rename(link, realDir); err != nil {
				t.Fatal(err)
			}
			if err := checkpoint.CopyDir(realDir, outside); err != nil {
				t.Fatal(err)
			}
			if err := os.Symlink(realDir, link); err != nil {
				t.Fatal(err)
			}
			before := listTree(t, outside)
			flipped := false
			r2 := testRunner(t, func(c *Config) {
				c.beforeCommit = func(string, int) {
					if !flipped {
						flipped = true
						os.Remove(link)
						if err := os.Symlink(outside, link); err != nil {
							t.Error(err)
						}
					}
				}
			})
			mustRun(t, r2, w.load(), Request{Refresh: tc.refresh, ResetMode: tc.resetMode})
			if !flipped {
				t.Fatal("the hook did not run")
			}
			if after := listTree(t, outside); after != before {
				t.Fatalf("the outside table was written:\nbefore %s\nafter  %s", before, after)
			}
			if n := count(t, r2, realDir, ""); n != tc.want {
				t.Fatalf("%d rows in the table the run checked, want %d", n, tc.want)
			}
		})
	}
}

// listTree lists the files below dir.
func listTree(t *testing.T, dir string) string {
	t.Helper()
	var b strings.Builder
	filepath.WalkDir(dir, func(p string, d os.DirEntry, err error) error {
		if err == nil && !d.IsDir() {
			rel, _ := filepath.Rel(dir, p)
			b.WriteString(rel + " ")
		}
		return err
	})
	return b.String()
}
