//go:build unix

package runner

import (
	"context"
	"errors"
	"os"
	"strings"
	"syscall"
	"testing"
)

// holdLock takes a checkpoint's lock through its own open file, as another
// run or process would, and returns the function that releases it.
func holdLock(t *testing.T, dir string) func() {
	t.Helper()
	f, err := os.OpenFile(dir+".lock", os.O_RDWR|os.O_CREATE, 0o644)
	if err != nil {
		t.Fatal(err)
	}
	if err := syscall.Flock(int(f.Fd()), syscall.LOCK_EX|syscall.LOCK_NB); err != nil {
		t.Fatal(err)
	}
	return func() { f.Close() }
}

// TestCheckpointBusy: a flow whose checkpoint another run holds fails
// without processing anything, and the user is told why; once the other run
// ends, the flow runs and processes every file once.
func TestCheckpointBusy(t *testing.T) {
	w := newWS(t, map[string]string{"pipelines/pl.yaml": fileStreamPipeline,
		"data/in/1.jsonl": jsonl("a", 0, 3, ""), "data/in/2.jsonl": jsonl("b", 0, 2, "")})
	r := testRunner(t)
	snap := w.load()
	dir := flowDir(t, snap, "pl", "s")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	release := holdLock(t, dir)
	o := run(t, r, snap, Request{})
	if !errors.Is(o.err, ErrTasksFailed) || len(o.sum.Tasks) != 1 || !strings.Contains(o.sum.Tasks[0].Err, "another run is processing this flow") {
		t.Fatalf("run with the checkpoint held: err %v, tasks %+v", o.err, o.sum.Tasks)
	}
	if !EmptyOrMissing(w.table("out")) {
		t.Fatal("a flow that could not take its checkpoint wrote to its table")
	}
	release()
	mustRun(t, r, snap, Request{})
	if n := count(t, r, w.table("out"), ""); n != 5 {
		t.Fatalf("rows after the lock was released: %d, want 5", n)
	}
	// A FULL refresh resets the checkpoint: it needs the lock too.
	release = holdLock(t, dir)
	defer release()
	o = run(t, r, snap, Request{Refresh: "FULL"})
	if !errors.Is(o.err, ErrTasksFailed) || !strings.Contains(o.sum.Tasks[0].Err, "another run is processing this flow") {
		t.Fatalf("FULL refresh with the checkpoint held: err %v, tasks %+v", o.err, o.sum.Tasks)
	}
	if _, err := os.Stat(dir); err != nil {
		t.Fatalf("the held checkpoint was removed: %v", err)
	}
}

// TestCheckpointLocksReleased: a run releases its checkpoints' locks when it
// ends, so the next run (in the same process) takes them again.
func TestCheckpointLocksReleased(t *testing.T) {
	w := newWS(t, map[string]string{"pipelines/pl.yaml": fileStreamPipeline, "data/in/1.jsonl": jsonl("a", 0, 3, "")})
	r := testRunner(t)
	snap := w.load()
	mustRun(t, r, snap, Request{})
	mustRun(t, r, snap, Request{Refresh: "FULL"})
	release := holdLock(t, flowDir(t, snap, "pl", "s")) // fails if a run kept it
	release()
}

// TestRefreshWaitsForWriterLock: a FULL or RESET of a writer started while
// another run of that writer appends (another Runner: its own lock files,
// as another process) fails before it deletes anything, so the first run's
// new rows stay; batch and streaming writers alike.
func TestRefreshWaitsForWriterLock(t *testing.T) {
	for _, stream := range []bool{false, true} {
		t.Run(map[bool]string{false: "batch", true: "streaming"}[stream], func(t *testing.T) {
			files := scenarioFiles(ownerships[0])
			if stream {
				files["pipelines/pl.yaml"] = strings.ReplaceAll(files["pipelines/pl.yaml"], "    format: JSONL\n", "    format: JSONL\n    as_stream: true\n")
			}
			w := newWS(t, files)
			snap := w.load()
			mustRun(t, testRunner(t), snap, Request{Selectors: []string{"a"}})
			if stream {
				w.write(map[string]string{"data/a/2.jsonl": jsonl("a", 3, 5, `, "c": 1`)})
			}
			committing, release := make(chan struct{}), make(chan struct{})
			first := testRunner(t, func(c *Config) {
				c.beforeCommit = func(task string, attempt int) {
					if task == "pl.a" && attempt == 0 {
						close(committing)
						<-release
					}
				}
			})
			plan, err := first.Plan(context.Background(), snap, Request{Selectors: []string{"a"}})
			if err != nil {
				t.Fatal(err)
			}
			done := make(chan outcome)
			go func() { done <- start(t, first, plan) }()
			<-committing
			for _, req := range []Request{{Refresh: "FULL", Selectors: []string{"a"}}, {Refresh: "RESET", Selectors: []string{"a"}}} {
				o := run(t, testRunner(t), snap, req)
				if !errors.Is(o.err, ErrTasksFailed) || !strings.Contains(o.sum.Tasks[0].Err, "another run is processing this flow or writer") ||
					o.sum.RowsDeleted != 0 {
					t.Fatalf("%s during the append: err %v, %+v", req.Refresh, o.err, o.sum.Tasks)
				}
			}
			close(release)
			if o := <-done; o.err != nil {
				t.Fatal(o.err)
			}
			want := 6 // the setup's 3 rows, appended again (a batch writer appends all it reads)
			if stream {
				want = 5 // the setup's 3, then the new file's 2
			}
			if n := count(t, testRunner(t), w.table("prices"), ownerships[0].ownsA); n != want {
				t.Fatalf("a has %d rows, want %d: the refresh deleted the first run's rows", n, want)
			}
		})
	}
}
