package delta

import (
	"context"
	"database/sql"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

// Write-path benchmarks. The self-contained ones generate their data with
// DuckDB; BenchmarkWriteVsDeltaRS runs the same operations on the data and
// tables scripts/bench/write_vs_deltars.sh prepares, for the side-by-side
// comparison with delta-rs.

// benchSourceSQL generates n rows: 10 writers interleaved (w0..w9),
// timestamps, doubles, integers and short strings (the columns the
// side-by-side script generates with polars).
func benchSourceSQL(n int) string {
	return fmt.Sprintf(`SELECT i::BIGINT AS id, 'w' || (i %% 10) AS writer,
  TIMESTAMPTZ '2024-01-01 00:00:00+00' + i * INTERVAL 1 SECOND AS ts, i * 0.01 AS value,
  (i %% 100)::INTEGER AS qty, 'note-' || (i %% 1000) AS note FROM range(%d) t(i)`, n)
}

// loadBenchSource makes the DuckDB table "source" (in memory) hold the
// rows to write: from a parquet file, or generated.
func loadBenchSource(b *testing.B, db *sql.DB, parquetPath string, n int) {
	b.Helper()
	q := benchSourceSQL(n)
	if parquetPath != "" {
		q = "SELECT * FROM read_parquet(" + quoteString(parquetPath) + ")"
	}
	if _, err := db.Exec("CREATE OR REPLACE TABLE source AS " + q); err != nil {
		b.Fatal(err)
	}
}

// processCPU is the CPU time (user + system) the process used so far:
// Go and DuckDB's threads.
func processCPU() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// cpuMeter sums the CPU time of the timed parts of a benchmark and reports
// it per operation (cpu-ms/op), a figure less sensitive than the elapsed
// time to other processes competing for the cores.
type cpuMeter struct {
	total, start time.Duration
}

func (c *cpuMeter) startTimer(b *testing.B) {
	b.StartTimer()
	c.start = processCPU()
}

func (c *cpuMeter) stopTimer(b *testing.B) {
	c.total += processCPU() - c.start
	b.StopTimer()
}

func (c *cpuMeter) report(b *testing.B) {
	b.ReportMetric(float64(c.total.Microseconds())/1000/float64(b.N), "cpu-ms/op")
}

// benchAppend creates a table and appends every row of source, per
// iteration.
func benchAppend(b *testing.B, db *sql.DB) { benchAppendQuery(b, db, "SELECT * FROM source") }

// benchAppendQuery creates a table from the rows of query per iteration
// and reports the bytes of its data files (written-bytes), the CPU of the
// write and its rows/s.
func benchAppendQuery(b *testing.B, db *sql.DB, query string) {
	ctx := context.Background()
	var rows int64
	var cpu cpuMeter
	defer cpu.report(b)
	for i := 0; i < b.N; i++ {
		b.StopTimer()
		root := filepath.Join(b.TempDir(), "t")
		syscall.Sync()
		cpu.startTimer(b)
		tx, err := BeginCreate(root, TableDefinition{}, WriteOptions{})
		if err != nil {
			b.Fatal(err)
		}
		m, err := tx.Append(ctx, db, query)
		if err != nil {
			b.Fatal(err)
		}
		if _, err := tx.Commit(ctx); err != nil {
			b.Fatal(err)
		}
		cpu.stopTimer(b)
		rows = m.Rows
		b.ReportMetric(float64(tableFileBytes(b, root)), "written-bytes")
	}
	b.ReportMetric(float64(rows)*float64(b.N)/b.Elapsed().Seconds(), "rows/s")
}

// benchDelete deletes writer w3's rows from a fresh copy of the table at
// base, per iteration.
func benchDelete(b *testing.B, db *sql.DB, base string) {
	benchOnCopy(b, base, func(root string) {
		res, err := Delete(context.Background(), db, root, "writer = 'w3'", WriteOptions{})
		if err != nil {
			b.Fatal(err)
		}
		if res.Metrics.DeletedRows == 0 {
			b.Fatal("nothing deleted")
		}
	})
}

// benchCopyFloor is the floor of the rewriting delete: one DuckDB COPY of
// the rows the delete keeps from the table's file(s), with the options
// data files are written with, and nothing else (no log, no stats).
func benchCopyFloor(b *testing.B, db *sql.DB, base string) {
	benchFloor(b, db, base, "WHERE (writer = 'w3') IS NOT TRUE")
}

// benchFloor times one DuckDB COPY of the rows of the table at base's
// files that where keeps (all with an empty where), with the options data
// files are written with, and nothing else (no snapshot, log, stats or
// re-encoding): the floor of a rewrite through DuckDB's Parquet writer.
// From source.parquet's table (base "") it is the floor of the append.
func benchFloor(b *testing.B, db *sql.DB, base, where string) {
	from, cols := "source", []*StructField(nil)
	if base != "" {
		s := mustSnapshot(b, base)
		var files []string
		for _, f := range s.Files() {
			p, err := s.FilePath(f.Path)
			if err != nil {
				b.Fatal(err)
			}
			files = append(files, quoteString(p))
		}
		from, cols = "read_parquet(["+strings.Join(files, ", ")+"])", s.Schema().Fields
	} else {
		qc, err := QueryColumns(context.Background(), db, "SELECT * FROM source")
		if err != nil {
			b.Fatal(err)
		}
		for _, c := range qc {
			cols = append(cols, &StructField{Name: c.Name, Type: c.Type, Nullable: true})
		}
	}
	var cpu cpuMeter
	defer cpu.report(b)
	for i := 0; i < b.N; i++ {
		b.StopTimer()
		out := filepath.Join(b.TempDir(), "floor.parquet")
		syscall.Sync()
		q := "COPY (SELECT * FROM " + from + " " + where + ") TO " + quoteString(out) +
			" (" + strings.Join(parquetOptions(cols, DefaultTargetFileSize), ", ") + ", RETURN_STATS)"
		cpu.startTimer(b)
		rows, err := db.Query(q)
		if err != nil {
			b.Fatal(err)
		}
		for rows.Next() {
		}
		rows.Close()
		cpu.stopTimer(b)
	}
}

// benchOnCopy times op on a fresh copy of the table at base, per
// iteration, and reports the bytes op wrote into the table folder (data
// and deletion vector files, the log aside) as written-bytes.
func benchOnCopy(b *testing.B, base string, op func(root string)) {
	var cpu cpuMeter
	defer cpu.report(b)
	var written int64
	for i := 0; i < b.N; i++ {
		b.StopTimer()
		root := filepath.Join(b.TempDir(), "t")
		if err := os.CopyFS(root, os.DirFS(base)); err != nil {
			b.Fatal(err)
		}
		before := tableFileBytes(b, root)
		syscall.Sync() // start clean: no dirty pages of the copy (on both sides)
		cpu.startTimer(b)
		op(root)
		cpu.stopTimer(b)
		written += tableFileBytes(b, root) - before
	}
	b.ReportMetric(float64(written)/float64(b.N), "written-bytes")
}

// tableFileBytes sums the sizes of a table's files outside its log.
func tableFileBytes(b *testing.B, root string) int64 {
	var n int64
	err := filepath.WalkDir(root, func(p string, d os.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() && d.Name() == LogDirName {
			return filepath.SkipDir
		}
		if !d.IsDir() {
			info, err := d.Info()
			if err != nil {
				return err
			}
			n += info.Size()
		}
		return nil
	})
	if err != nil {
		b.Fatal(err)
	}
	return n
}

// benchSmallAppends appends 100 batches of 1000 rows one after the other
// (100 commits) to a table created beforehand, per iteration.
func benchSmallAppends(b *testing.B, db *sql.DB) {
	ctx := context.Background()
	if _, err := db.Exec("CREATE OR REPLACE TABLE small AS SELECT *, (row_number() OVER () - 1) // 1000 AS __batch FROM (SELECT * FROM source LIMIT 101000)"); err != nil {
		b.Fatal(err)
	}
	var cpu cpuMeter
	defer cpu.report(b)
	for i := 0; i < b.N; i++ {
		b.StopTimer()
		root := filepath.Join(b.TempDir(), "t")
		tx, err := BeginCreate(root, TableDefinition{}, WriteOptions{})
		if err != nil {
			b.Fatal(err)
		}
		if _, err := tx.Append(ctx, db, "SELECT * EXCLUDE (__batch) FROM small WHERE __batch = 0"); err != nil {
			b.Fatal(err)
		}
		if _, err := tx.Commit(ctx); err != nil {
			b.Fatal(err)
		}
		syscall.Sync()
		cpu.startTimer(b)
		for k := 1; k <= 100; k++ {
			if _, err := Append(ctx, db, root, fmt.Sprintf("SELECT * EXCLUDE (__batch) FROM small WHERE __batch = %d", k), WriteOptions{}); err != nil {
				b.Fatal(err)
			}
		}
		cpu.stopTimer(b)
	}
}

// writeBenchBase writes the source rows as a table (partitioned by writer
// or not) for the delete benchmarks.
func writeBenchBase(b *testing.B, db *sql.DB, partitioned bool) string {
	b.Helper()
	def := TableDefinition{}
	if partitioned {
		def.PartitionColumns = []string{"writer"}
	}
	return writeBenchTable(b, db, def)
}

// writeBenchTable writes the source rows as a new table of definition def.
func writeBenchTable(b *testing.B, db *sql.DB, def TableDefinition) string {
	b.Helper()
	root := filepath.Join(b.TempDir(), "base")
	tx, err := BeginCreate(root, def, WriteOptions{})
	if err != nil {
		b.Fatal(err)
	}
	if _, err := tx.Append(context.Background(), db, "SELECT * FROM source"); err != nil {
		b.Fatal(err)
	}
	if _, err := tx.Commit(context.Background()); err != nil {
		b.Fatal(err)
	}
	return root
}

func benchDB(b *testing.B) *sql.DB {
	db, err := OpenDuckDB(context.Background())
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { db.Close() })
	return db
}

// BenchmarkAppend writes 1M rows into a new table.
func BenchmarkAppend(b *testing.B) {
	db := benchDB(b)
	loadBenchSource(b, db, "", 1_000_000)
	b.ReportAllocs()
	b.ResetTimer()
	benchAppend(b, db)
}

// BenchmarkDeleteWriter deletes one writer's rows (of 10) from a 1M-row
// table: unpartitioned (scan + rewrite) and partitioned by writer
// (partition-only: files removed without reading them).
func BenchmarkDeleteWriter(b *testing.B) {
	db := benchDB(b)
	loadBenchSource(b, db, "", 1_000_000)
	for _, partitioned := range []bool{false, true} {
		name := "unpartitioned"
		if partitioned {
			name = "partitioned"
		}
		b.Run(name, func(b *testing.B) {
			base := writeBenchBase(b, db, partitioned)
			b.ReportAllocs()
			b.ResetTimer()
			benchDelete(b, db, base)
		})
	}
}

// BenchmarkSmallAppends appends 100 batches of 1000 rows (100 commits,
// with the checkpoints they trigger).
func BenchmarkSmallAppends(b *testing.B) {
	db := benchDB(b)
	loadBenchSource(b, db, "", 200_000)
	b.ReportAllocs()
	b.ResetTimer()
	benchSmallAppends(b, db)
}

// BenchmarkCommit measures a commit alone: an append of one row (write,
// put-if-absent, fsyncs) on a table of 50 commits.
func BenchmarkCommit(b *testing.B) {
	ctx := context.Background()
	db := benchDB(b)
	root := filepath.Join(b.TempDir(), "t")
	tx, _ := BeginCreate(root, TableDefinition{}, WriteOptions{})
	tx.Append(ctx, db, "SELECT 1::BIGINT AS id")
	if _, err := tx.Commit(ctx); err != nil {
		b.Fatal(err)
	}
	for i := 0; i < 50; i++ {
		Append(ctx, db, root, "SELECT 1::BIGINT AS id", WriteOptions{})
	}
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if _, err := Append(ctx, db, root, "SELECT 1::BIGINT AS id", WriteOptions{}); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkWriteVsDeltaRS runs the side-by-side operations on the data
// in $LAKTORY_BENCH_WRITE_DIR (see scripts/bench/write_vs_deltars.sh):
// source.parquet (5M rows) and the tables delta-rs wrote from it.
func BenchmarkWriteVsDeltaRS(b *testing.B) {
	dir := os.Getenv("LAKTORY_BENCH_WRITE_DIR")
	if dir == "" {
		b.Skip("LAKTORY_BENCH_WRITE_DIR not set (see scripts/bench/write_vs_deltars.sh)")
	}
	db := benchDB(b)
	if t := os.Getenv("LAKTORY_BENCH_THREADS"); t != "" {
		// DuckDB's threads (SET threads is global: one connection runs
		// everything), to compare a run without the calling thread's
		// busy wait (threads 1) with the default (the cores).
		db.SetMaxOpenConns(1)
		if _, err := db.Exec("SET threads = " + t); err != nil {
			b.Fatal(err)
		}
	}
	loadBenchSource(b, db, filepath.Join(dir, "source.parquet"), 0)
	b.Run("append_5M", func(b *testing.B) { benchAppend(b, db) })
	b.Run("append_floor", func(b *testing.B) { benchFloor(b, db, "", "") })
	b.Run("delete_unpartitioned", func(b *testing.B) { benchDelete(b, db, filepath.Join(dir, "base_unpartitioned")) })
	b.Run("delete_partitioned", func(b *testing.B) { benchDelete(b, db, filepath.Join(dir, "base_partitioned")) })
	b.Run("delete_owned_files", func(b *testing.B) { benchDelete(b, db, filepath.Join(dir, "base_owned")) })
	b.Run("delete_dv", func(b *testing.B) {
		base := writeBenchTable(b, db, TableDefinition{Properties: map[string]string{PropEnableDeletionVectors: "true"}})
		b.ResetTimer() // the table above is setup
		benchDelete(b, db, base)
	})
	b.Run("delete_floor", func(b *testing.B) { benchCopyFloor(b, db, filepath.Join(dir, "base_unpartitioned")) })
	b.Run("small_appends_100", func(b *testing.B) { benchSmallAppends(b, db) })
	b.Run("optimize_1000", func(b *testing.B) {
		benchOnCopy(b, filepath.Join(dir, "base_small"), func(root string) {
			if _, m, err := Optimize(context.Background(), db, root, OptimizeOptions{}, WriteOptions{}); err != nil || m.FilesRemoved != 1000 {
				b.Fatalf("optimize: %+v, %v", m, err)
			}
		})
	})
	b.Run("optimize_floor", func(b *testing.B) { benchFloor(b, db, filepath.Join(dir, "base_small"), "") })
}
