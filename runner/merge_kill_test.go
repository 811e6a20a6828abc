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
	"strings"
	"testing"
	"time"

	"github.com/laktory/workbench/delta"
	"github.com/laktory/workbench/workspace/workspacetest"
)

// The MERGE crash tests stop a streaming MERGE at each named fail point
// (each hit of it: every micro-batch, every commit) in a child process
// (TestCrashHelper), run it again here, and compare the table with an
// uninterrupted run's.

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
	points := []string{FailBatchOffsets, FailBatchSink, FailBatchCommit, FailMergeMerged, delta.FailCommitBefore, delta.FailCommitAfter}
	for _, scd := range []int{1, 2} {
		t.Run("SCD"+strconv.Itoa(scd), func(t *testing.T) {
			setup := func(t *testing.T) *ws {
				w := newWS(t, mergeStreamFiles(scd))
				workspacetest.Ordered(t, w.dir, time.Now().Add(-10*time.Minute), "data/in/1.jsonl", "data/in/2.jsonl", "data/in/3.jsonl")
				return w
			}
			w := setup(t)
			r := testRunner(t)
			mustRun(t, r, w.load(), Request{})
			_, want := canonicalRows(t, r, filepath.Join(w.dir, "out", "silver"))
			if len(want) < 3 {
				t.Fatalf("the uninterrupted run left %d rows", len(want))
			}
			for _, p := range points {
				// Every hit with -crash.full, else the first two (the
				// table's creation or the first batch, and the next).
				for n := 1; *crashFull || n <= 2; n++ {
					point := p + ":" + strconv.Itoa(n)
					w := setup(t)
					if !mergeFailAt(t, w.dir, point) {
						if n == 1 {
							t.Fatalf("the run never reaches %s", p)
						}
						break
					}
					r := testRunner(t)
					mustRun(t, r, w.load(), Request{})
					if _, got := canonicalRows(t, r, filepath.Join(w.dir, "out", "silver")); !slices.Equal(got, want) {
						t.Fatalf("stopped at %s and run again, the table holds\n%v\nthe uninterrupted run's\n%v", point, got, want)
					}
				}
			}
		})
	}
}

// mergeFailAt runs the workspace in a child process (TestCrashHelper)
// stopped at point, and reports whether it stopped there (false: the run
// ended without reaching it).
func mergeFailAt(t *testing.T, dir, point string) bool {
	t.Helper()
	cmd := exec.CommandContext(context.Background(), os.Args[0], "-test.run=^TestCrashHelper$", "-test.count=1")
	cmd.Env = append(os.Environ(), envCrashDir+"="+dir, envCrashRequest+"={}", delta.FailPointEnv+"="+point)
	out, err := cmd.CombinedOutput()
	var ee *exec.ExitError
	switch {
	case errors.As(err, &ee) && ee.ExitCode() == delta.FailPointExit:
		return true
	case strings.Contains(string(out), "the run did not stop at"):
		return false
	}
	t.Fatalf("the child neither stopped at %s nor ended (%v):\n%s", point, err, out)
	return false
}
