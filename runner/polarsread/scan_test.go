package polarsread

import (
	"context"
	"os"
	"path/filepath"
	"testing"
	"time"
)

// TestScanCSVCached: a CSV file's second scan (a run's read after its
// validate) is the first one's, without reading the file again, while the
// file keeps its size and modification time and the options are the
// same; another size, time or options scan it again, and a file modified
// just now is scanned each time.
func TestScanCSVCached(t *testing.T) {
	ctx := context.Background()
	p := filepath.Join(t.TempDir(), "a.csv")
	old := time.Now().Add(-time.Hour)
	write := func(text string, mod time.Time) {
		t.Helper()
		if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
		if err := os.Chtimes(p, mod, mod); err != nil {
			t.Fatal(err)
		}
	}
	o, err := CSV(nil, nil, nil)
	if err != nil {
		t.Fatal(err)
	}
	scan := func(o CSVOptions) *csvFile {
		t.Helper()
		f, err := scanCSV(ctx, p, o)
		if err != nil {
			t.Fatal(err)
		}
		return f
	}
	write("a,b\n1,2\n", old)
	first := scan(o)
	if again := scan(o); again != first {
		t.Error("an unchanged file was scanned again")
	}
	noHeader := o
	noHeader.HasHeader = false
	if other := scan(noHeader); other == first || other.names != nil {
		t.Errorf("other options took the cached scan (names %q)", other.names)
	}
	write("a,b\n1,2\n3,4\n", old)
	if f := scan(o); f == first || len(f.sample) != 2 {
		t.Errorf("a file of another size: %d rows sampled, want 2 from a new scan", len(f.sample))
	}
	write("x,y\n1,2\n3,4\n", old.Add(time.Second))
	if f := scan(o); f.names[0] != "x" {
		t.Errorf("a file of another modification time: names %q, want x, y", f.names)
	}
	write("a,b\n1,2\n", time.Now())
	racy := scan(o)
	if again := scan(o); again == racy {
		t.Error("a file modified just now took the cached scan")
	}
}
