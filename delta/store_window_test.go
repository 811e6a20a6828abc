package delta

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"path"
	"reflect"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
)

// windowStore is a bucket table's S3 store with a pause in the commit path
// of the writer under test: the PutIfAbsent of a commit file runs the next
// armed window first, after the transaction's conflict checks passed (for
// the read version on the first attempt, for every winner on a retry) and
// before its conditional PUT. A window commits that very version from
// another writer, so the PUT that follows meets the winner's object. The
// other writers' own PUTs (made inside a window) pass straight through.
type windowStore struct {
	*S3Store
	mu      sync.Mutex
	windows []func(v int64) error
	inside  bool
	// puts are the writer under test's commit PUTs: the version and
	// whether the store refused it as existing (S3's 412).
	puts []windowPut
	errs []error
}

type windowPut struct {
	version int64
	exists  bool
}

func (w *windowStore) PutIfAbsent(ctx context.Context, key string, data []byte) error {
	v, isCommit := commitKeyVersion(key)
	w.mu.Lock()
	if !isCommit || w.inside {
		w.mu.Unlock()
		return w.S3Store.PutIfAbsent(ctx, key, data)
	}
	var window func(int64) error
	if len(w.windows) > 0 {
		window, w.windows = w.windows[0], w.windows[1:]
		w.inside = true
	}
	w.mu.Unlock()
	if window != nil {
		err := window(v)
		w.mu.Lock()
		w.inside = false
		if err != nil {
			w.errs = append(w.errs, fmt.Errorf("the window's writer at version %d: %w", v, err))
		}
		w.mu.Unlock()
	}
	err := w.S3Store.PutIfAbsent(ctx, key, data)
	w.mu.Lock()
	w.puts = append(w.puts, windowPut{version: v, exists: errors.Is(err, ErrObjectExists)})
	w.mu.Unlock()
	return err
}

// commitKeyVersion is the version of a commit file's key.
func commitKeyVersion(key string) (int64, bool) {
	dir, name := path.Split(key)
	if dir != LogDirName+"/" || !strings.HasSuffix(name, ".json") || len(name) != 25 {
		return 0, false
	}
	v, err := strconv.ParseInt(strings.TrimSuffix(name, ".json"), 10, 64)
	return v, err == nil
}

// withWindows puts a windowStore in front of the table's store for the
// test.
func withWindows(t *testing.T, root string) *windowStore {
	t.Helper()
	st, err := storeFor(context.Background(), root)
	if err != nil {
		t.Fatal(err)
	}
	inner, ok := st.(*S3Store)
	if !ok {
		t.Fatalf("store of %s is %T", root, st)
	}
	w := &windowStore{S3Store: inner}
	remoteStores.Store(root, Store(w))
	t.Cleanup(func() { remoteStores.Store(root, Store(inner)) })
	return w
}

// bucketOrphans lists the data files in the table's bucket prefix that no
// commit adds: what a refused or rebased transaction must not leave.
func bucketOrphans(t *testing.T, st Store, s *Snapshot) []string {
	t.Helper()
	ctx := context.Background()
	known := map[string]bool{}
	for v := int64(0); v <= s.Version(); v++ {
		c, err := readCommit(ctx, s.Root(), v)
		if err != nil {
			t.Fatal(err)
		}
		for _, a := range c.Actions {
			if a.Add != nil {
				p, _ := a.Add.DecodedPath()
				known[p] = true
			}
		}
	}
	objects, err := st.List(ctx, "", ListOptions{Recursive: true})
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, o := range objects {
		if !strings.HasPrefix(o.Key, LogDirName+"/") && !known[o.Key] {
			out = append(out, o.Key)
		}
	}
	return out
}

// TestS3CommitWindow makes another writer commit version N inside the
// writer under test's check-then-PUT window: after its conflict check
// passed and before its conditional PUT of N. The PUT must get S3's 412,
// the commit re-check the winner with Delta's rules, and either commit at
// N+1 (a winner it does not conflict with) or fail with the conflict error
// and leave nothing behind (one it does). Both writers' rows are then in
// the table exactly once, read here and by delta-rs from the bucket.
//
// The table holds writer a's rows (ids 0-9) and b's (10-19) in two files;
// "FULL of a" is the workbench's full refresh of a writer: its rows deleted
// and new ones appended in one commit. The windows' writers are this
// package (another transaction, on a snapshot of its own) or delta-rs 1.x
// in a process of its own.
func TestS3CommitWindow(t *testing.T) {
	ctx := context.Background()
	rows := func(w string, from, to int) string {
		return fmt.Sprintf("SELECT i::BIGINT AS id, '%s' AS w FROM range(%d, %d) r(i)", w, from, to)
	}
	want := func(parts ...[3]any) []string {
		var out []string
		for _, p := range parts {
			for i := p[1].(int); i < p[2].(int); i++ {
				out = append(out, fmt.Sprintf("%s|%d", p[0], i))
			}
		}
		slices.Sort(out)
		return out
	}
	r := func(w string, from, to int) [3]any { return [3]any{w, from, to} }
	// root and db are the subtest's table and DuckDB.
	var (
		root string
		db   *sql.DB
	)
	type step func(tx *Transaction) error
	appendStep := func(w string, from, to int) step {
		return func(tx *Transaction) error {
			_, err := tx.Append(ctx, db, rows(w, from, to))
			return err
		}
	}
	fullStep := func(w string, from, to int) step {
		return func(tx *Transaction) error {
			if _, err := tx.Delete(ctx, db, "w = '"+w+"'"); err != nil {
				return err
			}
			_, err := tx.Append(ctx, db, rows(w, from, to))
			return err
		}
	}
	// Writers of the windows.
	ours := func(s step) func(int64) error {
		return func(int64) error {
			snap, err := LoadSnapshot(ctx, root)
			if err != nil {
				return err
			}
			tx, err := snap.Begin(WriteOptions{})
			if err != nil {
				return err
			}
			if err := s(tx); err != nil {
				tx.Abort()
				return err
			}
			res, err := tx.Commit(ctx)
			if err == nil && res.Rebases != 0 {
				err = fmt.Errorf("the window's writer lost a race (%d): nothing else writes", res.Rebases)
			}
			return err
		}
	}
	deltaRS := func(w string, from int) func(int64) error {
		return func(int64) error {
			runPythonOutput(t, "testdata/s3_deltars_append.py", root, strconv.Itoa(from), "1", w)
			return nil
		}
	}

	tests := []struct {
		name  string
		props map[string]string
		// under is what the writer under test stages; windows commit in
		// its windows, one per commit PUT, in order.
		under   step
		windows []func(int64) error
		// puts: how many of its commit PUTs met a winner (412); want:
		// the conflict it fails with (nil: committed after len(windows)
		// rebases); rows: the table's rows at the end.
		lost int
		err  error
		rows []string
	}{
		{name: "blind append vs append", under: appendStep("a", 100, 105),
			windows: []func(int64) error{ours(appendStep("b", 200, 205))},
			lost:    1, rows: want(r("a", 0, 10), r("b", 10, 20), r("a", 100, 105), r("b", 200, 205))},
		{name: "blind append vs delta-rs append", under: appendStep("a", 100, 105),
			windows: []func(int64) error{deltaRS("rs", 300)},
			lost:    1, rows: want(r("a", 0, 10), r("b", 10, 20), r("a", 100, 105), r("rs", 300, 310))},
		{name: "blind append vs an append, then another after the re-check", under: appendStep("a", 100, 105),
			windows: []func(int64) error{ours(appendStep("b", 200, 205)), deltaRS("rs", 300)},
			lost:    2, rows: want(r("a", 0, 10), r("b", 10, 20), r("a", 100, 105), r("b", 200, 205), r("rs", 300, 310))},
		{name: "blind append of a vs FULL of a", under: appendStep("a", 100, 105),
			windows: []func(int64) error{ours(fullStep("a", 300, 303))},
			lost:    1, rows: want(r("b", 10, 20), r("a", 100, 105), r("a", 300, 303))},
		{name: "FULL of a vs append of b", under: fullStep("a", 100, 103),
			windows: []func(int64) error{ours(appendStep("b", 200, 205))},
			lost:    1, rows: want(r("b", 10, 20), r("a", 100, 103), r("b", 200, 205))},
		{name: "FULL of a vs FULL of b", under: fullStep("a", 100, 103),
			windows: []func(int64) error{ours(fullStep("b", 200, 202))},
			lost:    1, rows: want(r("a", 100, 103), r("b", 200, 202))},
		{name: "FULL of a vs append of a's rows", under: fullStep("a", 100, 103),
			windows: []func(int64) error{ours(appendStep("a", 200, 205))},
			lost:    1, err: ErrConcurrentAppend, rows: want(r("a", 0, 10), r("b", 10, 20), r("a", 200, 205))},
		{name: "FULL of a vs delta-rs appending a's rows", under: fullStep("a", 100, 103),
			windows: []func(int64) error{deltaRS("a", 300)},
			lost:    1, err: ErrConcurrentAppend, rows: want(r("a", 0, 10), r("b", 10, 20), r("a", 300, 310))},
		{name: "FULL of a vs append of b, then of a's rows after the re-check", under: fullStep("a", 100, 103),
			windows: []func(int64) error{ours(appendStep("b", 200, 205)), ours(appendStep("a", 400, 402))},
			lost:    2, err: ErrConcurrentAppend, rows: want(r("a", 0, 10), r("b", 10, 20), r("b", 200, 205), r("a", 400, 402))},
		{name: "FULL of a vs append of a's rows, WriteSerializable", props: map[string]string{PropIsolationLevel: "WriteSerializable"},
			under:   fullStep("a", 100, 103),
			windows: []func(int64) error{ours(appendStep("a", 200, 205))},
			lost:    1, rows: want(r("b", 10, 20), r("a", 100, 103), r("a", 200, 205))},
		{name: "FULL of a vs FULL of a", under: fullStep("a", 100, 103),
			windows: []func(int64) error{ours(fullStep("a", 500, 502))},
			lost:    1, err: ErrConcurrentAppend, rows: want(r("b", 10, 20), r("a", 500, 502))},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			db = writeTestDB(t)
			SetObjectCache(&ObjectCache{Dir: t.TempDir()})
			t.Cleanup(func() { SetObjectCache(nil) })
			root = s3Root(t)
			mustCreate(t, db, root, rows("a", 0, 0), nil, tt.props)
			mustAppend(t, db, root, rows("a", 0, 10))
			mustAppend(t, db, root, rows("b", 10, 20))
			read := mustSnapshot(t, root)
			ws := withWindows(t, root)
			ws.windows = tt.windows

			tx, err := read.Begin(WriteOptions{})
			if err != nil {
				t.Fatal(err)
			}
			if err := tt.under(tx); err != nil {
				t.Fatal(err)
			}
			res, err := tx.Commit(ctx)
			if len(ws.errs) > 0 {
				t.Fatal(errors.Join(ws.errs...))
			}
			if len(ws.windows) != 0 {
				t.Fatalf("%d windows never opened", len(ws.windows))
			}
			// The PUTs: each window's version met the winner's object.
			var wantPuts []windowPut
			for i := 0; i < tt.lost; i++ {
				wantPuts = append(wantPuts, windowPut{version: read.Version() + 1 + int64(i), exists: true})
			}
			if tt.err == nil {
				wantPuts = append(wantPuts, windowPut{version: read.Version() + 1 + int64(tt.lost)})
			}
			if !reflect.DeepEqual(ws.puts, wantPuts) {
				t.Fatalf("commit PUTs %+v, want %+v", ws.puts, wantPuts)
			}
			end := mustSnapshot(t, root)
			if tt.err == nil {
				if err != nil {
					t.Fatalf("commit: %v", err)
				}
				if !res.Committed || res.Rebases != tt.lost || res.Version != read.Version()+1+int64(tt.lost) || end.Version() != res.Version {
					t.Fatalf("commit %+v, table at version %d", res, end.Version())
				}
			} else {
				var ce *ConflictError
				if !errors.Is(err, tt.err) || !errors.As(err, &ce) || !IsRetryable(err) {
					t.Fatalf("commit: err = %v, want %v", err, tt.err)
				}
				if ce.WinningVersion != read.Version()+int64(tt.lost) || end.Version() != ce.WinningVersion {
					t.Fatalf("conflict with version %d, table at %d", ce.WinningVersion, end.Version())
				}
			}
			got := snapshotRows(t, db, end, "w", "id")
			if !reflect.DeepEqual(got, tt.rows) {
				t.Fatalf("rows:\n got %v\nwant %v", got, tt.rows)
			}
			if v, dr := deltaRSRows(t, root); v != end.Version() || !reflect.DeepEqual(dr, snapshotRows(t, db, end, "id", "w")) {
				t.Fatalf("delta-rs reads v%d: %v", v, dr)
			}
			if o := bucketOrphans(t, ws.S3Store, end); len(o) > 0 {
				t.Fatalf("data files no commit adds: %v", o)
			}
			t.Logf("PUTs %+v; %v", ws.puts, err)
		})
	}
}
