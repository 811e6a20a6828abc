package history

import (
	"context"
	"database/sql"
	"errors"
	"strings"
	"testing"
	"time"
)

func withLockWait(busy, wait time.Duration) Option {
	return func(c *config) { c.busy, c.lockWait = busy, wait }
}

// lockDB holds an exclusive lock on the database at path, from another
// connection, until the returned function is called.
func lockDB(t *testing.T, path string) (release func()) {
	t.Helper()
	db, err := sql.Open("sqlite", dsn(path))
	mustNil(t, err, "open the locker")
	conn, err := db.Conn(context.Background())
	mustNil(t, err, "the locker's connection")
	_, err = conn.ExecContext(context.Background(), "BEGIN EXCLUSIVE")
	mustNil(t, err, "BEGIN EXCLUSIVE")
	done := false
	release = func() {
		if done {
			return
		}
		done = true
		_, err := conn.ExecContext(context.Background(), "COMMIT")
		mustNil(t, err, "release the lock")
		conn.Close()
		db.Close()
	}
	t.Cleanup(release)
	return release
}

// TestLockedMidRun: another process holding the database locked for
// longer than SQLite's busy timeout, in the middle of a run, delays the
// run's records and loses none: the commit (and its 2,000 rows), the
// event, the task's and the run's ends written while it was locked are all
// in the history once the lock goes, each once. A lock held longer than
// LockWait fails the write with ErrLocked, naming the database.
func TestLockedMidRun(t *testing.T) {
	ctx := context.Background()
	s := openTest(t, withLockWait(50*time.Millisecond, 20*time.Second))
	id, err := s.StartRun(ctx, RunStart{Pipelines: []string{"p"}})
	mustNil(t, err, "start run")
	mustNil(t, s.StartTask(ctx, id, TaskStart{Pipeline: "p", Node: "n"}), "start task")

	release := lockDB(t, s.Path())
	done := make(chan error, 1)
	go func() {
		v := int64(3)
		err := s.RecordOperation(ctx, id, Operation{Task: "p.n", Table: "t", Version: &v, Operation: "WRITE", RowsAdded: 2000})
		if err == nil {
			_, err = s.AppendEvent(ctx, id, Event{Kind: "task_succeeded", Task: "p.n"})
		}
		if err == nil {
			err = s.FinishTask(ctx, id, "p.n", TaskEnd{Status: StatusSucceeded, RowsRead: 2000})
		}
		if err == nil {
			err = s.FinishRun(ctx, id, RunEnd{Status: StatusSucceeded})
		}
		done <- err
	}()
	select {
	case err := <-done:
		t.Fatalf("the records did not wait for the lock: %v", err)
	case <-time.After(500 * time.Millisecond): // ten busy timeouts
	}
	release()
	select {
	case err := <-done:
		mustNil(t, err, "the records once the lock went")
	case <-time.After(15 * time.Second):
		t.Fatal("the records still wait after the lock went")
	}
	d, err := s.RunDetail(ctx, id)
	mustNil(t, err, "run detail")
	if len(d.Operations) != 1 || d.Operations[0].RowsAdded != 2000 || d.Run.RowsWritten != 2000 || d.Run.Status != StatusSucceeded ||
		len(d.Events) != 1 || len(d.Tasks) != 1 || d.Tasks[0].Status != StatusSucceeded {
		t.Fatalf("after the lock: %d operations, %d rows written, status %s, %d events, tasks %+v",
			len(d.Operations), d.Run.RowsWritten, d.Run.Status, len(d.Events), d.Tasks)
	}

	// Locked for longer than the store waits.
	s2 := openTest(t, withLockWait(50*time.Millisecond, 300*time.Millisecond))
	id2, err := s2.StartRun(ctx, RunStart{})
	mustNil(t, err, "start run")
	lockDB(t, s2.Path())
	err = s2.RecordOperation(ctx, id2, Operation{Table: "t", Operation: "WRITE", RowsAdded: 1})
	if !errors.Is(err, ErrLocked) || !strings.Contains(err.Error(), s2.Path()) {
		t.Fatalf("a lock held past the wait: %v", err)
	}
}

// TestOpenWhileLocked: a database another process holds locked past
// SQLite's busy timeout while this one opens it (two laktory processes
// creating one new history at once: TestConcurrentWriters failed so, with
// SQLITE_BUSY from Open, once in CI) is opened once the lock goes, as a
// write waits (waitLocked), instead of failing the open.
func TestOpenWhileLocked(t *testing.T) {
	ctx := context.Background()
	path := dbPath(t)
	s, err := Open(ctx, path, testOwner())
	mustNil(t, err, "create the database")
	s.Close()
	release := lockDB(t, path)
	released := make(chan struct{})
	go func() {
		defer close(released)
		time.Sleep(300 * time.Millisecond)
		release()
	}()
	s, err = Open(ctx, path, testOwner(), withLockWait(20*time.Millisecond, 10*time.Second))
	<-released
	mustNil(t, err, "open while another connection holds the database")
	s.Close()
}
