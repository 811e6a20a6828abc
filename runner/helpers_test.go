package runner

import (
	"context"
	"errors"
	"fmt"
	"os"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/laktory/workbench/delta"
	"github.com/laktory/workbench/runner/history"
	"github.com/laktory/workbench/workspace"
	"github.com/laktory/workbench/workspace/workspacetest"
)

// testRunner returns a runner whose retries do not sleep.
func testRunner(t testing.TB, mods ...func(*Config)) *Runner {
	t.Helper()
	cfg := Config{
		Retry: RetryPolicy{Sleep: func(context.Context, time.Duration) error { return nil }, Jitter: func(time.Duration) time.Duration { return 0 }},
		// Tests write their landing files just before they run: a short
		// settle window keeps each read from waiting the default second
		// (the landing tests set their own).
		Settle: 20 * time.Millisecond}
	for _, m := range mods {
		m(&cfg)
	}
	r, err := New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { r.Close() })
	return r
}

// ws is a temporary workspace under test.
type ws struct {
	t   testing.TB
	dir string
}

func newWS(t testing.TB, files map[string]string) *ws {
	t.Helper()
	dir := t.TempDir()
	workspacetest.Write(t, dir, files)
	return &ws{t: t, dir: dir}
}

func (w *ws) write(files map[string]string) { w.t.Helper(); workspacetest.Write(w.t, w.dir, files) }

func (w *ws) load() *workspace.Snapshot {
	w.t.Helper()
	return workspacetest.LoadDir(w.t, w.dir, workspace.Options{})
}

// table returns the lake path of a table name.
func (w *ws) table(name string) string {
	l, _ := workspace.NewLayout(w.dir, "", "")
	return l.TablePath(workspace.ParseTableName(name, "", ""))
}

// outcome is a finished run with its events.
type outcome struct {
	plan   *Plan
	sum    Summary
	err    error
	events []Event
}

// run plans and executes a request to the end.
func run(t testing.TB, r *Runner, snap *workspace.Snapshot, req Request) outcome {
	t.Helper()
	plan, err := r.Plan(context.Background(), snap, req)
	if err != nil {
		t.Fatalf("plan %+v: %v", req, err)
	}
	return start(t, r, plan)
}

func start(t testing.TB, r *Runner, plan *Plan) outcome {
	t.Helper()
	rn, err := r.Start(context.Background(), plan)
	if err != nil {
		t.Fatal(err)
	}
	var evs []Event
	for e := range rn.Events() {
		evs = append(evs, e)
	}
	sum, err := rn.Wait()
	return outcome{plan: plan, sum: sum, err: err, events: evs}
}

// mustRun runs a request that must succeed.
func mustRun(t testing.TB, r *Runner, snap *workspace.Snapshot, req Request) outcome {
	t.Helper()
	o := run(t, r, snap, req)
	if o.err != nil {
		for _, ts := range o.sum.Tasks {
			if ts.Err != "" {
				t.Logf("task %s: %s", ts.Key, ts.Err)
			}
		}
		t.Fatalf("run %+v: %v", req, o.err)
	}
	return o
}

// query runs a SQL query over the Delta table at path (as view t) and
// returns its rows as strings.
func query(t testing.TB, r *Runner, path, q string) [][]string {
	t.Helper()
	ctx := context.Background()
	s, err := delta.LoadSnapshot(ctx, path)
	if err != nil {
		t.Fatalf("load %s: %v", path, err)
	}
	scan, err := s.ScanSQL(ctx, delta.ScanOptions{})
	if err != nil {
		t.Fatal(err)
	}
	return sqlRows(t, r, "WITH t AS ("+scan+") "+q)
}

func sqlRows(t testing.TB, r *Runner, q string) [][]string {
	t.Helper()
	rows, err := r.db.QueryContext(context.Background(), q)
	if err != nil {
		t.Fatalf("%s: %v", q, err)
	}
	defer rows.Close()
	types, _ := rows.ColumnTypes()
	var out [][]string
	for rows.Next() {
		vals := make([]any, len(types))
		ptrs := make([]any, len(types))
		for i := range vals {
			ptrs[i] = &vals[i]
		}
		if err := rows.Scan(ptrs...); err != nil {
			t.Fatal(err)
		}
		row := make([]string, len(vals))
		for i, v := range vals {
			row[i] = delta.TextValue(v, types[i].DatabaseTypeName(), false)
		}
		out = append(out, row)
	}
	return out
}

// writerCounts returns "writer=count" pairs of a table's writer column.
func writerCounts(t testing.TB, r *Runner, path, col string) string {
	t.Helper()
	var parts []string
	for _, row := range query(t, r, path, fmt.Sprintf(`SELECT %s, count(*) FROM t GROUP BY ALL ORDER BY 1`, quoteIdent(col))) {
		parts = append(parts, row[0]+"="+row[1])
	}
	return strings.Join(parts, " ")
}

// count returns the rows of a Delta table matching where ("" for all).
func count(t testing.TB, r *Runner, path, where string) int {
	t.Helper()
	q := "SELECT count(*) FROM t"
	if where != "" {
		q += " WHERE " + where
	}
	var n int
	fmt.Sscan(query(t, r, path, q)[0][0], &n)
	return n
}

// columns returns a Delta table's columns in order.
func columns(t testing.TB, path string) []string {
	t.Helper()
	s, err := delta.LoadSnapshot(context.Background(), path)
	if err != nil {
		t.Fatal(err)
	}
	return s.Schema().FieldNames()
}

func exists(path string) bool { _, err := os.Stat(path); return err == nil }

// jsonl builds JSON lines {"k": "<prefix>-i", "v": i} for i in [from, to).
func jsonl(prefix string, from, to int, extra string) string {
	var b strings.Builder
	for i := from; i < to; i++ {
		fmt.Fprintf(&b, `{"k": "%s-%d", "v": %d%s}`+"\n", prefix, i, i, extra)
	}
	return b.String()
}

func planErr(t testing.TB, r *Runner, snap *workspace.Snapshot, req Request) *PlanError {
	t.Helper()
	_, err := r.Plan(context.Background(), snap, req)
	var pe *PlanError
	if !errors.As(err, &pe) {
		t.Fatalf("plan %+v: want a *PlanError, got %v", req, err)
	}
	return pe
}

func hasDiag(pe *PlanError, code, contains string) bool {
	for _, d := range pe.Diagnostics {
		if d.Code == code && strings.Contains(d.Message+" "+d.Hint, contains) {
			return true
		}
	}
	return false
}

func eventKinds(evs []Event, kind EventKind) []Event {
	var out []Event
	for _, e := range evs {
		if e.Kind == kind {
			out = append(out, e)
		}
	}
	return out
}

func taskSum(t testing.TB, s Summary, key string) TaskSummary {
	t.Helper()
	i := slices.IndexFunc(s.Tasks, func(ts TaskSummary) bool { return ts.Key == key })
	if i < 0 {
		t.Fatalf("no task %s in %+v", key, s.Tasks)
	}
	return s.Tasks[i]
}

// detail reads a run from the workspace's history.
func detail(t testing.TB, w *ws, id int64) history.RunDetail {
	t.Helper()
	l, _ := workspace.NewLayout(w.dir, "", "")
	s, err := history.Open(context.Background(), l.StateDB())
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	d, err := s.RunDetail(context.Background(), id)
	if err != nil {
		t.Fatal(err)
	}
	return d
}
