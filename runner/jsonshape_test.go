package runner

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/laktory/workbench/workspace"
)

// TestJSONShapeHolds: the sampled type holds a shape only where DuckDB
// reads every value of it as its inference would (no key outside a
// struct, no value converted to another kind).
func TestJSONShapeHolds(t *testing.T) {
	for _, tc := range []struct {
		lines string
		typ   string
		want  bool
	}{
		{`1` + "\n" + `null`, "BIGINT", true},
		{`1` + "\n" + `-2`, "HUGEINT", true},
		{`1` + "\n" + `1.5`, "BIGINT", false},
		{`1` + "\n" + `1e3`, "BIGINT", false},
		{`1` + "\n" + `1.5`, "DOUBLE", true},
		{`12345678901234567890`, "BIGINT", false},
		{`12345678901234567890`, "DOUBLE", false},
		{`"a"` + "\n" + `1`, "VARCHAR", false},
		{`"a\"b"`, "VARCHAR", true},
		{`true` + "\n" + `false`, "BOOLEAN", true},
		{`null`, "JSON", true},
		{`1`, "JSON", false},
		{`[1, 2]` + "\n" + `[]`, "BIGINT[]", true},
		{`[1, 2.5]`, "BIGINT[]", false},
		{`{"k": 1}`, "STRUCT(k BIGINT)", true},
		{`{"k": 1, "n": "x"}`, "STRUCT(k BIGINT)", false},
		{`{"x y": [{"k": 1}], "k": null}`, `STRUCT("x y" STRUCT(k BIGINT)[], k VARCHAR)`, true},
		{`{"a""b": 1}`, `STRUCT("a""b" BIGINT)`, false}, // not JSON: the scan gives up
		{`{"k": 1}`, "MAP(VARCHAR, BIGINT)", false},
		{`{"k": 1}`, "UBIGINT", false},
	} {
		dir := t.TempDir()
		f := filepath.Join(dir, "x.jsonl")
		if err := os.WriteFile(f, []byte(`{"c": `+strings.ReplaceAll(tc.lines, "\n", "}\n{\"c\": ")+"}\n"), 0o644); err != nil {
			t.Fatal(err)
		}
		shape, ok, err := scanJSONShapes(t.Context(), []string{f}, true)
		if err != nil {
			t.Fatal(err)
		}
		got := ok && shape.kinds == kindObject && shape.fields["c"].holds(tc.typ)
		if got != tc.want {
			t.Errorf("%q as %s: holds %t, want %t", tc.lines, tc.typ, got, tc.want)
		}
	}
}

// TestJSONShapeScan: records split across the scan's parts, a lone
// top-level array's elements (format JSON), escaped keys and invalid text
// (not scanned), compressed files (not scanned).
func TestJSONShapeScan(t *testing.T) {
	dir := t.TempDir()
	write := func(name, text string) string {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	var big strings.Builder
	for i := 0; i < 100000; i++ {
		fmt.Fprintf(&big, `{"id": %d, "s": "x\"%d"}`+"\n", i, i)
	}
	big.WriteString(`{"id": 1, "late": true}` + "\n")
	shape, ok, err := scanJSONShapes(t.Context(), []string{write("big.jsonl", big.String())}, true)
	if err != nil || !ok || shape.fields["late"] == nil || shape.fields["late"].kinds != kindBool ||
		shape.fields["id"].kinds != kindInt || shape.fields["s"].kinds != kindString {
		t.Fatalf("big: %+v %t %v", shape, ok, err)
	}
	shape, ok, err = scanJSONShapes(t.Context(), []string{write("arr.json", "[{\"a\": 1},\n {\"b\": [1.5]}]")}, false)
	if err != nil || !ok || shape.kinds != kindObject || shape.fields["b"].elem.kinds != kindFloat {
		t.Fatalf("array: %+v %t %v", shape, ok, err)
	}
	for _, text := range []string{`{"a\"b": 1}`, `{"a": 1`, `{"a": NaN}`, `{"a": tru}`} {
		if _, ok, err := scanJSONShapes(t.Context(), []string{write("bad.jsonl", text+"\n")}, true); ok || err != nil {
			t.Errorf("%s: scanned (%t, %v)", text, ok, err)
		}
	}
	if _, ok, err := scanJSONShapes(t.Context(), []string{write("x.jsonl.gz", "")}, true); ok || err != nil {
		t.Errorf("gz: scanned (%t, %v)", ok, err)
	}
}

// TestJSONShapeKnownKeys: records of one layout find their keys by
// comparing them with the record before's (knownKey); the shape of a file
// is the merge of each record's own, whatever the keys that come next: a
// key the record before had at another place, one a prefix of the one
// before or longer than it, a key cut short, blanks around the colon.
func TestJSONShapeKnownKeys(t *testing.T) {
	lines := []string{
		`{"id":1,"sym":"a","p":1.5}`,
		`{"id":2,"sym":"b","p":2}`,
		`{"idx":3,"sym":null,"p":true}`,
		`{"i":"4","sym":[1],"p":{"id":1}}`,
		`{"sym":5,"id":6}`,
		`{ "id" : 7 , "sym" :"c","p": 8, "q": -1e3}`,
		`{"id":9,"sym":"d","p":1,"q":null,"r":[{"id":1},{"idy":2.5}]}`,
		`{"id":9,"sym":"d","p":1,"q":null,"r":[{"id":"x"},{"id":[]}]}`,
		`{"id":12345678901234567890}`,
	}
	show := func(s *jsonShape) string {
		var b strings.Builder
		var walk func(s *jsonShape, path string)
		walk = func(s *jsonShape, path string) {
			fmt.Fprintf(&b, "%s=%d;", path, s.kinds)
			keys := make([]string, 0, len(s.fields))
			for k := range s.fields {
				keys = append(keys, k)
			}
			slices.Sort(keys)
			for _, k := range keys {
				walk(s.fields[k], path+"."+k)
			}
			if s.elem != nil {
				walk(s.elem, path+"[]")
			}
		}
		walk(s, "")
		return b.String()
	}
	want := &jsonShape{}
	for _, l := range lines {
		one, err := scanRecords(t.Context(), []byte(l), false)
		if err != nil {
			t.Fatalf("%s: %v", l, err)
		}
		want.merge(one)
	}
	got, err := scanRecords(t.Context(), []byte(strings.Join(lines, "\n")), false)
	if err != nil {
		t.Fatal(err)
	}
	if show(got) != show(want) {
		t.Errorf("whole file %s\nrecord by record %s", show(got), show(want))
	}
	for _, text := range []string{`{"id":1}` + "\n" + `{"id`, `{"id":1}` + "\n" + `{"id":}`, `{"id":1}` + "\n" + `{"i\"d":1}`} {
		if _, err := scanRecords(t.Context(), []byte(text), false); !errors.Is(err, errShape) {
			t.Errorf("%q: %v, want errShape", text, err)
		}
	}
}

// TestSparkJSONColumnsRead: a PYSPARK JSON source whose sampled types hold
// every record is read with those types named (no inference at each bind),
// giving the rows DuckDB's inference gives; one whose records change after
// the sample is read with the types of the whole file; records that are
// not objects keep DuckDB's reading.
func TestSparkJSONColumnsRead(t *testing.T) {
	dir := t.TempDir()
	write := func(name, text string) string {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	same := write("same.jsonl", `{"id": 1, "n": -2, "s": "a\\b\"c", "d": null, "ns": [1, -2], "st": {"x y": 1.5, "l": [{"k": true}]}}`+"\n"+
		`{"id": 2, "n": 3, "s": null, "ns": [], "st": {"x y": 2, "l": null}}`+"\n")
	var late strings.Builder
	for i := 0; i < 20500; i++ {
		if i < 20490 {
			fmt.Fprintf(&late, `{"id": %d}`+"\n", i)
		} else {
			fmt.Fprintf(&late, `{"id": %d, "v": %d.5}`+"\n", i, i)
		}
	}
	lateF := write("late.jsonl", late.String())
	arrays := write("arrays.jsonl", "[1, 2]\n[3]\n")
	r := testRunner(t)
	src := &workspace.Source{Format: "JSONL", Backend: "PYSPARK"}
	for _, tc := range []struct {
		file, has, not string
	}{
		{same, `columns = {'id': 'BIGINT'`, "sample_size"},
		{lateF, `'v': 'DOUBLE'`, "sample_size"},
		{arrays, "dateformat", "columns"},
	} {
		sql, err := readFileList(t.Context(), r.db, []string{tc.file}, "JSONL", readOptions{src: src})
		if err != nil {
			t.Fatal(err)
		}
		if !strings.Contains(sql, tc.has) || strings.Contains(sql, tc.not) {
			t.Errorf("%s: %s", filepath.Base(tc.file), sql)
		}
		// The rows DuckDB's own inference of the whole file reads.
		auto := fmt.Sprintf("SELECT * FROM read_json([%s], format = 'newline_delimited', dateformat = 'no date inference', timestampformat = 'no timestamp inference', sample_size = -1)", quoteString(tc.file))
		cols, err := describe(t.Context(), r.db, sql)
		if err != nil {
			t.Fatal(err)
		}
		sel := make([]string, len(cols))
		for i, c := range cols {
			sel[i] = "CAST(" + quoteIdent(c.Name) + " AS VARCHAR)"
		}
		got := sqlRows(t, r, "SELECT "+strings.Join(sel, ", ")+" FROM ("+sql+") ORDER BY ALL")
		want := sqlRows(t, r, "SELECT "+strings.Join(sel, ", ")+" FROM ("+auto+") ORDER BY ALL")
		if fmt.Sprint(got) != fmt.Sprint(want) || len(got) == 0 {
			t.Errorf("%s: rows %v, DuckDB's inference reads %v", filepath.Base(tc.file), got, want)
		}
	}
}

// TestJSONShapeKept: a file's shape is scanned once while its size and
// modification time stay (a run's validate and read), again once it
// changes.
func TestJSONShapeKept(t *testing.T) {
	f := filepath.Join(t.TempDir(), "k.jsonl")
	if err := os.WriteFile(f, []byte(`{"a": 1}`+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	old := time.Now().Add(-time.Hour)
	if err := os.Chtimes(f, old, old); err != nil {
		t.Fatal(err)
	}
	s1, ok1, err1 := scanJSONFile(t.Context(), f, true)
	s2, ok2, err2 := scanJSONFile(t.Context(), f, true)
	if !ok1 || !ok2 || err1 != nil || err2 != nil || s1 != s2 {
		t.Fatalf("second scan %p, first %p (%v %v)", s2, s1, err1, err2)
	}
	if err := os.WriteFile(f, []byte(`{"a": 1, "b": true}`+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Chtimes(f, old.Add(time.Minute), old.Add(time.Minute)); err != nil {
		t.Fatal(err)
	}
	s3, ok, err := scanJSONFile(t.Context(), f, true)
	if !ok || err != nil || s3 == s1 || s3.fields["b"] == nil {
		t.Fatalf("changed file: %+v %v", s3, err)
	}
}

// BenchmarkJSONShape: the scan of 500,000 JSON lines of the pipeline
// benchmark's shape (about 42 MB).
func BenchmarkJSONShape(b *testing.B) {
	dir := b.TempDir()
	var s strings.Builder
	for i := 0; i < 500000; i++ {
		// as polars' write_ndjson writes them
		fmt.Fprintf(&s, `{"id":%d,"symbol":"sym%d","ts":"2026-01-01T00:%02d:%02d","price":%d.%02d,"qty":%d}`+"\n", i, i%500, i/60%60, i%60, 100+i%500, i%100, i%50)
	}
	f := filepath.Join(dir, "a.jsonl")
	if err := os.WriteFile(f, []byte(s.String()), 0o644); err != nil {
		b.Fatal(err)
	}
	// old enough to be kept: each iteration empties what shapes keeps
	old := time.Now().Add(-time.Hour)
	if err := os.Chtimes(f, old, old); err != nil {
		b.Fatal(err)
	}
	b.Run("file", func(b *testing.B) {
		b.SetBytes(int64(s.Len()))
		for b.Loop() {
			shapes.Lock()
			clear(shapes.m)
			shapes.order = nil
			shapes.Unlock()
			if _, ok, err := scanJSONShapes(b.Context(), []string{f}, true); !ok || err != nil {
				b.Fatal(ok, err)
			}
		}
	})
	b.Run("scan", func(b *testing.B) { // one goroutine, the bytes in memory
		data := []byte(s.String())
		b.SetBytes(int64(len(data)))
		for b.Loop() {
			if _, err := scanRecords(b.Context(), data, false); err != nil {
				b.Fatal(err)
			}
		}
	})
}
