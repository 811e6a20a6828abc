package runner

import (
	"context"
	"fmt"
	"io/fs"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/laktory/workbench/runner/engine"
	"github.com/laktory/workbench/runner/foreach"
	"github.com/laktory/workbench/workspace/workspacetest"
)

func (s *recSession) Rows(ctx context.Context, query string) (engine.Rows, error) {
	s.e.log("rows")
	return s.Session.Rows(ctx, query)
}

// foreachSeen records what the writers of a ForEach sink received: the
// rows of each (epoch, partition), sorted.
type foreachSeen struct {
	mu   sync.Mutex
	rows map[string][]string
}

func (f *foreachSeen) sink(name string) *foreach.Sink {
	return foreach.New(name, func(_ context.Context, t foreach.Target) (foreach.Writer, error) {
		return foreach.WriterFunc(func(_ context.Context, row foreach.Row) error {
			f.mu.Lock()
			defer f.mu.Unlock()
			key := fmt.Sprintf("%s epoch %d partition %d", t.Flow, t.EpochID, t.PartitionID)
			f.rows[key] = append(f.rows[key], row.String())
			return nil
		}), nil
	}, foreach.Options{})
}

func (f *foreachSeen) take() map[string][]string {
	f.mu.Lock()
	defer f.mu.Unlock()
	out := f.rows
	for _, rs := range out {
		slices.Sort(rs)
	}
	f.rows = map[string][]string{}
	return out
}

// TestEngineSeamForEach: on the Spark engine (whose sessions hold no DuckDB
// connection the runner could use) a ForEach sink's micro-batches come to
// Go through the seam (Session.Rows), and its writers get the same rows,
// in the same partitions, with the same (partition, epoch) ids as on the
// local engine (which builds the rows in DuckDB): a batch large enough to be split in two partitions, then a
// batch of one partition.
func TestEngineSeamForEach(t *testing.T) {
	files := foreachFiles("command: [\"false\"]")
	files["pipelines/pl.yaml"] = strings.Replace(files["pipelines/pl.yaml"], "as_stream: true", "as_stream: true\n    reader_kwargs: {maxFilesPerTrigger: 1}", 1)
	files["data/in/1.jsonl"] = jsonl("o", 0, foreachRowsPerPartition+1, "")
	files["data/in/2.jsonl"] = jsonl("p", 0, 3, `, "at": "2024-01-02"`)
	var got [2]map[string][]string
	for i, name := range []string{engine.Local, engine.Spark} {
		t.Run(name, func(t *testing.T) {
			seen := &foreachSeen{rows: map[string][]string{}}
			rec := &fakeEngine{}
			r := testRunner(t, func(c *Config) {
				c.Parallel = 2
				c.ForEach = map[string]*foreach.Sink{"api": seen.sink("api")}
			})
			if name == engine.Spark {
				rec.Engine = r.local
				r.cfg.Engine = sparkNamed{rec}
			}
			w := newWS(t, files)
			workspacetest.Ordered(t, w.dir, time.Now().Add(-time.Hour), "data/in/1.jsonl", "data/in/2.jsonl")
			mustRun(t, r, w.load(), Request{})
			got[i] = seen.take()
			want := map[string]int{"pl.orders/foreach-api epoch 0 partition 0": 0, "pl.orders/foreach-api epoch 0 partition 1": 0, "pl.orders/foreach-api epoch 1 partition 0": 3}
			n := 0
			for k, rs := range got[i] {
				if c, ok := want[k]; !ok || (c > 0 && len(rs) != c) {
					t.Errorf("%s: %d rows", k, len(rs))
				}
				n += len(rs)
			}
			if len(got[i]) != len(want) || n != foreachRowsPerPartition+4 {
				t.Fatalf("%d partitions, %d rows: %v", len(got[i]), n, slices.Sorted(maps.Keys(got[i])))
			}
			rows := 0
			for _, op := range rec.take() {
				if op == "rows" {
					rows++
				}
			}
			if want := map[string]int{engine.Local: 0, engine.Spark: 2}[name]; rows != want {
				t.Fatalf("%d batches read through Session.Rows, want %d", rows, want)
			}
		})
	}
	if fmt.Sprint(got[0]) != fmt.Sprint(got[1]) {
		t.Fatal("the writers got other rows or partitions on the Spark engine than on the local one")
	}
	if rs := got[1]["pl.orders/foreach-api epoch 1 partition 0"]; len(rs) != 3 || rs[0] != `{"at":"2024-01-02","k":"p-0","v":0}` { // a JSON file's columns in Spark's order
		t.Fatalf("epoch 1: %q", rs)
	}
}

func (s *recSession) SaveParquet(ctx context.Context, dir, query string) error {
	s.e.log("save %s", filepath.Base(dir))
	return s.Session.SaveParquet(ctx, dir, query)
}

// TestEngineSeamUpdateFlow: on the Spark engine an update flow keeps its
// state through the seam (Session.SaveParquet, read back with ReadFiles),
// and its ForEach writers get the same changed rows per (epoch, partition)
// as on the local engine: a second batch with a column the first lacked
// (its input joins the state by name), a run with nothing new, and a state
// of one Parquet file (what earlier versions wrote) read as the folder.
func TestEngineSeamUpdateFlow(t *testing.T) {
	files := map[string]string{
		"pipelines/decl.yaml": `name: decl
orchestrator: {type: SPARK_DECLARATIVE_PIPELINE}
nodes:
- name: counts
  flow: {kind: update}
  source: {path: ../data/in/, format: JSONL, as_stream: true}
  transformer:
    nodes:
    - expr: SELECT user_id, count(*) AS n, count(src) AS web FROM {df} GROUP BY user_id
  sinks:
  - foreach: {name: api, command: ["false"]}
`,
		"data/in/1.jsonl": `{"user_id": "u1", "src": "web"}` + "\n" + `{"user_id": "u2", "src": "web"}` + "\n" + `{"user_id": "u1", "src": "app"}` + "\n",
	}
	later := []map[string]string{
		{"data/in/2.jsonl": `{"user_id": "u2"}` + "\n" + `{"user_id": "u3", "at": 1}` + "\n"},
		{},
		{"data/in/3.jsonl": `{"user_id": "u1"}` + "\n"},
	}
	var got [2]map[string][]string
	for i, name := range []string{engine.Local, engine.Spark} {
		t.Run(name, func(t *testing.T) {
			seen := &foreachSeen{rows: map[string][]string{}}
			rec := &fakeEngine{}
			r := testRunner(t, func(c *Config) { c.ForEach = map[string]*foreach.Sink{"api": seen.sink("api")} })
			if name == engine.Spark {
				rec.Engine = r.local
				r.cfg.Engine = sparkNamed{rec}
			}
			w := newWS(t, files)
			mustRun(t, r, w.load(), Request{})
			for j, fs := range later { // one file each, newer than the last
				if j == 2 {
					legacyState(t, w.dir)
				}
				w.write(fs)
				mustRun(t, r, w.load(), Request{})
			}
			got[i] = seen.take()
			saves, rows := 0, 0
			for _, op := range rec.take() {
				saves += strings.Count(op, "save ")
				if op == "rows" {
					rows++
				}
			}
			if name == engine.Spark && (saves != 6 || rows != 3) { // an input and an output per batch
				t.Errorf("%d states saved and %d batches read through the seam, want 6 and 3", saves, rows)
			}
		})
	}
	want := map[string][]string{
		"api__counts epoch 0 partition 0": {`{"user_id":"u1","n":2,"web":2}`, `{"user_id":"u2","n":1,"web":1}`},
		"api__counts epoch 1 partition 0": {`{"user_id":"u2","n":2,"web":1}`, `{"user_id":"u3","n":1,"web":0}`},
		"api__counts epoch 2 partition 0": {`{"user_id":"u1","n":3,"web":2}`},
	}
	for i, name := range []string{engine.Local, engine.Spark} {
		if fmt.Sprint(got[i]) != fmt.Sprint(want) {
			t.Errorf("the %s engine's writers got %v, want %v", name, got[i], want)
		}
	}
}

// legacyState makes the latest state of the workspace's checkpoints what
// earlier versions of the runner wrote: one Parquet file per input and
// output instead of a folder.
func legacyState(t *testing.T, dir string) {
	t.Helper()
	var parts []string
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err == nil && d.Name() == "part-00000.parquet" && filepath.Base(filepath.Dir(filepath.Dir(p))) == "1" {
			parts = append(parts, p)
		}
		return err
	})
	if err != nil || len(parts) != 2 {
		t.Fatalf("the state of batch 1: %v %v", parts, err)
	}
	for _, p := range parts {
		folder := filepath.Dir(p)
		if err := os.Rename(p, folder+".tmp"); err != nil {
			t.Fatal(err)
		}
		if err := os.Remove(folder); err != nil {
			t.Fatal(err)
		}
		if err := os.Rename(folder+".tmp", folder); err != nil {
			t.Fatal(err)
		}
	}
}
