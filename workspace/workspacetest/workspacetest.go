// Package workspacetest helps tests build and load workspaces: write YAML
// files into a temporary folder, load them, and compare diagnostics.
package workspacetest

import (
	"context"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/laktory/workbench/assets"
	"github.com/laktory/workbench/workspace"
)

// Write writes files (slash-separated relative path -> content) below dir.
func Write(t testing.TB, dir string, files map[string]string) {
	t.Helper()
	for name, content := range files {
		p := filepath.Join(dir, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

// Ordered gives the files names (slash-separated, below dir) modification
// times in that order, from at on, a second apart. A stream reads its
// files in the order of their modification times, and Write makes a map's
// files in map order, within the same millisecond or not: a test whose
// batches depend on which file comes first orders them.
func Ordered(t testing.TB, dir string, at time.Time, names ...string) {
	t.Helper()
	for i, name := range names {
		mt := at.Add(time.Duration(i) * time.Second)
		if err := os.Chtimes(filepath.Join(dir, filepath.FromSlash(name)), mt, mt); err != nil {
			t.Fatal(err)
		}
	}
}

// Load writes files into a new temporary workspace and loads it.
func Load(t testing.TB, files map[string]string, opts workspace.Options) *workspace.Snapshot {
	t.Helper()
	dir := t.TempDir()
	Write(t, dir, files)
	return LoadDir(t, dir, opts)
}

// LoadDir loads the workspace in dir.
func LoadDir(t testing.TB, dir string, opts workspace.Options) *workspace.Snapshot {
	t.Helper()
	s, err := workspace.Load(context.Background(), dir, opts)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// Demo writes the embedded demo workspace into a new temporary folder and
// returns it.
func Demo(t testing.TB) string {
	t.Helper()
	dir := filepath.Join(t.TempDir(), "demo")
	if err := assets.WriteTree(assets.Demo(), dir, false); err != nil {
		t.Fatal(err)
	}
	return dir
}

// LandSpare copies the demo's spare files (data/spare) into its landing
// folders (data/landing), as its README tells: new files for every
// streaming source.
func LandSpare(t testing.TB, dir string) {
	t.Helper()
	spare := filepath.Join(dir, "data", "spare")
	err := filepath.WalkDir(spare, func(p string, d os.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		rel, _ := filepath.Rel(spare, p)
		b, err := os.ReadFile(p)
		if err == nil {
			err = os.WriteFile(filepath.Join(dir, "data", "landing", rel), b, 0o644)
		}
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
}

// Env returns a Getenv reading m.
func Env(m map[string]string) func(string) string { return func(k string) string { return m[k] } }

// Want is an expected diagnostic: File relative to the workspace, Line, Col
// (0: any column), Code, and a substring of the message or the hint.
type Want struct {
	File      string
	Line, Col int
	Code      string
	Contains  string
}

func (w Want) String() string {
	return fmt.Sprintf("%s:%d:%d %s %q", w.File, w.Line, w.Col, w.Code, w.Contains)
}

// Expect asserts that ds holds exactly the wanted diagnostics, in any order.
func Expect(t testing.TB, s *workspace.Snapshot, ds []workspace.Diagnostic, wants []Want) {
	t.Helper()
	used := make([]bool, len(ds))
	for _, w := range wants {
		found := false
		for i, d := range ds {
			file := d.File
			if file != "" {
				file = filepath.ToSlash(s.Rel(d.File))
			}
			if used[i] || d.Code != w.Code || file != w.File || d.Line != w.Line || (w.Col != 0 && d.Col != w.Col) ||
				!strings.Contains(d.Message+" "+d.Hint, w.Contains) {
				continue
			}
			used[i], found = true, true
			break
		}
		if !found {
			t.Errorf("missing diagnostic %s", w)
		}
	}
	for i, d := range ds {
		if !used[i] {
			t.Errorf("unexpected diagnostic %s:%d:%d %s %s: %s", s.Rel(d.File), d.Line, d.Col, d.Severity, d.Code, d.Message)
		}
	}
}

// D builds a Want.
func D(file string, line, col int, code, contains string) Want {
	return Want{File: file, Line: line, Col: col, Code: code, Contains: contains}
}

// DemoExtensionWarnings are exactly the load diagnostics of the demo: the
// `flow:` and `foreach:` extensions of pl-events, the one demo pipeline
// Laktory 0.13.1 does not load.
func DemoExtensionWarnings() []Want {
	return []Want{
		D("pipelines/pl-events.yaml", 12, 3, workspace.CodeExtension, "workbench extension: Laktory 0.13.1 rejects `flow`"),
		D("pipelines/pl-events.yaml", 23, 3, workspace.CodeExtension, "workbench extension: Laktory 0.13.1 rejects `flow`"),
		D("pipelines/pl-events.yaml", 39, 5, workspace.CodeExtension, "workbench extension: Laktory 0.13.1 rejects `foreach`"),
	}
}

// ReadTree returns the files below dir by their slash-separated paths
// relative to it, the form Write takes: a workspace kept in testdata and
// shared by the tests of several packages.
func ReadTree(t testing.TB, dir string) map[string]string {
	t.Helper()
	files := map[string]string{}
	err := filepath.WalkDir(dir, func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		b, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		rel, err := filepath.Rel(dir, path)
		files[filepath.ToSlash(rel)] = string(b)
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	return files
}
