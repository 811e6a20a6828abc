package history

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"slices"
	"strings"
)

// DefaultLimit and MaxLimit bound a page of runs.
const (
	DefaultLimit = 20
	MaxLimit     = 1000
)

const runCols = `r.id, r.status, r.started_at, r.ended_at, r.workspace, r.env, r.refresh, r.reset_mode,
	r.pipelines, r.selectors, r.parallelism, r.engine, r.remote, r.tasks, r.tasks_failed, r.rows_read, r.rows_written,
	r.rows_deleted, r.retries, r.warnings, r.errors, r.error, r.owner_host, r.owner_pid`

// scanner is a row of *sql.Rows or *sql.Row.
type scanner interface{ Scan(...any) error }

func scanRun(sc scanner) (Run, error) {
	var r Run
	err := sc.Scan(&r.ID, &r.Status, timeCol{&r.StartedAt}, timeCol{&r.EndedAt}, &r.Workspace, &r.Env,
		&r.Refresh, &r.ResetMode, listCol{&r.Pipelines}, listCol{&r.Selectors}, &r.Parallelism, &r.Engine, &r.Remote, &r.Tasks,
		&r.TasksFailed, &r.RowsRead, &r.RowsWritten, &r.RowsDeleted, &r.Retries, &r.Warnings, &r.Errors,
		&r.Error, &r.Host, &r.PID)
	return r, err
}

// runSelect builds queries over runs matching a filter. With a pipeline,
// runs are reached through run_pipelines' (pipeline, run_id) key, so a page
// walks that index from the cursor and stops after the page.
type runSelect struct {
	from  string
	where []string
	args  []any
	id    string // the column to order and page by
}

func selectRuns(f Filter) runSelect {
	q := runSelect{from: "runs r", id: "r.id"}
	if f.Pipeline != "" {
		q.from = "run_pipelines p JOIN runs r ON r.id = p.run_id"
		q.id = "p.run_id"
		q.where = append(q.where, "p.pipeline = ?")
		q.args = append(q.args, f.Pipeline)
	}
	if f.Status != "" {
		q.where = append(q.where, "r.status = ?")
		q.args = append(q.args, f.Status)
	}
	return q
}

// sql returns the query "SELECT cols FROM ... WHERE filter [AND id op ?]"
// followed by tail, and its arguments.
func (q runSelect) sql(cols, op string, id int64, tail string) (string, []any) {
	where, args := slices.Clone(q.where), slices.Clone(q.args)
	if op != "" {
		where = append(where, q.id+" "+op+" ?")
		args = append(args, id)
	}
	s := "SELECT " + cols + " FROM " + q.from
	if len(where) > 0 {
		s += " WHERE " + strings.Join(where, " AND ")
	}
	return s + tail, args
}

func (s *Store) exists(ctx context.Context, q runSelect, op string, id int64) (bool, error) {
	query, args := q.sql("1", op, id, " LIMIT 1")
	var one int
	row, err := s.queryRow(ctx, s.r, nil, query, args...)
	if err == nil {
		err = row.Scan(&one)
	}
	if errors.Is(err, sql.ErrNoRows) {
		return false, nil
	}
	return err == nil, err
}

// ListRuns returns one page of runs matching f, newest first. Pages are
// keyset-paged on the run id (no OFFSET), so a deep page costs what the
// first does.
func (s *Store) ListRuns(ctx context.Context, p Page, f Filter) (RunPage, error) {
	if p.Before > 0 && p.After > 0 {
		return RunPage{}, fmt.Errorf("list runs: %w: a page has Before or After, not both", ErrInvalid)
	}
	limit := p.Limit
	if limit <= 0 {
		limit = DefaultLimit
	}
	limit = min(limit, MaxLimit)
	q := selectRuns(f)
	op, cursor, order := "", int64(0), " DESC"
	switch {
	case p.Before > 0:
		op, cursor = "<", p.Before
	case p.After > 0:
		op, cursor, order = ">", p.After, " ASC"
	}
	query, args := q.sql(runCols, op, cursor, " ORDER BY "+q.id+order+" LIMIT ?")
	rows, err := s.query(ctx, nil, query, append(args, limit)...)
	if err != nil {
		return RunPage{}, fmt.Errorf("list runs: %w", err)
	}
	var page RunPage
	page.Runs, err = collect(rows, scanRun)
	if err != nil {
		return RunPage{}, fmt.Errorf("list runs: %w", err)
	}
	if order == " ASC" {
		slices.Reverse(page.Runs)
	}
	// Whether runs lie beyond each end of the page.
	newest, oldest := p.Before-1, p.After+1 // the cursor, for an empty page
	if n := len(page.Runs); n > 0 {
		newest, oldest = page.Runs[0].ID, page.Runs[n-1].ID
	}
	if p.Before > 0 || len(page.Runs) > 0 {
		if page.HasNewer, err = s.exists(ctx, q, ">", newest); err != nil {
			return RunPage{}, fmt.Errorf("list runs: %w", err)
		}
	}
	if p.After > 0 || len(page.Runs) > 0 {
		if page.HasOlder, err = s.exists(ctx, q, "<", oldest); err != nil {
			return RunPage{}, fmt.Errorf("list runs: %w", err)
		}
	}
	return page, nil
}

// CountRuns counts the runs matching f.
func (s *Store) CountRuns(ctx context.Context, f Filter) (int64, error) {
	query, args := selectRuns(f).sql("count(*)", "", 0, "")
	var n int64
	row, err := s.queryRow(ctx, s.r, nil, query, args...)
	if err == nil {
		err = row.Scan(&n)
	}
	if err != nil {
		return 0, fmt.Errorf("count runs: %w", err)
	}
	return n, nil
}

// LastRun returns the newest run matching f, or ErrNotFound.
func (s *Store) LastRun(ctx context.Context, f Filter) (Run, error) {
	page, err := s.ListRuns(ctx, Page{Limit: 1}, f)
	if err != nil {
		return Run{}, err
	}
	if len(page.Runs) == 0 {
		return Run{}, fmt.Errorf("last run: %w", ErrNotFound)
	}
	return page.Runs[0], nil
}

// GetRun returns one run, or ErrNotFound.
func (s *Store) GetRun(ctx context.Context, id int64) (Run, error) {
	return s.getRun(ctx, nil, id)
}

func (s *Store) getRun(ctx context.Context, tx *sql.Tx, id int64) (Run, error) {
	rows, err := s.query(ctx, tx, qGetRun, id)
	if err != nil {
		return Run{}, err
	}
	runs, err := collect(rows, scanRun)
	if err != nil {
		return Run{}, err
	}
	if len(runs) == 0 {
		return Run{}, fmt.Errorf("run %d: %w", id, ErrNotFound)
	}
	return runs[0], nil
}

const taskCols = `t.run_id, t.task_key, t.pipeline, t.node, t.status, t.started_at, t.ended_at, t.rows_read,
	t.rows_written, t.rows_deleted, t.retries, t.error`

func scanTask(sc scanner) (Task, error) {
	var t Task
	err := sc.Scan(&t.RunID, &t.Key, &t.Pipeline, &t.Node, &t.Status, timeCol{&t.StartedAt}, timeCol{&t.EndedAt},
		&t.RowsRead, &t.RowsWritten, &t.RowsDeleted, &t.Retries, &t.Error)
	return t, err
}

const opCols = `id, run_id, coalesce(task_key, ''), table_name, table_path, version, operation, detail,
	rows_added, rows_deleted, rows_updated, files_added, files_removed, duration_ms, at`

func scanOperation(sc scanner) (Operation, error) {
	var o Operation
	err := sc.Scan(&o.ID, &o.RunID, &o.Task, &o.Table, &o.Path, &o.Version, &o.Operation, &o.Detail,
		&o.RowsAdded, &o.RowsDeleted, &o.RowsUpdated, &o.FilesAdded, &o.FilesRemoved, msCol{&o.Duration}, timeCol{&o.At})
	return o, err
}

// Statements run inside the read transaction of RunDetail (see prepareAll).
const (
	qGetRun          = `SELECT ` + runCols + ` FROM runs r WHERE r.id = ?`
	qTasksOfRun      = `SELECT ` + taskCols + ` FROM tasks t WHERE t.run_id = ? ORDER BY t.started_at IS NULL, t.started_at, t.rowid`
	qOperationsOfRun = `SELECT ` + opCols + ` FROM operations WHERE run_id = ? ORDER BY id`
	qRetriesOfRun    = `SELECT id, run_id, coalesce(task_key, ''), table_name, attempt, delay_ms, error, at
		FROM retries WHERE run_id = ? ORDER BY id`
	qDeletionsOfRun = `SELECT id, run_id, coalesce(task_key, ''), table_name, writer, predicate, rows_deleted,
		version, at FROM deletions WHERE run_id = ? ORDER BY id`
	qMessagesOfRun = `SELECT id, run_id, coalesce(task_key, ''), severity, code, text, at
		FROM messages WHERE run_id = ? ORDER BY id`
	qEventsOfRun = `SELECT run_id, seq, at, kind, coalesce(task_key, ''), payload FROM events
		WHERE run_id = ? AND seq > ? ORDER BY seq LIMIT ?`
)

// RunDetail returns a run with its tasks, operations, retries, deletions,
// messages and events, read from one snapshot of the database.
func (s *Store) RunDetail(ctx context.Context, id int64) (RunDetail, error) {
	tx, err := s.r.BeginTx(ctx, nil)
	if err != nil {
		return RunDetail{}, fmt.Errorf("run detail: %w", err)
	}
	defer tx.Rollback()
	d := RunDetail{}
	if d.Run, err = s.getRun(ctx, tx, id); err != nil {
		return RunDetail{}, fmt.Errorf("run detail: %w", err)
	}
	lists := []func() error{
		func() (err error) {
			d.Tasks, err = queryList(ctx, s, tx, scanTask, qTasksOfRun, id)
			return err
		},
		func() (err error) {
			d.Operations, err = queryList(ctx, s, tx, scanOperation, qOperationsOfRun, id)
			return err
		},
		func() (err error) {
			d.Retries, err = queryList(ctx, s, tx, func(sc scanner) (Retry, error) {
				var r Retry
				err := sc.Scan(&r.ID, &r.RunID, &r.Task, &r.Table, &r.Attempt, msCol{&r.Delay}, &r.Error, timeCol{&r.At})
				return r, err
			}, qRetriesOfRun, id)
			return err
		},
		func() (err error) {
			d.Deletions, err = queryList(ctx, s, tx, func(sc scanner) (Deletion, error) {
				var x Deletion
				err := sc.Scan(&x.ID, &x.RunID, &x.Task, &x.Table, &x.Writer, &x.Predicate, &x.Rows, &x.Version, timeCol{&x.At})
				return x, err
			}, qDeletionsOfRun, id)
			return err
		},
		func() (err error) {
			d.Messages, err = queryList(ctx, s, tx, func(sc scanner) (Message, error) {
				var m Message
				err := sc.Scan(&m.ID, &m.RunID, &m.Task, &m.Severity, &m.Code, &m.Text, timeCol{&m.At})
				return m, err
			}, qMessagesOfRun, id)
			return err
		},
		func() (err error) {
			d.Events, err = s.events(ctx, tx, id, 0, -1)
			return err
		},
	}
	for _, f := range lists {
		if err := f(); err != nil {
			return RunDetail{}, fmt.Errorf("run detail %d: %w", id, err)
		}
	}
	return d, nil
}

// Events returns up to limit events of a run after sequence number afterSeq
// (0: from the start), in order: a reader tails a running run's log by
// passing the last Seq it saw.
func (s *Store) Events(ctx context.Context, runID, afterSeq int64, limit int) ([]Event, error) {
	if limit <= 0 {
		limit = DefaultLimit
	}
	ev, err := s.events(ctx, nil, runID, afterSeq, limit)
	if err != nil {
		return nil, fmt.Errorf("events of run %d: %w", runID, err)
	}
	return ev, nil
}

func (s *Store) events(ctx context.Context, tx *sql.Tx, runID, afterSeq int64, limit int) ([]Event, error) {
	return queryList(ctx, s, tx, func(sc scanner) (Event, error) {
		var e Event
		var payload string
		err := sc.Scan(&e.RunID, &e.Seq, timeCol{&e.At}, &e.Kind, &e.Task, &payload)
		e.Payload = []byte(payload)
		return e, err
	}, qEventsOfRun, runID, afterSeq, limit)
}

// LastTasks returns the latest task of each node of a pipeline ("" for all
// pipelines), by task key: the last known status of every node.
func (s *Store) LastTasks(ctx context.Context, pipeline string) ([]Task, error) {
	ts, err := queryList(ctx, s, nil, scanTask, `SELECT `+taskCols+` FROM last_tasks l
		JOIN tasks t ON t.run_id = l.run_id AND t.task_key = l.task_key
		WHERE ?1 = '' OR l.pipeline = ?1 ORDER BY l.task_key`, pipeline)
	if err != nil {
		return nil, fmt.Errorf("last tasks: %w", err)
	}
	return ts, nil
}

// TableOperations returns the latest operations on a table, newest first.
func (s *Store) TableOperations(ctx context.Context, table string, limit int) ([]Operation, error) {
	if limit <= 0 {
		limit = DefaultLimit
	}
	ops, err := queryList(ctx, s, nil, scanOperation, `SELECT `+opCols+` FROM operations
		WHERE table_name = ? ORDER BY id DESC LIMIT ?`, table, limit)
	if err != nil {
		return nil, fmt.Errorf("operations of %s: %w", table, err)
	}
	return ops, nil
}

// ListFlows returns the remembered flows of a table ("" for all tables),
// ordered by table, pipeline and name.
func (s *Store) ListFlows(ctx context.Context, table string) ([]Flow, error) {
	fl, err := queryList(ctx, s, nil, func(sc scanner) (Flow, error) {
		var f Flow
		var first, last sql.NullInt64
		err := sc.Scan(&f.Table, &f.Pipeline, &f.Name, &first, &last, timeCol{&f.FirstSeen}, timeCol{&f.LastSeen})
		f.FirstRun, f.LastRun = first.Int64, last.Int64
		return f, err
	}, `SELECT table_name, pipeline, flow, first_run_id, last_run_id, first_seen_at, last_seen_at FROM flows
		WHERE ?1 = '' OR table_name = ?1 ORDER BY table_name, pipeline, flow`, table)
	if err != nil {
		return nil, fmt.Errorf("list flows: %w", err)
	}
	return fl, nil
}

// queryList runs a read query and scans every row with scan.
func queryList[T any](ctx context.Context, s *Store, tx *sql.Tx, scan func(scanner) (T, error), q string, args ...any) ([]T, error) {
	rows, err := s.query(ctx, tx, q, args...)
	if err != nil {
		return nil, err
	}
	return collect(rows, scan)
}

// collect scans every row and closes rows; the result is never nil.
func collect[T any](rows *sql.Rows, scan func(scanner) (T, error)) ([]T, error) {
	defer rows.Close()
	out := []T{}
	for rows.Next() {
		v, err := scan(rows)
		if err != nil {
			return nil, err
		}
		out = append(out, v)
	}
	return out, rows.Err()
}

// ListCheckpoints returns the remembered checkpoints, by path.
func (s *Store) ListCheckpoints(ctx context.Context) ([]Checkpoint, error) {
	cs, err := queryList(ctx, s, nil, func(sc scanner) (Checkpoint, error) {
		var c Checkpoint
		var run sql.NullInt64
		err := sc.Scan(&c.Path, &c.Flow, &c.QueryID, &run, timeCol{&c.At})
		c.RunID = run.Int64
		return c, err
	}, `SELECT path, flow, query_id, run_id, written_at FROM checkpoints ORDER BY path`)
	if err != nil {
		return nil, fmt.Errorf("list checkpoints: %w", err)
	}
	return cs, nil
}

// GetCheckpoint returns the remembered checkpoint at path (ok false when
// none).
func (s *Store) GetCheckpoint(ctx context.Context, path string) (c Checkpoint, ok bool, err error) {
	cs, err := s.ListCheckpoints(ctx)
	if err != nil {
		return Checkpoint{}, false, err
	}
	for _, c := range cs {
		if c.Path == path {
			return c, true, nil
		}
	}
	return Checkpoint{}, false, nil
}
