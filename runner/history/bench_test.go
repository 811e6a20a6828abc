package history

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"sync"
	"testing"
	"time"
)

// BenchmarkRecordRun records a whole run as the runner would: 10 tasks of 2
// operations each, statement by statement.
func BenchmarkRecordRun(b *testing.B) {
	ctx := context.Background()
	s := openTest(b)
	b.ReportAllocs()
	for b.Loop() {
		id, err := s.StartRun(ctx, RunStart{Workspace: "/ws", Pipelines: []string{"pl"}})
		if err != nil {
			b.Fatal(err)
		}
		for j := range 10 {
			key := fmt.Sprintf("pl.n%d", j)
			if err := s.StartTask(ctx, id, TaskStart{Key: key, Pipeline: "pl", Node: key[3:]}); err != nil {
				b.Fatal(err)
			}
			for range 2 {
				if err := s.RecordOperation(ctx, id, Operation{Task: key, Table: "t", Version: ptr(1), Operation: "WRITE",
					RowsAdded: 100, FilesAdded: 1, Duration: time.Millisecond}); err != nil {
					b.Fatal(err)
				}
			}
			if err := s.FinishTask(ctx, id, key, TaskEnd{Status: StatusSucceeded, RowsRead: 200}); err != nil {
				b.Fatal(err)
			}
		}
		if err := s.FinishRun(ctx, id, RunEnd{Status: StatusSucceeded}); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*42), "ns/record")
}

const benchRuns = 10_000

var (
	benchOnce sync.Once
	benchDir  string
	benchErr  error
)

// benchDB returns a database of 10,000 runs of 3 tasks each (shared by the
// read benchmarks, built once in bulk SQL), whose run 5000 holds 10 tasks,
// 20 operations, retries, messages and events.
func benchDB(b *testing.B) *Store {
	b.Helper()
	ctx := context.Background()
	benchOnce.Do(func() {
		if benchDir, benchErr = os.MkdirTemp("", "history-bench"); benchErr != nil {
			return
		}
		var s *Store
		if s, benchErr = Open(ctx, filepath.Join(benchDir, "state.db")); benchErr != nil {
			return
		}
		defer s.Close()
		_, benchErr = s.w.ExecContext(ctx, `
			WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < ?1)
			INSERT INTO runs (status, started_at, ended_at, workspace, refresh, pipelines, parallelism)
			SELECT CASE WHEN i % 7 = 0 THEN 'failed' ELSE 'succeeded' END,
			       strftime('%Y-%m-%dT%H:%M:%fZ', '2026-01-01', '+' || i || ' minutes'),
			       strftime('%Y-%m-%dT%H:%M:%fZ', '2026-01-01', '+' || i || ' minutes', '+20 seconds'),
			       '/ws', 'INCREMENTAL', '["pl-' || (i % 10) || '"]', 2
			FROM n;
			INSERT INTO run_pipelines (pipeline, run_id) SELECT 'pl-' || (id % 10), id FROM runs;
			WITH RECURSIVE k(j) AS (SELECT 0 UNION ALL SELECT j + 1 FROM k WHERE j < 2)
			INSERT INTO tasks (run_id, task_key, pipeline, node, status, started_at, ended_at, rows_read)
			SELECT r.id, 'pl-' || (r.id % 10) || '.n' || j, 'pl-' || (r.id % 10), 'n' || j, 'succeeded',
			       r.started_at, r.ended_at, 100
			FROM runs r, k;`, benchRuns)
		if benchErr != nil {
			return
		}
		// One full run in the middle for RunDetail.
		id := int64(benchRuns / 2)
		for j := range 10 {
			key := fmt.Sprintf("pl-detail.n%d", j)
			if benchErr = s.StartTask(ctx, id, TaskStart{Key: key, Pipeline: "pl-detail", Node: key}); benchErr != nil {
				return
			}
			for range 2 {
				if benchErr = s.RecordOperation(ctx, id, Operation{Task: key, Table: "t", Version: ptr(3), Operation: "WRITE", RowsAdded: 10}); benchErr != nil {
					return
				}
			}
			if benchErr = s.RecordRetry(ctx, id, Retry{Task: key, Attempt: 1, Delay: time.Second, Error: "conflict"}); benchErr != nil {
				return
			}
			if _, benchErr = s.AppendEvent(ctx, id, Event{Kind: "progress", Task: key}); benchErr != nil {
				return
			}
		}
		benchErr = s.RecordMessage(ctx, id, Message{Severity: SeverityWarning, Text: "w"})
	})
	if benchErr != nil {
		b.Fatal(benchErr)
	}
	s, err := Open(ctx, filepath.Join(benchDir, "state.db"))
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { s.Close() })
	return s
}

func BenchmarkListRuns(b *testing.B) {
	ctx := context.Background()
	s := benchDB(b)
	tests := []struct {
		name string
		page Page
		f    Filter
	}{
		{"first page", Page{Limit: 20}, Filter{}},
		{"deep page", Page{Limit: 20, Before: 120}, Filter{}},
		{"previous page", Page{Limit: 20, After: 120}, Filter{}},
		{"deep page by pipeline", Page{Limit: 20, Before: 500}, Filter{Pipeline: "pl-3"}},
		{"deep page by status", Page{Limit: 20, Before: 500}, Filter{Status: StatusFailed}},
	}
	for _, tt := range tests {
		b.Run(tt.name, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				page, err := s.ListRuns(ctx, tt.page, tt.f)
				if err != nil || len(page.Runs) != 20 {
					b.Fatalf("%d runs, %v", len(page.Runs), err)
				}
			}
		})
	}
}

func BenchmarkCountRuns(b *testing.B) {
	ctx := context.Background()
	s := benchDB(b)
	b.ReportAllocs()
	for b.Loop() {
		if n, err := s.CountRuns(ctx, Filter{}); err != nil || n != benchRuns {
			b.Fatal(n, err)
		}
	}
}

func BenchmarkRunDetail(b *testing.B) {
	ctx := context.Background()
	s := benchDB(b)
	b.ReportAllocs()
	for b.Loop() {
		d, err := s.RunDetail(ctx, benchRuns/2)
		if err != nil || len(d.Tasks) != 13 || len(d.Operations) != 20 {
			b.Fatalf("%d tasks, %d operations, %v", len(d.Tasks), len(d.Operations), err)
		}
	}
}

func BenchmarkLastTasks(b *testing.B) {
	ctx := context.Background()
	s := benchDB(b)
	b.ReportAllocs()
	for b.Loop() {
		if ts, err := s.LastTasks(ctx, ""); err != nil || len(ts) != 40 {
			b.Fatal(len(ts), err)
		}
	}
}
