package tui

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/charmbracelet/x/exp/teatest"
	"github.com/laktory/workbench/runner"
	"github.com/laktory/workbench/workspace"
	"github.com/laktory/workbench/workspace/workspacetest"
)

// waitFor waits until the program's output (from now on) holds every one
// of ss.
func waitFor(t *testing.T, tm *teatest.TestModel, ss ...string) {
	t.Helper()
	teatest.WaitFor(t, tm.Output(), func(b []byte) bool {
		for _, s := range ss {
			if !bytes.Contains(b, []byte(s)) {
				return false
			}
		}
		return true
	}, teatest.WithDuration(60*time.Second), teatest.WithCheckInterval(20*time.Millisecond)) // generous: it returns as soon as the screen shows ss; a loaded machine validates slowly
}

func finalModel(t *testing.T, tm *teatest.TestModel) Model {
	t.Helper()
	if err := tm.Quit(); err != nil {
		t.Fatal(err)
	}
	return tm.FinalModel(t, teatest.WithFinalTimeout(10*time.Second)).(Model)
}

// TestFlowLiveValidation opens the demo with the real watcher, breaks a
// pipeline file, waits for the problem, fixes the file and waits for the
// problem to go.
func TestFlowLiveValidation(t *testing.T) {
	dir := workspacetest.Demo(t)
	snap := workspacetest.LoadDir(t, dir, workspace.Options{})
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	events, err := workspace.Watch(ctx, snap, workspace.WatchOptions{Debounce: WatchDebounce})
	if err != nil {
		t.Fatal(err)
	}
	m := New(Deps{Context: ctx, Snapshot: snap, Events: events, Now: fixedNow, Tick: -1})
	tm := teatest.NewTestModel(t, m, teatest.WithInitialTermSize(120, 36))
	waitFor(t, tm, "prices")
	tm.Send(keys("2"))
	waitFor(t, tm, "[2 Problems (4)]")

	file := filepath.Join(dir, "pipelines", "pl-prices.yaml")
	good, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	broken := strings.Replace(string(good), "    mode: APPEND\n", "    mode: APPEND\n    bogus_key: [\n", 1)
	saved := time.Now()
	if err := os.WriteFile(file, []byte(broken), 0o644); err != nil {
		t.Fatal(err)
	}
	waitFor(t, tm, workspace.CodeYAMLSyntax)
	t.Logf("save -> problem shown: %s", time.Since(saved))

	saved = time.Now()
	if err := os.WriteFile(file, good, 0o644); err != nil {
		t.Fatal(err)
	}
	waitFor(t, tm, "✗ 0 ! 3 i 1")
	t.Logf("fix -> problem gone: %s", time.Since(saved))
	final := finalModel(t, tm)
	for _, d := range final.Diagnostics() {
		if d.Severity == workspace.SeverityError {
			t.Fatalf("an error is left after the fix: %v", d)
		}
	}
	if final.Snapshot().Generation < 2 {
		t.Fatalf("snapshot generation %d: the watcher's reloads were not applied", final.Snapshot().Generation)
	}
}

// TestFlowSchemaValidation opens the demo with the real watcher and the
// runner's validation (the schema flow), saves a wrong column in an expr
// and waits for the problem at its place, with Spark's candidates, in
// Problems, the header's counts and the node's mark in the tree.
func TestFlowSchemaValidation(t *testing.T) {
	dir := workspacetest.Demo(t)
	snap := workspacetest.LoadDir(t, dir, workspace.Options{})
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	events, err := workspace.Watch(ctx, snap, workspace.WatchOptions{Debounce: WatchDebounce})
	if err != nil {
		t.Fatal(err)
	}
	local := &LocalRunner{R: newRunner(t)}
	m := New(Deps{Context: ctx, Snapshot: snap, Events: events, Runner: local, Validator: local, Now: fixedNow, Tick: -1})
	tm := teatest.NewTestModel(t, m, teatest.WithInitialTermSize(160, 40))
	tm.Send(keys("2"))
	waitFor(t, tm, "✗ 0 ")

	file := filepath.Join(dir, "pipelines", "pl-prices.yaml")
	good, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	broken := strings.Replace(string(good), "CAST(price AS DOUBLE) AS price", "CAST(prise AS DOUBLE) AS price", 1)
	if err := os.WriteFile(file, []byte(broken), 0o644); err != nil {
		t.Fatal(err)
	}
	waitFor(t, tm, "✗ 1 ", "LK301", "[`price`, `symbol`, `ts`]") // the JSON feed's columns in Spark's order
	final := finalModel(t, tm)
	at := strings.Index(broken, "prise")
	line, col := strings.Count(broken[:at], "\n")+1, at-strings.LastIndex(broken[:at], "\n")
	var found bool
	for _, d := range final.Diagnostics() {
		if d.Code == "LK301" {
			found = d.Line == line && d.Col == col && strings.Contains(d.Message, "`prise`")
			if !found {
				t.Errorf("LK301 at %d:%d: %s", d.Line, d.Col, d.Message)
			}
		}
	}
	if !found {
		t.Fatalf("no LK301 in %v", final.Diagnostics())
	}
	marked := false
	for _, l := range strings.Split(final.View(), "\n") {
		if i := strings.Index(l, "feed_a"); i >= 0 && strings.Contains(l[:i], "✗") {
			marked = true
		}
	}
	if !marked {
		t.Fatalf("feed_a has no error mark:\n%s", final.View())
	}
}

// runDemo runs a request on the workspace in dir with the real runner and
// waits for it.
func runDemo(t *testing.T, r *runner.Runner, dir string, req runner.Request) runner.Summary {
	t.Helper()
	ctx := context.Background()
	snap := workspacetest.LoadDir(t, dir, workspace.Options{})
	plan, err := r.Plan(ctx, snap, req)
	if err != nil {
		t.Fatal(err)
	}
	run, err := r.Start(ctx, plan)
	if err != nil {
		t.Fatal(err)
	}
	for range run.Events() {
	}
	sum, err := run.Wait()
	if err != nil {
		t.Fatalf("run %+v: %v (%+v)", req, err, sum)
	}
	return sum
}

func newRunner(t *testing.T) *runner.Runner {
	t.Helper()
	r, err := runner.New(runner.Config{Parallel: 2})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { r.Close() })
	return r
}

// writerRows reads the rows per writer id of the prices table.
func pricesRows(t *testing.T, dir string) map[string]int64 {
	t.Helper()
	snap := workspacetest.LoadDir(t, dir, workspace.Options{})
	facts, err := runner.GatherFacts(context.Background(), snap)
	if err != nil {
		t.Fatal(err)
	}
	f := facts[tableID(t, snap, "prices")]
	if !f.Exists {
		t.Fatalf("prices does not exist: %+v", f)
	}
	return f.WriterRows
}

// TestFlowFullRefresh runs, through the workbench and the real runner on
// the streaming demo, a FULL refresh of feed_a: the confirmation says what
// it deletes and resets, the flow it runs and that gld_prices_a then needs
// a FULL refresh; feed_b's rows are untouched, the deletion shows in the
// run's details. Then an incremental run of gld_prices_a warns, once, that
// it reads feed_a's rows again.
func TestFlowFullRefresh(t *testing.T) {
	dir := workspacetest.Demo(t)
	r := newRunner(t)
	runDemo(t, r, dir, runner.Request{Pipelines: []string{"pl-prices"}})
	before := pricesRows(t, dir)
	if before["pl-prices.feed_a"] == 0 || before["pl-prices.feed_b"] == 0 {
		t.Fatalf("setup: rows per writer %v", before)
	}

	snap := workspacetest.LoadDir(t, dir, workspace.Options{})
	lake := NewDeltaLake()
	defer lake.Close()
	hist := NewHistoryFile(snap.Layout.StateDB())
	defer hist.Close()
	local := &LocalRunner{R: r}
	defer local.Wait() // the last run may still write when the program quits
	m := New(Deps{Snapshot: snap, Runner: local, History: hist, Lake: lake, Tick: -1})
	tm := teatest.NewTestModel(t, m, teatest.WithInitialTermSize(140, 50))
	waitFor(t, tm, "all_orders")
	for range 4 {
		tm.Send(keys("down"))
	}
	waitFor(t, tm, "▸-pl-prices.feed_a")
	tm.Send(keys("f"))
	waitFor(t, tm, "of pl-prices.feed_a from prices", "Streaming flows (1)", "node 'gld_prices_a'")
	tm.Send(keys("y"))
	waitFor(t, tm, "Summary: succeeded", "Warnings (1)", "pl-prices [feed_a]") // and the run in the history list
	tm.Send(keys("enter"))
	waitFor(t, tm, "Deleted rows per writer (1)", "Streaming flows (1)")
	tm.Send(keys("esc"))
	tm.Send(keys("1"))
	tm.Send(keys("down")) // gld_prices_a
	tm.Send(keys("down"))
	waitFor(t, tm, "▸ pl-prices.gld_prices_a")
	tm.Send(keys("r"))
	waitFor(t, tm, "Run #3", "deleted the rows of the writer it reads")
	final := finalModel(t, tm)

	d, err := hist.RunDetail(context.Background(), 2) // the FULL refresh, shown in the details above
	if err != nil || len(d.Deletions) != 1 {
		t.Fatalf("run detail: %+v %v", d, err)
	}
	del := d.Deletions[0]
	if del.Writer != "pl-prices.feed_a" || del.Rows != before["pl-prices.feed_a"] {
		t.Fatalf("deletion %+v, want the %d rows of pl-prices.feed_a", del, before["pl-prices.feed_a"])
	}
	after := pricesRows(t, dir)
	if after["pl-prices.feed_b"] != before["pl-prices.feed_b"] {
		t.Fatalf("feed_b's rows changed: %d -> %d", before["pl-prices.feed_b"], after["pl-prices.feed_b"])
	}
	if after["pl-prices.feed_a"] != before["pl-prices.feed_a"] {
		t.Fatalf("feed_a's files, its checkpoint reset, make %d rows, want %d", after["pl-prices.feed_a"], before["pl-prices.feed_a"])
	}
	lr := final.runs.live
	if lr == nil || len(lr.warnings) != 1 || lr.warnings[0].n != 1 || !strings.Contains(lr.warnings[0].msg, "run a FULL refresh of node 'gld_prices_a'") {
		t.Fatalf("gld_prices_a's run must warn once that it needs a FULL refresh: %+v", lr)
	}
}

// TestFlowEditor opens the problem's file in $EDITOR (a script named vi
// that records its arguments) and comes back to the workbench.
func TestFlowEditor(t *testing.T) {
	bin := t.TempDir()
	record := filepath.Join(bin, "args")
	script := "#!/bin/sh\nprintf '%s\\n' \"$@\" > " + record + "\n"
	if err := os.WriteFile(filepath.Join(bin, "vi"), []byte(script), 0o755); err != nil {
		t.Fatal(err)
	}
	s := demo(t)
	m := app(t, s, Deps{Editor: filepath.Join(bin, "vi")})
	tm := teatest.NewTestModel(t, m, teatest.WithInitialTermSize(120, 36))
	waitFor(t, tm, "all_orders")
	tm.Send(keys("2"))
	waitFor(t, tm, "LK151")
	tm.Send(keys("enter"))
	var got []byte
	deadline := time.Now().Add(10 * time.Second)
	for time.Now().Before(deadline) {
		if b, err := os.ReadFile(record); err == nil && len(b) > 0 {
			got = b
			break
		}
		time.Sleep(20 * time.Millisecond)
	}
	d := s.Pipeline("pl-events") // the first problem: its `flow:` extension warning
	want := "+12\n" + d.File + "\n"
	if string(got) != want {
		t.Fatalf("editor arguments %q, want %q", got, want)
	}
	tm.Send(keys("3")) // the workbench is back and takes keys
	waitFor(t, tm, "[3 Runs]")
	if final := finalModel(t, tm); final.ActiveTab() != TabRuns {
		t.Fatalf("tab %v after the editor", final.ActiveTab())
	}
}
