//go:build unix

package foreach_test

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/laktory/workbench/runner/foreach"
	"github.com/laktory/workbench/workspace"
)

// helperSink is a command sink running the test binary as its writer in
// mode (see helper), in a temporary folder.
func helperSink(t *testing.T, mode string, env ...string) (*foreach.Sink, string) {
	t.Helper()
	self, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	sink, err := foreach.FromSpec(&workspace.ForEach{Command: []string{self}}, "outbox", foreach.Options{
		Dir: dir, Parallelism: 4, Env: append([]string{helperEnv + "=" + mode}, env...)})
	if err != nil {
		t.Fatal(err)
	}
	return sink, dir
}

func TestCommandWriter(t *testing.T) {
	t.Setenv("FOREACH_PARENT", "inherited")
	sink, dir := helperSink(t, "copy", "FOREACH_EXTRA=extra")
	parts := partitions(3, 50)
	parts[1].Rows = foreach.JSONRows(`{"id": 50,
		"name": "pretty printed"}`, `{"s":"a\nb","d":"2024-01-02T03:04:05Z","n":1.5e3}`)
	res, err := sink.Write(context.Background(), foreach.Batch{Flow: "outbox__orders", EpochID: 12}, parts)
	if err != nil {
		t.Fatal(err)
	}
	if res.Rows != 102 || res.Partitions[1].Rows != 2 {
		t.Errorf("result %+v", res)
	}
	for i := range 3 {
		got, err := os.ReadFile(filepath.Join(dir, fmt.Sprintf("out-%d-12.jsonl", i)))
		if err != nil {
			t.Fatal(err)
		}
		want := strings.Join(rowsOf(i*50, 50), "\n") + "\n"
		if i == 1 { // one row per line, compacted if needed, values untouched
			want = `{"id":50,"name":"pretty printed"}` + "\n" + `{"s":"a\nb","d":"2024-01-02T03:04:05Z","n":1.5e3}` + "\n"
		}
		if string(got) != want {
			t.Errorf("partition %d wrote\n%s\nwant\n%s", i, got, want)
		}
		env, _ := os.ReadFile(filepath.Join(dir, fmt.Sprintf("env-%d.txt", i)))
		wantEnv := fmt.Sprintf("LAKTORY_FOREACH_PARTITION_ID=%d\nLAKTORY_FOREACH_EPOCH_ID=12\nLAKTORY_FOREACH_FLOW=outbox__orders\nLAKTORY_FOREACH_SINK=outbox\nFOREACH_PARENT=inherited\nFOREACH_EXTRA=extra", i)
		if string(env) != wantEnv {
			t.Errorf("partition %d environment\n%s\nwant\n%s", i, env, wantEnv)
		}
	}
}

func TestCommandWriterFails(t *testing.T) {
	tests := []struct {
		name string
		mode string
		argv []string
		rows int
		msg  string
	}{
		{name: "non-zero exit", mode: "fail", rows: 5,
			msg: `exit status 3: stderr: cannot reach the store: connection refused`},
		{name: "exits without reading", mode: "early", rows: 20000,
			msg: "exited before reading all its rows"},
		{name: "cannot start", argv: []string{"./no-such-writer"}, rows: 1,
			msg: `cannot start "./no-such-writer"`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			sink, dir := helperSink(t, tt.mode)
			if tt.argv != nil {
				var err error
				if sink, err = foreach.FromSpec(&workspace.ForEach{Name: "outbox", Command: tt.argv}, "n", foreach.Options{Dir: dir}); err != nil {
					t.Fatal(err)
				}
			}
			_, err := sink.Write(context.Background(), foreach.Batch{Flow: "f", EpochID: 1},
				[]foreach.Partition{{ID: 4, Rows: foreach.JSONRows(rowsOf(0, tt.rows)...)}})
			if !errors.Is(err, foreach.ErrCommand) {
				t.Fatalf("error %v, want ErrCommand", err)
			}
			if !strings.Contains(err.Error(), tt.msg) || !strings.Contains(err.Error(), `ForEach sink "outbox", flow "f", epoch 1, partition 4`) {
				t.Errorf("message %q lacks %q", err, tt.msg)
			}
		})
	}
}

// TestCommandWriterKilled: cancelling the context, or another partition
// failing, kills the writer's whole process group (the writer and the
// process it started).
func TestCommandWriterKilled(t *testing.T) {
	tests := []struct {
		name   string
		first  string // helper mode of partition 0; partition 1 hangs
		cancel bool   // the caller cancels
		wantIs error
	}{
		{name: "context cancelled", first: "copy", cancel: true, wantIs: context.Canceled},
		{name: "another partition fails", first: "fail", wantIs: foreach.ErrCommand},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			self, err := os.Executable()
			if err != nil {
				t.Fatal(err)
			}
			dir := t.TempDir()
			hang, _ := foreach.Command([]string{self}, foreach.Options{Dir: dir, Env: []string{helperEnv + "=hang"}})
			first, _ := foreach.Command([]string{self}, foreach.Options{Dir: dir, Env: []string{helperEnv + "=" + tt.first}})
			sink := foreach.New("outbox", func(ctx context.Context, tg foreach.Target) (foreach.Writer, error) {
				if tg.PartitionID == 0 {
					waitFile(t, filepath.Join(dir, "pids-1.txt")) // once partition 1 hangs
					return first(ctx, tg)
				}
				return hang(ctx, tg)
			}, foreach.Options{Parallelism: 2})
			ctx, cancel := context.WithCancel(context.Background())
			defer cancel()
			done := make(chan error, 1)
			go func() {
				_, err := sink.Write(ctx, foreach.Batch{EpochID: 1}, partitions(2, 3))
				done <- err
			}()
			pids := readPids(t, filepath.Join(dir, "pids-1.txt"))
			if tt.cancel {
				cancel()
			}
			select {
			case err := <-done:
				if !errors.Is(err, tt.wantIs) {
					t.Errorf("error %v, want %v", err, tt.wantIs)
				}
			case <-time.After(20 * time.Second):
				t.Fatal("Write did not return")
			}
			for _, pid := range pids {
				waitDead(t, pid)
			}
		})
	}
}

// waitFile waits until path exists.
func waitFile(t *testing.T, path string) {
	t.Helper()
	for deadline := time.Now().Add(20 * time.Second); time.Now().Before(deadline); time.Sleep(10 * time.Millisecond) {
		if _, err := os.Stat(path); err == nil {
			return
		}
	}
	t.Errorf("%s never appeared", path)
}

// readPids reads the pids the "hang" helper wrote.
func readPids(t *testing.T, path string) []int {
	t.Helper()
	for deadline := time.Now().Add(20 * time.Second); time.Now().Before(deadline); time.Sleep(10 * time.Millisecond) {
		b, err := os.ReadFile(path)
		if f := strings.Fields(string(b)); err == nil && len(f) == 2 {
			a, _ := strconv.Atoi(f[0])
			c, _ := strconv.Atoi(f[1])
			return []int{a, c}
		}
	}
	t.Fatalf("%s never appeared", path)
	return nil
}

// waitDead waits until pid is gone (or a zombie nobody reaped yet).
func waitDead(t *testing.T, pid int) {
	t.Helper()
	for deadline := time.Now().Add(10 * time.Second); time.Now().Before(deadline); time.Sleep(20 * time.Millisecond) {
		if syscall.Kill(pid, 0) != nil {
			return
		}
		if stat, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid)); err == nil {
			if f := strings.Fields(string(stat[strings.LastIndexByte(string(stat), ')')+1:])); len(f) > 0 && f[0] == "Z" {
				return
			}
		}
	}
	t.Errorf("process %d is still alive", pid)
	syscall.Kill(pid, syscall.SIGKILL)
}

// TestCommandWriterRelativeProgram: a relative program path is relative to
// Options.Dir (the pipeline file's folder).
func TestCommandWriterRelativeProgram(t *testing.T) {
	dir := t.TempDir()
	script := "#!/bin/sh\nwc -l > \"count-$LAKTORY_FOREACH_PARTITION_ID\"\n"
	if err := os.WriteFile(filepath.Join(dir, "writer.sh"), []byte(script), 0o755); err != nil {
		t.Fatal(err)
	}
	sink, err := foreach.FromSpec(&workspace.ForEach{Command: []string{"./writer.sh"}}, "n", foreach.Options{Dir: dir})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := sink.Write(context.Background(), foreach.Batch{EpochID: 1}, partitions(1, 7)); err != nil {
		t.Fatal(err)
	}
	if got, _ := os.ReadFile(filepath.Join(dir, "count-0")); strings.TrimSpace(string(got)) != "7" {
		t.Errorf("the script counted %q lines, want 7", got)
	}
}
