package runner

import (
	"context"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/laktory/workbench/delta"
)

// readWithPython reads a Delta table with delta-rs and polars
// ($LAKTORY_PYTHON). Without it the test skips, unless
// LAKTORY_REQUIRE_INTEROP=1 (scripts/test.sh), then it fails.
func readWithPython(t *testing.T, path string) (columns []string, rows map[string]int64, version int64) {
	t.Helper()
	py := os.Getenv("LAKTORY_PYTHON")
	if py == "" {
		if os.Getenv("LAKTORY_REQUIRE_INTEROP") == "1" {
			t.Fatal("LAKTORY_PYTHON is not set (a Python with deltalake, polars and pyarrow; see scripts/requirements-interop.txt)")
		}
		t.Skip("LAKTORY_PYTHON not set: interop test skipped")
	}
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	out, err := exec.CommandContext(ctx, py, filepath.Join("testdata", "read_table.py"), path).Output()
	if err != nil {
		if ee, ok := err.(*exec.ExitError); ok {
			t.Fatalf("read_table.py: %v\n%s", err, ee.Stderr)
		}
		t.Fatal(err)
	}
	var res struct {
		Version int64            `json:"version"`
		Columns []string         `json:"columns"`
		Rows    map[string]int64 `json:"rows"`
		Polars  []string         `json:"polars_columns"`
	}
	if err := json.Unmarshal(out, &res); err != nil {
		t.Fatalf("%v: %s", err, out)
	}
	// polars 1.32.0 (what laktory[polars] 0.13.1 installs) reads a
	// table's partition columns last; delta-rs in the table's order.
	if !slices.Equal(sortedCopy(res.Columns), sortedCopy(res.Polars)) {
		t.Fatalf("delta-rs columns %v, polars columns %v", res.Columns, res.Polars)
	}
	return res.Columns, res.Rows, res.Version
}

// TestInteropSharedTable: a shared table the runner wrote, refreshed and
// partitioned by its writer column reads the same in delta-rs and polars:
// the writer column first, each writer's rows.
func TestInteropSharedTable(t *testing.T) {
	files := scenarioFiles(ownerships[0])
	files["pipelines/pl.yaml"] = strings.ReplaceAll(files["pipelines/pl.yaml"], "    shared: true\n",
		"    shared: true\n    writer_methods:\n    - name: partitionBy\n      args: [_laktory_writer]\n")
	w := newWS(t, files)
	r := testRunner(t)
	snap := w.load()
	mustRun(t, r, snap, Request{})
	mustRun(t, r, snap, Request{})
	mustRun(t, r, snap, Request{Refresh: "FULL", Selectors: []string{"a"}})
	path := w.table("prices")
	cols, rows, version := readWithPython(t, path)
	if !slices.Equal(cols, columns(t, path)) || cols[0] != "_laktory_writer" {
		t.Fatalf("columns %v, ours %v", cols, columns(t, path))
	}
	if rows["pl.a"] != 3 || rows["pl.b"] != 4 || len(rows) != 2 {
		t.Fatalf("rows per writer %v, want pl.a=3 pl.b=4", rows)
	}
	ours, err := delta.LoadSnapshot(context.Background(), path)
	if err != nil {
		t.Fatal(err)
	}
	if version != ours.Version() {
		t.Fatalf("delta-rs reads version %d, ours %d", version, ours.Version())
	}
	if !exists(filepath.Join(path, "_laktory_writer=pl.a")) {
		t.Fatal("not partitioned by the writer column")
	}
}

func sortedCopy(s []string) []string {
	c := slices.Clone(s)
	slices.Sort(c)
	return c
}
