package delta

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// conformanceDir locates the Delta conformance tables: $LAKTORY_CONFORMANCE_DIR,
// else ../shared/conformance/golden relative to the repository root. The
// tests skip when neither exists.
func conformanceDir(t *testing.T) string {
	t.Helper()
	if d := os.Getenv("LAKTORY_CONFORMANCE_DIR"); d != "" {
		if _, err := os.Stat(d); err != nil {
			t.Fatalf("LAKTORY_CONFORMANCE_DIR: %v", err)
		}
		return d
	}
	dir, err := os.Getwd()
	if err != nil {
		t.Fatal(err)
	}
	for {
		if _, err := os.Stat(filepath.Join(dir, "go.mod")); err == nil {
			break
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			t.Skip("repository root not found")
		}
		dir = parent
	}
	d := filepath.Join(dir, "..", "shared", "conformance", "golden")
	if _, err := os.Stat(d); err != nil {
		t.Skipf("conformance tables not found at %s (set LAKTORY_CONFORMANCE_DIR)", d)
	}
	return d
}

// negativeTables are the conformance tables that must fail to load, with
// the sentinel each must fail with.
var negativeTables = map[string]error{
	"deltalog-invalid-protocol-version":              ErrUnsupportedProtocol,
	"deltalog-state-reconstruction-without-metadata": ErrMissingMetadata,
	"deltalog-state-reconstruction-without-protocol": ErrMissingProtocol,
	"no-delta-log-folder":                            ErrNotDeltaTable,
	"versions-not-contiguous":                        ErrVersionsNotContiguous,
}

func TestConformanceNegative(t *testing.T) {
	dir := conformanceDir(t)
	for name, want := range negativeTables {
		t.Run(name, func(t *testing.T) {
			root := filepath.Join(dir, name, "delta")
			if _, err := os.Stat(root); err != nil {
				t.Skipf("table not present: %v", err)
			}
			_, err := LoadSnapshot(context.Background(), root)
			if !errors.Is(err, want) {
				t.Fatalf("err = %v, want %v", err, want)
			}
			if !strings.Contains(err.Error(), root) {
				t.Errorf("error %q does not name the table", err)
			}
		})
	}
}

// TestConformanceSnapshots checks log-level facts the README states.
func TestConformanceSnapshots(t *testing.T) {
	dir := conformanceDir(t)
	load := func(t *testing.T, name string) *Snapshot {
		root := filepath.Join(dir, name, "delta")
		if _, err := os.Stat(root); err != nil {
			t.Skipf("table not present: %v", err)
		}
		return mustSnapshot(t, root)
	}
	t.Run("checkpoint", func(t *testing.T) {
		s := load(t, "checkpoint")
		if s.Version() != 14 || s.CheckpointVersion() != 10 || s.NumFiles() == 0 {
			t.Fatalf("version %d from checkpoint %d, %d files", s.Version(), s.CheckpointVersion(), s.NumFiles())
		}
	})
	t.Run("deltalog-getChanges txn", func(t *testing.T) {
		s := load(t, "deltalog-getChanges")
		if v, ok := s.AppTransactionVersion("fakeAppId"); !ok || v != 3 {
			t.Fatalf("fakeAppId = %d, %v", v, ok)
		}
		if _, ok := s.AppTransactionVersion("nonExistentAppId"); ok {
			t.Fatal("nonExistentAppId has a txn")
		}
	})
	t.Run("corrupted-last-checkpoint-kernel", func(t *testing.T) {
		s := load(t, "corrupted-last-checkpoint-kernel")
		if s.Version() != 11 || s.CheckpointVersion() != 10 {
			t.Fatalf("version %d from checkpoint %d", s.Version(), s.CheckpointVersion())
		}
	})
	for _, name := range []string{"v2-checkpoint-json", "v2-checkpoint-parquet", "multi-part-checkpoint", "only-checkpoint-files"} {
		t.Run(name, func(t *testing.T) {
			s := load(t, name)
			if s.CheckpointVersion() < 0 || s.NumFiles() == 0 {
				t.Fatalf("checkpoint %d, %d files", s.CheckpointVersion(), s.NumFiles())
			}
		})
	}
	t.Run("table-with-columnmapping-mode-name", func(t *testing.T) {
		if m := load(t, "table-with-columnmapping-mode-name").ColumnMappingMode(); m != ColumnMappingName {
			t.Fatalf("mode %q", m)
		}
	})
}
