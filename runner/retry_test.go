package runner

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/laktory/workbench/delta"
	"github.com/laktory/workbench/runner/history"
	"github.com/laktory/workbench/workspace"
)

var errTestConflict = errors.New("test conflict")

func TestRetryPolicy(t *testing.T) {
	var slept []time.Duration
	p := RetryPolicy{BaseDelay: 100 * time.Millisecond, MaxDelay: time.Second,
		Jitter: func(d time.Duration) time.Duration { return d / 10 },
		Sleep:  func(_ context.Context, d time.Duration) error { slept = append(slept, d); return nil }}.withDefaults()
	retryable := func(err error) bool { return errors.Is(err, errTestConflict) }
	cases := []struct {
		name     string
		failures int
		wantErr  error
		attempts int
	}{
		{"first try", 0, nil, 1},
		{"two conflicts", 2, nil, 3},
		{"five conflicts", 5, nil, 6},
		{"six conflicts", 6, ErrConflict, 6},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			slept = nil
			attempts := 0
			var retries []int
			err := p.retry(t.Context(), func(a int) error {
				if a != attempts {
					t.Fatalf("attempt %d, want %d", a, attempts)
				}
				attempts++
				if attempts <= tc.failures {
					return fmt.Errorf("commit: %w", errTestConflict)
				}
				return nil
			}, retryable, func(a int, d time.Duration, err error) {
				retries = append(retries, a)
				if !errors.Is(err, errTestConflict) || d != p.Delay(a) {
					t.Fatalf("retry %d: %v after %s", a, err, d)
				}
			})
			if !errors.Is(err, tc.wantErr) || (tc.wantErr != nil && !errors.Is(err, errTestConflict)) {
				t.Fatalf("err %v, want %v wrapping the last conflict", err, tc.wantErr)
			}
			if attempts != tc.attempts || len(retries) != tc.attempts-1 || len(slept) != tc.attempts-1 {
				t.Fatalf("%d attempts, retries %v, slept %v", attempts, retries, slept)
			}
			if tc.wantErr != nil && !strings.Contains(err.Error(), "gave up after 6 attempts (5 retries)") {
				t.Fatalf("message %q", err)
			}
		})
	}
	// Increasing delays, capped, jitter added.
	want := []time.Duration{110, 220, 440, 880, 1100}
	for i, w := range want {
		if d := p.Delay(i + 1); d != w*time.Millisecond {
			t.Fatalf("delay %d = %s, want %s", i+1, d, w*time.Millisecond)
		}
	}
	// A non-conflict error is not retried; a cancelled sleep stops.
	if err := p.retry(t.Context(), func(int) error { return errors.New("boom") }, retryable, nil); err == nil || errors.Is(err, ErrConflict) {
		t.Fatalf("non-retryable: %v", err)
	}
	ctx, cancel := context.WithCancel(t.Context())
	q := p
	q.Sleep = func(ctx context.Context, d time.Duration) error { cancel(); return sleepCtx(ctx, d) }
	if err := q.retry(ctx, func(int) error { return errTestConflict }, retryable, func(int, time.Duration, error) {}); !errors.Is(err, context.Canceled) {
		t.Fatalf("cancelled: %v", err)
	}
	// The default jitter stays within half the delay.
	d := DefaultRetry.withDefaults()
	for i := 0; i < 100; i++ {
		if j := d.Jitter(time.Second); j < 0 || j >= 500*time.Millisecond {
			t.Fatalf("jitter %s", j)
		}
	}
}

// interleaved is a pipeline whose writers own interleaved values of c: a
// owns c = 2, b owns c IN (1, 3). Files of b span c from 1 to 3, so their
// stats cannot rule out rows of a: b's appends genuinely conflict with a's
// FULL refresh (as on Spark, where any append conflicts with a delete of
// an unpartitioned table).
func interleaved() map[string]string {
	files := scenarioFiles(ownership{sharedA: "{where: c = 2}", sharedB: `{where: "c IN (1, 3)"}`})
	files["data/a/1.jsonl"] = jsonl("a", 0, 3, `, "c": 2`)
	files["data/b/1.jsonl"] = jsonl("b", 0, 1, `, "c": 1`) + jsonl("b", 1, 2, `, "c": 3`)
	return files
}

// appendRows commits n rows of writer b (c alternating 1 and 3) to the
// table at path, as a concurrent writer would.
func appendRows(ctx context.Context, db delta.Querier, path string, n int) error {
	q := fmt.Sprintf("SELECT 'b-x' || i AS k, i::BIGINT AS v, CASE WHEN i %% 2 = 0 THEN 1 ELSE 3 END::BIGINT AS c FROM range(%d) r(i)", n)
	_, err := delta.Append(ctx, db, path, q, delta.WriteOptions{})
	return err
}

// TestConflictRetried: writer b appends while a's FULL refresh (its delete)
// is about to commit: a's commit conflicts, is re-planned on the
// new snapshot and succeeds; the retry is in the events and the history.
func TestConflictRetried(t *testing.T) {
	var other *Runner
	var path string
	var mu sync.Mutex
	appendsOnAttempt := map[int]bool{}
	r := testRunner(t, func(c *Config) {
		c.Retry.Jitter = func(time.Duration) time.Duration { return 7 * time.Millisecond }
		c.beforeCommit = func(task string, attempt int) {
			mu.Lock()
			defer mu.Unlock()
			if task == "pl.a" && appendsOnAttempt[attempt] && path != "" {
				// Once per attempt: the delete commit of the refresh (its
				// append commit comes next and is blind).
				appendsOnAttempt[attempt] = false
				if err := appendRows(context.Background(), other.db, path, 2); err != nil {
					t.Errorf("concurrent append: %v", err)
				}
			}
		}
	})
	other = testRunner(t)
	w := newWS(t, interleaved())
	snap := w.load()
	mustRun(t, r, snap, Request{Selectors: []string{"a", "b"}})
	mu.Lock()
	path, appendsOnAttempt[0] = w.table("prices"), true
	mu.Unlock()
	o := mustRun(t, r, snap, Request{Refresh: "FULL", Selectors: []string{"a"}})
	if a, b := count(t, r, path, "c = 2"), count(t, r, path, "c IN (1, 3)"); a != 3 || b != 4 {
		t.Fatalf("rows a=%d b=%d: a's refresh must keep b's concurrent rows", a, b)
	}
	retries := eventKinds(o.events, EventRetry)
	if len(retries) != 1 || retries[0].Attempt != 1 || retries[0].Delay != 107*time.Millisecond ||
		!strings.Contains(retries[0].Err, "DELTA_CONCURRENT_APPEND") {
		t.Fatalf("retry events %+v", retries)
	}
	d := detail(t, w, o.sum.RunID)
	if len(d.Retries) != 1 || d.Retries[0].Task != "pl.a" || d.Retries[0].Delay != 107*time.Millisecond || d.Run.Retries != 1 {
		t.Fatalf("history retries %+v", d.Retries)
	}
	if o.sum.Retries != 1 || len(o.sum.Deletions) != 1 || o.sum.Deletions[0].Rows != 3 {
		t.Fatalf("summary %+v", o.sum)
	}

	// A writer that keeps losing gives up after 5 retries, explaining the
	// conflict; nothing of its refresh is visible.
	mu.Lock()
	for i := 0; i <= 6; i++ {
		appendsOnAttempt[i] = true
	}
	mu.Unlock()
	o = run(t, r, snap, Request{Refresh: "FULL", Selectors: []string{"a"}})
	ts := taskSum(t, o.sum, "pl.a")
	if !errors.Is(o.err, ErrTasksFailed) || !strings.Contains(ts.Err, "commit conflict: gave up after 6 attempts (5 retries)") ||
		!strings.Contains(ts.Err, "DELTA_CONCURRENT_APPEND") || len(ts.Retries) != 5 {
		t.Fatalf("exhausted retries: %v / %q / %d retries", o.err, ts.Err, len(ts.Retries))
	}
	if a, b := count(t, r, path, "c = 2"), count(t, r, path, "c IN (1, 3)"); a != 3 || b != 16 {
		t.Fatalf("rows a=%d b=%d: the failed refresh must not be visible", a, b)
	}
	if d := detail(t, w, o.sum.RunID); len(d.Retries) != 5 || d.Tasks[0].Status != history.StatusFailed {
		t.Fatalf("history %+v", d)
	}
}

// TestWriterColumnAppendDoesNotConflict: with a writer column, another
// writer's append never holds rows of the refreshed writer (its files'
// stats say so), so a FULL refresh commits without a retry.
func TestWriterColumnAppendDoesNotConflict(t *testing.T) {
	var other *Runner
	var path atomic.Value
	var once sync.Once
	r := testRunner(t, func(c *Config) {
		c.beforeCommit = func(task string, attempt int) {
			if p, _ := path.Load().(string); p != "" && task == "pl.a" {
				once.Do(func() {
					q := "SELECT 'pl.b' AS _laktory_writer, 'b-x' || i AS k, i::BIGINT AS v, 2::BIGINT AS c FROM range(2) r(i)"
					if _, err := delta.Append(context.Background(), other.db, p, q, delta.WriteOptions{}); err != nil {
						t.Errorf("concurrent append: %v", err)
					}
				})
			}
		}
	})
	other = testRunner(t)
	w := newWS(t, scenarioFiles(ownerships[0]))
	snap := w.load()
	mustRun(t, r, snap, Request{Selectors: []string{"a", "b"}})
	path.Store(w.table("prices"))
	o := mustRun(t, r, snap, Request{Refresh: "FULL", Selectors: []string{"a"}})
	if got := writerCounts(t, r, w.table("prices"), "_laktory_writer"); got != "pl.a=3 pl.b=4" || o.sum.Retries != 0 {
		t.Fatalf("rows %s, %d retries", got, o.sum.Retries)
	}
}

// TestCancelBeforeCommit: cancelling a run while a task is about to commit
// leaves nothing of it visible.
func TestCancelBeforeCommit(t *testing.T) {
	var rn atomic.Pointer[Run]
	r := testRunner(t, func(c *Config) {
		c.beforeCommit = func(task string, attempt int) {
			if run := rn.Load(); run != nil {
				run.Cancel()
			}
		}
	})
	w := newWS(t, scenarioFiles(ownerships[0]))
	snap := w.load()
	mustRun(t, r, snap, Request{Selectors: []string{"a"}})
	path := w.table("prices")
	before, err := delta.LoadSnapshot(t.Context(), path)
	if err != nil {
		t.Fatal(err)
	}
	plan, err := r.Plan(t.Context(), snap, Request{Refresh: "FULL", Selectors: []string{"a"}})
	if err != nil {
		t.Fatal(err)
	}
	run, err := r.Start(t.Context(), plan)
	if err != nil {
		t.Fatal(err)
	}
	rn.Store(run)
	sum, err := run.Wait()
	if !errors.Is(err, context.Canceled) || sum.Status != history.StatusCancelled {
		t.Fatalf("cancelled run: %v, %s", err, sum.Status)
	}
	after, err := delta.LoadSnapshot(t.Context(), path)
	if err != nil {
		t.Fatal(err)
	}
	if after.Version() != before.Version() || count(t, r, path, "") != 3 {
		t.Fatalf("version %d -> %d: a cancelled commit must not be visible", before.Version(), after.Version())
	}
	if ts := taskSum(t, sum, "pl.a"); ts.Status != history.StatusCancelled || !strings.Contains(ts.Err, "nothing of this task is visible") {
		t.Fatalf("task %+v", ts)
	}
	// Events is still readable after the end, and closed.
	n := 0
	for range run.Events() {
		n++
	}
	if n == 0 {
		t.Fatal("no events")
	}
}

// TestMicroBatchExactlyOnce: the processing step a streaming loop reuses:
// a micro-batch reads what its sources hook returns, and its Delta commit
// carries txn(appId, version), so replaying a committed batch writes
// nothing.
func TestMicroBatchExactlyOnce(t *testing.T) {
	w := newWS(t, scenarioFiles(ownerships[0]))
	r := testRunner(t)
	snap := w.load()
	plan, err := r.Plan(t.Context(), snap, Request{Selectors: []string{"a"}})
	if err != nil {
		t.Fatal(err)
	}
	ctx := t.Context()
	store, err := r.store(ctx, snap.Layout.StateDB())
	if err != nil {
		t.Fatal(err)
	}
	id, err := store.StartRun(ctx, history.RunStart{Workspace: snap.Dir})
	if err != nil {
		t.Fatal(err)
	}
	run := &Run{ID: id, Plan: plan, r: r, engine: r.runEngine(), store: store, ctx: ctx, cancel: func(error) {}, seqNo: runSeq.Add(1),
		mem: map[string]string{}, resets: map[workspace.TableID]*tableReset{}}
	run.evCond = sync.NewCond(&run.evMu)
	run.hist, run.histDone = make(chan func(context.Context) error, 64), make(chan struct{})
	go run.recordLoop()
	defer func() { close(run.hist); <-run.histDone }()
	task := plan.Tasks[0]
	if err := store.StartTask(ctx, id, history.TaskStart{Key: task.Key, Pipeline: task.Pipeline, Node: task.Node}); err != nil {
		t.Fatal(err)
	}
	s, err := newSession(ctx, r.local)
	if err != nil {
		t.Fatal(err)
	}
	defer s.close()
	x := newTaskExec(run, task, &TaskSummary{RowsRead: -1})
	x.s = s
	batch := func(version int64, rows int) microBatch {
		return microBatch{appID: "pl.a", version: version, sources: func(_ context.Context, src *workspace.Source) (string, bool, error) {
			return fmt.Sprintf("SELECT 'm' || i AS k, i::BIGINT AS v, 1::BIGINT AS c FROM range(%d) r(i)", rows), true, nil
		}}
	}
	path := w.table("prices")
	for _, step := range []struct {
		version int64
		rows    int
		want    int
	}{{0, 2, 2}, {0, 2, 2}, {1, 3, 5}, {1, 3, 5}} {
		if err := x.process(ctx, batch(step.version, step.rows)); err != nil {
			t.Fatal(err)
		}
		if n := count(t, r, path, "_laktory_writer = 'pl.a'"); n != step.want {
			t.Fatalf("after batch %d: %d rows, want %d", step.version, n, step.want)
		}
	}
	s2, err := delta.LoadSnapshot(ctx, path)
	if err != nil {
		t.Fatal(err)
	}
	if v, ok := s2.AppTransactionVersion("pl.a"); !ok || v != 1 {
		t.Fatalf("txn version %d, %v", v, ok)
	}
}

// TestNewTableCreatedOnce: two writers of a table that does not exist
// yet, in one run: one creates it while the other waits, then appends;
// no commit conflicts, no retries. a's create commit is held back long
// enough for b to get there first if it could.
func TestNewTableCreatedOnce(t *testing.T) {
	for _, own := range ownerships {
		t.Run(own.name, func(t *testing.T) {
			files := scenarioFiles(own)
			files["pipelines/pl.yaml"] = strings.ReplaceAll(files["pipelines/pl.yaml"], "    shared: "+own.sharedA+"\n",
				"    shared: "+own.sharedA+"\n    writer_methods:\n    - name: partitionBy\n      args: [k]\n")
			var once sync.Once
			r := testRunner(t, func(c *Config) {
				c.beforeCommit = func(task string, attempt int) {
					if task == "pl.a" {
						once.Do(func() { time.Sleep(300 * time.Millisecond) })
					}
				}
			})
			w := newWS(t, files)
			o := mustRun(t, r, w.load(), Request{Selectors: []string{"a", "b"}, Parallel: 2})
			if o.sum.Retries != 0 {
				t.Fatalf("%d retries creating the table: %+v", o.sum.Retries, eventKinds(o.events, EventRetry))
			}
			path := w.table("prices")
			if a, b := count(t, r, path, own.ownsA), count(t, r, path, own.ownsB); a != 3 || b != 2 {
				t.Fatalf("rows a=%d b=%d", a, b)
			}
		})
	}
}

// TestCreateRace: two writers creating a shared table at once: the one
// that finds the table created meanwhile retries and appends.
func TestCreateRace(t *testing.T) {
	var other *Runner
	var once sync.Once
	var path string
	r := testRunner(t, func(c *Config) {
		c.beforeCommit = func(task string, attempt int) {
			once.Do(func() {
				q := "SELECT 'pl.b' AS _laktory_writer, 'x' AS k, 1::BIGINT AS v, 2::BIGINT AS c"
				ctx := context.Background()
				schema, err := delta.QuerySchema(ctx, other.db, q)
				if err == nil {
					_, err = delta.Create(ctx, path, delta.TableDefinition{Schema: schema}, delta.WriteOptions{})
				}
				if err == nil {
					_, err = delta.Append(ctx, other.db, path, q, delta.WriteOptions{})
				}
				if err != nil {
					t.Errorf("concurrent create: %v", err)
				}
			})
		}
	})
	other = testRunner(t)
	w := newWS(t, scenarioFiles(ownerships[0]))
	path = w.table("prices")
	// The concurrent create happens between a's read of the lake and its
	// commit (before BeginCreate, it fails with ErrTableExists: retried
	// too).
	o := mustRun(t, r, w.load(), Request{Selectors: []string{"a"}})
	if got := writerCounts(t, r, path, "_laktory_writer"); got != "pl.a=3 pl.b=1" || o.sum.Retries != 1 {
		t.Fatalf("rows %s, %d retries", got, o.sum.Retries)
	}
	// Creating a table another writer created meanwhile is a retryable
	// conflict: the retry appends to it.
	if _, err := delta.BeginCreate(path, delta.TableDefinition{}, delta.WriteOptions{}); !delta.IsRetryable(err) {
		t.Fatalf("create of an existing table: %v, want a retryable conflict", err)
	}
}

// TestSharedCreateSideBySide: the writers of a shared table that does not
// exist yet write their files at the same time (each reaches its commit
// while the other has not committed), the first commit creates the table
// and the other appends to it, with no retry: before, the second writer
// waited for the first's whole write on the run's create lock.
func TestSharedCreateSideBySide(t *testing.T) {
	for _, o := range ownerships {
		t.Run(o.name, func(t *testing.T) {
			w := newWS(t, scenarioFiles(o))
			var mu sync.Mutex
			arrived := map[string]bool{}
			both := make(chan struct{})
			var waited atomic.Bool
			r := testRunner(t, func(c *Config) {
				c.Parallel = 4
				c.beforeCommit = func(task string, attempt int) {
					mu.Lock()
					arrived[task] = true
					if arrived["pl.a"] && arrived["pl.b"] {
						select {
						case <-both:
						default:
							close(both)
						}
					}
					mu.Unlock()
					select {
					case <-both:
					case <-time.After(30 * time.Second):
						waited.Store(true) // the other writer is not writing beside this one
					}
				}
			})
			o2 := mustRun(t, r, w.load(), Request{Selectors: []string{"a", "b"}})
			if waited.Load() {
				t.Fatal("one writer reached its commit alone: the writers of the new table ran one after the other")
			}
			if o2.sum.Retries != 0 {
				t.Fatalf("%d retries", o2.sum.Retries)
			}
			path := w.table("prices")
			if a, b := count(t, r, path, o.ownsA), count(t, r, path, o.ownsB); a != 3 || b != 2 {
				t.Fatalf("a=%d b=%d rows, want 3 and 2", a, b)
			}
			var ops []string
			for v := int64(0); v < 3; v++ {
				b, err := os.ReadFile(filepath.Join(path, delta.LogDirName, delta.CommitFileName(v)))
				if err != nil {
					break
				}
				actions, err := delta.ParseCommit(b)
				if err != nil {
					t.Fatal(err)
				}
				for _, a := range actions {
					if a.CommitInfo != nil {
						ops = append(ops, a.CommitInfo.Operation)
					}
				}
			}
			if !slices.Equal(ops, []string{"CREATE TABLE AS SELECT", "WRITE"}) {
				t.Fatalf("table versions %v, want a create and an append", ops)
			}
		})
	}
}
