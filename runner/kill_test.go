//go:build unix

package runner

import (
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/laktory/workbench/workspace"
	"github.com/laktory/workbench/workspace/workspacetest"
)

// The kill tests run a workspace in a child process (this test binary,
// TestKillHelper) that SIGKILLs itself at one step of one micro-batch,
// then run it again here: nothing is lost, and Delta sinks hold no
// duplicate (exactly once) while ForEach sinks may receive the killed
// batch again (at least once).

const (
	envKillDir   = "LAKTORY_KILL_DIR"
	envKillStep  = "LAKTORY_KILL_STEP"
	envKillBatch = "LAKTORY_KILL_BATCH"
	envKillNode  = "LAKTORY_KILL_NODE"
)

// TestKillHelper is the child process of the kill tests.
func TestKillHelper(t *testing.T) {
	dir := os.Getenv(envKillDir)
	if dir == "" {
		t.Skip("the process the kill tests kill")
	}
	step := os.Getenv(envKillStep)
	batch, _ := strconv.ParseInt(os.Getenv(envKillBatch), 10, 64)
	r := testRunner(t, func(c *Config) {
		c.afterStep = func(task, flow, s string, b int64) {
			if s == step && b == batch {
				syscall.Kill(os.Getpid(), syscall.SIGKILL) //nolint:errcheck // the process ends here
			}
		}
	})
	snap := workspacetest.LoadDir(t, dir, workspace.Options{})
	run(t, r, snap, Request{Selectors: []string{os.Getenv(envKillNode)}})
	t.Fatalf("not killed at %s of batch %d", step, batch)
}

// killAt runs a node of the workspace in a child process killed at step
// of batch.
func killAt(t *testing.T, dir, node, step string, batch int) {
	t.Helper()
	cmd := exec.CommandContext(context.Background(), os.Args[0], "-test.run=^TestKillHelper$", "-test.count=1")
	cmd.Env = append(os.Environ(), envKillDir+"="+dir, envKillNode+"="+node, envKillStep+"="+step, envKillBatch+"="+strconv.Itoa(batch))
	out, err := cmd.CombinedOutput()
	var ee *exec.ExitError
	if !errors.As(err, &ee) {
		t.Fatalf("the child was not killed (%v):\n%s", err, out)
	}
	if ws, ok := ee.Sys().(syscall.WaitStatus); !ok || !ws.Signaled() || ws.Signal() != syscall.SIGKILL {
		t.Fatalf("the child ended with %v, not SIGKILL:\n%s", err, out)
	}
}

// killFiles: three landing files (3, 2 and 4 rows), one per micro-batch,
// streamed into a Delta table and into a ForEach command that appends
// "epoch partition row" lines to out.txt.
func killFiles() map[string]string {
	return map[string]string{
		"pipelines/pl.yaml": `name: pl
nodes:
- name: s
  sources:
  - path: ../data/in/
    format: JSONL
    as_stream: true
    reader_kwargs: {maxFilesPerTrigger: 1}
  sinks:
  - table_name: out
    mode: APPEND
- name: fe
  sources:
  - path: ../data/in/
    format: JSONL
    as_stream: true
    reader_kwargs: {maxFilesPerTrigger: 1}
  sinks:
  - foreach:
      command: ["sh", "-c", "awk -v e=\"$LAKTORY_FOREACH_EPOCH_ID\" -v p=\"$LAKTORY_FOREACH_PARTITION_ID\" '{print e, p, $0}' >> ../out.txt"]
`,
		"data/in/1.jsonl": jsonl("a", 0, 3, ""),
		"data/in/2.jsonl": jsonl("b", 0, 2, ""),
		"data/in/3.jsonl": jsonl("c", 0, 4, ""),
	}
}

// outLines reads the ForEach destination: row key -> the "epoch partition"
// of each time it was received.
func outLines(t *testing.T, dir string) map[string][]string {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(dir, "out.txt"))
	if err != nil {
		t.Fatal(err)
	}
	got := map[string][]string{}
	for _, line := range strings.Split(strings.TrimSpace(string(b)), "\n") {
		f := strings.SplitN(line, " ", 3)
		i := strings.Index(f[2], `"k":"`)
		k := f[2][i+5:]
		k = k[:strings.IndexByte(k, '"')]
		got[k] = append(got[k], f[0]+" "+f[1])
	}
	return got
}

func TestKillAndRerun(t *testing.T) {
	if testing.Short() {
		t.Skip("re-executes the test binary")
	}
	for _, tc := range []struct {
		node, step string
		// skipped: the Delta sink skips the replayed batch (its txn is in
		// the table); resent: the ForEach sink receives it again.
		skipped, resent bool
	}{
		{node: "s", step: stepOffsets},
		{node: "s", step: stepSink, skipped: true},
		{node: "s", step: stepCommit},
		{node: "fe", step: stepOffsets},
		{node: "fe", step: stepSink, resent: true},
		{node: "fe", step: stepCommit},
	} {
		t.Run(tc.node+" "+tc.step, func(t *testing.T) {
			w := newWS(t, killFiles())
			workspacetest.Ordered(t, w.dir, time.Now().Add(-10*time.Minute), "data/in/1.jsonl", "data/in/2.jsonl", "data/in/3.jsonl")
			killAt(t, w.dir, tc.node, tc.step, 1)
			r := testRunner(t)
			snap := w.load()
			o := mustRun(t, r, snap, Request{})
			path := w.table("out")
			if got := query(t, r, path, "SELECT count(*), count(DISTINCT k) FROM t")[0]; got[0] != "9" || got[1] != "9" {
				t.Fatalf("Delta sink rows %v: want the 9 rows once", got)
			}
			skips := 0
			for _, e := range eventKinds(o.events, EventTaskProgress) {
				if strings.Contains(e.Message, "is already in") {
					skips++
				}
			}
			if tc.skipped != (skips == 1) {
				t.Fatalf("replayed batch skipped %d times, want skipped=%v", skips, tc.skipped)
			}
			for _, node := range []string{"s", "fe"} {
				cp := flowDir(t, snap, "pl", node)
				if got := fmt.Sprint(batchesOf(t, cp, "commits")); got != "[0 1 2]" {
					t.Fatalf("%s commits %s", node, got)
				}
			}
			got := outLines(t, w.dir)
			if len(got) != 9 {
				t.Fatalf("ForEach received %d distinct rows, want 9: %v", len(got), got)
			}
			var twice []string
			for k, ids := range got {
				if len(ids) > 1 {
					twice = append(twice, k)
					if ids[0] != ids[1] || ids[0] != "1 0" {
						t.Fatalf("row %s resent with (epoch partition) %v: want the same ids, epoch 1", k, ids)
					}
				}
			}
			sort.Strings(twice)
			want := ""
			if tc.resent {
				want = "[b-0 b-1]"
			}
			if fmt.Sprint(twice) != want && !(want == "" && len(twice) == 0) {
				t.Fatalf("rows received twice %v, want %s", twice, want)
			}
		})
	}
}
