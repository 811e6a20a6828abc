package runner

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"strconv"
	"sync"
	"testing"
	"time"

	"github.com/laktory/workbench/runner/history"
	"github.com/laktory/workbench/workspace"
	"github.com/laktory/workbench/workspace/workspacetest"
)

// Environment of the helper process (this test binary run again).
const (
	helperEnv      = "LAKTORY_RUNNER_TEST_HELPER"
	helperDirEnv   = "LAKTORY_RUNNER_TEST_DIR"
	helperLoopsEnv = "LAKTORY_RUNNER_TEST_LOOPS"
)

// TestHelperProcess is writer b's process in TestConcurrentProcesses: it
// runs `INCREMENTAL --select b` on the workspace LOOPS times. It does
// nothing in a normal test run.
func TestHelperProcess(t *testing.T) {
	if os.Getenv(helperEnv) != "1" {
		t.Skip("helper process of TestConcurrentProcesses")
	}
	loops, _ := strconv.Atoi(os.Getenv(helperLoopsEnv))
	snap := workspacetest.LoadDir(t, os.Getenv(helperDirEnv), workspace.Options{})
	r := testRunner(t, func(c *Config) { c.Retry = RetryPolicy{BaseDelay: 20 * time.Millisecond} })
	for i := 0; i < loops; i++ {
		mustRun(t, r, snap, Request{Selectors: []string{"b"}})
	}
}

// helper runs writer b's process to the end.
func helper(ctx context.Context, dir string, loops int) error {
	cmd := exec.CommandContext(ctx, os.Args[0], "-test.run=^TestHelperProcess$", "-test.count=1")
	cmd.Env = append(os.Environ(), helperEnv+"=1", helperDirEnv+"="+dir, helperLoopsEnv+"="+strconv.Itoa(loops))
	out, err := cmd.CombinedOutput()
	if err != nil {
		return fmt.Errorf("writer b's process: %v\n%s", err, out)
	}
	return nil
}

// TestConcurrentProcesses: a FULL refresh of writer a in this process
// while writer b appends in another process. First deterministically (b's
// process commits between a's data files and a's commit), then both
// looping at once: every run of both succeeds, through retries, the row
// counts are exact, and the retries are in the shared history.
func TestConcurrentProcesses(t *testing.T) {
	if testing.Short() {
		t.Skip("spawns processes; TestConflictRetried covers retries in-process")
	}
	w := newWS(t, interleaved())
	var once sync.Once
	var hookErr error
	r := testRunner(t, func(c *Config) {
		c.Retry = RetryPolicy{BaseDelay: 20 * time.Millisecond, MaxRetries: 5}
		c.beforeCommit = func(task string, attempt int) {
			if task == "pl.a" {
				once.Do(func() { hookErr = helper(context.Background(), w.dir, 1) })
			}
		}
	})
	snap := w.load()
	mustRun(t, r, snap, Request{Selectors: []string{"a", "b"}}) // the hook runs b once here: a creates...
	path := w.table("prices")
	if hookErr != nil {
		t.Fatal(hookErr)
	}
	// a (3) + b's first run (2) + b's process (2), whichever created the
	// table first.
	if a, b := count(t, r, path, "c = 2"), count(t, r, path, "c IN (1, 3)"); a != 3 || b != 4 {
		t.Fatalf("after the first runs: a=%d b=%d", a, b)
	}

	// Deterministic conflict: b's process commits while a's FULL refresh
	// is about to commit.
	once = sync.Once{}
	o := mustRun(t, r, snap, Request{Refresh: "FULL", Selectors: []string{"a"}})
	if hookErr != nil {
		t.Fatal(hookErr)
	}
	if o.sum.Retries < 1 {
		t.Fatalf("a's FULL refresh had no retry: %+v", o.sum)
	}
	if a, b := count(t, r, path, "c = 2"), count(t, r, path, "c IN (1, 3)"); a != 3 || b != 6 {
		t.Fatalf("after a's FULL refresh: a=%d b=%d", a, b)
	}

	// Both looping at once.
	const loops, fulls = 8, 4
	once.Do(func() {}) // the hook no longer spawns
	errc := make(chan error, 1)
	go func() { errc <- helper(context.Background(), w.dir, loops) }()
	for i := 0; i < fulls; i++ {
		mustRun(t, r, snap, Request{Refresh: "FULL", Selectors: []string{"a"}})
	}
	if err := <-errc; err != nil {
		t.Fatal(err)
	}
	if a, b := count(t, r, path, "c = 2"), count(t, r, path, "c IN (1, 3)"); a != 3 || b != 6+2*loops {
		t.Fatalf("after the concurrent runs: a=%d b=%d, want 3 and %d", a, b, 6+2*loops)
	}
	s, err := history.Open(t.Context(), snap.Layout.StateDB())
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	page, err := s.ListRuns(t.Context(), history.Page{Limit: 100}, history.Filter{})
	if err != nil {
		t.Fatal(err)
	}
	var retries int64
	for _, run := range page.Runs {
		if run.Status != history.StatusSucceeded {
			t.Errorf("run %d: %s %s", run.ID, run.Status, run.Error)
		}
		retries += run.Retries
	}
	if want := 3 + 1 + loops + fulls; len(page.Runs) != want || retries < 1 {
		t.Fatalf("%d runs (want %d) with %d retries in the history", len(page.Runs), want, retries)
	}
	t.Logf("%d runs of two processes, %d commit retries", len(page.Runs), retries)
}
