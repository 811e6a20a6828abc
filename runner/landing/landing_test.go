package landing

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// TestDuckPath: the escaping of exact names for DuckDB's readers.
func TestDuckPath(t *testing.T) {
	for _, tc := range []struct{ in, want string }{
		{"/a/b.csv", "/a/b.csv"},
		{"/a/f?.csv", "/a/f[?].csv"},
		{"/a/[f]1.csv", "/a/[[]f]1.csv"},
		{"/a/**", "/a/[*][*]"},
		{"/d[1]/x*.csv", "/d[[]1]/x[*].csv"},
		{`/a/b\c.csv`, `/a/b\c.csv`},
	} {
		got, err := DuckPath(tc.in)
		if err != nil || got != tc.want {
			t.Errorf("DuckPath(%q) = %q, %v; want %q", tc.in, got, err, tc.want)
		}
	}
	if _, err := DuckPath(`/a/b\c?.csv`); err == nil {
		t.Error(`DuckPath accepted a name DuckDB cannot read exactly (b\c?.csv)`)
	}
}

// TestLandingSettle: a file modified within the settle window is looked
// at again after it; one still changing then is not complete.
func TestLandingSettle(t *testing.T) {
	dir := t.TempDir()
	still, moving := filepath.Join(dir, "still.csv"), filepath.Join(dir, "moving.csv")
	old := filepath.Join(dir, "old.csv")
	for _, p := range []string{still, moving, old} {
		if err := os.WriteFile(p, []byte("v\n1\n"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.Chtimes(old, time.Now().Add(-time.Hour), time.Now().Add(-time.Hour)); err != nil {
		t.Fatal(err)
	}
	l, err := List(context.Background(), dir)
	if err != nil {
		t.Fatal(err)
	}
	done := make(chan struct{})
	go func() { // the writer appends to moving.csv during the window
		defer close(done)
		time.Sleep(50 * time.Millisecond)
		f, _ := os.OpenFile(moving, os.O_APPEND|os.O_WRONLY, 0)
		f.WriteString("2")
		f.Close()
	}()
	complete, writing, err := Settle(context.Background(), l.Files, 300*time.Millisecond, time.Now)
	<-done
	if err != nil {
		t.Fatal(err)
	}
	var c, w []string
	for _, f := range complete {
		c = append(c, filepath.Base(f.Path))
	}
	for _, f := range writing {
		w = append(w, filepath.Base(f.Path))
	}
	if strings.Join(c, " ") != "old.csv still.csv" || strings.Join(w, " ") != "moving.csv" {
		t.Fatalf("complete %v, being written %v; want [old.csv still.csv] and [moving.csv]", c, w)
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, _, err := Settle(ctx, l.Files, time.Hour, time.Now); err == nil {
		t.Fatal("settle did not stop on a cancelled context")
	}
}
