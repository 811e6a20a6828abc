package mapped

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestOpen: the content of a file, of an empty one, and the error of a
// missing one.
func TestOpen(t *testing.T) {
	dir := t.TempDir()
	for _, text := range []string{"", "a", strings.Repeat("xyz\n", 5000)} {
		p := filepath.Join(dir, "f")
		if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
		f, err := Open(p)
		if err != nil {
			t.Fatal(err)
		}
		if string(f.Bytes()) != text {
			t.Errorf("%d bytes: got %d", len(text), len(f.Bytes()))
		}
		if err := f.Close(); err != nil || f.Bytes() != nil {
			t.Errorf("close: %v, %d bytes left", err, len(f.Bytes()))
		}
	}
	if _, err := Open(filepath.Join(dir, "missing")); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("missing file: %v", err)
	}
}

// TestGuard: what fn returns, and a panic that is not a fault goes on.
func TestGuard(t *testing.T) {
	want := errors.New("x")
	if err := Guard(func() error { return want }); err != want {
		t.Errorf("got %v", err)
	}
	defer func() {
		if r := recover(); r != "boom" {
			t.Errorf("recovered %v", r)
		}
	}()
	_ = Guard(func() error { panic("boom") })
}
