package runner

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/laktory/workbench/delta"
	"github.com/laktory/workbench/workspace"
)

// TestNodeSourceMemoryAndSink: a node_name source returns the same rows
// whether the upstream output is read from memory (same run) or from its
// shared sink (a later run): that writer's rows only, without the writer
// column.
func TestNodeSourceMemoryAndSink(t *testing.T) {
	for _, own := range ownerships {
		t.Run(own.name, func(t *testing.T) {
			files := scenarioFiles(own)
			files["pipelines/pl.yaml"] += `- name: gold
  depends_on: [b]
  sources:
  - node_name: a
  - name: all
    table_name: prices
  transformer:
    nodes:
    - expr: SELECT *, (SELECT count(*) FROM {nodes.a}) AS n_ref, (SELECT count(*) FROM {sources.all}) AS n_all FROM {df}
  sinks:
  - table_name: gold
    mode: OVERWRITE
`
			w := newWS(t, files)
			r := testRunner(t)
			snap := w.load()
			o := mustRun(t, r, snap, Request{})
			if deps := o.plan.Tasks[3].DependsOn; o.plan.Tasks[3].Key != "pl.gold" || !slices.Equal(deps, []string{"pl.a", "pl.b"}) {
				t.Fatalf("gold depends on %v", deps)
			}
			path := w.table("gold")
			memory := query(t, r, path, "SELECT * FROM t ORDER BY ALL")
			cols := columns(t, path)
			mustRun(t, r, snap, Request{Selectors: []string{"gold"}})
			fromSink := query(t, r, path, "SELECT * FROM t ORDER BY ALL")
			if !slices.Equal(cols, columns(t, path)) || fmt.Sprint(memory) != fmt.Sprint(fromSink) {
				t.Fatalf("memory %v %v\nsink   %v %v", cols, memory, columns(t, path), fromSink)
			}
			if slices.Contains(cols, "_laktory_writer") || len(memory) != 3 || memory[0][len(cols)-2] != "3" {
				t.Fatalf("gold %v %v: want a's 3 rows without the writer column", cols, memory)
			}
			if memory[0][len(cols)-1] != "5" {
				t.Fatalf("gold %v %v: the table_name source reads every writer's rows (5)", cols, memory)
			}
		})
	}
}

func TestSourcesAndTransformer(t *testing.T) {
	w := newWS(t, map[string]string{
		"pipelines/pl.yaml": `name: pl
nodes:
- name: csv
  sources:
  - path: ../data/prices.csv
    format: CSV
    infer_schema: true
    filter: price > 1
    selects: [symbol, price]
    renames: {price: close}
  sinks:
  - path: ../out/csv_delta
    format: DELTA
    mode: OVERWRITE
- name: json
  sources:
  - path: ../data/meta.json
    format: JSON
    drops: [junk]
    drop_duplicates: true
  sinks:
  - path: ../out/meta.parquet
    mode: OVERWRITE
    format: PARQUET
- name: joined
  depends_on: [csv, json]
  sources:
  - path: ../out/csv_delta
    format: DELTA
  - name: meta
    path: ../out/meta.parquet
    format: PARQUET
  transformer:
    nodes:
    - expr: SELECT d.*, m.name FROM {df} d JOIN {sources.meta} m USING (symbol)
    - func_name: with_columns
      func_kwargs:
        close: (nw.col("close") * 2).round(1)
        flag: nw.col("close") > 5
    - func_name: filter
      func_args: ['nw.col("symbol") != "ZZZ"']
    - func_name: rename
      func_args: [{name: label}]
    - func_name: select
      func_args: [symbol, label, close, flag]
    - func_name: sort
      func_kwargs: {by: [close], descending: true}
  sinks:
  - table_name: joined
    mode: OVERWRITE
- name: agg_copy
  sources:
  - node_name: joined
  transformer:
    nodes:
    - func_name: laktory.groupby_and_agg
      func_kwargs:
        groupby_columns: [flag]
        agg_expressions:
        - expr: nw.len().alias("n")
        - expr: nw.col("close").max().alias("top")
- name: agg
  sources:
  - node_name: joined
  transformer:
    nodes:
    - func_name: laktory.groupby_and_agg
      func_kwargs:
        groupby_columns: [flag]
        agg_expressions:
        - expr: nw.len().alias("n")
        - expr: nw.col("close").max().alias("top")
    - func_name: laktory.union
      func_args: ["{nodes.agg_copy}"]
    - func_name: unique
    - func_name: drop
      func_args: [top]
    - func_name: join
      func_kwargs:
        other: "{nodes.joined}"
        "on": [flag]
        how: inner
    - func_name: head
      func_args: [100]
  sinks:
  - path: ../out/agg
    format: JSON
    mode: APPEND
`,
		"data/prices.csv": "symbol,price,extra\nAAA,10.5,x\nBBB,0.5,y\nCCC,2,z\nZZZ,3,w\n",
		"data/meta.json":  `[{"symbol": "AAA", "name": "Alpha", "junk": 1}, {"symbol": "CCC", "name": "Gamma", "junk": 1}, {"symbol": "CCC", "name": "Gamma", "junk": 1}, {"symbol": "ZZZ", "name": "Zed", "junk": 2}]`,
	})
	r := testRunner(t)
	mustRun(t, r, w.load(), Request{})
	if got := query(t, r, filepath.Join(w.dir, "out/csv_delta"), "SELECT * FROM t ORDER BY ALL"); fmt.Sprint(got) != "[[AAA 10.5] [CCC 2] [ZZZ 3]]" {
		t.Fatalf("csv source with filter/selects/renames: %v", got)
	}
	if cols := columns(t, filepath.Join(w.dir, "out/csv_delta")); !slices.Equal(cols, []string{"symbol", "close"}) {
		t.Fatalf("csv columns %v", cols)
	}
	meta := sqlRows(t, r, "SELECT * FROM read_parquet("+quoteString(filepath.Join(w.dir, "out/meta.parquet"))+") ORDER BY ALL")
	if fmt.Sprint(meta) != "[[Alpha AAA] [Gamma CCC] [Zed ZZZ]]" { // name, symbol: Spark orders a JSON file's columns by name
		t.Fatalf("json source with drops/drop_duplicates written to one parquet file: %v", meta)
	}
	joined := w.table("joined")
	if got := query(t, r, joined, "SELECT * FROM t ORDER BY close DESC"); fmt.Sprint(got) != "[[AAA Alpha 21 true] [CCC Gamma 4 false]]" {
		t.Fatalf("joined: %v", got)
	}
	agg := sqlRows(t, r, "SELECT flag, n, symbol, label, close FROM read_json("+quoteString(filepath.Join(w.dir, "out/agg/*.json"))+") ORDER BY ALL")
	if fmt.Sprint(agg) != "[[false 1 CCC Gamma 4] [true 1 AAA Alpha 21]]" {
		t.Fatalf("agg: %v", agg)
	}
	// A FULL refresh drops the Delta path sink (outside the lake) and
	// writes it again.
	o := mustRun(t, r, w.load(), Request{Refresh: "FULL", Selectors: []string{"csv"}})
	ops := taskSum(t, o.sum, "pl.csv").Operations
	if len(ops) != 2 || ops[0].Operation != "DROP" || ops[0].RowsDeleted != 3 || ops[1].RowsAdded != 3 {
		t.Fatalf("operations %+v", ops)
	}
	if s, err := delta.LoadSnapshot(t.Context(), filepath.Join(w.dir, "out/csv_delta")); err != nil || s.Version() != 0 {
		t.Fatalf("the dropped table must be created again: %v", err)
	}
}

func TestFileSinks(t *testing.T) {
	w := newWS(t, map[string]string{
		"pipelines/pl.yaml": `name: pl
nodes:
- name: a
  sources:
  - path: ../data/a/
    format: JSONL
  sinks:
  - path: ../out/parts
    format: PARQUET
    mode: APPEND
    writer_methods:
    - name: partitionBy
      args: [c]
  - path: ../out/csv
    format: CSV
    mode: OVERWRITE
  - path: ../out/one.json
    mode: OVERWRITE
    format: JSON
`,
		"data/a/1.jsonl": jsonl("a", 0, 3, `, "c": 1`) + jsonl("b", 0, 2, `, "c": 2`),
	})
	r := testRunner(t)
	snap := w.load()
	mustRun(t, r, snap, Request{})
	o := mustRun(t, r, snap, Request{})
	parts := filepath.Join(w.dir, "out/parts")
	got := sqlRows(t, r, "SELECT c, count(*) FROM read_parquet("+quoteString(parts+"/*/*.parquet")+", hive_partitioning = true) GROUP BY c ORDER BY c")
	if fmt.Sprint(got) != "[[1 6] [2 4]]" {
		t.Fatalf("partitioned parquet appended twice: %v", got)
	}
	if !exists(filepath.Join(parts, "c=1")) {
		t.Fatal("partitionBy c: no c=1 folder")
	}
	if got := sqlRows(t, r, "SELECT count(*) FROM read_csv("+quoteString(filepath.Join(w.dir, "out/csv/*.csv"))+")"); got[0][0] != "5" {
		t.Fatalf("csv overwritten: %v rows", got)
	}
	if got := sqlRows(t, r, "SELECT count(*) FROM read_json("+quoteString(filepath.Join(w.dir, "out/one.json"))+")"); got[0][0] != "5" {
		t.Fatalf("one json file replaced: %v rows", got)
	}
	if ops := taskSum(t, o.sum, "pl.a").Operations; len(ops) != 3 || ops[0].RowsAdded != 5 {
		t.Fatalf("operations %+v", ops)
	}
	// FULL drops the file sinks and writes them again.
	o = mustRun(t, r, snap, Request{Refresh: "FULL"})
	got = sqlRows(t, r, "SELECT count(*) FROM read_parquet("+quoteString(parts+"/*/*.parquet")+")")
	if got[0][0] != "5" || len(o.plan.Effects) != 3 {
		t.Fatalf("after FULL: %v rows, effects %+v", got, o.plan.Effects)
	}
}

func TestDeclaredSchemaAndPartitioning(t *testing.T) {
	w := newWS(t, map[string]string{
		"pipelines/pl.yaml": `name: pl
nodes:
- name: a
  sources:
  - path: ../data/a/
    format: JSONL
  sinks:
  - table_name: wide
    mode: APPEND
    shared: true
    schema:
      columns:
        k: string
        v: bigint
        extra: double
    writer_methods:
    - name: partitionBy
      args: [_laktory_writer]
- name: b
  sources:
  - path: ../data/a/
    format: JSONL
  transformer:
    nodes:
    - expr: SELECT k, 1.5 AS extra FROM {df}
  sinks:
  - table_name: wide
    mode: APPEND
    shared: true
    writer_methods:
    - name: partitionBy
      args: [_laktory_writer]
`,
		"data/a/1.jsonl": jsonl("a", 0, 2, ""),
	})
	r := testRunner(t)
	mustRun(t, r, w.load(), Request{Parallel: 2})
	path := w.table("wide")
	if cols := columns(t, path); !slices.Equal(cols, []string{"_laktory_writer", "k", "v", "extra"}) {
		t.Fatalf("columns %v: the declared schema, writer column first", cols)
	}
	got := query(t, r, path, "SELECT _laktory_writer, count(v), count(extra) FROM t GROUP BY ALL ORDER BY 1")
	if fmt.Sprint(got) != "[[pl.a 2 0] [pl.b 0 2]]" {
		t.Fatalf("rows %v", got)
	}
	if !exists(filepath.Join(path, "_laktory_writer=pl.a")) {
		t.Fatal("not partitioned by the writer column")
	}
}

// TestDeclaredSourceSchema: a source's declared schema reads its files as
// Spark's reader given it does (TestInteropSparkSourceSchema compares the
// engines): the declared columns in order and types, JSON keys by name,
// Parquet columns by name without case, CSV values by position, absent
// ones null, others dropped, dates and timestamps parsed.
func TestDeclaredSourceSchema(t *testing.T) {
	for _, c := range []struct {
		name, format, schema, file, data string
		cols                             []string
		rows                             string
	}{
		{"json", "JSON", `{id: bigint, name: string, day: date, at: timestamp, price: double, missing: string, ok: boolean}`, "1.json",
			`[{"name": "a", "id": 1, "price": 2.25, "day": "2024-01-02", "at": "2024-01-02T03:04:05Z", "extra": "x", "ok": true}, {"id": 2, "name": "b"}]`,
			[]string{"id", "name", "day", "at", "price", "missing", "ok"},
			"[[1 a 2024-01-02 2024-01-02T03:04:05Z 2.25 NULL true] [2 b NULL NULL NULL NULL NULL]]"},
		{"jsonl", "JSONL", `{at: Datetime, id: Int32, missing: Int64, day: Date}`, "1.jsonl",
			`{"id": 1, "day": "2024-01-02", "at": "2024-01-02 03:04:05", "extra": {"z": 1}}` + "\n" + `{"id": 2}` + "\n",
			[]string{"at", "id", "missing", "day"},
			"[[2024-01-02T03:04:05Z 1 NULL 2024-01-02] [NULL 2 NULL NULL]]"},
		{"csv extra values", "CSV", `{id: bigint, name: string, day: date, flag: boolean}`, "1.csv",
			"id,name,day,flag,extra\n1,a,2024-01-02,true,x\n2,b,,false,y\n",
			[]string{"id", "name", "day", "flag"},
			"[[1 a 2024-01-02 true] [2 b NULL false]]"},
		{"csv missing values", "CSV", `{id: bigint, name: string, note: string}`, "1.csv",
			"id,name\n1,a\n2,b\n",
			[]string{"id", "name", "note"},
			"[[1 a NULL] [2 b NULL]]"},
		{"json keys with case", "JSONL", `{id: bigint, name: string}`, "1.jsonl", `{"ID": 1, "name": "a"}` + "\n",
			[]string{"id", "name"},
			"[[NULL a]]"},
		{"parquet", "PARQUET", `{amount: double, id: bigint, missing: double, Name: string}`, "1.parquet", "",
			[]string{"amount", "id", "missing", "Name"},
			"[[1.5 1 NULL a] [NULL 2 NULL b]]"},
	} {
		t.Run(c.name, func(t *testing.T) {
			w := newWS(t, map[string]string{
				"pipelines/pl.yaml": fmt.Sprintf(`name: pl
nodes:
- name: a
  source: {path: ../data/a/, format: %s, schema: {columns: %s}}
  sinks: [{mode: APPEND, table_name: a}]
`, c.format, c.schema),
			})
			r := testRunner(t)
			file := filepath.Join(w.dir, "data", "a", c.file)
			if c.data != "" {
				w.write(map[string]string{"data/a/" + c.file: c.data})
			} else {
				if err := os.MkdirAll(filepath.Dir(file), 0o755); err != nil {
					t.Fatal(err)
				}
				sqlRows(t, r, "COPY (SELECT * FROM (VALUES ('a', 1::INTEGER, 1.5, 'x'), ('b', 2, NULL, 'y')) v(name, id, amount, extra)) TO "+quoteString(file)+" (FORMAT parquet)")
			}
			mustRun(t, r, w.load(), Request{})
			path := w.table("a")
			if cols := columns(t, path); !slices.Equal(cols, c.cols) {
				t.Fatalf("columns %v, want the declared %v", cols, c.cols)
			}
			if got := query(t, r, path, "SELECT * FROM t ORDER BY "+quoteIdent(c.cols[1])); fmt.Sprint(got) != c.rows {
				t.Fatalf("rows %v\nwant %s", got, c.rows)
			}
		})
	}
}

func TestExpectations(t *testing.T) {
	pipeline := func(exp string, polars bool) string {
		if polars {
			return `name: pl
dataframe_backend: POLARS
nodes:
- name: a
  sources:
  - path: ../data/a/
    format: JSONL
  expectations:
` + exp + `
  sinks:
  - {path: ../lake/good, format: DELTA, mode: APPEND}
  - {path: ../lake/bad, format: DELTA, mode: APPEND, is_quarantine: true}
`
		}
		return `name: pl
nodes:
- name: a
  sources:
  - path: ../data/a/
    format: JSONL
  expectations:
` + exp + `
  sinks:
  - table_name: good
    mode: APPEND
  - table_name: bad
    mode: APPEND
    is_quarantine: true
`
	}
	cases := []struct {
		name       string
		exp        string
		good, bad  int // -1: no table
		fail       string
		warning    string
		noteSubstr string
		data       string // more lines of data/a/1.jsonl
		empty      bool   // data/a/1.jsonl is empty
		polars     bool   // dataframe_backend POLARS (default PYSPARK)
	}{
		// Laktory's quarantine frame is the whole frame when no expectation
		// is QUARANTINE, and its warnings are Laktory's messages.
		{name: "warn", exp: "  - {name: small, expr: v < 3, action: WARN}", good: 5, bad: 5, warning: "Expectation 'small' for node 'a' FAILED | expr: v < 3 | status: FAIL | fails count: 2 / 5 (40.00 %)"},
		{name: "warn within tolerance", exp: "  - {name: small, expr: v < 3, action: WARN, tolerance: {abs: 2}}", good: 5, bad: 5},
		{name: "drop", exp: "  - {name: small, expr: v < 3, action: DROP}", good: 3, bad: 5, noteSubstr: "dropped 2 of 5 rows", warning: "fails count: 2 / 5 (40.00 %)"},
		{name: "drop within tolerance", exp: "  - {name: small, expr: v < 3, action: DROP, tolerance: {rel: 0.4}}", good: 3, bad: 5, noteSubstr: "dropped 2 of 5 rows"},
		{name: "quarantine", exp: "  - {name: small, expr: v < 3, action: QUARANTINE}\n  - {name: notnull, expr: k IS NOT NULL, action: DROP}", good: 3, bad: 2, noteSubstr: "quarantined 2 of 5", warning: "Expectation 'small' for node 'a' FAILED"},
		// Several QUARANTINE expectations: a row is quarantined when it fails
		// all of them (Laktory ANDs the fail filters), kept when it passes all.
		{name: "quarantine AND", exp: "  - {name: small, expr: v < 3, action: QUARANTINE, tolerance: {abs: 5}}\n  - {name: odd, expr: v % 2 = 1, action: QUARANTINE, tolerance: {abs: 5}}", good: 1, bad: 1},
		{name: "fail", exp: "  - {name: small, expr: v < 3, action: FAIL}", good: -1, bad: -1, fail: "Expectation 'small' failed on node 'a' | expr: v < 3 | status: FAIL | fails count: 2 / 5 (40.00 %)"},
		{name: "fail within relative tolerance", exp: "  - {name: small, expr: v < 3, action: FAIL, tolerance: {rel: 0.5}}", good: 5, bad: 5},
		{name: "aggregate", exp: "  - {name: enough, expr: count(k) > 10, type: AGGREGATE, action: FAIL}", good: -1, bad: -1, fail: "Expectation 'enough' failed on node 'a' | expr: count(k) > 10 | status: FAIL; nothing was written"},
		// As Laktory 0.13.1 computes it on POLARS: a row the expectation is
		// NULL on is not a failure (df.filter(~expr)), not kept
		// (df.filter(expr)) and not quarantined.
		{name: "null is no failure", polars: true, exp: "  - {name: small, expr: v < 3, action: QUARANTINE}", data: `{"k": "n", "v": null}` + "\n", good: 3, bad: 2, noteSubstr: "quarantined 2 of 6 rows; 1 rows where it is NULL removed", warning: "fails count: 2 / 6 (33.33 %)"},
		{name: "null within tolerance", polars: true, exp: "  - {name: small, expr: v < 3, action: FAIL, tolerance: {abs: 2}}", data: `{"k": "n", "v": null}` + "\n", good: 6, bad: 6},
		{name: "null kept by WARN", polars: true, exp: "  - {name: small, expr: v < 3, action: WARN, tolerance: {abs: 2}}", data: `{"k": "n", "v": null}` + "\n", good: 6, bad: 6},
		// On PYSPARK Laktory counts failures on a pandas copy, where v < 3
		// is false for a missing v: the row counts as a failure, yet the
		// filters (on Spark) neither keep nor quarantine it.
		{name: "null counted on PYSPARK", exp: "  - {name: small, expr: v < 3, action: QUARANTINE}", data: `{"k": "n", "v": null}` + "\n", good: 3, bad: 2, noteSubstr: "quarantined 2 of 6 rows; 1 rows where it is NULL removed", warning: "fails count: 3 / 6 (50.00 %)"},
		{name: "null beyond tolerance on PYSPARK", exp: "  - {name: small, expr: v < 3, action: FAIL, tolerance: {abs: 2}}", data: `{"k": "n", "v": null}` + "\n", good: -1, bad: -1, fail: "fails count: 3 / 6 (50.00 %)"},
		{name: "null kept by WARN on PYSPARK", exp: "  - {name: small, expr: v < 3, action: WARN, tolerance: {abs: 2}}", data: `{"k": "n", "v": null}` + "\n", good: 6, bad: 6, warning: "fails count: 3 / 6 (50.00 %)"},
		{name: "!= of a null on PYSPARK", exp: "  - {name: not2, expr: v != 2, action: WARN}", data: `{"k": "n", "v": null}` + "\n", good: 6, bad: 6, warning: "fails count: 1 / 6 (16.67 %)"},
		{name: "empty frame passes", exp: "  - {name: enough, expr: count(k) > 10, type: AGGREGATE, action: FAIL}", data: "", empty: true, good: 0, bad: 0},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			data := jsonl("a", 0, 5, "") + tc.data
			if tc.empty {
				data = ""
			}
			w := newWS(t, map[string]string{"pipelines/pl.yaml": pipeline(tc.exp, tc.polars), "data/a/1.jsonl": data})
			r := testRunner(t)
			o := run(t, r, w.load(), Request{})
			ts := taskSum(t, o.sum, "pl.a")
			if tc.fail != "" {
				if !errors.Is(o.err, ErrTasksFailed) || !strings.Contains(ts.Err, tc.fail) {
					t.Fatalf("want failure %q, got %v / %q", tc.fail, o.err, ts.Err)
				}
			} else if o.err != nil {
				t.Fatalf("run: %v (%s)", o.err, ts.Err)
			}
			for name, want := range map[string]int{"good": tc.good, "bad": tc.bad} {
				p := w.table(name)
				if tc.polars {
					p = filepath.Join(w.dir, "lake", name)
				}
				n := -1
				if exists(p) {
					n = count(t, r, p, "")
				}
				if n != want {
					t.Fatalf("%s has %d rows, want %d", name, n, want)
				}
			}
			warned := strings.Join(ts.Warnings, "\n")
			if (tc.warning == "") != (warned == "") || !strings.Contains(warned, tc.warning) {
				t.Fatalf("warnings %q, want %q", warned, tc.warning)
			}
			if tc.noteSubstr != "" && !slices.ContainsFunc(o.events, func(e Event) bool { return strings.Contains(e.Message, tc.noteSubstr) }) {
				t.Fatalf("no event says %q", tc.noteSubstr)
			}
		})
	}
}

// TestUpstreamWithoutSink: a node reading an upstream node that has no
// sink executes it itself when the run does not select it, and reads its
// output from memory when it does.
func TestUpstreamWithoutSink(t *testing.T) {
	w := newWS(t, map[string]string{
		"pipelines/pl.yaml": `name: pl
nodes:
- name: mid
  sources:
  - path: ../data/a/
    format: JSONL
  transformer:
    nodes:
    - expr: SELECT k, v * 10 AS v FROM {df}
  expectations:
  - {name: big, expr: v >= 10, action: DROP}
- name: leaf
  sources:
  - node_name: mid
  sinks:
  - table_name: leaf
    mode: OVERWRITE
`,
		"data/a/1.jsonl": jsonl("a", 0, 4, ""),
	})
	r := testRunner(t)
	snap := w.load()
	for _, sel := range [][]string{{"leaf"}, {"*leaf"}} {
		o := mustRun(t, r, snap, Request{Selectors: sel})
		if got := query(t, r, w.table("leaf"), "SELECT sum(v), count(*) FROM t"); fmt.Sprint(got) != "[[60 3]]" {
			t.Fatalf("select %v: %v", sel, got)
		}
		if len(o.plan.Tasks) != 1+strings.Count(sel[0], "*") {
			t.Fatalf("select %v: tasks %v", sel, o.plan.Tasks)
		}
	}
}

// TestSinkQueryWriterColumn: the writer column comes first and replaces a
// column of the same name (any case) the node's output carries.
func TestSinkQueryWriterColumn(t *testing.T) {
	r := testRunner(t)
	s, err := newSession(t.Context(), r.local)
	if err != nil {
		t.Fatal(err)
	}
	defer s.close()
	v, err := s.view(t.Context(), "out", `SELECT 1 AS a, 'old' AS "_Laktory_Writer", 2 AS b`)
	if err != nil {
		t.Fatal(err)
	}
	sp := &sinkPlan{writer: &workspace.Writer{Ownership: workspace.OwnerColumn, Column: "_laktory_writer", WriterID: "pl.n"}}
	in, err := s.columns(t.Context(), quoteIdent(v))
	if err != nil {
		t.Fatal(err)
	}
	cols, err := s.columns(t.Context(), "("+sinkQuery(sp, v, in)+")")
	if err != nil {
		t.Fatal(err)
	}
	if got := columnNames(cols); !slices.Equal(got, []string{"_laktory_writer", "a", "b"}) {
		t.Fatalf("columns %v", got)
	}
	rows, err := s.e.Rows(t.Context(), sinkQuery(sp, v, in))
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	if row, err := rows.Next(); err != nil || string(row) != `{"_laktory_writer":"pl.n","a":1,"b":2}` {
		t.Fatalf("row %s %v", row, err)
	}
}

// TestSourceTypesAsLaktory: files are typed as Laktory 0.13.1 reads them
// on Spark and Polars: a CSV's columns are strings unless infer_schema is
// true (its default is false), then typed as Spark 4.2's inferSchema types
// them (int when it fits, timestamp); JSON keeps date- and time-like strings as
// strings (DuckDB alone would detect DATE and TIMESTAMP), and a column of
// nulls is a string column, as Spark infers it. Spark orders a JSON file's
// columns by name; Polars keeps the order of the keys. Integers of both
// signs are long (Int64), as both read them, where DuckDB's JSON reader
// alone gives HUGEINT, which Delta would store as decimal(38,0).
func TestSourceTypesAsLaktory(t *testing.T) {
	src := func(path, format, extra string) string {
		return "  sources:\n  - path: " + path + "\n    format: " + format + "\n" + extra
	}
	sink := func(name string) string { return "  sinks:\n  - table_name: " + name + "\n    mode: APPEND\n" }
	w := newWS(t, map[string]string{
		"pipelines/pl.yaml": "name: pl\nnodes:\n" +
			"- name: csv\n" + src("../data/p.csv", "CSV", "") + sink("csv") +
			"- name: typed\n" + src("../data/p.csv", "CSV", "    infer_schema: true\n") + sink("typed") +
			"- name: json\n" + src("../data/e.jsonl", "JSONL", "") + sink("json") +
			"- name: json_polars\n  dataframe_backend: POLARS\n" + src("../data/e.jsonl", "JSONL", "") + "  sinks:\n  - path: ../out/json_polars\n    format: DELTA\n    mode: APPEND\n",
		"data/p.csv": "symbol,price,qty,big,ok,day,at\nAAA,10.5,3,9000000000,true,2026-01-01,2026-01-01 09:00:00\n",
		"data/e.jsonl": `{"id": 1, "day": "2026-01-01", "at": "2026-01-01 09:00:00", "utc": "2026-01-01T09:00:00Z", "ok": true, "none": null, "ns": [1, -2], "st": {"n": -3}}` + "\n" +
			`{"id": -2, "day": "2026-01-02", "at": "2026-01-02 09:00:00", "utc": "2026-01-02T09:00:00Z", "ok": false, "none": null, "ns": [3], "st": {"n": 4}}` + "\n",
	})
	r := testRunner(t)
	mustRun(t, r, w.load(), Request{})
	types := func(table string) string {
		path := w.table(table)
		if table == "json_polars" {
			path = filepath.Join(w.dir, "out", table)
		}
		s, err := delta.LoadSnapshot(context.Background(), path)
		if err != nil {
			t.Fatal(err)
		}
		var out []string
		for _, f := range s.Schema().Fields {
			out = append(out, f.Name+" "+fmt.Sprint(f.Type))
		}
		return strings.Join(out, ", ")
	}
	for table, want := range map[string]string{
		"csv":         "symbol string, price string, qty string, big string, ok string, day string, at string",
		"typed":       "symbol string, price double, qty integer, big long, ok boolean, day date, at timestamp",
		"json":        `at string, day string, id long, none string, ns &{long true}, ok boolean, st {"type":"struct","fields":[{"name":"n","type":"long","nullable":true,"metadata":{}}]}, utc string`,
		"json_polars": `id long, day string, at string, utc string, ok boolean, none string, ns &{long true}, st {"type":"struct","fields":[{"name":"n","type":"long","nullable":true,"metadata":{}}]}`,
	} {
		if got := types(table); got != want {
			t.Errorf("%s: columns %s, want %s", table, got, want)
		}
	}
}
