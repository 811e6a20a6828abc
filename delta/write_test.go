package delta

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strconv"
	"strings"
	"testing"
)

func TestCreateProtocol(t *testing.T) {
	plain := &StructType{Fields: []*StructField{{Name: "id", Type: LongType, Nullable: true}}}
	ntz := &StructType{Fields: []*StructField{{Name: "id", Type: LongType, Nullable: true}, {Name: "at", Type: TimestampNTZType, Nullable: true}}}
	tests := []struct {
		name    string
		schema  *StructType
		props   map[string]string
		want    Protocol
		wantErr error
	}{
		{"default is (1, 2)", plain, nil, Protocol{MinReaderVersion: 1, MinWriterVersion: 2}, nil},
		{"CHECK constraints need writer 3", plain, map[string]string{"delta.constraints.pos": "id > 0"}, Protocol{MinReaderVersion: 1, MinWriterVersion: 3}, nil},
		{"deletion vectors", plain, map[string]string{PropEnableDeletionVectors: "true"},
			Protocol{MinReaderVersion: 3, MinWriterVersion: 7, ReaderFeatures: []string{"deletionVectors"}, WriterFeatures: []string{"deletionVectors"}}, nil},
		{"deletion vectors off stays (1, 2)", plain, map[string]string{PropEnableDeletionVectors: "false"}, Protocol{MinReaderVersion: 1, MinWriterVersion: 2}, nil},
		{"type widening", plain, map[string]string{PropEnableTypeWidening: "true"},
			Protocol{MinReaderVersion: 3, MinWriterVersion: 7, ReaderFeatures: []string{"typeWidening"}, WriterFeatures: []string{"typeWidening"}}, nil},
		{"timestamp_ntz column", ntz, nil,
			Protocol{MinReaderVersion: 3, MinWriterVersion: 7, ReaderFeatures: []string{"timestampNtz"}, WriterFeatures: []string{"timestampNtz"}}, nil},
		{"column mapping", plain, map[string]string{PropColumnMappingMode: "name"},
			Protocol{MinReaderVersion: 3, MinWriterVersion: 7, ReaderFeatures: []string{"columnMapping"}, WriterFeatures: []string{"columnMapping"}}, nil},
		{"features keep appendOnly and constraints", ntz, map[string]string{PropAppendOnly: "true", "delta.constraints.pos": "id > 0"},
			Protocol{MinReaderVersion: 3, MinWriterVersion: 7, ReaderFeatures: []string{"timestampNtz"},
				WriterFeatures: []string{"appendOnly", "checkConstraints", "timestampNtz"}}, nil},
		{"explicit writer feature", plain, map[string]string{"delta.feature.domainMetadata": "supported"},
			Protocol{MinReaderVersion: 1, MinWriterVersion: 7, WriterFeatures: []string{"domainMetadata"}}, nil},
		{"in-commit timestamps", plain, map[string]string{PropEnableInCommitTS: "true"},
			Protocol{MinReaderVersion: 1, MinWriterVersion: 7, WriterFeatures: []string{"inCommitTimestamp"}}, nil},
		{"unknown feature", plain, map[string]string{"delta.feature.rowTracking": "supported"}, Protocol{}, ErrUnsupportedFeature},
		{"change data feed", plain, map[string]string{PropEnableChangeDataFeed: "true"}, Protocol{}, ErrUnsupportedFeature},
		{"bad column mapping mode", plain, map[string]string{PropColumnMappingMode: "names"}, Protocol{}, ErrUnsupportedFeature},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := createProtocol(tt.schema, tt.props)
			if tt.wantErr != nil {
				if !errors.Is(err, tt.wantErr) {
					t.Fatalf("err = %v, want %v", err, tt.wantErr)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if !reflect.DeepEqual(got, tt.want) {
				t.Fatalf("protocol %+v, want %+v", got, tt.want)
			}
			if err := got.CheckWritable("t"); err != nil {
				t.Fatalf("the protocol we create is not writable: %v", err)
			}
		})
	}
}

func TestCreateTable(t *testing.T) {
	ctx := context.Background()
	db := writeTestDB(t)
	root := filepath.Join(t.TempDir(), "t")
	mustCreate(t, db, root, "SELECT 1::BIGINT AS id, 'x' AS writer, TIMESTAMPTZ '2024-01-01 00:00:00+00' AS ts", []string{"writer"},
		map[string]string{"owner": "team"})
	s := mustSnapshot(t, root)
	if s.Version() != 0 || s.NumFiles() != 0 || s.Properties()["owner"] != "team" || s.TableID() == "" {
		t.Fatalf("version %d, %d files, properties %v, id %q", s.Version(), s.NumFiles(), s.Properties(), s.TableID())
	}
	if p := s.Protocol(); p.MinReaderVersion != 1 || p.MinWriterVersion != 2 {
		t.Fatalf("protocol %+v", p)
	}
	if got := s.PartitionColumns(); !slices.Equal(got, []string{"writer"}) {
		t.Fatalf("partition columns %v", got)
	}
	if ts := s.Schema().Field("ts"); ts == nil || ts.Type != TimestampType {
		t.Fatalf("ts column %+v", ts)
	}
	ci := commitInfoOf(t, root, 0)
	if ci.Operation != "CREATE TABLE" || ci.OperationParameters["partitionBy"] != `["writer"]` {
		t.Fatalf("commitInfo %+v", ci)
	}

	schema := s.Schema()
	tests := []struct {
		name    string
		root    string
		def     TableDefinition
		wantErr error
		wantMsg string
	}{
		{"table exists", root, TableDefinition{Schema: schema}, ErrTableExists, root},
		{"no schema", filepath.Join(t.TempDir(), "a"), TableDefinition{}, ErrInvalidSchema, "schema"},
		{"unknown partition column", filepath.Join(t.TempDir(), "b"), TableDefinition{Schema: schema, PartitionColumns: []string{"nope"}}, ErrInvalidSchema, `"nope"`},
		{"every column partitions", filepath.Join(t.TempDir(), "c"), TableDefinition{Schema: schema, PartitionColumns: []string{"id", "writer", "ts"}}, ErrInvalidSchema, "data column"},
		{"binary partition", filepath.Join(t.TempDir(), "d"), TableDefinition{Schema: &StructType{Fields: []*StructField{
			{Name: "b", Type: BinaryType, Nullable: true}, {Name: "x", Type: LongType, Nullable: true}}}, PartitionColumns: []string{"b"}}, ErrInvalidSchema, "binary"},
		{"name Spark refuses", filepath.Join(t.TempDir(), "e"), TableDefinition{Schema: &StructType{Fields: []*StructField{
			{Name: "my col", Type: LongType, Nullable: true}}}}, ErrInvalidSchema, "column mapping"},
		{"names differing in case", filepath.Join(t.TempDir(), "f"), TableDefinition{Schema: &StructType{Fields: []*StructField{
			{Name: "a", Type: LongType, Nullable: true}, {Name: "A", Type: LongType, Nullable: true}}}}, ErrInvalidSchema, "case"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := Create(ctx, tt.root, tt.def, WriteOptions{})
			if !errors.Is(err, tt.wantErr) || !strings.Contains(err.Error(), tt.wantMsg) {
				t.Fatalf("err = %v, want %v mentioning %q", err, tt.wantErr, tt.wantMsg)
			}
		})
	}
}

func TestAppendStatsAndLayout(t *testing.T) {
	db := writeTestDB(t)
	root := filepath.Join(t.TempDir(), "t")
	lowLong, highLong := strings.Repeat("a", 40), strings.Repeat("é", 40)
	q := `SELECT i::BIGINT AS id, p, s, ts, ntz, dec, flag, st FROM (SELECT i,
	    CASE i % 3 WHEN 0 THEN 'a b' WHEN 1 THEN 'A/A=%' ELSE NULL END AS p,
	    CASE i WHEN 1 THEN '` + lowLong + `' WHEN 4 THEN '` + highLong + `' WHEN 2 THEN NULL ELSE 'v' || i END AS s,
	    TIMESTAMPTZ '2024-01-01 00:00:00.000500+00' + i * INTERVAL 1 SECOND AS ts,
	    TIMESTAMP '2024-01-01 10:00:00.123456' + i * INTERVAL 1 DAY AS ntz,
	    (i / 4)::DECIMAL(10,2) AS dec, i % 2 = 0 AS flag, {'x': i::INTEGER} AS st FROM range(6) t(i))`
	mustCreate(t, db, root, q, []string{"p"}, nil)
	res := mustAppend(t, db, root, q)
	if !res.Committed || res.Version != 1 || res.Operation != "WRITE" || res.Metrics.AddedRows != 6 || res.Metrics.AddedFiles != 3 {
		t.Fatalf("result %+v", res)
	}
	ci := commitInfoOf(t, root, 1)
	if ci.IsBlindAppend == nil || !*ci.IsBlindAppend || ci.OperationParameters["mode"] != "Append" || ci.IsolationLevel != "Serializable" ||
		ci.OperationMetrics["numOutputRows"] != "6" || ci.OperationMetrics["numFiles"] != "3" || *ci.ReadVersion != 0 {
		t.Fatalf("commitInfo %+v", ci)
	}
	s := mustSnapshot(t, root)
	dirs := map[string]bool{}
	for _, f := range s.Files() {
		p, _ := f.DecodedPath()
		dirs[filepath.Dir(p)] = true
		if !strings.HasPrefix(filepath.Base(p), "part-") || !strings.HasSuffix(p, "-c000.zstd.parquet") {
			t.Errorf("file name %s", p)
		}
	}
	// The folder names delta-rs gives these values.
	want := map[string]bool{"p=a%20b": true, "p=A%2FA%3D%25": true, "p=__HIVE_DEFAULT_PARTITION__": true}
	if !reflect.DeepEqual(dirs, want) {
		t.Fatalf("partition folders %v, want %v", dirs, want)
	}
	var stats *Stats
	for _, f := range s.Files() {
		if pv := f.PartitionValues["p"]; pv != nil && *pv == "A/A=%" {
			st, err := f.ParseStats()
			if err != nil {
				t.Fatal(err)
			}
			stats = st
			if !strings.HasPrefix(f.Stats, `{"numRecords":2,`) {
				t.Errorf("stats do not start with numRecords: %s", f.Stats)
			}
		}
	}
	// Rows 1 and 4 are in partition "A/A=%".
	js := func(v any) string { b, _ := json.Marshal(v); return string(b) }
	checks := []struct{ got, want string }{
		{js(stats.MinValues["id"]), "1"}, {js(stats.MaxValues["id"]), "4"},
		{js(stats.MinValues["s"]), js(strings.Repeat("a", 32))}, // truncated min
		{js(stats.MaxValues["s"]), "null"},                      // a truncated max is no bound: left out
		{js(stats.MinValues["ts"]), `"2024-01-01T00:00:01.000Z"`},
		{js(stats.MaxValues["ts"]), `"2024-01-01T00:00:04.001Z"`}, // rounded up to stay a bound
		{js(stats.MinValues["ntz"]), `"2024-01-02T10:00:00.123"`},
		{js(stats.MaxValues["ntz"]), `"2024-01-05T10:00:00.124"`},
		{js(stats.MinValues["dec"]), "0.25"}, {js(stats.MaxValues["dec"]), "1.00"},
		{js(stats.MinValues["flag"]), "null"}, // booleans get null counts only
		{js(stats.NullCount["flag"]), "0"},
		{js(stats.MinValues["st"]), `{"x":1}`}, {js(stats.NullCount["st"]), `{"x":0}`},
		{js(stats.MinValues["p"]), "null"}, // partition columns have no stats
	}
	for i, c := range checks {
		if c.got != c.want {
			t.Errorf("check %d: got %s, want %s (stats %+v)", i, c.got, c.want, stats)
		}
	}
	if got := tableRows(t, db, root, "id", "p", "s"); len(got) != 6 || got[2] != "2|NULL|NULL" {
		t.Fatalf("rows %v", got)
	}
}

// TestDataFileEncoding: data files dictionary-encode the columns with up
// to dictionaryLimit distinct values per row group, and write the others
// with V2's delta encodings, or PLAIN in a table with a double.
func TestDataFileEncoding(t *testing.T) {
	db := writeTestDB(t)
	q := fmt.Sprintf(`SELECT i::BIGINT AS id, 'w' || (i %% 10) AS writer, (i %% %d)::BIGINT AS few, (i %% %d)::BIGINT AS many
	  FROM range(300000) t(i)`, dictionaryLimit(4)-96, dictionaryLimit(4)+904)
	// A table with a double is written V1 (Spark reads no BYTE_STREAM_SPLIT):
	// PLAIN past the dictionary; without one, V2's delta encodings.
	withDouble := `SELECT i::BIGINT AS id, hash(i) / 7.0 AS d, (i % 10)::DOUBLE AS few_d FROM range(300000) t(i)`
	strs := `SELECT md5(i::VARCHAR) AS h, 'w' || (i % 10) AS writer FROM range(300000) t(i)`
	for _, c := range []struct {
		query string
		want  map[string]string // column -> encodings of its chunks
	}{
		{q, map[string]string{"id": "DELTA_BINARY_PACKED", "writer": "RLE_DICTIONARY", "few": "RLE_DICTIONARY", "many": "DELTA_BINARY_PACKED"}},
		{withDouble, map[string]string{"id": "PLAIN", "d": "PLAIN", "few_d": "PLAIN_DICTIONARY"}},
		{strs, map[string]string{"h": "DELTA_LENGTH_BYTE_ARRAY", "writer": "RLE_DICTIONARY"}},
	} {
		root := filepath.Join(t.TempDir(), "t")
		mustCreate(t, db, root, c.query, nil, nil)
		mustAppend(t, db, root, c.query)
		var files []string
		s := mustSnapshot(t, root)
		for _, f := range s.Files() {
			p, err := s.FilePath(f.Path)
			if err != nil {
				t.Fatal(err)
			}
			files = append(files, quoteString(p))
		}
		rows, err := db.Query(`SELECT path_in_schema, encodings, row_group_num_rows FROM parquet_metadata([` + strings.Join(files, ", ") + `])
		  WHERE row_group_num_rows >= ` + strconv.Itoa(dictionaryLimit(4)+904))
		if err != nil {
			t.Fatal(err)
		}
		seen := 0
		for rows.Next() {
			var col, enc string
			var n int64
			if err := rows.Scan(&col, &enc, &n); err != nil {
				t.Fatal(err)
			}
			seen++
			if enc != c.want[col] {
				t.Errorf("column %s of a row group of %d rows: encodings %s, want %s", col, n, enc, c.want[col])
			}
		}
		rows.Close()
		if err := rows.Err(); err != nil || seen == 0 {
			t.Fatalf("%d column chunks: %v", seen, err)
		}
	}
}

func TestAppendManyFilesAndTargetSize(t *testing.T) {
	db := writeTestDB(t)
	root := filepath.Join(t.TempDir(), "t")
	q := "SELECT i::BIGINT AS id, md5(i::VARCHAR) AS h FROM range(500000) t(i)"
	mustCreate(t, db, root, q, nil, nil)
	res, err := Append(context.Background(), db, root, q, WriteOptions{TargetFileSize: 1 << 20})
	if err != nil {
		t.Fatal(err)
	}
	// DuckDB cuts files between row groups (122880 rows).
	if res.Metrics.AddedFiles < 3 || res.Metrics.AddedRows != 500000 {
		t.Fatalf("a 1 MiB target gave %d files for %d rows", res.Metrics.AddedFiles, res.Metrics.AddedRows)
	}
	if n, ok := mustSnapshot(t, root).NumRecords(); !ok || n != 500000 {
		t.Fatalf("stats count %d", n)
	}
	// Under the target size, one file, however many threads wrote it; a
	// delete rewrites it into one file too.
	res = mustAppend(t, db, root, q)
	if res.Metrics.AddedFiles != 1 || res.Metrics.AddedRows != 500000 {
		t.Fatalf("%d MiB in %d files", res.Metrics.AddedBytes>>20, res.Metrics.AddedFiles)
	}
	written := res.Version
	res, err = Delete(context.Background(), db, root, "id % 10 = 3", WriteOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if res.Metrics.RemovedFiles < 4 || res.Metrics.AddedFiles != res.Metrics.RemovedFiles || res.Metrics.DeletedRows != 100000 {
		t.Fatalf("delete: %+v (after version %d)", res.Metrics, written)
	}
}

func TestAppendSchema(t *testing.T) {
	ctx := context.Background()
	db := writeTestDB(t)
	newTable := func(t *testing.T) string {
		root := filepath.Join(t.TempDir(), "t")
		mustCreate(t, db, root, "SELECT 1::BIGINT AS id, 'w' AS writer, 1.5::DOUBLE AS v", nil, nil)
		return root
	}
	t.Run("a subset of columns fills nulls", func(t *testing.T) {
		root := newTable(t)
		mustAppend(t, db, root, "SELECT 7::INTEGER AS id") // int widens to bigint
		if got := tableRows(t, db, root, "id", "writer", "v"); !slices.Equal(got, []string{"7|NULL|NULL"}) {
			t.Fatalf("rows %v", got)
		}
	})
	t.Run("a new column without merging fails", func(t *testing.T) {
		root := newTable(t)
		_, err := Append(ctx, db, root, "SELECT 1::BIGINT AS id, 'x' AS extra", WriteOptions{})
		if !errors.Is(err, ErrSchemaMismatch) || !strings.Contains(err.Error(), `"extra"`) || !strings.Contains(err.Error(), "schema merging") {
			t.Fatalf("err = %v", err)
		}
		if files := dataFiles(t, root); len(files) != 0 {
			t.Fatalf("files left behind: %v", files)
		}
	})
	t.Run("merging adds a nullable column", func(t *testing.T) {
		root := newTable(t)
		mustAppend(t, db, root, "SELECT 1::BIGINT AS id")
		res, err := Append(ctx, db, root, "SELECT 2::BIGINT AS id, TIMESTAMP '2024-01-01 00:00:00' AS at", WriteOptions{MergeSchema: true})
		if err != nil {
			t.Fatal(err)
		}
		s := mustSnapshot(t, root)
		if f := s.Schema().Field("at"); f == nil || f.Type != TimestampNTZType || !f.Nullable {
			t.Fatalf("schema %s", s.Schema())
		}
		// timestamp_ntz needs the feature: the protocol was upgraded in
		// the same commit.
		if p := s.Protocol(); p.MinReaderVersion != 3 || !p.HasReaderFeature(FeatureTimestampNTZ) || !p.HasWriterFeature(FeatureAppendOnly) {
			t.Fatalf("protocol %+v", p)
		}
		var meta, proto bool
		for _, a := range readCommitActions(t, root, res.Version) {
			meta = meta || a.MetaData != nil
			proto = proto || a.Protocol != nil
		}
		if !meta || !proto {
			t.Fatal("the merge commit lacks metaData or protocol")
		}
		if got := tableRows(t, db, root, "id", "at"); !slices.Equal(got, []string{"1|NULL", "2|2024-01-01 00:00:00"}) {
			t.Fatalf("rows %v", got)
		}
	})
	t.Run("a type that does not fit fails", func(t *testing.T) {
		root := newTable(t)
		_, err := Append(ctx, db, root, "SELECT 'abc' AS id", WriteOptions{})
		if !errors.Is(err, ErrSchemaMismatch) || !strings.Contains(err.Error(), `"id"`) || !strings.Contains(err.Error(), "VARCHAR") {
			t.Fatalf("err = %v", err)
		}
	})
	t.Run("NOT NULL and CHECK constraints", func(t *testing.T) {
		root := filepath.Join(t.TempDir(), "t")
		schema := &StructType{Fields: []*StructField{{Name: "id", Type: LongType, Nullable: false}, {Name: "v", Type: DoubleType, Nullable: true}}}
		if _, err := Create(ctx, root, TableDefinition{Schema: schema, Properties: map[string]string{"delta.constraints.positive": "v > 0"}}, WriteOptions{}); err != nil {
			t.Fatal(err)
		}
		for _, q := range []string{"SELECT NULL::BIGINT AS id, 1.0 AS v", "SELECT 1::BIGINT AS id, -1.0 AS v"} {
			_, err := Append(ctx, db, root, q, WriteOptions{})
			if !errors.Is(err, ErrConstraintViolation) {
				t.Fatalf("%s: err = %v", q, err)
			}
		}
		mustAppend(t, db, root, "SELECT 1::BIGINT AS id, NULL::DOUBLE AS v") // CHECK: NULL passes
		if files := dataFiles(t, root); len(files) != 1 {
			t.Fatalf("files %v", files)
		}
	})
	t.Run("create with neither schema nor append fails", func(t *testing.T) {
		root := filepath.Join(t.TempDir(), "t")
		tx, err := BeginCreate(root, TableDefinition{}, WriteOptions{})
		if err != nil {
			t.Fatal(err)
		}
		if _, err := tx.Append(ctx, db, `SELECT 1 AS "bad name"`); !errors.Is(err, ErrInvalidSchema) {
			t.Fatalf("append: %v", err)
		}
		if _, err := tx.Commit(ctx); !errors.Is(err, ErrInvalidSchema) {
			t.Fatalf("commit: %v", err)
		}
		if _, err := os.Stat(filepath.Join(root, LogDirName, CommitFileName(0))); !os.IsNotExist(err) {
			t.Fatalf("a table was created: %v", err)
		}
	})
	t.Run("create from the first append's query", func(t *testing.T) {
		root := filepath.Join(t.TempDir(), "t")
		tx, err := BeginCreate(root, TableDefinition{PartitionColumns: []string{"writer"}}, WriteOptions{})
		if err != nil {
			t.Fatal(err)
		}
		if _, err := tx.Append(ctx, db, "SELECT 'a' AS writer, 1 AS n"); err != nil {
			t.Fatal(err)
		}
		res, err := tx.Commit(ctx)
		if err != nil || res.Version != 0 || res.Operation != "CREATE TABLE AS SELECT" {
			t.Fatalf("%+v, %v", res, err)
		}
		if got := tableRows(t, db, root, "writer", "n"); !slices.Equal(got, []string{"a|1"}) {
			t.Fatalf("rows %v", got)
		}
	})
}

func TestDelete(t *testing.T) {
	ctx := context.Background()
	db := writeTestDB(t)
	// Two appends: writers a, b, c (partitioned or not), ids 0..59.
	setup := func(t *testing.T, partitioned bool) string {
		root := filepath.Join(t.TempDir(), "t")
		q := func(from, to int) string {
			return rangeQuery(from, to, "['a', 'b', 'c'][i % 3 + 1] AS writer, CASE WHEN i % 10 = 0 THEN NULL ELSE i % 7 END AS v")
		}
		var parts []string
		if partitioned {
			parts = []string{"writer"}
		}
		mustCreate(t, db, root, q(0, 0), parts, nil)
		mustAppend(t, db, root, q(0, 30))
		mustAppend(t, db, root, q(30, 60))
		return root
	}
	tests := []struct {
		name          string
		partitioned   bool
		pred          string
		deleted       int64
		partitionOnly bool
		rewrites      bool // some file is rewritten
	}{
		{"partition equality", true, "writer = 'a'", 20, true, false},
		{"partition IN and LIKE", true, "writer IN ('b') OR writer LIKE 'c%'", 40, true, false},
		{"partition function", true, "upper(writer) = 'B'", 20, true, false},
		{"constant true", true, "1 = 1", 60, true, false},
		{"data column rewrite", true, "id % 2 = 0", 30, false, true},
		{"mixed predicate", true, "writer = 'a' AND id < 30", 10, false, false},
		{"unpartitioned writer", false, "writer = 'a'", 20, false, true},
		{"NULL keeps the row", false, "v > 3", 22, false, true},
		{"stats-pruned range", false, "id BETWEEN 0 AND 29", 30, false, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			root := setup(t, tt.partitioned)
			before := tableRows(t, db, root, "id")
			tx, err := mustSnapshot(t, root).Begin(WriteOptions{})
			if err != nil {
				t.Fatal(err)
			}
			dm, err := tx.Delete(ctx, db, tt.pred)
			if err != nil {
				t.Fatal(err)
			}
			if dm.PartitionOnly != tt.partitionOnly {
				t.Fatalf("PartitionOnly = %v", dm.PartitionOnly)
			}
			res, err := tx.Commit(ctx)
			if err != nil {
				t.Fatal(err)
			}
			m := res.Metrics
			if !res.Committed || res.Operation != "DELETE" || m.DeletedRows != tt.deleted {
				t.Fatalf("result %+v", res)
			}
			if (m.CopiedRows > 0) != tt.rewrites || (m.AddedFiles > 0) != tt.rewrites {
				t.Fatalf("rewrites: copied %d rows into %d files, want rewrite=%v", m.CopiedRows, m.AddedFiles, tt.rewrites)
			}
			after := tableRows(t, db, root, "id")
			if int64(len(before)-len(after)) != tt.deleted {
				t.Fatalf("%d rows left of %d", len(after), len(before))
			}
			// Every remaining row fails the predicate; every deleted row matched.
			var matching int64
			s := mustSnapshot(t, root)
			scan, _ := s.ScanSQL(ctx, ScanOptions{Where: tt.pred})
			if err := db.QueryRow("SELECT count(*) FROM (" + scan + ")").Scan(&matching); err != nil || matching != 0 {
				t.Fatalf("%d matching rows left (%v)", matching, err)
			}
			ci := commitInfoOf(t, root, res.Version)
			if ci.OperationParameters["predicate"] != `["`+tt.pred+`"]` || ci.OperationMetrics["numDeletedRows"] == nil || *ci.IsBlindAppend {
				t.Fatalf("commitInfo %+v", ci)
			}
		})
	}
	t.Run("partition-only delete reads no file", func(t *testing.T) {
		root := setup(t, true)
		s := mustSnapshot(t, root)
		// Corrupt the data files of writer b: a delete of writer a must
		// not read them, nor writer a's own files.
		for _, f := range s.Files() {
			p, _ := s.FilePath(f.Path)
			if err := os.WriteFile(p, []byte("not parquet"), 0o644); err != nil {
				t.Fatal(err)
			}
		}
		tx, err := s.Begin(WriteOptions{})
		if err != nil {
			t.Fatal(err)
		}
		m, err := tx.Delete(ctx, db, "writer = 'a'")
		if err != nil {
			t.Fatal(err)
		}
		if !m.PartitionOnly || m.FilesRemoved != 2 || m.DeletedRows != 20 {
			t.Fatalf("metrics %+v", m)
		}
		tx.Abort()
	})
	// A writer's own files (its stats: min = max = its name, no NULL) go
	// without reading them, with or without deletion vectors; the mixed
	// file is scanned.
	for _, props := range []map[string]string{nil, {PropEnableDeletionVectors: "true"}} {
		t.Run(fmt.Sprintf("stats prove whole files match, props %v", props), func(t *testing.T) {
			root := filepath.Join(t.TempDir(), "t")
			mustCreate(t, db, root, rangeQuery(0, 0, "'a' AS writer"), nil, props)
			mustAppend(t, db, root, rangeQuery(0, 20, "'a' AS writer"))
			mustAppend(t, db, root, rangeQuery(20, 30, "['a', 'b'][i % 2 + 1] AS writer"))
			s := mustSnapshot(t, root)
			var own *Add // writer a's file
			for _, f := range s.Files() {
				if n, _ := f.NumRecords(); n == 20 {
					own = f
				}
			}
			p, _ := s.FilePath(own.Path)
			if err := os.WriteFile(p, []byte("not parquet"), 0o644); err != nil {
				t.Fatal(err)
			}
			tx, err := s.Begin(WriteOptions{})
			if err != nil {
				t.Fatal(err)
			}
			m, err := tx.Delete(ctx, db, "writer = 'a'")
			if err != nil {
				t.Fatal(err)
			}
			if m.FilesScanned != 1 || m.DeletedRows != 25 || m.PartitionOnly {
				t.Fatalf("metrics %+v", m)
			}
			if _, err := tx.Commit(ctx); err != nil {
				t.Fatal(err)
			}
			if got := tableRows(t, db, root, "writer"); len(got) != 5 || got[0] != "b" {
				t.Fatalf("rows left %v", got)
			}
		})
	}
	t.Run("nothing matched commits nothing", func(t *testing.T) {
		root := setup(t, false)
		res, err := Delete(ctx, db, root, "id > 1000", WriteOptions{})
		if err != nil || res.Committed || res.Version != 2 {
			t.Fatalf("%+v, %v", res, err)
		}
		if s := mustSnapshot(t, root); s.Version() != 2 {
			t.Fatalf("version %d", s.Version())
		}
	})
	t.Run("bad predicates", func(t *testing.T) {
		root := setup(t, false)
		for _, pred := range []string{"", "  ", "nope = 1", "id = ", "id = 1; DROP TABLE x", "id = 1 ORDER BY id"} {
			_, err := Delete(ctx, db, root, pred, WriteOptions{})
			if !errors.Is(err, ErrInvalidPredicate) {
				t.Errorf("%q: err = %v", pred, err)
			}
		}
	})
}
