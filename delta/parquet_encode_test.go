package delta

import (
	"bytes"
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/klauspost/compress/s2"
	"github.com/parquet-go/parquet-go"
	"github.com/parquet-go/parquet-go/encoding/rle"
)

// chunkInfo is what a test sees of a column chunk: its encodings (as
// parquet_metadata names them) and the bit width of its first dictionary
// data page.
type chunkInfo struct {
	path, encodings string
	dictEntries     int64
	indexBits       int
}

// fileChunks lists the column chunks of a data file, reading the first
// data page of dictionary-encoded ones.
func fileChunks(t *testing.T, db Querier, path string) []chunkInfo {
	t.Helper()
	rows, err := db.QueryContext(context.Background(), "SELECT path_in_schema, encodings, dictionary_page_offset, data_page_offset, compression FROM parquet_metadata("+
		quoteString(path)+") ORDER BY row_group_id, column_id")
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	raw, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var out []chunkInfo
	for rows.Next() {
		var c chunkInfo
		var dictOff, dataOff *int64
		var codec string
		if err := rows.Scan(&c.path, &c.encodings, &dictOff, &dataOff, &codec); err != nil {
			t.Fatal(err)
		}
		if dictOff != nil && *dictOff > 0 {
			ph, _, err := readStruct(raw[*dictOff:])
			if err != nil {
				t.Fatal(err)
			}
			c.dictEntries = ph.field(7).int(1)
			dph, n, err := readStruct(raw[*dataOff:])
			if err != nil {
				t.Fatal(err)
			}
			body := raw[*dataOff+int64(n) : *dataOff+int64(n)+dph.int(3)]
			switch codec {
			case "SNAPPY":
				if body, err = s2.Decode(nil, body); err != nil {
					t.Fatal(err)
				}
			case "ZSTD":
				if body, err = zstdDecoder.DecodeAll(body, nil); err != nil {
					t.Fatal(err)
				}
			case "UNCOMPRESSED":
			default:
				t.Fatalf("column %s: codec %s", c.path, codec)
			}
			// one level of definition levels (flat optional columns)
			p := 4 + int(uint32(body[0])|uint32(body[1])<<8|uint32(body[2])<<16|uint32(body[3])<<24)
			c.indexBits = int(body[p])
		}
		out = append(out, c)
	}
	return out
}

// TestFinishDataFile writes column shapes whose DuckDB encodings are
// fixed after the COPY and checks what readers get: the same rows
// through DuckDB and parquet-go, no BYTE_STREAM_SPLIT (Spark refuses it),
// dictionary indices of the fewest bits, and files no larger than
// DuckDB's own.
func TestFinishDataFile(t *testing.T) {
	db := writeTestDB(t)
	cases := []struct {
		name, query string
		smaller     bool // than DuckDB's file (the fix saves bytes)
		bits        map[string]int
	}{
		// zstd codes the second bit of random indices away: re-packed at 1
		// bit the page is no smaller, so it stays at DuckDB's 2.
		{name: "two strings at random", bits: map[string]int{"s": 2},
			query: "SELECT CASE WHEN hash(i) % 2 = 0 THEN 'yes' ELSE 'no' END AS s FROM range(200000) t(i)"},
		{name: "four ints with nulls", smaller: true, bits: map[string]int{"n": 2},
			query: "SELECT CASE WHEN hash(i) % 10 < 3 THEN NULL ELSE (hash(i * 7) % 4)::BIGINT END AS n FROM range(200000) t(i)"},
		{name: "256 values", smaller: true, bits: map[string]int{"v": 8},
			query: "SELECT (hash(i) % 256)::INTEGER AS v FROM range(200000) t(i)"},
		{name: "three values stay", bits: map[string]int{"v": 2},
			query: "SELECT (hash(i) % 3)::INTEGER AS v FROM range(200000) t(i)"},
		{name: "doubles beyond the dictionary",
			query: "SELECT CASE WHEN i % 7 = 0 THEN NULL ELSE hash(i) / 1e6 END::DOUBLE AS d, (hash(i) % 1000000)::FLOAT AS f FROM range(300000) t(i)"},
		{name: "all-null double",
			query: "SELECT i::BIGINT AS id, CAST(NULL AS DOUBLE) AS d FROM range(1000) t(i)"},
		{name: "nested doubles",
			query: "SELECT [hash(i) / 1e3, NULL, i / 3.0]::DOUBLE[] AS l, {'x': hash(i) / 1e9, 'y': (i % 2)::INTEGER} AS st FROM range(150000) t(i)"},
		{name: "mixed", bits: map[string]int{"writer": 1},
			query: "SELECT i::BIGINT AS id, 'w' || (i % 2) AS writer, TIMESTAMPTZ '2024-01-01 00:00:00+00' + i * INTERVAL 1 SECOND AS ts, " +
				"hash(i) / 1e6 AS price, (i % 100)::INTEGER AS qty, md5(i::VARCHAR) AS h FROM range(300000) t(i)"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			root := filepath.Join(t.TempDir(), "t")
			mustCreate(t, db, root, c.query, nil, nil)
			mustAppend(t, db, root, c.query)
			s := mustSnapshot(t, root)
			if len(s.Files()) == 0 {
				t.Fatal("no files")
			}
			var total int64
			for _, f := range s.Files() {
				p, err := s.FilePath(f.Path)
				if err != nil {
					t.Fatal(err)
				}
				st, err := os.Stat(p)
				if err != nil {
					t.Fatal(err)
				}
				if st.Size() != f.Size {
					t.Errorf("add.size %d, file %d bytes", f.Size, st.Size())
				}
				total += st.Size()
				for _, ch := range fileChunks(t, db, p) {
					if strings.Contains(ch.encodings, "BYTE_STREAM_SPLIT") {
						t.Errorf("column %s: %s", ch.path, ch.encodings)
					}
					if want, ok := c.bits[ch.path]; ok && ch.indexBits != want {
						t.Errorf("column %s: %d entries, indices of %d bits, want %d", ch.path, ch.dictEntries, ch.indexBits, want)
					}
				}
				checkParquetGoReads(t, db, p)
			}
			expected := filepath.Join(t.TempDir(), "expected.parquet")
			copyToParquet(t, db, c.query, expected)
			assertSameRows(t, db, s, expected)
			// Never larger than DuckDB's file with the same options; smaller
			// where re-encoding pays.
			{
				duck := filepath.Join(t.TempDir(), "duckdb.parquet")
				if _, err := db.Exec("COPY (" + c.query + ") TO " + quoteString(duck) + " (" +
					strings.Join(parquetOptions(s.Schema().Fields, DefaultTargetFileSize), ", ") + ")"); err != nil {
					t.Fatal(err)
				}
				st, _ := os.Stat(duck)
				if total > st.Size() || c.smaller && total >= st.Size() {
					t.Errorf("%d bytes, DuckDB's own file %d", total, st.Size())
				}
			}
		})
	}
}

// checkParquetGoReads reads every row of a data file with parquet-go (an
// independent reader) and compares their count and rendering with
// DuckDB's.
func checkParquetGoReads(t *testing.T, db *sql.DB, path string) {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	st, _ := f.Stat()
	pf, err := parquet.OpenFile(f, st.Size())
	if err != nil {
		t.Fatalf("parquet-go: %v", err)
	}
	r := parquet.NewGenericReader[any](f, pf.Schema())
	defer r.Close()
	var n int64
	nulls := 0
	buf := make([]parquet.Row, 1024)
	for {
		k, err := r.ReadRows(buf)
		for _, row := range buf[:k] {
			for _, v := range row {
				if v.IsNull() {
					nulls++
				}
			}
		}
		n += int64(k)
		if err != nil {
			break
		}
	}
	var want int64
	if err := db.QueryRowContext(context.Background(), "SELECT count(*) FROM read_parquet("+quoteString(path)+")").Scan(&want); err != nil {
		t.Fatal(err)
	}
	if n != want {
		t.Fatalf("parquet-go read %d rows, DuckDB %d", n, want)
	}
}

// TestRepackHybrid re-packs RLE/bit-packed runs (written by parquet-go's
// encoder, of runs and of scattered values) at a smaller width and
// decodes them with parquet-go's decoder.
func TestRepackHybrid(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	for _, to := range []int{1, 2, 3, 7, 8, 9, 15, 16, 17} {
		for _, n := range []int{1, 7, 8, 9, 100, 1001, 20000} {
			vals := make([]int32, n)
			for i := range vals {
				switch {
				case i%500 < 100: // a run
					vals[i] = int32(i / 500 % (1 << to))
				default:
					vals[i] = int32(rng.IntN(1 << to))
				}
			}
			from := to + 1
			enc, err := (&rle.Encoding{BitWidth: from}).EncodeInt32(nil, vals)
			if err != nil {
				t.Fatal(err)
			}
			got, err := repackHybrid(enc, from, to, nil)
			if err != nil {
				t.Fatalf("width %d, %d values: %v", to, n, err)
			}
			dec, err := (&rle.Encoding{BitWidth: to}).DecodeInt32(nil, got)
			if err != nil {
				t.Fatalf("width %d, %d values: decoding: %v", to, n, err)
			}
			if len(dec) < n || !slicesEqual(dec[:n], vals) {
				t.Fatalf("width %d, %d values: decoded %d values, first differences %v", to, n, len(dec), firstDiff(dec, vals))
			}
			if len(got) > len(enc) {
				t.Errorf("width %d, %d values: %d bytes re-packed from %d", to, n, len(got), len(enc))
			}
		}
	}
	if _, err := repackHybrid([]byte{0x02, 0x05}, 3, 2, nil); !errors.Is(err, errParquetFile) {
		t.Errorf("an index of 3 bits kept at 2: %v", err)
	}
	if _, err := repackHybrid([]byte{0x03, 0xff}, 3, 2, nil); !errors.Is(err, errParquetFile) {
		t.Errorf("a truncated bit-packed run: %v", err)
	}
}

func slicesEqual(a, b []int32) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

func firstDiff(a, b []int32) string {
	for i := range min(len(a), len(b)) {
		if a[i] != b[i] {
			return fmt.Sprintf("at %d: %d, want %d", i, a[i], b[i])
		}
	}
	return "none in the common prefix"
}

// TestThriftRoundTrip reads and writes back the footers and page headers
// of files DuckDB writes, every type and field ids included: the bytes
// must be the same, so a re-encoded file keeps every field DuckDB wrote.
func TestThriftRoundTrip(t *testing.T) {
	db := writeTestDB(t)
	dir := t.TempDir()
	for i, opts := range []string{
		"FORMAT parquet, PARQUET_VERSION V2, COMPRESSION snappy",
		"FORMAT parquet, COMPRESSION snappy, FIELD_IDS {id: 1, st: {__duckdb_field_id: 2, a: 3, b: 4}, l: {__duckdb_field_id: 5, element: 6}}",
		"FORMAT parquet, COMPRESSION zstd, KV_METADATA {k: 'v'}",
	} {
		path := filepath.Join(dir, fmt.Sprintf("f%d.parquet", i))
		if _, err := db.Exec("COPY (" + interopSource(0, 5000) + ") TO " + quoteString(path) + " (" + opts + ")"); err != nil {
			t.Fatal(err)
		}
		raw, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		f, _ := os.Open(path)
		md, footerStart, err := readParquetFooter(f, int64(len(raw)))
		f.Close()
		if err != nil {
			t.Fatal(err)
		}
		if got := appendStruct(nil, md); !bytes.Equal(got, raw[footerStart:len(raw)-8]) {
			t.Fatalf("%s: footer of %d bytes written back as %d", opts, len(raw)-8-int(footerStart), len(got))
		}
		pages := 0
		for _, rg := range md.list(4) {
			for _, cc := range rg.list(1) {
				cm := cc.field(3)
				start, end := chunkStart(cm), chunkStart(cm)+cm.int(7)
				for off := start; off < end; pages++ {
					ph, n, err := readStruct(raw[off:])
					if err != nil {
						t.Fatal(err)
					}
					if got := appendStruct(nil, &ph); !bytes.Equal(got, raw[off:off+int64(n)]) {
						t.Fatalf("%s: page header at %d written back differently", opts, off)
					}
					off += int64(n) + ph.int(3)
				}
			}
		}
		if pages == 0 {
			t.Fatal("no pages")
		}
	}
}

// TestFinishDataFileErrors: a file that is not what DuckDB writes fails
// the write with errParquetFile and leaves no file of the write behind.
func TestFinishDataFileErrors(t *testing.T) {
	dir := t.TempDir()
	for name, data := range map[string][]byte{
		"empty":      {},
		"no footer":  []byte("PAR1 and some bytes of no footer"),
		"bad length": append([]byte("PAR1"), 0xff, 0xff, 0xff, 0x0f, 'P', 'A', 'R', '1'),
	} {
		p := filepath.Join(dir, name+".parquet")
		if err := os.WriteFile(p, data, 0o644); err != nil {
			t.Fatal(err)
		}
		if _, err := finishDataFile(p, int64(len(data))); !errors.Is(err, errParquetFile) {
			t.Errorf("%s: %v", name, err)
		}
	}
	// A double written V2 (BYTE_STREAM_SPLIT, which Spark cannot read).
	db := writeTestDB(t)
	bss := filepath.Join(dir, "bss.parquet")
	if _, err := db.Exec("COPY (SELECT hash(i) / 3.0 AS d FROM range(100000) t(i)) TO " + quoteString(bss) +
		" (FORMAT parquet, PARQUET_VERSION V2)"); err != nil {
		t.Fatal(err)
	}
	st, _ := os.Stat(bss)
	if _, err := finishDataFile(bss, st.Size()); !errors.Is(err, errParquetFile) || !strings.Contains(err.Error(), "column d is BYTE_STREAM_SPLIT") {
		t.Errorf("BYTE_STREAM_SPLIT: %v", err)
	}
	// A page whose bytes do not decompress: the rewrite fails, the file
	// stays as it was and no temporary file is left.
	p := filepath.Join(dir, "two.parquet")
	if _, err := db.Exec("COPY (SELECT (hash(i) % 2)::INTEGER AS v FROM range(10000) t(i)) TO " + quoteString(p) + " (" +
		strings.Join(parquetOptions([]*StructField{{Name: "v", Type: IntegerType}}, 0), ", ") + ")"); err != nil {
		t.Fatal(err)
	}
	raw, _ := os.ReadFile(p)
	f, _ := os.Open(p)
	md, _, err := readParquetFooter(f, int64(len(raw)))
	f.Close()
	if err != nil {
		t.Fatal(err)
	}
	cm := md.list(4)[0].list(1)[0].field(3)
	_, n, _ := readStruct(raw[cm.int(9):])
	corrupt := bytes.Clone(raw)
	for k := cm.int(9) + int64(n); k < cm.int(9)+int64(n)+8; k++ {
		corrupt[k] ^= 0xff
	}
	if err := os.WriteFile(p, corrupt, 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := finishDataFile(p, int64(len(corrupt))); !errors.Is(err, errParquetFile) {
		t.Fatalf("corrupt page: %v", err)
	}
	after, _ := os.ReadFile(p)
	entries, _ := os.ReadDir(dir)
	if !bytes.Equal(after, corrupt) || len(entries) != 5 {
		t.Fatalf("file changed or left behind: %d entries", len(entries))
	}
}

// TestInteropEncodings: delta-rs (through pyarrow and through DataFusion,
// i.e. arrow-rs) and polars 1.32 read tables whose files hold every
// encoding the writer chooses: a table without floats (V2: dictionaries
// with re-packed indices, DELTA_BINARY_PACKED for integers, timestamps,
// dates and decimals, DELTA_LENGTH_BYTE_ARRAY for strings, nested ones
// too) and one with doubles (V1: PLAIN past the dictionary). Spark reads
// the same shapes in scripts/interop/spark_check.sh --only ours_encodings.
func TestInteropEncodings(t *testing.T) {
	interopPython(t)
	db := writeTestDB(t)
	dir := t.TempDir()
	for _, c := range []struct {
		name, query string
		want        []string // encodings some chunk must have
	}{
		{"v2", `SELECT i::BIGINT AS id, (hash(i) % 1000000)::BIGINT AS big, CASE WHEN i % 4 = 0 THEN NULL ELSE md5(i::VARCHAR) END AS h,
		  'w' || (i % 2) AS writer, CASE WHEN i % 3 = 0 THEN NULL ELSE (hash(i) % 4)::INTEGER END AS four,
		  TIMESTAMPTZ '2024-01-01 00:00:00+00' + i * INTERVAL 1 SECOND AS ts, DATE '2020-01-01' + (i % 100000)::INTEGER AS d,
		  (i / 100)::DECIMAL(18,2) AS dec, (i / 7)::DECIMAL(38,6) AS wide, (i % 30000)::SMALLINT AS sm,
		  {'a': i::INTEGER, 'b': 'x' || (i % 2)} AS st, ['k' || (i % 3), md5((i * 3)::VARCHAR)] AS l, i % 3 = 0 AS flag
		  FROM range(150000) t(i)`, []string{"DELTA_BINARY_PACKED", "DELTA_LENGTH_BYTE_ARRAY", "RLE_DICTIONARY"}},
		{"v1", `SELECT i::BIGINT AS id, hash(i) / 1e6 AS price, (i % 2)::DOUBLE AS half,
		  CASE WHEN i % 5 = 0 THEN NULL ELSE (i % 4)::FLOAT END AS f, [hash(i) / 1e9, i / 3.0] AS l, CAST(NULL AS DOUBLE) AS none
		  FROM range(150000) t(i)`, []string{"PLAIN", "PLAIN_DICTIONARY"}},
	} {
		t.Run(c.name, func(t *testing.T) {
			root := filepath.Join(dir, c.name)
			mustCreate(t, db, root, c.query, nil, nil)
			mustAppend(t, db, root, c.query)
			s := mustSnapshot(t, root)
			seen := map[string]bool{}
			for _, f := range s.Files() {
				p, err := s.FilePath(f.Path)
				if err != nil {
					t.Fatal(err)
				}
				for _, ch := range fileChunks(t, db, p) {
					for _, e := range strings.Split(ch.encodings, ", ") {
						seen[e] = true
					}
				}
			}
			for _, e := range c.want {
				if !seen[e] {
					t.Errorf("no chunk is %s: %v", e, seen)
				}
			}
			if seen["BYTE_STREAM_SPLIT"] {
				t.Errorf("BYTE_STREAM_SPLIT: %v", seen)
			}
			expected := filepath.Join(dir, c.name+".parquet")
			copyToParquet(t, db, c.query, expected)
			assertSameRows(t, db, s, expected)
			out := runPythonOutput(t, filepath.Join("testdata", "write_interop_check.py"), "--datafusion", root, expected)
			var r interopReport
			if err := json.Unmarshal([]byte(out), &r); err != nil {
				t.Fatalf("report %q: %v", out, err)
			}
			if r.Rows != 150000 || r.DeltaRSReader != "pyarrow+datafusion" || r.Polars != "ok" {
				t.Errorf("report %+v", r)
			}
		})
	}
}
