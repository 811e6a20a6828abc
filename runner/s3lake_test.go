package runner

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"

	s3api "github.com/aws/aws-sdk-go-v2/service/s3"
	"github.com/laktory/workbench/delta"
	"github.com/laktory/workbench/delta/s3test"
	"github.com/laktory/workbench/runner/engine"
	"github.com/laktory/workbench/runner/lake"
	"github.com/laktory/workbench/validate"
	"github.com/laktory/workbench/workspace"
	"github.com/laktory/workbench/workspace/workspacetest"
)

// s3Lake is a workspace whose lake is in a bucket of the test's moto
// server (laktory-workbench.yaml: lake: s3://BUCKET/lake), with the AWS
// chain pointed at the server and an object cache of its own.
type s3Lake struct {
	srv  *s3test.Server
	lake string
}

func newS3Lake(t *testing.T, dir string) *s3Lake {
	t.Helper()
	srv := s3test.Shared(t)
	srv.Setenv(t)
	delta.SetObjectCache(&delta.ObjectCache{Dir: t.TempDir()})
	t.Cleanup(func() { delta.SetObjectCache(nil) })
	l := &s3Lake{srv: srv, lake: "s3://" + srv.Bucket(t) + "/lake"}
	workspacetest.Write(t, dir, map[string]string{workspace.ConfigFileName: "lake: " + l.lake + "\n"})
	return l
}

// noLocalLake fails when a run made a local folder for the bucket's lake
// (a folder named "s3:", or the default DIR/.laktory/lake).
func noLocalLake(t *testing.T, dir string) {
	t.Helper()
	filepath.WalkDir(dir, func(p string, d os.DirEntry, err error) error { //nolint:errcheck // a walk of a test folder
		if err == nil && (strings.HasPrefix(d.Name(), "s3:") || strings.HasPrefix(d.Name(), "s3a:")) {
			t.Errorf("a local folder for the bucket's lake: %s", p)
		}
		return nil
	})
	if exists(filepath.Join(dir, workspace.StateDirName, workspace.LakeDirName)) {
		t.Errorf("the default local lake was made: %s", filepath.Join(dir, workspace.StateDirName, workspace.LakeDirName))
	}
}

// s3TableRows are a Delta table's rows (every column), sorted, read by our
// reader.
func s3TableRows(t *testing.T, r *Runner, path string) [][]string {
	t.Helper()
	return query(t, r, path, "SELECT * FROM t ORDER BY ALL")
}

// pythonLacks returns an error naming the modules py cannot import (or
// why it cannot run), nil when it imports them all.
func pythonLacks(ctx context.Context, py string, modules ...string) error {
	code := "import importlib.util, sys\nmissing = [m for m in sys.argv[1:] if importlib.util.find_spec(m) is None]\nprint(' '.join(missing))"
	out, err := exec.CommandContext(ctx, py, append([]string{"-c", code}, modules...)...).Output()
	if err != nil {
		return fmt.Errorf("%s cannot run: %w", py, err)
	}
	if missing := strings.TrimSpace(string(out)); missing != "" {
		return fmt.Errorf("%s has no module %s", py, strings.ReplaceAll(missing, " ", ", "))
	}
	return nil
}

// needDeltaRS skips the test when the interpreter of the S3 tests
// ($LAKTORY_PYTHON, else python3) cannot import what s3_tables.py needs
// (deltalake), and fails it under LAKTORY_REQUIRE_INTEROP=1 (scripts/test.sh,
// .ci/run), as s3test.Shared does for moto.
func needDeltaRS(t *testing.T) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	if err := pythonLacks(ctx, s3test.Python(), "deltalake"); err != nil {
		if os.Getenv("LAKTORY_REQUIRE_INTEROP") == "1" {
			t.Fatalf("delta-rs is required (LAKTORY_REQUIRE_INTEROP=1) to read the bucket's tables: %v; set LAKTORY_PYTHON to a Python with scripts/requirements-interop.txt", err)
		}
		t.Skipf("delta-rs cannot read the bucket's tables: %v (set LAKTORY_PYTHON to a Python with scripts/requirements-interop.txt)", err)
	}
}

// deltaRSTables reads tables with delta-rs ($LAKTORY_PYTHON).
func deltaRSTables(t *testing.T, uris ...string) []struct {
	Version int64    `json:"version"`
	Columns []string `json:"columns"`
	Rows    []string `json:"rows"`
} {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	out, err := exec.CommandContext(ctx, s3test.Python(), append([]string{filepath.Join("testdata", "s3_tables.py")}, uris...)...).Output()
	if err != nil {
		if ee, ok := err.(*exec.ExitError); ok {
			t.Fatalf("s3_tables.py: %v\n%s", err, ee.Stderr)
		}
		t.Fatal(err)
	}
	var res []struct {
		Version int64    `json:"version"`
		Columns []string `json:"columns"`
		Rows    []string `json:"rows"`
	}
	if err := json.Unmarshal(out, &res); err != nil {
		t.Fatalf("s3_tables.py: %v: %s", err, out)
	}
	return res
}

var demoTables = []string{"all_orders", "events", "prices", "gld_prices_a"}

// TestS3LakeDemo runs the demo on a lake in a bucket and, side by side, on
// a local lake: the first run, a run with nothing new, the spare landing
// files, FULL refreshes (a writer of the shared prices, gld_prices_a, the
// declarative pl-events), RESET with TRUNCATE and with DROP of the shared
// prices, and an incremental run after each. After each step the runs
// wrote and deleted the same rows and every table holds the same rows
// (read here); at the end delta-rs reads every table from the bucket with
// the rows it reads from the local lake. No local folder stands in for
// the bucket. The runs' tasks run one at a time (inLaktoryOrder), so that
// both lakes' runs make the same commits.
func TestS3LakeDemo(t *testing.T) {
	needDeltaRS(t)
	localDir, remoteDir := workspacetest.Demo(t), workspacetest.Demo(t)
	s3 := newS3Lake(t, remoteDir)
	rl, rr := testRunner(t), testRunner(t)
	local := &ws{t: t, dir: localDir}
	lsnap := workspacetest.LoadDir(t, localDir, workspace.Options{})
	rsnap := workspacetest.LoadDir(t, remoteDir, workspace.Options{})
	if got := rsnap.Layout.Lake; got != s3.lake {
		t.Fatalf("the workspace's lake is %q, want %q", got, s3.lake)
	}
	remoteTable := func(name string) string {
		return rsnap.Layout.TablePath(workspace.ParseTableName(name, "", ""))
	}
	steps := []struct {
		name string
		req  Request
		land bool
	}{
		{name: "first run"},
		{name: "nothing new"},
		{name: "spare files", land: true},
		{name: "FULL feed_a", req: Request{Pipelines: []string{"pl-prices"}, Selectors: []string{"feed_a"}, Refresh: "FULL"}},
		{name: "FULL gld_prices_a", req: Request{Pipelines: []string{"pl-prices"}, Selectors: []string{"gld_prices_a"}, Refresh: "FULL"}},
		{name: "FULL pl-events", req: Request{Pipelines: []string{"pl-events"}, Refresh: "FULL"}},
		{name: "RESET TRUNCATE prices", req: Request{Pipelines: []string{"pl-prices"}, Refresh: "RESET", ResetMode: "TRUNCATE"}},
		{name: "after TRUNCATE"},
		{name: "FULL acme", req: Request{Pipelines: []string{"pl-client-acme"}, Refresh: "FULL"}},
		{name: "RESET DROP prices", req: Request{Pipelines: []string{"pl-prices"}, Refresh: "RESET", ResetMode: "DROP"}},
		{name: "after DROP"},
	}
	if !EmptyOrMissing(remoteTable("prices")) {
		t.Fatal("a table of the fresh bucket is not empty or missing")
	}
	before := delta.RemoteStats()
	for i, st := range steps {
		if st.land {
			workspacetest.LandSpare(t, localDir)
			workspacetest.LandSpare(t, remoteDir)
		}
		start := time.Now()
		ol := mustRun(t, rl, lsnap, inLaktoryOrder(st.req))
		tookLocal := time.Since(start)
		start = time.Now()
		or := mustRun(t, rr, rsnap, inLaktoryOrder(st.req))
		took := time.Since(start)
		if ol.sum.RowsWritten != or.sum.RowsWritten || ol.sum.RowsDeleted != or.sum.RowsDeleted {
			t.Fatalf("%s: local wrote %d and deleted %d rows, the bucket's run %d and %d", st.name,
				ol.sum.RowsWritten, ol.sum.RowsDeleted, or.sum.RowsWritten, or.sum.RowsDeleted)
		}
		for _, name := range demoTables {
			lp, rp := local.table(name), remoteTable(name)
			if exists(lp) != remoteExists(t, rp) {
				t.Fatalf("%s: table %s exists locally: %v, in the bucket: %v", st.name, name, exists(lp), !exists(lp))
			}
			if !exists(lp) {
				continue
			}
			if lv, rv := version(t, lp), version(t, rp); lv != rv {
				t.Fatalf("%s: %s is at version %d in the bucket, %d locally", st.name, name, rv, lv)
			}
			if got, want := s3TableRows(t, rr, rp), s3TableRows(t, rl, lp); !reflect.DeepEqual(got, want) {
				t.Fatalf("%s: %s in the bucket differs from the local run:\n got %v\nwant %v", st.name, name, got, want)
			}
		}
		if i == 0 {
			if EmptyOrMissing(remoteTable("prices")) {
				t.Fatal("prices in the bucket is empty or missing after the first run")
			}
		}
		now := delta.RemoteStats()
		t.Logf("%s: %d rows written, %d deleted; against the bucket %s in %v (local %v)", st.name,
			or.sum.RowsWritten, or.sum.RowsDeleted, now.Sub(before), took.Round(time.Millisecond), tookLocal.Round(time.Millisecond))
		before = now
	}
	noLocalLake(t, remoteDir)
	c := delta.DefaultObjectCache().Stats()
	t.Logf("object cache: %d hits, %d misses (hit rate %.2f), %d B fetched", c.Hits, c.Misses, c.HitRate(), c.BytesFetched)

	// Another machine's first reads: a cold cache, then a warm one.
	cold := &delta.ObjectCache{Dir: t.TempDir()}
	delta.SetObjectCache(cold)
	for pass, what := range []string{"cold", "warm"} {
		b4, c4, start := delta.RemoteStats(), cold.Stats(), time.Now()
		for _, name := range demoTables {
			count(t, rr, remoteTable(name), "")
		}
		c := cold.Stats()
		t.Logf("scans of the 4 tables, %s cache: %v, %s; cache %d hits, %d misses, %d B fetched", what, time.Since(start).Round(time.Millisecond),
			delta.RemoteStats().Sub(b4), c.Hits-c4.Hits, c.Misses-c4.Misses, c.BytesFetched-c4.BytesFetched)
		if pass == 1 && c.Misses != c4.Misses {
			t.Errorf("the warm scans missed the cache %d times", c.Misses-c4.Misses)
		}
	}

	// The Table tab's watch of a table in the bucket sees a commit.
	lake.RemotePollInterval = 20 * time.Millisecond
	t.Cleanup(func() { lake.RemotePollInterval = 5 * time.Second })
	changes, stopWatch, err := lake.WatchTable(remoteTable("prices"))
	if err != nil {
		t.Fatal(err)
	}
	time.Sleep(100 * time.Millisecond)
	mustRun(t, rr, rsnap, inLaktoryOrder(Request{Pipelines: []string{"pl-prices"}, Selectors: []string{"feed_a"}, Refresh: "FULL"}))
	mustRun(t, rl, lsnap, inLaktoryOrder(Request{Pipelines: []string{"pl-prices"}, Selectors: []string{"feed_a"}, Refresh: "FULL"}))
	select {
	case <-changes:
	case <-time.After(10 * time.Second):
		t.Fatal("watching prices in the bucket: no change after a commit")
	}
	stopWatch()

	var uris []string
	for _, name := range demoTables {
		uris = append(uris, local.table(name), remoteTable(name))
	}
	got := deltaRSTables(t, uris...)
	for i, name := range demoTables {
		l, r := got[2*i], got[2*i+1]
		if !reflect.DeepEqual(l.Columns, r.Columns) || l.Version != r.Version || len(l.Rows) == 0 {
			t.Fatalf("delta-rs: %s: local v%d %v (%d rows), bucket v%d %v (%d rows)", name, l.Version, l.Columns, len(l.Rows), r.Version, r.Columns, len(r.Rows))
		}
		if !reflect.DeepEqual(l.Rows, r.Rows) {
			t.Fatalf("delta-rs: %s in the bucket differs from the local run:\n got %v\nwant %v", name, r.Rows, l.Rows)
		}
	}
}

// remoteExists reports whether a Delta table stands at uri.
func remoteExists(t *testing.T, uri string) bool {
	t.Helper()
	_, err := delta.Open(context.Background(), uri)
	return err == nil
}

// version is the latest version of the Delta table at path.
func version(t *testing.T, path string) int64 {
	t.Helper()
	s, err := delta.LoadSnapshot(context.Background(), path)
	if err != nil {
		t.Fatalf("load %s: %v", path, err)
	}
	return s.Version()
}

// sparkBucket is the local engine under the Spark engine's name, with
// what a Spark server's check of s3a and Delta's LogStore said.
type sparkBucket struct {
	engine.Engine
	reason string
}

func (e sparkBucket) Info() engine.Info {
	return engine.Info{Name: engine.Spark, Remote: "sc://127.0.0.1:15002", BucketLake: e.reason}
}

// TestS3LakeRefusesSparkEngine: with the lake in a bucket, a run on a
// Spark server that cannot write it safely (no s3a, a DynamoDB LogStore:
// engine.Info's BucketLake) is refused before anything runs (LK230 at the
// config's `lake:`, naming the reason), and the bucket is not touched; a
// Spark server that can is planned as the local engine is.
func TestS3LakeRefusesSparkEngine(t *testing.T) {
	t.Run("refused", func(t *testing.T) {
		dir := workspacetest.Demo(t)
		workspacetest.Write(t, dir, map[string]string{workspace.ConfigFileName: "strict: false\nlake: s3://no-such-bucket/lake\n"})
		// An AWS chain that reaches nothing: the plan must not ask.
		for k, v := range map[string]string{"AWS_ENDPOINT_URL_S3": "http://127.0.0.1:9", "AWS_ACCESS_KEY_ID": "x", "AWS_SECRET_ACCESS_KEY": "x",
			"AWS_REGION": "us-east-1", "AWS_EC2_METADATA_DISABLED": "true", "AWS_CONFIG_FILE": "/dev/null", "AWS_SHARED_CREDENTIALS_FILE": "/dev/null"} {
			t.Setenv(k, v)
		}
		r := testRunner(t)
		r.cfg.Engine = sparkBucket{Engine: &fakeEngine{Engine: r.local}, reason: "sc://127.0.0.1:15002 sets spark.delta.logStore.s3a.impl=io.delta.storage.S3DynamoDBLogStore"}
		snap := workspacetest.LoadDir(t, dir, workspace.Options{})
		before := delta.RemoteStats()
		pe := planErr(t, r, snap, Request{})
		var found bool
		for _, d := range pe.Diagnostics {
			if d.Code == validate.CodeBucketLakeEngine {
				found = true
				if d.File != filepath.Join(snap.Dir, workspace.ConfigFileName) || d.Line != 2 ||
					!strings.Contains(d.Message, "s3://no-such-bucket/lake is in a bucket") || !strings.Contains(d.Message, "S3DynamoDBLogStore") {
					t.Errorf("LK230 at %s:%d: %s", d.File, d.Line, d.Message)
				}
			}
		}
		if !found {
			t.Fatalf("no LK230 in %v", pe.Diagnostics)
		}
		if got := delta.RemoteStats().Sub(before); got.Requests() != 0 {
			t.Errorf("the refused plan made requests: %s", got)
		}
	})
	t.Run("accepted", func(t *testing.T) {
		dir := workspacetest.Demo(t)
		newS3Lake(t, dir)
		r := testRunner(t)
		r.cfg.Engine = sparkBucket{Engine: &fakeEngine{Engine: r.local}}
		snap := workspacetest.LoadDir(t, dir, workspace.Options{})
		plan, err := r.Plan(context.Background(), snap, Request{})
		if err != nil {
			t.Fatalf("a Spark server with s3a and S3SingleDriverLogStore: %v", err)
		}
		if len(plan.Tasks) == 0 {
			t.Fatal("an empty plan")
		}
	})
}

// TestS3LakeRefusesViews: a VIEW sink with the lake in a bucket is
// refused before anything runs (LK231 at the sink): a view is a file of a
// local lake, and none may be written as a local folder named "s3:".
func TestS3LakeRefusesViews(t *testing.T) {
	w := newWS(t, map[string]string{"pipelines/pl.yaml": viewPipelines, "data/a/1.jsonl": jsonl("a", 0, 3, ""),
		workspace.ConfigFileName: "lake: s3://no-such-bucket/lake\n"})
	for k, v := range map[string]string{"AWS_ENDPOINT_URL_S3": "http://127.0.0.1:9", "AWS_ACCESS_KEY_ID": "x", "AWS_SECRET_ACCESS_KEY": "x",
		"AWS_REGION": "us-east-1", "AWS_EC2_METADATA_DISABLED": "true", "AWS_CONFIG_FILE": "/dev/null", "AWS_SHARED_CREDENTIALS_FILE": "/dev/null"} {
		t.Setenv(k, v)
	}
	pe := planErr(t, testRunner(t), w.load(), Request{})
	if !hasDiag(pe, validate.CodeBucketLakeView, "writes the view orders_v") {
		t.Fatalf("no LK231 for the view: %v", pe.Diagnostics)
	}
	if hasDiag(pe, validate.CodeBucketLakeView, "writes the view orders\n") {
		t.Errorf("a table sink refused as a view")
	}
	noLocalLake(t, w.dir)
}

// TestS3LakeKillPoints stops a run of the demo on a bucket lake in a child
// process (LAKTORY_FAILPOINT) while it uploads a data file, just before a
// commit, just after one, and in a writer's FULL refresh after its rows
// were deleted; the same request run again leaves every table with exactly
// the rows (and no more versions' rows) of the same request run once on a
// local lake: a failed commit writes nothing visible, a rerun neither
// loses nor duplicates rows.
func TestS3LakeKillPoints(t *testing.T) {
	full := Request{Pipelines: []string{"pl-prices"}, Selectors: []string{"feed_a"}, Refresh: "FULL"}
	cases := []struct {
		name, point string
		full        bool
	}{
		{"upload of the first run", delta.FailUpload + ":2", false},
		{"before a commit of the first run", delta.FailCommitBefore + ":2", false},
		{"after a commit of the first run", delta.FailCommitAfter + ":2", false},
		{"upload of a FULL refresh", delta.FailUpload + ":1", true},
		{"before the FULL refresh's commit", delta.FailCommitBefore + ":1", true},
		{"FULL refresh after its delete", "refresh.deleted", true},
	}
	// The local lake's tables after the first run, and after FULL feed_a.
	localDir := workspacetest.Demo(t)
	rl := testRunner(t)
	lsnap := workspacetest.LoadDir(t, localDir, workspace.Options{})
	local := &ws{t: t, dir: localDir}
	want := func() map[string][][]string {
		m := map[string][][]string{}
		for _, name := range demoTables {
			m[name] = s3TableRows(t, rl, local.table(name))
		}
		return m
	}
	mustRun(t, rl, lsnap, Request{})
	afterFirst := want()
	mustRun(t, rl, lsnap, full)
	afterFull := want()

	t.Setenv("XDG_CACHE_HOME", t.TempDir()) // the children's object cache
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			dir := workspacetest.Demo(t)
			newS3Lake(t, dir)
			r := testRunner(t)
			snap := workspacetest.LoadDir(t, dir, workspace.Options{})
			req, wantRows := Request{}, afterFirst
			if tc.full {
				mustRun(t, r, snap, Request{})
				req, wantRows = full, afterFull
			}
			crashAt(t, dir, tc.point, req)
			mustRun(t, r, snap, req)
			for _, name := range demoTables {
				uri := snap.Layout.TablePath(workspace.ParseTableName(name, "", ""))
				if got := s3TableRows(t, r, uri); !reflect.DeepEqual(got, wantRows[name]) {
					t.Fatalf("%s after the kill and the rerun: %d rows, want %d:\n got %v\nwant %v", name, len(got), len(wantRows[name]), got, wantRows[name])
				}
			}
			noLocalLake(t, dir)
		})
	}
}

// TestS3LakeTwoMachines: two workspaces (two laptops) share one bucket
// lake; each runs one writer of the shared all_orders (acme on one,
// globex on the other) at the same time, incremental then FULL refreshes,
// four rounds: their commits race on the bucket's put-if-absent and are
// rebased, and the table ends with exactly each writer's rows, as a local
// run leaves it.
func TestS3LakeTwoMachines(t *testing.T) {
	a, b := workspacetest.Demo(t), workspacetest.Demo(t)
	s3 := newS3Lake(t, a)
	workspacetest.Write(t, b, map[string]string{workspace.ConfigFileName: "lake: " + s3.lake + "\n"})
	ra, rb := testRunner(t), testRunner(t)
	sa, sb := workspacetest.LoadDir(t, a, workspace.Options{}), workspacetest.LoadDir(t, b, workspace.Options{})
	before := delta.RemoteStats()
	retries := 0
	for round, refresh := range []string{"", "FULL", "", "FULL"} {
		done := make(chan outcome, 2)
		go func() { done <- run(t, ra, sa, Request{Pipelines: []string{"pl-client-acme"}, Refresh: refresh}) }()
		go func() { done <- run(t, rb, sb, Request{Pipelines: []string{"pl-client-globex"}, Refresh: refresh}) }()
		for range 2 {
			o := <-done
			if o.err != nil {
				t.Fatalf("round %d (%q): %v", round, refresh, o.err)
			}
			retries += o.sum.Retries
		}
	}
	orders := sa.Layout.TablePath(workspace.ParseTableName("all_orders", "", ""))
	if got := writerCounts(t, ra, orders, "client"); got != "acme=80 globex=80" {
		t.Fatalf("all_orders after the two machines' runs: %s, want acme=80 globex=80", got)
	}
	if n := query(t, ra, orders, "SELECT count(DISTINCT order_id) FROM t")[0][0]; n != "160" {
		t.Fatalf("%s distinct orders, want 160", n)
	}
	t.Logf("8 runs of two machines: %d retries; against the bucket %s", retries, delta.RemoteStats().Sub(before))
}

// TestS3LakeWriterClaims: the first workspace to write a writer's rows
// into a bucket table claims it (an object beside the table); a second
// workspace on the same bucket is refused running that writer and
// dropping or truncating a table the first one writes, naming the claim,
// and changes nothing; the first keeps running, its RESET DROP included;
// the writer moves to the second workspace by deleting its claim and a
// FULL refresh there, which leaves its rows exact.
func TestS3LakeWriterClaims(t *testing.T) {
	a, b := workspacetest.Demo(t), workspacetest.Demo(t)
	s3 := newS3Lake(t, a)
	workspacetest.Write(t, b, map[string]string{workspace.ConfigFileName: "lake: " + s3.lake + "\n"})
	ra, rb := testRunner(t), testRunner(t)
	sa, sb := workspacetest.LoadDir(t, a, workspace.Options{}), workspacetest.LoadDir(t, b, workspace.Options{})
	mustRun(t, ra, sa, Request{})
	orders := sa.Layout.TablePath(workspace.ParseTableName("all_orders", "", ""))
	prices := sa.Layout.TablePath(workspace.ParseTableName("prices", "", ""))
	v := version(t, orders)

	o := run(t, rb, sb, Request{Pipelines: []string{"pl-client-acme"}})
	if o.err == nil || !contains(taskErrs(o), "writer pl-client-acme.orders of "+orders+" is claimed by the workspace "+a) {
		t.Fatalf("a second workspace ran a claimed writer: %v %v", o.err, taskErrs(o))
	}
	o = run(t, rb, sb, Request{Pipelines: []string{"pl-prices"}, Refresh: "RESET", ResetMode: "TRUNCATE"})
	if o.err == nil || !contains(taskErrs(o), "the run drops or truncates the whole table") {
		t.Fatalf("a second workspace truncated a table another writes: %v %v", o.err, taskErrs(o))
	}
	if got := writerCounts(t, ra, orders, "client"); got != "acme=80 globex=80" || version(t, orders) != v {
		t.Fatalf("the refused runs changed all_orders: %s, v%d", got, version(t, orders))
	}
	if got := writerCounts(t, ra, prices, "_laktory_writer"); got != "pl-prices.feed_a=100 pl-prices.feed_b=100" {
		t.Fatalf("the refused runs changed prices: %s", got)
	}
	mustRun(t, ra, sa, Request{Pipelines: []string{"pl-client-acme"}, Refresh: "FULL"})
	mustRun(t, ra, sa, Request{Pipelines: []string{"pl-prices"}, Refresh: "RESET", ResetMode: "DROP"})

	// The hand-over: the claim deleted, a FULL refresh from b.
	key := strings.TrimPrefix(orders, "s3://")
	bucket, prefix, _ := strings.Cut(key, "/")
	claim := prefix + "/_laktory/writers/pl-client-acme.orders.json"
	if _, err := s3.srv.Client().DeleteObject(context.Background(), &s3api.DeleteObjectInput{Bucket: &bucket, Key: &claim}); err != nil {
		t.Fatal(err)
	}
	mustRun(t, rb, sb, Request{Pipelines: []string{"pl-client-acme"}, Refresh: "FULL"})
	if got := writerCounts(t, rb, orders, "client"); got != "acme=80 globex=80" {
		t.Fatalf("after the hand-over: %s", got)
	}
	if o := run(t, ra, sa, Request{Pipelines: []string{"pl-client-acme"}}); o.err == nil {
		t.Fatal("the first workspace still runs the writer it handed over")
	}
	noLocalLake(t, a)
	noLocalLake(t, b)
}

// TestS3LakeMerge: a MERGE sink (SCD type 1 with deletes) on a bucket
// lake, two batches and FULL refreshes with reset_mode DROP and TRUNCATE:
// the same versions and rows as on a local lake, read here and by
// delta-rs from the bucket.
func TestS3LakeMerge(t *testing.T) {
	needDeltaRS(t)
	for _, mode := range []string{"DROP", "TRUNCATE"} {
		t.Run(mode, func(t *testing.T) {
			files := map[string]string{"pipelines/pl.yaml": strings.Replace(mergePipeline, "%s", mode, 1),
				"data/changes.csv": "id,v,seq,op\n1,a,1,I\n2,b,1,I\n3,c,1,I\n"}
			lw, rw := newWS(t, files), newWS(t, files)
			newS3Lake(t, rw.dir)
			rl, rr := testRunner(t), testRunner(t)
			batch2 := map[string]string{"data/changes.csv": "id,v,seq,op\n1,a2,2,U\n2,,2,D\n4,d,1,I\n3,old,0,U\n"}
			lp := lw.table("silver")
			rsnap := rw.load()
			rp := rsnap.Layout.TablePath(workspace.ParseTableName("silver", "", ""))
			for i, req := range []Request{{}, {}, {Refresh: "FULL"}, {}} {
				if i == 1 {
					lw.write(batch2)
					rw.write(batch2)
				}
				mustRun(t, rl, lw.load(), req)
				mustRun(t, rr, rw.load(), req)
				if lv, rv := version(t, lp), version(t, rp); lv != rv {
					t.Fatalf("step %d: version %d in the bucket, %d locally", i, rv, lv)
				}
				if got, want := s3TableRows(t, rr, rp), s3TableRows(t, rl, lp); !reflect.DeepEqual(got, want) {
					t.Fatalf("step %d: rows in the bucket %v, locally %v", i, got, want)
				}
			}
			got := deltaRSTables(t, lp, rp)
			if !reflect.DeepEqual(got[0], got[1]) || len(got[0].Rows) != 3 {
				t.Fatalf("delta-rs: local %+v, bucket %+v", got[0], got[1])
			}
			noLocalLake(t, rw.dir)
		})
	}
}

// TestS3LakeSparkNewTableComment: on a Spark engine with the lake in a
// bucket, a sink with a comment whose table does not exist yet is refused
// before anything runs (LK232 at the sink's metadata): Spark creates bucket
// tables with Delta's DataFrame writer, which writes no description. Once
// the local engine created the table (with its comment), the Spark run is
// planned.
func TestS3LakeSparkNewTableComment(t *testing.T) {
	w := newWS(t, map[string]string{"pipelines/pl.yaml": `name: pl
nodes:
- name: a
  sources:
  - path: ../data/a/
    format: JSONL
  sinks:
  - table_name: commented
    mode: APPEND
    metadata:
      comment: the rows of a
`, "data/a/1.jsonl": jsonl("a", 0, 3, "")})
	newS3Lake(t, w.dir)
	r := testRunner(t)
	spark := sparkBucket{Engine: &fakeEngine{Engine: r.local}}
	r.cfg.Engine = spark
	pe := planErr(t, r, w.load(), Request{})
	if !hasDiag(pe, validate.CodeBucketSparkNew, "creates table commented in the bucket with a comment") {
		t.Fatalf("no LK232: %v", pe.Diagnostics)
	}
	for _, d := range pe.Diagnostics {
		if d.Code == validate.CodeBucketSparkNew && d.Line != 11 {
			t.Errorf("LK232 at line %d, want 11 (the metadata)", d.Line)
		}
	}
	r.cfg.Engine = r.local
	mustRun(t, r, w.load(), Request{})
	r.cfg.Engine = spark
	if _, err := r.Plan(context.Background(), w.load(), Request{}); err != nil {
		t.Fatalf("the table exists: %v", err)
	}
}

// TestPythonLacks: the check behind needDeltaRS names the modules the
// interpreter cannot import, and says so of an interpreter that cannot run.
func TestPythonLacks(t *testing.T) {
	py := s3test.Python()
	if _, err := exec.LookPath(py); err != nil {
		t.Skipf("no %s: %v", py, err)
	}
	for _, tc := range []struct {
		py      string
		modules []string
		want    string
	}{
		{py: py, modules: []string{"json", "os"}},
		{py: py, modules: []string{"json", "no_such_module_lk", "nor_this_one_lk"}, want: "has no module no_such_module_lk, nor_this_one_lk"},
		{py: filepath.Join(t.TempDir(), "python"), modules: []string{"json"}, want: "cannot run"},
	} {
		err := pythonLacks(t.Context(), tc.py, tc.modules...)
		if tc.want == "" && err != nil || tc.want != "" && (err == nil || !strings.Contains(err.Error(), tc.want)) {
			t.Errorf("pythonLacks(%s, %v) = %v, want %q", tc.py, tc.modules, err, tc.want)
		}
	}
}
