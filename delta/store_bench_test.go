package delta

import (
	"context"
	"flag"
	"fmt"
	"path/filepath"
	"testing"

	"github.com/laktory/workbench/delta/s3test"
)

// Benchmarks of a lake in a bucket (moto on loopback) against a local one:
// wall time per operation, and the store's requests and bytes per
// operation (requests/op, B-read/op, B-written/op), the cache's hit rate
// for scans.
//
//	go test ./delta -run '^$' -bench 'BenchmarkLake' -benchtime 20x
//
// -lake.rows N sizes the table (20,000 rows by default, in 4 files; the
// FULL refresh rewrites a quarter of them).

var lakeRows = flag.Int("lake.rows", 20000, "rows of the benchmarks' table (BenchmarkLake*), in 4 files")

func benchRoots(b *testing.B) map[string]string {
	srv := s3test.Shared(b)
	srv.Setenv(b)
	return map[string]string{"local": filepath.Join(b.TempDir(), "t"), "s3": "s3://" + srv.Bucket(b) + "/lake/t"}
}

// benchTable makes a table of 2 writers' rows (-lake.rows in all) in 4 files,
// unless root has one (a benchmark function runs more than once).
func benchTable(b *testing.B, root string) {
	if _, err := Open(context.Background(), root); err == nil {
		return
	}
	db := writeTestDB(b)
	mustCreate(b, db, root, "SELECT 0::BIGINT AS id, 'w' AS writer, 0.0::DOUBLE AS x", nil, nil)
	q := *lakeRows / 4
	for i := 0; i < 4; i++ {
		mustAppend(b, db, root, fmt.Sprintf("SELECT i::BIGINT AS id, 'w%d' AS writer, i * 0.5 AS x FROM range(%d, %d) r(i)", i%2, i*q, i*q+q))
	}
}

func reportStore(b *testing.B, root string, before StoreStats) {
	st, _ := storeFor(context.Background(), root)
	after, _ := StatsOf(st)
	if _, ok := st.(*LocalStore); ok {
		return // a fresh LocalStore per call counts nothing across calls
	}
	d := after.Sub(before)
	b.ReportMetric(float64(d.Requests())/float64(b.N), "requests/op")
	b.ReportMetric(float64(d.BytesRead)/float64(b.N), "B-read/op")
	b.ReportMetric(float64(d.BytesWritten)/float64(b.N), "B-written/op")
}

// traceMark starts a section of the request trace (LAKTORY_S3_TRACE), so
// that scripts/bench/s3trace.sh sums a benchmark's timed requests apart
// from its setup: "NAME N=n" before the timed loop, "setup" after it.
func traceMark(b *testing.B, timed bool) {
	label := "setup"
	if timed {
		label = fmt.Sprintf("%s N=%d", b.Name(), b.N)
	}
	traceFiles.mu.Lock()
	defer traceFiles.mu.Unlock()
	for _, t := range traceFiles.by {
		t.mu.Lock()
		fmt.Fprintf(t.w, "# %s\n", label)
		t.mu.Unlock()
	}
}

func storeStats(root string) StoreStats {
	st, _ := storeFor(context.Background(), root)
	s, _ := StatsOf(st)
	return s
}

// BenchmarkLakeAppendCommit: one blind append of 100 rows (a file, a
// commit).
func BenchmarkLakeAppendCommit(b *testing.B) {
	SetObjectCache(&ObjectCache{Dir: b.TempDir()})
	defer SetObjectCache(nil)
	for name, root := range benchRoots(b) {
		b.Run(name, func(b *testing.B) {
			benchTable(b, root)
			db := writeTestDB(b)
			before := storeStats(root)
			traceMark(b, true)
			b.ResetTimer()
			for i := 0; i < b.N; i++ {
				if _, err := Append(context.Background(), db, root, "SELECT i::BIGINT AS id, 'w2' AS writer, 1.0 AS x FROM range(100) r(i)", WriteOptions{}); err != nil {
					b.Fatal(err)
				}
			}
			b.StopTimer()
			traceMark(b, false)
			reportStore(b, root, before)
		})
	}
}

// BenchmarkLakeFullRefresh: a writer's FULL refresh of a shared table:
// its rows deleted and a quarter of -lake.rows written in one commit.
func BenchmarkLakeFullRefresh(b *testing.B) {
	SetObjectCache(&ObjectCache{Dir: b.TempDir()})
	defer SetObjectCache(nil)
	for name, root := range benchRoots(b) {
		b.Run(name, func(b *testing.B) {
			benchTable(b, root)
			db := writeTestDB(b)
			before := storeStats(root)
			traceMark(b, true)
			b.ResetTimer()
			for i := 0; i < b.N; i++ {
				tx, err := mustSnapshot(b, root).Begin(WriteOptions{})
				if err != nil {
					b.Fatal(err)
				}
				if _, err := tx.Delete(context.Background(), db, "writer = 'w0'"); err != nil {
					b.Fatal(err)
				}
				if _, err := tx.Append(context.Background(), db, fmt.Sprintf("SELECT i::BIGINT AS id, 'w0' AS writer, i * 0.25 AS x FROM range(%d) r(i)", *lakeRows/4)); err != nil {
					b.Fatal(err)
				}
				if _, err := tx.Commit(context.Background()); err != nil {
					b.Fatal(err)
				}
			}
			b.StopTimer()
			traceMark(b, false)
			reportStore(b, root, before)
		})
	}
}

// BenchmarkLakeScan: a snapshot and a full scan (count) of the table; on
// S3 "cold" empties the object cache before each scan, "warm" keeps it.
func BenchmarkLakeScan(b *testing.B) {
	roots := benchRoots(b)
	for _, name := range []string{"local", "s3-cold", "s3-warm"} {
		root := roots["local"]
		if name != "local" {
			root = roots["s3"]
		}
		b.Run(name, func(b *testing.B) {
			cache := &ObjectCache{Dir: b.TempDir()}
			SetObjectCache(cache)
			defer SetObjectCache(nil)
			benchTable(b, root)
			db := writeTestDB(b)
			before := storeStats(root)
			traceMark(b, true)
			b.ResetTimer()
			for i := 0; i < b.N; i++ {
				if name == "s3-cold" {
					b.StopTimer()
					cache.Clean()
					b.StartTimer()
				}
				s := mustSnapshot(b, root)
				q, err := s.ScanSQL(context.Background(), ScanOptions{})
				if err != nil {
					b.Fatal(err)
				}
				var n int64
				if err := db.QueryRow("SELECT count(*) FROM (" + q + ")").Scan(&n); err != nil || n != int64(*lakeRows/4*4) {
					b.Fatal(n, err)
				}
			}
			b.StopTimer()
			traceMark(b, false)
			reportStore(b, root, before)
			if name != "local" {
				b.ReportMetric(cache.Stats().HitRate(), "cache-hit-rate")
			}
		})
	}
}
