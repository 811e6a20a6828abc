package delta

import (
	"context"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

func TestTruncateOverwriteAppendOnly(t *testing.T) {
	ctx := context.Background()
	db := writeTestDB(t)
	root := filepath.Join(t.TempDir(), "t")
	mustCreate(t, db, root, rangeQuery(0, 0, "'x' AS s"), nil, map[string]string{"keep": "me"})
	mustAppend(t, db, root, rangeQuery(0, 10, "'x' AS s"))
	id := mustSnapshot(t, root).TableID()

	res, err := Truncate(ctx, root, WriteOptions{})
	if err != nil || res.Operation != "TRUNCATE" || res.Metrics.DeletedRows != 10 || res.Metrics.RemovedFiles != 1 {
		t.Fatalf("%+v, %v", res, err)
	}
	s := mustSnapshot(t, root)
	if s.NumFiles() != 0 || s.TableID() != id || s.Properties()["keep"] != "me" || len(s.Schema().Fields) != 2 {
		t.Fatalf("after truncate: %d files, id %s, %v", s.NumFiles(), s.TableID(), s.Properties())
	}

	mustAppend(t, db, root, rangeQuery(0, 5, "'x' AS s"))
	res, err = Overwrite(ctx, db, root, rangeQuery(100, 103, "'y' AS s"), WriteOptions{})
	if err != nil || res.Operation != "WRITE" {
		t.Fatalf("%+v, %v", res, err)
	}
	if ci := commitInfoOf(t, root, res.Version); ci.OperationParameters["mode"] != "Overwrite" || *ci.IsBlindAppend {
		t.Fatalf("commitInfo %+v", ci)
	}
	if got := tableRows(t, db, root, "id", "s"); !slices.Equal(got, []string{"100|y", "101|y", "102|y"}) {
		t.Fatalf("rows %v", got)
	}
	// Overwrite with a new schema.
	if _, err := Overwrite(ctx, db, root, "SELECT 'z' AS label", WriteOptions{}); !errors.Is(err, ErrSchemaMismatch) {
		t.Fatalf("err = %v", err)
	}
	if _, err := Overwrite(ctx, db, root, "SELECT 'z' AS label", WriteOptions{OverwriteSchema: true}); err != nil {
		t.Fatal(err)
	}
	s = mustSnapshot(t, root)
	if got := s.Schema().FieldNames(); !slices.Equal(got, []string{"label"}) || s.TableID() != id {
		t.Fatalf("schema %v", got)
	}

	// Append-only tables refuse every data-removing operation.
	ao := filepath.Join(t.TempDir(), "ao")
	mustCreate(t, db, ao, rangeQuery(0, 0, ""), nil, map[string]string{PropAppendOnly: "true"})
	mustAppend(t, db, ao, rangeQuery(0, 3, ""))
	for name, op := range map[string]func() error{
		"delete":    func() error { _, err := Delete(ctx, db, ao, "id = 1", WriteOptions{}); return err },
		"truncate":  func() error { _, err := Truncate(ctx, ao, WriteOptions{}); return err },
		"overwrite": func() error { _, err := Overwrite(ctx, db, ao, rangeQuery(0, 1, ""), WriteOptions{}); return err },
	} {
		if err := op(); !errors.Is(err, ErrAppendOnly) {
			t.Errorf("%s: err = %v", name, err)
		}
	}
}

// TestDropTable drops table folders a Guard allows and refuses the others,
// even when they hold a Delta log.
func TestDropTable(t *testing.T) {
	ctx := context.Background()
	db := writeTestDB(t)
	dir := t.TempDir()
	table := func(rel string) string {
		root := filepath.Join(dir, filepath.FromSlash(rel))
		mustCreate(t, db, root, rangeQuery(0, 0, ""), nil, nil)
		mustAppend(t, db, root, rangeQuery(0, 3, ""))
		return root
	}
	ws := table("ws") // a workspace folder that (wrongly) holds a Delta log
	nested := table("ws/nested")
	lake := filepath.Join(dir, "lake")
	inLake := table("lake/main/default/t")
	outside := table("outside/t")
	plain := filepath.Join(ws, "plain")
	os.MkdirAll(plain, 0o755)
	os.WriteFile(filepath.Join(plain, "keep.txt"), []byte("x"), 0o644)
	empty := filepath.Join(ws, "empty")
	os.MkdirAll(empty, 0o755)
	linkOut := filepath.Join(lake, "main", "default", "link")
	if err := os.Symlink(outside, linkOut); err != nil {
		t.Fatal(err)
	}
	g := NewGuard([]string{ws, lake}, filepath.Join(ws, ".laktory"))

	tests := []struct {
		name    string
		root    string
		guard   Guard
		wantErr error
	}{
		{"no path", "", g, ErrProtectedPath},
		{"filesystem root", string(filepath.Separator), g, ErrProtectedPath},
		{"a root itself", ws, g, ErrProtectedPath},
		{"the lake root", lake, g, ErrProtectedPath},
		{"outside every root", outside, g, ErrOutsideRoots},
		{"dot-dot escape", lake + "/main/../../outside/t", g, ErrOutsideRoots},
		{"a symlink out of the lake", linkOut, g, ErrOutsideRoots},
		{"the zero guard", inLake, Guard{}, ErrOutsideRoots},
		{"not a Delta table", plain, g, ErrNotDeltaTable},
		{"missing folder", filepath.Join(ws, "gone"), g, nil},
		{"empty folder left by a failed create", empty, g, nil},
		{"a table inside the workspace", nested, g, nil},
		{"a table inside the lake", inLake, g, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			err := DropTable(ctx, tt.root, tt.guard)
			if !errors.Is(err, tt.wantErr) || (tt.wantErr == nil && err != nil) {
				t.Fatalf("err = %v, want %v", err, tt.wantErr)
			}
			if tt.wantErr != nil && !strings.Contains(err.Error(), "refusing") && !strings.Contains(err.Error(), "no table folder") {
				t.Fatalf("the message does not say what was refused: %v", err)
			}
		})
	}
	for _, gone := range []string{empty, inLake, nested} {
		if _, err := os.Lstat(gone); !os.IsNotExist(err) {
			t.Errorf("%s still there: %v", gone, err)
		}
	}
	for _, keep := range []string{ws, lake, outside, plain, linkOut, filepath.Join(plain, "keep.txt")} {
		if _, err := os.Lstat(keep); err != nil {
			t.Errorf("%s was removed", keep)
		}
	}
	if entries, _ := os.ReadDir(filepath.Join(lake, "main", "default")); len(entries) != 1 {
		t.Fatalf("left behind: %v", entries)
	}
}

func TestAppTransaction(t *testing.T) {
	ctx := context.Background()
	db := writeTestDB(t)
	root := filepath.Join(t.TempDir(), "t")
	mustCreate(t, db, root, rangeQuery(0, 0, ""), nil, nil)
	appendBatch := func(version int64) (*CommitResult, error) {
		s := mustSnapshot(t, root)
		tx, err := s.Begin(WriteOptions{})
		if err != nil {
			return nil, err
		}
		done, err := tx.SetAppTransaction("stream-1", version)
		if err != nil {
			return nil, err
		}
		if _, err := tx.Append(ctx, db, rangeQuery(int(version)*10, int(version)*10+10, "")); err != nil {
			return nil, err
		}
		if done != tx.Skipped() {
			t.Fatalf("SetAppTransaction = %v but Skipped = %v", done, tx.Skipped())
		}
		return tx.Commit(ctx)
	}
	for _, tt := range []struct {
		version     int64
		wantSkipped bool
	}{{1, false}, {1, true}, {0, true}, {2, false}, {2, true}} {
		res, err := appendBatch(tt.version)
		if err != nil {
			t.Fatal(err)
		}
		if res.Skipped != tt.wantSkipped || res.Committed == tt.wantSkipped {
			t.Fatalf("batch %d: %+v", tt.version, res)
		}
		if !tt.wantSkipped && res.Operation != "STREAMING UPDATE" {
			t.Fatalf("operation %s", res.Operation)
		}
	}
	s := mustSnapshot(t, root)
	if v, ok := s.AppTransactionVersion("stream-1"); !ok || v != 2 || s.Version() != 2 {
		t.Fatalf("txn %d %v at version %d", v, ok, s.Version())
	}
	if got := tableRows(t, db, root, "id"); len(got) != 20 {
		t.Fatalf("%d rows: skipped batches wrote data", len(got))
	}
	if files := dataFiles(t, root); len(files) != 2 {
		t.Fatalf("skipped batches left files: %v", files)
	}
}

func TestTransactionComposition(t *testing.T) {
	ctx := context.Background()
	db := writeTestDB(t)
	root := filepath.Join(t.TempDir(), "t")
	mustCreate(t, db, root, rangeQuery(0, 0, "'a' AS writer"), nil, nil)
	mustAppend(t, db, root, rangeQuery(0, 10, "'a' AS writer"))
	mustAppend(t, db, root, rangeQuery(10, 20, "'b' AS writer"))

	// A full refresh of writer a: delete its rows and append new ones in
	// one commit.
	tx, err := mustSnapshot(t, root).Begin(WriteOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := tx.Delete(ctx, db, "writer = 'a'"); err != nil {
		t.Fatal(err)
	}
	if _, err := tx.Append(ctx, db, rangeQuery(100, 103, "'a' AS writer")); err != nil {
		t.Fatal(err)
	}
	// A later delete of the same transaction sees the appended rows.
	dm, err := tx.Delete(ctx, db, "id = 101")
	if err != nil || dm.DeletedRows != 1 {
		t.Fatalf("%+v, %v", dm, err)
	}
	res, err := tx.Commit(ctx)
	if err != nil || res.Version != 3 || res.Operation != "WRITE" {
		t.Fatalf("%+v, %v", res, err)
	}
	ci := commitInfoOf(t, root, 3)
	if ci.OperationParameters["mode"] != "Overwrite" || ci.OperationParameters["predicate"] != `["writer = 'a'","id = 101"]` || *ci.IsBlindAppend {
		t.Fatalf("commitInfo %+v", ci)
	}
	got := tableRows(t, db, root, "id", "writer")
	if len(got) != 12 || got[0] != "100|a" || got[1] != "102|a" {
		t.Fatalf("rows %v", got)
	}
	// Files written then deleted inside the transaction are gone.
	// On disk: the live files and writer a's removed one (a tombstone).
	if files, live := dataFiles(t, root), livePaths(t, mustSnapshot(t, root)); len(files) != len(live)+1 {
		t.Fatalf("files on disk %v, live %v", files, live)
	}
	if _, err := tx.Commit(ctx); !errors.Is(err, ErrTransactionDone) {
		t.Fatalf("second commit: %v", err)
	}

	// Abort removes the transaction's files.
	tx, _ = mustSnapshot(t, root).Begin(WriteOptions{})
	before := dataFiles(t, root)
	if _, err := tx.Append(ctx, db, rangeQuery(0, 5, "'c' AS writer")); err != nil {
		t.Fatal(err)
	}
	if err := tx.Abort(); err != nil {
		t.Fatal(err)
	}
	if after := dataFiles(t, root); !slices.Equal(before, after) {
		t.Fatalf("abort left %v (before %v)", after, before)
	}
	if _, err := tx.Append(ctx, db, rangeQuery(0, 1, "'c' AS writer")); !errors.Is(err, ErrTransactionDone) {
		t.Fatalf("append after abort: %v", err)
	}
}

func TestCheckpoints(t *testing.T) {
	ctx := context.Background()
	db := writeTestDB(t)
	root := filepath.Join(t.TempDir(), "t")
	mustCreate(t, db, root, rangeQuery(0, 0, "'x' AS p"), []string{"p"}, nil)
	var results []*CommitResult
	for i := 1; i <= 23; i++ {
		s := mustSnapshot(t, root)
		tx, _ := s.Begin(WriteOptions{})
		tx.SetAppTransaction("app", int64(i))
		if _, err := tx.Append(ctx, db, rangeQuery(i*10, i*10+10, "'p"+string(rune('a'+i%3))+"' AS p")); err != nil {
			t.Fatal(err)
		}
		if i%4 == 0 {
			if _, err := tx.Delete(ctx, db, "id % 10 = 1"); err != nil {
				t.Fatal(err)
			}
		}
		res, err := tx.Commit(ctx)
		if err != nil {
			t.Fatal(err)
		}
		results = append(results, res)
	}
	for _, r := range results {
		want := r.Version%DefaultCheckpointInterval == 0
		if (r.Checkpoint != "") != want || r.CheckpointErr != nil {
			t.Fatalf("version %d: checkpoint %q, %v", r.Version, r.Checkpoint, r.CheckpointErr)
		}
	}
	hint := readLastCheckpoint(context.Background(), root)
	if hint == nil || hint.Version != 20 || hint.NumOfAddFiles == nil {
		t.Fatalf("_last_checkpoint %+v", hint)
	}
	// The checkpoint gives the same state as replaying every commit.
	fromCP := mustSnapshot(t, root, AtVersion(20))
	if fromCP.CheckpointVersion() != 20 {
		t.Fatalf("snapshot started from %d", fromCP.CheckpointVersion())
	}
	os.Remove(filepath.Join(root, LogDirName, CheckpointFileName(20)))
	os.Remove(filepath.Join(root, LogDirName, CheckpointFileName(10)))
	replayed := mustSnapshot(t, root, AtVersion(20))
	if !slices.Equal(livePaths(t, fromCP), livePaths(t, replayed)) || fromCP.TableID() != replayed.TableID() ||
		fromCP.Schema().String() != replayed.Schema().String() || len(fromCP.Tombstones()) != len(replayed.Tombstones()) {
		t.Fatal("checkpoint state differs from replay")
	}
	if v, _ := fromCP.AppTransactionVersion("app"); v != 20 {
		t.Fatalf("txn from checkpoint %d", v)
	}
	if _, err := WriteCheckpoint(ctx, replayed); err != nil {
		t.Fatal(err)
	}

	// Tombstones expire after delta.deletedFileRetentionDuration.
	if got := tombstoneRetention(map[string]string{PropDeletedFileRetention: "interval 2 days"}); got.Hours() != 48 {
		t.Fatalf("retention %v", got)
	}
	if got := tombstoneRetention(nil); got.Hours() != 168 {
		t.Fatalf("default retention %v", got)
	}

	// A failing checkpoint does not fail the commit (here
	// _last_checkpoint cannot be replaced: a non-empty folder has its
	// name).
	if err := os.Remove(filepath.Join(root, LogDirName, LastCheckpointFileName)); err != nil {
		t.Fatal(err)
	}
	if err := os.MkdirAll(filepath.Join(root, LogDirName, LastCheckpointFileName, "x"), 0o755); err != nil {
		t.Fatal(err)
	}
	var last *CommitResult
	for v := mustSnapshot(t, root).Version(); v < 30; v++ {
		last = mustAppend(t, db, root, rangeQuery(0, 1, "'pa' AS p"))
	}
	if last.Version != 30 || !last.Committed || last.CheckpointErr == nil {
		t.Fatalf("%+v", last)
	}
	if s := mustSnapshot(t, root); s.Version() != 30 {
		t.Fatalf("version %d", s.Version())
	}
}

func TestColumnMappingWrite(t *testing.T) {
	ctx := context.Background()
	db := writeTestDB(t)
	root := filepath.Join(t.TempDir(), "t")
	q := "SELECT 1::BIGINT AS \"my id\", 'a' AS \"Writer Name\", {'in ner': 2} AS st"
	mustCreate(t, db, root, q, []string{"Writer Name"}, map[string]string{PropColumnMappingMode: "name"})
	mustAppend(t, db, root, q)
	if _, err := Append(ctx, db, root, "SELECT 2::BIGINT AS \"my id\", 'b' AS \"Writer Name\", {'in ner': 3} AS st, 'n' AS \"new col\"", WriteOptions{MergeSchema: true}); err != nil {
		t.Fatal(err)
	}
	s := mustSnapshot(t, root)
	if got := snapshotRows(t, db, s, "my id", "Writer Name", "st", "new col"); !slices.Equal(got, []string{"1|a|{'in ner': 2}|NULL", "2|b|{'in ner': 3}|n"}) {
		t.Fatalf("rows %v", got)
	}
	idField := s.Schema().Field("my id")
	phys := idField.PhysicalName(s.ColumnMappingMode())
	if !strings.HasPrefix(phys, "col-") || s.Properties()[PropColumnMappingMaxID] != "5" {
		t.Fatalf("physical name %q, properties %v", phys, s.Properties())
	}
	for _, f := range s.Files() {
		var st Stats
		json.Unmarshal([]byte(f.Stats), &st)
		if _, ok := st.MinValues[phys]; !ok {
			t.Fatalf("stats not keyed by physical names: %s", f.Stats)
		}
		for k := range f.PartitionValues {
			if !strings.HasPrefix(k, "col-") {
				t.Fatalf("partition values not keyed by physical names: %v", f.PartitionValues)
			}
		}
		p, _ := s.FilePath(f.Path)
		rows, err := db.Query("SELECT name, field_id FROM parquet_schema(" + quoteString(p) + ") WHERE name LIKE 'col-%'")
		if err != nil {
			t.Fatal(err)
		}
		n := 0
		for rows.Next() {
			var name string
			var id *int64
			rows.Scan(&name, &id)
			if id == nil {
				t.Errorf("column %s has no field id", name)
			}
			n++
		}
		rows.Close()
		if n < 3 {
			t.Fatalf("%d physical columns in %s", n, p)
		}
	}
	if _, err := Delete(ctx, db, root, "\"Writer Name\" = 'a' OR st.\"in ner\" = 3", WriteOptions{}); err != nil {
		t.Fatal(err)
	}
	if got := tableRows(t, db, root, "my id"); len(got) != 0 {
		t.Fatalf("rows %v", got)
	}
}

// TestDeleteFromTableWithDeletionVectors deletes from a Spark table whose
// files carry deletion vectors: rows the vectors delete stay deleted.
func TestDeleteFromTableWithDeletionVectors(t *testing.T) {
	src := filepath.Join(conformanceDir(t), "dv-partitioned-with-checkpoint", "delta")
	if _, err := os.Stat(src); err != nil {
		t.Skipf("conformance table missing: %v", err)
	}
	root := filepath.Join(t.TempDir(), "t")
	if err := os.CopyFS(root, os.DirFS(src)); err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	db := writeTestDB(t)
	s := mustSnapshot(t, root)
	hasDV := false
	for _, f := range s.Files() {
		hasDV = hasDV || f.DeletionVector != nil
	}
	if !hasDV {
		t.Fatal("the table has no deletion vector")
	}
	cols := s.Schema().FieldNames()
	before := snapshotRows(t, db, s, cols...)
	if _, err := Delete(ctx, db, root, "col1 % 5 = 1", WriteOptions{}); err != nil {
		t.Fatal(err)
	}
	after := tableRows(t, db, root, cols...)
	var want []string
	for _, r := range before {
		var n int
		if _, err := jsonNumberPrefix(r, &n); err == nil && n%5 == 1 {
			continue
		}
		want = append(want, r)
	}
	if len(want) == len(before) || !slices.Equal(after, want) {
		t.Fatalf("%d rows after, want %d (of %d)", len(after), len(want), len(before))
	}
}

// jsonNumberPrefix parses the integer before the first '|' of a row.
func jsonNumberPrefix(row string, n *int) (int, error) {
	head, _, _ := strings.Cut(row, "|")
	return 0, json.Unmarshal([]byte(head), n)
}

func TestInCommitTimestamps(t *testing.T) {
	db := writeTestDB(t)
	root := filepath.Join(t.TempDir(), "t")
	mustCreate(t, db, root, rangeQuery(0, 0, ""), nil, map[string]string{PropEnableInCommitTS: "true"})
	for i := 0; i < 3; i++ {
		mustAppend(t, db, root, rangeQuery(i, i+1, ""))
	}
	var last int64
	for v := int64(1); v <= 3; v++ {
		actions := readCommitActions(t, root, v)
		ci := actions[0].CommitInfo
		if ci == nil || ci.InCommitTimestamp == nil {
			t.Fatalf("version %d: commitInfo is not first or has no inCommitTimestamp: %+v", v, actions[0])
		}
		if *ci.InCommitTimestamp <= last {
			t.Fatalf("version %d: in-commit timestamp %d not after %d", v, *ci.InCommitTimestamp, last)
		}
		last = *ci.InCommitTimestamp
	}
	if s := mustSnapshot(t, root); s.Timestamp().UnixMilli() != last {
		t.Fatalf("snapshot time %v, want %d", s.Timestamp(), last)
	}
}
