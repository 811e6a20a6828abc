package polarssql

import (
	"bytes"
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"testing"
	"time"
)

// The checked-in expectations are what Laktory 0.13.1 with polars 1.32.0
// computes today: scripts/polars/corpus.py reruns every step into a copy
// of the corpus and each expected.json must come out the same. Needs
// $LAKTORY_PYTHON (skipped without, unless LAKTORY_REQUIRE_INTEROP=1).
func TestCorpusExpectationsCurrent(t *testing.T) {
	py := os.Getenv("LAKTORY_PYTHON")
	if py == "" {
		if os.Getenv("LAKTORY_REQUIRE_INTEROP") == "1" {
			t.Fatal("LAKTORY_PYTHON is not set (a Python with laktory[polars]==0.13.1 and deltalake; see scripts/requirements-interop.txt)")
		}
		t.Skip("LAKTORY_PYTHON not set")
	}
	tmp := t.TempDir()
	var files []string
	for _, pat := range []string{"*.sql", "heldout/*.sql", "tables.json"} {
		m, _ := filepath.Glob(filepath.Join("testdata/corpus", pat))
		files = append(files, m...)
	}
	for _, f := range files {
		rel, _ := filepath.Rel("testdata/corpus", f)
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		if err := os.MkdirAll(filepath.Dir(filepath.Join(tmp, rel)), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(tmp, rel), b, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, py, filepath.Join("..", "..", "scripts", "polars", "corpus.py"), tmp)
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("corpus.py: %v\n%s", err, out)
	}
	for _, f := range files {
		if filepath.Ext(f) != ".sql" {
			continue
		}
		rel, _ := filepath.Rel("testdata/corpus", f)
		exp := rel[:len(rel)-len(".sql")] + ".expected.json"
		want, err := os.ReadFile(filepath.Join("testdata/corpus", exp))
		if err != nil {
			t.Fatal(err)
		}
		got, err := os.ReadFile(filepath.Join(tmp, exp))
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(got, want) {
			t.Errorf("%s is not what Laktory computes today: run scripts/polars/corpus.sh and read the diff", exp)
		}
	}
}
