package runner

import (
	"context"
	"errors"
	"go/ast"
	"go/parser"
	"go/printer"
	"go/token"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

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
// (to a folder inside the lake) flipped by another process onto another
// Delta table (outside the workspace, or another table of the lake) after
// the task's path check: every operation of the task uses the path the
// check resolved, so the other table gets no file, no commit and loses
// nothing: an append (flipped before its commit), the FULL refresh of a
// shared writer (its scan and DELETE of the writer's rows, then its
// append), a RESET TRUNCATE of the whole shared table, a MERGE sink's
// commits, a RESET DROP, the TRUNCATE that finishes an interrupted
// whole-table reset, and the removal of a crash's stale commit file.
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
	shared := strings.Replace(pipeline, "mode: APPEND\n", "mode: APPEND\n    shared: true\n", 1)
	merge := strings.Replace(pipeline, "mode: APPEND\n", "mode: MERGE\n    merge_cdc_options:\n      primary_keys: [k]\n      order_by: v\n", 1)
	for _, tc := range []struct {
		name, pipeline, refresh, resetMode string
		// atCheck flips the link just after the task's path check (else
		// before its first commit); inLake flips it onto another table of
		// the lake (else onto one outside the workspace).
		atCheck, inLake bool
		// second is the source for the second run ("" keeps it).
		second string
		// setup prepares the second run (the real table folder, the other
		// table, the workspace).
		setup func(t *testing.T, r *Runner, w *ws, realDir, other string)
		want  int // rows of the table the run checked after it, -1: dropped
	}{
		{name: "append", pipeline: pipeline, want: 4},
		{name: "FULL refresh of a shared writer", pipeline: shared, refresh: "FULL", want: 2},
		{name: "FULL refresh of a shared writer, flipped after the check", pipeline: shared, refresh: "FULL", atCheck: true, want: 2},
		{name: "RESET TRUNCATE of a shared table", pipeline: shared, refresh: "RESET", resetMode: "TRUNCATE", want: 0},
		{name: "MERGE", pipeline: merge, atCheck: true, second: jsonl("b", 0, 2, ""), want: 4},
		{name: "RESET DROP", pipeline: pipeline, refresh: "RESET", resetMode: "DROP", atCheck: true, inLake: true, want: -1},
		{name: "TRUNCATE finishing an interrupted reset", pipeline: shared, atCheck: true, want: 2,
			setup: func(t *testing.T, r *Runner, w *ws, realDir, _ string) {
				interruptedTruncate(t, r, w, realDir)
			}},
		{name: "stale commit file of a crash", pipeline: pipeline, atCheck: true, want: 4,
			setup: func(t *testing.T, _ *Runner, _ *ws, realDir, other string) {
				for _, dir := range []string{realDir, other} {
					tmp := filepath.Join(dir, delta.LogDirName, "_commit_0123abcd.json.tmp")
					if err := os.WriteFile(tmp, []byte("{}\n"), 0o644); err != nil {
						t.Fatal(err)
					}
					old := time.Now().Add(-time.Hour)
					os.Chtimes(tmp, old, old)
				}
			}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			base := t.TempDir()
			w := &ws{t: t, dir: filepath.Join(base, "ws")}
			w.write(map[string]string{"pipelines/pl.yaml": tc.pipeline, "data/in.jsonl": jsonl("a", 0, 2, "")})
			r := testRunner(t)
			mustRun(t, r, w.load(), Request{})
			link := w.table("t")
			realDir := link + "_real"
			other := filepath.Join(base, "outside", "t")
			if tc.inLake {
				other = w.table("victim")
			}
			os.MkdirAll(filepath.Dir(other), 0o755)
			if err := os.Rename(link, realDir); err != nil {
				t.Fatal(err)
			}
			if err := checkpoint.CopyDir(realDir, other); err != nil {
				t.Fatal(err)
			}
			if err := os.Symlink(realDir, link); err != nil {
				t.Fatal(err)
			}
			if tc.second != "" {
				w.write(map[string]string{"data/in.jsonl": tc.second})
			}
			if tc.setup != nil {
				tc.setup(t, r, w, realDir, other)
			}
			before := listTree(t, other)
			flipped := false
			flip := func() {
				if !flipped {
					flipped = true
					os.Remove(link)
					if err := os.Symlink(other, link); err != nil {
						t.Error(err)
					}
				}
			}
			r2 := testRunner(t, func(c *Config) {
				if tc.atCheck {
					c.afterPathCheck = func(string) { flip() }
				} else {
					c.beforeCommit = func(string, int) { flip() }
				}
			})
			mustRun(t, r2, w.load(), Request{Refresh: tc.refresh, ResetMode: tc.resetMode})
			if !flipped {
				t.Fatal("the hook did not run")
			}
			if after := listTree(t, other); after != before {
				t.Fatalf("the other table was written:\nbefore %s\nafter  %s", before, after)
			}
			if tc.want < 0 {
				if _, err := os.Stat(realDir); !errors.Is(err, fs.ErrNotExist) {
					t.Fatalf("the table the run checked was not dropped: %v", err)
				}
				return
			}
			if n := count(t, r2, realDir, ""); n != tc.want {
				t.Fatalf("%d rows in the table the run checked, want %d", n, tc.want)
			}
		})
	}
}

// interruptedTruncate records, beside the checkpoint of the workspace's
// only writer, the intent of a whole-table TRUNCATE of the table at
// realDir that a crash interrupted before its table step.
func interruptedTruncate(t *testing.T, r *Runner, w *ws, realDir string) {
	t.Helper()
	plan, err := r.Plan(context.Background(), w.load(), Request{})
	if err != nil {
		t.Fatal(err)
	}
	ts, err := delta.LoadSnapshot(context.Background(), realDir)
	if err != nil {
		t.Fatal(err)
	}
	sp := plan.Tasks[0].plan.sinks[0]
	in := &intent{ID: "interrupted-truncate", RunID: 9999, Task: plan.Tasks[0].Key, Refresh: "RESET", Whole: "TRUNCATE",
		Table: tableLabel(sp), Path: string(sp.sink.Table), TableID: ts.TableID(), ReadVersion: ts.Version(), At: time.Now().UTC()}
	if err := writeIntent(sp.lockDir, in); err != nil {
		t.Fatal(err)
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

// TestTaskOperationsUseCheckedPaths holds a task's code to the one path
// its path check resolved per sink (taskExec.sinkPath): in the methods of
// taskExec, recovery and flowRun no operation takes a sink's declared
// path (sp.sink.Table, sp.sink.ResolvedPath) except the check itself, and
// package sink takes only the path it is given (Delta.Path, Files.Path).
// A declared path re-resolves a link another process may have flipped
// since the check (item 8 of issue 24).
func TestTaskOperationsUseCheckedPaths(t *testing.T) {
	// recordPending records the intents of the run's other tasks, whose
	// checks come with them (it reads only their tables' id and version).
	allowed := map[string]bool{"checkPaths": true, "sinkPath": true, "recordPending": true}
	receivers := map[string]bool{"taskExec": true, "recovery": true, "flowRun": true}
	check := func(dir string, inSink bool) {
		files, err := filepath.Glob(filepath.Join(dir, "*.go"))
		if err != nil {
			t.Fatal(err)
		}
		fset := token.NewFileSet()
		for _, f := range files {
			if strings.HasSuffix(f, "_test.go") {
				continue
			}
			file, err := parser.ParseFile(fset, f, nil, 0)
			if err != nil {
				t.Fatal(err)
			}
			for _, d := range file.Decls {
				fd, ok := d.(*ast.FuncDecl)
				if !ok || fd.Body == nil {
					continue
				}
				if !inSink {
					if fd.Recv == nil || allowed[fd.Name.Name] {
						continue
					}
					rt := fd.Recv.List[0].Type
					if st, ok := rt.(*ast.StarExpr); ok {
						rt = st.X
					}
					if id, ok := rt.(*ast.Ident); !ok || !receivers[id.Name] {
						continue
					}
				}
				ast.Inspect(fd.Body, func(n ast.Node) bool {
					switch n := n.(type) {
					case *ast.SelectorExpr:
						// A file sink's declared file or folder.
						if x, ok := n.X.(*ast.SelectorExpr); n.Sel.Name == "ResolvedPath" && (inSink || ok && x.Sel.Name == "sink") {
							t.Errorf("%s: %s uses a sink's declared path (%s): use the path the task's check resolved", fset.Position(n.Pos()), fd.Name.Name, exprText(n))
						}
					case *ast.CallExpr:
						// A table id turned into a path (an id alone, for
						// LockCreate, Created or events, is no path).
						id, isID := n.Fun.(*ast.Ident)
						if !isID || id.Name != "string" || len(n.Args) != 1 {
							return true
						}
						sel, ok := n.Args[0].(*ast.SelectorExpr)
						if !ok || sel.Sel.Name != "Table" {
							return true
						}
						if x, ok := sel.X.(*ast.SelectorExpr); inSink || ok && x.Sel.Name == "sink" {
							t.Errorf("%s: %s turns a sink's table id into a path (%s): use the path the task's check resolved", fset.Position(n.Pos()), fd.Name.Name, exprText(sel))
						}
					}
					return true
				})
			}
		}
	}
	check(".", false)
	check("sink", true)
}

func exprText(e ast.Expr) string {
	var b strings.Builder
	printer.Fprint(&b, token.NewFileSet(), e)
	return b.String()
}
