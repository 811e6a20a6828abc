package delta

import (
	"context"
	"database/sql"
	"encoding/json"
	"fmt"
	"path/filepath"
	"reflect"
	"strings"
	"sync"
	"testing"

	"github.com/laktory/workbench/delta/s3test"
)

// s3Root gives a test a fresh bucket and returns a table location in it.
func s3Root(t *testing.T) string {
	t.Helper()
	srv := s3test.Shared(t)
	srv.Setenv(t)
	return "s3://" + srv.Bucket(t) + "/lake/main/default/t"
}

// writeScenario runs the same writes on a table at root: create, appends
// to two partitions, a delete, a MERGE (updates, deletes, inserts), an
// overwrite of a partition's rows through delete + append in one commit,
// and enough commits for a checkpoint.
func writeScenario(t *testing.T, db *sql.DB, root string, props map[string]string) {
	t.Helper()
	ctx := context.Background()
	src := func(from, to int, p string) string {
		return fmt.Sprintf("SELECT i::BIGINT AS id, 'v' || i AS v, '%s' AS p FROM range(%d, %d) r(i)", p, from, to)
	}
	mustCreate(t, db, root, src(0, 0, "a"), []string{"p"}, props)
	mustAppend(t, db, root, src(0, 50, "a"))
	mustAppend(t, db, root, src(50, 100, "b"))
	if _, err := Delete(ctx, db, root, "id % 7 = 0", WriteOptions{}); err != nil {
		t.Fatal(err)
	}
	conn := mergeConn(t, db)
	mustMerge(t, conn, root, MergeSpec{
		Source: `SELECT * FROM (VALUES (1::BIGINT, 'u1', 'a', 'U'), (2, 'x', 'a', 'D'), (60, 'u60', 'b', 'U'), (500, 'n500', 'b', 'I')) AS s(id, v, p, op)`,
		Keys:   []MergeKey{{Target: "id", Source: "id"}},
		Matched: []MergeClause{{Action: MergeUpdate, Condition: "source.op = 'U'", Set: []MergeAssignment{{"v", "source.v"}}},
			{Action: MergeDelete, Condition: "source.op = 'D'"}},
		NotMatched: []MergeClause{{Action: MergeInsert, Set: []MergeAssignment{{"id", "source.id"}, {"v", "source.v"}, {"p", "source.p"}}}},
	})
	// A writer's full refresh: its rows deleted and rewritten in one commit.
	tx, err := mustSnapshot(t, root).Begin(WriteOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := tx.Delete(ctx, db, "p = 'b'"); err != nil {
		t.Fatal(err)
	}
	if _, err := tx.Append(ctx, db, "SELECT i::BIGINT AS id, 'r' || i AS v, 'b' AS p FROM range(200, 230) r(i)"); err != nil {
		t.Fatal(err)
	}
	if _, err := tx.Commit(ctx); err != nil {
		t.Fatal(err)
	}
	for i := 0; i < 6; i++ {
		mustAppend(t, db, root, fmt.Sprintf("SELECT %d::BIGINT AS id, 'c' AS v, 'c' AS p", 1000+i))
	}
}

// deltaRSRows reads a table with delta-rs.
func deltaRSRows(t *testing.T, root string) (int64, []string) {
	t.Helper()
	out := runPythonOutput(t, filepath.Join("testdata", "s3_rows.py"), root)
	var r struct {
		Version int64    `json:"version"`
		Rows    []string `json:"rows"`
	}
	if err := json.Unmarshal([]byte(out), &r); err != nil {
		t.Fatalf("delta-rs: %q: %v", out, err)
	}
	return r.Version, r.Rows
}

// TestS3WritesMatchLocal runs the same writes on a local table and on one
// in a bucket: the same versions, rows (read here and by delta-rs from the
// bucket), checkpoint, and no staged file left behind; with deletion
// vectors too.
func TestS3WritesMatchLocal(t *testing.T) {
	for name, props := range map[string]map[string]string{"copy-on-write": nil, "deletion-vectors": {PropEnableDeletionVectors: "true"}} {
		t.Run(name, func(t *testing.T) {
			db := writeTestDB(t)
			SetObjectCache(&ObjectCache{Dir: t.TempDir()})
			t.Cleanup(func() { SetObjectCache(nil) })
			local := filepath.Join(t.TempDir(), "t")
			remote := s3Root(t)
			writeScenario(t, db, local, props)
			st, err := storeFor(context.Background(), remote)
			if err != nil {
				t.Fatal(err)
			}
			before := st.(*S3Store).Stats()
			writeScenario(t, db, remote, props)
			t.Logf("scenario on S3: %s", st.(*S3Store).Stats().Sub(before))
			ls, rs := mustSnapshot(t, local), mustSnapshot(t, remote)
			if ls.Version() != rs.Version() || rs.CheckpointVersion() != 10 {
				t.Fatalf("versions: local %d, remote %d (checkpoint %d)", ls.Version(), rs.Version(), rs.CheckpointVersion())
			}
			cols := []string{"id", "v", "p"}
			want := snapshotRows(t, db, ls, cols...)
			if got := snapshotRows(t, db, rs, cols...); !reflect.DeepEqual(got, want) {
				t.Fatalf("rows from the bucket differ:\n got %v\nwant %v", got, want)
			}
			lv, lrows := deltaRSRows(t, local)
			rv, rrows := deltaRSRows(t, remote)
			if lv != rv || !reflect.DeepEqual(lrows, rrows) || len(rrows) != len(want) {
				t.Fatalf("delta-rs: local v%d %d rows, remote v%d %d rows", lv, len(lrows), rv, len(rrows))
			}
			if hasDV(rs) != (props != nil) {
				t.Errorf("deletion vectors in the bucket's table: %v", hasDV(rs))
			}
			// Every object the log references exists, and nothing else
			// but the log and data files was uploaded.
			objects, err := st.List(context.Background(), "", ListOptions{Recursive: true})
			if err != nil {
				t.Fatal(err)
			}
			for _, o := range objects {
				if strings.Contains(o.Key, ".tmp") || strings.Contains(o.Key, "laktory-stage") {
					t.Errorf("left in the bucket: %s", o.Key)
				}
			}
		})
	}
}

// TestS3ConcurrentWriters: writers appending to one table in a bucket at
// once each commit every time (lost races rebased through put-if-absent),
// and no row is lost or duplicated.
func TestS3ConcurrentWriters(t *testing.T) {
	db := writeTestDB(t)
	SetObjectCache(&ObjectCache{Dir: t.TempDir()})
	t.Cleanup(func() { SetObjectCache(nil) })
	root := s3Root(t)
	mustCreate(t, db, root, "SELECT 0::BIGINT AS id, 'w' AS w", nil, nil)
	const writers, each = 4, 4
	var wg sync.WaitGroup
	var mu sync.Mutex
	rebases := 0
	for w := 0; w < writers; w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := 0; i < each; i++ {
				res, err := Append(context.Background(), db, root, fmt.Sprintf("SELECT i::BIGINT AS id, 'w%d' AS w FROM range(%d, %d) r(i)", w, i*10, i*10+10), WriteOptions{})
				if err != nil {
					t.Error(err)
					return
				}
				mu.Lock()
				rebases += res.Rebases
				mu.Unlock()
			}
		}()
	}
	wg.Wait()
	s := mustSnapshot(t, root)
	if s.Version() != writers*each {
		t.Fatalf("version %d, want %d commits after the create", s.Version(), writers*each)
	}
	rows := snapshotRows(t, db, s, "w", "id")
	if len(rows) != writers*each*10 {
		t.Fatalf("%d rows, want %d", len(rows), writers*each*10)
	}
	seen := map[string]bool{}
	for _, r := range rows {
		if seen[r] {
			t.Fatalf("row %s twice", r)
		}
		seen[r] = true
	}
	t.Logf("%d lost races rebased", rebases)
	if v, dr := deltaRSRows(t, root); v != s.Version() || len(dr) != len(rows) {
		t.Fatalf("delta-rs reads v%d with %d rows", v, len(dr))
	}
}
