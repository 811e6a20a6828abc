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
	"time"

	"github.com/aws/aws-sdk-go-v2/service/s3"

	"github.com/laktory/workbench/delta/s3test"
)

// TestS3KillPoints kills a writer of a table in a bucket while it uploads
// its data files (after the first of two), just before its commit, once
// its commit marker is written and the lease checked (before the commit
// file), and just after it: the table stays readable at the version
// before (or with the whole commit after), and a rerun of the same write,
// as the runner does it (skipped once the commit stands), neither loses
// nor duplicates rows. The marker a writer killed after its lease check
// leaves is the one thing left: it delays the next lease holder by the
// marker's TTL, which then deletes it.
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
		{FailCommitGated, false},
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
			left := markers(t, root)
			if tc.point == FailCommitGated {
				if len(left) != 1 {
					t.Fatalf("a writer killed after its lease check left %d commit markers, want its 1", len(left))
				}
				old := commitMarkerTTL
				commitMarkerTTL = 300 * time.Millisecond
				start := time.Now()
				l, err := AcquireLease(context.Background(), root, LeaseOwner{Host: "h", Workspace: "w", Run: "the next Spark run"}, LeaseOptions{})
				commitMarkerTTL = old
				if err != nil {
					t.Fatal(err)
				}
				if d := time.Since(start); d < 300*time.Millisecond {
					t.Errorf("the lease was taken after %s, before the killed writer's marker stood its TTL", d)
				}
				if err := l.Release(context.Background()); err != nil {
					t.Fatal(err)
				}
				if m := markers(t, root); len(m) != 0 {
					t.Fatalf("the killed writer's marker is still there after the lease holder waited for it: %v", m)
				}
			} else if len(left) != 0 {
				t.Fatalf("commit markers left by a writer killed at %s: %v", tc.point, left)
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

// TestS3KillDuringMultipart kills a writer while it uploads a data file in
// parts (after the first): the object is not visible, the table
// stays at its version with its rows, what remains is the upload pending
// in the bucket (S3 keeps its parts until it is aborted: a lifecycle rule
// AbortIncompleteMultipartUpload removes them; VACUUM cannot, they are no
// object), and a rerun writes the file and commits once.
func TestS3KillDuringMultipart(t *testing.T) {
	const rows = 20000
	if root := os.Getenv("LAKTORY_S3_KILL_MULTIPART"); root != "" {
		if os.Getenv(FailPointEnv) != "" {
			// Parts of 64 KiB: the upload is killed before it is
			// completed, so S3's 5 MiB minimum never applies. The rerun
			// uploads the file in one request.
			st, err := storeFor(context.Background(), root)
			if err != nil {
				t.Fatal(err)
			}
			st.(*S3Store).multipartThreshold, st.(*S3Store).partSize = 64<<10, 64<<10
		}
		// md5 strings: about 650 KB of zstd-compressed parquet.
		mustAppend(t, writeTestDB(t), root, fmt.Sprintf("SELECT i::BIGINT AS id, md5(i::VARCHAR) || md5((i + 1)::VARCHAR) AS s FROM range(%d) r(i)", rows))
		return
	}
	srv := s3test.Shared(t)
	srv.Setenv(t)
	db := writeTestDB(t)
	SetObjectCache(&ObjectCache{Dir: t.TempDir()})
	t.Cleanup(func() { SetObjectCache(nil) })
	bucket := srv.Bucket(t)
	root := "s3://" + bucket + "/t"
	mustCreate(t, db, root, "SELECT 1::BIGINT AS id, 'x' AS s", nil, nil)
	child := func(point string) ([]byte, error) {
		cmd := exec.Command(os.Args[0], "-test.run=^TestS3KillDuringMultipart$", "-test.count=1")
		cmd.Env = append(os.Environ(), "LAKTORY_S3_KILL_MULTIPART="+root, "TMPDIR="+t.TempDir())
		if point != "" {
			cmd.Env = append(cmd.Env, FailPointEnv+"="+point)
		}
		return cmd.CombinedOutput()
	}
	out, err := child(FailUploadPart)
	var ee *exec.ExitError
	if !errors.As(err, &ee) || ee.ExitCode() != FailPointExit {
		t.Fatalf("the writer was not killed at %s: %v\n%s", FailUploadPart, err, out)
	}
	s := mustSnapshot(t, root)
	if got := snapshotRows(t, db, s, "id"); s.Version() != 0 || len(got) != 0 {
		t.Fatalf("after the kill: version %d with %d rows, want version 0, empty", s.Version(), len(got))
	}
	st, err := storeFor(context.Background(), root)
	if err != nil {
		t.Fatal(err)
	}
	objs, err := st.List(context.Background(), "", ListOptions{Recursive: true})
	if err != nil {
		t.Fatal(err)
	}
	parquet := 0
	for _, o := range objs {
		if strings.HasSuffix(o.Key, ".parquet") {
			parquet++
		}
	}
	if parquet != 0 {
		t.Fatalf("%d data files visible after a kill mid-upload, want none: %v", parquet, objs)
	}
	s3s := st.(*S3Store)
	ups, err := s3s.client.ListMultipartUploads(context.Background(), &s3.ListMultipartUploadsInput{Bucket: &bucket})
	if err != nil {
		t.Fatal(err)
	}
	if len(ups.Uploads) != 1 {
		t.Fatalf("%d multipart uploads pending after the kill, want the killed writer's 1", len(ups.Uploads))
	}
	t.Logf("left by the kill: the pending upload of %s (no object)", *ups.Uploads[0].Key)
	if out, err := child(""); err != nil {
		t.Fatalf("rerun: %v\n%s", err, out)
	}
	s = mustSnapshot(t, root)
	if got := snapshotRows(t, db, s, "id"); s.Version() != 1 || len(got) != rows {
		t.Fatalf("after the rerun: version %d with %d rows, want version 1 with %d", s.Version(), len(got), rows)
	}
	if v, dr := deltaRSRows(t, root); v != 1 || len(dr) != rows {
		t.Fatalf("delta-rs reads v%d with %d rows", v, len(dr))
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
