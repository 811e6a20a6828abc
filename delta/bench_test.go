package delta

import (
	"context"
	"database/sql"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// writeLongLog writes a table of `commits` commits: version 0 creates it,
// every later commit adds one file (with stats, partitioned by day) and
// every fifth also removes an older one, as a table fed by small appends
// and regular deletes looks. With checkpointEvery > 0 the newest multiple
// of it gets a real classic checkpoint (the only one a reader opens) plus
// _last_checkpoint, and every older multiple gets a placeholder file of
// the same name, so the log folder lists as many files as a real one.
func writeLongLog(b *testing.B, root string, commits, checkpointEvery int) {
	b.Helper()
	st := newReplayState()
	lastCP := -1
	if checkpointEvery > 0 {
		lastCP = (commits - 1) / checkpointEvery * checkpointEvery
	}
	for v := 0; v < commits; v++ {
		actions := []Action{{CommitInfo: &CommitInfo{Timestamp: int64(1_700_000_000_000 + v), Operation: "WRITE",
			OperationParameters: map[string]any{"mode": "Append"}, OperationMetrics: map[string]any{"numFiles": "1", "numOutputRows": "100"}}}}
		if v == 0 {
			actions = append(actions, protocolAction(1, 2), metadataAction(testSchemaString, []string{"part"}, nil))
		} else {
			day := fmt.Sprintf("2024-01-%02d", v%28+1)
			actions = append(actions, Action{Add: &Add{Path: fmt.Sprintf("part=%s/part-%05d-0a1b2c3d.c000.snappy.parquet", day, v),
				PartitionValues: map[string]*string{"part": ptr(day)}, Size: 4096, ModificationTime: int64(1_700_000_000_000 + v), DataChange: true,
				Stats: fmt.Sprintf(`{"numRecords":100,"minValues":{"id":%d},"maxValues":{"id":%d},"nullCount":{"id":0}}`, v*100, v*100+99)}})
			if v%5 == 0 {
				old := v - 3
				actions = append(actions, Action{Remove: &Remove{Path: fmt.Sprintf("part=2024-01-%02d/part-%05d-0a1b2c3d.c000.snappy.parquet", old%28+1, old),
					DataChange: true, DeletionTimestamp: ptr(int64(1_700_000_000_000 + v))}})
			}
		}
		writeCommit(b, root, int64(v), actions...)
		for _, a := range actions {
			st.apply(a)
		}
		if checkpointEvery > 0 && v > 0 && v%checkpointEvery == 0 {
			name := filepath.Join(root, LogDirName, CheckpointFileName(int64(v)))
			if v < lastCP {
				if err := os.WriteFile(name, nil, 0o644); err != nil {
					b.Fatal(err)
				}
				continue
			}
			cp := []Action{{Protocol: st.protocol}, {MetaData: st.metadata}}
			for _, f := range st.files {
				cp = append(cp, Action{Add: f})
			}
			for _, r := range st.tombstones {
				cp = append(cp, Action{Remove: r})
			}
			writeParquetActions(b, name, cp)
			lc, _ := json.Marshal(LastCheckpoint{Version: int64(v), Size: int64(len(cp))})
			writeLogFile(b, root, LastCheckpointFileName, lc)
		}
	}
}

// BenchmarkSnapshotLoad loads the latest snapshot of a 10,000-commit
// table, with a checkpoint every 10 commits and without any.
func BenchmarkSnapshotLoad(b *testing.B) {
	for _, tc := range []struct {
		name           string
		commits, every int
	}{
		{"10000_commits_checkpoint_every_10", 10_000, 10},
		{"10000_commits_no_checkpoint", 10_000, 0},
		{"10000_commits_checkpoint_every_1000", 10_000, 1000},
		{"1000_commits_checkpoint_every_10", 1_000, 10},
	} {
		b.Run(tc.name, func(b *testing.B) {
			root := b.TempDir()
			writeLongLog(b, root, tc.commits, tc.every)
			ctx := context.Background()
			b.ReportAllocs()
			b.ResetTimer()
			for i := 0; i < b.N; i++ {
				s, err := LoadSnapshot(ctx, root)
				if err != nil {
					b.Fatal(err)
				}
				if s.Version() != int64(tc.commits-1) || s.NumFiles() == 0 {
					b.Fatalf("version %d, %d files", s.Version(), s.NumFiles())
				}
			}
		})
	}
}

// scanBenchTable writes a table of `files` parquet files of `rows` rows
// each (5 columns), partitioned by writer when partitioned is true, and
// returns the snapshot and the data file paths.
func scanBenchTable(b *testing.B, db *sql.DB, files, rows int, partitioned bool) (*Snapshot, []string) {
	b.Helper()
	root := b.TempDir()
	schema := `{"type":"struct","fields":[{"name":"id","type":"long","nullable":true,"metadata":{}},` +
		`{"name":"price","type":"double","nullable":true,"metadata":{}},{"name":"name","type":"string","nullable":true,"metadata":{}},` +
		`{"name":"ts","type":"timestamp","nullable":true,"metadata":{}},{"name":"writer","type":"string","nullable":true,"metadata":{}}]}`
	var parts []string
	if partitioned {
		parts = []string{"writer"}
	}
	actions := []Action{protocolAction(1, 2), metadataAction(schema, parts, nil)}
	var paths []string
	for i := 0; i < files; i++ {
		writer := fmt.Sprintf("w%d", i%4)
		rel := fmt.Sprintf("part-%05d.parquet", i)
		cols := fmt.Sprintf("'%s' AS writer, ", writer)
		pv := map[string]*string{}
		if partitioned {
			rel = "writer=" + writer + "/" + rel
			cols = ""
			pv["writer"] = &writer
		}
		q := fmt.Sprintf("SELECT %s(range + %d)::BIGINT AS id, random() * 100 AS price, 'name-' || (range %% 1000)::VARCHAR AS name, "+
			"TIMESTAMPTZ '2024-01-01 00:00:00+00' + to_seconds(range) AS ts FROM range(%d)", cols, i*rows, rows)
		p := filepath.Join(root, rel)
		os.MkdirAll(filepath.Dir(p), 0o755)
		if _, err := db.Exec("COPY (" + q + ") TO " + quoteString(p) + " (FORMAT parquet)"); err != nil {
			b.Fatal(err)
		}
		paths = append(paths, p)
		actions = append(actions, Action{Add: &Add{Path: rel, PartitionValues: pv, Size: 1, DataChange: true, Stats: fmt.Sprintf(`{"numRecords":%d}`, rows)}})
	}
	writeCommit(b, root, 0, actions...)
	s, err := LoadSnapshot(context.Background(), root)
	if err != nil {
		b.Fatal(err)
	}
	return s, paths
}

const scanAggregate = "SELECT count(*), sum(id), sum(price), max(name), max(ts), max(writer) FROM "

// BenchmarkFullScan compares a full scan of a Delta table (every column
// aggregated) with DuckDB's own read_parquet over the same files. Each
// iteration runs both, one after the other, so that the machine's load
// affects them alike; delta_ms, read_parquet_ms and ratio (delta /
// read_parquet) are reported per iteration.
func BenchmarkFullScan(b *testing.B) {
	ctx := context.Background()
	db, err := OpenDuckDB(ctx)
	if err != nil {
		b.Fatal(err)
	}
	defer db.Close()
	for _, partitioned := range []bool{false, true} {
		s, paths := scanBenchTable(b, db, 8, 500_000, partitioned)
		name := "unpartitioned"
		if partitioned {
			name = "partitioned"
		}
		quoted := make([]string, len(paths))
		for i, p := range paths {
			quoted[i] = quoteString(p)
		}
		raw := scanAggregate + "read_parquet([" + strings.Join(quoted, ", ") + "], hive_partitioning = " + fmt.Sprint(partitioned) + ")"
		query := func(b *testing.B, q string) time.Duration {
			start := time.Now()
			var n int64
			var a, c, d, e, f any
			if err := db.QueryRowContext(ctx, q).Scan(&n, &a, &c, &d, &e, &f); err != nil {
				b.Fatal(err)
			}
			if n != 4_000_000 {
				b.Fatalf("%d rows", n)
			}
			return time.Since(start)
		}
		b.Run(name, func(b *testing.B) {
			b.ReportAllocs()
			var ours, theirs time.Duration
			for i := 0; i < b.N; i++ {
				start := time.Now()
				q, err := s.ScanSQL(ctx, ScanOptions{})
				if err != nil {
					b.Fatal(err)
				}
				ours += time.Since(start) + query(b, scanAggregate+"("+q+")")
				theirs += query(b, raw)
			}
			b.ReportMetric(float64(ours.Milliseconds())/float64(b.N), "delta_ms")
			b.ReportMetric(float64(theirs.Milliseconds())/float64(b.N), "read_parquet_ms")
			b.ReportMetric(float64(ours)/float64(theirs), "ratio")
		})
	}
}

// BenchmarkPruneFiles measures skipping files by partition values and
// stats over a 2,000-file snapshot.
func BenchmarkPruneFiles(b *testing.B) {
	root := b.TempDir()
	writeLongLog(b, root, 2_000, 0)
	s, err := LoadSnapshot(context.Background(), root)
	if err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if n := len(s.PruneFiles("part = '2024-01-07' AND id > 1000")); n == 0 {
			b.Fatal("no files")
		}
	}
}

// BenchmarkExternalTables loads and reads the tables under
// $LAKTORY_BENCH_TABLES (one folder per table), for the side-by-side
// comparison with delta-rs (scripts/bench/read_vs_deltars.sh): load/<table>
// replays the log to the live file list, scan/<table> (tables named
// data_*) loads the table and runs scanAggregate over every row.
func BenchmarkExternalTables(b *testing.B) {
	dir := os.Getenv("LAKTORY_BENCH_TABLES")
	if dir == "" {
		b.Skip("LAKTORY_BENCH_TABLES not set (see scripts/bench/read_vs_deltars.sh)")
	}
	entries, err := os.ReadDir(dir)
	if err != nil {
		b.Fatal(err)
	}
	ctx := context.Background()
	db, err := OpenDuckDB(ctx)
	if err != nil {
		b.Fatal(err)
	}
	defer db.Close()
	conn, err := db.Conn(ctx)
	if err != nil {
		b.Fatal(err)
	}
	defer conn.Close()
	for _, e := range entries {
		root := filepath.Join(dir, e.Name())
		b.Run("load/"+e.Name(), func(b *testing.B) {
			b.ReportAllocs()
			for i := 0; i < b.N; i++ {
				s, err := LoadSnapshot(ctx, root)
				if err != nil {
					b.Fatal(err)
				}
				_ = s.Files()
			}
		})
		if !strings.HasPrefix(e.Name(), "data_") {
			continue
		}
		b.Run("scan/"+e.Name(), func(b *testing.B) {
			b.ReportAllocs()
			for i := 0; i < b.N; i++ {
				s, err := LoadSnapshot(ctx, root)
				if err != nil {
					b.Fatal(err)
				}
				q, err := s.ScanSQL(ctx, ScanOptions{})
				if err != nil {
					b.Fatal(err)
				}
				var n int64
				var a, c, d, e, f any
				if err := conn.QueryRowContext(ctx, scanAggregate+"("+q+")").Scan(&n, &a, &c, &d, &e, &f); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// BenchmarkWidenedScan measures what reading a typeWidening table one
// file per read_parquet call (see scanGroups) costs: the same 200 files
// (4M rows) scanned as a plain table and as one whose column i records a
// type change. widened_ms, plain_ms and ratio (widened / plain) are
// reported per iteration, both run alike under the machine's load.
func BenchmarkWidenedScan(b *testing.B) {
	ctx := context.Background()
	db := benchDB(b)
	plain := filepath.Join(b.TempDir(), "plain")
	q := "SELECT (%d * 20000 + r)::BIGINT AS i, r * 0.5 AS f, 'w' || (r %% 10) AS w FROM range(20000) t(r)"
	schema, err := QuerySchema(ctx, db, fmt.Sprintf(q, 0))
	if err != nil {
		b.Fatal(err)
	}
	if _, err := Create(ctx, plain, TableDefinition{Schema: schema}, WriteOptions{}); err != nil {
		b.Fatal(err)
	}
	for k := 0; k < 200; k++ {
		if _, err := Append(ctx, db, plain, fmt.Sprintf(q, k), WriteOptions{}); err != nil {
			b.Fatal(err)
		}
	}
	widened := filepath.Join(b.TempDir(), "widened")
	if err := os.CopyFS(widened, os.DirFS(plain)); err != nil {
		b.Fatal(err)
	}
	s, err := LoadSnapshot(ctx, widened)
	if err != nil {
		b.Fatal(err)
	}
	var sc map[string]any
	md := s.Metadata()
	if err := json.Unmarshal([]byte(md.SchemaString), &sc); err != nil {
		b.Fatal(err)
	}
	sc["fields"].([]any)[0].(map[string]any)["metadata"] = map[string]any{
		MetaTypeChanges: []any{map[string]any{"fromType": "integer", "toType": "long"}}}
	raw, _ := json.Marshal(sc)
	md.SchemaString = string(raw)
	writeCommit(b, widened, s.Version()+1, infoAction("CHANGE COLUMN", 1), Action{MetaData: &md})
	scan := func(root string) time.Duration {
		start := time.Now()
		s, err := LoadSnapshot(ctx, root)
		if err != nil {
			b.Fatal(err)
		}
		sql, err := s.ScanSQL(ctx, ScanOptions{Where: "w = 'w3'"})
		if err != nil {
			b.Fatal(err)
		}
		var n int64
		var sum float64
		if err := db.QueryRowContext(ctx, "SELECT count(*), sum(f) FROM ("+sql+")").Scan(&n, &sum); err != nil {
			b.Fatal(err)
		}
		if n != 400_000 {
			b.Fatalf("%s: %d rows", root, n)
		}
		return time.Since(start)
	}
	var w, p time.Duration
	for i := 0; i < b.N; i++ {
		w += scan(widened)
		p += scan(plain)
	}
	b.ReportMetric(float64(w.Milliseconds())/float64(b.N), "widened_ms")
	b.ReportMetric(float64(p.Milliseconds())/float64(b.N), "plain_ms")
	b.ReportMetric(float64(w)/float64(p), "ratio")
}
