package delta

import (
	"context"
	"errors"
	"fmt"
	"path/filepath"
	"strings"
	"testing"
)

func liveIDs(t *testing.T, root string) int {
	t.Helper()
	db := writeTestDB(t)
	return len(tableRows(t, db, root, "id"))
}

// TestDeleteWritesDeletionVectors: on a table that enables deletion
// vectors a delete marks the rows of the files that keep some (no file is
// rewritten), a later delete merges into the file's DV, small DVs are
// inline, and a file whose rows all go is removed.
func TestDeleteWritesDeletionVectors(t *testing.T) {
	ctx := context.Background()
	db := writeTestDB(t)
	root := filepath.Join(t.TempDir(), "t")
	src := `SELECT i::BIGINT AS id, 'w' || (i % 10) AS writer FROM range(140000) t(i)`
	mustCreate(t, db, root, src, nil, map[string]string{PropEnableDeletionVectors: "true"})
	mustAppend(t, db, root, src)                                                           // v1: one file
	mustAppend(t, db, root, "SELECT 1000000 + i AS id, 'w0' AS writer FROM range(5) t(i)") // v2: a small file
	files := dataFiles(t, root)
	if len(files) != 2 {
		t.Fatalf("%d data files", len(files))
	}

	// v3: 1 row in 10 of the big file, plus rows on both sides of the
	// 65,536-row block boundaries.
	res, err := Delete(ctx, db, root, "writer = 'w3' OR id IN (65535, 65536, 131071, 131072, 139999)", WriteOptions{})
	if err != nil {
		t.Fatal(err)
	}
	want := int64(14000 + 5) // the 5 ids end in 5, 6, 1, 2 and 9: none is w3's
	if res.Metrics.DeletedRows != want || res.Metrics.CopiedRows != 0 || res.Metrics.AddedFiles != 0 {
		t.Fatalf("metrics %+v, want %d deleted, nothing copied", res.Metrics, want)
	}
	if got := dataFiles(t, root); len(got) != 2 {
		t.Fatalf("the delete wrote data files: %v", got)
	}
	var add *Add
	var removes int
	for _, a := range readCommitActions(t, root, 3) {
		switch {
		case a.Add != nil:
			add = a.Add
		case a.Remove != nil:
			removes++
			if a.Remove.DeletionVector != nil {
				t.Fatalf("the first delete removed a file with a DV: %+v", a.Remove)
			}
		}
	}
	if removes != 1 || add == nil || add.DeletionVector == nil || add.DeletionVector.StorageType != "u" ||
		add.DeletionVector.Cardinality != want || add.DeletionVector.Offset == nil || *add.DeletionVector.Offset != 1 {
		t.Fatalf("commit 3: %d removes, add %+v", removes, add)
	}
	st, _ := add.ParseStats()
	if st.NumRecords != 140000 || st.TightBounds == nil || *st.TightBounds {
		t.Fatalf("stats of the DV'd file: %s", add.Stats)
	}
	if p, err := add.DeletionVector.DVFilePath(root); err != nil || filepath.Dir(p) != root || !strings.HasPrefix(filepath.Base(p), "deletion_vector_") {
		t.Fatalf("DV file %s, %v", p, err)
	}
	info := commitInfoOf(t, root, 3)
	if info.Operation != "DELETE" || info.OperationMetrics["numDeletionVectorsAdded"] != "1" || info.OperationMetrics["numCopiedRows"] != "0" ||
		info.OperationMetrics["numAddedFiles"] != "0" || info.OperationMetrics["numRemovedFiles"] != "0" {
		t.Fatalf("commitInfo %s %v", info.Operation, info.OperationMetrics)
	}
	if n := liveIDs(t, root); n != 140005-int(want) {
		t.Fatalf("%d rows after the first delete", n)
	}

	// v4: rows of both files. The big file's DV is merged (its remove
	// carries the old DV); the small file keeps 3 of 5 rows: an inline DV.
	res, err = Delete(ctx, db, root, "id < 100 OR id IN (1000000, 1000004)", WriteOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if res.Metrics.DeletedRows != 90+2 {
		t.Fatalf("second delete: %+v", res.Metrics)
	}
	dvs := map[string]*DeletionVector{}
	for _, a := range readCommitActions(t, root, 4) {
		if a.Remove != nil && a.Remove.DeletionVector != nil && a.Remove.DeletionVector.Cardinality != want {
			t.Errorf("remove with DV %+v", a.Remove.DeletionVector)
		}
		if a.Add != nil {
			dvs[a.Add.Path] = a.Add.DeletionVector
		}
	}
	if len(dvs) != 2 {
		t.Fatalf("commit 4 adds %v", dvs)
	}
	for p, dv := range dvs {
		switch {
		case dv.Cardinality == want+90 && dv.StorageType == "u":
		case dv.Cardinality == 2 && dv.StorageType == "i":
			bm, err := LoadDeletionVector(root, dv)
			if err != nil || fmt.Sprint(bm.ToArray()) != "[0 4]" {
				t.Fatalf("inline DV of %s: %v %v", p, bm, err)
			}
		default:
			t.Fatalf("DV of %s: %+v", p, dv)
		}
	}
	if m := commitInfoOf(t, root, 4).OperationMetrics; m["numDeletionVectorsAdded"] != "1" || m["numDeletionVectorsUpdated"] != "1" {
		t.Fatalf("commit 4 metrics %v", m)
	}

	// v5: the small file's last rows: it is removed, DV and all.
	if _, err := Delete(ctx, db, root, "id >= 1000000", WriteOptions{}); err != nil {
		t.Fatal(err)
	}
	if m := commitInfoOf(t, root, 5).OperationMetrics; m["numRemovedFiles"] != "1" || m["numDeletionVectorsRemoved"] != "1" {
		t.Fatalf("commit 5 metrics %v", m)
	}
	got := tableRows(t, db, root, "id")
	if len(got) != 140000-int(want)-90 {
		t.Fatalf("%d rows at the end", len(got))
	}
	for _, id := range []string{"3", "65535", "65536", "131072", "139999", "99"} {
		for _, g := range got {
			if g == id {
				t.Fatalf("deleted row %s is still there", id)
			}
		}
	}
}

// TestDeleteRewritesWithoutDeletionVectors: deletion vectors are written
// only when the table enables them.
func TestDeleteRewritesWithoutDeletionVectors(t *testing.T) {
	ctx := context.Background()
	for name, props := range map[string]map[string]string{
		"no property":    nil,
		"property false": {PropEnableDeletionVectors: "false", PropFeaturePrefix + FeatureDeletionVectors: "supported"},
	} {
		t.Run(name, func(t *testing.T) {
			db := writeTestDB(t)
			root := filepath.Join(t.TempDir(), "t")
			src := `SELECT i::BIGINT AS id FROM range(1000) t(i)`
			mustCreate(t, db, root, src, nil, props)
			mustAppend(t, db, root, src)
			res, err := Delete(ctx, db, root, "id % 2 = 0", WriteOptions{})
			if err != nil {
				t.Fatal(err)
			}
			if res.Metrics.CopiedRows != 500 || res.Metrics.DVsAdded != 0 {
				t.Fatalf("metrics %+v", res.Metrics)
			}
			for _, f := range mustSnapshot(t, root).Files() {
				if f.DeletionVector != nil {
					t.Fatalf("file %s has a DV", f.Path)
				}
			}
		})
	}
}

// TestDeletionVectorDeleteAbortAndConflict: an aborted or conflicting DV
// delete leaves no DV file; a DV update of a file conflicts with another
// transaction's DV update or rewrite of the same file (a remove and an add
// of it), and rebases over a blind append.
func TestDeletionVectorDeleteAbortAndConflict(t *testing.T) {
	ctx := context.Background()
	db := writeTestDB(t)
	root := filepath.Join(t.TempDir(), "t")
	src := `SELECT i::BIGINT AS id, 'w' || (i % 10) AS writer FROM range(10000) t(i)`
	mustCreate(t, db, root, src, nil, map[string]string{PropEnableDeletionVectors: "true"})
	mustAppend(t, db, root, src)
	dvFiles := func() []string {
		m, _ := filepath.Glob(filepath.Join(root, "deletion_vector_*.bin"))
		return m
	}
	begin := func() *Transaction {
		tx, err := mustSnapshot(t, root).Begin(WriteOptions{})
		if err != nil {
			t.Fatal(err)
		}
		return tx
	}

	tx := begin()
	if _, err := tx.Delete(ctx, db, "writer = 'w1'"); err != nil {
		t.Fatal(err)
	}
	if len(dvFiles()) != 1 {
		t.Fatalf("DV files before commit: %v", dvFiles())
	}
	tx.Abort()
	if len(dvFiles()) != 0 {
		t.Fatalf("abort left %v", dvFiles())
	}

	a, b := begin(), begin()
	if _, err := a.Delete(ctx, db, "writer = 'w1'"); err != nil {
		t.Fatal(err)
	}
	if _, err := b.Delete(ctx, db, "writer = 'w2'"); err != nil {
		t.Fatal(err)
	}
	if _, err := a.Commit(ctx); err != nil {
		t.Fatal(err)
	}
	_, err := b.Commit(ctx)
	// The winner re-added the file (may match b's predicate) and removed
	// the version b read: Spark's checker reports the add first.
	if !errors.Is(err, ErrConcurrentAppend) {
		t.Fatalf("second DV update of the file: %v", err)
	}
	if len(dvFiles()) != 1 {
		t.Fatalf("DV files after the conflict: %v", dvFiles())
	}

	c := begin()
	if _, err := c.Delete(ctx, db, "writer = 'w2'"); err != nil {
		t.Fatal(err)
	}
	mustAppend(t, db, root, "SELECT 50000 AS id, 'w5' AS writer") // a blind append that cannot match
	res, err := c.Commit(ctx)
	if err != nil || res.Rebases != 1 {
		t.Fatalf("over a blind append: %+v, %v", res, err)
	}
	if n := liveIDs(t, root); n != 8001 {
		t.Fatalf("%d rows", n)
	}
}

// TestDeletionVectorDeleteInOneTransaction: in one transaction a delete
// rewrites the files the transaction appended (they are not in the table
// yet) and marks the table's files; a later delete extends the DV staged
// before, and an overwrite removes the DV'd file.
func TestDeletionVectorDeleteInOneTransaction(t *testing.T) {
	ctx := context.Background()
	db := writeTestDB(t)
	root := filepath.Join(t.TempDir(), "t")
	src := `SELECT i::BIGINT AS id, 'w' || (i % 10) AS writer FROM range(1000) t(i)`
	mustCreate(t, db, root, src, nil, map[string]string{PropEnableDeletionVectors: "true"})
	mustAppend(t, db, root, src)
	tx, err := mustSnapshot(t, root).Begin(WriteOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := tx.Append(ctx, db, "SELECT 5000 + i AS id, 'w' || (i % 2) AS writer FROM range(10) t(i)"); err != nil {
		t.Fatal(err)
	}
	m, err := tx.Delete(ctx, db, "writer = 'w1'")
	if err != nil {
		t.Fatal(err)
	}
	if m.DeletionVectors != 1 || m.CopiedRows != 5 || m.DeletedRows != 105 {
		t.Fatalf("first delete %+v", m)
	}
	if m, err = tx.Delete(ctx, db, "id < 10"); err != nil || m.DeletionVectors != 1 || m.DeletedRows != 9 {
		t.Fatalf("second delete %+v, %v", m, err)
	}
	res, err := tx.Commit(ctx)
	if err != nil {
		t.Fatal(err)
	}
	var dv *DeletionVector
	for _, a := range readCommitActions(t, root, res.Version) {
		if a.Add != nil && a.Add.DeletionVector != nil {
			if dv != nil {
				t.Fatal("two adds with a DV")
			}
			dv = a.Add.DeletionVector
		}
	}
	if dv == nil || dv.Cardinality != 100+9 {
		t.Fatalf("DV %+v", dv)
	}
	if n := liveIDs(t, root); n != 1000-109+5 {
		t.Fatalf("%d rows", n)
	}

	tx, _ = mustSnapshot(t, root).Begin(WriteOptions{})
	if _, err := tx.Delete(ctx, db, "writer = 'w2'"); err != nil {
		t.Fatal(err)
	}
	if _, err := tx.Overwrite(ctx, db, "SELECT 1::BIGINT AS id, 'w9' AS writer"); err != nil {
		t.Fatal(err)
	}
	res, err = tx.Commit(ctx)
	if err != nil {
		t.Fatal(err)
	}
	for _, a := range readCommitActions(t, root, res.Version) {
		if a.Add != nil && a.Add.DeletionVector != nil {
			t.Fatalf("overwrite kept a DV'd file %s", a.Add.Path)
		}
	}
	if got := tableRows(t, db, root, "id"); fmt.Sprint(got) != "[1]" {
		t.Fatalf("rows %v", got)
	}
}
