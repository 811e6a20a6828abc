package assets

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"testing"
)

func TestWriteTreeDemo(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "ws")
	if err := WriteTree(Demo(), dir, false); err != nil {
		t.Fatal(err)
	}
	for _, p := range []string{
		"README.md",
		"pipelines/pl-prices.yaml",
		"pipelines/pl-client-acme.yaml",
		"pipelines/pl-client-globex.yaml",
		"pipelines/pl-events.yaml",
		"data/landing/feed_a/prices_2026-01-01.json",
		"data/spare/feed_a/prices_2026-01-03.json",
	} {
		if _, err := os.Stat(filepath.Join(dir, p)); err != nil {
			t.Errorf("demo misses %s: %v", p, err)
		}
	}
	// A second write into the same folder is refused and changes nothing.
	err := WriteTree(Demo(), dir, false)
	if !errors.Is(err, ErrNotEmpty) {
		t.Fatalf("second write: got %v, want ErrNotEmpty", err)
	}
}

func TestDemoHasSampleData(t *testing.T) {
	rows := 0
	err := fs.WalkDir(Demo(), "data/landing", func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		b, err := fs.ReadFile(Demo(), p)
		for _, c := range b {
			if c == '\n' {
				rows++
			}
		}
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	if rows < 200 {
		t.Fatalf("demo landing data has %d lines, want a few hundred", rows)
	}
}
