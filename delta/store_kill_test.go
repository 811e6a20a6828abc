package delta

import (
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/laktory/workbench/delta/s3test"
)

// TestS3KillPoints kills a writer of a table in a bucket while it uploads
// its data files (after the first of two), just before its commit, and
// just after it: the table stays readable at the version before (or with
// the whole commit after), and a rerun of the same write, as the runner
// does it (skipped once the commit stands), neither loses nor duplicates
// rows.
func TestS3KillPoints(t *testing.T) {
	if root := os.Getenv("LAKTORY_S3_KILL_CHILD"); root != "" {
		db := writeTestDB(t)
		tx, err := mustSnapshot(t, root).Begin(WriteOptions{})
		if err != nil {
			t.Fatal(err)
		}
		// Two partitions: two data files to upload.
		if _, err := tx.Append(context.Background(), db, "SELECT i::BIGINT AS id, CASE WHEN i < 105 THEN 'a' ELSE 'b' END AS p FROM range(100, 110) r(i)"); err != nil {
			t.Fatal(err)
		}
		if _, err := tx.Commit(context.Background()); err != nil {
			t.Fatal(err)
		}
		return
	}
	srv := s3test.Shared(t)
	for _, tc := range []struct {
		point     string
		committed bool
	}{
		{FailUpload + ":2", false},
		{FailCommitBefore, false},
		{FailCommitAfter, true},
	} {
		t.Run(tc.point, func(t *testing.T) {
			srv.Setenv(t)
			db := writeTestDB(t)
			SetObjectCache(&ObjectCache{Dir: t.TempDir()})
			t.Cleanup(func() { SetObjectCache(nil) })
			root := "s3://" + srv.Bucket(t) + "/t"
			mustCreate(t, db, root, "SELECT 1::BIGINT AS id, 'a' AS p", []string{"p"}, nil)
			mustAppend(t, db, root, "SELECT i::BIGINT AS id, 'a' AS p FROM range(0, 5) r(i)")
			tmp := t.TempDir() // the writers' TMPDIR, where they stage
			cmd := exec.Command(os.Args[0], "-test.run=^TestS3KillPoints$", "-test.count=1")
			cmd.Env = append(os.Environ(), "LAKTORY_S3_KILL_CHILD="+root, FailPointEnv+"="+tc.point, "TMPDIR="+tmp)
			out, err := cmd.CombinedOutput()
			var ee *exec.ExitError
			if !errors.As(err, &ee) || ee.ExitCode() != FailPointExit {
				t.Fatalf("the writer was not killed at %s: %v\n%s", tc.point, err, out)
			}
			s := mustSnapshot(t, root)
			rows := snapshotRows(t, db, s, "id")
			want := map[bool]int{false: 5, true: 15}[tc.committed]
			if len(rows) != want || s.Version() != int64(map[bool]int{false: 1, true: 2}[tc.committed]) {
				t.Fatalf("after the kill: version %d with %d rows, want %d rows", s.Version(), len(rows), want)
			}
			// The rerun: commit again unless the kill came after the commit.
			if !tc.committed {
				cmd := exec.Command(os.Args[0], "-test.run=^TestS3KillPoints$", "-test.count=1")
				cmd.Env = append(os.Environ(), "LAKTORY_S3_KILL_CHILD="+root, "TMPDIR="+tmp)
				if out, err := cmd.CombinedOutput(); err != nil {
					t.Fatalf("rerun: %v\n%s", err, out)
				}
			}
			// The killed writer's staging folder is gone: removed by the
			// rerun's first write, or by the next writer's sweep.
			if tc.committed {
				sweepStages(filepath.Join(tmp, "laktory-stages"))
			}
			if left, _ := filepath.Glob(filepath.Join(tmp, "laktory-stages", stagePrefix+"*")); len(left) != 0 {
				t.Errorf("staging folders left: %v", left)
			}
			s = mustSnapshot(t, root)
			rows = snapshotRows(t, db, s, "id")
			if len(rows) != 15 || strings.Join(rows, ",") != strings.Join(sortedIDs(0, 5, 100, 110), ",") {
				t.Fatalf("after the rerun: %v", rows)
			}
			if v, dr := deltaRSRows(t, root); v != s.Version() || len(dr) != 15 {
				t.Fatalf("delta-rs reads v%d with %d rows", v, len(dr))
			}
		})
	}
}

func sortedIDs(ranges ...int) []string {
	var out []string
	for i := 0; i+1 < len(ranges); i += 2 {
		for v := ranges[i]; v < ranges[i+1]; v++ {
			out = append(out, fmt.Sprint(v))
		}
	}
	// snapshotRows sorts as text
	sort.Strings(out)
	return out
}
