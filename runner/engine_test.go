package runner

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/laktory/workbench/delta"
	"github.com/laktory/workbench/runner/engine"
)

// fakeEngine is an engine that records the table operations the runner asks
// of it (and fails commits as told), executing them with the local
// engine: the seam's contract, seen from the engine.
type fakeEngine struct {
	engine.Engine
	mu    sync.Mutex
	ops   []string
	opens int
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
	return t.Txn.SetAppTransaction(appID, version)
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
			r := testRunner(t, func(c *Config) { c.engine = rec })
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
	r := testRunner(t, func(c *Config) { c.engine = rec })
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
