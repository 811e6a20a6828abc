package runner

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/laktory/workbench/validate"
	"github.com/laktory/workbench/workspace"
)

// landingPipeline is a pipeline reading ../data/<path> as CSV into table
// t (as a stream when stream).
func landingPipeline(path string, stream bool) string {
	s := `name: pl
nodes:
- name: land
  sources:
  - path: ../data/` + path + `
    format: CSV
`
	if stream {
		s += "    as_stream: true\n"
	}
	mode := "OVERWRITE"
	if stream {
		mode = "APPEND"
	}
	return s + `  sinks:
  - table_name: t
    mode: ` + mode + "\n"
}

// backdate sets the modification times of files an hour back (settled).
func backdate(t testing.TB, paths ...string) {
	t.Helper()
	old := time.Now().Add(-time.Hour)
	for _, p := range paths {
		if err := os.Chtimes(p, old, old); err != nil {
			t.Fatal(err)
		}
	}
}

// TestLandingGlobCharacters: files whose names hold glob characters are
// read exactly, once each, by batch and streaming reads of their folder
// and by a glob source; DuckDB would expand f?.csv to f1.csv, fa.csv and
// itself, and [f]1.csv to f1.csv only (its own row never read).
func TestLandingGlobCharacters(t *testing.T) {
	names := map[string]string{"f1.csv": "1", "f?.csv": "2", "[f]1.csv": "3", "fa.csv": "4", "**": "5", "f*.csv": "6"}
	cases := []struct {
		name, path string
		stream     bool
		want       string
	}{
		{"folder batch", "in/", false, "1 2 3 4 5 6"},
		{"folder stream", "in/", true, "1 2 3 4 5 6"},
		// Go's (Hadoop's) wildcards: f? matches f1, f?, fa and f* (one
		// character), each read once.
		{"glob batch", "in/f?.csv", false, "1 2 4 6"},
		{"glob stream", "in/f?.csv", true, "1 2 4 6"},
		{"glob class", "in/[[]f]1.csv", false, "3"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			files := map[string]string{"pipelines/pl.yaml": landingPipeline(tc.path, tc.stream)}
			for n, v := range names {
				files["data/in/"+n] = "v\n" + v + "\n"
			}
			w := newWS(t, files)
			var paths []string
			for n := range names {
				paths = append(paths, filepath.Join(w.dir, "data", "in", n))
			}
			backdate(t, paths...)
			r := testRunner(t)
			mustRun(t, r, w.load(), Request{Selectors: []string{"land"}})
			got := query(t, r, w.table("t"), "SELECT string_agg(v, ' ' ORDER BY v) FROM t")
			if got[0][0] != tc.want {
				t.Fatalf("rows read: %q, want %q (each file once)", got[0][0], tc.want)
			}
		})
	}
}

// TestLandingHalfWrittenFile: a run (stream or batch) never reads a file
// its writer is still appending to, so a half-written last line is never
// stored: the stream leaves it for a later run (with a warning), the batch
// read fails naming it; once complete, the next run reads every row whole.
func TestLandingHalfWrittenFile(t *testing.T) {
	for _, stream := range []bool{true, false} {
		name := map[bool]string{true: "stream", false: "batch"}[stream]
		t.Run(name, func(t *testing.T) {
			w := newWS(t, map[string]string{"pipelines/pl.yaml": landingPipeline("in/", stream), "data/in/a.csv": "v\n1\n"})
			backdate(t, filepath.Join(w.dir, "data", "in", "a.csv"))
			part := filepath.Join(w.dir, "data", "in", "b.csv")
			if err := os.WriteFile(part, []byte("v\n2\n3"), 0o644); err != nil { // "3" is half of "33"
				t.Fatal(err)
			}
			stop, done := make(chan struct{}), make(chan struct{})
			go func() { // the writer keeps appending while the run lists
				defer close(done)
				for {
					select {
					case <-stop:
						return
					case <-time.After(20 * time.Millisecond):
					}
					f, err := os.OpenFile(part, os.O_APPEND|os.O_WRONLY, 0)
					if err == nil {
						f.WriteString("") // no byte: touch the time
						f.Close()
					}
					now := time.Now()
					os.Chtimes(part, now, now)
				}
			}()
			r := testRunner(t, func(c *Config) { c.Settle = 200 * time.Millisecond })
			o := run(t, r, w.load(), Request{Selectors: []string{"land"}})
			close(stop)
			<-done
			if stream {
				if o.err != nil {
					t.Fatal(o.err)
				}
				if !strings.Contains(strings.Join(o.sum.Warnings, "\n"), "still being written") {
					t.Fatalf("no warning about the file being written: %q", o.sum.Warnings)
				}
				if got := query(t, r, w.table("t"), "SELECT string_agg(v, ' ' ORDER BY v) FROM t"); got[0][0] != "1" {
					t.Fatalf("rows after the first run: %q, want 1 (b.csv left for later)", got[0][0])
				}
			} else if o.err == nil || !strings.Contains(o.err.Error()+taskErrs(o), "b.csv is still being written") {
				t.Fatalf("the batch read of a file being written: %v %s", o.err, taskErrs(o))
			}
			if err := os.WriteFile(part, []byte("v\n2\n33\n"), 0o644); err != nil {
				t.Fatal(err)
			}
			backdate(t, part)
			mustRun(t, r, w.load(), Request{Selectors: []string{"land"}})
			if got := query(t, r, w.table("t"), "SELECT string_agg(v, ' ' ORDER BY v) FROM t"); got[0][0] != "1 2 33" {
				t.Fatalf("rows once the file is complete: %q, want 1 2 33", got[0][0])
			}
		})
	}
}

// taskErrs joins the errors of a run's tasks.
func taskErrs(o outcome) string {
	var b strings.Builder
	for _, ts := range o.sum.Tasks {
		b.WriteString(ts.Err)
	}
	return b.String()
}

// TestLandingProcessedFileChanged: a file a stream read that changes later
// is reported (a stream reads each file once, as Spark does), naming the
// FULL refresh that reads it again; it is not read a second time.
func TestLandingProcessedFileChanged(t *testing.T) {
	w := newWS(t, map[string]string{"pipelines/pl.yaml": landingPipeline("in/", true), "data/in/a.csv": "v\n1\n"})
	a := filepath.Join(w.dir, "data", "in", "a.csv")
	backdate(t, a)
	r := testRunner(t)
	mustRun(t, r, w.load(), Request{Selectors: []string{"land"}})
	if err := os.WriteFile(a, []byte("v\n1\n2\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	later := time.Now().Add(-time.Minute)
	os.Chtimes(a, later, later)
	o := mustRun(t, r, w.load(), Request{Selectors: []string{"land"}})
	warns := strings.Join(o.sum.Warnings, "\n")
	if !strings.Contains(warns, "changed after they were read") || !strings.Contains(warns, "a.csv (read in batch 0)") || !strings.Contains(warns, "--refresh FULL") {
		t.Fatalf("the changed file is not reported with its recovery: %q", o.sum.Warnings)
	}
	if got := query(t, r, w.table("t"), "SELECT count(*) FROM t"); got[0][0] != "1" {
		t.Fatalf("rows: %s, want 1 (the file is read once)", got[0][0])
	}
	o = mustRun(t, r, w.load(), Request{Selectors: []string{"land"}})
	if !strings.Contains(strings.Join(o.sum.Warnings, "\n"), "changed after they were read") {
		t.Fatal("the change is reported by one run only: every run must say it until it is dealt with")
	}
}

// TestStreamSchemaSample: a streaming source's schema is inferred from
// its 1,000 oldest files (Auto Loader's default sample), so the files
// that land later neither change the schema cache's key nor get read to
// bind; a batch source reads every file.
func TestStreamSchemaSample(t *testing.T) {
	dir := t.TempDir()
	old := time.Now().Add(-time.Hour)
	for i := range streamSchemaFiles + 5 {
		p := filepath.Join(dir, fmt.Sprintf("%05d.csv", streamSchemaFiles+5-i)) // names against time
		os.WriteFile(p, []byte("v\n1\n"), 0o644)
		ts := old.Add(time.Duration(i) * time.Second)
		os.Chtimes(p, ts, ts)
	}
	src := &workspace.Source{Kind: workspace.SourceFile, ResolvedPath: dir, Format: "CSV", AsStream: true}
	files, err := sourceFiles(src)
	if err != nil {
		t.Fatal(err)
	}
	if len(files) != streamSchemaFiles || filepath.Base(files[0]) != "00006.csv" {
		t.Fatalf("%d files from %s, want the %d oldest (00006.csv on)", len(files), filepath.Base(files[0]), streamSchemaFiles)
	}
	src.AsStream = false
	if files, _ := sourceFiles(src); len(files) != streamSchemaFiles+5 {
		t.Fatalf("a batch source's schema read %d files, want all %d", len(files), streamSchemaFiles+5)
	}
}

// TestLandingPlannedFileRemoved: a landing file a micro-batch planned
// (offsets/N and its file source log written) that is removed before the
// batch reads it fails the batch, as Spark's file stream source does
// without ignoreMissingFiles, and every rerun replays that batch: the
// error names the file, the flow and the two ways out (put the file back;
// the FULL refresh of the node), and after either the next runs succeed
// with exact rows.
func TestLandingPlannedFileRemoved(t *testing.T) {
	for _, fix := range []string{"restore the file", "full refresh"} {
		t.Run(fix, func(t *testing.T) {
			w := newWS(t, map[string]string{"pipelines/pl.yaml": landingPipeline("in/", true), "data/in/a.csv": "v\n1\n"})
			a, b := filepath.Join(w.dir, "data", "in", "a.csv"), filepath.Join(w.dir, "data", "in", "b.csv")
			backdate(t, a)
			removed := false
			r := testRunner(t, func(c *Config) {
				c.afterStep = func(task, flow, step string, batch int64) {
					if step == stepOffsets && batch == 1 && !removed {
						removed = true
						if err := os.Remove(b); err != nil {
							t.Error(err)
						}
					}
				}
			})
			req := Request{Pipelines: []string{"pl"}, Selectors: []string{"land"}}
			mustRun(t, r, w.load(), req)
			w.write(map[string]string{"data/in/b.csv": "v\n2\n"})
			backdate(t, b)
			for i := range 2 { // the run that planned b.csv, then a rerun replaying its batch
				o := run(t, r, w.load(), req)
				msg := taskErrs(o)
				if o.err == nil {
					t.Fatalf("run %d succeeded without b.csv", i+2)
				}
				for _, want := range []string{b, "flow pl.land/table-main.default.t, batch 1", "put the file back", "laktory run --pipeline pl --select land --refresh FULL"} {
					if !strings.Contains(msg, want) {
						t.Errorf("run %d: the error does not say %q: %s", i+2, want, msg)
					}
				}
			}
			want := "1 2"
			if fix == "restore the file" {
				w.write(map[string]string{"data/in/b.csv": "v\n2\n"})
				backdate(t, b)
				mustRun(t, r, w.load(), req)
			} else {
				full := req
				full.Refresh = validate.RefreshFull
				mustRun(t, r, w.load(), full)
				want = "1"
			}
			w.write(map[string]string{"data/in/c.csv": "v\n3\n"})
			backdate(t, filepath.Join(w.dir, "data", "in", "c.csv"))
			mustRun(t, r, w.load(), req)
			if got := query(t, r, w.table("t"), "SELECT string_agg(v, ' ' ORDER BY v) FROM t"); got[0][0] != want+" 3" {
				t.Fatalf("rows after %s and a new file: %q, want %q (each file once)", fix, got[0][0], want+" 3")
			}
		})
	}
}
