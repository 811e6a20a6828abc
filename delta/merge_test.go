package delta

import (
	"context"
	"database/sql"
	"errors"
	"path/filepath"
	"slices"
	"testing"
)

// mergeTable makes a table of ids from..to in files of size ids each
// (sorted by id): id BIGINT, v VARCHAR ('v<id>'), seq BIGINT (1).
func mergeTable(t *testing.T, db *sql.DB, root string, from, to, size int, parts []string, props map[string]string) {
	t.Helper()
	cols := "'v' || i AS v, 1::BIGINT AS seq"
	if len(parts) > 0 {
		cols += ", (i % 2)::BIGINT AS p"
	}
	mustCreate(t, db, root, rangeQuery(0, 1, cols), parts, props)
	for i := from; i < to; i += size {
		mustAppend(t, db, root, rangeQuery(i, min(i+size, to), cols))
	}
}

func mergeConn(t *testing.T, db *sql.DB) *sql.Conn {
	t.Helper()
	conn, err := db.Conn(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { conn.Close() })
	return conn
}

// upsert is a MERGE keyed by id: update v and seq when the source's seq is
// greater, delete when source.op = 'D', insert the others.
func upsert(source string) MergeSpec {
	set := []MergeAssignment{{"v", "source.v"}, {"seq", "source.seq"}}
	return MergeSpec{Source: source, Keys: []MergeKey{{Target: "id", Source: "id"}},
		Matched: []MergeClause{
			{Action: MergeUpdate, Condition: "source.op IS DISTINCT FROM 'D' AND source.seq > target.seq", Set: set},
			{Action: MergeDelete, Condition: "source.op = 'D'"},
		},
		NotMatched: []MergeClause{{Action: MergeInsert, Condition: "source.op IS DISTINCT FROM 'D'",
			Set: []MergeAssignment{{"id", "source.id"}, {"v", "source.v"}, {"seq", "source.seq"}}}}}
}

func mustMerge(t *testing.T, conn *sql.Conn, root string, spec MergeSpec) (*CommitResult, MergeMetrics) {
	t.Helper()
	tx, err := mustSnapshot(t, root).Begin(WriteOptions{})
	if err != nil {
		t.Fatal(err)
	}
	m, err := tx.Merge(context.Background(), conn, spec)
	if err != nil {
		tx.Abort()
		t.Fatal(err)
	}
	res, err := tx.Commit(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	return res, m
}

func TestMergeUpsertRewritesOnlyTouchedFiles(t *testing.T) {
	db := writeTestDB(t)
	conn := mergeConn(t, db)
	root := filepath.Join(t.TempDir(), "t")
	mergeTable(t, db, root, 0, 100, 25, nil, nil)
	before := mustSnapshot(t, root)
	src := `SELECT * FROM (VALUES (10::BIGINT, 'u10', 2::BIGINT, 'U'), (11, 'old', 0, 'U'), (12, NULL, 0, 'D'),
		(500, 'new', 1, 'I'), (501, 'gone', 1, 'D')) AS s(id, v, seq, op)`
	res, m := mustMerge(t, conn, root, upsert(src))
	want := MergeMetrics{SourceRows: 5, Inserted: 1, Updated: 1, Deleted: 1, Copied: 23, FilesAdded: 2, FilesRemoved: 1, FilesScanned: 1, Matched: true}
	got := m
	got.BytesAdded, got.BytesRemoved, got.MaterializeTime, got.ScanTime, got.RewriteTime = 0, 0, 0, 0, 0
	if got != want {
		t.Fatalf("metrics %+v, want %+v", got, want)
	}
	if !res.Committed || res.Operation != "MERGE" || res.Merge == nil || res.Merge.Inserted != 1 {
		t.Fatalf("commit %+v", res)
	}
	rows := tableRows(t, db, root, "id", "v", "seq")
	if len(rows) != 100 || !slices.Contains(rows, "10|u10|2") || !slices.Contains(rows, "11|v11|1") ||
		slices.Contains(rows, "12|v12|1") || !slices.Contains(rows, "500|new|1") {
		t.Fatalf("rows after merge: %d rows, %v", len(rows), rows[:5])
	}
	after := mustSnapshot(t, root)
	kept := 0
	for _, f := range before.Files() {
		if slices.ContainsFunc(after.Files(), func(a *Add) bool { return a.Path == f.Path }) {
			kept++
		}
	}
	if kept != len(before.Files())-1 {
		t.Fatalf("%d of %d files kept, want all but the one holding ids 10-12", kept, len(before.Files()))
	}
	// The rewritten file holds the rows of the old one (ids 0-24 but the
	// deleted 12): its stats are as tight.
	var rewritten int
	for _, f := range after.Files() {
		if slices.ContainsFunc(before.Files(), func(a *Add) bool { return a.Path == f.Path }) {
			continue
		}
		q, err := after.ScanSQL(context.Background(), ScanOptions{Files: []*Add{f}, Columns: []string{"id"}})
		if err != nil {
			t.Fatal(err)
		}
		var n, lo, hi int
		if err := conn.QueryRowContext(context.Background(), "SELECT count(*), min(id), max(id) FROM ("+q+")").Scan(&n, &lo, &hi); err != nil {
			t.Fatal(err)
		}
		if lo < 500 {
			rewritten++
			if n != 24 || lo != 0 || hi != 24 {
				t.Fatalf("the rewritten file holds %d rows, ids %d-%d: want the 24 rows of ids 0-24 but 12", n, lo, hi)
			}
		}
	}
	if rewritten != 1 {
		t.Fatalf("%d rewritten files", rewritten)
	}
	info := commitInfoOf(t, root, res.Version)
	p := info.OperationParameters
	if info.Operation != "MERGE" || p["predicate"] != `["(target.id = source.id)"]` ||
		p["matchedPredicates"] != `[{"actionType":"update","predicate":"source.op IS DISTINCT FROM 'D' AND source.seq > target.seq"},{"actionType":"delete","predicate":"source.op = 'D'"}]` ||
		p["notMatchedBySourcePredicates"] != "[]" {
		t.Fatalf("commitInfo parameters %v", p)
	}
	for k, v := range map[string]string{"numSourceRows": "5", "numTargetRowsInserted": "1", "numTargetRowsUpdated": "1",
		"numTargetRowsDeleted": "1", "numTargetRowsCopied": "23", "numTargetFilesRemoved": "1", "numTargetFilesAdded": "2", "numOutputRows": "25"} {
		if info.OperationMetrics[k] != v {
			t.Errorf("operationMetrics[%s] = %v, want %s (all: %v)", k, info.OperationMetrics[k], v, info.OperationMetrics)
		}
	}
	if *info.IsBlindAppend {
		t.Error("a MERGE is not a blind append")
	}
}

func TestMergeCommits(t *testing.T) {
	src := func(rows string) string { return "SELECT * FROM (VALUES " + rows + ") AS s(id, v, seq, op)" }
	matchedOnly := func(source string) MergeSpec {
		s := upsert(source)
		s.NotMatched = nil
		return s
	}
	for _, tc := range []struct {
		name      string
		spec      MergeSpec
		committed bool
		files     int // files added
	}{
		// As Spark: a MERGE with an insert clause commits when a source
		// row matched (though no row changed: here without rewriting the
		// file) or rows were inserted.
		{"matched, nothing changes", upsert(src("(5::BIGINT, 'x', 0::BIGINT, 'U')")), true, 0},
		{"insert", upsert(src("(900::BIGINT, 'x', 0::BIGINT, 'U')")), true, 1},
		{"empty source", upsert(src("(5::BIGINT, 'x', 0::BIGINT, 'U')") + " WHERE false"), false, 0},
		{"delete of an absent key", upsert(src("(900::BIGINT, 'x', 0::BIGINT, 'D')")), false, 0},
		// A MERGE without insert clause commits only what it changes.
		{"matched only, no clause applies", matchedOnly(src("(5::BIGINT, 'x', 0::BIGINT, 'U')")), false, 0},
		{"matched only, no match", matchedOnly(src("(900::BIGINT, 'x', 5::BIGINT, 'U')")), false, 0},
	} {
		t.Run(tc.name, func(t *testing.T) {
			db := writeTestDB(t)
			conn := mergeConn(t, db)
			root := filepath.Join(t.TempDir(), "t")
			mergeTable(t, db, root, 0, 10, 10, nil, nil)
			res, _ := mustMerge(t, conn, root, tc.spec)
			if res.Committed != tc.committed || res.Metrics.AddedFiles != tc.files || res.Metrics.RemovedFiles != 0 {
				t.Fatalf("committed %v, %d files added, %d removed; want %v, %d, 0", res.Committed, res.Metrics.AddedFiles, res.Metrics.RemovedFiles, tc.committed, tc.files)
			}
		})
	}
}

func TestMergeKeys(t *testing.T) {
	for _, tc := range []struct {
		name     string
		nullSafe bool
		want     []string
	}{
		// NULL = NULL is not TRUE: the NULL-key row is inserted again.
		{"equality", false, []string{"1|a", "NULL|n0", "NULL|n1"}},
		{"null-safe", true, []string{"1|a", "NULL|n1"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			db := writeTestDB(t)
			conn := mergeConn(t, db)
			root := filepath.Join(t.TempDir(), "t")
			mustCreate(t, db, root, "SELECT 1::BIGINT AS id, 'a' AS v", nil, nil)
			mustAppend(t, db, root, "SELECT * FROM (VALUES (1::BIGINT, 'a'), (NULL, 'n0')) AS s(id, v)")
			spec := MergeSpec{Source: "SELECT NULL::BIGINT AS id, 'n1' AS v", Keys: []MergeKey{{"id", "id", tc.nullSafe}},
				Matched:    []MergeClause{{Action: MergeUpdate, Set: []MergeAssignment{{"v", "source.v"}}}},
				NotMatched: []MergeClause{{Action: MergeInsert, Set: []MergeAssignment{{"id", "source.id"}, {"v", "source.v"}}}}}
			mustMerge(t, conn, root, spec)
			if got := tableRows(t, db, root, "id", "v"); !slices.Equal(got, tc.want) {
				t.Fatalf("rows %v, want %v", got, tc.want)
			}
		})
	}
}

func TestMergePartitionedTable(t *testing.T) {
	db := writeTestDB(t)
	conn := mergeConn(t, db)
	root := filepath.Join(t.TempDir(), "t")
	mergeTable(t, db, root, 0, 20, 10, []string{"p"}, nil)
	// Update id 3 and move it to the other partition.
	spec := MergeSpec{Source: "SELECT 3::BIGINT AS id, 0::BIGINT AS p", Keys: []MergeKey{{Target: "p", Source: "p"}, {Target: "id", Source: "id"}},
		Matched: []MergeClause{{Action: MergeUpdate, Set: []MergeAssignment{{"v", "'moved'"}}}}}
	_, m := mustMerge(t, conn, root, spec)
	if m.Updated != 0 || m.FilesRemoved != 0 || m.FilesScanned != 1 {
		t.Fatalf("id 3 is in partition 1: nothing matches in partition 0, whose file of ids 0-8 is read (metrics %+v)", m)
	}
	spec.Source = "SELECT 3::BIGINT AS id, 1::BIGINT AS p"
	_, m = mustMerge(t, conn, root, spec)
	if m.Updated != 1 || m.FilesScanned != 1 || m.FilesRemoved != 1 {
		t.Fatalf("metrics %+v: want the one partition-1 file holding id 3 read and rewritten", m)
	}
	if got := tableRows(t, db, root, "id", "v", "p"); !slices.Contains(got, "3|moved|1") || len(got) != 20 {
		t.Fatalf("rows %v", got)
	}
}

func TestMergeFailures(t *testing.T) {
	for _, tc := range []struct {
		name  string
		props map[string]string
		spec  MergeSpec
		want  error
	}{
		{"two source rows match a target row", nil, MergeSpec{Source: "SELECT * FROM (VALUES (1::BIGINT, 'x'), (1, 'y')) AS s(id, v)",
			Keys: []MergeKey{{"id", "id", false}}, Matched: []MergeClause{{Action: MergeUpdate, Set: []MergeAssignment{{"v", "source.v"}}}}}, ErrMergeMultipleMatches},
		{"unknown column", nil, MergeSpec{Source: "SELECT 1::BIGINT AS id", Keys: []MergeKey{{"id", "id", false}},
			Matched: []MergeClause{{Action: MergeUpdate, Set: []MergeAssignment{{"nope", "1"}}}}}, ErrSchemaMismatch},
		{"NOT NULL", nil, MergeSpec{Source: "SELECT 1::BIGINT AS id", Keys: []MergeKey{{"id", "id", false}},
			Matched: []MergeClause{{Action: MergeUpdate, Set: []MergeAssignment{{"seq", "NULL"}}}}}, ErrConstraintViolation},
		{"append-only", map[string]string{PropAppendOnly: "true"}, MergeSpec{Source: "SELECT 1::BIGINT AS id", Keys: []MergeKey{{"id", "id", false}},
			Matched: []MergeClause{{Action: MergeDelete}}}, ErrAppendOnly},
	} {
		t.Run(tc.name, func(t *testing.T) {
			db := writeTestDB(t)
			conn := mergeConn(t, db)
			root := filepath.Join(t.TempDir(), "t")
			schema, err := QuerySchema(context.Background(), db, rangeQuery(0, 1, "'v' AS v, 1::BIGINT AS seq"))
			if err != nil {
				t.Fatal(err)
			}
			schema.Fields[2].Nullable = false
			if _, err := Create(context.Background(), root, TableDefinition{Schema: schema, Properties: tc.props}, WriteOptions{}); err != nil {
				t.Fatal(err)
			}
			mustAppend(t, db, root, rangeQuery(0, 10, "'v' AS v, 1::BIGINT AS seq"))
			files := dataFiles(t, root)
			tx, err := mustSnapshot(t, root).Begin(WriteOptions{})
			if err != nil {
				t.Fatal(err)
			}
			_, err = tx.Merge(context.Background(), conn, tc.spec)
			if !errors.Is(err, tc.want) {
				t.Fatalf("error %v, want %v", err, tc.want)
			}
			tx.Abort()
			if got := dataFiles(t, root); !slices.Equal(got, files) {
				t.Fatalf("a failed merge left files: %v, before %v", got, files)
			}
			var temps int
			if err := conn.QueryRowContext(context.Background(), "SELECT count(*) FROM duckdb_tables() WHERE table_name LIKE '__laktory_merge_%'").Scan(&temps); err != nil || temps != 0 {
				t.Fatalf("%d temporary tables left (%v)", temps, err)
			}
		})
	}
}

func TestMergeUnconditionalDeleteOfRowMatchedTwice(t *testing.T) {
	db := writeTestDB(t)
	conn := mergeConn(t, db)
	root := filepath.Join(t.TempDir(), "t")
	mergeTable(t, db, root, 0, 10, 10, nil, nil)
	_, m := mustMerge(t, conn, root, MergeSpec{Source: "SELECT * FROM (VALUES (1::BIGINT), (1)) AS s(id)",
		Keys: []MergeKey{{"id", "id", false}}, Matched: []MergeClause{{Action: MergeDelete}}})
	if m.Deleted != 1 || len(tableRows(t, db, root, "id")) != 9 {
		t.Fatalf("metrics %+v", m)
	}
}

func TestMergeConflicts(t *testing.T) {
	for _, tc := range []struct {
		name   string
		winner func(t *testing.T, db *sql.DB, root string)
		want   error // nil: the merge commits after the winner
	}{
		{"append of a key the merge reads", func(t *testing.T, db *sql.DB, root string) {
			mustAppend(t, db, root, "SELECT 15::BIGINT AS id, 'w' AS v, 1::BIGINT AS seq")
		}, ErrConcurrentAppend},
		{"append outside the merge's keys", func(t *testing.T, db *sql.DB, root string) {
			mustAppend(t, db, root, "SELECT 1000::BIGINT AS id, 'w' AS v, 1::BIGINT AS seq")
		}, nil},
		{"delete of a file the merge read", func(t *testing.T, db *sql.DB, root string) {
			if _, err := Delete(context.Background(), db, root, "id >= 10 AND id < 20", WriteOptions{}); err != nil {
				t.Fatal(err)
			}
		}, ErrConcurrentDeleteRead},
		{"delete in a file the merge did not read", func(t *testing.T, db *sql.DB, root string) {
			if _, err := Delete(context.Background(), db, root, "id = 1", WriteOptions{}); err != nil {
				t.Fatal(err)
			}
		}, nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			db := writeTestDB(t)
			conn := mergeConn(t, db)
			root := filepath.Join(t.TempDir(), "t")
			mergeTable(t, db, root, 0, 20, 10, nil, nil)
			tx, err := mustSnapshot(t, root).Begin(WriteOptions{})
			if err != nil {
				t.Fatal(err)
			}
			// Matches rows 12 and 18 but changes none: the merge reads the
			// file of ids 10-19 and writes nothing.
			src := "SELECT * FROM (VALUES (12::BIGINT, 'u', 0::BIGINT, 'U'), (18, 'u', 0, 'U')) AS s(id, v, seq, op)"
			if _, err := tx.Merge(context.Background(), conn, upsert(src)); err != nil {
				t.Fatal(err)
			}
			tc.winner(t, db, root)
			res, err := tx.Commit(context.Background())
			if tc.want == nil {
				if err != nil || !res.Committed || res.Rebases != 1 {
					t.Fatalf("commit %+v, %v: want a rebase over the winner", res, err)
				}
				return
			}
			if !errors.Is(err, tc.want) || !IsRetryable(err) {
				t.Fatalf("commit error %v, want %v", err, tc.want)
			}
		})
	}
}

func TestMergeDeletionVectorFile(t *testing.T) {
	db := writeTestDB(t)
	conn := mergeConn(t, db)
	root := t.TempDir()
	writeParquet(t, db, root, "a.parquet", "SELECT range AS id, 'v' AS v FROM range(6)")
	dv, err := InlineDeletionVector([]uint64{0, 4})
	if err != nil {
		t.Fatal(err)
	}
	writeCommit(t, root, 0, protocolAction(3, 7, FeatureDeletionVectors),
		metadataAction(`{"type":"struct","fields":[{"name":"id","type":"long","nullable":true,"metadata":{}},{"name":"v","type":"string","nullable":true,"metadata":{}}]}`, nil, nil),
		Action{Add: &Add{Path: "a.parquet", Size: 1, DataChange: true, DeletionVector: dv, Stats: `{"numRecords":6}`}})
	// Rows 0 and 4 are deleted: 4 matches nothing, 3 is updated, and the
	// rewritten file leaves the deleted rows out.
	_, m := mustMerge(t, conn, root, MergeSpec{Source: "SELECT * FROM (VALUES (3::BIGINT, 'new'), (4, 'again')) AS s(id, v)",
		Keys: []MergeKey{{"id", "id", false}}, Matched: []MergeClause{{Action: MergeUpdate, Set: []MergeAssignment{{"v", "source.v"}}}},
		NotMatched: []MergeClause{{Action: MergeInsert, Set: []MergeAssignment{{"id", "source.id"}, {"v", "source.v"}}}}})
	if m.Updated != 1 || m.Inserted != 1 || m.Copied != 3 {
		t.Fatalf("metrics %+v", m)
	}
	want := []string{"1|v", "2|v", "3|new", "4|again", "5|v"}
	if got := tableRows(t, db, root, "id", "v"); !slices.Equal(got, want) {
		t.Fatalf("rows %v, want %v", got, want)
	}
}

func TestMergeWritesDeletionVectors(t *testing.T) {
	db := writeTestDB(t)
	conn := mergeConn(t, db)
	root := filepath.Join(t.TempDir(), "t")
	mergeTable(t, db, root, 0, 100, 50, nil, map[string]string{PropEnableDeletionVectors: "true"})
	before := mustSnapshot(t, root)
	src := `SELECT * FROM (VALUES (10::BIGINT, 'u10', 2::BIGINT, 'U'), (30, 'u30', 2, 'U'), (12, NULL, 0, 'D'),
		(500, 'new', 1, 'I')) AS s(id, v, seq, op)`
	res, m := mustMerge(t, conn, root, upsert(src))
	if m.Updated != 2 || m.Deleted != 1 || m.Inserted != 1 || m.DeletionVectors != 1 || m.FilesRemoved != 0 || m.Copied != 0 || m.FilesAdded != 2 {
		t.Fatalf("metrics %+v: want the file of ids 0-49 marked in a DV, the updated and inserted rows in new files", m)
	}
	info := commitInfoOf(t, root, res.Version)
	if info.OperationMetrics["numTargetDeletionVectorsAdded"] != "1" || info.OperationMetrics["numTargetRowsCopied"] != "0" {
		t.Fatalf("operationMetrics %v", info.OperationMetrics)
	}
	after := mustSnapshot(t, root)
	if len(after.Files()) != len(before.Files())+2 {
		t.Fatalf("%d files, want the %d files (one with a DV) and 2 new", len(after.Files()), len(before.Files()))
	}
	rows := tableRows(t, db, root, "id", "v", "seq")
	if len(rows) != 100 || !slices.Contains(rows, "10|u10|2") || !slices.Contains(rows, "30|u30|2") || slices.Contains(rows, "12|v12|1") ||
		slices.Contains(rows, "10|v10|1") || !slices.Contains(rows, "500|new|1") {
		t.Fatalf("rows: %d %v", len(rows), rows[:5])
	}
	// A second merge extends the file's DV; deleting every live row of a
	// file removes it.
	_, m = mustMerge(t, conn, root, upsert(`SELECT 11::BIGINT AS id, NULL AS v, 0::BIGINT AS seq, 'D' AS op`))
	if m.Deleted != 1 || m.DeletionVectors != 1 {
		t.Fatalf("second merge %+v", m)
	}
	if got := tableRows(t, db, root, "id"); len(got) != 99 || slices.Contains(got, "11") {
		t.Fatalf("rows after the second merge: %d", len(got))
	}
	_, m = mustMerge(t, conn, root, upsert(`SELECT id, NULL AS v, 0::BIGINT AS seq, 'D' AS op FROM range(50, 100) r(id)`))
	if m.Deleted != 50 || m.FilesRemoved != 1 || m.DeletionVectors != 0 {
		t.Fatalf("deleting a whole file: %+v", m)
	}
}

func TestKeyScanSQL(t *testing.T) {
	db := writeTestDB(t)
	conn := mergeConn(t, db)
	root := filepath.Join(t.TempDir(), "t")
	mergeTable(t, db, root, 0, 40, 10, nil, nil)
	if _, err := conn.ExecContext(context.Background(), "CREATE TEMP TABLE keys AS SELECT 12::BIGINT AS k UNION ALL SELECT 17"); err != nil {
		t.Fatal(err)
	}
	tx, err := mustSnapshot(t, root).Begin(WriteOptions{})
	if err != nil {
		t.Fatal(err)
	}
	scan, err := tx.KeyScanSQL(context.Background(), conn, "keys", []MergeKey{{Target: "id", Source: "k"}}, []string{"id"})
	if err != nil {
		t.Fatal(err)
	}
	var n, lo, hi int64
	if err := conn.QueryRowContext(context.Background(), "SELECT count(*), min(id), max(id) FROM ("+scan+")").Scan(&n, &lo, &hi); err != nil {
		t.Fatal(err)
	}
	if n != 10 || lo != 10 || hi != 19 {
		t.Fatalf("scanned %d rows (%d-%d), want the file of ids 10-19 only", n, lo, hi)
	}
	// The transaction read that file: its concurrent removal conflicts.
	if _, err := Delete(context.Background(), db, root, "id >= 10 AND id < 20", WriteOptions{}); err != nil {
		t.Fatal(err)
	}
	if _, err := tx.Append(context.Background(), conn, "SELECT 100::BIGINT AS id, 'x' AS v, 1::BIGINT AS seq"); err != nil {
		t.Fatal(err)
	}
	if _, err := tx.Commit(context.Background()); !errors.Is(err, ErrConcurrentDeleteRead) {
		t.Fatalf("commit: %v, want a conflict on the file the key scan read", err)
	}
}
