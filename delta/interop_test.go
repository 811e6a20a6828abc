package delta

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"testing"
	"time"
)

// interopPython returns the Python interpreter of the interop venv
// ($LAKTORY_PYTHON). Without it the test skips, unless
// LAKTORY_REQUIRE_INTEROP=1 (scripts/test.sh), then it fails.
func interopPython(t *testing.T) string {
	t.Helper()
	py := os.Getenv("LAKTORY_PYTHON")
	if py == "" {
		if os.Getenv("LAKTORY_REQUIRE_INTEROP") == "1" {
			t.Fatal("LAKTORY_PYTHON is not set (a Python with deltalake, polars and pyarrow; see scripts/requirements-interop.txt)")
		}
		t.Skip("LAKTORY_PYTHON not set: interop test skipped")
	}
	return py
}

// runPython runs a script of testdata with args.
func runPython(t *testing.T, script string, args ...string) {
	t.Helper()
	py := interopPython(t)
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, py, append([]string{filepath.Join("testdata", script)}, args...)...)
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("%s: %v\n%s", script, err, out)
	}
}

// TestInteropDeltaRSPartitions reads a table written by delta-rs whose
// partition values hold '/', spaces, '%', '=', quotes, glob characters,
// unicode, an empty string and nulls (appends, a delete, schema merging
// and a checkpoint), and compares every row with delta-rs' own reading,
// at the latest version and at version 1.
func TestInteropDeltaRSPartitions(t *testing.T) {
	dir := t.TempDir()
	runPython(t, "interop_deltars_write.py", dir)
	db := openTestDB(t)
	root := filepath.Join(dir, "table")

	latest := mustSnapshot(t, root)
	if latest.Version() != 3 || latest.CheckpointVersion() != 3 {
		t.Fatalf("version %d from checkpoint %d, want 3 from the delta-rs checkpoint", latest.Version(), latest.CheckpointVersion())
	}
	if n := countRows(t, db, latest, ScanOptions{}); n != 70 {
		t.Fatalf("%d rows, want 70 (3 appends of 30 rows; the delete removes 20)", n)
	}
	compareWithExpected(t, db, latest, filepath.Join(dir, "expected_latest"), nil)
	compareWithExpected(t, db, mustSnapshot(t, root, AtVersion(1)), filepath.Join(dir, "expected_v1"), nil)

	// Pruning on the special partition values keeps exactly their rows.
	for _, v := range []string{"a/b", "100%", "k=v", "ünïcødé ✓", "q'uote\"d", "a:b#c?d*e[f]{g}^", "back\\slash"} {
		where := "part = " + quoteString(v)
		if n := countRows(t, db, latest, ScanOptions{Where: where}); n == 0 {
			t.Errorf("%s: no rows", where)
		}
		for _, f := range latest.PruneFiles(where) {
			if pv := f.PartitionValues["part"]; pv == nil || *pv != v {
				t.Errorf("%s kept file %s", where, f.Path)
			}
		}
	}
}
