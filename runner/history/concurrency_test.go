package history

import (
	"bufio"
	"bytes"
	"context"
	"fmt"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"
)

// TestConcurrentWriters has two other processes and several goroutines of
// this one record runs into one new database at once, while readers page
// through it: nothing may be lost and no error (such as "database is
// locked") may escape.
func TestConcurrentWriters(t *testing.T) {
	ctx := context.Background()
	path := dbPath(t)
	const children, childRuns, goroutines, runsEach = 2, 15, 4, 8

	// The processes open the new database at about the same time, so they
	// also race to create the schema.
	var procs []*exec.Cmd
	var procErr []*bytes.Buffer
	for c := range children {
		child := helper(t, "write", path, "HISTORY_TEST_RUNS="+strconv.Itoa(childRuns), fmt.Sprintf("HISTORY_TEST_TAG=child%d", c))
		procErr = append(procErr, &bytes.Buffer{})
		child.Stderr = procErr[c]
		mustNil(t, child.Start(), "start helper process")
		procs = append(procs, child)
	}
	s, err := Open(ctx, path)
	mustNil(t, err, "open")
	defer s.Close()

	var wg sync.WaitGroup
	errs := make(chan error, goroutines+2)
	for g := range goroutines {
		wg.Go(func() { errs <- writeRuns(ctx, s, fmt.Sprintf("g%d", g), runsEach) })
	}
	stop := make(chan struct{})
	var readers sync.WaitGroup
	readers.Go(func() {
		for {
			select {
			case <-stop:
				return
			default:
			}
			page, err := s.ListRuns(ctx, Page{Limit: 5}, Filter{})
			if err == nil && len(page.Runs) > 0 {
				_, err = s.RunDetail(ctx, page.Runs[0].ID)
			}
			if err != nil {
				errs <- fmt.Errorf("reader: %w", err)
				return
			}
		}
	})
	wg.Wait()
	for c, child := range procs {
		if err := child.Wait(); err != nil {
			t.Errorf("helper process %d: %v: %s", c, err, procErr[c].String())
		}
	}
	close(stop)
	readers.Wait()
	close(errs)
	for err := range errs {
		if err != nil {
			t.Error(err)
		}
	}

	// Nothing lost: every run complete, counters exact, events numbered 1..6.
	checks := map[string]int{}
	for c := range children {
		checks[fmt.Sprintf("child%d", c)] = childRuns
	}
	for g := range goroutines {
		checks[fmt.Sprintf("g%d", g)] = runsEach
	}
	total := 0
	for tag, want := range checks {
		page, err := s.ListRuns(ctx, Page{Limit: MaxLimit}, Filter{Pipeline: tag, Status: StatusSucceeded})
		mustNil(t, err, "list")
		if len(page.Runs) != want {
			t.Errorf("%s: %d succeeded runs, want %d", tag, len(page.Runs), want)
		}
		total += len(page.Runs)
		for _, r := range page.Runs {
			d, err := s.RunDetail(ctx, r.ID)
			mustNil(t, err, "detail")
			if r.Tasks != 3 || r.Retries != 3 || r.Warnings != 1 || r.RowsRead != 3 || len(d.Operations) != 3 ||
				len(d.Events) != 6 || d.Events[5].Seq != 6 || r.RowsWritten != 3*d.Operations[0].RowsAdded {
				t.Fatalf("%s run %d incomplete: %+v, %d ops, %d events", tag, r.ID, r, len(d.Operations), len(d.Events))
			}
		}
	}
	if n, _ := s.CountRuns(ctx, Filter{}); n != int64(total) {
		t.Errorf("%d runs in all, want %d", n, total)
	}
}

// TestInterruptedRunOfDeadProcess: a process starts a run and dies; the run
// stays running while the process lives, and is marked interrupted after.
func TestInterruptedRunOfDeadProcess(t *testing.T) {
	ctx := context.Background()
	path := dbPath(t)
	child := helper(t, "abandon", path)
	stdin, err := child.StdinPipe()
	mustNil(t, err, "stdin")
	stdout, err := child.StdoutPipe()
	mustNil(t, err, "stdout")
	var childErr bytes.Buffer
	child.Stderr = &childErr
	mustNil(t, child.Start(), "start helper process")
	line, err := bufio.NewReader(stdout).ReadString('\n')
	if err != nil {
		t.Fatalf("helper: %v: %s", err, childErr.String())
	}
	id, _ := strconv.ParseInt(strings.TrimSpace(line), 10, 64)

	s, err := Open(ctx, path)
	mustNil(t, err, "open")
	defer s.Close()
	if r, _ := s.GetRun(ctx, id); r.Status != StatusRunning || r.PID != child.Process.Pid {
		t.Fatalf("run of a live process: %+v", r)
	}

	stdin.Close()
	mustNil(t, child.Wait(), "helper exit")
	got, err := s.MarkInterrupted(ctx)
	mustNil(t, err, "mark interrupted")
	if len(got) != 1 || got[0] != id {
		t.Fatalf("MarkInterrupted = %v, want [%d]", got, id)
	}
	d, err := s.RunDetail(ctx, id)
	mustNil(t, err, "detail")
	if d.Run.Status != StatusInterrupted || d.Run.EndedAt.IsZero() || !strings.Contains(d.Run.Error, strconv.Itoa(child.Process.Pid)) {
		t.Fatalf("interrupted run: %+v", d.Run)
	}
	if d.Tasks[0].Status != StatusInterrupted || d.Tasks[0].EndedAt.IsZero() {
		t.Fatalf("open task of an interrupted run: %+v", d.Tasks[0])
	}
	// Re-opening finds nothing more to do.
	if again, _ := s.MarkInterrupted(ctx); len(again) != 0 {
		t.Fatalf("second MarkInterrupted = %v", again)
	}
}

func TestMarkInterruptedOnOpen(t *testing.T) {
	ctx := context.Background()
	path := dbPath(t)
	clock := newClock()
	dead := owner{host: "h", pid: 999}
	isDead := withAlive(func(o owner) bool { return o != dead })
	s, err := Open(ctx, path, WithClock(clock.Now), withOwner(dead), isDead)
	mustNil(t, err, "open")
	running, _ := s.StartRun(ctx, RunStart{Workspace: "/ws"})
	mustNil(t, s.StartTask(ctx, running, TaskStart{Key: "p.n"}), "start task")
	mustNil(t, s.RecordOperation(ctx, running, Operation{Task: "p.n", Table: "t", Operation: "WRITE"}), "op")
	lastWrite := clock.Now().Add(-time.Second) // the time of the operation
	queued, _ := s.StartRun(ctx, RunStart{Workspace: "/ws", Status: StatusQueued})
	done, _ := s.StartRun(ctx, RunStart{Workspace: "/ws"})
	mustNil(t, s.FinishRun(ctx, done, RunEnd{Status: StatusSucceeded}), "finish")
	s.Close()

	// Another process (alive) also has a run going.
	s, err = Open(ctx, path, WithClock(clock.Now), withOwner(owner{host: "h", pid: 1}), isDead)
	mustNil(t, err, "open as another process")
	alive, _ := s.StartRun(ctx, RunStart{Workspace: "/ws"})
	s.Close()

	s, err = Open(ctx, path, WithClock(clock.Now), withOwner(owner{host: "h", pid: 2}), isDead)
	mustNil(t, err, "reopen")
	defer s.Close()
	want := map[int64]Status{running: StatusInterrupted, queued: StatusInterrupted, done: StatusSucceeded, alive: StatusRunning}
	for id, st := range want {
		if r, _ := s.GetRun(ctx, id); r.Status != st {
			t.Errorf("run %d: %s, want %s", id, r.Status, st)
		}
	}
	r, _ := s.GetRun(ctx, running)
	if !r.EndedAt.Equal(lastWrite) {
		t.Errorf("interrupted run ends at %v, want its last record %v", r.EndedAt, lastWrite)
	}
}

func TestOwnerAlive(t *testing.T) {
	self := currentOwner()
	exited := helper(t, "exit", "")
	mustNil(t, exited.Run(), "run a process that exits")
	tests := []struct {
		name string
		o    owner
		want bool
	}{
		{"this process", self, true},
		{"another host", owner{host: self.host + "-other", pid: exited.Process.Pid}, true},
		{"no pid recorded", owner{host: self.host}, true},
		{"process gone", owner{host: self.host, pid: exited.Process.Pid}, false},
	}
	if self.start != "" {
		tests = append(tests, struct {
			name string
			o    owner
			want bool
		}{"pid reused", owner{host: self.host, pid: self.pid, start: self.start + "1"}, false})
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := ownerAlive(self, tt.o); got != tt.want {
				t.Fatalf("ownerAlive(%+v) = %v, want %v", tt.o, got, tt.want)
			}
		})
	}
	if _, err := os.Stat("/proc/self/stat"); err == nil && self.start == "" {
		t.Error("no process start token although /proc exists")
	}
}
