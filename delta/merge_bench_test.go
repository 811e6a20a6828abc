package delta

import (
	"context"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
)

// BenchmarkMergeVsDeltaRS merges the change batches of
// $LAKTORY_BENCH_MERGE_DIR (see scripts/bench/merge_vs_deltars.sh) into a
// copy of its base table, as delta-rs' TableMerger does in the same run:
// ON id, delete when source.op = 'D', update every column, insert every
// column. It reports the files read, rewritten and added, and the rows
// updated, deleted and inserted.
func BenchmarkMergeVsDeltaRS(b *testing.B) {
	dir := os.Getenv("LAKTORY_BENCH_MERGE_DIR")
	if dir == "" {
		b.Skip("LAKTORY_BENCH_MERGE_DIR not set (see scripts/bench/merge_vs_deltars.sh)")
	}
	db := benchDB(b)
	base := filepath.Join(dir, "base")
	// recent_dv: the recent batch into the same rows in a table with
	// deletion vectors (delta-rs' figure is its rewrite of recent).
	for _, name := range []string{"recent", "spread", "recent_dv"} {
		batch, dv := strings.TrimSuffix(name, "_dv"), strings.HasSuffix(name, "_dv")
		b.Run(name, func(b *testing.B) {
			ctx := context.Background()
			conn, err := db.Conn(ctx)
			if err != nil {
				b.Fatal(err)
			}
			defer conn.Close()
			if _, err := conn.ExecContext(ctx, "CREATE OR REPLACE TEMP TABLE batch AS SELECT * FROM read_parquet("+
				quoteString(filepath.Join(dir, batch+".parquet"))+")"); err != nil {
				b.Fatal(err)
			}
			spec := upsertAll(b, base)
			var cpu cpuMeter
			var m MergeMetrics
			for i := 0; i < b.N; i++ {
				b.StopTimer()
				root := filepath.Join(b.TempDir(), "t")
				linkTable(b, base, root, dv)
				syscall.Sync()
				cpu.startTimer(b)
				tx, err := mustSnapshot(b, root).Begin(WriteOptions{})
				if err != nil {
					b.Fatal(err)
				}
				if m, err = tx.Merge(ctx, conn, spec); err != nil {
					b.Fatal(err)
				}
				if _, err := tx.Commit(ctx); err != nil {
					b.Fatal(err)
				}
				cpu.stopTimer(b)
			}
			cpu.report(b)
			b.ReportMetric(float64(m.FilesScanned), "files-read")
			b.ReportMetric(float64(m.FilesRemoved), "files-rewritten")
			b.ReportMetric(float64(m.FilesAdded), "files-added")
			b.ReportMetric(float64(m.DeletionVectors), "dvs-added")
			b.ReportMetric(float64(m.Updated), "updated")
			b.ReportMetric(float64(m.Deleted), "deleted")
			b.ReportMetric(float64(m.Inserted), "inserted")
		})
	}
}

// upsertAll is the benchmark's MERGE of the temporary table batch into the
// table at base: keyed by id, delete on source.op = 'D', else update every
// column; insert the others.
func upsertAll(b *testing.B, base string) MergeSpec {
	b.Helper()
	var set, values []MergeAssignment
	for _, c := range mustSnapshot(b, base).Schema().FieldNames() {
		a := MergeAssignment{Column: c, Expr: "source." + quoteIdent(c)}
		values = append(values, a)
		if c != "id" {
			set = append(set, a)
		}
	}
	return MergeSpec{Source: "SELECT * FROM batch", Keys: []MergeKey{{Target: "id", Source: "id"}},
		Matched:    []MergeClause{{Action: MergeDelete, Condition: "source.op = 'D'"}, {Action: MergeUpdate, Set: set}},
		NotMatched: []MergeClause{{Action: MergeInsert, Set: values}}}
}

// linkTable copies the table at src to dst: its data files hard-linked (a
// merge changes no data file, only the log) and its log copied, or, with
// dv, a log of one commit enabling deletion vectors and adding the same
// files.
func linkTable(b *testing.B, src, dst string, dv bool) {
	b.Helper()
	err := filepath.WalkDir(src, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(src, p)
		to := filepath.Join(dst, rel)
		log := rel == LogDirName || strings.HasPrefix(filepath.ToSlash(rel), LogDirName+"/")
		switch {
		case log && dv:
			return nil
		case d.IsDir():
			return os.MkdirAll(to, 0o755)
		case log:
			data, err := os.ReadFile(p)
			if err != nil {
				return err
			}
			return os.WriteFile(to, data, 0o644)
		default:
			return os.Link(p, to)
		}
	})
	if err != nil {
		b.Fatal(err)
	}
	if !dv {
		return
	}
	s := mustSnapshot(b, src)
	tx, err := BeginCreate(dst, TableDefinition{Schema: s.Schema(), Properties: map[string]string{PropEnableDeletionVectors: "true"}}, WriteOptions{})
	if err != nil {
		b.Fatal(err)
	}
	tx.addFiles(s.Files())
	if _, err := tx.Commit(context.Background()); err != nil {
		b.Fatal(err)
	}
}
