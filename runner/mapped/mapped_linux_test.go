package mapped

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestGuardTruncated: a mapped file truncated while mapped faults where
// its bytes are read; under Guard that is ErrFault, not the end of the
// process.
func TestGuardTruncated(t *testing.T) {
	p := filepath.Join(t.TempDir(), "f")
	if err := os.WriteFile(p, []byte(strings.Repeat("x", 3*os.Getpagesize())), 0o644); err != nil {
		t.Fatal(err)
	}
	f, err := Open(p)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	if err := os.Truncate(p, 0); err != nil {
		t.Fatal(err)
	}
	b := f.Bytes()
	var got byte
	err = Guard(func() error { got = b[len(b)-1]; return nil })
	if !errors.Is(err, ErrFault) {
		t.Fatalf("read after truncation: %v (byte %q)", err, got)
	}
}
