package delta

import (
	"context"
	"database/sql"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
)

// BenchmarkShapes writes each column shape of scripts/bench/shapes_vs_deltars.sh
// (the sources and shapes.json in $LAKTORY_BENCH_SHAPES_DIR) as a new
// one-column table ("ours"), as delta-rs and Polars do in the same run,
// and reports the bytes of its data files (written-bytes) and the CPU of
// the write (cpu-ms/op). The source column is held in a DuckDB in-memory
// table, as the peers hold theirs in Arrow memory. "floor" is DuckDB's own
// COPY of the column with the same options, the part of the write that is
// DuckDB's: no stats, no re-encoding, no log.
func BenchmarkShapes(b *testing.B) {
	dir := os.Getenv("LAKTORY_BENCH_SHAPES_DIR")
	if dir == "" {
		b.Skip("LAKTORY_BENCH_SHAPES_DIR not set (see scripts/bench/shapes_vs_deltars.sh)")
	}
	raw, err := os.ReadFile(filepath.Join(dir, "shapes.json"))
	if err != nil {
		b.Fatal(err)
	}
	var meta struct {
		Shapes []struct{ Shape, Source, Column string }
	}
	if err := json.Unmarshal(raw, &meta); err != nil {
		b.Fatal(err)
	}
	db := benchDB(b)
	loaded := ""
	for _, s := range meta.Shapes {
		b.Run(s.Shape, func(b *testing.B) {
			if loaded != s.Source {
				if _, err := db.Exec("CREATE OR REPLACE TABLE source AS SELECT * FROM read_parquet(" +
					quoteString(filepath.Join(dir, s.Source)) + ")"); err != nil {
					b.Fatal(err)
				}
				loaded = s.Source
			}
			q := "SELECT " + quoteIdent(s.Column) + " FROM source"
			b.Run("ours", func(b *testing.B) { benchAppendQuery(b, db, q) })
			b.Run("floor", func(b *testing.B) { benchCopyQuery(b, db, q) })
		})
	}
}

// benchCopyQuery writes the rows of query with DuckDB's COPY and the data
// files' options, per iteration, and reports the file's bytes and the
// CPU of the COPY.
func benchCopyQuery(b *testing.B, db *sql.DB, query string) {
	schema, err := QuerySchema(context.Background(), db, query)
	if err != nil {
		b.Fatal(err)
	}
	opts := strings.Join(parquetOptions(schema.Fields, DefaultTargetFileSize), ", ")
	var cpu cpuMeter
	defer cpu.report(b)
	var written int64
	for i := 0; i < b.N; i++ {
		b.StopTimer()
		path := filepath.Join(b.TempDir(), "floor.parquet")
		syscall.Sync()
		cpu.startTimer(b)
		if _, err := db.Exec("COPY (" + query + ") TO " + quoteString(path) + " (" + opts + ")"); err != nil {
			b.Fatal(err)
		}
		cpu.stopTimer(b)
		st, err := os.Stat(path)
		if err != nil {
			b.Fatal(err)
		}
		written += st.Size()
	}
	b.ReportMetric(float64(written)/float64(b.N), "written-bytes")
}
