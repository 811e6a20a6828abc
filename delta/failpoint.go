package delta

import (
	"os"
	"strconv"
	"strings"
	"sync/atomic"
)

// Fail points stop the process at a named step, to prove that a crash
// there loses nothing (the crash tests of package runner). The
// environment variable LAKTORY_FAILPOINT names one: "name" exits the
// process at its first hit, "name:N" at its N-th. The process exits at
// once with FailPointExit, without running deferred calls or cleanups,
// as a crash would. Without the variable a fail point is one comparison.
const FailPointEnv = "LAKTORY_FAILPOINT"

// FailPointExit is the exit code of a process stopped at a fail point.
const FailPointExit = 86

// Fail points of this package.
const (
	// FailCommitBefore: the data files of a commit are written (and a
	// new table's folders made), its commit file is not.
	FailCommitBefore = "delta.commit.before"
	// FailCommitAfter: the commit file is in the log; nothing after it
	// (checkpoint, the caller's bookkeeping) is done.
	FailCommitAfter = "delta.commit.after"
	// FailCommitConflict: the commit lost its race and a winner conflicts
	// with it; its data files are still on disk (named by no commit), the
	// conflict not yet returned.
	FailCommitConflict = "delta.commit.conflict"
	// FailCommitRebased: the commit lost its race, no winner conflicts;
	// it is rebased over them and not yet written at the next version.
	FailCommitRebased = "delta.commit.rebased"
	// FailDropRenamed: a dropped table's folder is renamed aside
	// (".<name>.dropped-*"), not yet removed.
	FailDropRenamed = "delta.drop.renamed"
	// FailViewWritten: a view's new file is written beside the old one
	// (or none), not renamed into place.
	FailViewWritten = "delta.view.written"
	// FailLeaseAcquired: a table's lease is taken (and its renewal
	// started); nothing after it.
	FailLeaseAcquired = "delta.lease.acquired"
)

var failPoint = parseFailPoint(os.Getenv(FailPointEnv))

type failPointSpec struct {
	name string
	at   int64
	hits atomic.Int64
}

func parseFailPoint(s string) *failPointSpec {
	name, at := ParseFailPointSpec(s)
	if name == "" {
		return nil
	}
	return &failPointSpec{name: name, at: at}
}

// ParseFailPointSpec splits a LAKTORY_FAILPOINT value into the fail
// point's name and the hit it stops at: "name" is the first hit,
// "name:N" (N > 0) the N-th. A suffix that is not a positive number is
// part of the name. An empty value gives "".
func ParseFailPointSpec(s string) (name string, hit int64) {
	s = strings.TrimSpace(s)
	if s == "" {
		return "", 0
	}
	if i := strings.LastIndexByte(s, ':'); i > 0 {
		if n, err := strconv.ParseInt(s[i+1:], 10, 64); err == nil && n > 0 {
			return s[:i], n
		}
	}
	return s, 1
}

// FailPoint exits the process when LAKTORY_FAILPOINT names this point
// (and this is the hit it counts to); it does nothing otherwise.
func FailPoint(name string) {
	if fp := failPoint; fp != nil && fp.name == name && fp.hits.Add(1) == fp.at {
		os.Exit(FailPointExit)
	}
}
