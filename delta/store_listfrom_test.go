package delta

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"
)

// listRecorder is a store in front of a table's S3 store that records the
// StartAfter of every listing of the log and the names it returned.
type listRecorder struct {
	*S3Store
	mu     sync.Mutex
	starts []string
	names  []string
}

func (r *listRecorder) List(ctx context.Context, dir string, opts ListOptions) ([]ObjectInfo, error) {
	objs, err := r.S3Store.List(ctx, dir, opts)
	if dir == LogDirName {
		r.mu.Lock()
		r.starts = append(r.starts, opts.StartAfter)
		for _, o := range objs {
			r.names = append(r.names, o.Name())
		}
		r.mu.Unlock()
	}
	return objs, err
}

// take returns what was recorded since the last take.
func (r *listRecorder) take() (starts, names []string) {
	r.mu.Lock()
	defer r.mu.Unlock()
	starts, names = r.starts, r.names
	r.starts, r.names = nil, nil
	return starts, names
}

// withListRecorder puts a listRecorder in front of the table's store.
func withListRecorder(t *testing.T, root string) *listRecorder {
	t.Helper()
	st, err := storeFor(context.Background(), root)
	if err != nil {
		t.Fatal(err)
	}
	inner, ok := st.(*S3Store)
	if !ok {
		t.Fatalf("store of %s is %T", root, st)
	}
	r := &listRecorder{S3Store: inner}
	remoteStores.Store(root, Store(r))
	t.Cleanup(func() { remoteStores.Store(root, Store(inner)) })
	return r
}

// checkpointedTable makes a table of versions 0..7 with checkpoints at 3
// and 6 (version 0 creates it empty, each later one appends a file), and forgets what the process knows of its
// checkpoints, as another process would.
func checkpointedTable(t *testing.T, root string) {
	t.Helper()
	db := writeTestDB(t)
	mustCreate(t, db, root, "SELECT 0::BIGINT AS id", nil, map[string]string{PropCheckpointInterval: "3"})
	for i := 1; i <= 7; i++ {
		mustAppend(t, db, root, fmt.Sprintf("SELECT %d::BIGINT AS id", i))
	}
	knownCheckpoints.forget(root, knownCheckpoints.get(root))
}

// TestSnapshotListsFromCheckpoint: the latest snapshot lists the log from
// the newest checkpoint (the _last_checkpoint hint, or the newest the
// process has loaded), not the whole log, on S3 (ListObjectsV2's
// StartAfter) and on the local filesystem (through the same seam). Fails
// without: every listing started at the log's first file.
func TestSnapshotListsFromCheckpoint(t *testing.T) {
	ctx := context.Background()
	t.Run("s3", func(t *testing.T) {
		root := s3Root(t)
		checkpointedTable(t, root)
		rec := withListRecorder(t, root)
		s := mustSnapshot(t, root)
		if s.Version() != 7 || s.CheckpointVersion() != 6 || s.NumFiles() != 7 {
			t.Fatalf("version %d, checkpoint %d, %d files; want 7, 6, 7", s.Version(), s.CheckpointVersion(), s.NumFiles())
		}
		starts, names := rec.take()
		if !slices.Equal(starts, []string{"00000000000000000006"}) {
			t.Fatalf("listings of the log started after %q; want one, after version 6's 20 digits", starts)
		}
		for _, n := range names {
			if v, _, _, ok := parseLogFileName(n); ok && v < 6 {
				t.Errorf("the listing returned %s, before the checkpoint", n)
			}
		}
		if !slices.Contains(names, CheckpointFileName(6)) || !slices.Contains(names, CommitFileName(7)) {
			t.Errorf("the listing returned %v; want the checkpoint of 6 and commit 7", names)
		}
		// Open + LatestVersion (the Table tab's poll) list from the checkpoint
		// the process now knows, without reading the hint.
		tbl, err := Open(ctx, root)
		if err != nil {
			t.Fatal(err)
		}
		if v, err := tbl.LatestVersion(ctx); err != nil || v != 7 {
			t.Fatalf("latest version %d (%v); want 7", v, err)
		}
		if starts, _ := rec.take(); !slices.Equal(starts, []string{"00000000000000000006", "00000000000000000006"}) {
			t.Errorf("Open and LatestVersion listed after %q; want version 6's digits twice", starts)
		}
	})
	t.Run("local", func(t *testing.T) {
		root := filepath.Join(t.TempDir(), "t")
		checkpointedTable(t, root)
		l, hint, err := (&Table{root: root}).listLatest(ctx, true)
		if err != nil {
			t.Fatal(err)
		}
		if hint == nil || hint.Version != 6 || l.from != 6 || !slices.Equal(l.commits, []int64{6, 7}) {
			t.Fatalf("listed from %d: commits %v (hint %+v); want from 6: [6 7]", l.from, l.commits, hint)
		}
		if s := mustSnapshot(t, root); s.Version() != 7 || s.CheckpointVersion() != 6 || s.NumFiles() != 7 {
			t.Fatalf("version %d, checkpoint %d, %d files; want 7, 6, 7", s.Version(), s.CheckpointVersion(), s.NumFiles())
		}
	})
}

// TestSnapshotListedFromCheckpointIsCorrect: whatever the hint and what
// the process remembers say, a snapshot is the table's: a checkpoint newer
// than the one remembered (another writer's) is used, one older (a table
// dropped and created again, a hint naming a checkpoint that is gone, a
// corrupt checkpoint) makes the reader list the whole log, and time travel
// before the checkpoint lists the whole log.
func TestSnapshotListedFromCheckpointIsCorrect(t *testing.T) {
	ctx := context.Background()
	type want struct{ version, checkpoint, files int64 }
	cases := []struct {
		name  string
		setup func(t *testing.T, root string, logDir func(string) string)
		opts  []SnapshotOption
		want  want
	}{
		{name: "checkpoint newer than the one remembered", setup: func(t *testing.T, root string, _ func(string) string) {
			knownCheckpoints.put(root, 3)
		}, want: want{7, 6, 7}},
		{name: "no hint, an older checkpoint remembered, a newer one in the log", setup: func(t *testing.T, root string, logDir func(string) string) {
			removeObject(t, root, logDir(LastCheckpointFileName))
			knownCheckpoints.put(root, 3)
		}, want: want{7, 6, 7}},
		{name: "remembered checkpoint newer than the table (dropped and created again)", setup: func(t *testing.T, root string, _ func(string) string) {
			knownCheckpoints.put(root, 9)
		}, want: want{7, 6, 7}},
		{name: "hint names a checkpoint that is gone", setup: func(t *testing.T, root string, logDir func(string) string) {
			removeObject(t, root, logDir(CheckpointFileName(6)))
		}, want: want{7, 3, 7}},
		{name: "corrupt checkpoint at the hint", setup: func(t *testing.T, root string, logDir func(string) string) {
			putObject(t, root, logDir(CheckpointFileName(6)), []byte("not parquet"))
		}, want: want{7, 3, 7}},
		{name: "time travel before the checkpoint", opts: []SnapshotOption{AtVersion(4)}, want: want{4, 3, 4}},
		{name: "time travel at the checkpoint", opts: []SnapshotOption{AtVersion(6)}, want: want{6, 6, 6}},
		{name: "time travel by timestamp", opts: []SnapshotOption{AtTimestamp(time.Now().Add(time.Hour))}, want: want{7, 6, 7}},
	}
	roots := map[string]func(t *testing.T) string{
		"local": func(t *testing.T) string { return filepath.Join(t.TempDir(), "t") },
		"s3":    s3Root,
	}
	for _, kind := range []string{"local", "s3"} {
		for _, c := range cases {
			t.Run(kind+"/"+c.name, func(t *testing.T) {
				root := roots[kind](t)
				checkpointedTable(t, root)
				if c.setup != nil {
					c.setup(t, root, func(name string) string { return logKey(name) })
				}
				s, err := LoadSnapshot(ctx, root, c.opts...)
				if err != nil {
					t.Fatal(err)
				}
				got := want{s.Version(), s.CheckpointVersion(), int64(s.NumFiles())}
				if got != c.want {
					t.Fatalf("version %d, checkpoint %d, %d files; want %d, %d, %d", got.version, got.checkpoint, got.files, c.want.version, c.want.checkpoint, c.want.files)
				}
			})
		}
	}
	t.Run("s3/dropped and created again with fewer versions", func(t *testing.T) {
		root := s3Root(t)
		checkpointedTable(t, root)
		mustSnapshot(t, root) // remembers checkpoint 6
		lake := strings.TrimSuffix(root, "/main/default/t")
		if err := DropTable(ctx, root, NewGuard([]string{lake})); err != nil {
			t.Fatal(err)
		}
		db := writeTestDB(t)
		mustCreate(t, db, root, "SELECT 'x' AS name", nil, nil)
		mustAppend(t, db, root, "SELECT 'y' AS name")
		s := mustSnapshot(t, root)
		if s.Version() != 1 || s.NumFiles() != 1 || s.Schema().Fields[0].Name != "name" {
			t.Fatalf("the table created again reads as version %d, %d files, columns %v; want 1, 1, [name]", s.Version(), s.NumFiles(), s.Schema().FieldNames())
		}
	})
}

// removeObject deletes a file of a table, local or remote.
func removeObject(t *testing.T, root, key string) {
	t.Helper()
	st, err := storeFor(context.Background(), root)
	if err != nil {
		t.Fatal(err)
	}
	if err := st.Delete(context.Background(), key); err != nil {
		t.Fatal(err)
	}
}

// putObject replaces a file of a table, local or remote.
func putObject(t *testing.T, root, key string, data []byte) {
	t.Helper()
	st, err := storeFor(context.Background(), root)
	if err != nil {
		t.Fatal(err)
	}
	if ls, ok := st.(*LocalStore); ok {
		if err := os.WriteFile(ls.Path(key), data, 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	if err := st.Put(context.Background(), key, strings.NewReader(string(data)), int64(len(data))); err != nil && !errors.Is(err, ErrObjectExists) {
		t.Fatal(err)
	}
}
