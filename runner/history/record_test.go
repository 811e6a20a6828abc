package history

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/charmbracelet/x/exp/golden"
)

func ptr(v int64) *int64 { return &v }

// recordScenario records a FULL refresh of two writers of a shared table,
// with a deletion, a retry, a ForEach sink event, messages and a failure.
func recordScenario(t *testing.T, s *Store) int64 {
	t.Helper()
	ctx := context.Background()
	const a, b, prices = "pl-prices.feed_a", "pl-prices.feed_b", "main.default.prices"
	id, err := s.StartRun(ctx, RunStart{Workspace: "/ws", Env: "dev", Refresh: RefreshFull,
		Pipelines: []string{"pl-prices"}, Selectors: []string{"feed_a*"}, Parallelism: 4})
	mustNil(t, err, "start run")
	steps := []struct {
		name string
		do   func() error
	}{
		{"queue b", func() error {
			return s.StartTask(ctx, id, TaskStart{Pipeline: "pl-prices", Node: "feed_b", Status: StatusQueued})
		}},
		{"start a", func() error { return s.StartTask(ctx, id, TaskStart{Pipeline: "pl-prices", Node: "feed_a"}) }},
		{"start b", func() error { return s.StartTask(ctx, id, TaskStart{Pipeline: "pl-prices", Node: "feed_b"}) }},
		{"delete a", func() error {
			return s.RecordDeletion(ctx, id, Deletion{Task: a, Table: prices, Writer: a, Rows: 120, Version: ptr(7)})
		}},
		{"delete op", func() error {
			return s.RecordOperation(ctx, id, Operation{Task: a, Table: prices, Path: "/ws/.laktory/lake/main/default/prices",
				Version: ptr(7), Operation: "delete", Detail: "_laktory_writer = 'pl-prices.feed_a'",
				RowsDeleted: 120, FilesAdded: 1, FilesRemoved: 2, Duration: 35 * time.Millisecond})
		}},
		{"write b", func() error {
			return s.RecordOperation(ctx, id, Operation{Task: b, Table: prices, Version: ptr(8), Operation: "WRITE",
				Detail: "Append", RowsAdded: 50, FilesAdded: 1, Duration: 20 * time.Millisecond})
		}},
		{"retry a", func() error {
			return s.RecordRetry(ctx, id, Retry{Task: a, Table: prices, Attempt: 1, Delay: 120 * time.Millisecond,
				Error: "commit conflict: version 8 written by pl-prices.feed_b"})
		}},
		{"write a", func() error {
			return s.RecordOperation(ctx, id, Operation{Task: a, Table: prices, Version: ptr(9), Operation: "WRITE",
				Detail: "Append", RowsAdded: 130, FilesAdded: 1, Duration: 40 * time.Millisecond})
		}},
		{"event", func() error {
			_, err := s.AppendEvent(ctx, id, Event{Kind: "sink_definition", Task: a,
				Payload: json.RawMessage(`{"format": "foreach", "name": "orders_http"}`)})
			return err
		}},
		{"run event", func() error { _, err := s.AppendEvent(ctx, id, Event{Kind: "plan"}); return err }},
		{"warning", func() error {
			return s.RecordMessage(ctx, id, Message{Severity: SeverityWarning, Code: "RESET_OTHER_PIPELINES",
				Text: "writers in other pipelines need a FULL refresh: pl-other.feed_c"})
		}},
		{"info", func() error {
			return s.RecordMessage(ctx, id, Message{Task: a, Severity: SeverityInfo, Text: "checkpoint reset"})
		}},
		{"finish a", func() error {
			return s.FinishTask(ctx, id, a, TaskEnd{Status: StatusSucceeded, RowsRead: 130})
		}},
		{"finish b", func() error {
			return s.FinishTask(ctx, id, b, TaskEnd{Status: StatusFailed, RowsRead: 50, Error: "expectation failed"})
		}},
		{"error", func() error {
			return s.RecordMessage(ctx, id, Message{Task: b, Severity: SeverityError, Code: "EXPECTATION", Text: "expectation failed"})
		}},
		{"finish run", func() error {
			return s.FinishRun(ctx, id, RunEnd{Status: StatusFailed, Error: "1 task failed: pl-prices.feed_b"})
		}},
	}
	for _, st := range steps {
		mustNil(t, st.do(), st.name)
	}
	return id
}

func TestRunDetail(t *testing.T) {
	s := openTest(t)
	id := recordScenario(t, s)
	d, err := s.RunDetail(context.Background(), id)
	mustNil(t, err, "run detail")

	r := d.Run
	got := []int64{r.Tasks, r.TasksFailed, r.RowsRead, r.RowsWritten, r.RowsDeleted, r.Retries, r.Warnings, r.Errors}
	want := []int64{2, 1, 180, 180, 120, 1, 1, 1}
	if !equal(got, want) {
		t.Errorf("run counters (tasks, failed, read, written, deleted, retries, warnings, errors) = %v, want %v", got, want)
	}
	if r.Status != StatusFailed || r.Error == "" || r.Duration() <= 0 {
		t.Errorf("run end: %+v", r)
	}
	if len(d.Tasks) != 2 || d.Tasks[0].Key != "pl-prices.feed_a" {
		t.Fatalf("tasks (ordered by start) = %+v", d.Tasks)
	}
	ta := d.Tasks[0]
	if got := []int64{ta.RowsRead, ta.RowsWritten, ta.RowsDeleted, ta.Retries}; !equal(got, []int64{130, 130, 120, 1}) {
		t.Errorf("task a (read, written, deleted, retries) = %v", got)
	}
	if len(d.Operations) != 3 || len(d.Retries) != 1 || len(d.Deletions) != 1 || len(d.Messages) != 3 || len(d.Events) != 2 {
		t.Errorf("detail lists: %d ops, %d retries, %d deletions, %d messages, %d events",
			len(d.Operations), len(d.Retries), len(d.Deletions), len(d.Messages), len(d.Events))
	}
	b, err := json.MarshalIndent(d, "", "  ")
	mustNil(t, err, "json")
	golden.RequireEqual(t, append(b, '\n'))
}

func equal(a, b []int64) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

func TestRecordRejectsBadInput(t *testing.T) {
	ctx := context.Background()
	s := openTest(t)
	id, err := s.StartRun(ctx, RunStart{Workspace: "/ws"})
	mustNil(t, err, "start run")
	mustNil(t, s.StartTask(ctx, id, TaskStart{Pipeline: "pl", Node: "n"}), "start task")
	const missing = 999
	tests := []struct {
		name string
		do   func() error
		want error
	}{
		{"unknown refresh", func() error { _, err := s.StartRun(ctx, RunStart{Refresh: "SOMETIMES"}); return err }, ErrInvalid},
		{"unknown reset mode", func() error { _, err := s.StartRun(ctx, RunStart{ResetMode: "NUKE"}); return err }, ErrInvalid},
		{"run starts finished", func() error { _, err := s.StartRun(ctx, RunStart{Status: StatusSucceeded}); return err }, ErrInvalid},
		{"mark running a running run", func() error { return s.MarkRunning(ctx, id) }, ErrNotFound},
		{"finish unknown run", func() error { return s.FinishRun(ctx, missing, RunEnd{Status: StatusSucceeded}) }, ErrNotFound},
		{"finish run as queued", func() error { return s.FinishRun(ctx, id, RunEnd{Status: StatusQueued}) }, ErrInvalid},
		{"task without key", func() error { return s.StartTask(ctx, id, TaskStart{Node: "n"}) }, ErrInvalid},
		{"task starts finished", func() error { return s.StartTask(ctx, id, TaskStart{Key: "k", Status: StatusFailed}) }, ErrInvalid},
		{"task of unknown run", func() error { return s.StartTask(ctx, missing, TaskStart{Key: "k"}) }, ErrNotFound},
		{"finish unknown task", func() error { return s.FinishTask(ctx, id, "pl.other", TaskEnd{Status: StatusSucceeded}) }, ErrNotFound},
		{"finish task as running", func() error { return s.FinishTask(ctx, id, "pl.n", TaskEnd{Status: StatusRunning}) }, ErrInvalid},
		{"operation without table", func() error { return s.RecordOperation(ctx, id, Operation{Operation: "WRITE"}) }, ErrInvalid},
		{"operation of unknown task", func() error {
			return s.RecordOperation(ctx, id, Operation{Task: "pl.other", Table: "t", Operation: "WRITE", RowsAdded: 5})
		}, ErrNotFound},
		{"operation of unknown run", func() error {
			return s.RecordOperation(ctx, missing, Operation{Table: "t", Operation: "WRITE", RowsAdded: 5})
		}, ErrNotFound},
		{"retry attempt 0", func() error { return s.RecordRetry(ctx, id, Retry{Task: "pl.n"}) }, ErrInvalid},
		{"retry of unknown task", func() error { return s.RecordRetry(ctx, id, Retry{Task: "x", Attempt: 1}) }, ErrNotFound},
		{"deletion without writer", func() error { return s.RecordDeletion(ctx, id, Deletion{Table: "t", Rows: 3}) }, ErrInvalid},
		{"deletion of unknown run", func() error {
			return s.RecordDeletion(ctx, missing, Deletion{Table: "t", Writer: "w", Rows: 3})
		}, ErrNotFound},
		{"message severity", func() error { return s.RecordMessage(ctx, id, Message{Severity: "fatal", Text: "x"}) }, ErrInvalid},
		{"message without text", func() error { return s.RecordMessage(ctx, id, Message{Severity: SeverityError}) }, ErrInvalid},
		{"message of unknown run", func() error {
			return s.RecordMessage(ctx, missing, Message{Severity: SeverityWarning, Text: "x"})
		}, ErrNotFound},
		{"event without kind", func() error { _, err := s.AppendEvent(ctx, id, Event{}); return err }, ErrInvalid},
		{"event payload not JSON", func() error {
			_, err := s.AppendEvent(ctx, id, Event{Kind: "k", Payload: json.RawMessage("{nope")})
			return err
		}, ErrInvalid},
		{"event of unknown run", func() error { _, err := s.AppendEvent(ctx, missing, Event{Kind: "k"}); return err }, ErrNotFound},
		{"flow without name", func() error { return s.RecordFlows(ctx, id, []Flow{{Table: "t"}}) }, ErrInvalid},
		{"flow of unknown run", func() error { return s.RecordFlows(ctx, missing, []Flow{{Table: "t", Name: "f"}}) }, ErrNotFound},
		{"get unknown run", func() error { _, err := s.GetRun(ctx, missing); return err }, ErrNotFound},
		{"detail of unknown run", func() error { _, err := s.RunDetail(ctx, missing); return err }, ErrNotFound},
		{"last run of nothing", func() error { _, err := s.LastRun(ctx, Filter{Pipeline: "nope"}); return err }, ErrNotFound},
		{"page both ways", func() error { _, err := s.ListRuns(ctx, Page{Before: 5, After: 1}, Filter{}); return err }, ErrInvalid},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			err := tt.do()
			if !errors.Is(err, tt.want) {
				t.Fatalf("got %v, want %v", err, tt.want)
			}
		})
	}
	// Bad records lose nothing and count nothing.
	r, err := s.GetRun(ctx, id)
	mustNil(t, err, "get run")
	if r.Status != StatusRunning || r.Tasks != 1 || r.RowsWritten != 0 || r.Retries != 0 || r.Warnings != 0 {
		t.Fatalf("bad records changed the run: %+v", r)
	}
	if n, _ := s.CountRuns(ctx, Filter{}); n != 1 {
		t.Fatalf("bad records created runs: %d", n)
	}
}

func TestFinishRunClosesOpenTasks(t *testing.T) {
	ctx := context.Background()
	s := openTest(t)
	id, err := s.StartRun(ctx, RunStart{Workspace: "/ws"})
	mustNil(t, err, "start run")
	mustNil(t, s.StartTask(ctx, id, TaskStart{Key: "p.done"}), "start")
	mustNil(t, s.FinishTask(ctx, id, "p.done", TaskEnd{Status: StatusSucceeded}), "finish")
	mustNil(t, s.StartTask(ctx, id, TaskStart{Key: "p.running"}), "start")
	mustNil(t, s.StartTask(ctx, id, TaskStart{Key: "p.queued", Status: StatusQueued}), "queue")
	mustNil(t, s.FinishRun(context.WithoutCancel(ctx), id, RunEnd{Status: StatusCancelled}), "finish run")
	d, err := s.RunDetail(ctx, id)
	mustNil(t, err, "detail")
	want := map[string]Status{"p.done": StatusSucceeded, "p.running": StatusCancelled, "p.queued": StatusSkipped}
	for _, task := range d.Tasks {
		if task.Status != want[task.Key] || task.EndedAt.IsZero() {
			t.Errorf("task %s: %s ended %v, want %s", task.Key, task.Status, task.EndedAt, want[task.Key])
		}
	}
	if d.Tasks[2].Key != "p.queued" || !d.Tasks[2].StartedAt.IsZero() {
		t.Errorf("a task never started sorts last with no start: %+v", d.Tasks[2])
	}
}

func TestQueuedRun(t *testing.T) {
	ctx := context.Background()
	s := openTest(t)
	id, err := s.StartRun(ctx, RunStart{Workspace: "/ws", Status: StatusQueued})
	mustNil(t, err, "queue run")
	queued, _ := s.GetRun(ctx, id)
	mustNil(t, s.MarkRunning(ctx, id), "mark running")
	r, _ := s.GetRun(ctx, id)
	if queued.Status != StatusQueued || r.Status != StatusRunning || !r.StartedAt.After(queued.StartedAt) {
		t.Fatalf("queued %+v then %+v", queued, r)
	}
}

func TestEventsTail(t *testing.T) {
	ctx := context.Background()
	s := openTest(t)
	id, err := s.StartRun(ctx, RunStart{Workspace: "/ws"})
	mustNil(t, err, "start run")
	other, err := s.StartRun(ctx, RunStart{Workspace: "/ws"})
	mustNil(t, err, "start run")
	for i := range 5 {
		seq, err := s.AppendEvent(ctx, id, Event{Kind: "flow_progress", Payload: json.RawMessage(fmt.Sprintf(`{"batch":%d}`, i))})
		mustNil(t, err, "append")
		if seq != int64(i+1) {
			t.Fatalf("seq %d, want %d", seq, i+1)
		}
	}
	if seq, _ := s.AppendEvent(ctx, other, Event{Kind: "k"}); seq != 1 {
		t.Fatalf("each run numbers its events from 1, got %d", seq)
	}
	ev, err := s.Events(ctx, id, 2, 2)
	mustNil(t, err, "events")
	if len(ev) != 2 || ev[0].Seq != 3 || ev[1].Seq != 4 || string(ev[0].Payload) != `{"batch":2}` {
		t.Fatalf("events after 2: %+v", ev)
	}
	if ev, _ := s.Events(ctx, id, 5, 10); len(ev) != 0 {
		t.Fatalf("nothing after the last event, got %+v", ev)
	}
}

func TestLastTasksAndTableOperations(t *testing.T) {
	ctx := context.Background()
	s := openTest(t)
	run := func(tasks map[string]Status) int64 {
		id, err := s.StartRun(ctx, RunStart{Workspace: "/ws"})
		mustNil(t, err, "start run")
		for key, st := range tasks {
			pl, node, _ := strings.Cut(key, ".")
			mustNil(t, s.StartTask(ctx, id, TaskStart{Pipeline: pl, Node: node}), "start task")
			mustNil(t, s.RecordOperation(ctx, id, Operation{Task: key, Table: "t_" + node, Operation: "WRITE"}), "op")
			if st != StatusRunning {
				mustNil(t, s.FinishTask(ctx, id, key, TaskEnd{Status: st}), "finish task")
			}
		}
		return id
	}
	r1 := run(map[string]Status{"a.x": StatusSucceeded, "a.y": StatusFailed})
	r2 := run(map[string]Status{"a.x": StatusRunning, "b.x": StatusSucceeded})

	tests := []struct {
		name     string
		pipeline string
		want     []string // key:run:status
	}{
		{"pipeline a", "a", []string{"a.x:2:running", "a.y:1:failed"}},
		{"pipeline b", "b", []string{"b.x:2:succeeded"}},
		{"all", "", []string{"a.x:2:running", "a.y:1:failed", "b.x:2:succeeded"}},
		{"unknown", "zzz", nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			tasks, err := s.LastTasks(ctx, tt.pipeline)
			mustNil(t, err, "last tasks")
			var got []string
			for _, x := range tasks {
				got = append(got, fmt.Sprintf("%s:%d:%s", x.Key, x.RunID, x.Status))
			}
			if strings.Join(got, " ") != strings.Join(tt.want, " ") {
				t.Fatalf("got %v, want %v", got, tt.want)
			}
		})
	}

	ops, err := s.TableOperations(ctx, "t_x", 10)
	mustNil(t, err, "table operations")
	if len(ops) != 3 || ops[0].RunID != r2 || ops[2].RunID != r1 || ops[0].ID < ops[1].ID {
		t.Fatalf("operations on t_x, newest first: %+v", ops)
	}
	if ops, _ := s.TableOperations(ctx, "t_x", 1); len(ops) != 1 {
		t.Fatalf("limit 1: %d operations", len(ops))
	}
}

func TestFlows(t *testing.T) {
	ctx := context.Background()
	s := openTest(t)
	r1, _ := s.StartRun(ctx, RunStart{Workspace: "/ws"})
	r2, _ := s.StartRun(ctx, RunStart{Workspace: "/ws"})
	mustNil(t, s.RecordFlows(ctx, r1, []Flow{
		{Table: "events", Pipeline: "pl", Name: "events__a"},
		{Table: "events", Pipeline: "pl", Name: "events__b"},
		{Table: "other", Pipeline: "pl", Name: "other__a"},
	}), "record flows 1")
	mustNil(t, s.RecordFlows(ctx, r2, []Flow{
		{Table: "events", Pipeline: "pl", Name: "events__b"},
		{Table: "events", Pipeline: "pl", Name: "events__c"},
	}), "record flows 2")

	flows, err := s.ListFlows(ctx, "events")
	mustNil(t, err, "list flows")
	got := map[string][2]int64{}
	for _, f := range flows {
		got[f.Name] = [2]int64{f.FirstRun, f.LastRun}
		if f.FirstSeen.IsZero() || f.LastSeen.Before(f.FirstSeen) {
			t.Errorf("flow %s seen %v..%v", f.Name, f.FirstSeen, f.LastSeen)
		}
	}
	want := map[string][2]int64{"events__a": {r1, r1}, "events__b": {r1, r2}, "events__c": {r2, r2}}
	if len(got) != len(want) {
		t.Fatalf("flows %v, want %v", got, want)
	}
	for k, v := range want {
		if got[k] != v {
			t.Errorf("flow %s first/last run %v, want %v", k, got[k], v)
		}
	}
	if all, _ := s.ListFlows(ctx, ""); len(all) != 4 {
		t.Fatalf("all flows: %d, want 4", len(all))
	}
	mustNil(t, s.ForgetFlows(ctx, "events"), "forget")
	if fl, _ := s.ListFlows(ctx, "events"); len(fl) != 0 {
		t.Fatalf("forgotten flows still listed: %+v", fl)
	}
	if fl, _ := s.ListFlows(ctx, "other"); len(fl) != 1 {
		t.Fatalf("ForgetFlows touched another table: %+v", fl)
	}
}

func TestJSONDurationsInMilliseconds(t *testing.T) {
	b, _ := json.Marshal(Retry{Attempt: 2, Delay: 1500 * time.Millisecond})
	if !strings.Contains(string(b), `"delay_ms":1500`) || strings.Contains(string(b), "Delay") {
		t.Fatalf("retry JSON %s", b)
	}
	b, _ = json.Marshal(Operation{Duration: 2 * time.Second})
	if !strings.Contains(string(b), `"duration_ms":2000`) {
		t.Fatalf("operation JSON %s", b)
	}
}

func TestRecordMergeRows(t *testing.T) {
	ctx := context.Background()
	s := openTest(t)
	id, err := s.StartRun(ctx, RunStart{Workspace: "/ws"})
	mustNil(t, err, "start run")
	op := Operation{Table: "silver", Version: ptr(3), Operation: "MERGE", RowsAdded: 10, RowsUpdated: 85, RowsDeleted: 5}
	mustNil(t, s.RecordOperation(ctx, id, op), "record")
	d, err := s.RunDetail(ctx, id)
	mustNil(t, err, "detail")
	if len(d.Operations) != 1 || d.Operations[0].RowsAdded != 10 || d.Operations[0].RowsUpdated != 85 || d.Operations[0].RowsDeleted != 5 {
		t.Fatalf("operations %+v", d.Operations)
	}
}

// TestRunEngine: a run records its engine and remote; a local run records
// none (as the runs from before the engine was recorded read).
func TestRunEngine(t *testing.T) {
	ctx := context.Background()
	s := openTest(t)
	spark, err := s.StartRun(ctx, RunStart{Workspace: "/ws", Engine: "spark", Remote: "sc://127.0.0.1:15002"})
	mustNil(t, err, "start spark run")
	local, err := s.StartRun(ctx, RunStart{Workspace: "/ws"})
	mustNil(t, err, "start local run")
	r, _ := s.GetRun(ctx, spark)
	l, _ := s.GetRun(ctx, local)
	if r.Engine != "spark" || r.Remote != "sc://127.0.0.1:15002" || l.Engine != "" || l.Remote != "" {
		t.Fatalf("spark run %q %q, local run %q %q", r.Engine, r.Remote, l.Engine, l.Remote)
	}
	runs, err := s.ListRuns(ctx, Page{}, Filter{})
	mustNil(t, err, "list")
	if len(runs.Runs) != 2 || runs.Runs[1].Engine != "spark" {
		t.Fatalf("listed %+v", runs)
	}
}

// TestCheckpoints: a checkpoint marked is listed with its flow, query id
// and first run (marking it again under the same query id keeps that
// run; under another, a reset one, takes the new); forgetting it removes
// it; a mark without a path or flow is refused.
func TestCheckpoints(t *testing.T) {
	ctx := context.Background()
	s := openTest(t)
	r1, _ := s.StartRun(ctx, RunStart{Workspace: "/ws"})
	r2, _ := s.StartRun(ctx, RunStart{Workspace: "/ws"})
	mustNil(t, s.MarkCheckpoint(ctx, r1, Checkpoint{Path: ".laktory/checkpoints/pl/a/t", Flow: "pl.a", QueryID: "q1"}), "mark a")
	mustNil(t, s.MarkCheckpoint(ctx, r1, Checkpoint{Path: ".laktory/checkpoints/pl/b/t", Flow: "pl.b", QueryID: "q2"}), "mark b")
	mustNil(t, s.MarkCheckpoint(ctx, r2, Checkpoint{Path: ".laktory/checkpoints/pl/a/t", Flow: "pl.a", QueryID: "q1"}), "mark a again")
	c, ok, err := s.GetCheckpoint(ctx, ".laktory/checkpoints/pl/a/t")
	mustNil(t, err, "get a")
	if !ok || c.Flow != "pl.a" || c.QueryID != "q1" || c.RunID != r1 || c.At.IsZero() {
		t.Fatalf("checkpoint a: %+v, %v", c, ok)
	}
	mustNil(t, s.MarkCheckpoint(ctx, r2, Checkpoint{Path: ".laktory/checkpoints/pl/a/t", Flow: "pl.a", QueryID: "q3"}), "mark a reset")
	if c, _, _ := s.GetCheckpoint(ctx, ".laktory/checkpoints/pl/a/t"); c.QueryID != "q3" || c.RunID != r2 {
		t.Fatalf("checkpoint a after its reset: %+v", c)
	}
	mustNil(t, s.ForgetCheckpoint(ctx, ".laktory/checkpoints/pl/a/t"), "forget a")
	cs, err := s.ListCheckpoints(ctx)
	mustNil(t, err, "list")
	if len(cs) != 1 || cs[0].Path != ".laktory/checkpoints/pl/b/t" {
		t.Fatalf("checkpoints after forgetting a: %+v", cs)
	}
	if _, ok, _ := s.GetCheckpoint(ctx, ".laktory/checkpoints/pl/a/t"); ok {
		t.Fatal("a forgotten checkpoint is still found")
	}
	if err := s.MarkCheckpoint(ctx, r1, Checkpoint{Flow: "pl.c"}); !errors.Is(err, ErrInvalid) {
		t.Fatalf("a mark without a path: %v", err)
	}
}
