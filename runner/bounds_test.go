package runner

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// TestCheckpointAbsurdNumbers: a checkpoint whose batch files or offsets
// carry absurd numbers (9223372036854775807) fails the flow at once with
// ErrCheckpoint, instead of replaying one batch forever.
func TestCheckpointAbsurdNumbers(t *testing.T) {
	const huge = "9223372036854775807"
	tests := []struct {
		name    string
		corrupt func(t *testing.T, cp string)
	}{
		{"commit and offsets files", func(t *testing.T, cp string) {
			for _, log := range []string{"offsets", "commits"} {
				b, err := os.ReadFile(filepath.Join(cp, log, "0"))
				if err != nil {
					t.Fatal(err)
				}
				os.WriteFile(filepath.Join(cp, log, huge), b, 0o644)
			}
		}},
		{"a batch id beyond int64", func(t *testing.T, cp string) {
			os.WriteFile(filepath.Join(cp, "commits", "99999999999999999999"), []byte("v1\n{}"), 0o644)
		}},
		{"a file offset", func(t *testing.T, cp string) {
			p := filepath.Join(cp, "offsets", "0")
			b, _ := os.ReadFile(p)
			os.WriteFile(p, []byte(strings.Replace(string(b), `{"logOffset":0}`, `{"logOffset":`+huge+`}`, 1)), 0o644)
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			w := newWS(t, map[string]string{"pipelines/pl.yaml": fileStreamPipeline, "data/in/1.jsonl": jsonl("a", 0, 3, "")})
			r := testRunner(t)
			mustRun(t, r, w.load(), Request{})
			snap := w.load()
			tt.corrupt(t, flowDir(t, snap, "pl", "s"))
			w.write(map[string]string{"data/in/2.jsonl": jsonl("b", 0, 2, "")})
			ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
			defer cancel()
			plan, err := r.Plan(ctx, snap, Request{})
			if err != nil {
				t.Fatal(err)
			}
			rn, err := r.Start(ctx, plan)
			if err != nil {
				t.Fatal(err)
			}
			sum, err := rn.Wait()
			if ctx.Err() != nil {
				t.Fatal("the run did not end")
			}
			if got := taskSum(t, sum, "pl.s").Err; !errors.Is(err, ErrTasksFailed) || !strings.Contains(got, "corrupt") {
				t.Fatalf("run: %v, task error %q", err, got)
			}
			if n := count(t, r, w.table("out"), ""); n != 3 {
				t.Fatalf("%d rows, want the 3 of the first run", n)
			}
		})
	}
}

// TestDeltaOffsetAbsurdNumbers: a Delta source offset out of range is a
// corrupt checkpoint.
func TestDeltaOffsetAbsurdNumbers(t *testing.T) {
	for _, o := range []string{
		`{"sourceVersion":1,"reservoirId":"x","reservoirVersion":9223372036854775807,"index":-1,"isStartingVersion":false}`,
		`{"sourceVersion":1,"reservoirId":"x","reservoirVersion":-5,"index":-1,"isStartingVersion":false}`,
		`{"sourceVersion":1,"reservoirId":"x","reservoirVersion":1,"index":9223372036854775807,"isStartingVersion":false}`,
	} {
		if _, err := parseDeltaOffset([]byte(o)); !errors.Is(err, ErrCheckpoint) {
			t.Errorf("%s: %v", o, err)
		}
	}
	if _, err := parseDeltaOffset([]byte(`{"sourceVersion":1,"reservoirId":"x","reservoirVersion":3,"index":-1,"isStartingVersion":false}`)); err != nil {
		t.Fatal(err)
	}
}

// TestMovedWorkspaceStreamsNothingTwice: a workspace moved or renamed
// after a streaming run reads only the files that landed since; its file
// source log keeps the paths of the first location (absolute URIs, as
// Spark writes them).
func TestMovedWorkspaceStreamsNothingTwice(t *testing.T) {
	base := t.TempDir()
	dir := filepath.Join(base, "ws")
	os.MkdirAll(dir, 0o755)
	w := &ws{t: t, dir: dir}
	w.write(map[string]string{"pipelines/pl.yaml": fileStreamPipeline, "data/in/1.jsonl": jsonl("a", 0, 3, "")})
	r := testRunner(t)
	mustRun(t, r, w.load(), Request{})
	for i, to := range []string{"moved", "renamed-again"} {
		next := filepath.Join(base, to)
		if err := os.Rename(w.dir, next); err != nil {
			t.Fatal(err)
		}
		w.dir = next
		o := mustRun(t, r, w.load(), Request{})
		if o.sum.RowsWritten != 0 {
			t.Fatalf("move %d: %d rows streamed again", i+1, o.sum.RowsWritten)
		}
		w.write(map[string]string{"data/in/" + to + ".jsonl": jsonl(to, 0, 2, "")})
		if o := mustRun(t, r, w.load(), Request{}); o.sum.RowsWritten != 2 {
			t.Fatalf("move %d: %d rows written, want the new file's 2", i+1, o.sum.RowsWritten)
		}
	}
	if n := count(t, r, w.table("out"), ""); n != 7 {
		t.Fatalf("%d rows, want 7", n)
	}
	cp := flowDir(t, w.load(), "pl", "s")
	log, _ := os.ReadFile(filepath.Join(cp, "sources", "0", "2"))
	if !strings.Contains(string(log), "file://"+filepath.ToSlash(dir)+"/data/in/renamed-again.jsonl") {
		t.Fatalf("the log does not name the file under the first location %s:\n%s", dir, log)
	}
}
