package spark

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/apache/spark-connect-go/spark/sparkerrors"
	"google.golang.org/genproto/googleapis/rpc/errdetails"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"

	"github.com/laktory/workbench/delta"
	"github.com/laktory/workbench/runner/engine"
	"github.com/laktory/workbench/workspace"
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

// TestConflictClasses: Delta's errors of a lost commit race (SQLSTATE
// 2D521: every class of delta-spark 4.4's error-classes.json with that
// state, with its sub-classes), as the client returns them from the
// server's gRPC status or as a message only, match the conflict of
// package delta, which the runner retries (delta.IsRetryable, 5 times,
// each retry an event and a history record); other errors do not.
func TestConflictClasses(t *testing.T) {
	for _, c := range []struct {
		class string
		want  error // nil: not a conflict
	}{
		{"DELTA_CONCURRENT_APPEND", delta.ErrConcurrentAppend},
		{"DELTA_CONCURRENT_APPEND.WITHOUT_HINT", delta.ErrConcurrentAppend},
		{"DELTA_CONCURRENT_APPEND.WITH_PARTITION_HINT", delta.ErrConcurrentAppend},
		{"DELTA_CONCURRENT_DELETE_READ.WITHOUT_HINT", delta.ErrConcurrentDeleteRead},
		{"DELTA_CONCURRENT_DELETE_READ.WITH_PARTITION_HINT", delta.ErrConcurrentDeleteRead},
		{"DELTA_CONCURRENT_DELETE_DELETE.WITHOUT_HINT", delta.ErrConcurrentDeleteDelete},
		{"DELTA_CONCURRENT_DELETE_DELETE.WITH_PARTITION_HINT", delta.ErrConcurrentDeleteDelete},
		{"DELTA_CONCURRENT_TRANSACTION", delta.ErrConcurrentTransaction},
		{"DELTA_CONCURRENT_WRITE", delta.ErrConcurrentAppend},
		{"DELTA_METADATA_CHANGED", delta.ErrMetadataChanged},
		{"DELTA_PROTOCOL_CHANGED", delta.ErrProtocolChanged},
		{"DELTA_CONFLICT_SET_COLUMN", nil},
		{"DELTA_CONCURRENT_APPENDS", nil},
		{"TABLE_OR_VIEW_NOT_FOUND", nil},
		{"", nil},
	} {
		msg := "Transaction conflict detected."
		if c.class != "" {
			msg = "[" + c.class + "] " + msg + " SQLSTATE: 2D521"
		}
		// As the client returns a failed ExecutePlan (sql.Sql wraps it once more).
		st, err := status.New(codes.Internal, msg).WithDetails(&errdetails.ErrorInfo{Reason: "io.delta.exceptions.ConcurrentAppendException",
			Domain: "org.apache.spark", Metadata: map[string]string{"errorClass": c.class, "sqlState": "2D521"}})
		if err != nil {
			t.Fatal(err)
		}
		rpc := sparkerrors.WithType(fmt.Errorf("failed to execute sql: DELETE FROM t: %w",
			sparkerrors.WithType(sparkerrors.FromRPCError(st.Err()), sparkerrors.ExecutionError)), sparkerrors.ExecutionError)
		for form, in := range map[string]error{"gRPC status": rpc, "message": errors.New("execution error: " + msg)} {
			err := classify(in)
			var se *Error
			switch {
			case c.want == nil && delta.IsRetryable(err):
				t.Errorf("%s (%s): retryable: %v", c.class, form, err)
			case c.want != nil && (!errors.Is(err, c.want) || !delta.IsRetryable(err)):
				t.Errorf("%s (%s): not %v: %v", c.class, form, c.want, err)
			case c.class != "" && (!errors.As(err, &se) || se.Class != c.class):
				t.Errorf("%s (%s): class %+v", c.class, form, se)
			}
		}
	}
	if classify(nil) != nil {
		t.Error("classify(nil) is not nil")
	}
	// The message of a retry (an event, a history record): the class once,
	// no client prefixes, no JVM stack.
	err := classify(errors.New("execution error: failed to execute sql: DELETE FROM t: [DELTA_CONCURRENT_APPEND.WITHOUT_HINT] [DELTA_CONCURRENT_APPEND.WITHOUT_HINT] Transaction conflict detected.\n\tat io.delta.X"))
	if want := "DELETE FROM t: [DELTA_CONCURRENT_APPEND.WITHOUT_HINT] Transaction conflict detected."; err.Error() != want {
		t.Errorf("message %q, want %q", err, want)
	}
}

// TestGuardCancelled: a call whose context is cancelled ends with the
// context's error, even when the server then answers with a conflict, so
// a cancelled run is not retried.
func TestGuardCancelled(t *testing.T) {
	s := &Session{b: &builder{}} // no connection: Interrupt has no session to address
	ctx, cancel := context.WithCancel(t.Context())
	conflict := errors.New("[DELTA_CONCURRENT_APPEND.WITHOUT_HINT] Transaction conflict detected.")
	err := s.guard(ctx, func(context.Context) error {
		cancel()
		return conflict
	})
	if !errors.Is(err, context.Canceled) || delta.IsRetryable(err) {
		t.Fatalf("a conflict after cancel: %v", err)
	}
	ran := false
	if err := s.guard(ctx, func(context.Context) error { ran = true; return nil }); !errors.Is(err, context.Canceled) || ran {
		t.Fatalf("a call after cancel: ran %v, %v", ran, err)
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

// TestSchemaDDL: a declared source schema becomes the column list of the
// reader's view, in its order, with the Spark types of its spellings.
func TestSchemaDDL(t *testing.T) {
	for _, c := range []struct {
		cols []workspace.Column
		want string
	}{
		{nil, ""},
		{[]workspace.Column{{Name: "k", Type: "long"}}, `("k" BIGINT) `},
		{[]workspace.Column{{Name: "b", Type: "String"}, {Name: "a", Type: "Int32", Nullable: false}, {Name: "x y", Type: "decimal(12, 2)"}},
			`("b" STRING, "a" INT, "x y" DECIMAL(12,2)) `},
		{[]workspace.Column{{Name: `q"t`, Type: "Datetime"}, {Name: "d", Type: "date"}, {Name: "f", Type: "Float64"}, {Name: "ok", Type: "bool"}},
			`("q""t" TIMESTAMP, "d" DATE, "f" DOUBLE, "ok" BOOLEAN) `},
	} {
		var sc *workspace.Schema
		if c.cols != nil {
			sc = &workspace.Schema{Columns: c.cols}
		}
		if g := schemaDDL(sc); g != c.want {
			t.Errorf("schemaDDL(%v) = %q, want %q", c.cols, g, c.want)
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
