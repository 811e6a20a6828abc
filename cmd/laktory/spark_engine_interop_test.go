package main

import (
	"context"
	"encoding/json"
	"fmt"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/laktory/workbench/delta"
	"github.com/laktory/workbench/runner/history"
	"github.com/laktory/workbench/workspace"
	"github.com/laktory/workbench/workspace/workspacetest"
)

// The demo's pipelines the Spark engine check runs and the tables it
// compares: every step covers what these lists name.
var (
	sparkCheckPipelines = []string{"pl-prices", "pl-client-acme", "pl-client-globex", "pl-events"}
	sparkCheckTables    = []string{"prices", "all_orders", "gld_prices_a", "events"}
)

// TestInteropSparkEngine runs the demo's pipelines (sparkCheckPipelines:
// its job pipelines and its declarative pl-events) on the local engine and on Spark through Spark Connect
// (laktory run --engine spark), each engine in a workspace of its own, and
// compares the tables the two wrote (sparkCheckTables), row for row with
// delta-rs, after each step of demo/: the first run, new landing files
// (an incremental run), a FULL refresh of one writer of the shared table
// prices, a full refresh of pl-events (its table cleared once, the once
// flow run again), RESET with TRUNCATE of prices (then an incremental
// run), and a
// FULL refresh on Spark of one writer of the shared all_orders while the
// local engine refreshes its other writer in the same table (both succeed,
// retrying Delta's conflicts; the table ends as the two refreshes one after
// the other leave it locally). It logs the wall time of each step per
// engine and, of each Spark run, its calls to Spark Connect (counted by a
// proxy in front of the server), its SQL executions on the driver and
// their durations (the Spark UI's REST API), against the latency of a
// trivial query: where the per-call latency dominates. cancel/ proves that cancelling a run on Spark, by Ctrl-C
// (SIGINT) or by Run.Cancel (the TUI's x), leaves no job running on the
// server, as its REST API tells.
//
// It is opt-in, as TestInteropSpark: it runs when LAKTORY_SPARK_PYTHON is
// a Python with pyspark and delta-spark, and needs LAKTORY_PYTHON (a
// Python with deltalake). It starts a Spark Connect server with
// scripts/interop/spark_connect.sh (LAKTORY_SPARK_CONNECT_MODE local, the
// default, for local[2]; cluster for a standalone master with two
// workers) and stops it, unless LAKTORY_SPARK_REMOTE names a running one
// (with LAKTORY_SPARK_UI, its web UI http://HOST:PORT, for cancel/):
//
//	LAKTORY_SPARK_PYTHON=$PWD/.venv-spark/bin/python LAKTORY_PYTHON=$PWD/.venv/bin/python \
//	  go test ./cmd/laktory -run TestInteropSparkEngine -timeout 60m -v
//
// A step of demo/ builds on the ones before it: to run some, name them
// all, e.g. -run 'TestInteropSparkEngine/demo/(first_run|concurrent_writer)'.
func TestInteropSparkEngine(t *testing.T) {
	sparkPy := sparkOptIn(t)
	py := deltaPython(t)
	srv := sparkConnect(t, sparkPy)
	t.Run("demo", func(t *testing.T) { checkDemoOnEngines(t, py, srv, nil) })
	t.Run("cancel", func(t *testing.T) { checkSparkCancel(t, srv) })
}

// engineCheck runs the demo on both engines, each in its own workspace.
type engineCheck struct {
	py    string
	dirs  map[string]string   // the workspace of each engine
	flags map[string][]string // the engine flags of laktory run
	// proxy counts the calls of the Spark runs.
	proxy *sparkProxy
	ui    string // the Spark UI, "" when unknown
	// lakes are the engines' lakes in a bucket (nil: the workspaces'
	// local lakes).
	lakes map[string]string
	// counted: every step before this one ran (-run may skip some), so
	// the row counts a step expects hold.
	counted bool
	mu      sync.Mutex
	times   []stepTime
}

// stepTime is the wall time of one laktory run of a step.
type stepTime struct {
	step, engine string
	took         time.Duration
	calls        int           // calls to Spark Connect
	latency      time.Duration // calls x the latency of a call of a trivial query
	queries      int           // SQL executions on Spark
	spark        time.Duration // their durations
}

// engines are the engines of the check, the reference first.
var engines = []string{"local", "spark"}

// cliRun is the outcome of one laktory run --json.
type cliRun struct {
	code   int
	res    runResult
	stderr string
	took   time.Duration
	// calls, queries and spark are a Spark run's calls to Spark Connect,
	// the SQL executions it made and their durations; perCall is the
	// latency of a call of a trivial query just before it.
	calls   rpcCalls
	perCall time.Duration
	queries int
	spark   time.Duration
}

// summary is what the run's summary says of its end.
func (r cliRun) summary() string {
	if r.res.Summary == nil {
		return "no summary"
	}
	var b strings.Builder
	fmt.Fprintf(&b, "%s %s", r.res.Summary.Status, r.res.Summary.Err)
	for _, ts := range r.res.Summary.Tasks {
		if ts.Err != "" {
			fmt.Fprintf(&b, "\n  %s: %s", ts.Key, ts.Err)
		}
	}
	return b.String()
}

// retries are the commit retries of the run.
func (r cliRun) retries() []history.Retry {
	if r.res.Summary == nil {
		return nil
	}
	var out []history.Retry
	for _, ts := range r.res.Summary.Tasks {
		out = append(out, ts.Retries...)
	}
	return out
}

// run runs laktory run --yes --json in dir on engine e (safe from any
// goroutine: it does not fail the test).
func (c *engineCheck) run(t *testing.T, e, dir string, args ...string) cliRun {
	work := func() (int, time.Duration) {
		if e != "spark" || c.ui == "" {
			return 0, 0
		}
		n, d, err := sparkSQLWork(t.Context(), c.ui)
		if err != nil {
			t.Logf("the Spark UI: %v", err)
		}
		return n, d
	}
	var perCall time.Duration
	if e == "spark" {
		// The machine's load changes: the latency of the moment.
		q, calls := sparkLatency(t, c.proxy, 5)
		perCall = q / time.Duration(max(calls.total(), 1))
		c.proxy.take() // its session's release: not the run's
	}
	n0, d0 := work()
	start := time.Now()
	code, out, errb := runCLI(t, nil, append(append([]string{"run", dir, "--yes", "--json"}, args...), c.flags[e]...)...)
	r := cliRun{code: code, stderr: errb, took: time.Since(start)}
	if e == "spark" {
		n1, d1 := work()
		r.calls, r.perCall, r.queries, r.spark = c.proxy.take(), perCall, n1-n0, d1-d0
	}
	if err := json.Unmarshal([]byte(out), &r.res); err != nil {
		r.stderr += fmt.Sprintf("\n(stdout is not the JSON of a run: %v)\n%s", err, out)
	}
	return r
}

// must runs laktory run in dir on engine e, records its wall time under
// step and fails the test unless it succeeded.
func (c *engineCheck) must(t *testing.T, step, e, dir string, args ...string) cliRun {
	t.Helper()
	r := c.run(t, e, dir, args...)
	c.record(t, step, e, r)
	if r.code != ExitOK {
		t.Fatalf("%s on the %s engine: exit %d: %s\n%s", step, e, r.code, r.summary(), r.stderr)
	}
	return r
}

func (c *engineCheck) record(t *testing.T, step, e string, r cliRun) {
	t.Helper()
	c.mu.Lock()
	c.times = append(c.times, stepTime{step, e, r.took, r.calls.total(), time.Duration(r.calls.total()) * r.perCall, r.queries, r.spark})
	c.mu.Unlock()
	calls := ""
	if e == "spark" {
		calls = fmt.Sprintf(", %s (a call of a trivial query: %s), %d SQL executions taking %s", r.calls, r.perCall.Round(time.Millisecond), r.queries, r.spark.Round(10*time.Millisecond))
	}
	t.Logf("%s on the %s engine: %s, %d retries%s", step, e, r.took.Round(10*time.Millisecond), len(r.retries()), calls)
	for _, x := range r.retries() {
		t.Logf("  retry %d of %s (%s) after: %s", x.Attempt, x.Table, x.Task, x.Error)
	}
}

// step runs laktory run with args on each engine in its workspace, then
// compares the tables; want, when it names a table, is its row count
// (checked when every earlier step ran).
func (c *engineCheck) step(t *testing.T, name string, want map[string]int64, args ...string) {
	t.Helper()
	for _, e := range engines {
		c.must(t, name, e, c.dirs[e], args...)
	}
	c.compare(t, name, want)
}

// compare compares the tables of the two workspaces.
func (c *engineCheck) compare(t *testing.T, step string, want map[string]int64) {
	t.Helper()
	for _, table := range sparkCheckTables {
		n := compareEngineTables(t, c.py, step, table, c.table("local", table), c.table("spark", table))
		if w, ok := want[table]; ok && c.counted && n != w {
			t.Errorf("%s: %s has %d rows, want %d", step, table, n, w)
		}
	}
}

// table is the location of a demo table in engine e's lake.
func (c *engineCheck) table(e, name string) string {
	l, _ := workspace.NewLayout(c.dirs[e], c.lakes[e], "")
	return l.TablePath(workspace.ParseTableName(name, "", ""))
}

// version is the version of a demo table in engine e's lake.
func (c *engineCheck) version(t *testing.T, e, name string) int64 {
	t.Helper()
	snap, err := delta.LoadSnapshot(t.Context(), c.table(e, name))
	if err != nil {
		t.Fatalf("%s on the %s engine: %v", name, e, err)
	}
	return snap.Version()
}

// checkDemoOnEngines runs the steps of the demo on both engines, each on
// its lake (lakes; nil: the workspaces' own); each step builds on the
// ones before it.
func checkDemoOnEngines(t *testing.T, py string, srv sparkServer, lakes map[string]string) {
	proxy := startSparkProxy(t, srv.remote)
	c := &engineCheck{py: py, dirs: map[string]string{"local": workspacetest.Demo(t), "spark": workspacetest.Demo(t)},
		flags: map[string][]string{"spark": {"--engine", "spark", "--remote", proxy.remote}}, proxy: proxy, ui: srv.ui, lakes: lakes}
	for e, lake := range lakes {
		workspacetest.Write(t, c.dirs[e], map[string]string{workspace.ConfigFileName: "lake: " + lake + "\n"})
	}
	q, calls := sparkLatency(t, proxy, 20)
	t.Logf("a trivial query (SELECT 1) on Spark: %s (median of 20), %s", q.Round(time.Millisecond), calls)
	var all []string
	for _, p := range sparkCheckPipelines {
		all = append(all, "-p", p)
	}
	steps := []struct {
		name string
		run  func(t *testing.T)
	}{
		{"first_run", func(t *testing.T) {
			c.step(t, "first run", map[string]int64{"prices": 200, "all_orders": 160, "gld_prices_a": 100, "events": 160}, all...)
		}},
		{"new_landing_file", func(t *testing.T) {
			for _, e := range engines {
				workspacetest.LandSpare(t, c.dirs[e])
			}
			c.step(t, "new landing files", map[string]int64{"prices": 300, "all_orders": 240, "gld_prices_a": 150, "events": 190}, all...)
		}},
		{"full_refresh", func(t *testing.T) {
			c.step(t, "FULL refresh of pl-prices.feed_a", map[string]int64{"prices": 300, "all_orders": 240, "gld_prices_a": 150},
				"--select", "pl-prices.feed_a", "--refresh", "FULL")
		}},
		{"full_refresh_events", func(t *testing.T) {
			c.step(t, "full refresh of pl-events", map[string]int64{"events": 190}, "-p", "pl-events", "--refresh", "FULL")
		}},
		{"reset_truncate", func(t *testing.T) {
			c.step(t, "RESET TRUNCATE of pl-prices", map[string]int64{"prices": 0, "all_orders": 240, "gld_prices_a": 0},
				"-p", "pl-prices", "--refresh", "RESET", "--reset-mode", "TRUNCATE")
			c.step(t, "incremental run after the RESET", map[string]int64{"prices": 300, "all_orders": 240, "gld_prices_a": 150}, all...)
		}},
		{"concurrent_writer", c.concurrentWriter},
	}
	ran := 0
	for i, s := range steps {
		ok := t.Run(s.name, func(t *testing.T) {
			c.counted = ran == i // the counts hold after every earlier step
			ran++
			s.run(t)
		})
		if !ok {
			break // the next steps build on this one
		}
	}
	c.logTimes(t)
}

// concurrentWriter refreshes (FULL) acme's rows of the shared all_orders
// on Spark while the local engine refreshes globex's rows of the same
// table in the same workspace: each time Spark's DELETE of acme's rows
// goes out (the proxy sees it), a local refresh of globex starts, 4 times
// at most. On a local lake it commits while Spark deletes (fewer than the
// 5 retries, so that each side can win): both succeed, retrying the
// commits that lost a race. On a bucket lake the Spark run holds the
// table's lease (concurrentWriterLeased). Either way the table ends as
// the two refreshes one after the other leave it on the local engine.
func (c *engineCheck) concurrentWriter(t *testing.T) {
	const step = "concurrent local writer"
	acme := []string{"-p", "pl-client-acme", "--refresh", "FULL"}
	globex := []string{"-p", "pl-client-globex", "--refresh", "FULL"}
	c.must(t, step+": reference, acme", "local", c.dirs["local"], acme...)
	c.must(t, step+": reference, globex", "local", c.dirs["local"], globex...)

	if c.lakes != nil && delta.IsRemoteLocation(c.lakes["spark"]) {
		c.concurrentWriterLeased(t, step, acme, globex)
		return
	}
	deletes := c.proxy.watch("DELETE FROM")
	sparkDone := make(chan cliRun, 1)
	go func() { sparkDone <- c.run(t, "spark", c.dirs["spark"], acme...) }()
	var locals []cliRun
	var sp cliRun
	for done := false; !done; {
		select {
		case sp = <-sparkDone:
			done = true
		case <-deletes:
			if len(locals) < 4 {
				locals = append(locals, c.run(t, "local", c.dirs["spark"], globex...))
			}
		}
	}
	c.record(t, step+": Spark FULL refresh of acme", "spark", sp)
	for i, l := range locals {
		c.record(t, fmt.Sprintf("%s: local FULL refresh %d of globex, meanwhile", step, i+1), "local", l)
	}
	if sp.code != ExitOK {
		t.Fatalf("the Spark FULL refresh of acme with a concurrent local writer: exit %d: %s\n%s", sp.code, sp.summary(), sp.stderr)
	}
	if len(locals) == 0 {
		t.Fatalf("the Spark FULL refresh of acme ended (in %s) before the local writer ran", sp.took)
	}
	retries := len(sp.retries())
	for i, l := range locals {
		if l.code != ExitOK {
			t.Fatalf("local FULL refresh %d of globex during the Spark refresh: exit %d: %s\n%s", i+1, l.code, l.summary(), l.stderr)
		}
		retries += len(l.retries())
	}
	t.Logf("%s: %d local refreshes of globex during the Spark refresh of acme; %d retries in all (Spark %d)", step, len(locals), retries, len(sp.retries()))
	c.compare(t, step, nil)
}

// concurrentWriterLeased is concurrentWriter on a bucket lake: the Spark
// run takes all_orders' lease before it changes anything, and the proxy
// holds its DELETE of acme's rows from Spark until 3 local FULL
// refreshes of globex, one after the other, have ended: the lease is
// held all that time, so each of them is refused at its commit, having
// written nothing (its version unchanged), every time. Then the DELETE
// goes on, the Spark run ends and releases the lease, and a local refresh
// of globex succeeds.
func (c *engineCheck) concurrentWriterLeased(t *testing.T, step string, acme, globex []string) {
	held, release := c.proxy.hold(t, "DELETE FROM")
	sparkDone := make(chan cliRun, 1)
	go func() { sparkDone <- c.run(t, "spark", c.dirs["spark"], acme...) }()
	var sp cliRun
	select {
	case <-held:
	case sp = <-sparkDone:
		c.record(t, step+": Spark FULL refresh of acme", "spark", sp)
		t.Fatalf("the Spark FULL refresh of acme ended (exit %d, in %s) before its DELETE: %s\n%s", sp.code, sp.took, sp.summary(), sp.stderr)
	}
	before := c.version(t, "spark", "all_orders")
	var locals []cliRun
	for range 3 {
		locals = append(locals, c.run(t, "local", c.dirs["spark"], globex...))
	}
	after := c.version(t, "spark", "all_orders")
	release()
	sp = <-sparkDone
	c.record(t, step+": Spark FULL refresh of acme", "spark", sp)
	for i, l := range locals {
		c.record(t, fmt.Sprintf("%s: local FULL refresh %d of globex, meanwhile", step, i+1), "local", l)
	}
	if sp.code != ExitOK {
		t.Fatalf("the Spark FULL refresh of acme with a concurrent local writer: exit %d: %s\n%s", sp.code, sp.summary(), sp.stderr)
	}
	for i, l := range locals {
		if l.code == ExitOK || !strings.Contains(l.summary(), "is leased by run") || !strings.Contains(l.summary(), "nothing was written") {
			t.Fatalf("local FULL refresh %d of globex while the Spark run held the lease: exit %d, not refused by the lease: %s\n%s", i+1, l.code, l.summary(), l.stderr)
		}
	}
	if after != before {
		t.Fatalf("all_orders went from version %d to %d while the Spark run held its lease and the local refreshes were refused", before, after)
	}
	t.Logf("%s: %d local refreshes of globex while the Spark refresh of acme held the lease (its DELETE held), each refused, all_orders at version %d; Spark %d retries", step, len(locals), after, len(sp.retries()))
	c.must(t, step+": local FULL refresh of globex after the Spark run", "local", c.dirs["spark"], globex...)
	c.compare(t, step, nil)
}

// logTimes logs the wall times of the steps per engine, the calls of
// the Spark runs to Spark Connect and the share of the wall time the
// per-call latency of a trivial query accounts for (calls x that latency,
// measured before each run).
func (c *engineCheck) logTimes(t *testing.T) {
	c.mu.Lock()
	defer c.mu.Unlock()
	type row struct {
		local, spark, queryTime, latency time.Duration
		calls, queries                   int
	}
	var order []string
	per := map[string]*row{}
	for _, s := range c.times {
		r := per[s.step]
		if r == nil {
			r = &row{}
			per[s.step] = r
			order = append(order, s.step)
		}
		if s.engine == "local" {
			r.local += s.took
		} else {
			r.spark += s.took
			r.calls += s.calls
			r.latency += s.latency
			r.queries += s.queries
			r.queryTime += s.spark
		}
	}
	cell := func(d time.Duration) string {
		if d == 0 {
			return "-"
		}
		return d.Round(10 * time.Millisecond).String()
	}
	var b strings.Builder
	fmt.Fprintf(&b, "wall times (x latency: calls x the latency of a call of a trivial query; SQL: Spark's SQL executions and their durations):\n%-64s %8s %9s %6s %9s %6s %5s %9s\n",
		"step", "local", "spark", "calls", "x latency", "share", "SQL", "SQL time")
	for _, s := range order {
		r := per[s]
		floor, share := r.latency, "-"
		if r.spark > 0 {
			share = fmt.Sprintf("%.0f%%", 100*floor.Seconds()/r.spark.Seconds())
		}
		fmt.Fprintf(&b, "%-64s %8s %9s %6d %9s %6s %5d %9s\n", s, cell(r.local), cell(r.spark), r.calls, cell(floor), share, r.queries, cell(r.queryTime))
	}
	t.Log(b.String())
}

// sparkREST gets path of the REST API of the Spark UI at ui
// (http://host:port) into v.
func sparkREST(ctx context.Context, ui, path string, v any) error {
	ctx, cancel := context.WithTimeout(ctx, 30*time.Second)
	defer cancel()
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, ui+"/api/v1/"+path, nil)
	if err != nil {
		return err
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		return err
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		return fmt.Errorf("GET %s: %s", req.URL, resp.Status)
	}
	return json.NewDecoder(resp.Body).Decode(v)
}

// sparkApps are the ids of the applications of the Spark UI at ui.
func sparkApps(ctx context.Context, ui string) ([]string, error) {
	var apps []struct{ ID string }
	if err := sparkREST(ctx, ui, "applications", &apps); err != nil {
		return nil, err
	}
	ids := make([]string, len(apps))
	for i, a := range apps {
		ids[i] = a.ID
	}
	return ids, nil
}

// sparkSQLWork counts the SQL executions the Spark UI at ui has seen and
// sums their durations: Spark's own time of the queries.
func sparkSQLWork(ctx context.Context, ui string) (int, time.Duration, error) {
	apps, err := sparkApps(ctx, ui)
	if err != nil {
		return 0, 0, err
	}
	n, total := 0, time.Duration(0)
	for _, app := range apps {
		var execs []struct{ Duration int64 }
		if err := sparkREST(ctx, ui, "applications/"+app+"/sql?details=false&length=1000000", &execs); err != nil {
			return 0, 0, err
		}
		n += len(execs)
		for _, e := range execs {
			total += time.Duration(e.Duration) * time.Millisecond
		}
	}
	return n, total, nil
}

// sparkServer is the Spark Connect server of the check and its web UI.
type sparkServer struct {
	remote string
	ui     string // http://host:port, "" when unknown
}

// sparkOptIn skips t unless the opt-in Spark checks are asked for
// (LAKTORY_SPARK_PYTHON, a Python with pyspark and delta-spark, and not
// -short), and returns that Python.
func sparkOptIn(t *testing.T) string {
	t.Helper()
	sparkPy := os.Getenv("LAKTORY_SPARK_PYTHON")
	if sparkPy == "" {
		t.Skip("LAKTORY_SPARK_PYTHON not set: the Spark engine check is opt-in (scripts/interop/spark_connect.sh)")
	}
	if testing.Short() {
		t.Skip("the Spark engine check takes minutes: not in -short")
	}
	return sparkPy
}

// deltaPython is LAKTORY_PYTHON, the Python with deltalake that compares
// the engines' tables; the check fails without it.
func deltaPython(t *testing.T) string {
	t.Helper()
	py := os.Getenv("LAKTORY_PYTHON")
	if py == "" {
		t.Fatal("LAKTORY_PYTHON is not set: the tables are compared with deltalake (scripts/requirements-interop.txt)")
	}
	return py
}

// sparkConnect returns the Spark Connect server of the test:
// $LAKTORY_SPARK_REMOTE (and $LAKTORY_SPARK_UI), or one started for it
// (and stopped at its end).
func sparkConnect(t *testing.T, sparkPy string) sparkServer {
	t.Helper()
	if r := os.Getenv("LAKTORY_SPARK_REMOTE"); r != "" {
		return sparkServer{remote: r, ui: os.Getenv("LAKTORY_SPARK_UI")}
	}
	script, err := filepath.Abs(filepath.Join("..", "..", "scripts", "interop", "spark_connect.sh"))
	if err != nil {
		t.Fatal(err)
	}
	mode := os.Getenv("LAKTORY_SPARK_CONNECT_MODE")
	if mode == "" {
		mode = "local"
	}
	state := t.TempDir()
	uiPort := freePort(t)
	env := append(os.Environ(), "LAKTORY_SPARK_PYTHON="+sparkPy, "SPARK_CONNECT_DIR="+state, "SPARK_CONNECT_S3=1",
		"SPARK_CONNECT_PORT="+freePort(t), "SPARK_MASTER_PORT="+freePort(t), "SPARK_UI_PORT="+uiPort)
	sh := func(ctx context.Context, args ...string) (string, error) {
		cmd := exec.CommandContext(ctx, "bash", append([]string{script}, args...)...)
		cmd.Env = env
		var stderr strings.Builder
		cmd.Stderr = &stderr
		out, err := cmd.Output()
		if err != nil {
			log, _ := os.ReadFile(filepath.Join(state, "connect.log"))
			if len(log) > 4000 {
				log = log[len(log)-4000:]
			}
			return "", fmt.Errorf("spark_connect.sh %s: %w: %s\nthe end of connect.log:\n%s", strings.Join(args, " "), err, stderr.String(), log)
		}
		return strings.TrimSpace(string(out)), nil
	}
	t.Cleanup(func() {
		if _, err := sh(context.Background(), "stop"); err != nil {
			t.Error(err)
		}
	})
	start := time.Now()
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Minute)
	defer cancel()
	out, err := sh(ctx, "start", mode)
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(out, "\n")
	remote := lines[len(lines)-1]
	t.Logf("Spark Connect (%s) at %s, started in %s", mode, remote, time.Since(start).Round(100*time.Millisecond))
	return sparkServer{remote: remote, ui: "http://127.0.0.1:" + uiPort}
}

// freePort is a TCP port of 127.0.0.1 free a moment ago.
func freePort(t *testing.T) string {
	t.Helper()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	return strconv.Itoa(l.Addr().(*net.TCPAddr).Port)
}

// tablePath is the lake path of a demo table.
func tablePath(dir, name string) string {
	l, _ := workspace.NewLayout(dir, "", "")
	return l.TablePath(workspace.ParseTableName(name, "", ""))
}

// compareEngineTables fails the test unless the two Delta tables have the same
// schema and the same rows, as delta-rs reads them; it returns the rows of a.
func compareEngineTables(t *testing.T, py, step, table, a, b string) int64 {
	t.Helper()
	script, err := filepath.Abs(filepath.Join("..", "..", "scripts", "interop", "compare_tables.py"))
	if err != nil {
		t.Fatal(err)
	}
	out, err := exec.Command(py, script, a, b).Output()
	var res struct {
		Error      string
		SameSchema bool  `json:"same_schema"`
		SameRows   bool  `json:"same_rows"`
		SchemaA    any   `json:"schema_a"`
		SchemaB    any   `json:"schema_b"`
		RowsA      int64 `json:"rows_a"`
		RowsB      int64 `json:"rows_b"`
		OnlyA      any   `json:"only_a"`
		OnlyB      any   `json:"only_b"`
	}
	if jerr := json.Unmarshal(out, &res); jerr != nil || err != nil || res.Error != "" {
		t.Fatalf("%s: compare %s: %v %v %s: %s", step, table, err, jerr, res.Error, out)
	}
	if !res.SameSchema || !res.SameRows {
		t.Errorf("%s: table %s differs between the engines:\n schema local %v\n schema spark %v\n rows local %d, spark %d\n only local %v\n only spark %v",
			step, table, res.SchemaA, res.SchemaB, res.RowsA, res.RowsB, res.OnlyA, res.OnlyB)
		return res.RowsA
	}
	t.Logf("%s: %s: the same %d rows on both engines", step, table, res.RowsA)
	return res.RowsA
}
