package runner

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/laktory/workbench/validate"
)

// TestPolarsWriterKwargs: POLARS file sinks are written as Laktory's
// Polars writer writes them with their writer_kwargs: a CSV sink with
// write_csv's separator, include_header, null_value and quote_char, into
// a folder that does not exist yet (which Laktory fails on, LK188); a
// DELTA sink partitioned by delta_write_options partition_by; a DELTA
// sink's writer_methods partitionBy ignored, as Laktory's Polars writer
// ignores them.
func TestPolarsWriterKwargs(t *testing.T) {
	w := newWS(t, map[string]string{
		"pipelines/pl.yaml": `name: pl
dataframe_backend: POLARS
nodes:
- name: a
  sources:
  - path: ../data/a/
    format: JSONL
  sinks:
  - path: ../out/new/one.csv
    format: CSV
    writer_kwargs: {separator: ';', include_header: false, null_value: NA, quote_char: "'"}
  - path: ../out/parts
    format: DELTA
    mode: OVERWRITE
    writer_kwargs: {delta_write_options: {partition_by: [c]}}
  - path: ../out/flat
    format: DELTA
    mode: OVERWRITE
    writer_methods: [{name: partitionBy, args: [c]}]
`,
		"data/a/1.jsonl": `{"k": "x;y", "c": 1}` + "\n" + `{"k": null, "c": 2}` + "\n",
	})
	r := testRunner(t)
	mustRun(t, r, w.load(), Request{})
	b, err := os.ReadFile(filepath.Join(w.dir, "out/new/one.csv"))
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSpace(string(b)), "\n")
	if len(lines) != 2 || !strings.Contains(string(b), "'x;y';1") || !strings.Contains(string(b), "NA;2") {
		t.Fatalf("CSV written as\n%s\nwant no header, ';' separating, NA for null, 'x;y' quoted with '", b)
	}
	if !exists(filepath.Join(w.dir, "out/parts", "c=1")) {
		t.Fatal("delta_write_options partition_by [c]: no c=1 folder")
	}
	if exists(filepath.Join(w.dir, "out/flat", "c=1")) {
		t.Fatal("writer_methods partitionBy on POLARS: partitioned, but Laktory's Polars writer ignores writer_methods")
	}
}

// TestPolarsErrorSink: a POLARS DELTA sink of mode ERROR, which Laktory
// 0.13.1 never writes (it creates the empty table before writing, then
// write_delta(mode='ERROR') finds it; warned at validate, LK188), does
// what the mode says locally: the first run creates the table with its
// rows, a later run fails naming the table and leaves it as it was.
func TestPolarsErrorSink(t *testing.T) {
	w := newWS(t, map[string]string{
		"pipelines/pl.yaml": `name: pl
dataframe_backend: POLARS
nodes:
- name: a
  sources:
  - path: ../data/a/
    format: JSONL
  sinks:
  - path: ../out/t
    format: DELTA
    mode: ERROR
`,
		"data/a/1.jsonl": `{"k": "x"}` + "\n" + `{"k": "y"}` + "\n",
	})
	r := testRunner(t)
	mustRun(t, r, w.load(), Request{})
	path := filepath.Join(w.dir, "out/t")
	if n := count(t, r, path, ""); n != 2 {
		t.Fatalf("first run of an ERROR sink: %d rows, want the source's 2", n)
	}
	w.write(map[string]string{"data/a/2.jsonl": `{"k": "z"}` + "\n"})
	o := run(t, r, w.load(), Request{})
	if o.err == nil || !strings.Contains(taskSum(t, o.sum, "pl.a").Err, "already exists and the sink's mode is ERROR") {
		t.Fatalf("second run of an ERROR sink: %v, %+v; want the task failing as the table exists", o.err, o.sum.Tasks)
	}
	if n := count(t, r, path, ""); n != 2 {
		t.Fatalf("after the failed run: %d rows, want 2", n)
	}
}

// TestPolarsFileSinks: POLARS CSV and PARQUET sinks are laid out and
// rendered as polars' writers do (checked against Laktory 0.13.1 by
// TestLaktoryExecution): a path without an extension is one file; a
// Parquet sink partitioned by partition_by keeps the partition column in
// its files, one 0.parquet a partition, and a later write replaces the
// partitions it writes and leaves the others; CSV datetimes in ISO form
// with the unit's digits, floats in polars' notation (1e20, 0.00001,
// NaN), an empty string quoted beside a null_value, a quote doubled with
// quote_char; a JSON sink one array of the rows (polars' write_json), an
// NDJSON one a row a line, datetimes as polars writes them.
func TestPolarsFileSinks(t *testing.T) {
	w := newWS(t, map[string]string{
		"pipelines/pl.yaml": `name: pl
dataframe_backend: POLARS
nodes:
- name: a
  sources:
  - path: ../data/a/
    format: JSONL
  transformer:
    nodes:
    - expr: SELECT k, c, v, CAST(ts AS TIMESTAMP) AS ts FROM {df}
  sinks:
  - path: ../out/plain
    format: CSV
  - path: ../out/quoted.csv
    format: CSV
    writer_kwargs: {null_value: NA, quote_char: "'"}
  - path: ../out/one
    format: PARQUET
  - path: ../out/parts
    format: PARQUET
    writer_kwargs: {partition_by: c}
  - path: ../out/rows.json
    format: JSON
  - path: ../out/rows.ndjson
    format: NDJSON
`,
		"data/a/1.jsonl":          `{"k": "", "c": 1, "v": 1e20, "ts": "2026-01-01T08:30:00"}` + "\n" + `{"k": "it's", "c": 2, "v": 0.00001, "ts": null}` + "\n",
		"out/parts/c=9/0.parquet": "",
	})
	r := testRunner(t)
	mustRun(t, r, w.load(), Request{})
	read := func(name string) string {
		t.Helper()
		b, err := os.ReadFile(filepath.Join(w.dir, "out", name))
		if err != nil {
			t.Fatal(err)
		}
		return string(b)
	}
	if got, want := read("plain"), "k,c,v,ts\n\"\",1,1e20,2026-01-01T08:30:00.000000\nit's,2,0.00001,\n"; got != want {
		t.Errorf("CSV sink ../out/plain:\n%q\nwant (one file, as polars' write_csv writes it)\n%q", got, want)
	}
	if got, want := read("quoted.csv"), "k,c,v,ts\n'',1,1e20,2026-01-01T08:30:00.000000\n'it''s',2,0.00001,NA\n"; got != want {
		t.Errorf("CSV sink with null_value and quote_char:\n%q\nwant\n%q", got, want)
	}
	var arr []map[string]any
	if err := json.Unmarshal([]byte(read("rows.json")), &arr); err != nil || len(arr) != 2 || arr[0]["ts"] != "2026-01-01 08:30:00" {
		t.Errorf("JSON sink: %v, %v; want one array of the 2 rows (polars' write_json), ts as 2026-01-01 08:30:00", err, arr)
	}
	if got := read("rows.ndjson"); strings.Count(got, "\n") != 2 || !strings.Contains(got, `"ts":"2026-01-01 08:30:00"`) {
		t.Errorf("NDJSON sink:\n%s\nwant a row a line, ts as polars writes it", got)
	}
	if fi, err := os.Stat(filepath.Join(w.dir, "out/one")); err != nil || fi.IsDir() {
		t.Errorf("PARQUET sink ../out/one: %v, want one file (polars' write_parquet)", err)
	}
	for _, f := range []string{"c=1/0.parquet", "c=2/0.parquet", "c=9/0.parquet"} {
		if !exists(filepath.Join(w.dir, "out/parts", f)) {
			t.Errorf("partition_by c: no %s", f)
		}
	}
	got := sqlRows(t, r, "SELECT k, c FROM read_parquet('"+filepath.Join(w.dir, "out/parts/c=2/0.parquet")+"', hive_partitioning = false)")
	if len(got) != 1 || got[0][0] != "it's" || got[0][1] != "2" {
		t.Errorf("partition c=2's file holds %v, want [[it's 2]] (polars keeps the partition column in the files)", got)
	}
}

// TestPolarsFileSinkTypes: a POLARS JSON or NDJSON sink writes what
// polars' write_json writes for a UTC datetime (2026-01-01T08:30:00+00:00,
// its fraction as chrono's %.f), a decimal (a string of its scale's
// digits) and NaN or an infinity (null), also in a list; a column polars'
// writer fails on is LK220 at validate, as Laktory's run fails: binary in
// JSON (polars panics), nested in CSV (ComputeError).
func TestPolarsFileSinkTypes(t *testing.T) {
	w := newWS(t, map[string]string{
		"pipelines/pl.yaml": `name: pl
dataframe_backend: POLARS
nodes:
- name: a
  sources:
  - path: ../data/a.csv
    format: CSV
    infer_schema: true
    reader_kwargs: {try_parse_dates: true}
  transformer:
    nodes:
    - expr: SELECT id, tz, CAST(amt AS DECIMAL(10,2)) AS amt, x / 0.0 AS r FROM {df}
  sinks:
  - path: ../out/a.json
    format: JSON
  - path: ../out/a.ndjson
    format: NDJSON
- name: n
  sources:
  - path: ../data/n.parquet
    format: PARQUET
  sinks:
  - path: ../out/n.ndjson
    format: NDJSON
`,
		"data/a.csv": "id,tz,amt,x\n1,2026-01-01T08:30:00.250Z,1.5,1\n2,2026-01-01T10:00:00+02:00,-0.01,0\n3,,,\n",
	})
	r := testRunner(t)
	sqlRows(t, r, "COPY (SELECT 1 AS id, {'a b': 'nan'::DOUBLE, 'd': 1.50::DECIMAL(10,2), 't': TIMESTAMPTZ '2026-01-01 08:30:00.25+00'} AS s, ['inf'::DOUBLE, 1.5] AS l, [{'x': 'nan'::DOUBLE}] AS ls) TO '"+
		filepath.Join(w.dir, "data", "n.parquet")+"' (FORMAT PARQUET)")
	mustRun(t, r, w.load(), Request{})
	b, err := os.ReadFile(filepath.Join(w.dir, "out", "n.ndjson"))
	if err != nil {
		t.Fatal(err)
	}
	if want := `{"id":1,"s":{"a b":null,"d":"1.50","t":"2026-01-01T08:30:00.250+00:00"},"l":[null,1.5],"ls":[{"x":null}]}`; !strings.Contains(string(b), want) {
		t.Errorf("NDJSON of nested values:\n%s\nwant %s, as polars' write_ndjson writes it", b, want)
	}
	for _, name := range []string{"a.json", "a.ndjson"} {
		b, err := os.ReadFile(filepath.Join(w.dir, "out", name))
		if err != nil {
			t.Fatal(err)
		}
		for _, want := range []string{`"tz":"2026-01-01T08:30:00.250+00:00","amt":"1.50","r":null`, `"tz":"2026-01-01T08:00:00+00:00","amt":"-0.01","r":null`, `"tz":null,"amt":null,"r":null`} {
			if !strings.Contains(string(b), want) {
				t.Errorf("%s:\n%s\nwants %s, as polars' write_json writes it", name, b, want)
			}
		}
	}

	bad := newWS(t, map[string]string{
		"pipelines/pl.yaml": `name: pl
dataframe_backend: POLARS
nodes:
- name: bin
  sources:
  - path: ../data/b.parquet
    format: PARQUET
  sinks:
  - path: ../out/b.json
    format: JSON
- name: nest
  sources:
  - path: ../data/n.jsonl
    format: JSONL
  sinks:
  - path: ../out/n.csv
    format: CSV
`,
		"data/n.jsonl": `{"id": 1, "l": [1, 2]}` + "\n",
		"out/.keep":    "",
	})
	sqlRows(t, r, "COPY (SELECT 1 AS id, 'ab'::BLOB AS b) TO '"+filepath.Join(bad.dir, "data", "b.parquet")+"' (FORMAT PARQUET)")
	pe := planErr(t, r, bad.load(), Request{})
	for _, want := range []string{
		"sink #1 of node 'bin' writes the column 'b' (BLOB) as JSON: polars' write_json panics: PanicException: not yet implemented: Writing BinaryView to JSON",
		"sink #1 of node 'nest' writes the column 'l' (BIGINT[]) as CSV: polars' write_csv fails: ComputeError: CSV format does not support nested data",
	} {
		found := false
		for _, d := range pe.Diagnostics {
			found = found || d.Code == validate.CodePolarsFileType && strings.Contains(d.Message, want)
		}
		if !found {
			t.Errorf("want LK220 saying %q: %v", want, pe.Diagnostics)
		}
	}
}
