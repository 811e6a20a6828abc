package workspace

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// writeFiles writes files (relative path -> content) below dir.
func writeFiles(t testing.TB, dir string, files map[string]string) {
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

// loadFiles writes files into a new workspace and loads it.
func loadFiles(t testing.TB, files map[string]string, opts Options) *Snapshot {
	t.Helper()
	dir := t.TempDir()
	writeFiles(t, dir, files)
	s, err := Load(context.Background(), dir, opts)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// want describes an expected diagnostic: "file:line:col CODE substring"
// (col 0 = any column).
type want struct {
	file      string
	line, col int
	code      string
	contains  string
}

func (w want) String() string {
	return fmt.Sprintf("%s:%d:%d %s %q", w.file, w.line, w.col, w.code, w.contains)
}

// checkDiags asserts that ds holds exactly the wanted diagnostics.
func checkDiags(t *testing.T, s *Snapshot, ds []Diagnostic, wants []want) {
	t.Helper()
	used := make([]bool, len(ds))
	for _, w := range wants {
		found := false
		for i, d := range ds {
			if used[i] || d.Code != w.code || s.Rel(d.File) != w.file || d.Line != w.line || (w.col != 0 && d.Col != w.col) ||
				!strings.Contains(d.Message+" "+d.Hint, w.contains) {
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

// env returns a Getenv over m.
func env(m map[string]string) func(string) string { return func(k string) string { return m[k] } }
