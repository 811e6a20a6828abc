package delta

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"testing"
)

// TestViewFile: a view is written, read back, replaced and dropped in its
// folder; it is not written over a Delta table or a folder holding other
// files, nor outside the guard's roots; DropView leaves a Delta table and
// a missing view alone.
func TestViewFile(t *testing.T) {
	ctx := context.Background()
	root := t.TempDir()
	g := NewGuard([]string{root})
	dir := filepath.Join(root, "main", "default", "v")
	if v, err := ReadView(dir); v != nil || err != nil {
		t.Fatalf("no view yet: %v %v", v, err)
	}
	v := &View{Name: "v", SQL: "CREATE OR REPLACE VIEW v AS SELECT 1", Query: "SELECT * FROM {sources.t0}",
		Inputs: []ViewInput{{Ref: "t0", Table: "src", Path: "../src"}}}
	if err := WriteView(ctx, dir, v, g); err != nil {
		t.Fatal(err)
	}
	got, err := ReadView(dir)
	if err != nil || got == nil || got.Format != ViewFormat || got.SQL != v.SQL || got.InputPath(dir, got.Inputs[0]) != filepath.Join(root, "main", "default", "src") {
		t.Fatalf("read back %+v %v", got, err)
	}
	// What a write killed before its rename leaves is replaced.
	if err := os.WriteFile(filepath.Join(dir, viewTmpName), []byte("{"), 0o644); err != nil {
		t.Fatal(err)
	}
	v.SQL = "CREATE OR REPLACE VIEW v AS SELECT 2"
	if err := WriteView(ctx, dir, v, g); err != nil {
		t.Fatal(err)
	}
	if got, _ := ReadView(dir); got.SQL != v.SQL {
		t.Fatalf("replaced: %s", got.SQL)
	}
	if entries, _ := os.ReadDir(dir); len(entries) != 1 || !IsView(dir) {
		t.Fatalf("folder %v", entries)
	}
	if err := WriteView(ctx, "s3://bucket/lake/main/default/v", v, NewGuard([]string{"s3://bucket/lake"})); !errors.Is(err, ErrNotView) {
		t.Fatalf("a view in a bucket: %v", err)
	}
	if err := WriteView(ctx, filepath.Join(t.TempDir(), "v"), v, g); !errors.Is(err, ErrOutsideRoots) {
		t.Fatalf("outside the roots: %v", err)
	}
	other := filepath.Join(root, "other")
	if err := os.MkdirAll(filepath.Join(other, LogDirName), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := WriteView(ctx, other, v, g); !errors.Is(err, ErrNotView) {
		t.Fatalf("over a Delta table: %v", err)
	}
	if err := DropView(ctx, other, g); !errors.Is(err, ErrNotView) {
		t.Fatalf("drop a Delta table as a view: %v", err)
	}
	files := filepath.Join(root, "files")
	if err := os.MkdirAll(files, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(files, "x.parquet"), []byte("x"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := WriteView(ctx, files, v, g); !errors.Is(err, ErrNotView) {
		t.Fatalf("over other files: %v", err)
	}
	if err := DropView(ctx, dir, g); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(dir); !os.IsNotExist(err) {
		t.Fatalf("dropped view's folder: %v", err)
	}
	if err := DropView(ctx, dir, g); err != nil {
		t.Fatalf("drop a missing view: %v", err)
	}
	if err := os.WriteFile(filepath.Join(root, "bad"), nil, 0o644); err != nil {
		t.Fatal(err)
	}
	if v, err := ReadView(filepath.Join(root, "bad")); v != nil || err != nil {
		t.Fatalf("a file is no view folder: %v %v", v, err)
	}
}
