package history

import (
	"context"
	"database/sql"
	"encoding/json"
	"fmt"
	"strings"
	"time"

	sqlite3 "modernc.org/sqlite/lib"
)

// The record methods are what the runner calls while it runs. Each is one
// short statement (or transaction) on the writer connection, with its
// statements prepared once; they may be called from several goroutines.
// Times come from the store's clock. To record the end of a run whose
// context was cancelled, pass context.WithoutCancel(ctx).

// StartRun records a new run, owned by this process, and returns its id.
func (s *Store) StartRun(ctx context.Context, in RunStart) (int64, error) {
	if in.Refresh == "" {
		in.Refresh = RefreshIncremental
	}
	if in.Status == "" {
		in.Status = StatusRunning
	}
	if err := in.Status.check(StatusRunning, StatusQueued); err != nil {
		return 0, fmt.Errorf("start run: %w", err)
	}
	switch {
	case in.Refresh != RefreshIncremental && in.Refresh != RefreshFull && in.Refresh != RefreshReset:
		return 0, fmt.Errorf("start run: %w: refresh %q (want INCREMENTAL, FULL or RESET)", ErrInvalid, in.Refresh)
	case in.ResetMode != "" && in.ResetMode != ResetDrop && in.ResetMode != ResetTruncate:
		return 0, fmt.Errorf("start run: %w: reset mode %q (want DROP or TRUNCATE)", ErrInvalid, in.ResetMode)
	}
	var id int64
	err := s.inTx(ctx, func(tx *sql.Tx) error {
		row, err := s.queryRow(ctx, s.w, tx, qInsertRun,
			in.Status, ts(s.at(in.StartedAt)), in.Workspace, in.Env, in.Refresh, in.ResetMode,
			jsonList(in.Pipelines), jsonList(in.Selectors), in.Parallelism, in.Engine, in.Remote,
			s.cfg.self.host, s.cfg.self.pid, s.cfg.self.start)
		if err != nil {
			return err
		}
		if err := row.Scan(&id); err != nil {
			return err
		}
		for _, p := range in.Pipelines {
			if _, err := s.exec(ctx, tx, qInsertRunPipeline, p, id); err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		return 0, recordErr("start run", 0, "", err)
	}
	return id, nil
}

// at is t, or the store's clock now when t is zero.
func (s *Store) at(t time.Time) time.Time {
	if t.IsZero() {
		return s.cfg.now()
	}
	return t
}

// MarkRunning moves a queued run to running and restarts its clock.
func (s *Store) MarkRunning(ctx context.Context, runID int64) error {
	res, err := s.exec(ctx, nil, `UPDATE runs SET status = 'running', started_at = ? WHERE id = ? AND status = 'queued'`,
		ts(s.cfg.now()), runID)
	if err != nil {
		return recordErr("mark run running", runID, "", err)
	}
	if n, _ := res.RowsAffected(); n == 0 {
		return fmt.Errorf("mark run running: run %d: %w among queued runs", runID, ErrNotFound)
	}
	return nil
}

// FinishRun records how a run ended. Tasks still open are closed: running
// ones as cancelled, queued ones as skipped.
func (s *Store) FinishRun(ctx context.Context, runID int64, end RunEnd) error {
	if err := end.Status.check(StatusSucceeded, StatusFailed, StatusCancelled); err != nil {
		return fmt.Errorf("finish run %d: %w", runID, err)
	}
	now := ts(s.at(end.EndedAt))
	err := s.inTx(ctx, func(tx *sql.Tx) error {
		res, err := s.exec(ctx, tx, qFinishRun, end.Status, now, end.Error, runID)
		if err != nil {
			return err
		}
		if n, _ := res.RowsAffected(); n == 0 {
			return fmt.Errorf("run %d: %w", runID, ErrNotFound)
		}
		_, err = s.exec(ctx, tx, qCloseTasks, now, runID)
		return err
	})
	if err != nil {
		return recordErr("finish run", runID, "", err)
	}
	return nil
}

// StartTask records a task of a run as running (or queued, with
// TaskStart.Status). Starting a queued task again marks it running.
func (s *Store) StartTask(ctx context.Context, runID int64, t TaskStart) error {
	if t.Key == "" && t.Pipeline != "" && t.Node != "" {
		t.Key = t.Pipeline + "." + t.Node
	}
	if t.Status == "" {
		t.Status = StatusRunning
	}
	if err := t.Status.check(StatusRunning, StatusQueued); err != nil {
		return fmt.Errorf("start task: %w", err)
	}
	if t.Key == "" {
		return fmt.Errorf("start task: %w: a task needs a key or a pipeline and a node", ErrInvalid)
	}
	var started any
	if t.Status == StatusRunning {
		started = ts(s.at(t.StartedAt))
	}
	_, err := s.exec(ctx, nil, `INSERT INTO tasks (run_id, task_key, pipeline, node, status, started_at)
		VALUES (?, ?, ?, ?, ?, ?)
		ON CONFLICT (run_id, task_key) DO UPDATE SET status = excluded.status, started_at = excluded.started_at`,
		runID, t.Key, t.Pipeline, t.Node, t.Status, started)
	return recordErr("start task", runID, "", err)
}

// FinishTask records how a task ended and how many rows it read. Its rows
// written and deleted come from its operations.
func (s *Store) FinishTask(ctx context.Context, runID int64, key string, end TaskEnd) error {
	if err := end.Status.check(StatusSucceeded, StatusFailed, StatusCancelled, StatusSkipped); err != nil {
		return fmt.Errorf("finish task %q: %w", key, err)
	}
	res, err := s.exec(ctx, nil, `UPDATE tasks SET status = ?, ended_at = ?, rows_read = ?, error = ?
		WHERE run_id = ? AND task_key = ?`, end.Status, ts(s.at(end.EndedAt)), end.RowsRead, end.Error, runID, key)
	if err != nil {
		return recordErr("finish task", runID, key, err)
	}
	if n, _ := res.RowsAffected(); n == 0 {
		return fmt.Errorf("finish task: run %d task %q: %w (record it with StartTask first)", runID, key, ErrNotFound)
	}
	return nil
}

// RecordOperation records a change made to a table. The operation name is
// stored upper-case. Its rows added and deleted count in the task's and the
// run's rows written and deleted.
func (s *Store) RecordOperation(ctx context.Context, runID int64, op Operation) error {
	if op.Table == "" || op.Operation == "" {
		return fmt.Errorf("record operation: %w: table and operation are required", ErrInvalid)
	}
	_, err := s.exec(ctx, nil, `INSERT INTO operations (run_id, task_key, table_name, table_path, version, operation,
		detail, rows_added, rows_deleted, rows_updated, files_added, files_removed, duration_ms, at)
		VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
		runID, nullable(op.Task), op.Table, op.Path, op.Version, strings.ToUpper(op.Operation), op.Detail,
		op.RowsAdded, op.RowsDeleted, op.RowsUpdated, op.FilesAdded, op.FilesRemoved, op.Duration.Milliseconds(), ts(s.cfg.now()))
	return recordErr("record operation", runID, op.Task, err)
}

// RecordRetry records a commit retried after a conflict.
func (s *Store) RecordRetry(ctx context.Context, runID int64, r Retry) error {
	if r.Attempt < 1 {
		return fmt.Errorf("record retry: %w: attempt %d (the first retry is 1)", ErrInvalid, r.Attempt)
	}
	_, err := s.exec(ctx, nil, `INSERT INTO retries (run_id, task_key, table_name, attempt, delay_ms, error, at)
		VALUES (?, ?, ?, ?, ?, ?, ?)`,
		runID, nullable(r.Task), r.Table, r.Attempt, r.Delay.Milliseconds(), r.Error, ts(s.cfg.now()))
	return recordErr("record retry", runID, r.Task, err)
}

// RecordDeletion records the rows deleted from a table for one writer.
func (s *Store) RecordDeletion(ctx context.Context, runID int64, d Deletion) error {
	if d.Table == "" || (d.Writer == "" && d.Predicate == "") {
		return fmt.Errorf("record deletion: %w: a table and a writer id or predicate are required", ErrInvalid)
	}
	_, err := s.exec(ctx, nil, `INSERT INTO deletions (run_id, task_key, table_name, writer, predicate,
		rows_deleted, version, at) VALUES (?, ?, ?, ?, ?, ?, ?, ?)`,
		runID, nullable(d.Task), d.Table, d.Writer, d.Predicate, d.Rows, d.Version, ts(s.cfg.now()))
	return recordErr("record deletion", runID, d.Task, err)
}

// RecordMessage records a warning, an error or a note. Warnings and errors
// count in the run's summary.
func (s *Store) RecordMessage(ctx context.Context, runID int64, m Message) error {
	if err := m.Severity.check(); err != nil {
		return fmt.Errorf("record message: %w", err)
	}
	if m.Text == "" {
		return fmt.Errorf("record message: %w: empty text", ErrInvalid)
	}
	_, err := s.exec(ctx, nil, `INSERT INTO messages (run_id, task_key, severity, code, text, at)
		VALUES (?, ?, ?, ?, ?, ?)`, runID, nullable(m.Task), m.Severity, m.Code, m.Text, ts(s.cfg.now()))
	return recordErr("record message", runID, m.Task, err)
}

func (sv Severity) check() error {
	switch sv {
	case SeverityInfo, SeverityWarning, SeverityError:
		return nil
	}
	return fmt.Errorf("%w: severity %q (want info, warning or error)", ErrInvalid, sv)
}

// AppendEvent appends an entry to the run's event log and returns its
// sequence number (1, 2, ... within the run). Payload must be JSON (empty
// means {}).
func (s *Store) AppendEvent(ctx context.Context, runID int64, e Event) (int64, error) {
	if e.Kind == "" {
		return 0, fmt.Errorf("append event: %w: empty kind", ErrInvalid)
	}
	payload := string(e.Payload)
	if len(e.Payload) == 0 {
		payload = "{}"
	} else if !json.Valid(e.Payload) {
		return 0, fmt.Errorf("append event %q: %w: payload is not JSON", e.Kind, ErrInvalid)
	}
	var seq int64
	err := s.waitLocked(ctx, func() error {
		row, err := s.queryRow(ctx, s.w, nil, `INSERT INTO events (run_id, seq, at, kind, task_key, payload)
		SELECT ?1, coalesce(max(seq), 0) + 1, ?2, ?3, ?4, ?5 FROM events WHERE run_id = ?1
		RETURNING seq`, runID, ts(s.cfg.now()), e.Kind, nullable(e.Task), payload)
		if err != nil {
			return err
		}
		return row.Scan(&seq)
	})
	if err != nil {
		return 0, recordErr("append event", runID, e.Task, err)
	}
	return seq, nil
}

// RecordFlows remembers the append flows a run saw (Table, Pipeline and Name
// of each): a new flow is first seen by this run, a known one last seen.
func (s *Store) RecordFlows(ctx context.Context, runID int64, flows []Flow) error {
	now := ts(s.cfg.now())
	err := s.inTx(ctx, func(tx *sql.Tx) error {
		for _, f := range flows {
			if f.Table == "" || f.Name == "" {
				return fmt.Errorf("%w: a flow needs a table and a name", ErrInvalid)
			}
			if _, err := s.exec(ctx, tx, qUpsertFlow, f.Table, f.Pipeline, f.Name, runID, now); err != nil {
				return err
			}
		}
		return nil
	})
	return recordErr("record flows", runID, "", err)
}

// ForgetFlows forgets the flows of a table, after a full refresh reset them
// all: the flows the next run records are then all first seen.
func (s *Store) ForgetFlows(ctx context.Context, table string) error {
	_, err := s.exec(ctx, nil, `DELETE FROM flows WHERE table_name = ?`, table)
	return recordErr("forget flows", 0, "", err)
}

// Statements run inside transactions (see prepareAll).
const (
	qInsertRun = `INSERT INTO runs (status, started_at, workspace, env, refresh, reset_mode, pipelines,
		selectors, parallelism, engine, remote, owner_host, owner_pid, owner_start)
		VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?) RETURNING id`
	qInsertRunPipeline = `INSERT OR IGNORE INTO run_pipelines (pipeline, run_id) VALUES (?, ?)`
	qFinishRun         = `UPDATE runs SET status = ?, ended_at = ?, error = ? WHERE id = ?`
	qCloseTasks        = `UPDATE tasks SET ended_at = ?,
		status = CASE status WHEN 'queued' THEN 'skipped' ELSE 'cancelled' END
		WHERE run_id = ? AND status IN ('queued', 'running')`
	qUpsertFlow = `INSERT INTO flows (table_name, pipeline, flow, first_run_id, last_run_id, first_seen_at,
		last_seen_at) VALUES (?1, ?2, ?3, ?4, ?4, ?5, ?5)
		ON CONFLICT (table_name, pipeline, flow) DO UPDATE
		SET last_run_id = excluded.last_run_id, last_seen_at = excluded.last_seen_at`
)

// recordErr explains a failed record (nil stays nil).
func recordErr(what string, runID int64, task string, err error) error {
	if err == nil {
		return nil
	}
	if code, ok := sqliteCode(err); ok {
		switch code {
		case sqlite3.SQLITE_CONSTRAINT_FOREIGNKEY:
			if task != "" {
				return fmt.Errorf("%s: run %d or its task %q: %w (record them first with StartRun and StartTask)",
					what, runID, task, ErrNotFound)
			}
			return fmt.Errorf("%s: run %d: %w (record it first with StartRun)", what, runID, ErrNotFound)
		case sqlite3.SQLITE_CONSTRAINT_CHECK, sqlite3.SQLITE_CONSTRAINT_NOTNULL:
			return fmt.Errorf("%s: %w: %v", what, ErrInvalid, err)
		}
	}
	return fmt.Errorf("%s: %w", what, err)
}

// MarkCheckpoint remembers that a flow committed batches through the
// checkpoint c.Path (relative to the workspace) in run runID, under
// the checkpoint's query id.
func (s *Store) MarkCheckpoint(ctx context.Context, runID int64, c Checkpoint) error {
	if c.Path == "" || c.Flow == "" {
		return fmt.Errorf("mark checkpoint: %w: a path and a flow are required", ErrInvalid)
	}
	_, err := s.exec(ctx, nil, `INSERT INTO checkpoints (path, flow, query_id, run_id, written_at) VALUES (?1, ?2, ?3, ?4, ?5)
		ON CONFLICT (path) DO UPDATE SET flow = ?2, query_id = ?3, run_id = ?4, written_at = ?5
		WHERE query_id <> ?3 OR flow <> ?2`, c.Path, c.Flow, c.QueryID, runID, ts(s.cfg.now()))
	return recordErr("mark checkpoint", runID, "", err)
}

// ForgetCheckpoint forgets the checkpoint at path, before a refresh
// resets it.
func (s *Store) ForgetCheckpoint(ctx context.Context, path string) error {
	_, err := s.exec(ctx, nil, `DELETE FROM checkpoints WHERE path = ?`, path)
	return recordErr("forget checkpoint", 0, "", err)
}
