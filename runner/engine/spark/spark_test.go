package spark

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/laktory/workbench/delta"
	"github.com/laktory/workbench/runner/engine"
)

func TestCheckVersions(t *testing.T) {
	for _, c := range []struct {
		spark, delta string
		ok           bool
	}{
		{"4.2.0", "4.4.0", true}, {"4.2.1", "4.4.2", true},
		{"4.3.0", "4.4.0", false}, {"4.2.0", "4.3.0", false}, {"4.2.0", "", false}, {"4.20.0", "4.4.0", false},
	} {
		err := checkVersions(c.spark, c.delta)
		if (err == nil) != c.ok || (err != nil && (!errors.Is(err, ErrVersion) || !strings.Contains(err.Error(), "Spark 4.2.x with Delta 4.4.x"))) {
			t.Errorf("%s/%s: %v", c.spark, c.delta, err)
		}
	}
	if err := checkRemote("localhost:15002"); !errors.Is(err, ErrConnect) {
		t.Errorf("a remote without sc://: %v", err)
	}
}

func TestClassify(t *testing.T) {
	err := classify(errors.New("execution error: failed to execute sql: [DELTA_CONCURRENT_APPEND.WITH_PARTITION_HINT] ConcurrentAppendException: Files were added"))
	var se *Error
	if !errors.As(err, &se) || se.Class != "DELTA_CONCURRENT_APPEND.WITH_PARTITION_HINT" || !delta.IsRetryable(err) || !errors.Is(err, delta.ErrConcurrentAppend) {
		t.Fatalf("%v", err)
	}
	if err := classify(errors.New("[TABLE_OR_VIEW_NOT_FOUND] x")); delta.IsRetryable(err) {
		t.Fatalf("not a conflict: %v", err)
	}
}

func TestGlob(t *testing.T) {
	for _, c := range []struct {
		files []string
		want  string
	}{
		{[]string{"/a/b.json"}, "/a/b.json"},
		{[]string{"/a/b.json", "/a/c{1},2.json"}, `/a/{b.json,c\{1\}\,2.json}`},
		{[]string{"/l/x/1.json", "/l/y/z/2.json", "/l/x/3.json"}, "/l/{x/1.json,y/z/2.json,x/3.json}"},
		{[]string{"/a,b/1.json", "/c/2.json"}, `/{a\,b/1.json,c/2.json}`},
	} {
		if g := glob(c.files); g != c.want {
			t.Errorf("glob(%q) = %s, want %s", c.files, g, c.want)
		}
	}
}

// remote is the Spark Connect server of the opt-in tests
// (scripts/interop/spark_connect.sh starts one).
func remote(t *testing.T) string {
	r := os.Getenv("LAKTORY_SPARK_REMOTE")
	if r == "" {
		t.Skip("LAKTORY_SPARK_REMOTE is not set (scripts/interop/spark_connect.sh start)")
	}
	return r
}

func TestSparkTables(t *testing.T) {
	ctx := t.Context()
	e, err := Open(ctx, remote(t))
	if err != nil {
		t.Fatal(err)
	}
	defer e.Close()
	if i := e.Info(); i.Name != engine.Spark || !strings.HasPrefix(i.Version, "Spark 4.2") {
		t.Fatalf("info %+v", i)
	}
	es, err := e.Open(ctx)
	if err != nil {
		t.Fatal(err)
	}
	s := es.(*Session)
	defer s.Close()
	dir := os.Getenv("LAKTORY_SPARK_LAKE")
	if dir == "" {
		dir = t.TempDir()
	}
	dir, _ = os.MkdirTemp(dir, "tables")
	path := filepath.Join(dir, "t")
	write := func(op, arg, appID string, v int64) *delta.CommitResult {
		t.Helper()
		snap, err := delta.LoadSnapshot(ctx, path)
		if errors.Is(err, delta.ErrNotDeltaTable) {
			snap, err = nil, nil
		}
		if err != nil {
			t.Fatal(err)
		}
		tx, _ := s.Begin(ctx, path, snap, delta.TableDefinition{PartitionColumns: []string{"w"}}, delta.WriteOptions{})
		if appID != "" {
			if done, _ := tx.SetAppTransaction(appID, v); done {
				return nil
			}
		}
		switch op {
		case "append":
			err = tx.Append(ctx, arg)
		case "delete":
			err = tx.Delete(ctx, arg)
		case "truncate":
			err = tx.Truncate(ctx)
		}
		if err != nil {
			t.Fatal(err)
		}
		res, err := tx.Commit(ctx)
		if err != nil {
			t.Fatal(err)
		}
		return res
	}
	res := write("append", `SELECT 'a' AS w, id FROM range(3)`, "", 0)
	if !res.Committed || res.Metrics.AddedRows != 3 {
		t.Fatalf("create: %+v", res)
	}
	res = write("append", `SELECT 'b' AS w, id FROM range(2)`, "flow", 0)
	if !res.Committed || res.Metrics.AddedRows != 2 || res.Version != 1 {
		t.Fatalf("append with txn: %+v", res)
	}
	if res := write("append", `SELECT 'b' AS w, id FROM range(2)`, "flow", 0); res != nil {
		t.Fatalf("the batch again: %+v", res)
	}
	res = write("delete", `"w" = 'a'`, "", 0)
	if !res.Committed || res.Metrics.DeletedRows != 3 || res.Operation != "DELETE" {
		t.Fatalf("delete: %+v", res)
	}
	snap, err := delta.LoadSnapshot(ctx, path)
	if err != nil {
		t.Fatal(err)
	}
	if v, ok := snap.AppTransactionVersion("flow"); !ok || v != 0 {
		t.Fatalf("txn %d %v", v, ok)
	}
	q, err := s.ScanTable(ctx, snap, engine.Scan{Columns: []string{"id"}, Where: `"w" = 'b'`})
	if err != nil {
		t.Fatal(err)
	}
	var n int64
	if err := s.QueryRow(ctx, "SELECT count(*) FROM ("+q+")", &n); err != nil || n != 2 {
		t.Fatalf("scan %d %v", n, err)
	}
	// The files of version 1 as it added them.
	t1, _ := delta.Open(ctx, path)
	s1, _ := t1.Snapshot(ctx, delta.AtVersion(1))
	var files []*delta.Add
	var versions []int64
	for _, f := range s1.Files() {
		if f.PartitionValues["w"] != nil && *f.PartitionValues["w"] == "a" {
			files, versions = append(files, f), append(versions, 0)
		}
	}
	q, err = s.ScanTable(ctx, snap, engine.Scan{Files: files, Versions: versions})
	if err != nil {
		t.Fatal(err)
	}
	if err := s.QueryRow(ctx, "SELECT count(*) FROM ("+q+")", &n); err != nil || n != 3 {
		t.Fatalf("scan of deleted files as added: %d %v (%s)", n, err, q)
	}
	res = write("truncate", "", "", 0)
	if res.Metrics.DeletedRows != 2 && res.Committed {
		t.Logf("truncate: %+v", res)
	}
}

// TestInterrupt: cancelling the context of a long query interrupts it on
// the server: the call returns at once and no job of the session keeps
// running (a second query of the session runs without waiting).
func TestInterrupt(t *testing.T) {
	e, err := Open(t.Context(), remote(t))
	if err != nil {
		t.Fatal(err)
	}
	defer e.Close()
	es, _ := e.Open(t.Context())
	defer es.Close()
	ctx, cancel := context.WithTimeout(t.Context(), 3*time.Second)
	defer cancel()
	start := time.Now()
	var n int64
	err = es.QueryRow(ctx, "SELECT sum(hash(id)) FROM range(0, 100000000000, 1, 2)", &n)
	if !errors.Is(err, context.DeadlineExceeded) || time.Since(start) > 20*time.Second {
		t.Fatalf("%v after %s", err, time.Since(start))
	}
	var active int64
	if err := es.QueryRow(t.Context(), "SELECT 1", &active); err != nil {
		t.Fatal(err)
	}
}
