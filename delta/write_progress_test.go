package delta

import (
	"context"
	"os"
	"path/filepath"
	"strconv"
	"sync"
	"testing"
	"time"
)

// TestWriteMeter measures the files of a write in progress: every file of
// the write counts its bytes, the finished ones (all but the last started)
// their rows; other writes' files and a file being written are not read.
func TestWriteMeter(t *testing.T) {
	db := writeTestDB(t)
	root := t.TempDir()
	copyTo := func(name string, n int) {
		t.Helper()
		q := "COPY (SELECT range AS id FROM range(" + strconv.Itoa(n) + ")) TO '" + filepath.Join(root, name) + "' (FORMAT parquet)"
		if _, err := db.ExecContext(context.Background(), q); err != nil {
			t.Fatal(err)
		}
	}
	copyTo("part-0-abcd1234-u1-c000.snappy.parquet", 300)
	copyTo("part-1-abcd1234-u2-c000.snappy.parquet", 200)
	copyTo("part-0-other999-u3-c000.snappy.parquet", 1000) // another write
	// The file being written: no footer yet.
	if err := os.WriteFile(filepath.Join(root, "part-2-abcd1234-u4-c000.snappy.parquet"), []byte("PAR1 half a row group"), 0o644); err != nil {
		t.Fatal(err)
	}
	var want int64
	for _, f := range []string{"part-0-abcd1234-u1-c000.snappy.parquet", "part-1-abcd1234-u2-c000.snappy.parquet", "part-2-abcd1234-u4-c000.snappy.parquet"} {
		st, err := os.Stat(filepath.Join(root, f))
		if err != nil {
			t.Fatal(err)
		}
		want += st.Size()
	}
	m := writeMeter{root: root, writeID: "abcd1234", rows: map[string]int64{}}
	p := m.measure()
	if p.Files != 3 || p.Bytes != want || p.Rows != 500 || p.Done {
		t.Fatalf("measure = %+v, want 3 files, %d bytes, 500 rows (the finished files), not done", p, want)
	}
	// Partitioned: the files are in partition folders, all open until the
	// end (no rows yet).
	part := t.TempDir()
	if err := os.MkdirAll(filepath.Join(part, "p=a"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(part, "p=a", "part-0-abcd1234-u5-c000.snappy.parquet"), []byte("12345"), 0o644); err != nil {
		t.Fatal(err)
	}
	m = writeMeter{root: part, writeID: "abcd1234", partitioned: true, rows: map[string]int64{}}
	if p := m.measure(); p.Files != 1 || p.Bytes != 5 || p.Rows != 0 {
		t.Fatalf("partitioned measure = %+v, want 1 file of 5 bytes", p)
	}
}

// TestWriteProgressReports appends with a progress callback: the reports
// never go back, and the last one (Done) has the exact rows and bytes of
// the files committed.
func TestWriteProgressReports(t *testing.T) {
	db := writeTestDB(t)
	root := filepath.Join(t.TempDir(), "t")
	mustCreate(t, db, root, "SELECT 1::BIGINT AS id, 'x' AS s", nil, nil)
	var mu sync.Mutex
	var got []WriteProgress
	opts := WriteOptions{TargetFileSize: 256 << 10, ProgressInterval: time.Millisecond, Progress: func(p WriteProgress) {
		mu.Lock()
		defer mu.Unlock()
		got = append(got, p)
	}}
	res, err := Append(context.Background(), db, root, "SELECT range AS id, md5(range::VARCHAR) AS s FROM range(200000)", opts)
	if err != nil {
		t.Fatal(err)
	}
	mu.Lock()
	defer mu.Unlock()
	if len(got) == 0 || !got[len(got)-1].Done {
		t.Fatalf("reports %+v: the last must be Done", got)
	}
	last := got[len(got)-1]
	if last.Rows != 200000 || last.Rows != res.Metrics.AddedRows || last.Bytes != res.Metrics.AddedBytes || last.Files != res.Metrics.AddedFiles {
		t.Fatalf("last report %+v, commit metrics %+v", last, res.Metrics)
	}
	for i := 1; i < len(got); i++ {
		if got[i].Bytes < got[i-1].Bytes || got[i].Rows < got[i-1].Rows {
			t.Fatalf("report %d went back: %+v after %+v", i, got[i], got[i-1])
		}
	}
	t.Logf("%d reports, last %+v", len(got), last)
}
