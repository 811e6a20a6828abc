package delta

import (
	"context"
	"database/sql"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// Interop of the write path with delta-rs and polars (run through
// $LAKTORY_PYTHON): tables this package writes are read by both with the
// same rows, schema and partition values; tables they write are read,
// deleted from and appended to here, and read back by them.

// interopReport is what write_interop_check.py prints.
type interopReport struct {
	Version         int64             `json:"version"`
	Rows            int               `json:"rows"`
	Columns         map[string]string `json:"columns"`
	PartitionValues []string          `json:"partition_values"`
	Files           int               `json:"files"`
	DeltaRSReader   string            `json:"deltars_reader"`
	Polars          string            `json:"polars"`
}

// What polars 1.32.0 (the version laktory[polars] 0.13.1 installs, so the
// reader of a Laktory POLARS pipeline) says of tables it cannot read: it
// refuses the reader features column mapping and deletion vectors, and
// fails on map columns. delta-rs reads all of them.
const (
	polarsNoColumnMapping   = "unsupported: The table has set these reader features: {'columnMapping'}"
	polarsNoDeletionVectors = "unsupported: The table has set these reader features: {'deletionVectors'}"
	polarsNoMaps            = "unsupported: data type mismatch for column m"
)

// checkWithPython makes delta-rs and polars read the table (at version,
// or the latest when version < 0) and compare it with the expected
// parquet file.
func checkWithPython(t *testing.T, root, expected string, version int64) interopReport {
	t.Helper()
	args := []string{filepath.Join("testdata", "write_interop_check.py"), root, expected}
	if version >= 0 {
		args = append(args, fmt.Sprint(version))
	}
	out := runPythonOutput(t, args...)
	var r interopReport
	if err := json.Unmarshal([]byte(out), &r); err != nil {
		t.Fatalf("report %q: %v", out, err)
	}
	return r
}

// runPythonOutput runs the interop Python and returns its stdout; a
// failure fails the test with stderr.
func runPythonOutput(t *testing.T, args ...string) string {
	t.Helper()
	py := interopPython(t)
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, py, args...)
	var stderr strings.Builder
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("%s: %v\n%s%s", strings.Join(args, " "), err, out, stderr.String())
	}
	return strings.TrimSpace(string(out))
}

// copyToParquet writes the rows of query to a parquet file.
func copyToParquet(t *testing.T, db *sql.DB, query, path string) {
	t.Helper()
	if _, err := db.ExecContext(context.Background(), "COPY ("+query+") TO "+quoteString(path)+" (FORMAT parquet)"); err != nil {
		t.Fatalf("%v\n%s", err, query)
	}
}

// assertSameRows compares the table's rows (as this package reads them)
// with the rows of a parquet file, as multisets of VARCHAR renderings.
func assertSameRows(t *testing.T, db *sql.DB, s *Snapshot, expected string) {
	t.Helper()
	scan, err := s.ScanSQL(context.Background(), ScanOptions{})
	if err != nil {
		t.Fatal(err)
	}
	cols := make([]string, 0, len(s.Schema().Fields))
	for _, f := range s.Schema().Fields {
		cols = append(cols, "CAST("+quoteIdent(f.Name)+" AS VARCHAR)")
	}
	list := strings.Join(cols, ", ")
	a := "SELECT " + list + " FROM (" + scan + ")"
	b := "SELECT " + list + " FROM read_parquet(" + quoteString(expected) + ")"
	var extra, missing int64
	if err := db.QueryRow("SELECT count(*) FROM (" + a + " EXCEPT ALL " + b + ")").Scan(&extra); err != nil {
		t.Fatal(err)
	}
	if err := db.QueryRow("SELECT count(*) FROM (" + b + " EXCEPT ALL " + a + ")").Scan(&missing); err != nil {
		t.Fatal(err)
	}
	if extra != 0 || missing != 0 {
		t.Fatalf("table %s (version %d): %d rows not expected, %d expected rows missing", s.Root(), s.Version(), extra, missing)
	}
}

// interopSource is a DuckDB query over range(from, to) with the column
// types interop covers: a partition string with special characters, the
// empty string and NULL; timestamps with and without zone; decimals;
// dates; booleans; doubles; a struct (sometimes NULL); a list; a map;
// binary.
func interopSource(from, to int) string {
	return fmt.Sprintf(`SELECT i::BIGINT AS id,
  CASE i %% 12 WHEN 0 THEN 'a/b' WHEN 1 THEN 'with space' WHEN 2 THEN '100%%' WHEN 3 THEN 'k=v'
    WHEN 4 THEN 'ünïcødé ✓' WHEN 5 THEN 'q''uote"d' WHEN 6 THEN 'a:b#c?d*e[f]{g}^' WHEN 7 THEN 'back\slash'
    WHEN 8 THEN '' WHEN 9 THEN NULL WHEN 10 THEN 'plain' ELSE 'x,y;z' END AS part,
  (i * 7)::INTEGER AS n,
  TIMESTAMPTZ '2024-01-01 00:00:00+00' + i * INTERVAL 1 SECOND + i * INTERVAL 1 MICROSECOND AS ts,
  TIMESTAMP '2024-06-01 12:00:00' + i * INTERVAL 1 MINUTE AS ntz,
  (i / 8)::DECIMAL(18,3) AS dec,
  DATE '2024-01-01' + (i %% 30)::INTEGER AS d,
  i %% 3 = 0 AS flag,
  i / 3.0 AS f,
  CASE WHEN i %% 5 = 0 THEN NULL ELSE {'a': i::INTEGER, 'b': 'b' || i} END AS st,
  [i::INTEGER, (i + 1)::INTEGER] AS l,
  MAP {'k' || (i %% 3): i::INTEGER} AS m,
  encode('bin' || i) AS bin
FROM range(%d, %d) t(i)`, from, to)
}

// expectedOf is the source as a table stores it: the empty partition
// string reads as NULL.
func expectedOf(source string) string {
	return "SELECT * REPLACE (NULLIF(part, '') AS part) FROM (" + source + ")"
}

func TestInteropWeWriteTheyRead(t *testing.T) {
	interopPython(t)
	ctx := context.Background()
	db := writeTestDB(t)
	dir := t.TempDir()
	root := filepath.Join(dir, "table")

	// Version 0: create the table from a query (CTAS) with a checkpoint
	// every 3 commits.
	tx, err := BeginCreate(root, TableDefinition{PartitionColumns: []string{"part"},
		Properties: map[string]string{PropCheckpointInterval: "3"}, Name: "interop", Description: "written by laktory"}, WriteOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := tx.Append(ctx, db, interopSource(0, 200)); err != nil {
		t.Fatal(err)
	}
	if _, err := tx.Commit(ctx); err != nil {
		t.Fatal(err)
	}
	mustAppend(t, db, root, interopSource(200, 400)) // v1
	v1 := filepath.Join(dir, "expected_v1.parquet")
	copyToParquet(t, db, expectedOf(interopSource(0, 400)), v1)

	if _, err := Delete(ctx, db, root, "part = 'a/b'", WriteOptions{}); err != nil { // v2, partition-only
		t.Fatal(err)
	}
	res, err := Delete(ctx, db, root, "(n % 3 = 0 AND part IS NULL) OR id BETWEEN 10 AND 20 OR st.b LIKE 'b3%'", WriteOptions{}) // v3
	if err != nil {
		t.Fatal(err)
	}
	if res.Checkpoint == "" || res.CheckpointErr != nil {
		t.Fatalf("no checkpoint at version 3: %+v", res)
	}
	mustAppend(t, db, root, interopSource(400, 450)) // v4
	latest := filepath.Join(dir, "expected_latest.parquet")
	copyToParquet(t, db, "SELECT * FROM ("+expectedOf(interopSource(0, 400))+") WHERE part IS DISTINCT FROM 'a/b' AND "+
		"((n % 3 = 0 AND part IS NULL) OR id BETWEEN 10 AND 20 OR st.b LIKE 'b3%') IS NOT TRUE UNION ALL "+expectedOf(interopSource(400, 450)), latest)

	s := mustSnapshot(t, root)
	if s.Version() != 4 || s.CheckpointVersion() != 3 {
		t.Fatalf("version %d from checkpoint %d, want 4 from 3", s.Version(), s.CheckpointVersion())
	}
	assertSameRows(t, db, s, latest)
	rep := checkWithPython(t, root, latest, -1)
	if rep.Version != 4 {
		t.Errorf("delta-rs sees version %d", rep.Version)
	}
	if !strings.HasPrefix(rep.Polars, polarsNoMaps) {
		t.Errorf("polars: %s, want %s", rep.Polars, polarsNoMaps)
	}
	for _, want := range []string{`{"part": "100%"}`, `{"part": "a:b#c?d*e[f]{g}^"}`, `{"part": "back\\slash"}`, `{"part": "q'uote\"d"}`,
		`{"part": "with space"}`, `{"part": "x,y;z"}`, `{"part": "\u00fcn\u00efc\u00f8d\u00e9 \u2713"}`, `{"part": null}`} {
		if !strings.Contains(strings.Join(rep.PartitionValues, "\n"), want) {
			t.Errorf("delta-rs partition values %v lack %s", rep.PartitionValues, want)
		}
	}
	if rep.Columns["ts"] != "timestamp[utc]" || rep.Columns["ntz"] != "timestamp[ntz]" || rep.Columns["dec"] != "decimal128(18, 3)" ||
		rep.Columns["m"] != "map<string,int32>" || !strings.HasPrefix(rep.Columns["st"], "struct<a:int32,b:string>") {
		t.Errorf("delta-rs types %v", rep.Columns)
	}
	checkWithPython(t, root, v1, 1) // time travel to version 1

	// Without the commits before it, readers must use our checkpoint.
	for v := int64(0); v < 3; v++ {
		if err := os.Remove(filepath.Join(root, LogDirName, CommitFileName(v))); err != nil {
			t.Fatal(err)
		}
	}
	if rep := checkWithPython(t, root, latest, -1); rep.Version != 4 {
		t.Errorf("from the checkpoint delta-rs sees version %d", rep.Version)
	}
	assertSameRows(t, db, mustSnapshot(t, root), latest)

	// Truncate: both read an empty table with the same schema.
	if _, err := Truncate(ctx, root, WriteOptions{}); err != nil {
		t.Fatal(err)
	}
	empty := filepath.Join(dir, "expected_empty.parquet")
	copyToParquet(t, db, expectedOf(interopSource(0, 0)), empty)
	if rep := checkWithPython(t, root, empty, -1); rep.Rows != 0 || rep.Files != 0 {
		t.Fatalf("after truncate: %+v", rep)
	}
}

// TestInteropPartitionTypes writes a table partitioned by a column of
// every partitionable type (nulls included) and has delta-rs and polars
// read the partition values back. (No negative decimal with a fraction:
// delta-rs 1.6 cannot parse "-1.25" as a partition value, even its own.)
func TestInteropPartitionTypes(t *testing.T) {
	interopPython(t)
	ctx := context.Background()
	db := writeTestDB(t)
	dir := t.TempDir()
	root := filepath.Join(dir, "table")
	source := `SELECT i::BIGINT AS id,
  CASE WHEN i % 4 = 3 THEN NULL ELSE DATE '2024-02-28' + (i % 3)::INTEGER END AS pd,
  CASE WHEN i % 4 = 3 THEN NULL ELSE (i % 3 - 1)::INTEGER END AS pi,
  CASE WHEN i % 4 = 3 THEN NULL ELSE TIMESTAMPTZ '2024-03-10 01:59:59.123456+00' + (i % 3) * INTERVAL 1 HOUR END AS pts,
  CASE WHEN i % 4 = 3 THEN NULL ELSE TIMESTAMP '2024-03-10 02:30:00' + (i % 3) * INTERVAL 1 DAY END AS pntz,
  CASE i % 4 WHEN 3 THEN NULL WHEN 0 THEN -3 WHEN 1 THEN 0.05 ELSE 12.5 END::DECIMAL(10,2) AS pdec,
  CASE WHEN i % 4 = 3 THEN NULL ELSE i % 2 = 0 END AS pb,
  CASE WHEN i % 4 = 3 THEN NULL ELSE (i % 3)::TINYINT END AS ptiny,
  CASE WHEN i % 4 = 3 THEN NULL ELSE (i % 3) / 4.0 END AS pdbl
FROM range(0, 48) t(i)`
	tx, err := BeginCreate(root, TableDefinition{PartitionColumns: []string{"pd", "pi", "pts", "pntz", "pdec", "pb", "ptiny", "pdbl"}}, WriteOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := tx.Append(ctx, db, source); err != nil {
		t.Fatal(err)
	}
	if _, err := tx.Commit(ctx); err != nil {
		t.Fatal(err)
	}
	expected := filepath.Join(dir, "expected.parquet")
	copyToParquet(t, db, source, expected)
	assertSameRows(t, db, mustSnapshot(t, root), expected)
	checkWithPython(t, root, expected, -1)
	// Partition-only deletes on typed partition values.
	if _, err := Delete(ctx, db, root, "pts = TIMESTAMPTZ '2024-03-10 02:59:59.123456+00' OR pd IS NULL", WriteOptions{}); err != nil {
		t.Fatal(err)
	}
	copyToParquet(t, db, "SELECT * FROM ("+source+") WHERE (pts = TIMESTAMPTZ '2024-03-10 02:59:59.123456+00' OR pd IS NULL) IS NOT TRUE", expected)
	checkWithPython(t, root, expected, -1)
}

// TestInteropTheyWriteWeRead reads tables written by delta-rs (partitioned,
// with a delete and a checkpoint) and by polars, deletes from and appends
// to them, and has delta-rs and polars read the result.
func TestInteropTheyWriteWeRead(t *testing.T) {
	interopPython(t)
	ctx := context.Background()
	db := writeTestDB(t)
	dir := t.TempDir()
	runPythonOutput(t, filepath.Join("testdata", "write_interop_write.py"), dir)

	for _, tc := range []struct {
		name, pred, appendSQL string
	}{
		{"deltars", "part = 'with space' OR id IN (1, 2, 50) OR info.a > 100",
			`SELECT id + 1000 AS id, part, ts, ntz, amount, day, info, tags, attrs FROM read_parquet('%s') WHERE id < 20`},
		{"polars", "name IS NULL OR value BETWEEN 10 AND 20",
			`SELECT id + 5000 AS id, name, ts, value FROM read_parquet('%s') WHERE id < 10`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			root := filepath.Join(dir, tc.name)
			theirs := filepath.Join(dir, tc.name+"_expected.parquet")
			s := mustSnapshot(t, root)
			assertSameRows(t, db, s, theirs)

			// Delete and append in one commit, as a full refresh does.
			tx, err := s.Begin(WriteOptions{})
			if err != nil {
				t.Fatal(err)
			}
			dm, err := tx.Delete(ctx, db, tc.pred)
			if err != nil {
				t.Fatal(err)
			}
			if dm.DeletedRows == 0 {
				t.Fatal("the predicate matched no row")
			}
			appendSQL := fmt.Sprintf(tc.appendSQL, theirs)
			if _, err := tx.Append(ctx, db, appendSQL); err != nil {
				t.Fatal(err)
			}
			res, err := tx.Commit(ctx)
			if err != nil {
				t.Fatal(err)
			}
			if res.Operation != "WRITE" {
				t.Errorf("operation %s", res.Operation)
			}
			expected := filepath.Join(dir, tc.name+"_after.parquet")
			copyToParquet(t, db, "SELECT * FROM read_parquet('"+theirs+"') WHERE ("+tc.pred+") IS NOT TRUE UNION ALL "+appendSQL, expected)
			assertSameRows(t, db, mustSnapshot(t, root), expected)
			rep := checkWithPython(t, root, expected, -1)
			if rep.Version != res.Version {
				t.Errorf("delta-rs sees version %d, committed %d", rep.Version, res.Version)
			}
		})
	}
}

// TestInteropTableFeatures writes tables whose properties raise the
// protocol (column mapping by name with names Spark refuses otherwise,
// deletion vectors enabled, in-commit timestamps) and has delta-rs and
// polars read them after an append, a schema merge and a delete.
func TestInteropTableFeatures(t *testing.T) {
	interopPython(t)
	ctx := context.Background()
	db := writeTestDB(t)
	for _, tc := range []struct {
		name   string
		props  map[string]string
		polars string // "ok", or the start of why polars refuses the table
	}{
		{"column mapping", map[string]string{PropColumnMappingMode: "name"}, polarsNoColumnMapping},
		{"deletion vectors", map[string]string{PropEnableDeletionVectors: "true"}, polarsNoDeletionVectors},
		{"in-commit timestamps", map[string]string{PropEnableInCommitTS: "true"}, "ok"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			root := filepath.Join(dir, "table")
			first := `SELECT i::BIGINT AS id, 'w' || (i % 3) AS "writer", {'x': i::INTEGER} AS st FROM range(30) t(i)`
			second := `SELECT i::BIGINT AS id, 'w' || (i % 3) AS "writer", {'x': i::INTEGER} AS st, 'n' || i AS note FROM range(30, 40) t(i)`
			if tc.props[PropColumnMappingMode] != "" {
				first = strings.ReplaceAll(first, `"writer"`, `"the writer"`)
				second = strings.ReplaceAll(second, `"writer"`, `"the writer"`)
			}
			tx, err := BeginCreate(root, TableDefinition{Properties: tc.props}, WriteOptions{})
			if err != nil {
				t.Fatal(err)
			}
			if _, err := tx.Append(ctx, db, first); err != nil {
				t.Fatal(err)
			}
			if _, err := tx.Commit(ctx); err != nil {
				t.Fatal(err)
			}
			if _, err := Append(ctx, db, root, second, WriteOptions{MergeSchema: true}); err != nil {
				t.Fatal(err)
			}
			if _, err := Delete(ctx, db, root, "id % 4 = 0", WriteOptions{}); err != nil {
				t.Fatal(err)
			}
			expected := filepath.Join(dir, "expected.parquet")
			copyToParquet(t, db, "SELECT * FROM ("+first+" UNION ALL BY NAME "+second+") WHERE id % 4 <> 0", expected)
			assertSameRows(t, db, mustSnapshot(t, root), expected)
			rep := checkWithPython(t, root, expected, -1)
			if !strings.HasPrefix(rep.Polars, tc.polars) {
				t.Errorf("polars: %s, want %s", rep.Polars, tc.polars)
			}
		})
	}
}

// TestInteropDeletionVectors: delta-rs and polars read the deletion
// vectors our deletes write, on disk and inline, merged over two deletes
// (delta-rs 1.6's pyarrow path refuses the table: it reads it through
// DataFusion), and the table our optimize compacts.
func TestInteropDeletionVectors(t *testing.T) {
	interopPython(t)
	ctx := context.Background()
	db := writeTestDB(t)
	dir := t.TempDir()
	root := filepath.Join(dir, "table")
	big := interopSource(0, 20000)
	tx, err := BeginCreate(root, TableDefinition{Properties: map[string]string{PropEnableDeletionVectors: "true"}}, WriteOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := tx.Append(ctx, db, big); err != nil {
		t.Fatal(err)
	}
	if _, err := tx.Commit(ctx); err != nil {
		t.Fatal(err)
	}
	mustAppend(t, db, root, interopSource(20000, 20010))
	first, second := "n % 3 = 0 OR id = 20001", "id BETWEEN 100 AND 5000 OR id = 20005"
	for _, pred := range []string{first, second} {
		res, err := Delete(ctx, db, root, pred, WriteOptions{})
		if err != nil {
			t.Fatal(err)
		}
		if res.Metrics.CopiedRows != 0 || res.Metrics.AddedFiles != 0 {
			t.Fatalf("delete %q rewrote rows: %+v", pred, res.Metrics)
		}
	}
	kinds := map[string]bool{}
	for _, f := range mustSnapshot(t, root).Files() {
		if f.DeletionVector != nil {
			kinds[f.DeletionVector.StorageType] = true
		}
	}
	if !kinds["u"] || !kinds["i"] {
		t.Fatalf("DV storage types %v, want on disk and inline", kinds)
	}
	expected := filepath.Join(dir, "expected.parquet")
	copyToParquet(t, db, "SELECT * FROM ("+interopSource(0, 20010)+") WHERE NOT ("+first+") AND NOT ("+second+")", expected)
	assertSameRows(t, db, mustSnapshot(t, root), expected)
	rep := checkWithPython(t, root, expected, -1)
	if rep.DeltaRSReader != "datafusion" || !strings.HasPrefix(rep.Polars, polarsNoDeletionVectors) {
		t.Errorf("readers: delta-rs %s, polars %s", rep.DeltaRSReader, rep.Polars)
	}

	// Optimize purges the hidden rows and compacts the two files: both
	// read the same rows again.
	res, m, err := Optimize(ctx, db, root, OptimizeOptions{}, WriteOptions{})
	if err != nil || !res.Committed || m.FilesAdded != 1 || m.DeletionVectorsRemoved != 2 {
		t.Fatalf("optimize: %+v, %v", m, err)
	}
	if rep := checkWithPython(t, root, expected, -1); rep.Files != 1 {
		t.Errorf("after optimize delta-rs sees %d files", rep.Files)
	}
}

// TestInteropMerge: delta-rs and polars read what a MERGE (updates,
// deletes and inserts) leaves, rewritten files or deletion vectors.
func TestInteropMerge(t *testing.T) {
	interopPython(t)
	for name, props := range map[string]map[string]string{"rewrite": nil, "deletion vectors": {PropEnableDeletionVectors: "true"}} {
		t.Run(name, func(t *testing.T) {
			ctx := context.Background()
			db := writeTestDB(t)
			conn, err := db.Conn(ctx)
			if err != nil {
				t.Fatal(err)
			}
			defer conn.Close()
			dir := t.TempDir()
			root := filepath.Join(dir, "table")
			tx, err := BeginCreate(root, TableDefinition{Properties: props}, WriteOptions{})
			if err != nil {
				t.Fatal(err)
			}
			if _, err := tx.Append(ctx, db, interopSource(0, 5000)); err != nil {
				t.Fatal(err)
			}
			if _, err := tx.Commit(ctx); err != nil {
				t.Fatal(err)
			}
			// Update every 7th id below 2000, delete every 11th, insert
			// 5000-5099.
			src := "SELECT * REPLACE (n + 1 AS n), CASE WHEN id % 11 = 0 THEN 'D' ELSE 'U' END AS op FROM (" + interopSource(0, 5100) +
				") WHERE (id < 2000 AND (id % 7 = 0 OR id % 11 = 0)) OR id >= 5000"
			cols := []string{"id", "part", "n", "ts", "ntz", "dec", "d", "flag", "f", "st", "l", "m", "bin"}
			var set, values []MergeAssignment
			for _, c := range cols {
				values = append(values, MergeAssignment{Column: c, Expr: "source." + c})
				if c != "id" {
					set = append(set, MergeAssignment{Column: c, Expr: "source." + c})
				}
			}
			spec := MergeSpec{Source: src, Keys: []MergeKey{{Target: "id", Source: "id"}},
				Matched:    []MergeClause{{Action: MergeUpdate, Condition: "source.op = 'U'", Set: set}, {Action: MergeDelete, Condition: "source.op = 'D'"}},
				NotMatched: []MergeClause{{Action: MergeInsert, Set: values}}}
			if _, m := mustMerge(t, conn, root, spec); m.Inserted != 100 || m.Deleted == 0 || m.Updated == 0 || (props != nil) != (m.DeletionVectors > 0) {
				t.Fatalf("merge metrics %+v", m)
			}
			expected := filepath.Join(dir, "expected.parquet")
			copyToParquet(t, db, "SELECT * REPLACE (CASE WHEN (id < 2000 AND id % 7 = 0) OR id >= 5000 THEN n + 1 ELSE n END AS n) FROM ("+interopSource(0, 5100)+
				") WHERE NOT (id < 2000 AND id % 11 = 0)", expected)
			assertSameRows(t, db, mustSnapshot(t, root), expected)
			// interopSource has a map column, which polars 1.32.0 cannot
			// read; with deletion vectors it refuses the table first.
			want := polarsNoMaps
			if props != nil {
				want = polarsNoDeletionVectors
			}
			if rep := checkWithPython(t, root, expected, -1); !strings.HasPrefix(rep.Polars, want) {
				t.Errorf("polars: %s, want %s", rep.Polars, want)
			}
		})
	}
}
