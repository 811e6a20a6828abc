package runner

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/laktory/workbench/delta"
	"github.com/laktory/workbench/runner/dialect"
	"github.com/laktory/workbench/runner/engine"
	"github.com/laktory/workbench/workspace"
	"github.com/laktory/workbench/workspace/workspacetest"
)

// fakeEngine is an engine that records the table operations the runner asks
// of it (and fails commits as told), executing them with the local
// engine: the seam's contract, seen from the engine.
type fakeEngine struct {
	engine.Engine
	mu    sync.Mutex
	ops   []string
	opens int
	// zones are the SET TIME ZONE statements the sessions got (not passed
	// to the local engine).
	zones []string
	// fail makes the next n commits to a path lose a race.
	fail map[string]int
}

func (e *fakeEngine) log(format string, args ...any) {
	e.mu.Lock()
	defer e.mu.Unlock()
	e.ops = append(e.ops, fmt.Sprintf(format, args...))
}

func (e *fakeEngine) take() []string {
	e.mu.Lock()
	defer e.mu.Unlock()
	out := e.ops
	e.ops = nil
	return out
}

func (e *fakeEngine) Open(ctx context.Context) (engine.Session, error) {
	s, err := e.Engine.Open(ctx)
	e.mu.Lock()
	e.opens++
	e.mu.Unlock()
	return &recSession{Session: s, e: e}, err
}

type recSession struct {
	engine.Session
	e *fakeEngine
}

func (s *recSession) Exec(ctx context.Context, stmt string) error {
	if strings.HasPrefix(stmt, "SET TIME ZONE ") {
		s.e.mu.Lock()
		s.e.zones = append(s.e.zones, stmt)
		s.e.mu.Unlock()
		return nil
	}
	return s.Session.Exec(ctx, stmt)
}

func (s *recSession) Begin(ctx context.Context, path string, snap *delta.Snapshot, def delta.TableDefinition, opts delta.WriteOptions) (engine.Txn, error) {
	tx, err := s.Session.Begin(ctx, path, snap, def, opts)
	return &recTxn{Txn: tx, e: s.e, table: tableName(path), create: snap == nil}, err
}

type recTxn struct {
	engine.Txn
	e      *fakeEngine
	table  string
	create bool
	ops    []string
}

func tableName(path string) string { return path[strings.LastIndex(path, "/")+1:] }

func (t *recTxn) SetAppTransaction(appID string, version int64) (bool, error) {
	t.ops = append(t.ops, fmt.Sprintf("txn(%s,%d)", appID, version))
	done, err := t.Txn.SetAppTransaction(appID, version)
	if done {
		t.e.log("skip %s: txn(%s,%d)", t.table, appID, version)
	}
	return done, err
}
func (t *recTxn) Append(ctx context.Context, q string) error {
	t.ops = append(t.ops, "append")
	return t.Txn.Append(ctx, q)
}
func (t *recTxn) Delete(ctx context.Context, pred string) error {
	t.ops = append(t.ops, "delete "+pred)
	return t.Txn.Delete(ctx, pred)
}
func (t *recTxn) Truncate(ctx context.Context) error {
	t.ops = append(t.ops, "truncate")
	return t.Txn.Truncate(ctx)
}
func (t *recTxn) Commit(ctx context.Context) (*delta.CommitResult, error) {
	verb := "commit"
	if t.create {
		verb = "create"
	}
	t.e.mu.Lock()
	lose := t.e.fail[t.table] > 0
	if lose {
		t.e.fail[t.table]--
	}
	t.e.mu.Unlock()
	if lose {
		t.Txn.Abort()
		t.e.log("%s %s: %s: lost", verb, t.table, strings.Join(t.ops, ", "))
		return nil, fmt.Errorf("[DELTA_CONCURRENT_APPEND.WITH_PARTITION_HINT] a concurrent writer: %w", delta.ErrConcurrentAppend)
	}
	res, err := t.Txn.Commit(ctx)
	if err == nil {
		t.e.log("%s %s: %s", verb, t.table, strings.Join(t.ops, ", "))
	}
	return res, err
}

// TestEngineSeam: what the runner asks of its engine. Each task opens its
// own session; a first run creates the tables; a FULL refresh of one
// writer of a shared table deletes its rows in a commit of its own, then
// appends, and leaves the other writer alone; a commit the engine loses
// is retried on a fresh snapshot (5 times at most); a streaming flow's
// batches carry txn(flow, batch).
func TestEngineSeam(t *testing.T) {
	for _, o := range ownerships {
		t.Run(o.name, func(t *testing.T) {
			rec := &fakeEngine{fail: map[string]int{}}
			r := testRunner(t, func(c *Config) { c.Engine = rec })
			rec.Engine = r.local
			w := newWS(t, scenarioFiles(o))
			snap := w.load()
			mustRun(t, r, snap, Request{Parallel: 1})
			if got := rec.take(); !slices.Equal(got, []string{"create prices: append", "commit prices: append", "create solo: append"}) {
				t.Fatalf("first run: %q", got)
			}
			if rec.opens != 3 {
				t.Fatalf("%d sessions opened for 3 tasks", rec.opens)
			}

			rec.fail["prices"] = 2
			out := mustRun(t, r, snap, Request{Refresh: "FULL", Selectors: []string{"a"}})
			want := []string{
				"commit prices: delete " + o.ownsA + ": lost", "commit prices: delete " + o.ownsA + ": lost",
				"commit prices: delete " + o.ownsA, "commit prices: append"}
			got := rec.take()
			for i := range got {
				got[i] = strings.NewReplacer(`"`, "", "(", "", ")", "").Replace(got[i]) // the predicate as written
			}
			if !slices.Equal(got, want) {
				t.Fatalf("FULL refresh of a:\n got %q\nwant %q", got, want)
			}
			if out.sum.Retries != 2 || count(t, r, w.table("prices"), o.ownsA) != 3 || count(t, r, w.table("prices"), o.ownsB) != 2 {
				t.Fatalf("retries %d, rows a %d b %d", out.sum.Retries, count(t, r, w.table("prices"), o.ownsA), count(t, r, w.table("prices"), o.ownsB))
			}

			rec.fail["solo"] = 6
			out = run(t, r, snap, Request{Selectors: []string{"c"}})
			if ts := taskSum(t, out.sum, "pl.c"); len(ts.Retries) != 5 || !strings.Contains(ts.Err, "gave up after 6 attempts") {
				t.Fatalf("a writer that keeps losing: %d retries, %q", len(ts.Retries), ts.Err)
			}
			rec.take()
		})
	}
}

// TestEngineSeamStream: a streaming node's micro-batches reach the engine
// as appends carrying txn(flow, batch id), one per batch.
func TestEngineSeamStream(t *testing.T) {
	rec := &fakeEngine{}
	r := testRunner(t, func(c *Config) { c.Engine = rec })
	rec.Engine = r.local
	w := newWS(t, map[string]string{
		"pipelines/pl.yaml": `name: pl
nodes:
- name: s
  sources:
  - path: ../data/s/
    format: JSONL
    as_stream: true
    reader_kwargs: {maxFilesPerTrigger: 1}
  sinks:
  - table_name: events
    mode: APPEND
`,
		"data/s/1.jsonl": jsonl("a", 0, 2, ""),
		"data/s/2.jsonl": jsonl("b", 0, 3, ""),
	})
	mustRun(t, r, w.load(), Request{})
	got := rec.take()
	if len(got) != 2 || !strings.HasPrefix(got[0], "create events: txn(") || !strings.Contains(got[0], ",0), append") ||
		!strings.HasPrefix(got[1], "commit events: txn(") || !strings.Contains(got[1], ",1), append") {
		t.Fatalf("stream batches: %q", got)
	}
	if n := count(t, r, w.table("events"), ""); n != 5 {
		t.Fatalf("%d rows", n)
	}

}

// TestEngineSeamDeclarative: a declarative pipeline's flows run through the
// seam alone, the same on the Spark engine (whose sessions hold no DuckDB
// connection the runner could use) as on the local one: each batch of a
// flow is an append carrying txn(the flow's checkpoint id, its batch id);
// the once flow appends once; a batch replayed after a crash (its commit
// marker lost) is skipped by its txn; a full refresh drops the table (in
// Go) and every flow appends again from batch 0 under a new checkpoint id.
// The table's rows and commits are the same on both engines.
func TestEngineSeamDeclarative(t *testing.T) {
	want := []string{
		"first run: create events: txn(backfill,0), append | commit events: txn(live_a,0), append | commit events: txn(live_b,0), append | 7 rows",
		"new files: commit events: txn(live_a,1), append | 8 rows",
		"replay: skip events: txn(live_a,1) | 8 rows",
		"FULL refresh of live_a: create events: txn(live_a,0), append | 4 rows",
		"the other flows again: commit events: txn(backfill,0), append | commit events: txn(live_b,0), append | 13 rows",
	}
	var tables [2][][]string
	for i, name := range []string{engine.Local, engine.Spark} {
		t.Run(name, func(t *testing.T) {
			rec := &fakeEngine{}
			r := testRunner(t, func(c *Config) { c.Engine = rec })
			rec.Engine = r.local
			if name == engine.Spark {
				r.cfg.Engine = sparkNamed{rec}
			}
			w := newWS(t, declFiles())
			snap, path := w.load(), w.table("events")
			flows := map[string]string{} // checkpoint id -> node
			var got []string
			step := func(what string, req Request) {
				t.Helper()
				req.Parallel = 1
				mustRun(t, r, snap, req)
				for _, n := range []string{"backfill", "live_a", "live_b"} {
					var m struct{ ID string }
					if b, err := os.ReadFile(filepath.Join(flowDir(t, snap, "decl", n), "metadata")); err == nil && json.Unmarshal(b, &m) == nil {
						flows[m.ID] = n
					}
				}
				ops := strings.Join(append(rec.take(), fmt.Sprintf("%d rows", count(t, r, path, ""))), " | ")
				for id, n := range flows {
					ops = strings.ReplaceAll(ops, "txn("+id+",", "txn("+n+",")
				}
				got = append(got, what+": "+ops)
			}
			step("first run", Request{})
			w.write(map[string]string{"data/a/2.jsonl": jsonl("a2", 0, 1, ""), "data/archive/2.jsonl": jsonl("old2", 0, 5, "")})
			step("new files", Request{})
			// A crash after the batch's commit, before its commit marker.
			if err := os.Remove(filepath.Join(flowDir(t, snap, "decl", "live_a"), "commits", "1")); err != nil {
				t.Fatal(err)
			}
			step("replay", Request{})
			step("FULL refresh of live_a", Request{Selectors: []string{"live_a"}, Refresh: "FULL"})
			step("the other flows again", Request{})
			if !slices.Equal(got, want) {
				t.Fatalf("the engine was asked:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
			}
			tables[i] = query(t, r, path, "SELECT * FROM t ORDER BY ALL")
			ctx := t.Context()
			tbl, err := delta.Open(ctx, path)
			if err != nil {
				t.Fatal(err)
			}
			for v := range int64(3) {
				c, err := tbl.ReadCommit(ctx, v)
				if err != nil {
					t.Fatal(err)
				}
				txns, adds := 0, 0
				for _, a := range c.Actions {
					if a.Txn != nil {
						txns++
					}
					if a.Add != nil && a.Add.DataChange {
						adds++
					}
				}
				if txns != 1 || adds == 0 || c.Info == nil || c.Info.Operation == "" {
					t.Errorf("version %d: %d txn, %d files added (%+v): a flow's batch commits its rows with its txn", v, txns, adds, c.Info)
				}
				tables[i] = append(tables[i], []string{fmt.Sprintf("v%d %s", v, c.Info.Operation)})
			}
		})
	}
	if fmt.Sprint(tables[0]) != fmt.Sprint(tables[1]) {
		t.Fatalf("the engines' tables differ:\nlocal %v\nspark %v", tables[0], tables[1])
	}
}

// TestEngineSeamImportCheckpoint: on the Spark engine a flow importing a
// Spark checkpoint resumes after its last batch under the query's id, so
// its first batch is txn(the query id, 2).
func TestEngineSeamImportCheckpoint(t *testing.T) {
	rec := &fakeEngine{}
	r := testRunner(t, func(c *Config) { c.Engine = rec })
	rec.Engine = r.local
	r.cfg.Engine = sparkNamed{rec}
	w := newWS(t, importFiles("table_name: migrated\n    mode: APPEND"))
	snap := w.load()
	for range 3 {
		mustRun(t, r, snap, Request{Pipelines: []string{"src"}})
	}
	sparkDeltaCheckpoint(t, filepath.Join(w.dir, "cp"), loadSnap(t, w.table("src_t")).TableID(), 2, -1, false)
	rec.take()
	mustRun(t, r, snap, Request{Pipelines: []string{"mig"}})
	if got := rec.take(); !slices.Equal(got, []string{"create migrated: txn(5e1f6a1c-9a0b-4b7e-8a4e-2f1d1c0b9a8f,2), append"}) {
		t.Fatalf("the import's first batch: %q", got)
	}
	if n := count(t, r, w.table("migrated"), ""); n != 3 {
		t.Fatalf("%d rows, want version 2's 3 rows only", n)
	}
}

// TestEngineSessionTimeZone: a Spark session computes in the node's
// spark.sql.session.timeZone (here a flow's spark_conf), else in UTC, the
// zones the local engine's translation computes in; the local engine's
// sessions are not told.
func TestEngineSessionTimeZone(t *testing.T) {
	files := declFiles()
	files["pipelines/decl.yaml"] = strings.Replace(files["pipelines/decl.yaml"], `{spark.sql.shuffle.partitions: "4"}`, `{spark.sql.session.timeZone: America/New_York}`, 1)
	w := newWS(t, files)
	for _, name := range []string{engine.Local, engine.Spark} {
		rec := &fakeEngine{}
		r := testRunner(t, func(c *Config) { c.Engine = rec })
		rec.Engine = r.local
		if name == engine.Spark {
			r.cfg.Engine = sparkNamed{rec}
		}
		mustRun(t, r, w.load(), Request{Parallel: 1, Selectors: []string{"backfill", "live_a"}, Refresh: "FULL"})
		want := map[string]string{engine.Local: "[]", engine.Spark: "[SET TIME ZONE 'America/New_York' SET TIME ZONE 'UTC']"}[name]
		if got := fmt.Sprint(rec.zones); got != want {
			t.Errorf("%s engine: the sessions got %s, want %s", name, got, want)
		}
	}
}

// sparkNamed is the local engine under the Spark engine's name: what the
// runner decides from the engine's name, without a Spark server.
type sparkNamed struct{ engine.Engine }

func (sparkNamed) Info() engine.Info {
	return engine.Info{Name: engine.Spark, Remote: "sc://127.0.0.1:15002"}
}

// TestEngineUnsupported: on the Spark engine, Plan accepts the whole demo
// (its job pipelines, the append flows of its declarative one and its
// ForEach sink), MERGE and file sinks (Spark runs them: Delta's MERGE
// INTO, its DataFrame writer), an update flow and a source with a
// declared schema.
func TestEngineUnsupported(t *testing.T) {
	r := testRunner(t)
	r.cfg.Engine = sparkNamed{r.local}
	snap := workspacetest.LoadDir(t, workspacetest.Demo(t), workspace.Options{})
	if _, err := r.Plan(t.Context(), snap, Request{}); err != nil {
		t.Fatalf("the demo: %v", err)
	}

	w := newWS(t, map[string]string{
		"data/a/1.jsonl": `{"k": 1}` + "\n",
		"pipelines/pl.yaml": `name: pl
nodes:
- name: files
  source: {path: ../data/a/, format: JSONL}
  sinks:
  - {mode: OVERWRITE, path: ../out/files, format: PARQUET}
- name: merged
  source: {path: ../data/a/, format: JSONL}
  sinks:
  - table_name: merged
    mode: MERGE
    merge_cdc_options: {primary_keys: [k]}
- name: typed
  source: {path: ../data/a/, format: JSONL, schema: {columns: {k: bigint}}}
  sinks:
  - table_name: typed
    mode: APPEND
`,
		"pipelines/decl.yaml": `name: decl
orchestrator: {type: SPARK_DECLARATIVE_PIPELINE}
nodes:
- name: counts
  flow: {kind: update}
  source: {path: ../data/a/, format: JSONL, as_stream: true}
  transformer:
    nodes:
    - expr: SELECT k, count(*) AS n FROM {df} GROUP BY k
  sinks:
  - foreach: {command: [cat]}
`})
	if _, err := r.Plan(t.Context(), w.load(), Request{}); err != nil {
		t.Fatalf("the Spark engine runs MERGE and file sinks: %v", err)
	}
	r.cfg.Engine = nil
	if _, err := r.Plan(t.Context(), w.load(), Request{}); err != nil {
		t.Fatalf("the local engine runs them: %v", err)
	}
}

// refusing is a translator that translates nothing.
type refusing struct{}

func (refusing) Translate(context.Context, dialect.Step) (dialect.Result, error) {
	return dialect.Result{}, errors.New("the local dialect translated SQL for a Spark run")
}

// TestEngineNativeSQL: a run on the Spark engine runs the YAML's SQL as
// written (placeholders named), and its history names the engine and its
// remote; the local dialect translates only for the local engine.
func TestEngineNativeSQL(t *testing.T) {
	r := testRunner(t, func(c *Config) { c.Dialect = func(*workspace.Node) dialect.Translator { return refusing{} } })
	r.cfg.Engine = sparkNamed{r.local}
	w := newWS(t, map[string]string{
		"data/a/1.jsonl": `{"k": 1}` + "\n" + `{"k": 2}` + "\n",
		"pipelines/pl.yaml": `name: pl
nodes:
- name: a
  source: {path: ../data/a/, format: JSONL}
  transformer:
    nodes:
    - expr: SELECT k * 10 AS k FROM {df} WHERE k > 1
  sinks:
  - table_name: a
    mode: APPEND
`})
	snap := w.load()
	out := mustRun(t, r, snap, Request{})
	if n := count(t, r, w.table("a"), "k = 20"); n != 1 {
		t.Fatalf("%d rows k = 20", n)
	}
	store, err := r.store(t.Context(), snap.Layout.StateDB())
	if err != nil {
		t.Fatal(err)
	}
	if h, err := store.GetRun(t.Context(), out.sum.RunID); err != nil || h.Engine != engine.Spark || h.Remote != "sc://127.0.0.1:15002" {
		t.Fatalf("the history of the run: %+v %v", h, err)
	}
	r.cfg.Engine = nil
	if out := run(t, r, w.load(), Request{Refresh: "FULL"}); !strings.Contains(taskSum(t, out.sum, "pl.a").Err, "the local dialect translated") {
		t.Fatalf("the local engine did not use its dialect: %+v", out.sum)
	}
}

// TestEngineNativeWhere: on Spark a `where` writer's predicate reaches the
// engine as the Spark SQL written in the YAML (Spark evaluates it); the
// local engine gets its DuckDB translation.
func TestEngineNativeWhere(t *testing.T) {
	w := newWS(t, scenarioFiles(ownerships[1]))
	snap := w.load()
	for _, c := range []struct {
		engine string
		delete string
	}{{engine.Spark, "commit prices: delete (c = 1)"}, {engine.Local, `commit prices: delete (("c" = 1))`}} {
		rec := &fakeEngine{fail: map[string]int{}}
		r := testRunner(t, func(cfg *Config) { cfg.Engine = rec })
		rec.Engine = r.local
		if c.engine == engine.Spark {
			r.cfg.Engine = sparkNamed{rec}
		}
		mustRun(t, r, snap, Request{Selectors: []string{"a", "b"}})
		rec.take()
		mustRun(t, r, snap, Request{Refresh: "FULL", Selectors: []string{"a"}})
		if got := rec.take(); len(got) == 0 || got[0] != c.delete {
			t.Errorf("%s engine: %q, want first %q", c.engine, got, c.delete)
		}
	}
}
