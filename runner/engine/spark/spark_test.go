package spark

import (
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"net"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/apache/spark-connect-go/spark/client/channel"
	"github.com/apache/spark-connect-go/spark/sparkerrors"
	"google.golang.org/genproto/googleapis/rpc/errdetails"
	"google.golang.org/grpc"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"
	"google.golang.org/protobuf/encoding/protojson"
	"google.golang.org/protobuf/proto"

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

var update = flag.Bool("update", false, "rewrite testdata/readfiles.json")

// fakeConnect is a Spark Connect server that answers every ExecutePlan
// with an empty stream and keeps the requests.
type fakeConnect struct {
	mu       sync.Mutex
	methods  []string
	requests []proto.Message
}

func (f *fakeConnect) handle(_ any, st grpc.ServerStream) error {
	method, _ := grpc.MethodFromServerStream(st)
	req, err := newMessage("spark.connect.ExecutePlanRequest")
	if err != nil {
		return err
	}
	if err := st.RecvMsg(req); err != nil {
		return err
	}
	f.mu.Lock()
	f.methods, f.requests = append(f.methods, method), append(f.requests, req)
	f.mu.Unlock()
	return nil
}

// fakeSession is a Session whose server-side session (id "s-1") is on a
// fakeConnect.
func fakeSession(t *testing.T) (*Session, *fakeConnect) {
	t.Helper()
	lis, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	f := &fakeConnect{}
	srv := grpc.NewServer(grpc.UnknownServiceHandler(f.handle))
	go srv.Serve(lis) //nolint:errcheck // ends with Stop
	t.Cleanup(srv.Stop)
	cb, err := channel.NewBuilder("sc://" + lis.Addr().String())
	if err != nil {
		t.Fatal(err)
	}
	b := &builder{Builder: cb, addr: lis.Addr().String(), sessionID: "s-1"}
	if _, err := b.Build(t.Context()); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { b.conn.Close() })
	return &Session{b: b}, f
}

// TestReadFilesRequest: the Spark engine's reader of landing files is one
// ExecutePlan creating a temporary view of a Read.DataSource that names
// every file as a path of its own, its glob characters escaped (Spark
// 4.2's reader globs the paths even with __globPaths__ false, which is not
// sent, and a source's reader_kwargs cannot set): names with glob
// characters (f?.csv, [f]1.csv, **, {a,b}, a backslash) are those files,
// never patterns. The options
// and the declared schema are the source's (testdata/readfiles.json; -update
// rewrites it); TestSparkReadFilesExact reads such files on a server.
func TestReadFilesRequest(t *testing.T) {
	s, f := fakeSession(t)
	dir := "/lake/landing/orders"
	files := []string{dir + "/f?.csv", dir + "/[f]1.csv", dir + "/**.csv", dir + "/a{1},2.csv", dir + `/b\*.csv`, dir + "/sub/x y.csv"}
	header := false
	src := &workspace.Source{HasHeader: &header, ReaderKwargs: map[string]any{"sep": ";", "maxFilesPerTrigger": 1, "__globPaths__": "true"},
		Schema: &workspace.Schema{Columns: []workspace.Column{{Name: "id", Type: "long"}, {Name: "a`b", Type: "String"}}}}
	q, err := s.ReadFiles(t.Context(), files, "csv", src)
	if err != nil {
		t.Fatal(err)
	}
	if q != `SELECT * FROM "lk_files_1"` || !slices.Equal(s.views, []string{"lk_files_1"}) {
		t.Fatalf("query %q, views %q", q, s.views)
	}
	if _, err := s.ReadFiles(t.Context(), files[:1], "JSONL", nil); err != nil {
		t.Fatal(err)
	}
	if len(f.requests) != 2 || f.methods[0] != "/spark.connect.SparkConnectService/ExecutePlan" {
		t.Fatalf("requests %q", f.methods)
	}
	var got []any
	for _, r := range f.requests {
		js, err := protojson.Marshal(r)
		if err != nil {
			t.Fatal(err)
		}
		var m map[string]any
		if err := json.Unmarshal(js, &m); err != nil {
			t.Fatal(err)
		}
		if m["sessionId"] != "s-1" || m["operationId"] == "" {
			t.Fatalf("request without the session or an operation id: %s", js)
		}
		got = append(got, m["plan"])
	}
	js, _ := json.MarshalIndent(got, "", "  ")
	js = append(js, '\n')
	golden := filepath.Join("testdata", "readfiles.json")
	if *update {
		if err := os.WriteFile(golden, js, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(golden)
	if err != nil {
		t.Fatal(err)
	}
	if string(js) != string(want) {
		t.Errorf("the reader's commands:\n%s\nwant (%s):\n%s", js, golden, want)
	}
	// The paths, exactly.
	ds := got[0].(map[string]any)["command"].(map[string]any)["createDataframeView"].(map[string]any)["input"].(map[string]any)["read"].(map[string]any)["dataSource"].(map[string]any)
	var paths []string
	for _, p := range ds["paths"].([]any) {
		paths = append(paths, p.(string))
	}
	escaped := []string{dir + `/f\?.csv`, dir + `/\[f\]1.csv`, dir + `/\*\*.csv`, dir + `/a\{1\}\,2.csv`, dir + `/b\\\*.csv`, dir + "/sub/x y.csv"}
	if _, glob := ds["options"].(map[string]any)["__globPaths__"]; !slices.Equal(paths, escaped) || glob {
		t.Errorf("paths %q (want %q), options %v", paths, escaped, ds["options"])
	}
	if _, err := s.ReadFiles(t.Context(), nil, "csv", nil); !errors.Is(err, engine.ErrUnsupported) {
		t.Errorf("no files: %v", err)
	}
	if _, err := s.ReadFiles(t.Context(), files, "avro", nil); !errors.Is(err, engine.ErrUnsupported) {
		t.Errorf("avro: %v", err)
	}
}

// TestReaderSchema: a declared source schema becomes the DDL of the
// reader's schema, in its order, with the Spark types of its spellings.
func TestReaderSchema(t *testing.T) {
	for _, c := range []struct {
		cols []workspace.Column
		want string
	}{
		{nil, ""},
		{[]workspace.Column{{Name: "k", Type: "long"}}, "`k` BIGINT"},
		{[]workspace.Column{{Name: "b", Type: "String"}, {Name: "a", Type: "Int32", Nullable: false}, {Name: "x y", Type: "decimal(12, 2)"}},
			"`b` STRING, `a` INT, `x y` DECIMAL(12,2)"},
		{[]workspace.Column{{Name: "q`t", Type: "Datetime"}, {Name: "d", Type: "date"}, {Name: "f", Type: "Float64"}, {Name: "ok", Type: "bool"}},
			"`q``t` TIMESTAMP, `d` DATE, `f` DOUBLE, `ok` BOOLEAN"},
	} {
		var sc *workspace.Schema
		if c.cols != nil {
			sc = &workspace.Schema{Columns: c.cols}
		}
		if g := readerSchema(sc); g != c.want {
			t.Errorf("readerSchema(%v) = %q, want %q", c.cols, g, c.want)
		}
	}
}

// TestSparkReadFilesExact (opt-in, a Spark Connect server): files whose
// names are glob patterns matching each other are read exactly, each its
// own row once: f?.csv does not read f1.csv, [f]1.csv is not f1.csv, **.csv
// is not every file.
func TestSparkReadFilesExact(t *testing.T) {
	e, err := Open(t.Context(), remote(t))
	if err != nil {
		t.Fatal(err)
	}
	defer e.Close()
	es, err := e.Open(t.Context())
	if err != nil {
		t.Fatal(err)
	}
	defer es.Close()
	dir := os.Getenv("LAKTORY_SPARK_LAKE")
	if dir == "" {
		dir = t.TempDir()
	}
	dir, _ = os.MkdirTemp(dir, "files")
	names := []string{"f1.csv", "f?.csv", "[f]1.csv", "**.csv", "a{1},2.csv", `b\*.csv`, "x y.csv"}
	for i, n := range names {
		if err := os.WriteFile(filepath.Join(dir, n), fmt.Appendf(nil, "k,name\n%d,\"%s\"\n", i, n), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	for _, pick := range [][]string{names[1:2], names[2:3], names[3:4], names[5:6], names[1:]} {
		var files []string
		for _, n := range pick {
			files = append(files, filepath.Join(dir, n))
		}
		q, err := es.ReadFiles(t.Context(), files, "CSV", nil)
		if err != nil {
			t.Fatal(err)
		}
		var got string
		if err := es.QueryRow(t.Context(), "SELECT concat_ws('|', sort_array(collect_list(name))) FROM ("+q+")", &got); err != nil {
			t.Fatal(err)
		}
		want := slices.Clone(pick)
		slices.Sort(want)
		if got != strings.Join(want, "|") {
			t.Errorf("read %q: rows of %q", pick, got)
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

// TestSparkShare: a relation shared by one session over its temporary
// views (a node's output kept for downstream tasks) is read by another
// session of the server, where those views do not exist. Opt-in
// (LAKTORY_SPARK_REMOTE).
func TestSparkShare(t *testing.T) {
	ctx := t.Context()
	e, err := Open(ctx, remote(t))
	if err != nil {
		t.Fatal(err)
	}
	defer e.Close()
	var ss [2]*Session
	for i := range ss {
		es, err := e.Open(ctx)
		if err != nil {
			t.Fatal(err)
		}
		ss[i] = es.(*Session)
		defer ss[i].Close()
	}
	name := fmt.Sprintf("lk_share_test_%d", time.Now().UnixNano())
	if err := ss[0].CreateView(ctx, name+"_step", "SELECT id, id * 2 AS v FROM range(3)"); err != nil {
		t.Fatal(err)
	}
	rel, err := ss[0].Share(ctx, name, "SELECT * FROM "+quoteIdent(name+"_step"))
	if err != nil {
		t.Fatal(err)
	}
	var n, sum int64
	if err := ss[1].QueryRow(ctx, "SELECT count(*), sum(v) FROM "+rel, &n, &sum); err != nil || n != 3 || sum != 6 {
		t.Fatalf("the shared relation read by another session: %d rows, sum %d, %v", n, sum, err)
	}
	var key, conf string
	if err := ss[0].QueryRow(ctx, "SET spark.sql.legacy.storeAnalyzedPlanForView", &key, &conf); err != nil || conf != "false" {
		t.Fatalf("after Share, the session's spark.sql.legacy.storeAnalyzedPlanForView is %q (%v), want false", conf, err)
	}
}
