//go:build unix

package main

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"strings"
	"testing"
	"time"

	"github.com/laktory/workbench/runner"
	"github.com/laktory/workbench/runner/engine/spark"
	"github.com/laktory/workbench/runner/history"
	"github.com/laktory/workbench/workspace"
	"github.com/laktory/workbench/workspace/workspacetest"
)

// slowSparkWorkspace holds a node whose transformer keeps Spark busy for
// far longer than a test (10^11 rows).
func slowSparkWorkspace(t *testing.T) string {
	dir := t.TempDir()
	workspacetest.Write(t, dir, map[string]string{"pipelines/pl.yaml": `name: pl
nodes:
- name: slow
  transformer:
    nodes:
    - expr: SELECT sum(id % 7) AS n FROM range(0, 100000000000, 1)
  sinks:
  - table_name: slow
    mode: APPEND
`})
	return dir
}

// checkSparkCancel cancels a run busy on Spark, by SIGINT to the laktory
// process (Ctrl-C) and by Run.Cancel (what the TUI's x calls), and checks
// on the server's REST API that no job, stage or task of it keeps running.
func checkSparkCancel(t *testing.T, srv sparkServer) {
	if srv.ui == "" {
		t.Skip("the Spark UI of LAKTORY_SPARK_REMOTE is unknown: set LAKTORY_SPARK_UI=http://HOST:PORT")
	}
	t.Run("ctrl_c", func(t *testing.T) {
		waitSparkIdle(t, srv.ui, time.Now()) // nothing of an earlier step
		dir := slowSparkWorkspace(t)
		cmd, stdout, stderr := startCLI(context.Background(), t, "run", dir, "--engine", "spark", "--remote", srv.remote)
		exited := make(chan error, 1)
		t.Cleanup(func() {
			// SIGINT first: a killed client leaves its job running.
			cmd.Process.Signal(os.Interrupt) //nolint:errcheck // it may have ended
			select {
			case <-exited:
			case <-time.After(10 * time.Second):
				cmd.Process.Kill() //nolint:errcheck
				<-exited
			}
		})
		sc := bufio.NewScanner(stdout)
		started := false
		for !started && sc.Scan() {
			started = strings.Contains(sc.Text(), "started")
		}
		go func() {
			for sc.Scan() {
			}
			exited <- cmd.Wait()
		}()
		if !started {
			t.Fatalf("the run ended before it started; stderr:\n%s", stderr.String())
		}
		busy := waitSparkBusy(t, srv.ui)
		sent := time.Now()
		if err := cmd.Process.Signal(os.Interrupt); err != nil {
			t.Fatal(err)
		}
		var werr error
		select {
		case werr = <-exited:
			close(exited) // for the cleanup
		case <-time.After(30 * time.Second):
			t.Fatalf("the run has not ended 30 s after SIGINT")
		}
		took := time.Since(sent)
		var ee *exec.ExitError
		if !errors.As(werr, &ee) || ee.ExitCode() == 0 {
			t.Fatalf("exit %v after SIGINT, want a failure; stderr:\n%s", werr, stderr.String())
		}
		idle := waitSparkIdle(t, srv.ui, sent)
		t.Logf("SIGINT: the run ended in %s (exit %d), Spark idle %s after it (running before: %s)", took.Round(time.Millisecond), ee.ExitCode(), idle.Round(time.Millisecond), busy)
	})
	t.Run("run_cancel", func(t *testing.T) {
		waitSparkIdle(t, srv.ui, time.Now())
		ctx := t.Context()
		snap := workspacetest.LoadDir(t, slowSparkWorkspace(t), workspace.Options{})
		eng, err := spark.Open(ctx, srv.remote)
		if err != nil {
			t.Fatal(err)
		}
		defer eng.Close()
		r, err := runner.New(runner.Config{Sandbox: runner.Sandbox(snap), Engine: eng})
		if err != nil {
			t.Fatal(err)
		}
		defer r.Close()
		plan, err := r.Plan(ctx, snap, runner.Request{})
		if err != nil {
			t.Fatal(err)
		}
		began := time.Now()
		run, err := r.Start(ctx, plan)
		if err != nil {
			t.Fatal(err)
		}
		go func() {
			for range run.Events() {
			}
		}()
		busy := waitSparkBusy(t, srv.ui)
		t.Logf("Spark busy %s after the run started", time.Since(began).Round(time.Millisecond))
		sent := time.Now()
		run.Cancel()
		sum, _ := run.Wait()
		took := time.Since(sent)
		if sum.Status != history.StatusCancelled {
			t.Errorf("the run ended %s (%s), want cancelled", sum.Status, sum.Err)
		}
		idle := waitSparkIdle(t, srv.ui, sent)
		t.Logf("Run.Cancel: the run ended in %s, Spark idle %s after it (running before: %s)", took.Round(time.Millisecond), idle.Round(time.Millisecond), busy)
	})
}

// sparkActivity is what runs on a Spark application, as its REST API
// says.
type sparkActivity struct {
	jobs, stages, tasks int
}

func (a sparkActivity) String() string {
	return fmt.Sprintf("%d jobs, %d stages, %d tasks", a.jobs, a.stages, a.tasks)
}

// sparkRunning asks the REST API of the Spark UI at ui what runs: the
// running jobs and active stages of its applications, and the tasks their
// executors run.
func sparkRunning(ctx context.Context, ui string) (sparkActivity, error) {
	apps, err := sparkApps(ctx, ui)
	if err != nil {
		return sparkActivity{}, err
	}
	var a sparkActivity
	for _, app := range apps {
		var jobs, stages []struct{ Status string }
		var execs []struct{ ActiveTasks int }
		err := errors.Join(sparkREST(ctx, ui, "applications/"+app+"/jobs?status=running", &jobs),
			sparkREST(ctx, ui, "applications/"+app+"/stages?status=active", &stages),
			sparkREST(ctx, ui, "applications/"+app+"/executors", &execs))
		if err != nil {
			return sparkActivity{}, err
		}
		a.jobs += len(jobs)
		a.stages += len(stages)
		for _, e := range execs {
			a.tasks += e.ActiveTasks
		}
	}
	return a, nil
}

// waitSparkBusy waits until a job runs on Spark.
func waitSparkBusy(t *testing.T, ui string) sparkActivity {
	t.Helper()
	deadline := time.Now().Add(2 * time.Minute)
	for {
		a, err := sparkRunning(t.Context(), ui)
		if err != nil {
			t.Fatal(err)
		}
		if a.jobs > 0 && a.tasks > 0 {
			return a
		}
		if time.Now().After(deadline) {
			t.Fatalf("no job ran on Spark 2 min after the run started (%s)", a)
		}
		time.Sleep(200 * time.Millisecond)
	}
}

// waitSparkIdle waits until nothing runs on Spark, and fails the test if
// something still does 10 s after since; it returns the time from since.
func waitSparkIdle(t *testing.T, ui string, since time.Time) time.Duration {
	t.Helper()
	for {
		a, err := sparkRunning(t.Context(), ui)
		if err != nil {
			t.Fatal(err)
		}
		if a == (sparkActivity{}) {
			return time.Since(since)
		}
		if time.Since(since) > 10*time.Second {
			t.Fatalf("Spark still runs %s 10 s after the run was cancelled", a)
		}
		time.Sleep(100 * time.Millisecond)
	}
}
