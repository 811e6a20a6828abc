//go:build unix

package delta

import (
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"strings"
	"testing"
)

// Kill points of a lost race: a FULL refresh of writer a (a delete of a's
// rows and an append of its new ones, one transaction) reads the table,
// another writer commits first, and the refresh's process is killed where
// its commit found that winner conflicting (FailCommitConflict) or where it
// is rebased over it (FailCommitRebased), under each isolation level. The
// winner stands, nothing of the killed refresh is visible (its data files
// are named by no commit), and the refresh retried on the new snapshot
// commits at the table's level with each writer's rows exactly once.

const (
	envConflictKillRoot   = "LAKTORY_CONFLICT_KILL_ROOT"
	envConflictKillWinner = "LAKTORY_CONFLICT_KILL_WINNER"
)

// conflictKillWinners are the winners the refresh races: rows per writer
// after each (from a=10, b=10), and whether the refresh conflicts with it
// under each level.
var conflictKillWinners = map[string]struct {
	op       txOp
	rows     map[string]int
	conflict map[string]bool
}{
	// b's file holds no row of a (its statistics): no level conflicts.
	"blind append of b": {appendOp("b", 200), map[string]int{"a": 10, "b": 15}, map[string]bool{}},
	// a's rows the refresh should have read: only Serializable counts a
	// blind append (ConflictChecker.scala:1145-1151).
	"blind append of a": {appendOp("a", 200), map[string]int{"a": 15, "b": 10},
		map[string]bool{isolationSerializable: true}},
	// The winner removes a's file, which the refresh read: every level.
	"rewrite of a's file": {deleteOp("id = 3"), map[string]int{"a": 9, "b": 10},
		map[string]bool{isolationSerializable: true, isolationWriteSerializable: true, isolationSnapshot: true}},
}

func refreshOfA() txOp { return refreshOp("a", 100) }

func TestConflictKillPoints(t *testing.T) {
	ctx := context.Background()
	if root := os.Getenv(envConflictKillRoot); root != "" {
		// The child: the refresh loses the race to the winner and is
		// killed at the fail point its commit reaches.
		e := &conflictEnv{t: t, db: writeTestDB(t), root: root}
		loser, err := mustSnapshot(t, root).Begin(WriteOptions{})
		if err != nil {
			t.Fatal(err)
		}
		if err := refreshOfA()(e, loser); err != nil {
			t.Fatal(err)
		}
		winner, err := mustSnapshot(t, root).Begin(WriteOptions{})
		if err != nil {
			t.Fatal(err)
		}
		if err := conflictKillWinners[os.Getenv(envConflictKillWinner)].op(e, winner); err != nil {
			t.Fatal(err)
		}
		if _, err := winner.Commit(ctx); err != nil {
			t.Fatal(err)
		}
		res, err := loser.Commit(ctx)
		t.Fatalf("the refresh was not killed: %+v, %v", res, err)
	}
	for _, level := range []string{isolationSerializable, isolationWriteSerializable, isolationSnapshot} {
		for name, w := range conflictKillWinners {
			point := FailCommitRebased
			if w.conflict[level] {
				point = FailCommitConflict
			}
			t.Run(level+"/"+name, func(t *testing.T) {
				e := newConflictEnv(t, false, map[string]string{PropIsolationLevel: level})
				before := mustSnapshot(t, e.root).Version()
				cmd := exec.Command(os.Args[0], "-test.run=^TestConflictKillPoints$", "-test.count=1")
				cmd.Env = append(os.Environ(), envConflictKillRoot+"="+e.root, envConflictKillWinner+"="+name, FailPointEnv+"="+point)
				out, err := cmd.CombinedOutput()
				var ee *exec.ExitError
				if !errors.As(err, &ee) || ee.ExitCode() != FailPointExit {
					t.Fatalf("the refresh was not killed at %s: %v\n%s", point, err, out)
				}
				// The winner stands alone; the killed refresh left data
				// files that no commit names.
				s := mustSnapshot(t, e.root)
				if s.Version() != before+1 {
					t.Fatalf("version %d after the kill, want the winner's %d", s.Version(), before+1)
				}
				if got, want := writerRows(t, e, s), countsString(w.rows); got != want {
					t.Fatalf("rows after the kill: %s, want %s", got, want)
				}
				if n := len(orphans(t, e.root)); n == 0 {
					t.Fatal("the killed refresh left no data file: it was killed before writing")
				}
				// The retry, planned on the new snapshot, commits at the
				// table's level and replaces every row of a.
				tx, err := s.Begin(WriteOptions{})
				if err != nil {
					t.Fatal(err)
				}
				if err := refreshOfA()(e, tx); err != nil {
					t.Fatal(err)
				}
				res, err := tx.Commit(ctx)
				if err != nil || res.Rebases != 0 {
					t.Fatalf("retry: %+v, %v", res, err)
				}
				if got := commitInfoOf(t, e.root, res.Version).IsolationLevel; got != level {
					t.Fatalf("the retry recorded %q", got)
				}
				want := map[string]int{"a": 5, "b": w.rows["b"]}
				if got := writerRows(t, e, mustSnapshot(t, e.root)); got != countsString(want) {
					t.Fatalf("rows after the retry: %s, want %s", got, countsString(want))
				}
			})
		}
	}
}

// writerRows counts the snapshot's rows per writer ("a=10 b=10"), checking
// that no id is read twice.
func writerRows(t *testing.T, e *conflictEnv, s *Snapshot) string {
	t.Helper()
	counts := map[string]int{}
	seen := map[string]bool{}
	for _, r := range snapshotRows(t, e.db, s, "writer", "id") {
		if seen[r] {
			t.Fatalf("row %s twice", r)
		}
		seen[r] = true
		counts[strings.SplitN(r, "|", 2)[0]]++
	}
	return countsString(counts)
}

func countsString(m map[string]int) string {
	return fmt.Sprintf("a=%d b=%d", m["a"], m["b"])
}

// orphans are the data files on disk that no commit names.
func orphans(t *testing.T, root string) []string {
	t.Helper()
	known := map[string]bool{}
	s := mustSnapshot(t, root)
	for v := int64(0); v <= s.Version(); v++ {
		for _, a := range readCommitActions(t, root, v) {
			if a.Add != nil {
				p, _ := a.Add.DecodedPath()
				known[p] = true
			}
		}
	}
	var out []string
	for _, f := range dataFiles(t, root) {
		if !known[f] {
			out = append(out, f)
		}
	}
	return out
}
