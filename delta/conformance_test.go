package delta

import (
	"context"
	"database/sql"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"testing"
)

// conformanceDir locates the Delta conformance tables: $LAKTORY_CONFORMANCE_DIR,
// else ../shared/conformance/golden relative to the repository root. The
// tests skip when neither exists, except in CI (CI=true), where missing
// tables fail the suite rather than silently skipping it.
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
			missingConformance(t, "repository root not found")
		}
		dir = parent
	}
	d := filepath.Join(dir, "..", "shared", "conformance", "golden")
	if _, err := os.Stat(d); err != nil {
		missingConformance(t, "conformance tables not found at "+d+" (set LAKTORY_CONFORMANCE_DIR)")
	}
	return d
}

// missingConformance skips the test, or fails it in CI.
func missingConformance(t *testing.T, why string) {
	t.Helper()
	if ci, _ := strconv.ParseBool(os.Getenv("CI")); ci {
		t.Fatal(why + ": CI=true requires them")
	}
	t.Skip(why)
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

// TestConformanceRequiredInCI runs a conformance test where the tables
// cannot be found (outside the repository, no LAKTORY_CONFORMANCE_DIR): it
// skips, and with CI=true it fails.
func TestConformanceRequiredInCI(t *testing.T) {
	if os.Getenv("LAKTORY_CONFORMANCE_CHILD") != "" {
		t.Skip("the child of this test")
	}
	for _, ci := range []string{"", "true"} {
		cmd := exec.CommandContext(t.Context(), os.Args[0], "-test.run=^TestConformanceNegative$", "-test.count=1", "-test.v")
		cmd.Dir = t.TempDir()
		cmd.Env = append(os.Environ(), "LAKTORY_CONFORMANCE_CHILD=1", "LAKTORY_CONFORMANCE_DIR=", "CI="+ci)
		out, err := cmd.CombinedOutput()
		switch {
		case ci == "" && (err != nil || !strings.Contains(string(out), "--- SKIP")):
			t.Fatalf("without CI the test must skip (%v):\n%s", err, out)
		case ci == "true" && (err == nil || !strings.Contains(string(out), "CI=true requires them")):
			t.Fatalf("with CI=true the test must fail (%v):\n%s", err, out)
		}
	}
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

// TestConformanceSnapshots checks log-level facts the conformance tables'
// README states.
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

// conformanceSkipColumns lists expected columns known to be wrong (the
// conformance tables' README).
var conformanceSkipColumns = map[string][]string{
	"data-reader-partition-values": {"as_timestamp"},
}

// TestConformanceRows reads every conformance table that has an expected/
// folder and compares its rows, sorted, column by column with the
// expected parquet files.
func TestConformanceRows(t *testing.T) {
	dir := conformanceDir(t)
	ctx := context.Background()
	db, err := OpenDuckDB(ctx)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	entries, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	checked := 0
	for _, e := range entries {
		name := e.Name()
		expected := filepath.Join(dir, name, "expected")
		if _, err := os.Stat(expected); err != nil || negativeTables[name] != nil {
			continue
		}
		checked++
		t.Run(name, func(t *testing.T) {
			s := mustSnapshot(t, filepath.Join(dir, name, "delta"))
			compareWithExpected(t, db, s, expected, conformanceSkipColumns[name])
		})
	}
	if checked == 0 {
		t.Fatal("no conformance table with expected rows found")
	}
	t.Run("checkpoint", func(t *testing.T) {
		// Its data files are placeholders: the scan plan (file list) must
		// have them, and reading them must name the missing file.
		root := filepath.Join(dir, "checkpoint", "delta")
		s := mustSnapshot(t, root)
		if got := filePaths(s); s.Version() != 14 || len(got) != 1 || got[0] != "15" {
			t.Fatalf("version %d, files %v", s.Version(), got)
		}
		_, err := s.ScanSQL(ctx, ScanOptions{})
		if !errors.Is(err, ErrMissingDataFile) || !strings.Contains(err.Error(), filepath.Join(root, "15")) || !strings.Contains(err.Error(), "version 14") {
			t.Fatalf("err = %v", err)
		}
	})
}

func countRows(t *testing.T, db *sql.DB, s *Snapshot, opts ScanOptions) int64 {
	t.Helper()
	q, err := s.ScanSQL(context.Background(), opts)
	if err != nil {
		t.Fatal(err)
	}
	var n int64
	if err := db.QueryRow("SELECT count(*) FROM (" + q + ")").Scan(&n); err != nil {
		t.Fatalf("%v\n%s", err, q)
	}
	return n
}

// compareWithExpected compares the scan of s with the rows of the parquet
// files in dir: same column names, and the same multiset of rows, every
// value compared as text after casting the expected column to the scan's
// type.
func compareWithExpected(t *testing.T, db *sql.DB, s *Snapshot, dir string, skip []string) {
	t.Helper()
	ctx := context.Background()
	q, err := s.ScanSQL(ctx, ScanOptions{})
	if err != nil {
		t.Fatal(err)
	}
	ourCols := describe(t, db, q)
	expSQL := "SELECT * FROM read_parquet(" + quoteString(filepath.Join(dir, "*.parquet")) + ", union_by_name = true, hive_partitioning = false)"
	expCols := describe(t, db, expSQL)
	if len(expCols) != len(ourCols) {
		t.Fatalf("columns: got %v, want %v", ourCols, expCols)
	}
	var ours, theirs []string
	for _, c := range ourCols {
		if _, ok := expCols.typeOf(c.name); !ok {
			t.Fatalf("column %q not expected (expected %v)", c.name, expCols)
		}
		if contains(skip, c.name) {
			continue
		}
		ours = append(ours, "CAST("+quoteIdent(c.name)+" AS VARCHAR)")
		theirs = append(theirs, "CAST(CAST("+quoteIdent(c.name)+" AS "+c.typ+") AS VARCHAR)")
	}
	got := fetchSorted(t, db, "SELECT "+strings.Join(ours, ", ")+" FROM ("+q+")")
	want := fetchSorted(t, db, "SELECT "+strings.Join(theirs, ", ")+" FROM ("+expSQL+")")
	if len(got) != len(want) {
		t.Fatalf("%d rows, want %d\nfirst rows: %v\nwant: %v", len(got), len(want), head(got), head(want))
	}
	for i := range got {
		if got[i] != want[i] {
			t.Fatalf("row %d differs:\n got %s\nwant %s", i, got[i], want[i])
		}
	}
}

type columnList []struct{ name, typ string }

func (l columnList) typeOf(name string) (string, bool) {
	for _, c := range l {
		if c.name == name {
			return c.typ, true
		}
	}
	return "", false
}

func describe(t *testing.T, db *sql.DB, q string) columnList {
	t.Helper()
	rows, err := db.Query("DESCRIBE " + q)
	if err != nil {
		t.Fatalf("describe: %v\n%s", err, q)
	}
	defer rows.Close()
	var out columnList
	cols, _ := rows.Columns()
	for rows.Next() {
		vals := make([]any, len(cols))
		ptrs := make([]any, len(cols))
		for i := range vals {
			ptrs[i] = &vals[i]
		}
		if err := rows.Scan(ptrs...); err != nil {
			t.Fatal(err)
		}
		out = append(out, struct{ name, typ string }{vals[0].(string), vals[1].(string)})
	}
	return out
}

// fetchSorted returns each row as one string (columns joined with a
// separator, NULL spelled out), sorted.
func fetchSorted(t *testing.T, db *sql.DB, q string) []string {
	t.Helper()
	rows, err := db.Query(q)
	if err != nil {
		t.Fatalf("%v\n%s", err, q)
	}
	defer rows.Close()
	cols, _ := rows.Columns()
	var out []string
	for rows.Next() {
		vals := make([]sql.NullString, len(cols))
		ptrs := make([]any, len(cols))
		for i := range vals {
			ptrs[i] = &vals[i]
		}
		if err := rows.Scan(ptrs...); err != nil {
			t.Fatal(err)
		}
		parts := make([]string, len(vals))
		for i, v := range vals {
			parts[i] = "NULL"
			if v.Valid {
				parts[i] = strconv.Quote(v.String)
			}
		}
		out = append(out, strings.Join(parts, " | "))
	}
	if err := rows.Err(); err != nil {
		t.Fatal(err)
	}
	sort.Strings(out)
	return out
}

func head(rows []string) []string {
	if len(rows) > 3 {
		return rows[:3]
	}
	return rows
}
