package delta

import (
	"bufio"
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"
)

// Concurrency and fault tests: writers in goroutines and in separate
// processes (this test binary re-executed) append, delete and refresh on
// one table; the table must end up holding exactly what the committed
// operations, applied in version order, produce.

// Environment of a re-executed test binary.
const (
	envChild     = "LAKTORY_DELTA_TEST_CHILD" // "worker" or "pause"
	envRoot      = "LAKTORY_DELTA_TEST_ROOT"
	envWorker    = "LAKTORY_DELTA_TEST_WORKER"
	envWorkerIdx = "LAKTORY_DELTA_TEST_WORKER_INDEX"
	envOps       = "LAKTORY_DELTA_TEST_OPS"
	envMarker    = "LAKTORY_DELTA_TEST_MARKER"
	envOp        = "LAKTORY_DELTA_TEST_OP"
)

// opRecord is the outcome of one workload operation.
type opRecord struct {
	Worker    string   `json:"worker"`
	Index     int      `json:"index"`
	Seq       int      `json:"seq"`
	Kind      string   `json:"kind"` // append, delete, refresh, global
	Batch     int      `json:"batch"`
	Version   int64    `json:"version"`
	Committed bool     `json:"committed"`
	Conflicts []string `json:"conflicts,omitempty"`
	Err       string   `json:"err,omitempty"`
}

const rowsPerBatch = 20

// batchRows is the query of one batch of a worker: ids unique per
// (worker, batch, row), v = row % 10 (+100 once refreshed).
func batchRows(worker string, idx, batch int, refreshed bool) string {
	add := 0
	if refreshed {
		add = 100
	}
	return fmt.Sprintf("SELECT (%d + %d * 1000 + k)::BIGINT AS id, '%s' AS worker, %d::INTEGER AS batch, (k %% 10 + %d)::INTEGER AS v FROM range(%d) t(k)",
		idx*1_000_000, batch, worker, batch, add, rowsPerBatch)
}

// modelRow is a row of the expected table.
type modelRow struct {
	worker string
	batch  int
	v      int
}

func (r *opRecord) predicate() string {
	switch r.Kind {
	case "delete":
		return fmt.Sprintf("worker = '%s' AND batch = %d AND v %% 2 = 0", r.Worker, r.Batch)
	case "refresh":
		return fmt.Sprintf("worker = '%s' AND batch = %d", r.Worker, r.Batch)
	case "global":
		return "v = 7"
	}
	return ""
}

// apply applies a committed operation to the model (id -> row).
func (r *opRecord) apply(model map[int64]modelRow) {
	add := func(refreshed bool) {
		for k := 0; k < rowsPerBatch; k++ {
			v := k % 10
			if refreshed {
				v += 100
			}
			model[int64(r.Index*1_000_000+r.Batch*1000+k)] = modelRow{r.Worker, r.Batch, v}
		}
	}
	for id, row := range model {
		switch {
		case r.Kind == "delete" && row.worker == r.Worker && row.batch == r.Batch && row.v%2 == 0,
			r.Kind == "refresh" && row.worker == r.Worker && row.batch == r.Batch,
			r.Kind == "global" && row.v == 7:
			delete(model, id)
		}
	}
	switch r.Kind {
	case "append":
		add(false)
	case "refresh":
		add(true)
	}
}

// workload is the sequence of operations of one worker: appends of new
// batches, partial deletes and full refreshes (delete + append in one
// commit) of its own earlier batches, and, for the first worker of each
// group, deletes over every writer's rows.
func workload(worker string, idx, n int) []*opRecord {
	var out []*opRecord
	for seq := 0; seq < n; seq++ {
		r := &opRecord{Worker: worker, Index: idx, Seq: seq, Kind: "append", Batch: seq, Version: -1}
		switch {
		case strings.HasSuffix(worker, "0") && seq%6 == 5:
			r.Kind = "global"
		case seq%4 == 2:
			r.Kind, r.Batch = "delete", seq-2
		case seq%4 == 3:
			r.Kind, r.Batch = "refresh", seq-3
		}
		out = append(out, r)
	}
	return out
}

// runWorkload runs a worker's operations, each retried (re-planned on the
// latest snapshot) while it fails with a retryable conflict, as the runner
// does.
func runWorkload(ctx context.Context, db *sql.DB, root string, ops []*opRecord) {
	rng := rand.New(rand.NewPCG(uint64(time.Now().UnixNano()), uint64(len(ops))))
	for _, r := range ops {
		for attempt := 0; ; attempt++ {
			res, err := runOp(ctx, db, root, r)
			if err == nil {
				r.Committed, r.Version = res.Committed, res.Version
				break
			}
			if !IsRetryable(err) || attempt >= 200 {
				r.Err = err.Error()
				break
			}
			r.Conflicts = append(r.Conflicts, conflictName(err))
			time.Sleep(time.Duration(1+rng.IntN(5*min(attempt+1, 10))) * time.Millisecond)
		}
	}
}

func runOp(ctx context.Context, db *sql.DB, root string, r *opRecord) (*CommitResult, error) {
	t, err := Open(ctx, root)
	if err != nil {
		return nil, err
	}
	tx, err := t.Begin(ctx, WriteOptions{})
	if err != nil {
		return nil, err
	}
	if pred := r.predicate(); pred != "" {
		if _, err := tx.Delete(ctx, db, pred); err != nil {
			tx.Abort()
			return nil, err
		}
	}
	if r.Kind == "append" || r.Kind == "refresh" {
		if _, err := tx.Append(ctx, db, batchRows(r.Worker, r.Index, r.Batch, r.Kind == "refresh")); err != nil {
			tx.Abort()
			return nil, err
		}
	}
	return tx.Commit(ctx)
}

func conflictName(err error) string {
	for _, s := range conflictSentinels {
		if errors.Is(err, s) {
			return strings.SplitN(s.Error(), ":", 2)[0]
		}
	}
	return err.Error()
}

// TestConcurrentWriters runs 8 writer goroutines and 4 writer processes
// on one unpartitioned table, and 6 goroutines on a table partitioned by
// writer, for a few hundred commits each.
func TestConcurrentWriters(t *testing.T) {
	nOps := 24
	if testing.Short() {
		nOps = 8
	}
	t.Run("unpartitioned, goroutines and processes", func(t *testing.T) {
		concurrentRun(t, nil, 8, 4, nOps)
	})
	t.Run("partitioned by writer, goroutines", func(t *testing.T) {
		concurrentRun(t, []string{"worker"}, 6, 0, nOps)
	})
}

func concurrentRun(t *testing.T, parts []string, goroutines, processes, nOps int) {
	ctx := context.Background()
	db := writeTestDB(t)
	root := filepath.Join(t.TempDir(), "t")
	mustCreate(t, db, root, batchRows("x", 0, 0, false), parts, nil)

	var mu sync.Mutex
	var records []*opRecord
	var wg sync.WaitGroup
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	for p := 0; p < processes; p++ {
		name, idx := "p"+strconv.Itoa(p), 100+p
		cmd := exec.Command(exe, "-test.run=^TestConcurrentWriterProcess$", "-test.v")
		cmd.Env = append(os.Environ(), envChild+"=worker", envRoot+"="+root, envWorker+"="+name,
			envWorkerIdx+"="+strconv.Itoa(idx), envOps+"="+strconv.Itoa(nOps))
		var stderr strings.Builder
		cmd.Stderr = &stderr
		out, err := cmd.StdoutPipe()
		if err != nil {
			t.Fatal(err)
		}
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		wg.Add(1)
		go func() {
			defer wg.Done()
			var got []*opRecord
			sc := bufio.NewScanner(out)
			sc.Buffer(make([]byte, 1<<20), 1<<20)
			for sc.Scan() {
				line, ok := strings.CutPrefix(sc.Text(), "RECORD ")
				if !ok {
					continue
				}
				var r opRecord
				if err := json.Unmarshal([]byte(line), &r); err != nil {
					t.Errorf("process %s: %v", name, err)
					continue
				}
				got = append(got, &r)
			}
			if err := cmd.Wait(); err != nil {
				t.Errorf("process %s: %v\n%s", name, err, stderr.String())
			}
			if len(got) != nOps {
				t.Errorf("process %s reported %d operations, want %d", name, len(got), nOps)
			}
			mu.Lock()
			records = append(records, got...)
			mu.Unlock()
		}()
	}
	for g := 0; g < goroutines; g++ {
		name, idx := "g"+strconv.Itoa(g), g
		wg.Add(1)
		go func() {
			defer wg.Done()
			ops := workload(name, idx, nOps)
			runWorkload(ctx, db, root, ops)
			mu.Lock()
			records = append(records, ops...)
			mu.Unlock()
		}()
	}
	wg.Wait()
	if t.Failed() {
		return
	}
	checkConcurrentOutcome(t, db, root, records)
}

// checkConcurrentOutcome checks the log and the rows against the
// committed operations.
func checkConcurrentOutcome(t *testing.T, db *sql.DB, root string, records []*opRecord) {
	ctx := context.Background()
	// Every operation ended; failures are only conflicts the rules allow.
	conflicts := map[string]int{}
	var committed []*opRecord
	for _, r := range records {
		if r.Err != "" {
			t.Errorf("%s #%d (%s) failed: %s", r.Worker, r.Seq, r.Kind, r.Err)
		}
		for _, c := range r.Conflicts {
			conflicts[r.Kind+": "+c]++
			switch r.Kind {
			case "append":
				t.Errorf("%s #%d: a blind append conflicted (%s)", r.Worker, r.Seq, c)
			case "delete", "refresh":
				// Scoped to the worker's own rows: only a concurrent
				// delete over every writer can touch its files.
				if c != "DELTA_CONCURRENT_DELETE_READ" && c != "DELTA_CONCURRENT_DELETE_DELETE" && c != "DELTA_CONCURRENT_APPEND" {
					t.Errorf("%s #%d (%s): unexpected conflict %s", r.Worker, r.Seq, r.Kind, c)
				}
			}
		}
		if r.Committed {
			committed = append(committed, r)
		}
	}
	t.Logf("%d operations, %d commits; conflicts retried: %v", len(records), len(committed), conflicts)

	// Versions: 0 is the creation, then exactly one per committed
	// operation, contiguous.
	sort.Slice(committed, func(i, j int) bool { return committed[i].Version < committed[j].Version })
	for i, r := range committed {
		if r.Version != int64(i+1) {
			t.Fatalf("commit versions are not 1..%d: position %d holds version %d", len(committed), i, r.Version)
		}
	}
	l, err := listLog(ctx, root)
	if err != nil {
		t.Fatal(err)
	}
	if err := l.checkContiguous(root, 0, int64(len(committed))); err != nil || l.latest() != int64(len(committed)) {
		t.Fatalf("log: latest %d, %v", l.latest(), err)
	}

	// Rows: the committed operations applied in version order.
	model := map[int64]modelRow{}
	for _, r := range committed {
		r.apply(model)
	}
	got := tableRows(t, db, root, "id", "worker", "batch", "v")
	var want []string
	for id, r := range model {
		want = append(want, fmt.Sprintf("%d|%s|%d|%d", id, r.worker, r.batch, r.v))
	}
	sort.Strings(want)
	if len(got) != len(want) {
		t.Fatalf("table holds %d rows, the committed operations %d", len(got), len(want))
	}
	for i := range got {
		if got[i] != want[i] {
			t.Fatalf("row %d: table %s, expected %s", i, got[i], want[i])
		}
	}
	s := mustSnapshot(t, root)
	if n, ok := s.NumRecords(); !ok || n != int64(len(want)) {
		t.Fatalf("stats count %d rows", n)
	}
	if s.CheckpointVersion() < 10 && len(committed) >= 10 {
		t.Fatalf("no checkpoint used (from %d)", s.CheckpointVersion())
	}
}

// TestConcurrentWriterProcess is the body of a writer process started by
// TestConcurrentWriters; it is skipped otherwise.
func TestConcurrentWriterProcess(t *testing.T) {
	if os.Getenv(envChild) != "worker" {
		t.Skip("run by TestConcurrentWriters in a separate process")
	}
	db := writeTestDB(t)
	idx, _ := strconv.Atoi(os.Getenv(envWorkerIdx))
	n, _ := strconv.Atoi(os.Getenv(envOps))
	ops := workload(os.Getenv(envWorker), idx, n)
	runWorkload(context.Background(), db, os.Getenv(envRoot), ops)
	for _, r := range ops {
		b, _ := json.Marshal(r)
		fmt.Println("RECORD " + string(b))
	}
}

// TestKilledWriter kills (SIGKILL) writers paused after writing their
// data files and before committing (an append, a delete rewriting files,
// an optimize compacting them): the table is unchanged and readable, the
// orphaned files are not listed, and writing goes on.
func TestKilledWriter(t *testing.T) {
	for _, op := range []string{"append", "delete", "optimize"} {
		t.Run(op, func(t *testing.T) {
			db := writeTestDB(t)
			root := filepath.Join(t.TempDir(), "t")
			mustCreate(t, db, root, batchRows("x", 0, 0, false), nil, nil)
			mustAppend(t, db, root, batchRows("a", 1, 1, false))
			if op == "optimize" {
				mustAppend(t, db, root, batchRows("a", 1, 2, false)) // two small files to compact
			}
			before := mustSnapshot(t, root)
			rowsBefore := tableRows(t, db, root, "id", "v")
			filesBefore := dataFiles(t, root)

			marker := filepath.Join(t.TempDir(), "paused")
			exe, _ := os.Executable()
			cmd := exec.Command(exe, "-test.run=^TestPausedWriterProcess$")
			cmd.Env = append(os.Environ(), envChild+"=pause", envRoot+"="+root, envMarker+"="+marker, envOp+"="+op)
			var output strings.Builder
			cmd.Stdout, cmd.Stderr = &output, &output
			if err := cmd.Start(); err != nil {
				t.Fatal(err)
			}
			deadline := time.Now().Add(2 * time.Minute)
			for {
				if _, err := os.Stat(marker); err == nil {
					break
				}
				if time.Now().After(deadline) {
					cmd.Process.Kill()
					cmd.Wait()
					t.Fatalf("the writer never reached the commit:\n%s", output.String())
				}
				time.Sleep(10 * time.Millisecond)
			}
			if err := cmd.Process.Signal(syscall.SIGKILL); err != nil {
				t.Fatal(err)
			}
			if err := cmd.Wait(); err == nil || !strings.Contains(err.Error(), "killed") {
				t.Fatalf("writer exit: %v", err)
			}

			after := mustSnapshot(t, root)
			if after.Version() != before.Version() {
				t.Fatalf("version %d after the kill, was %d", after.Version(), before.Version())
			}
			if got := tableRows(t, db, root, "id", "v"); strings.Join(got, ",") != strings.Join(rowsBefore, ",") {
				t.Fatal("rows changed")
			}
			orphans := 0
			live := map[string]bool{}
			for _, p := range livePaths(t, after) {
				live[p] = true
			}
			for _, f := range dataFiles(t, root) {
				if !live[f] && !contains(filesBefore, f) {
					orphans++
				}
			}
			if orphans == 0 {
				t.Fatal("the killed writer wrote no data file: the kill came too early to test anything")
			}
			// Writing goes on.
			res := mustAppend(t, db, root, batchRows("b", 2, 2, false))
			if res.Version != before.Version()+1 {
				t.Fatalf("next commit at %d", res.Version)
			}
			if got := tableRows(t, db, root, "id"); len(got) != len(rowsBefore)+rowsPerBatch {
				t.Fatalf("%d rows", len(got))
			}
		})
	}
}

// TestPausedWriterProcess is the writer TestKilledWriter kills: it writes
// its data files, signals, and waits forever before committing.
func TestPausedWriterProcess(t *testing.T) {
	if os.Getenv(envChild) != "pause" {
		t.Skip("run by TestKilledWriter in a separate process")
	}
	beforeCommitHook = func(*Transaction) {
		if err := os.WriteFile(os.Getenv(envMarker), nil, 0o644); err != nil {
			panic(err)
		}
		select {} // wait for SIGKILL
	}
	db := writeTestDB(t)
	root := os.Getenv(envRoot)
	var err error
	switch os.Getenv(envOp) {
	case "delete":
		_, err = Delete(context.Background(), db, root, "v % 2 = 0", WriteOptions{})
	case "optimize":
		_, _, err = Optimize(context.Background(), db, root, OptimizeOptions{}, WriteOptions{})
	default:
		_, err = Append(context.Background(), db, root, batchRows("k", 9, 9, false), WriteOptions{})
	}
	t.Fatalf("the writer was not killed: %v", err)
}
