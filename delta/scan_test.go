package delta

import (
	"context"
	"database/sql"
	"encoding/binary"
	"errors"
	"fmt"
	"hash/crc32"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"sort"
	"strings"
	"testing"

	"github.com/google/uuid"
)

func openTestDB(t *testing.T) *sql.DB {
	t.Helper()
	db, err := OpenDuckDB(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	return db
}

// writeParquet writes the rows of a DuckDB query to root/rel.
func writeParquet(t *testing.T, db *sql.DB, root, rel, query string) {
	t.Helper()
	p := filepath.Join(root, filepath.FromSlash(rel))
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		t.Fatal(err)
	}
	if _, err := db.Exec("COPY (" + query + ") TO " + quoteString(p) + " (FORMAT parquet)"); err != nil {
		t.Fatalf("write %s: %v", rel, err)
	}
}

// scanStrings runs a scan and returns its rows as sorted strings.
func scanStrings(t *testing.T, db *sql.DB, s *Snapshot, opts ScanOptions) []string {
	t.Helper()
	q, err := s.ScanSQL(context.Background(), opts)
	if err != nil {
		t.Fatal(err)
	}
	cols := describe(t, db, q)
	exprs := make([]string, len(cols))
	for i, c := range cols {
		exprs[i] = "CAST(" + quoteIdent(c.name) + " AS VARCHAR)"
	}
	return fetchSorted(t, db, "SELECT "+strings.Join(exprs, ", ")+" FROM ("+q+")")
}

func TestScanPartitionValues(t *testing.T) {
	db := openTestDB(t)
	schema := `{"type":"struct","fields":[` +
		`{"name":"v","type":"integer","nullable":true,"metadata":{}},` +
		`{"name":"s","type":"string","nullable":true,"metadata":{}},` +
		`{"name":"i","type":"integer","nullable":true,"metadata":{}},` +
		`{"name":"l","type":"long","nullable":true,"metadata":{}},` +
		`{"name":"d","type":"date","nullable":true,"metadata":{}},` +
		`{"name":"ts","type":"timestamp","nullable":true,"metadata":{}},` +
		`{"name":"tn","type":"timestamp_ntz","nullable":true,"metadata":{}},` +
		`{"name":"b","type":"boolean","nullable":true,"metadata":{}},` +
		`{"name":"dec","type":"decimal(7,3)","nullable":true,"metadata":{}},` +
		`{"name":"f","type":"double","nullable":true,"metadata":{}},` +
		`{"name":"bin","type":"binary","nullable":true,"metadata":{}}]}`
	parts := []string{"s", "i", "l", "d", "ts", "tn", "b", "dec", "f", "bin"}
	root := t.TempDir()
	pv := func(vals ...*string) map[string]*string {
		m := map[string]*string{}
		for i, p := range parts {
			m[p] = vals[i]
		}
		return m
	}
	writeParquet(t, db, root, "f1.parquet", "SELECT 1::INT AS v")
	writeParquet(t, db, root, "f2.parquet", "SELECT 2::INT AS v")
	writeParquet(t, db, root, "f3.parquet", "SELECT 3::INT AS v")
	add := func(path string, m map[string]*string) Action {
		return Action{Add: &Add{Path: path, PartitionValues: m, Size: 1, DataChange: true}}
	}
	writeCommit(t, root, 0, protocolAction(1, 2), metadataAction(schema, parts, nil),
		add("f1.parquet", pv(ptr("a/b c%d=é"), ptr("-7"), ptr("9000000000"), ptr("2021-09-08"), ptr("2021-09-08 11:11:11"),
			ptr("2021-09-08 11:11:11.123456"), ptr("true"), ptr("12.500"), ptr("-1.5"), ptr("\x01\x02"))),
		add("f2.parquet", pv(nil, ptr(""), ptr(HiveDefaultPartition), nil, ptr("2021-09-08T12:00:00.000000Z"), nil, ptr("false"), nil, ptr("NaN"), nil)),
		add("f3.parquet", map[string]*string{}), // all missing -> NULL
	)
	s := mustSnapshot(t, root)
	got := scanStrings(t, db, s, ScanOptions{})
	want := []string{
		`"1" | "a/b c%d=é" | "-7" | "9000000000" | "2021-09-08" | "2021-09-08 11:11:11+00" | "2021-09-08 11:11:11.123456" | "true" | "12.500" | "-1.5" | "\\x01\\x02"`,
		`"2" | NULL | NULL | NULL | NULL | "2021-09-08 12:00:00+00" | NULL | "false" | NULL | "nan" | NULL`,
		`"3" | NULL | NULL | NULL | NULL | NULL | NULL | NULL | NULL | NULL | NULL`,
	}
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("rows:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	// Types come from the schema.
	q, _ := s.ScanSQL(context.Background(), ScanOptions{})
	types := map[string]string{}
	for _, c := range describe(t, db, q) {
		types[c.name] = c.typ
	}
	for col, typ := range map[string]string{"i": "INTEGER", "l": "BIGINT", "d": "DATE", "ts": "TIMESTAMP WITH TIME ZONE",
		"tn": "TIMESTAMP", "b": "BOOLEAN", "dec": "DECIMAL(7,3)", "f": "DOUBLE", "bin": "BLOB", "s": "VARCHAR"} {
		if types[col] != typ {
			t.Errorf("column %s has type %s, want %s", col, types[col], typ)
		}
	}
	// One file: partition values are constants, no join.
	one := scanStrings(t, db, s, ScanOptions{Files: s.Files()[:1], Columns: []string{"s", "v"}})
	if len(one) != 1 || !strings.HasPrefix(one[0], `"a/b c%d=é" | "1"`) {
		t.Fatalf("single file scan: %v", one)
	}
	// Bad partition value: clear error naming file and column.
	root2 := t.TempDir()
	writeParquet(t, db, root2, "f.parquet", "SELECT 1::INT AS v")
	writeCommit(t, root2, 0, protocolAction(1, 2), metadataAction(schema, parts, nil), add("f.parquet", pv(ptr("x"), ptr("seven"), nil, nil, nil, nil, nil, nil, nil, nil)))
	_, err := mustSnapshot(t, root2).ScanSQL(context.Background(), ScanOptions{})
	if !errors.Is(err, ErrInvalidPartitionValue) || !strings.Contains(err.Error(), "f.parquet") || !strings.Contains(err.Error(), "column i") {
		t.Fatalf("bad partition value: %v", err)
	}
}

func TestScanSchemaEvolutionAndProjection(t *testing.T) {
	db := openTestDB(t)
	root := t.TempDir()
	schema := `{"type":"struct","fields":[` +
		`{"name":"id","type":"long","nullable":true,"metadata":{}},` +
		`{"name":"extra","type":"string","nullable":true,"metadata":{}},` +
		`{"name":"st","type":{"type":"struct","fields":[{"name":"a","type":"integer","nullable":true,"metadata":{}},{"name":"b","type":"string","nullable":true,"metadata":{}}]},"nullable":true,"metadata":{}},` +
		`{"name":"never","type":"date","nullable":true,"metadata":{}}]}`
	// Old file: id as INT32 (type widening), no extra, a narrower struct.
	writeParquet(t, db, root, "old.parquet", "SELECT range::INT AS id, {'a': 1} AS st FROM range(2)")
	writeParquet(t, db, root, "new.parquet", "SELECT 10::BIGINT AS id, 'x' AS extra, {'a': 2, 'b': 'q'} AS st")
	writeCommit(t, root, 0, protocolAction(1, 2), metadataAction(schema, nil, nil),
		addAction("old.parquet", nil, 2), addAction("new.parquet", nil, 1))
	s := mustSnapshot(t, root)
	got := scanStrings(t, db, s, ScanOptions{})
	want := []string{
		`"0" | NULL | "{'a': 1, 'b': NULL}" | NULL`,
		`"1" | NULL | "{'a': 1, 'b': NULL}" | NULL`,
		`"10" | "x" | "{'a': 2, 'b': q}" | NULL`,
	}
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("rows:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	got = scanStrings(t, db, s, ScanOptions{Columns: []string{"EXTRA", "id"}, Where: "id >= 1"})
	if want := []string{`"x" | "10"`, `NULL | "1"`}; !reflect.DeepEqual(got, want) {
		t.Fatalf("projection: %v, want %v", got, want)
	}
	if _, err := s.ScanSQL(context.Background(), ScanOptions{Columns: []string{"nope"}}); !errors.Is(err, ErrUnknownColumn) || !strings.Contains(err.Error(), "id, extra, st, never") {
		t.Fatalf("unknown column: %v", err)
	}
	// An empty table still has its typed columns.
	empty := t.TempDir()
	writeCommit(t, empty, 0, protocolAction(1, 2), metadataAction(schema, nil, nil))
	q, err := mustSnapshot(t, empty).ScanSQL(context.Background(), ScanOptions{})
	if err != nil {
		t.Fatal(err)
	}
	cols := describe(t, db, q)
	if len(cols) != 4 || cols[3].typ != "DATE" || countRows(t, db, mustSnapshot(t, empty), ScanOptions{}) != 0 {
		t.Fatalf("empty table columns %v", cols)
	}
}

func TestScanColumnMapping(t *testing.T) {
	db := openTestDB(t)
	for _, mode := range []string{"name", "id"} {
		t.Run(mode, func(t *testing.T) {
			root := t.TempDir()
			md := func(id int, phys string) string {
				return fmt.Sprintf(`{"delta.columnMapping.id":%d,"delta.columnMapping.physicalName":"%s"}`, id, phys)
			}
			schema := `{"type":"struct","fields":[` +
				`{"name":"Renamed Id","type":"long","nullable":true,"metadata":` + md(1, "col-1") + `},` +
				`{"name":"s","type":{"type":"struct","fields":[{"name":"inner","type":"integer","nullable":true,"metadata":` + md(3, "col-3") + `}]},"nullable":true,"metadata":` + md(2, "col-2") + `},` +
				`{"name":"arr","type":{"type":"array","elementType":{"type":"struct","fields":[{"name":"x","type":"integer","nullable":true,"metadata":` + md(5, "col-5") + `}]},"containsNull":true},"nullable":true,"metadata":` + md(4, "col-4") + `},` +
				`{"name":"p","type":"string","nullable":true,"metadata":` + md(6, "col-6") + `}]}`
			writeParquet(t, db, root, "a.parquet", `SELECT 7::BIGINT AS "col-1", {'col-3': 8} AS "col-2", [{'col-5': 9}] AS "col-4"`)
			writeCommit(t, root, 0, protocolAction(2, 5),
				metadataAction(schema, []string{"p"}, map[string]string{"delta.columnMapping.mode": mode}),
				Action{Add: &Add{Path: "a.parquet", PartitionValues: map[string]*string{"col-6": ptr("pv")}, Size: 1, DataChange: true,
					Stats: `{"numRecords":1,"minValues":{"col-1":7},"maxValues":{"col-1":7},"nullCount":{"col-1":0}}`}})
			s := mustSnapshot(t, root)
			got := scanStrings(t, db, s, ScanOptions{})
			want := []string{`"7" | "{'inner': 8}" | "[{'x': 9}]" | "pv"`}
			if !reflect.DeepEqual(got, want) {
				t.Fatalf("got %v, want %v", got, want)
			}
			// Stats and partition values are looked up by physical name.
			if n := len(s.PruneFiles(`"Renamed Id" > 7`)); n != 0 {
				t.Fatal("stats by physical name not used")
			}
			if n := len(s.PruneFiles(`p = 'other'`)); n != 0 {
				t.Fatal("partition value by physical name not used")
			}
		})
	}
}

func TestScanDeletionVectors(t *testing.T) {
	db := openTestDB(t)
	root := t.TempDir()
	writeParquet(t, db, root, "inline.parquet", "SELECT range AS id FROM range(10)")
	writeParquet(t, db, root, "ondisk.parquet", "SELECT range + 100 AS id FROM range(10)")
	writeParquet(t, db, root, "abs.parquet", "SELECT range + 200 AS id FROM range(10)")
	writeParquet(t, db, root, "plain.parquet", "SELECT 1000::BIGINT AS id")
	inline, err := InlineDeletionVector([]uint64{0, 3, 4, 5, 6, 9})
	if err != nil {
		t.Fatal(err)
	}
	// On-disk DV file with two DVs, the second one used.
	id := uuid.MustParse("d2c639aa-8816-431a-aaf6-d3fe2512ff61")
	first, _ := EncodeDeletionVector([]uint64{1})
	second, _ := EncodeDeletionVector([]uint64{1, 2, 8})
	dvFile := []byte{1}
	appendDV := func(data []byte) int32 {
		off := int32(len(dvFile))
		dvFile = binary.BigEndian.AppendUint32(dvFile, uint32(len(data)))
		dvFile = append(dvFile, data...)
		dvFile = binary.BigEndian.AppendUint32(dvFile, crc32.ChecksumIEEE(data))
		return off
	}
	appendDV(first)
	off := appendDV(second)
	dvPath := dvFileName(root, "ab", id)
	os.MkdirAll(filepath.Dir(dvPath), 0o755)
	if err := os.WriteFile(dvPath, dvFile, 0o644); err != nil {
		t.Fatal(err)
	}
	onDisk := &DeletionVector{StorageType: "u", PathOrInlineDv: "ab^-aqEH.-t@S}K{vb[*k^", Offset: &off, SizeInBytes: int32(len(second)), Cardinality: 3}
	absDV := &DeletionVector{StorageType: "p", PathOrInlineDv: "file://" + dvPath, Offset: &off, SizeInBytes: int32(len(second)), Cardinality: 3}
	dvAdd := func(path string, dv *DeletionVector) Action {
		return Action{Add: &Add{Path: path, Size: 1, DataChange: true, DeletionVector: dv, Stats: `{"numRecords":10}`}}
	}
	writeCommit(t, root, 0, protocolAction(3, 7, FeatureDeletionVectors),
		metadataAction(`{"type":"struct","fields":[{"name":"id","type":"long","nullable":true,"metadata":{}}]}`, nil, nil),
		dvAdd("inline.parquet", inline), dvAdd("ondisk.parquet", onDisk), dvAdd("abs.parquet", absDV), addAction("plain.parquet", nil, 1))
	s := mustSnapshot(t, root)
	got := scanStrings(t, db, s, ScanOptions{})
	var want []string
	for _, v := range []int{1, 2, 7, 8, 100, 103, 104, 105, 106, 107, 109, 200, 203, 204, 205, 206, 207, 209, 1000} {
		want = append(want, fmt.Sprintf("%q", fmt.Sprint(v)))
	}
	sort.Strings(want)
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("rows %v\nwant %v", got, want)
	}
	if n, ok := s.NumRecords(); !ok || n != 4+7+7+1 {
		t.Fatalf("NumRecords %d %v", n, ok)
	}
	// The file position column of delete scans, over files with and
	// without DVs in any order.
	files := s.Files()
	slices.Reverse(files)
	q, err := s.fileIndexScanSQL(context.Background(), nil, files, "pos", "")
	if err != nil {
		t.Fatal(err)
	}
	rows, err := db.Query("SELECT pos, min(id), count(*) FROM (" + q + ") GROUP BY 1 ORDER BY 1")
	if err != nil {
		t.Fatal(err)
	}
	base := map[string]int64{"inline.parquet": 1, "ondisk.parquet": 100, "abs.parquet": 200, "plain.parquet": 1000}
	n := 0
	for rows.Next() {
		var pos, minID, count int64
		if err := rows.Scan(&pos, &minID, &count); err != nil {
			t.Fatal(err)
		}
		if f := files[pos]; base[f.Path] != minID {
			t.Errorf("position %d (%s): min id %d", pos, f.Path, minID)
		}
		if live, _ := files[pos].NumRecords(); live != count {
			t.Errorf("position %d (%s): %d rows, want %d", pos, files[pos].Path, count, live)
		}
		n++
	}
	rows.Close()
	if n != len(files) {
		t.Fatalf("%d positions, want %d", n, len(files))
	}
	// A DV file that fails its checksum, or is missing, is a clear error.
	dvFile[len(dvFile)-1] ^= 0xFF
	os.WriteFile(dvPath, dvFile, 0o644)
	if _, err := s.ScanSQL(context.Background(), ScanOptions{}); !errors.Is(err, ErrCorruptDeletionVector) || !strings.Contains(err.Error(), dvPath) || !strings.Contains(err.Error(), "checksum") {
		t.Fatalf("corrupt DV: %v", err)
	}
	os.Remove(dvPath)
	if _, err := s.ScanSQL(context.Background(), ScanOptions{}); !errors.Is(err, ErrMissingDataFile) || !strings.Contains(err.Error(), dvPath) {
		t.Fatalf("missing DV file: %v", err)
	}
}

func TestScanFileColumnAndFiles(t *testing.T) {
	db := openTestDB(t)
	root := newBasicTable(t)
	writeParquet(t, db, root, "part=a/1.parquet", "SELECT range AS id FROM range(3)")
	writeParquet(t, db, root, "part=b/2.parquet", "SELECT range + 10 AS id FROM range(2)")
	writeCommit(t, root, 1, addAction("part=a/1.parquet", map[string]*string{"part": ptr("a")}, 3),
		addAction("part=b/2.parquet", map[string]*string{"part": ptr("b")}, 2))
	s := mustSnapshot(t, root)
	got := scanStrings(t, db, s, ScanOptions{Columns: []string{"id"}, FileColumn: "_file", Where: "id IN (1, 11)"})
	want := []string{`"1" | "part=a/1.parquet"`, `"11" | "part=b/2.parquet"`}
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("got %v, want %v", got, want)
	}
	only := s.Files()[1:]
	got = scanStrings(t, db, s, ScanOptions{Files: only, FileColumn: "_file"})
	if len(got) != 2 || !strings.Contains(got[0], "part=b/2.parquet") {
		t.Fatalf("Files restriction: %v", got)
	}
	// A where on partitions reads only matching files: a missing file that
	// is pruned does not matter.
	os.Remove(filepath.Join(root, "part=b/2.parquet"))
	if got := scanStrings(t, db, s, ScanOptions{Where: "part = 'a'"}); len(got) != 3 {
		t.Fatalf("pruned scan: %v", got)
	}
	_, err := s.ScanSQL(context.Background(), ScanOptions{})
	if !errors.Is(err, ErrMissingDataFile) || !strings.Contains(err.Error(), "2.parquet") || !strings.Contains(err.Error(), "version 1") {
		t.Fatalf("missing data file: %v", err)
	}
}

// TestScanGlobCharacters: paths holding DuckDB glob characters read
// exactly the listed file, never the others the pattern would match.
func TestScanGlobCharacters(t *testing.T) {
	db := openTestDB(t)
	root := newBasicTable(t)
	writeParquet(t, db, root, "part=a*b/f?1[x].parquet", "SELECT 1::BIGINT AS id")
	writeParquet(t, db, root, "part=aXb/fZ1x.parquet", "SELECT 2::BIGINT AS id") // matches as a pattern, not listed
	writeParquet(t, db, root, "part=a*b/fQ1x.parquet", "SELECT 3::BIGINT AS id") // idem
	writeParquet(t, db, root, "part=c/plain.parquet", "SELECT 4::BIGINT AS id")
	writeCommit(t, root, 1, addAction(EncodeLogPath("part=a*b/f?1[x].parquet"), map[string]*string{"part": ptr("a*b")}, 1),
		addAction("part=c/plain.parquet", map[string]*string{"part": ptr("c")}, 1))
	got := scanStrings(t, db, mustSnapshot(t, root), ScanOptions{FileColumn: "f"})
	want := []string{`"1" | "a*b" | "part=a%2Ab/f%3F1%5Bx%5D.parquet"`, `"4" | "c" | "part=c/plain.parquet"`}
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("got %v, want %v", got, want)
	}
}

func TestScanRejectsEscapingPaths(t *testing.T) {
	for _, p := range []string{"../outside.parquet", "/etc/passwd", "a/../../x.parquet"} {
		root := newBasicTable(t)
		writeCommit(t, root, 1, addAction(p, nil, 1))
		_, err := mustSnapshot(t, root).ScanSQL(context.Background(), ScanOptions{})
		if !errors.Is(err, ErrPathEscapesTable) || !strings.Contains(err.Error(), p) {
			t.Errorf("%s: err = %v", p, err)
		}
	}
}

func TestCreateViewAndQuery(t *testing.T) {
	db := openTestDB(t)
	root := newBasicTable(t)
	writeParquet(t, db, root, "part=a/1.parquet", "SELECT range AS id FROM range(5)")
	writeCommit(t, root, 1, addAction("part=a/1.parquet", map[string]*string{"part": ptr("a")}, 5))
	s := mustSnapshot(t, root)
	ctx := context.Background()
	conn, err := db.Conn(ctx)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	if err := s.CreateView(ctx, conn, "my view", ScanOptions{Where: "id > 1"}); err != nil {
		t.Fatal(err)
	}
	var n, sum int64
	if err := conn.QueryRowContext(ctx, `SELECT count(*), sum(id) FROM "my view"`).Scan(&n, &sum); err != nil || n != 3 || sum != 9 {
		t.Fatalf("view: %d rows, sum %d, %v", n, sum, err)
	}
	rows, err := s.Query(ctx, db, ScanOptions{Columns: []string{"part", "id"}}, 2)
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	count := 0
	for rows.Next() {
		var part string
		var id int64
		if err := rows.Scan(&part, &id); err != nil || part != "a" {
			t.Fatal(part, err)
		}
		count++
	}
	if count != 2 {
		t.Fatalf("limit: %d rows", count)
	}
}
