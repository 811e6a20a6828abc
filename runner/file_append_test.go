//go:build unix

package runner

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/laktory/workbench/runner/checkpoint"
	"github.com/laktory/workbench/runner/sink"
)

// fileAppendSinks are batch APPEND file sinks: PARQUET and CSV folders
// partitioned by c (one file per value: 3), a JSON folder (one file), and
// how to read each back.
var fileAppendSinks = []struct {
	name, sink, reader string
	files              int
}{
	{"parquet", "  - path: ../out/pq/\n    format: PARQUET\n    mode: APPEND\n    writer_methods:\n    - name: partitionBy\n      args: [c]\n", "read_parquet('%s/out/pq/*/*.parquet')", 3},
	{"csv", "  - path: ../out/cs/\n    format: CSV\n    mode: APPEND\n    writer_methods:\n    - name: partitionBy\n      args: [c]\n", "read_csv('%s/out/cs/*/*.csv')", 3},
	{"json", "  - path: ../out/js/\n    format: JSON\n    mode: APPEND\n", "read_json_auto('%s/out/js/*.json')", 1},
}

const fileAppendPipeline = `name: pl
nodes:
- name: s
  sources:
  - path: ../data/in/
    format: JSONL
  sinks:
SINK`

func fileAppendFiles(sk string) map[string]string {
	return map[string]string{"pipelines/pl.yaml": strings.Replace(fileAppendPipeline, "SINK", sk, 1),
		"data/in/1.jsonl": jsonl("a", 0, 3, `, "c": 1`) + jsonl("b", 0, 2, `, "c": 2`) + jsonl("d", 0, 1, `, "c": 3`)}
}

// TestBatchFileSinkAppendKilled: a batch run appending to a file sink
// (PARQUET, CSV, JSON folders), killed after it recorded the files it
// moves and before the first move, after each move, and after the last
// (before it forgets the record): the next run of the writer removes
// exactly the files the killed run moved (their names were recorded
// before the first move), says so, and appends once. The sink holds the
// first run's rows and the last run's, each key twice, never the killed
// run's part of a batch; the earlier files are untouched.
func TestBatchFileSinkAppendKilled(t *testing.T) {
	if testing.Short() {
		t.Skip("re-executes the test binary")
	}
	for _, fs := range fileAppendSinks {
		points := []string{sink.FailFilesRecorded + ":1"}
		for i := 1; i <= fs.files; i++ {
			points = append(points, fmt.Sprintf("%s:%d", sink.FailFilesMoved, i))
		}
		for _, point := range points {
			t.Run(fs.name+" "+point, func(t *testing.T) {
				w := newWS(t, fileAppendFiles(fs.sink))
				r := testRunner(t)
				mustRun(t, r, w.load(), Request{})
				reader := fmt.Sprintf(fs.reader, w.dir)
				first := sinkFiles(t, w.dir)
				crashAt(t, w.dir, point, Request{})
				o := mustRun(t, r, w.load(), Request{})
				if got := sqlRows(t, r, "SELECT count(*), count(DISTINCT k), max(n) FROM (SELECT k, count(*) AS n FROM "+reader+" GROUP BY k)"); fmt.Sprint(got) != "[[6 6 2]]" {
					t.Fatalf("keys, distinct keys and most copies of a key after the killed run and a normal one: %v, want 6 6 2", got)
				}
				for _, f := range first {
					if !exists(filepath.Join(w.dir, f)) {
						t.Fatalf("the first run's file %s was removed", f)
					}
				}
				if n := len(sinkFiles(t, w.dir)); n != 2*fs.files {
					t.Fatalf("%d files in the sink, want %d", n, 2*fs.files)
				}
				moved := point != sink.FailFilesRecorded+":1"
				said := false
				for _, e := range o.events {
					said = said || strings.Contains(e.Message, "an interrupted run moved into")
				}
				if said != moved {
					t.Fatalf("the run says it removed an interrupted run's files: %v, want %v", said, moved)
				}
				if recs := publishRecords(t, w); len(recs) != 0 {
					t.Fatalf("records left: %v", recs)
				}
			})
		}
	}
}

// TestBatchFileSinkAppendLive: the record of an append another run is
// moving into place (its record held) is left alone: its files stay.
func TestBatchFileSinkAppendLive(t *testing.T) {
	fs := fileAppendSinks[2]
	w := newWS(t, fileAppendFiles(fs.sink))
	r := testRunner(t)
	mustRun(t, r, w.load(), Request{})
	files := sinkFiles(t, w.dir)
	rel, _ := filepath.Rel(filepath.Join(w.dir, "out/js"), filepath.Join(w.dir, files[0]))
	p := w.load().Pipeline("pl")
	n := p.Node("s")
	rec := publishRecordPath(CheckpointDir(w.load().Layout, p, n, n.Sinks[0]), "live")
	release, err := checkpoint.HoldRecord(rec, []byte(`{"sink": "out/js", "files": ["`+rel+`"]}`+"\n"))
	if err != nil {
		t.Fatal(err)
	}
	defer release() //nolint:errcheck
	mustRun(t, r, w.load(), Request{})
	if !exists(filepath.Join(w.dir, files[0])) || !exists(rec) {
		t.Fatal("a run removed the files or the record of an append in progress")
	}
	if n := len(sinkFiles(t, w.dir)); n != 2 {
		t.Fatalf("%d files in the sink, want 2", n)
	}
}

// sinkFiles lists the files under out/ (relative to the workspace),
// hidden ones excluded.
func sinkFiles(t *testing.T, dir string) []string {
	t.Helper()
	var out []string
	err := filepath.WalkDir(filepath.Join(dir, "out"), func(p string, d os.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if strings.HasPrefix(d.Name(), ".") {
			if d.IsDir() {
				return filepath.SkipDir
			}
			return nil
		}
		if !d.IsDir() {
			rel, _ := filepath.Rel(dir, p)
			out = append(out, rel)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// publishRecords lists the append records beside the writer's checkpoint.
func publishRecords(t *testing.T, w *ws) []string {
	t.Helper()
	p := w.load().Pipeline("pl")
	n := p.Node("s")
	dir := CheckpointDir(w.load().Layout, p, n, n.Sinks[0])
	var out []string
	for _, e := range readDir(filepath.Dir(dir)) {
		if strings.HasPrefix(e.Name(), filepath.Base(dir)+".publish-") {
			out = append(out, e.Name())
		}
	}
	return out
}
