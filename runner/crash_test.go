//go:build unix

package runner

import (
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/laktory/workbench/delta"
	"github.com/laktory/workbench/workspace"
	"github.com/laktory/workbench/workspace/workspacetest"
)

// The crash matrix: for every fail point a FULL, a RESET, a RESET with
// DROP or TRUNCATE and a streaming micro-batch pass, a child process (this
// test binary, TestCrashHelper) runs the refresh and exits at the point;
// then a run of each refresh mode finishes or redoes what it left, and the
// rows of every writer are checked exactly (count and distinct keys) with
// our reader and with delta-rs, after that run and after a last normal run
// of everything. By default each point is rerun with one mode (rotating
// over the modes); -crash.full reruns every point with every mode.
var crashFull = flag.Bool("crash.full", false, "crash matrix: rerun every fail point with every refresh mode")

const (
	envCrashDir     = "LAKTORY_CRASH_DIR"
	envCrashRequest = "LAKTORY_CRASH_REQUEST"
)

// crashPipeline: a and b stream into the shared table prices (writer
// column), c streams a's files into the regular table solo; one file per
// micro-batch.
const crashPipeline = `name: pl
nodes:
- name: a
  sources:
  - path: ../data/a/
    format: JSONL
    as_stream: true
    reader_kwargs: {maxFilesPerTrigger: 1}
  sinks:
  - table_name: prices
    mode: APPEND
    shared: true
- name: b
  sources:
  - path: ../data/b/
    format: JSONL
    as_stream: true
    reader_kwargs: {maxFilesPerTrigger: 1}
  sinks:
  - table_name: prices
    mode: APPEND
    shared: true
- name: c
  sources:
  - path: ../data/a/
    format: JSONL
    as_stream: true
    reader_kwargs: {maxFilesPerTrigger: 1}
  sinks:
  - table_name: solo
    mode: APPEND
`

// crashOp is a refresh of the model: what it does to the rows of the
// writers it selects (a writer's rows are either all the data it can read,
// or none).
type crashOp struct {
	name string
	req  Request
}

var (
	opIncremental = func(sel string) crashOp { return crashOp{"INCREMENTAL", Request{Selectors: []string{sel}}} }
	crashModes    = []func(sel string) crashOp{
		opIncremental,
		func(sel string) crashOp { return crashOp{"FULL", Request{Selectors: []string{sel}, Refresh: "FULL"}} },
		func(sel string) crashOp { return crashOp{"RESET", Request{Selectors: []string{sel}, Refresh: "RESET"}} },
		func(sel string) crashOp {
			return crashOp{"RESET+DROP", Request{Selectors: []string{sel}, Refresh: "RESET", ResetMode: "DROP"}}
		},
		func(sel string) crashOp {
			return crashOp{"RESET+TRUNCATE", Request{Selectors: []string{sel}, Refresh: "RESET", ResetMode: "TRUNCATE"}}
		},
	}
)

// apply is the model: rows per writer after op, from rows, when each
// writer can read all (its data).
func (op crashOp) apply(rows, all map[string]int) map[string]int {
	out := map[string]int{}
	for k, v := range rows {
		out[k] = v
	}
	sel := op.req.Selectors[0]
	switch {
	case op.req.Refresh == "" || op.req.Refresh == "FULL":
		out[sel] = all[sel]
	case op.req.ResetMode != "" && sel != "c":
		out["a"], out["b"] = 0, 0 // the whole shared table, both writers' checkpoints
	default:
		out[sel] = 0
	}
	return out
}

// crashFamily is a refresh killed at each of its fail points.
type crashFamily struct {
	name   string
	op     crashOp
	points []string
	// setup: a first normal run (else the refresh is the first run:
	// it creates the tables); land: two new files for a before the
	// refresh (two micro-batches).
	setup, land bool
}

var crashFamilies = []crashFamily{
	{name: "FULL shared", op: crashModes[1]("a"), setup: true, points: []string{FailRefreshIntent, FailRefreshReset, FailBatchOffsets,
		FailRefreshStaged, delta.FailCommitAfter + ":1", FailRefreshDeleted, delta.FailCommitAfter + ":2", FailBatchCommit, FailRefreshDone}},
	{name: "RESET shared", op: crashModes[2]("a"), setup: true, points: []string{FailRefreshIntent, delta.FailCommitAfter + ":1", FailRefreshReset}},
	{name: "FULL regular", op: crashModes[1]("c"), setup: true, points: []string{FailRefreshIntent, delta.FailDropRenamed, FailRefreshReset,
		delta.FailCommitBefore + ":1", FailBatchCommit, FailRefreshDone}},
	{name: "RESET regular", op: crashModes[2]("c"), setup: true, points: []string{FailRefreshIntent, delta.FailDropRenamed, FailRefreshReset}},
	{name: "RESET+DROP", op: crashModes[3]("a"), setup: true, points: []string{FailWholeIntent, delta.FailDropRenamed, FailWholeReset, FailWholeDone}},
	{name: "RESET+TRUNCATE", op: crashModes[4]("a"), setup: true, points: []string{FailWholeIntent, FailWholeReset, FailWholeDone}},
	{name: "streaming batch", op: opIncremental("a"), setup: true, land: true, points: []string{FailBatchOffsets, FailBatchSink, FailBatchCommit,
		FailBatchSink + ":2"}},
	{name: "CREATE", op: opIncremental("a"), points: []string{delta.FailCommitBefore + ":1", delta.FailCommitAfter + ":1"}},
}

// TestCrashHelper is the process the crash matrix stops at a fail point.
func TestCrashHelper(t *testing.T) {
	dir := os.Getenv(envCrashDir)
	if dir == "" {
		t.Skip("the process the crash matrix stops")
	}
	var req Request
	if err := json.Unmarshal([]byte(os.Getenv(envCrashRequest)), &req); err != nil {
		t.Fatal(err)
	}
	r := testRunner(t)
	run(t, r, workspacetest.LoadDir(t, dir, workspace.Options{}), req)
	t.Fatalf("the run did not stop at %s", os.Getenv(delta.FailPointEnv))
}

// crashAt runs req on the workspace in a child process stopped at point.
func crashAt(t *testing.T, dir, point string, req Request) {
	t.Helper()
	b, _ := json.Marshal(req)
	cmd := exec.CommandContext(context.Background(), os.Args[0], "-test.run=^TestCrashHelper$", "-test.count=1")
	cmd.Env = append(os.Environ(), envCrashDir+"="+dir, envCrashRequest+"="+string(b), delta.FailPointEnv+"="+point)
	out, err := cmd.CombinedOutput()
	var ee *exec.ExitError
	if !errors.As(err, &ee) || ee.ExitCode() != delta.FailPointExit {
		t.Fatalf("the child did not stop at %s (%v):\n%s", point, err, out)
	}
}

// crashCheck is a table version whose rows per writer delta-rs must read
// as want.
type crashCheck struct {
	Path    string `json:"path"`
	Version int64  `json:"version"`
	Column  string `json:"column"`
	want    map[string]int
	what    string
}

func TestCrashMatrix(t *testing.T) {
	if testing.Short() {
		t.Skip("re-executes the test binary")
	}
	var (
		mu     sync.Mutex
		checks []crashCheck
		times  = map[string]time.Duration{}
		// The workspaces outlive the subtests: delta-rs reads them all at
		// the end, in one Python process.
		root  = t.TempDir()
		names []string
	)
	i := 0
	for _, fam := range crashFamilies {
		for _, point := range fam.points {
			modes := crashModes
			if !*crashFull {
				modes = crashModes[i%len(crashModes) : i%len(crashModes)+1]
			}
			i++
			for _, mode := range modes {
				rerun := mode(fam.op.req.Selectors[0])
				name := fam.name + "/" + point + "/" + rerun.name
				dir := filepath.Join(root, fmt.Sprint(len(names)))
				names = append(names, name)
				t.Run(name, func(t *testing.T) {
					t.Parallel()
					start := time.Now()
					cs := crashCase(t, dir, fam, point, rerun)
					mu.Lock()
					checks, times[name] = append(checks, cs...), time.Since(start)
					mu.Unlock()
				})
			}
		}
	}
	t.Cleanup(func() {
		if t.Failed() {
			return
		}
		sort.Strings(names)
		var b strings.Builder
		for _, n := range names {
			fmt.Fprintf(&b, "\n  %-60s %s", n, times[n].Round(10*time.Millisecond))
		}
		t.Logf("%d crash cases:%s", len(names), b.String())
		checkWithDeltaRS(t, checks)
	})
}

// crashCase stops fam's refresh at point, reruns with rerun, then a normal
// run of everything, checking the rows per writer after each.
func crashCase(t *testing.T, dir string, fam crashFamily, point string, rerun crashOp) []crashCheck {
	workspacetest.Write(t, dir, map[string]string{"pipelines/pl.yaml": crashPipeline,
		"data/a/1.jsonl": jsonl("a", 0, 3, ""), "data/a/2.jsonl": jsonl("a", 3, 5, ""),
		"data/b/1.jsonl": jsonl("b", 0, 2, ""), "data/b/2.jsonl": jsonl("b", 2, 4, "")})
	w := &ws{t: t, dir: dir}
	old := time.Now().Add(-time.Hour)
	workspacetest.Ordered(t, w.dir, old, "data/a/1.jsonl", "data/a/2.jsonl", "data/b/1.jsonl", "data/b/2.jsonl")
	r := testRunner(t)
	snap := w.load()
	rows := map[string]int{"a": 0, "b": 0, "c": 0}
	all := map[string]int{"a": 5, "b": 4, "c": 5}
	if fam.setup {
		mustRun(t, r, snap, Request{})
		rows = all
	}
	if fam.land {
		w.write(map[string]string{"data/a/3.jsonl": jsonl("a", 5, 7, ""), "data/a/4.jsonl": jsonl("a", 7, 9, "")})
		workspacetest.Ordered(t, w.dir, old.Add(10*time.Minute), "data/a/3.jsonl", "data/a/4.jsonl")
		all = map[string]int{"a": 9, "b": 4, "c": 9}
	}
	op := fam.op
	op.req.Parallel = 1
	crashAt(t, w.dir, point, op.req)
	want := rerun.apply(fam.op.apply(rows, all), all)
	mustRun(t, r, snap, rerun.req)
	checks := crashRows(t, r, w, want, "after "+rerun.name)
	mustRun(t, r, snap, Request{})
	checks = append(checks, crashRows(t, r, w, all, "after the last normal run")...)
	// Nothing of the crash is left: no refresh records, no dropped tables.
	filepath.WalkDir(w.dir, func(p string, d os.DirEntry, err error) error {
		if err == nil && (strings.HasSuffix(p, ".refresh.json") || strings.Contains(d.Name(), ".dropped-")) {
			t.Errorf("left behind: %s", p)
		}
		return nil
	})
	return checks
}

// crashRows checks the rows per writer with our reader and returns the
// checks for delta-rs.
func crashRows(t *testing.T, r *Runner, w *ws, want map[string]int, when string) []crashCheck {
	t.Helper()
	var out []crashCheck
	for _, tb := range []struct {
		name, column string
		writers      map[string]string // writer id -> model writer
	}{
		{"prices", "_laktory_writer", map[string]string{"pl.a": "a", "pl.b": "b"}},
		{"solo", "", map[string]string{"": "c"}},
	} {
		path := w.table(tb.name)
		exp := map[string]int{}
		for id, m := range tb.writers {
			if want[m] > 0 {
				exp[id] = want[m]
			}
		}
		s, err := loadTable(context.Background(), path)
		if err != nil {
			t.Fatalf("%s: %s: %v", when, tb.name, err)
		}
		if s == nil {
			if len(exp) > 0 {
				t.Fatalf("%s: %s does not exist, want %v", when, tb.name, exp)
			}
			continue
		}
		col := "''"
		if tb.column != "" {
			col = quoteIdent(tb.column)
		}
		got := map[string]int{}
		for _, row := range query(t, r, path, "SELECT "+col+", count(*), count(DISTINCT k) FROM t GROUP BY 1") {
			var n, d int
			fmt.Sscan(row[1], &n)
			fmt.Sscan(row[2], &d)
			if n != d {
				t.Errorf("%s: %s: writer %q has %d rows but %d distinct keys (duplicates)", when, tb.name, row[0], n, d)
			}
			got[row[0]] = n
		}
		if fmt.Sprint(got) != fmt.Sprint(exp) {
			t.Fatalf("%s: %s rows per writer %v, want %v", when, tb.name, got, exp)
		}
		out = append(out, crashCheck{Path: path, Version: s.Version(), Column: tb.column, want: exp, what: when + ": " + tb.name})
	}
	return out
}

// checkWithDeltaRS reads every checked table version with delta-rs in one
// Python process.
func checkWithDeltaRS(t *testing.T, checks []crashCheck) {
	py := os.Getenv("LAKTORY_PYTHON")
	if py == "" {
		if os.Getenv("LAKTORY_REQUIRE_INTEROP") == "1" {
			t.Fatal("LAKTORY_PYTHON is not set: the crash matrix checks its tables with delta-rs")
		}
		t.Log("LAKTORY_PYTHON not set: the tables were not read with delta-rs")
		return
	}
	req := filepath.Join(t.TempDir(), "checks.json")
	b, _ := json.Marshal(checks)
	if err := os.WriteFile(req, b, 0o644); err != nil {
		t.Fatal(err)
	}
	out, err := exec.CommandContext(context.Background(), py, filepath.Join("testdata", "read_tables.py"), req).Output()
	if err != nil {
		if ee, ok := err.(*exec.ExitError); ok {
			t.Fatalf("read_tables.py: %v\n%s", err, ee.Stderr)
		}
		t.Fatal(err)
	}
	var res []struct {
		Rows     map[string]int `json:"rows"`
		Distinct map[string]int `json:"distinct"`
	}
	if err := json.Unmarshal(out, &res); err != nil || len(res) != len(checks) {
		t.Fatalf("read_tables.py: %v: %s", err, out)
	}
	for i, c := range checks {
		if fmt.Sprint(res[i].Rows) != fmt.Sprint(c.want) || fmt.Sprint(res[i].Distinct) != fmt.Sprint(c.want) {
			t.Errorf("delta-rs, %s (%s v%d): rows %v, distinct %v, want %v", c.what, c.Path, c.Version, res[i].Rows, res[i].Distinct, c.want)
		}
	}
	t.Logf("delta-rs read %d table versions as expected", len(checks))
}

// TestInterruptedRunHistory: a run stopped right after it committed the
// delete of a writer's rows (before it could record it) shows that delete,
// with its rows, once the next run finished its refresh; the next run says
// what it did about it.
func TestInterruptedRunHistory(t *testing.T) {
	if testing.Short() {
		t.Skip("re-executes the test binary")
	}
	w := newWS(t, map[string]string{"pipelines/pl.yaml": crashPipeline,
		"data/a/1.jsonl": jsonl("a", 0, 3, ""), "data/a/2.jsonl": jsonl("a", 3, 5, ""), "data/b/1.jsonl": jsonl("b", 0, 2, "")})
	r := testRunner(t)
	snap := w.load()
	mustRun(t, r, snap, Request{})
	crashAt(t, w.dir, delta.FailCommitAfter+":1", Request{Refresh: "FULL", Selectors: []string{"a"}})
	o := mustRun(t, r, snap, Request{Selectors: []string{"a"}})
	if !strings.Contains(o.plan.Effects[len(o.plan.Effects)-1].Description, "redo the FULL refresh of pl.a interrupted in run 2") {
		t.Fatalf("plan effects %+v", o.plan.Effects)
	}
	var said []string
	for _, e := range eventKinds(o.events, EventTaskProgress) {
		if strings.Contains(e.Message, "run 2") {
			said = append(said, e.Message)
		}
	}
	if len(said) != 2 || !strings.Contains(said[0], "run 2 committed main.default.prices v3 (DELETE)") ||
		!strings.Contains(said[1], "run 2 did not finish its FULL refresh of pl.a: this run does a FULL refresh of the writer") {
		t.Fatalf("the run says %q", said)
	}
	d := detail(t, w, 2)
	if len(d.Deletions) != 1 || d.Deletions[0].Rows != 5 || d.Deletions[0].Writer != "pl.a" || d.Run.RowsDeleted != 5 {
		t.Fatalf("the interrupted run's history: deletions %+v, rows deleted %d; want pl.a's 5 rows", d.Deletions, d.Run.RowsDeleted)
	}
	if n := count(t, r, w.table("prices"), "_laktory_writer = 'pl.a'"); n != 5 {
		t.Fatalf("a has %d rows after the rerun, want 5", n)
	}
}

// TestCrashLeftoversCleaned: the next run owning them removes what crashed
// runs left: temporary checkpoint files, old temporary commit files, a
// dropped table renamed aside; a fresh temporary commit file (a live
// writer's) stays.
func TestCrashLeftoversCleaned(t *testing.T) {
	w := newWS(t, map[string]string{"pipelines/pl.yaml": crashPipeline, "data/a/1.jsonl": jsonl("a", 0, 3, ""), "data/b/1.jsonl": jsonl("b", 0, 2, "")})
	r := testRunner(t)
	snap := w.load()
	mustRun(t, r, snap, Request{})
	cp, prices := flowDir(t, snap, "pl", "a"), w.table("prices")
	old := time.Now().Add(-time.Hour)
	left := map[string]bool{
		filepath.Join(cp, "offsets", ".1.0d4c.tmp"):                                     true,
		filepath.Join(filepath.Dir(cp), "."+filepath.Base(cp)+".refresh.json.9a1b.tmp"): true,
		filepath.Join(prices, "_delta_log", "_commit_123.json.tmp"):                     true,
		filepath.Join(prices, "_delta_log", "_commit_456.json.tmp"):                     false, // fresh
		filepath.Join(filepath.Dir(prices), ".prices.dropped-1f2e3d4c", "x"):            true,
	}
	for p, stale := range left {
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte("{}"), 0o644); err != nil {
			t.Fatal(err)
		}
		if stale {
			touch(t, p, old)
		}
	}
	o := mustRun(t, r, snap, Request{Selectors: []string{"a"}})
	for p, stale := range left {
		if exists(p) == stale {
			t.Errorf("%s exists=%v after the run (stale=%v)", p, exists(p), stale)
		}
	}
	if exists(filepath.Dir(filepath.Join(filepath.Dir(prices), ".prices.dropped-1f2e3d4c", "x"))) {
		t.Error("the dropped table's folder is left")
	}
	said := false
	for _, e := range eventKinds(o.events, EventTaskProgress) {
		said = said || strings.Contains(e.Message, "removed what an interrupted run left behind")
	}
	if !said {
		t.Error("the run does not say what it removed")
	}
}

// TestCrashBetweenTasksOfAFullRun: a FULL refresh of a pipeline stopped
// between its tasks (a, a writer of a shared table, refreshed; g, a
// streaming reader of a's rows with skipChangeCommits, not yet): the next
// normal run refreshes g as the FULL asked, instead of reading a's new
// rows a second time. Every later task's intent is recorded before the
// run's first destructive step.
func TestCrashBetweenTasksOfAFullRun(t *testing.T) {
	if testing.Short() {
		t.Skip("re-executes the test binary")
	}
	// crashPipeline and g, a streaming reader of a's rows.
	const pl = crashPipeline + `- name: g
  sources:
  - node_name: a
    as_stream: true
    reader_kwargs: {skipChangeCommits: true}
  sinks:
  - table_name: gold
    mode: APPEND
`
	for _, point := range []string{FailRefreshIntent + ":2", FailRefreshDone + ":1"} {
		t.Run(point, func(t *testing.T) {
			w := newWS(t, map[string]string{"pipelines/pl.yaml": pl,
				"data/a/1.jsonl": jsonl("a", 0, 3, ""), "data/b/1.jsonl": jsonl("b", 0, 2, "")})
			r := testRunner(t)
			snap := w.load()
			mustRun(t, r, snap, Request{})
			crashAt(t, w.dir, point, Request{Pipelines: []string{"pl"}, Refresh: "FULL", Parallel: 1})
			mustRun(t, r, snap, Request{})
			if n := count(t, r, w.table("gold"), ""); n != 3 {
				t.Fatalf("gold holds %d rows after the rerun, want a's 3 (once each)", n)
			}
			if n := count(t, r, w.table("prices"), ""); n != 5 {
				t.Fatalf("prices holds %d rows, want 5", n)
			}
		})
	}
}
