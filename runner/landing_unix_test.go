//go:build unix

package runner

import (
	"context"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/laktory/workbench/validate"
)

// TestLandingFIFO: a FIFO in a landing folder (no writer ever opens it)
// is skipped with a warning by validate, plan and runs, batch and stream,
// and never opened: opening it would block forever. The plan's warning is
// validate's LK206 (one function makes both), and the run, which prints
// the plan's warnings, does not repeat it when its read skips the same
// entry.
func TestLandingFIFO(t *testing.T) {
	for _, stream := range []bool{false, true} {
		t.Run(map[bool]string{false: "batch", true: "stream"}[stream], func(t *testing.T) {
			w := newWS(t, map[string]string{"pipelines/pl.yaml": landingPipeline("in/", stream), "data/in/a.csv": "v\n1\n"})
			backdate(t, filepath.Join(w.dir, "data", "in", "a.csv"))
			if err := syscall.Mkfifo(filepath.Join(w.dir, "data", "in", "pipe.csv"), 0o644); err != nil {
				t.Skipf("mkfifo: %v", err)
			}
			r := testRunner(t)
			snap := w.load()
			finished := make(chan struct{})
			var ds []validate.Diagnostic
			var o outcome
			go func() {
				defer close(finished)
				var err error
				if ds, err = r.Validate(context.Background(), snap, validate.Options{}); err != nil {
					t.Error(err)
					return
				}
				o = run(t, r, snap, Request{Selectors: []string{"land"}})
			}()
			select {
			case <-finished:
			case <-time.After(2 * time.Minute):
				t.Fatal("validate or run hangs on a FIFO in the landing folder")
			}
			var lk206 bool
			for _, d := range ds {
				lk206 = lk206 || d.Code == validate.CodeNotRegular && strings.Contains(d.Message, "pipe.csv")
			}
			if !lk206 {
				t.Errorf("validate does not warn about the FIFO (LK206): %v", ds)
			}
			if o.err != nil {
				t.Fatal(o.err)
			}
			var planned []validate.Diagnostic
			for _, d := range o.plan.Warnings {
				if d.Code == validate.CodeNotRegular && strings.Contains(d.Message, "pipe.csv") {
					planned = append(planned, d)
				}
			}
			if len(planned) != 1 || planned[0].Message != lk206Message(ds) || planned[0].File == "" || planned[0].Line == 0 {
				t.Errorf("the plan's LK206 warnings %+v, want validate's one: %v", planned, ds)
			}
			if n := strings.Count(strings.Join(o.sum.Warnings, "\n"), "pipe.csv"); n != 1 {
				t.Errorf("the run warns %d times about the skipped FIFO, want once: %q", n, o.sum.Warnings)
			}
			if got := query(t, r, w.table("t"), "SELECT string_agg(v, ' ') FROM t"); got[0][0] != "1" {
				t.Fatalf("rows: %q, want 1", got[0][0])
			}
		})
	}
}

// lk206Message is the message of the LK206 diagnostic of ds ("" for none).
func lk206Message(ds []validate.Diagnostic) string {
	for _, d := range ds {
		if d.Code == validate.CodeNotRegular {
			return d.Message
		}
	}
	return ""
}
