package history

import (
	"context"
	"database/sql"
	"fmt"
	"os"
)

// owner identifies the process that runs a run. A run whose owner is on this
// host and no longer exists (or whose pid now belongs to another process, as
// its start token tells) was interrupted. Runs owned by another host are
// left alone: there is no way to tell from here whether they still run.
type owner struct {
	host  string
	pid   int
	start string // process start token ("" when the OS does not tell)
}

func currentOwner() owner {
	host, _ := os.Hostname()
	pid := os.Getpid()
	return owner{host: host, pid: pid, start: processStart(pid)}
}

// ownerAlive reports whether o may still be running, as seen from self.
func ownerAlive(self, o owner) bool {
	if o.host != self.host || o.pid <= 0 {
		return true // cannot tell
	}
	if !processExists(o.pid) {
		return false
	}
	if o.start != "" {
		if now := processStart(o.pid); now != "" && now != o.start {
			return false // the pid was reused by another process
		}
	}
	return true
}

// MarkInterrupted marks the queued and running runs whose owner process is
// gone (same host, no such process, or its pid reused) as interrupted, with
// their open tasks, and returns their ids. A run's ended_at becomes the time
// of the last thing recorded for it, the best guess of when its process
// stopped. Open calls it; a long-lived reader (the TUI) may call it again.
// Runs of other hosts are never touched.
func (s *Store) MarkInterrupted(ctx context.Context) ([]int64, error) {
	type open struct {
		id int64
		o  owner
	}
	rows, err := s.query(ctx, nil, `SELECT id, owner_host, owner_pid, owner_start FROM runs
		WHERE status IN ('queued', 'running')`)
	if err != nil {
		return nil, fmt.Errorf("find interrupted runs: %w", err)
	}
	cands, err := collect(rows, func(sc scanner) (open, error) {
		var r open
		return r, sc.Scan(&r.id, &r.o.host, &r.o.pid, &r.o.start)
	})
	if err != nil {
		return nil, fmt.Errorf("find interrupted runs: %w", err)
	}
	var ids []int64
	for _, c := range cands {
		if s.cfg.alive(c.o) {
			continue
		}
		msg := fmt.Sprintf("interrupted: process %d on %s ended before the run finished", c.o.pid, c.o.host)
		err := s.inTx(ctx, func(tx *sql.Tx) error {
			res, err := s.exec(ctx, tx, qInterruptRun, msg, c.id)
			if err != nil {
				return err
			}
			if n, _ := res.RowsAffected(); n == 0 {
				return nil // finished meanwhile
			}
			ids = append(ids, c.id)
			_, err = s.exec(ctx, tx, qInterruptTasks, c.id)
			return err
		})
		if err != nil {
			return ids, fmt.Errorf("mark run %d interrupted: %w", c.id, err)
		}
	}
	return ids, nil
}

// qInterruptRun ends a run at the last thing recorded for it.
const (
	qInterruptRun = `UPDATE runs SET status = 'interrupted', error = ?1, ended_at = (
		SELECT max(t) FROM (
			SELECT started_at AS t FROM runs WHERE id = ?2
			UNION ALL SELECT max(coalesce(ended_at, started_at)) FROM tasks WHERE run_id = ?2
			UNION ALL SELECT max(at) FROM operations WHERE run_id = ?2
			UNION ALL SELECT max(at) FROM retries WHERE run_id = ?2
			UNION ALL SELECT max(at) FROM deletions WHERE run_id = ?2
			UNION ALL SELECT max(at) FROM messages WHERE run_id = ?2
			UNION ALL SELECT max(at) FROM events WHERE run_id = ?2))
		WHERE id = ?2 AND status IN ('queued', 'running')`
	qInterruptTasks = `UPDATE tasks SET status = 'interrupted',
		ended_at = (SELECT ended_at FROM runs WHERE id = ?1)
		WHERE run_id = ?1 AND status IN ('queued', 'running')`
)
