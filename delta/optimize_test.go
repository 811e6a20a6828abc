package delta

import (
	"context"
	"errors"
	"fmt"
	"path/filepath"
	"strings"
	"testing"
)

// TestOptimizeCompactsSmallFiles: the small files of each partition
// become one, with the same rows, in an OPTIMIZE commit that changes no
// data; a second optimize has nothing to do.
func TestOptimizeCompactsSmallFiles(t *testing.T) {
	ctx := context.Background()
	for _, parts := range [][]string{nil, {"writer"}} {
		t.Run(fmt.Sprint(parts), func(t *testing.T) {
			db := writeTestDB(t)
			root := filepath.Join(t.TempDir(), "t")
			batch := func(k int) string {
				return fmt.Sprintf(`SELECT (%d * 100 + i)::BIGINT AS id, 'w' || (%d %% 2) AS writer FROM range(100) t(i)`, k, k)
			}
			mustCreate(t, db, root, batch(0), parts, nil)
			for k := 0; k < 20; k++ {
				mustAppend(t, db, root, batch(k))
			}
			rowsBefore := tableRows(t, db, root, "id", "writer")
			res, m, err := Optimize(ctx, db, root, OptimizeOptions{}, WriteOptions{})
			if err != nil {
				t.Fatal(err)
			}
			wantFiles := 1 + len(parts) // one per partition
			if !res.Committed || res.Operation != "OPTIMIZE" || m.FilesRemoved != 20 || m.FilesAdded != wantFiles ||
				m.Rows != 2000 || m.Partitions != wantFiles {
				t.Fatalf("result %+v, metrics %+v", res, m)
			}
			s := mustSnapshot(t, root)
			if s.NumFiles() != wantFiles {
				t.Fatalf("%d files after optimize", s.NumFiles())
			}
			if got := tableRows(t, db, root, "id", "writer"); strings.Join(got, ",") != strings.Join(rowsBefore, ",") {
				t.Fatal("rows changed")
			}
			for _, a := range readCommitActions(t, root, res.Version) {
				if a.Add != nil && a.Add.DataChange || a.Remove != nil && a.Remove.DataChange {
					t.Fatalf("dataChange true in an optimize: %+v %+v", a.Add, a.Remove)
				}
			}
			info := commitInfoOf(t, root, res.Version)
			if info.IsBlindAppend == nil || *info.IsBlindAppend || info.OperationParameters["zOrderBy"] != "[]" ||
				info.OperationMetrics["numRemovedFiles"] != "20" || info.OperationMetrics["numAddedFiles"] != fmt.Sprint(wantFiles) ||
				info.OperationMetrics["p50FileSize"] == "0" {
				t.Fatalf("commitInfo %+v", info)
			}
			changes, err := s.ChangesSince(ctx, res.Version-1)
			if err != nil || len(changes) != 1 || len(changes[0].Adds) != 0 || changes[0].RemovesData {
				t.Fatalf("a stream sees the optimize as %+v, %v", changes, err)
			}
			res, _, err = Optimize(ctx, db, root, OptimizeOptions{}, WriteOptions{})
			if err != nil || res.Committed {
				t.Fatalf("second optimize: %+v, %v", res, err)
			}
		})
	}
}

// TestOptimizePurgesDeletionVectors: files with a deletion vector are
// rewritten without the rows it hides, whatever their size.
func TestOptimizePurgesDeletionVectors(t *testing.T) {
	ctx := context.Background()
	db := writeTestDB(t)
	root := filepath.Join(t.TempDir(), "t")
	src := `SELECT i::BIGINT AS id, 'w' || (i % 10) AS writer FROM range(50000) t(i)`
	mustCreate(t, db, root, src, nil, map[string]string{PropEnableDeletionVectors: "true"})
	mustAppend(t, db, root, src)
	if _, err := Delete(ctx, db, root, "writer = 'w4'", WriteOptions{}); err != nil {
		t.Fatal(err)
	}
	rowsBefore := tableRows(t, db, root, "id", "writer")
	res, m, err := Optimize(ctx, db, root, OptimizeOptions{MinFileSize: 1}, WriteOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if !res.Committed || m.FilesRemoved != 1 || m.PurgedRows != 5000 || m.DeletionVectorsRemoved != 1 || m.Rows != 45000 {
		t.Fatalf("metrics %+v", m)
	}
	for _, f := range mustSnapshot(t, root).Files() {
		if f.DeletionVector != nil {
			t.Fatalf("%s keeps a DV", f.Path)
		}
	}
	if commitInfoOf(t, root, res.Version).OperationMetrics["numDeletionVectorsRemoved"] != "1" {
		t.Fatal("numDeletionVectorsRemoved")
	}
	if got := tableRows(t, db, root, "id", "writer"); strings.Join(got, ",") != strings.Join(rowsBefore, ",") {
		t.Fatal("rows changed")
	}
}

// TestRefreshAfterOptimize: once optimize has mixed two writers' rows in
// one file, deleting one writer's rows (a FULL refresh) rewrites it and
// deletes exactly that writer's rows.
func TestRefreshAfterOptimize(t *testing.T) {
	ctx := context.Background()
	db := writeTestDB(t)
	root := filepath.Join(t.TempDir(), "t")
	rows := func(w string, from int) string {
		return fmt.Sprintf(`SELECT '%s' AS _laktory_writer, (%d + i)::BIGINT AS id FROM range(500) t(i)`, w, from)
	}
	mustCreate(t, db, root, rows("a", 0), nil, nil)
	for k := 0; k < 3; k++ {
		mustAppend(t, db, root, rows("a", k*1000))
		mustAppend(t, db, root, rows("b", k*1000+500))
	}
	if _, _, err := Optimize(ctx, db, root, OptimizeOptions{}, WriteOptions{}); err != nil {
		t.Fatal(err)
	}
	if n := mustSnapshot(t, root).NumFiles(); n != 1 {
		t.Fatalf("%d files", n)
	}
	res, err := Delete(ctx, db, root, "_laktory_writer = 'a'", WriteOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if res.Metrics.DeletedRows != 1500 || res.Metrics.CopiedRows != 1500 {
		t.Fatalf("delete metrics %+v", res.Metrics)
	}
	got := tableRows(t, db, root, "_laktory_writer")
	if len(got) != 1500 || got[0] != "b" || got[len(got)-1] != "b" {
		t.Fatalf("%d rows left, first %v", len(got), got[:1])
	}
}

// TestOptimizeConcurrency: an optimize whose files a concurrent commit
// removed fails with a retryable conflict (DELTA_CONCURRENT_DELETE_READ: it
// read them; Delta checks that before delete-delete) and leaves no file behind; a
// concurrent append does not conflict and its rows stay.
func TestOptimizeConcurrency(t *testing.T) {
	ctx := context.Background()
	db := writeTestDB(t)
	root := filepath.Join(t.TempDir(), "t")
	batch := func(k int) string {
		return fmt.Sprintf(`SELECT (%d * 10 + i)::BIGINT AS id FROM range(10) t(i)`, k)
	}
	mustCreate(t, db, root, batch(0), nil, nil)
	for k := 0; k < 4; k++ {
		mustAppend(t, db, root, batch(k))
	}
	filesBefore := dataFiles(t, root)

	tx, err := mustSnapshot(t, root).Begin(WriteOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := tx.Optimize(ctx, db, OptimizeOptions{}); err != nil {
		t.Fatal(err)
	}
	if _, err := Delete(ctx, db, root, "id = 5", WriteOptions{}); err != nil {
		t.Fatal(err)
	}
	_, err = tx.Commit(ctx)
	if !IsRetryable(err) || !errors.Is(err, ErrConcurrentDeleteRead) {
		t.Fatalf("optimize over a concurrent delete: %v", err)
	}
	if n := len(dataFiles(t, root)); n != len(filesBefore)+1 { // the delete's rewrite
		t.Fatalf("%d data files after the failed optimize, %d before", n, len(filesBefore))
	}

	tx, _ = mustSnapshot(t, root).Begin(WriteOptions{})
	if _, err := tx.Optimize(ctx, db, OptimizeOptions{}); err != nil {
		t.Fatal(err)
	}
	mustAppend(t, db, root, batch(7))
	res, err := tx.Commit(ctx)
	if err != nil || res.Rebases != 1 {
		t.Fatalf("optimize over an append: %+v, %v", res, err)
	}
	s := mustSnapshot(t, root)
	if s.NumFiles() != 2 {
		t.Fatalf("%d files: the optimized one and the append's", s.NumFiles())
	}
	if got := tableRows(t, db, root, "id"); len(got) != 49 {
		t.Fatalf("%d rows", len(got))
	}
}
