//go:build unix

package runner

import (
	"context"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"syscall"
	"testing"
	"time"

	"github.com/laktory/workbench/workspace"
	"github.com/laktory/workbench/workspace/workspacetest"
)

// The MERGE kill tests run a streaming MERGE in a child process (this test
// binary, TestMergeKillHelper) that SIGKILLs itself at one point, run it
// again here, and compare the table with an uninterrupted run's.

const (
	envMergeKillDir    = "LAKTORY_MERGE_KILL_DIR"
	envMergeKillStep   = "LAKTORY_MERGE_KILL_STEP"
	envMergeKillBatch  = "LAKTORY_MERGE_KILL_BATCH"
	envMergeKillCommit = "LAKTORY_MERGE_KILL_COMMIT"
)

// TestMergeKillHelper is the child process: it is killed after step of
// micro-batch batch, or before its n-th commit (the empty target's
// creation, then each batch's MERGE and append).
func TestMergeKillHelper(t *testing.T) {
	dir := os.Getenv(envMergeKillDir)
	if dir == "" {
		t.Skip("the process the MERGE kill tests kill")
	}
	step := os.Getenv(envMergeKillStep)
	batch, _ := strconv.ParseInt(os.Getenv(envMergeKillBatch), 10, 64)
	commit, _ := strconv.Atoi(os.Getenv(envMergeKillCommit))
	kill := func() { syscall.Kill(os.Getpid(), syscall.SIGKILL) } //nolint:errcheck // the process ends here
	commits := 0
	r := testRunner(t, func(c *Config) {
		c.afterStep = func(_, _, s string, b int64) {
			if s == step && b == batch {
				kill()
			}
		}
		c.beforeCommit = func(string, int) {
			if commits++; commits == commit {
				kill()
			}
		}
	})
	run(t, r, workspacetest.LoadDir(t, dir, workspace.Options{}), Request{})
	t.Fatalf("not killed (step %q of batch %d, commit %d; %d commits)", step, batch, commit, commits)
}

// mergeStreamFiles: three landing files, one micro-batch each, streamed
// into an SCD type 1 or 2 MERGE sink. The batches insert, update (one
// late), delete, and bring NULL keys, which an SCD type 1 merge inserts
// again each time: a batch merged twice would show.
func mergeStreamFiles(scd int) map[string]string {
	return map[string]string{
		"pipelines/pl.yaml": `name: pl
nodes:
- name: silver
  sources:
  - path: ../data/in/
    format: JSONL
    as_stream: true
    reader_kwargs: {maxFilesPerTrigger: 1}
  sinks:
  - path: ../out/silver
    format: DELTA
    mode: MERGE
    merge_cdc_options:
      primary_keys: [id]
      order_by: seq
      delete_where: op = 'D'
      scd_type: ` + strconv.Itoa(scd) + "\n",
		"data/in/1.jsonl": `{"id": 1, "v": "a", "seq": 1, "op": "I"}
{"id": 2, "v": "b", "seq": 1, "op": "I"}
{"id": null, "v": "n", "seq": 1, "op": "I"}
`,
		"data/in/2.jsonl": `{"id": 1, "v": "a2", "seq": 2, "op": "U"}
{"id": 2, "v": null, "seq": 2, "op": "D"}
{"id": 3, "v": "c", "seq": 1, "op": "I"}
{"id": null, "v": "n2", "seq": 2, "op": "U"}
`,
		"data/in/3.jsonl": `{"id": 1, "v": "late", "seq": 1, "op": "U"}
{"id": 3, "v": "c2", "seq": 3, "op": "U"}
{"id": 2, "v": "back", "seq": 3, "op": "I"}
`,
	}
}

func TestMergeKillAndRerun(t *testing.T) {
	if testing.Short() {
		t.Skip("re-executes the test binary")
	}
	for _, scd := range []int{1, 2} {
		t.Run("SCD"+strconv.Itoa(scd), func(t *testing.T) {
			setup := func(t *testing.T) *ws {
				w := newWS(t, mergeStreamFiles(scd))
				for i, f := range []string{"1", "2", "3"} {
					touch(t, filepath.Join(w.dir, "data/in", f+".jsonl"), time.Now().Add(time.Duration(i-10)*time.Minute))
				}
				return w
			}
			// The uninterrupted run, and how many commits it makes.
			w := setup(t)
			commits := 0
			r := testRunner(t, func(c *Config) { c.beforeCommit = func(string, int) { commits++ } })
			mustRun(t, r, w.load(), Request{})
			_, want := canonicalRows(t, r, filepath.Join(w.dir, "out", "silver"))
			if len(want) < 3 || commits < 4 {
				t.Fatalf("the uninterrupted run made %d commits and %d rows", commits, len(want))
			}
			type point struct {
				step   string
				batch  int
				commit int
			}
			var points []point
			for _, s := range []string{stepOffsets, stepSink, stepCommit} {
				points = append(points, point{step: s, batch: 1})
			}
			for n := 1; n <= commits; n++ {
				points = append(points, point{commit: n})
			}
			for _, p := range points {
				name := p.step + " of batch " + strconv.Itoa(p.batch)
				if p.commit > 0 {
					name = "before commit " + strconv.Itoa(p.commit)
				}
				t.Run(name, func(t *testing.T) {
					w := setup(t)
					mergeKillAt(t, w.dir, p.step, p.batch, p.commit)
					r := testRunner(t)
					mustRun(t, r, w.load(), Request{})
					if _, got := canonicalRows(t, r, filepath.Join(w.dir, "out", "silver")); !slices.Equal(got, want) {
						t.Fatalf("after the kill and a rerun the table holds\n%v\nthe uninterrupted run's\n%v", got, want)
					}
				})
			}
		})
	}
}

func mergeKillAt(t *testing.T, dir, step string, batch, commit int) {
	t.Helper()
	cmd := exec.CommandContext(context.Background(), os.Args[0], "-test.run=^TestMergeKillHelper$", "-test.count=1")
	cmd.Env = append(os.Environ(), envMergeKillDir+"="+dir, envMergeKillStep+"="+step,
		envMergeKillBatch+"="+strconv.Itoa(batch), envMergeKillCommit+"="+strconv.Itoa(commit))
	out, err := cmd.CombinedOutput()
	var ee *exec.ExitError
	if !errors.As(err, &ee) {
		t.Fatalf("the child was not killed (%v):\n%s", err, out)
	}
	if ws, ok := ee.Sys().(syscall.WaitStatus); !ok || !ws.Signaled() || ws.Signal() != syscall.SIGKILL {
		t.Fatalf("the child ended with %v, not SIGKILL:\n%s", err, out)
	}
}
