package delta

import (
	"container/list"
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"os/exec"
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

// TestS3ConcurrentWithDeltaRS: delta-rs (1.x, conditional puts) and this
// package append to one table in a bucket at once: every commit of both
// lands, no row is lost or duplicated.
func TestS3ConcurrentWithDeltaRS(t *testing.T) {
	db := writeTestDB(t)
	SetObjectCache(&ObjectCache{Dir: t.TempDir()})
	t.Cleanup(func() { SetObjectCache(nil) })
	root := s3Root(t)
	mustCreate(t, db, root, "SELECT 0::BIGINT AS id, 'w' AS w", nil, nil)
	const each = 5
	py := interopPython(t)
	done := make(chan error, 1)
	go func() {
		out, err := exec.Command(py, filepath.Join("testdata", "s3_deltars_append.py"), root, "100000", fmt.Sprint(each)).CombinedOutput()
		if err != nil {
			err = fmt.Errorf("delta-rs writer: %v\n%s", err, out)
		}
		done <- err
	}()
	// Ours append for as long as delta-rs writes (at least each times).
	rebases, ours := 0, 0
	for finished := false; !finished || ours < each; ours++ {
		res, err := Append(context.Background(), db, root, fmt.Sprintf("SELECT i::BIGINT AS id, 'go' AS w FROM range(%d, %d) r(i)", ours*10, ours*10+10), WriteOptions{})
		if err != nil {
			t.Fatal(err)
		}
		rebases += res.Rebases
		select {
		case err := <-done:
			if err != nil {
				t.Fatal(err)
			}
			finished = true
		default:
		}
	}
	s := mustSnapshot(t, root)
	rows := snapshotRows(t, db, s, "w", "id")
	if s.Version() != int64(ours+each) || len(rows) != (ours+each)*10 {
		t.Fatalf("version %d with %d rows, want %d commits and %d rows", s.Version(), len(rows), ours+each, (ours+each)*10)
	}
	seen := map[string]bool{}
	for _, r := range rows {
		if seen[r] {
			t.Fatalf("row %s twice", r)
		}
		seen[r] = true
	}
	t.Logf("%d commits of ours, %d of delta-rs; our lost races: %d", ours, each, rebases)
	if v, dr := deltaRSRows(t, root); v != s.Version() || len(dr) != len(rows) {
		t.Fatalf("delta-rs reads v%d with %d rows", v, len(dr))
	}
}

// TestS3DropTable: a table in a bucket is dropped object by object, only
// inside a root of the same store, and a reader during the drop fails
// rather than reading an older version.
func TestS3DropTable(t *testing.T) {
	ctx := context.Background()
	db := writeTestDB(t)
	SetObjectCache(&ObjectCache{Dir: t.TempDir()})
	t.Cleanup(func() { SetObjectCache(nil) })
	root := s3Root(t)
	lake := strings.TrimSuffix(root, "/main/default/t")
	mustCreate(t, db, root, "SELECT 0::BIGINT AS id", nil, nil)
	for i := 0; i < 11; i++ { // a checkpoint at 10
		mustAppend(t, db, root, fmt.Sprintf("SELECT %d::BIGINT AS id", i))
	}
	other := lake + "/main/default/other"
	mustCreate(t, db, other, "SELECT 0::BIGINT AS id", nil, nil)
	for _, g := range []Guard{NewGuard([]string{t.TempDir()}), NewGuard([]string{root}), NewGuard([]string{"s3://elsewhere/lake"})} {
		if err := DropTable(ctx, root, g); !errors.Is(err, ErrOutsideRoots) {
			t.Fatalf("drop with roots %v: %v; want ErrOutsideRoots", g.Roots(), err)
		}
	}
	st, _ := storeFor(ctx, root)
	// The first deletions (checkpoints, commit 0) leave the table unreadable.
	for _, k := range []string{logKey(LastCheckpointFileName), logKey(CheckpointFileName(10)), logKey(CommitFileName(0))} {
		if err := st.Delete(ctx, k); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := LoadSnapshot(ctx, root); err == nil {
		t.Fatal("a table without its checkpoint and commit 0 still loads: a drop cut there would show an older state")
	}
	if err := DropTable(ctx, root, NewGuard([]string{lake})); err != nil {
		t.Fatal(err)
	}
	if objects, _ := st.List(ctx, "", ListOptions{Recursive: true}); len(objects) != 0 {
		t.Fatalf("left after the drop: %v", objects)
	}
	if err := DropTable(ctx, root, NewGuard([]string{lake})); err != nil {
		t.Fatalf("dropping a dropped table: %v", err)
	}
	if s := mustSnapshot(t, other); s.Version() != 0 {
		t.Fatal("the other table changed")
	}
}

// TestS3CommitCache: a second load of a remote table reads no commit it
// has read (commit files never change), and a table dropped and created
// again at the same location is read anew (its commits have new ETags).
func TestS3CommitCache(t *testing.T) {
	ctx := context.Background()
	db := writeTestDB(t)
	SetObjectCache(&ObjectCache{Dir: t.TempDir()})
	t.Cleanup(func() { SetObjectCache(nil) })
	root := s3Root(t)
	mustCreate(t, db, root, "SELECT 0::BIGINT AS id", nil, nil)
	for i := 0; i < 4; i++ {
		mustAppend(t, db, root, fmt.Sprintf("SELECT %d::BIGINT AS id", i))
	}
	st, _ := storeFor(ctx, root)
	mustSnapshot(t, root)
	before := st.(*S3Store).Stats()
	if s := mustSnapshot(t, root); s.Version() != 4 {
		t.Fatal(s.Version())
	}
	if d := st.(*S3Store).Stats().Sub(before); d.Lists != 1 || d.Gets != 1 { // the listing, _last_checkpoint
		t.Fatalf("a second load: %s; want 1 list and 1 get", d)
	}
	lake := strings.TrimSuffix(root, "/main/default/t")
	if err := DropTable(ctx, root, NewGuard([]string{lake})); err != nil {
		t.Fatal(err)
	}
	mustCreate(t, db, root, "SELECT 'x' AS name", nil, nil)
	s := mustSnapshot(t, root)
	if s.Version() != 0 || s.Schema().Fields[0].Name != "name" {
		t.Fatalf("the re-created table reads as version %d with columns %v", s.Version(), s.Schema().FieldNames())
	}
}

// TestS3CheckpointCache: a checkpoint, like a commit file, never changes
// once written, so a load of a remote table past a checkpoint reads
// neither the checkpoint nor the commits it has read or written before:
// the listing and _last_checkpoint only. The listing's bytes (the XML of
// ListObjectsV2) are counted as read, apart in BytesListed.
func TestS3CheckpointCache(t *testing.T) {
	ctx := context.Background()
	db := writeTestDB(t)
	root := s3Root(t)
	mustCreate(t, db, root, "SELECT 0::BIGINT AS id", nil, map[string]string{PropCheckpointInterval: "2"})
	for i := 0; i < 3; i++ {
		mustAppend(t, db, root, fmt.Sprintf("SELECT %d::BIGINT AS id", i))
	}
	st, _ := storeFor(ctx, root)
	last, err := st.Get(ctx, "_delta_log/_last_checkpoint")
	if err != nil {
		t.Fatal(err)
	}
	load := func(what string, lists, gets int64) {
		t.Helper()
		before := st.(*S3Store).Stats()
		s := mustSnapshot(t, root)
		if s.Version() != 3 || s.CheckpointVersion() != 2 || s.NumFiles() != 3 {
			t.Fatalf("%s: version %d, checkpoint %d, %d files; want 3, 2, 3", what, s.Version(), s.CheckpointVersion(), s.NumFiles())
		}
		d := st.(*S3Store).Stats().Sub(before)
		if d.Lists != lists || d.Gets != gets {
			t.Fatalf("%s: %s; want %d list and %d get", what, d, lists, gets)
		}
		if d.BytesListed <= 0 || (gets == 1 && d.BytesRead != int64(len(last))+d.BytesListed) {
			t.Fatalf("%s read %d B, %d B of them listings; want _last_checkpoint's %d B plus the listing's", what, d.BytesRead, d.BytesListed, len(last))
		}
	}
	// What this process wrote (commit 3, checkpoint 2) is not read back.
	load("the first load after the writes", 1, 1)
	// Written by another process: read once (_last_checkpoint,
	// checkpoint 2, commit 3), then from the cache.
	prev := remoteCommits
	remoteCommits = &commitCache{max: commitCacheBytes, order: list.New(), entries: map[string]*list.Element{}, etags: map[string]string{}}
	t.Cleanup(func() { remoteCommits = prev })
	load("a load with an empty cache", 1, 3)
	load("the next load", 1, 1)
}
