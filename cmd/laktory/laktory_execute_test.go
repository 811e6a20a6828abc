package main

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/laktory/workbench/workspace/workspacetest"
)

// execStep is one run, made by Laktory and by us on the same workspace.
type execStep struct {
	name      string
	pipeline  string // run pipelines/<pipeline>.yaml
	refresh   string
	resetMode string
	selects   []string
	params    map[string]string
	files     map[string]string // written before the step
	// A documented difference (docs/fidelity.md, "Runs checked against Laktory"), at a
	// scenario's last step: our run fails saying oursFails while Laktory's
	// runs, or Laktory's fails saying laktoryFails while ours runs. The
	// tables must then differ. With both set, both runs fail (ours at
	// validate, before anything runs): ours writes nothing, Laktory's
	// leaves no rows (it may create an empty table first).
	oursFails, laktoryFails string
	// fails: both runs fail saying it (Laktory's message); the tables must
	// then be the same.
	fails string
	// sameOutcome: whatever Laktory's run does, ours does: both succeed,
	// or both fail, ours saying Laktory's message; the warnings and tables
	// are compared in both cases.
	sameOutcome bool
}

// execScenario is a workspace of shared Delta sinks by path and the runs
// made on it; owners are each table's writers with the Polars SQL
// predicate of their rows.
type execScenario struct {
	name   string
	files  map[string]string
	tables map[string]string // label -> path in the workspace
	owners map[string]map[string]string
	steps  []execStep
}

// pathSink is a Delta sink by path with the given shared options.
func pathSink(path, shared string) string {
	return "  sinks:\n  - path: " + path + "\n    format: DELTA\n    mode: APPEND\n    shared: " + shared + "\n"
}

var execScenarios = []execScenario{
	{
		name: "writer column",
		files: map[string]string{
			"pipelines/pl-feeds.yaml": `name: pl-feeds
dataframe_backend: POLARS
nodes:
- name: a
  sources:
  - path: ../data/a/
    format: JSONL
` + pathSink("../lake/prices", "true") + `- name: b
  sources:
  - path: ../data/b/
    format: CSV
  transformer:
    nodes:
    - expr: SELECT symbol, CAST(price AS DOUBLE) AS price, CAST(qty AS BIGINT) AS qty, day FROM {df}
` + pathSink("../lake/prices", "true"),
			"pipelines/pl-other.yaml": `name: pl-other
dataframe_backend: POLARS
nodes:
- name: c
  sources:
  - path: ../data/c/
    format: JSONL
` + pathSink("../lake/prices", "true"),
			"data/a/1.jsonl": `{"symbol": "AAA", "price": 10.5, "qty": 3, "day": "2026-01-01"}` + "\n" + `{"symbol": "AAB", "price": 2, "qty": null, "day": "2026-01-02"}` + "\n",
			"data/b/1.csv":   "symbol,price,qty,day\nBBB,0.5,1,2026-01-01\nBBC,7.25,2,2026-01-03\nBBD,,,\n",
			"data/c/1.jsonl": `{"symbol": "CCC", "price": 1.0, "qty": 9, "day": "2026-02-01"}` + "\n",
		},
		tables: map[string]string{"prices": "lake/prices"},
		owners: map[string]map[string]string{"prices": {
			"pl-feeds.a": "_laktory_writer = 'pl-feeds.a'",
			"pl-feeds.b": "_laktory_writer = 'pl-feeds.b'",
			"pl-other.c": "_laktory_writer = 'pl-other.c'",
		}},
		steps: []execStep{
			{name: "first run", pipeline: "pl-feeds"},
			{name: "a writer of another pipeline", pipeline: "pl-other"},
			{name: "a new file, then a run of a", pipeline: "pl-feeds", selects: []string{"a"},
				files: map[string]string{"data/a/2.jsonl": `{"symbol": "AAC", "price": 3.5, "qty": 1, "day": "2026-01-04"}` + "\n"}},
			{name: "FULL refresh of a", pipeline: "pl-feeds", refresh: "FULL", selects: []string{"a"}},
			{name: "RESET of b", pipeline: "pl-feeds", refresh: "RESET", selects: []string{"b"}},
			{name: "b runs again", pipeline: "pl-feeds", selects: []string{"b"}},
			{name: "RESET TRUNCATE of the table", pipeline: "pl-feeds", refresh: "RESET", resetMode: "TRUNCATE", selects: []string{"a"}},
			{name: "every writer runs", pipeline: "pl-feeds"},
			{name: "and the other pipeline's", pipeline: "pl-other"},
			{name: "RESET DROP of the table", pipeline: "pl-other", refresh: "RESET", resetMode: "DROP"},
			{name: "created again", pipeline: "pl-feeds"},
		},
	},
	{
		name: "custom column and writer_id",
		files: map[string]string{
			"pipelines/pl-custom.yaml": `name: pl-custom
dataframe_backend: POLARS
parameters:
  y_id:
    default: feed-y
nodes:
- name: x
  sources:
  - path: ../data/x.jsonl
    format: JSONL
` + pathSink("../lake/pooled", "{column: feed, writer_id: feed-x}") + `- name: y
  sources:
  - path: ../data/y.jsonl
    format: JSONL
` + pathSink("../lake/pooled", "{column: feed, writer_id: '${params.y_id}'}"),
			"data/x.jsonl": `{"id": 1, "v": "x1"}` + "\n" + `{"id": 2, "v": "x2"}` + "\n",
			"data/y.jsonl": `{"id": 10, "v": "y1"}` + "\n",
		},
		tables: map[string]string{"pooled": "lake/pooled"},
		owners: map[string]map[string]string{"pooled": {
			"feed-x": "feed = 'feed-x'", "feed-y": "feed = 'feed-y'", "feed-z": "feed = 'feed-z'",
		}},
		steps: []execStep{
			{name: "first run", pipeline: "pl-custom"},
			{name: "FULL refresh of x", pipeline: "pl-custom", refresh: "FULL", selects: []string{"x"}},
			{name: "RESET of y", pipeline: "pl-custom", refresh: "RESET", selects: []string{"y"}},
			{name: "y with writer_id feed-z (a parameter)", pipeline: "pl-custom", selects: []string{"y"}, params: map[string]string{"y_id": "feed-z"}},
			{name: "FULL refresh of y as feed-z", pipeline: "pl-custom", refresh: "FULL", selects: []string{"y"}, params: map[string]string{"y_id": "feed-z"}},
			{name: "FULL refresh of y as feed-y", pipeline: "pl-custom", refresh: "FULL", selects: []string{"y"}},
		},
	},
	{
		name: "where",
		files: map[string]string{
			"pipelines/pl-acme.yaml": `name: pl-acme
dataframe_backend: POLARS
nodes:
- name: orders
  sources:
  - path: ../data/acme/
    format: JSONL
  transformer:
    nodes:
    - expr: SELECT client_id, order_id, amount, 'acme' AS client FROM {df}
` + pathSink("../lake/orders", "{where: client_id = 1}"),
			"pipelines/pl-globex.yaml": `name: pl-globex
dataframe_backend: POLARS
nodes:
- name: orders
  sources:
  - path: ../data/globex.csv
    format: CSV
    infer_schema: true
  transformer:
    nodes:
    - expr: SELECT 2 AS client_id, order_id, amount, 'globex' AS client FROM {df}
` + pathSink("../lake/orders", "{where: client_id = 2}"),
			"data/acme/1.jsonl": `{"client_id": 1, "order_id": 100, "amount": 12.5}` + "\n" + `{"client_id": 1, "order_id": 101, "amount": 3}` + "\n",
			"data/globex.csv":   "order_id,amount\n200,4.5\n201,8.0\n202,1.25\n",
		},
		tables: map[string]string{"orders": "lake/orders"},
		owners: map[string]map[string]string{"orders": {"acme": "client_id = 1", "globex": "client_id = 2"}},
		steps: []execStep{
			{name: "first run of acme", pipeline: "pl-acme"},
			{name: "first run of globex", pipeline: "pl-globex"},
			{name: "FULL refresh of acme with a new file", pipeline: "pl-acme", refresh: "FULL",
				files: map[string]string{"data/acme/2.jsonl": `{"client_id": 1, "order_id": 102, "amount": 7.75}` + "\n"}},
			{name: "RESET of globex", pipeline: "pl-globex", refresh: "RESET"},
			{name: "globex runs again", pipeline: "pl-globex"},
			{name: "RESET DROP of the table", pipeline: "pl-acme", refresh: "RESET", resetMode: "DROP"},
			{name: "acme runs again", pipeline: "pl-acme"},
			{name: "acme writes a row of globex", pipeline: "pl-acme",
				files:     map[string]string{"data/acme/3.jsonl": `{"client_id": 2, "order_id": 103, "amount": 1}` + "\n"},
				oursFails: "rows outside the writer's predicate"},
		},
	},
	{
		name: "writers' columns differ",
		files: map[string]string{
			"pipelines/pl-mixed.yaml": `name: pl-mixed
dataframe_backend: POLARS
nodes:
- name: a
  sources:
  - path: ../data/a.jsonl
    format: JSONL
` + pathSink("../lake/t", "true") + `- name: reordered
  sources:
  - path: ../data/reordered.jsonl
    format: JSONL
` + pathSink("../lake/t", "true") + `- name: narrower
  sources:
  - path: ../data/reordered.jsonl
    format: JSONL
  transformer:
    nodes:
    - expr: SELECT CAST(id AS INTEGER) AS id, v, o FROM {df}
` + pathSink("../lake/t", "true"),
			"data/a.jsonl":         `{"id": 1, "v": "a", "o": {"y": 1, "x": "s"}}` + "\n",
			"data/reordered.jsonl": `{"v": "b", "id": 2, "o": {"y": 2, "x": "t"}}` + "\n",
		},
		tables: map[string]string{"t": "lake/t"},
		owners: map[string]map[string]string{"t": {
			"a": "_laktory_writer = 'pl-mixed.a'", "reordered": "_laktory_writer = 'pl-mixed.reordered'", "narrower": "_laktory_writer = 'pl-mixed.narrower'",
		}},
		steps: []execStep{
			{name: "a writer", pipeline: "pl-mixed", selects: []string{"a"}},
			{name: "a writer of the same columns in another order", pipeline: "pl-mixed", selects: []string{"reordered"}},
			{name: "a writer of an INTEGER into a BIGINT column", pipeline: "pl-mixed", selects: []string{"narrower"}},
		},
	},
	// Laktory's Polars backend appends with delta-rs, which refuses columns
	// that are not the table's; deployed on Spark, Laktory appends with
	// mergeSchema (a new column is added, a missing one is null), as we do.
	{
		name:   "a writer with one more column",
		files:  mixedColumns(`{"id": 2, "v": "b", "note": "n"}`),
		tables: map[string]string{"t": "lake/t"},
		owners: colsOwners,
		steps: []execStep{
			{name: "a writer", pipeline: "pl-cols", selects: []string{"a"}},
			{name: "a writer with one more column", pipeline: "pl-cols", selects: []string{"b"}, laktoryFails: "SchemaMismatchError"},
		},
	},
	{
		name:   "a writer with one column less",
		files:  mixedColumns(`{"id": 3}`),
		tables: map[string]string{"t": "lake/t"},
		owners: colsOwners,
		steps: []execStep{
			{name: "a writer", pipeline: "pl-cols", selects: []string{"a"}},
			{name: "a writer with one column less", pipeline: "pl-cols", selects: []string{"b"}, laktoryFails: "SchemaMismatchError"},
		},
	},
	{
		name:   "Polars SQL",
		files:  polarsSQL,
		tables: map[string]string{"calc": "lake/calc", "agg": "lake/agg"},
		steps: []execStep{
			{name: "a run", pipeline: "pl-sql"},
			{name: "a second run overwrites", pipeline: "pl-sql"},
		},
	},
	{
		name:   "Polars SQL names are case-sensitive",
		files:  polarsSQL,
		tables: map[string]string{"upper": "lake/upper"},
		steps: []execStep{
			{name: "SELECT ID of a column id", pipeline: "pl-case", oursFails: `unable to find column "ID"`, laktoryFails: "ColumnNotFoundError"},
		},
	},
	{
		name:   "Polars CSV reader_kwargs",
		files:  polarsSQL,
		tables: map[string]string{"k": "lake/k"},
		steps:  []execStep{{name: "separator, null_values, skip_rows, quote_char", pipeline: "pl-csv"}},
	},
	{
		name:  "Polars readers with kwargs",
		files: polarsReaders,
		tables: map[string]string{"typed": "lake/typed", "nohdr": "lake/nohdr", "cmt": "lake/cmt", "dates": "lake/dates",
			"nulls": "lake/nulls", "ndj": "lake/ndj", "blank": "lake/blank"},
		steps: []execStep{{name: "CSV inference, names, comments, dates, nulls; NDJSON rows", pipeline: "pl-readers"}},
	},
	{
		name:  "Polars writer_kwargs: CSV and PARQUET files",
		files: polarsWriters,
		tables: map[string]string{"semi": "out/semi.csv", "plain": "out/plain.csv", "csvdir": "out/csvdir",
			"flat": "out/flat.parquet", "pqdir": "out/pqdir", "parts": "out/parts", "json": "out/rows.json", "jsonl": "out/rows.jsonl"},
		steps: []execStep{
			{name: "separator, include_header, null_value, quote_char; partition_by", pipeline: "pl-files"},
			{name: "written again", pipeline: "pl-files",
				files: map[string]string{"data/w.jsonl": `{"k": "new", "c": 3, "v": 0.1, "ok": true, "day": "2026-03-01", "ts": "2026-03-01T00:00:00"}` + "\n"}},
		},
	},
	{
		name:   "Polars delta_write_options schema_mode merge",
		files:  polarsDeltaMerge,
		tables: map[string]string{"m": "lake/m"},
		steps: []execStep{
			{name: "a first run creates the table", pipeline: "pl-merge"},
			{name: "a new column is added", pipeline: "pl-merge",
				files: map[string]string{"data/m.jsonl": `{"id": 2, "v": "b", "w": 2.5}` + "\n"}},
			{name: "and missing again", pipeline: "pl-merge",
				files: map[string]string{"data/m.jsonl": `{"id": 3, "v": "c"}` + "\n"}},
		},
	},
	{
		name:   "Polars JSON and CSV sinks of zoned datetimes, decimals, NaN and nested types",
		files:  polarsTypedFiles,
		tables: map[string]string{"tjson": "out/t.json", "tjsonl": "out/t.jsonl", "tcsv": "out/t.csv", "njson": "out/n.json", "njsonl": "out/n.jsonl"},
		steps:  []execStep{{name: "write_json, write_ndjson and write_csv of each type", pipeline: "pl-typed"}},
	},
	// Laktory's FileDataSink.create writes the table unpartitioned, then
	// write_delta with partition_by fails on it; we create it partitioned
	// and warn (LK188).
	{
		name: "Polars delta_write_options partition_by",
		files: map[string]string{"pipelines/pl-dparts.yaml": `name: pl-dparts
dataframe_backend: POLARS
nodes:
- name: p
  sources:
  - path: ../data/m.jsonl
    format: JSONL
  sinks:
  - path: ../lake/p
    format: DELTA
    mode: OVERWRITE
    writer_kwargs: {delta_write_options: {partition_by: [c]}}
`, "data/m.jsonl": `{"id": 1, "c": "x"}` + "\n" + `{"id": 2, "c": "y"}` + "\n"},
		tables: map[string]string{"p": "lake/p"},
		steps: []execStep{{name: "a first run", pipeline: "pl-dparts",
			laktoryFails: "Specified table partitioning does not match table partitioning"}},
	},
	{
		name:  "Polars reader_kwargs and writer_kwargs a pipeline passes",
		files: polarsKwargs,
		tables: map[string]string{"eu": "lake/eu", "nq": "lake/nq", "hdr": "lake/hdr", "js": "lake/js", "src": "out/src.parquet", "tab": "out/tab.csv",
			"rd": "lake/rd"},
		steps: []execStep{
			{name: "CSV decimal_comma, truncate_ragged_lines, a null_values string, encoding; has_header in reader_kwargs; JSON infer_schema_length; Parquet and CSV writer_kwargs", pipeline: "pl-kw-write"},
			{name: "Parquet n_rows, row_index_name, row_index_offset and the reader options that change nothing read", pipeline: "pl-kw-read"},
			{name: "run again", pipeline: "pl-kw-write"},
		},
	},
	// Spark's spellings are not polars' keyword arguments: Laktory's run
	// fails with polars' TypeError, ours at validate (LK198, LK186).
	{
		name:   "Polars reader_kwargs in Spark's spelling",
		files:  polarsKwargs,
		tables: map[string]string{"sp": "lake/sp"},
		steps: []execStep{{name: "delimiter and header", pipeline: "pl-kw-spark-read",
			oursFails: "delimiter", laktoryFails: "unexpected keyword argument 'delimiter'"}},
	},
	// schema_overrides as YAML gives it: null and {} change nothing read;
	// a dtype's name is polars' TypeError, raised before a file is read
	// (ours at validate, LK221).
	{
		name:   "Polars schema_overrides",
		files:  polarsKwargs,
		tables: map[string]string{"so": "lake/so", "soj": "lake/soj"},
		steps:  []execStep{{name: "null on CSV, {} on JSONL", pipeline: "pl-kw-overrides"}},
	},
	{
		name:   "Polars schema_overrides of a dtype's name",
		files:  polarsKwargs,
		tables: map[string]string{"sod": "lake/sod"},
		steps: []execStep{{name: "a dtype's name", pipeline: "pl-kw-overrides-dtype",
			oursFails: "TypeError: cannot parse input of type 'str' into Polars data type (given: 'Int32')", laktoryFails: "cannot parse input of type 'str' into Polars data type (given: 'Int32')"}},
	},
	{
		name:   "Polars writer_kwargs in Spark's spelling",
		files:  polarsKwargs,
		tables: map[string]string{"spw": "out/spw"},
		steps: []execStep{{name: "partitionBy", pipeline: "pl-kw-spark-write",
			oursFails: "partitionBy", laktoryFails: "unexpected keyword argument 'partitionBy'"}},
	},
	{
		name:   "selects naming two columns alike",
		files:  polarsSQL,
		tables: map[string]string{"dup": "lake/dup"},
		steps: []execStep{
			{name: "selects [id, id + q]", pipeline: "pl-dup", oursFails: "[DuplicateError] the name 'id' is duplicate", laktoryFails: "DuplicateError: the name 'id' is duplicate"},
		},
	},
}

// polarsWriters is a POLARS pipeline of file sinks with polars' writer
// arguments (Laktory 0.13.1 writes them with df.write_csv(path,
// **writer_kwargs), df.write_parquet(path, **writer_kwargs)): CSV with
// separator, include_header, null_value and quote_char, and with polars'
// defaults (quoting, floats, booleans, dates and datetimes as polars
// formats them); a sink path without an extension, which polars writes as
// one file; a Parquet file and a Parquet folder partitioned by
// partition_by (whose folder must exist for Laktory: its
// FileDataSink.create writes an empty file there otherwise).
var polarsWriters = map[string]string{
	"pipelines/pl-files.yaml": `name: pl-files
dataframe_backend: POLARS
nodes:
- name: w
  sources:
  - path: ../data/w.jsonl
    format: JSONL
  transformer:
    nodes:
    - expr: SELECT k, c, v, ok, CAST(day AS DATE) AS day, CAST(ts AS TIMESTAMP) AS ts FROM {df}
  sinks:
  - path: ../out/semi.csv
    format: CSV
    writer_kwargs: {separator: ';', include_header: false, null_value: NA, quote_char: "'"}
  - path: ../out/plain.csv
    format: CSV
  - path: ../out/csvdir
    format: CSV
  - path: ../out/flat.parquet
    format: PARQUET
  - path: ../out/pqdir
    format: PARQUET
  - path: ../out/parts
    format: PARQUET
    writer_kwargs: {partition_by: [c], compression: snappy}
  - path: ../out/rows.json
    format: JSON
  - path: ../out/rows.jsonl
    format: JSONL
`,
	"data/w.jsonl": `{"k": "x;y", "c": 1, "v": 1.5, "ok": true, "day": "2026-01-01", "ts": "2026-01-01T08:30:00"}
{"k": null, "c": 2, "v": null, "ok": null, "day": null, "ts": null}
{"k": "q\"r'", "c": 1, "v": 3, "ok": false, "day": "2026-01-02", "ts": "2026-01-02T00:00:00.25"}
{"k": "line\nbreak, comma", "c": 2, "v": 1e20, "ok": true, "day": "1999-12-31", "ts": "1999-12-31T23:59:59"}
{"k": "", "c": 1, "v": -0.000125, "ok": false, "day": "2026-01-03", "ts": "2026-01-03T12:00:00"}
`,
	"out/parts/.keep": "",
}

// polarsKwargs are POLARS pipelines with the reader_kwargs and
// writer_kwargs of polars' scan_csv, read_json, scan_parquet, write_parquet
// and write_csv that a pipeline passes beyond those above: a European CSV
// (separator ';', decimal_comma, a ragged row truncated, a null_values
// string, encoding utf8-lossy, raise_if_empty and the options that change
// nothing read; read again without quoting), has_header and infer_schema
// given in reader_kwargs (which override the source's options), JSON
// typed from its first row, a
// Parquet file written with compression, compression_level, statistics,
// row_group_size and data_page_size and read back with n_rows and a row
// index, a CSV written with a tab separator; and Spark's spellings.
var polarsKwargs = map[string]string{
	"pipelines/pl-kw-write.yaml": `name: pl-kw-write
dataframe_backend: POLARS
nodes:
- name: eu
  sources:
  - path: ../data/eu.csv
    format: CSV
    infer_schema: true
    reader_kwargs: {separator: ';', decimal_comma: true, truncate_ragged_lines: true, null_values: n/a, encoding: utf8-lossy,
      raise_if_empty: true, low_memory: true, rechunk: false, cache: false, glob: false}
` + readerSink("eu") + `- name: nq
  sources:
  - path: ../data/eu.csv
    format: CSV
    reader_kwargs: {separator: ';', quote_char: null, truncate_ragged_lines: true, infer_schema_length: 0, encoding: utf8}
` + readerSink("nq") + `- name: hdr
  sources:
  - path: ../data/hdr.csv
    format: CSV
    reader_kwargs: {has_header: false, infer_schema: true, infer_schema_length: null}
` + readerSink("hdr") + `- name: js
  sources:
  - path: ../data/js.json
    format: JSON
    reader_kwargs: {infer_schema_length: 1}
` + readerSink("js") + `- name: pq
  sources:
  - path: ../data/w.jsonl
    format: JSONL
  sinks:
  - path: ../out/src.parquet
    format: PARQUET
    writer_kwargs: {compression: zstd, compression_level: 5, statistics: false, row_group_size: 2, data_page_size: 4096}
  - path: ../out/tab.csv
    format: CSV
    writer_kwargs: {separator: "\t", include_header: true, quote_char: '"', null_value: ''}
`,
	"pipelines/pl-kw-read.yaml": `name: pl-kw-read
dataframe_backend: POLARS
nodes:
- name: rd
  sources:
  - path: ../out/src.parquet
    format: PARQUET
    reader_kwargs: {n_rows: 3, row_index_name: rn, row_index_offset: 5, low_memory: true, rechunk: true, use_statistics: false,
      parallel: auto, cache: false, glob: false}
` + readerSink("rd"),
	"pipelines/pl-kw-spark-read.yaml": `name: pl-kw-spark-read
dataframe_backend: POLARS
nodes:
- name: sp
  sources:
  - path: ../data/eu.csv
    format: CSV
    reader_kwargs: {delimiter: ';'}
` + readerSink("sp"),
	"pipelines/pl-kw-overrides.yaml": `name: pl-kw-overrides
dataframe_backend: POLARS
nodes:
- name: so
  sources:
  - path: ../data/hdr.csv
    format: CSV
    reader_kwargs: {has_header: false, infer_schema: true, schema_overrides: null}
` + readerSink("so") + `- name: soj
  sources:
  - path: ../data/w.jsonl
    format: JSONL
    reader_kwargs: {schema_overrides: {}}
` + readerSink("soj"),
	"pipelines/pl-kw-overrides-dtype.yaml": `name: pl-kw-overrides-dtype
dataframe_backend: POLARS
nodes:
- name: sod
  sources:
  - path: ../data/hdr.csv
    format: CSV
    reader_kwargs: {has_header: false, infer_schema: true, schema_overrides: {column_1: Int32}}
` + readerSink("sod"),
	"pipelines/pl-kw-spark-write.yaml": `name: pl-kw-spark-write
dataframe_backend: POLARS
nodes:
- name: spw
  sources:
  - path: ../data/w.jsonl
    format: JSONL
  sinks:
  - path: ../out/spw
    format: PARQUET
    writer_kwargs: {partitionBy: [c]}
`,
	"data/eu.csv":  "id;amount;note\n1;1,5;n/a\n2;-0,25;x;extra\n3;10;\"y;z\"\n4;;n/a\n5;1000,5;w\n",
	"data/hdr.csv": "10,x,1.5\n20,y,2\n30,,\n",
	"data/js.json": `[{"a": 1, "s": "p"}, {"a": 2.5, "s": "q"}, {"a": null, "s": null}]`,
	"data/w.jsonl": `{"k": "x\ty", "c": 1, "v": 1.5}
{"k": null, "c": 2, "v": null}
{"k": "q\"r", "c": 1, "v": 3}
{"k": "", "c": 2, "v": 1e20}
{"k": "z", "c": 3, "v": -0.5}
`,
	"out/.keep": "",
}

// polarsTypedFiles is a POLARS pipeline whose JSON, NDJSON and CSV sinks
// write what write_json, write_ndjson and write_csv write for a zoned
// datetime (a CSV column read with try_parse_dates), a decimal, NaN and
// infinities, a Float32, and (JSON only: write_csv refuses them) lists and
// structs.
var polarsTypedFiles = map[string]string{
	"pipelines/pl-typed.yaml": `name: pl-typed
dataframe_backend: POLARS
nodes:
- name: t
  sources:
  - path: ../data/t.csv
    format: CSV
    infer_schema: true
    reader_kwargs: {try_parse_dates: true}
  transformer:
    nodes:
    - expr: SELECT id, tz, naive, CAST(amt AS DECIMAL(10,2)) AS amt, x / y AS r, CAST(x AS FLOAT) AS f FROM {df}
  sinks:
  - path: ../out/t.json
    format: JSON
  - path: ../out/t.jsonl
    format: JSONL
  - path: ../out/t.csv
    format: CSV
- name: n
  sources:
  - path: ../data/n.jsonl
    format: JSONL
  sinks:
  - path: ../out/n.json
    format: JSON
  - path: ../out/n.jsonl
    format: JSONL
`,
	"data/t.csv": "id,tz,naive,amt,x,y\n1,2026-01-01T08:30:00Z,2026-01-01 08:30:00,1.5,1.5,0\n2,2026-06-30T23:59:59.250+02:00,2026-06-30 23:59:59.250,-0.01,0,0\n" +
		"3,2026-03-01T00:00:00.123456Z,2026-03-01T00:00:00.123456,120,-2,0\n4,,,,3,4\n",
	"data/n.jsonl": `{"id": 1, "l": [1, 2], "s": {"a": 1.5, "b": "x"}, "ls": [{"k": "p"}], "e": []}` + "\n" +
		`{"id": 2, "l": null, "s": {"a": null, "b": null}, "ls": [], "e": [null]}` + "\n" +
		`{"id": 3, "l": [null, 3], "s": null, "ls": null, "e": null}` + "\n",
	"out/.keep": "",
}

// polarsDeltaMerge is a POLARS DELTA sink appending with
// delta_write_options schema_mode merge, whose source gains a column and
// loses it again.
var polarsDeltaMerge = map[string]string{
	"pipelines/pl-merge.yaml": `name: pl-merge
dataframe_backend: POLARS
nodes:
- name: m
  sources:
  - path: ../data/m.jsonl
    format: JSONL
  sinks:
  - path: ../lake/m
    format: DELTA
    mode: APPEND
    writer_kwargs: {delta_write_options: {schema_mode: merge}}
`,
	"data/m.jsonl": `{"id": 1, "v": "a"}` + "\n",
}

// polarsReaders is a POLARS pipeline whose file sources polars reads with
// the options and reader_kwargs people pass: CSV typed by polars'
// inference (Int64, Float64, Boolean, strings for dates), header-less
// column_N names, a repeated header name, comment lines, try_parse_dates,
// null_values per column, a row index, blank and short rows; NDJSON with
// infer_schema_length (a later float cast to the first rows' Int64),
// n_rows and a row index.
var polarsReaders = map[string]string{
	"pipelines/pl-readers.yaml": `name: pl-readers
dataframe_backend: POLARS
nodes:
- name: typed
  sources:
  - path: ../data/typed.csv
    format: CSV
    infer_schema: true
` + readerSink("typed") + `- name: nohdr
  sources:
  - path: ../data/nohdr.csv
    format: CSV
    has_header: false
    infer_schema: true
    reader_kwargs: {separator: '|', row_index_name: rn, row_index_offset: 1}
` + readerSink("nohdr") + `- name: cmt
  sources:
  - path: ../data/cmt.csv
    format: CSV
    infer_schema: true
    reader_kwargs: {comment_prefix: '#', skip_rows_after_header: 1, infer_schema_length: 2}
` + readerSink("cmt") + `- name: dates
  sources:
  - path: ../data/dates.csv
    format: CSV
    infer_schema: true
    reader_kwargs: {try_parse_dates: true}
` + readerSink("dates") + `- name: nulls
  sources:
  - path: ../data/nulls.csv
    format: CSV
    infer_schema: true
    reader_kwargs: {null_values: {a: NA}, missing_utf8_is_empty_string: true, n_rows: 3}
` + readerSink("nulls") + `- name: blank
  sources:
  - path: ../data/blank.csv
    format: CSV
    reader_kwargs: {new_columns: [x]}
` + readerSink("blank") + `- name: ndj
  sources:
  - path: ../data/e.ndjson
    format: NDJSON
    reader_kwargs: {infer_schema_length: 1, n_rows: 2, row_index_name: i}
` + readerSink("ndj"),
	"data/typed.csv": "id,price,ok,day,note,note\n1,9.5,true,2024-01-02,\"x, y\",a\n2,10,False,2024-01-03,\"\",b\n-3,1e3,TRUE,2024-01-04,,c\n",
	"data/nohdr.csv": "10|x|1.5\n20|y|2\n",
	"data/cmt.csv":   "# exported\nk,v\nunits,units\n1,2#3\n# middle\n2,4\n",
	"data/dates.csv": "d,ts,tz\n2024-03-01,2024-03-01 08:30:00,2024-03-01T08:30:00Z\n2024-03-02,2024-03-02T09:00:00.250,2024-03-02 10:00:00+01:00\n",
	"data/nulls.csv": "a,b,c\nNA,,1\nx,NA,\n,y,3\nz,z,4\n",
	"data/blank.csv": "a,b\n1,2\n\n3\n",
	"data/e.ndjson":  "{\"a\": 1, \"s\": \"p\"}\n{\"a\": 2.5, \"s\": \"q\"}\n{\"a\": 3, \"s\": \"r\"}\n",
}

func readerSink(name string) string {
	return "  sinks:\n  - path: ../lake/" + name + "\n    format: DELTA\n    mode: OVERWRITE\n"
}

// polarsSQL is a POLARS pipeline whose SQL DuckDB and polars computed
// differently before POLARS nodes ran Polars SQL: ROUND half to even,
// CAST to an integer truncating, SUM of integers Int64, COUNT(*) named len
// and UInt32 (an Int32 in Delta), INITCAP, REGEXP_LIKE, unaliased
// expressions named after their leftmost column; a source's filter and
// selects and an expectation through Laktory's own SQL parser.
var polarsSQL = map[string]string{
	"pipelines/pl-sql.yaml": `name: pl-sql
dataframe_backend: POLARS
nodes:
- name: calc
  sources:
  - path: ../data/m.jsonl
    format: JSONL
    filter: q > 2 AND tag IS NOT NULL
  transformer:
    nodes:
    - expr: >-
        SELECT id, grp, ROUND(x) AS r0, ROUND(y, 1) AS r1, CAST(z AS INT) AS c,
        INITCAP(name) AS nm, REGEXP_LIKE(tag, '^[a-z]+[0-9]+$') AS m, UPPER(tag), q * 2, x / 3 AS third
        FROM {df}
  expectations:
  - name: small
    expr: c < 5
    action: DROP
  sinks:
  - path: ../lake/calc
    format: DELTA
    mode: OVERWRITE
- name: agg
  sources:
  - node_name: calc
    selects: [grp, q, r0]
  transformer:
    nodes:
    - expr: SELECT grp, SUM(q) AS total, COUNT(*) AS n, AVG(r0) AS mean, MAX(q) FROM {df} GROUP BY grp
  sinks:
  - path: ../lake/agg
    format: DELTA
    mode: OVERWRITE
`,
	"pipelines/pl-case.yaml": `name: pl-case
dataframe_backend: POLARS
nodes:
- name: upper
  sources:
  - path: ../data/m.jsonl
    format: JSONL
  transformer:
    nodes:
    - expr: SELECT ID FROM {df}
  sinks:
  - path: ../lake/upper
    format: DELTA
    mode: OVERWRITE
`,
	"pipelines/pl-dup.yaml": `name: pl-dup
dataframe_backend: POLARS
nodes:
- name: dup
  sources:
  - path: ../data/m.jsonl
    format: JSONL
    selects: [id, id + q]
  sinks:
  - path: ../lake/dup
    format: DELTA
    mode: OVERWRITE
`,
	"pipelines/pl-csv.yaml": `name: pl-csv
dataframe_backend: POLARS
nodes:
- name: k
  sources:
  - path: ../data/k.csv
    format: CSV
    reader_kwargs: {separator: ';', null_values: [NA, '-'], skip_rows: 1, quote_char: "'"}
  sinks:
  - path: ../lake/k
    format: DELTA
    mode: OVERWRITE
`,
	"data/k.csv": "a line before the header\nid;v;w\n1;NA;x\n2;3.5;\n3;'a;b';-\n4;'';z\n",
	"data/m.jsonl": `{"id": 1, "grp": "a", "x": 10.5, "y": 20.25, "z": 2.5, "q": 3, "name": "alice o'neil-smith", "tag": "ab12"}
{"id": 2, "grp": "a", "x": 11.5, "y": 0.35, "z": -2.5, "q": 4, "name": "BOB", "tag": "AB12"}
{"id": 3, "grp": "b", "x": -0.5, "y": 1.25, "z": 3.9, "q": 5, "name": "élan vital", "tag": "x"}
{"id": 4, "grp": "b", "x": 2.5, "y": 2.675, "z": 7.9, "q": 6, "name": "zoë", "tag": "q9"}
{"id": 5, "grp": "c", "x": 1.5, "y": 1.0, "z": 0.1, "q": 1, "name": "filtered", "tag": "zz"}
`,
}

var colsOwners = map[string]map[string]string{"t": {"a": "_laktory_writer = 'pl-cols.a'", "b": "_laktory_writer = 'pl-cols.b'"}}

// mixedColumns is a pipeline whose writer b of table t writes the JSON
// line b, writer a {"id", "v"}.
func mixedColumns(b string) map[string]string {
	return map[string]string{
		"pipelines/pl-cols.yaml": `name: pl-cols
dataframe_backend: POLARS
nodes:
- name: a
  sources:
  - path: ../data/a.jsonl
    format: JSONL
` + pathSink("../lake/t", "true") + `- name: b
  sources:
  - path: ../data/b.jsonl
    format: JSONL
` + pathSink("../lake/t", "true"),
		"data/a.jsonl": `{"id": 1, "v": "a"}` + "\n",
		"data/b.jsonl": b + "\n",
	}
}

// narwhalsScenario is a POLARS pipeline of NARWHALS func_name steps
// (narwhals expressions, sql_expr, unique with order_by, a {sources.x}
// join, dt.truncate, laktory.groupby_and_agg with narwhals aggregations,
// sort) and expectations written as narwhals expressions into a Delta
// table, kept in runner/testdata/narwhals-funcname: runner's
// TestFuncNamePipelineToDelta runs the same workspace in the default suite.
func narwhalsScenario(t *testing.T) execScenario {
	t.Helper()
	return execScenario{
		name:   "narwhals func_name steps",
		files:  workspacetest.ReadTree(t, "../../runner/testdata/narwhals-funcname"),
		tables: map[string]string{"totals": "lake/totals"},
		steps:  []execStep{{name: "first run", pipeline: "pl"}, {name: "run again", pipeline: "pl"}},
	}
}

// ipcScenario reads the Arrow IPC files of the reader corpus (written by
// polars' write_ipc: every integer width, UInt32, Float64, Boolean,
// string views, Date, Datetime, Decimal, List, Struct, a zoned Datetime)
// on POLARS, as pl.scan_ipc reads them, with n_rows and a row index, a
// filter and selects, into Delta tables and a Parquet file.
func ipcScenario(t *testing.T) execScenario {
	t.Helper()
	files := map[string]string{"pipelines/pl-ipc.yaml": `name: pl-ipc
dataframe_backend: POLARS
nodes:
- name: types
  sources:
  - path: ../data/types.arrow
    format: IPC
` + readerSink("types") + `- name: nested
  sources:
  - path: ../data/nested.arrow
    format: IPC
` + readerSink("nested") + `- name: rows
  sources:
  - path: ../data/rows.arrow
    format: IPC
    reader_kwargs: {n_rows: 4, row_index_name: rn, row_index_offset: 10, memory_map: false}
` + readerSink("rows") + `- name: picked
  sources:
  - path: ../data/rows.arrow
    format: IPC
    filter: a > 6
    selects: [s, a]
  sinks:
  - path: ../out/picked.parquet
    format: PARQUET
`, "out/.keep": ""}
	for _, name := range []string{"types", "nested", "rows"} {
		b, err := os.ReadFile(filepath.Join("..", "..", "runner", "polarsread", "testdata", "corpus", "ipc", name+".arrow"))
		if err != nil {
			t.Fatal(err)
		}
		files["data/"+name+".arrow"] = string(b)
	}
	return execScenario{
		name:   "IPC sources",
		files:  files,
		tables: map[string]string{"types": "lake/types", "nested": "lake/nested", "rows": "lake/rows", "picked": "out/picked.parquet"},
		steps:  []execStep{{name: "first run", pipeline: "pl-ipc"}, {name: "run again", pipeline: "pl-ipc"}},
	}
}

// quickstartScenario is the local-pipeline quickstart stack shipped in
// the installed laktory package (laktory/resources/quickstart-stacks), as
// a user copies it: its pipeline (SQL and func_name steps with narwhals
// expressions: struct fields, casts, dt.truncate, a join of {sources.x},
// laktory.groupby_and_agg) and its data, with the Parquet sinks of its
// silver and gold nodes written as Delta tables (mode OVERWRITE) instead,
// so that delta-rs compares the Delta types too. Laktory's run and ours
// must leave the same tables.
func quickstartScenario(t *testing.T, py string) execScenario {
	t.Helper()
	out, err := exec.Command(py, "-c", "import laktory, os; print(os.path.join(os.path.dirname(laktory.__file__), 'resources', 'quickstart-stacks', 'local-pipeline'))").Output()
	if err != nil {
		t.Fatalf("laktory is not installed in %s: %v", py, err)
	}
	dir := strings.TrimSpace(string(out))
	read := func(name string) string {
		b, err := os.ReadFile(filepath.Join(dir, name))
		if err != nil {
			t.Fatalf("the local-pipeline quickstart: %v", err)
		}
		return string(b)
	}
	// The bronze nodes keep their Parquet sinks: their JSON has all-null
	// fields (Polars' Null dtype), which Laktory cannot write to Delta.
	sinks := regexp.MustCompile(`(path: )\./data/((?:slv|gld)_\w+)\.parquet(\s*\n\s*)format: PARQUET`)
	yml := read("pipeline.yaml")
	tables := map[string]string{}
	for _, m := range sinks.FindAllStringSubmatch(yml, -1) {
		tables[m[2]] = "pipelines/lake/" + m[2]
	}
	if len(tables) != 3 {
		t.Fatalf("the local-pipeline quickstart has %d silver and gold Parquet sinks, want 3 (it changed: adapt the scenario)", len(tables))
	}
	yml = sinks.ReplaceAllString(yml, "${1}./lake/${2}${3}format: DELTA${3}mode: OVERWRITE")
	return execScenario{
		name: "local-pipeline quickstart",
		files: map[string]string{
			"pipelines/pl-stock-prices.yaml":     yml,
			"pipelines/data/stock_prices.json":   read("data/stock_prices.json"),
			"pipelines/data/stock_metadata.json": read("data/stock_metadata.json"),
		},
		tables: tables,
		steps:  []execStep{{name: "first run", pipeline: "pl-stock-prices"}, {name: "run again", pipeline: "pl-stock-prices"}},
	}
}

// laktoryPython is $LAKTORY_PYTHON, a Python with the interop packages
// (laktory among them). Without it the test skips, unless
// LAKTORY_REQUIRE_INTEROP=1 (scripts/test.sh), then it fails.
func laktoryPython(t *testing.T) string {
	py := os.Getenv("LAKTORY_PYTHON")
	if py == "" {
		if os.Getenv("LAKTORY_REQUIRE_INTEROP") == "1" {
			t.Fatal("LAKTORY_PYTHON is not set (a Python with scripts/requirements-interop.txt installed)")
		}
		t.Skip("LAKTORY_PYTHON not set: Laktory execution parity skipped")
	}
	return py
}

// tableState is a Delta table as scripts/interop/laktory_execute.py
// describes it with delta-rs.
type tableState struct {
	Exists     bool             `json:"exists"`
	Kind       string           `json:"kind"` // delta, parquet or text (CSV)
	Schema     []map[string]any `json:"schema"`
	Partitions []string         `json:"partition_columns"`
	Rows       []string         `json:"rows"`
	Writers    map[string]int   `json:"writers"`
	History    []map[string]int `json:"history"`
	// A PARQUET or CSV sink's files: the folders holding them ("" for the
	// sink's path itself), each Parquet file's columns (path, physical and
	// logical type, nullable), a CSV's lines (sorted) and first lines.
	Layout      []string `json:"layout"`
	FileSchemas []string `json:"file_schemas"`
	Lines       []string `json:"lines"`
	FirstLines  []string `json:"first_lines"`
}

// TestLaktoryExecution runs Laktory 0.13.1's Polars backend
// (Pipeline.execute, scripts/interop/laktory_execute.py) and laktory run
// on the same workspaces of shared Delta sinks by path (a writer column,
// a custom column and writer_id, where predicates; across pipelines), step
// by step: first runs, incremental runs, FULL refreshes and RESETs of one
// writer, RESET of the whole table with TRUNCATE and DROP, parameters.
// After each step the tables must be the same, read by delta-rs: schema
// (names, types, nullability, column order), partition columns, rows per
// writer, every row, and the rows per writer after each commit (a FULL
// refresh deletes in one commit and appends in another, as Laktory does).
func TestLaktoryExecution(t *testing.T) {
	py := laktoryPython(t)
	root := t.TempDir()
	type planStep struct {
		Name      string            `json:"name"`
		Pipeline  string            `json:"pipeline"`
		Refresh   string            `json:"refresh,omitempty"`
		ResetMode string            `json:"reset_mode,omitempty"`
		Selects   []string          `json:"selects,omitempty"`
		Params    map[string]string `json:"params,omitempty"`
		Files     map[string]string `json:"files,omitempty"`
		Ours      map[string]string `json:"ours"`
	}
	type plan struct {
		Workspace string                       `json:"workspace"`
		Tables    map[string]string            `json:"tables"`
		Owners    map[string]map[string]string `json:"owners"`
		Steps     []planStep                   `json:"steps"`
	}
	var plans []plan
	outputs := map[[2]int]string{} // our run's output, by scenario and step
	outcomes := map[[2]int]int{}   // and its exit code
	scenarios := append(slices.Clip(execScenarios), quickstartScenario(t, py), narwhalsScenario(t), expectScenario(), ipcScenario(t))
	scenarios = append(scenarios, expectCorpusScenarios(t, py)...)
	if only := os.Getenv("LAKTORY_EXECUTE_SCENARIOS"); only != "" {
		// While working on one scenario: those whose name matches.
		re := regexp.MustCompile(only)
		scenarios = slices.DeleteFunc(scenarios, func(sc execScenario) bool { return !re.MatchString(sc.name) })
	}
	for i, sc := range scenarios {
		dir := filepath.Join(root, fmt.Sprint(i))
		ours, theirs := filepath.Join(dir, "ours"), filepath.Join(dir, "laktory")
		workspacetest.Write(t, ours, sc.files)
		workspacetest.Write(t, theirs, sc.files)
		p := plan{Workspace: theirs, Tables: sc.tables, Owners: sc.owners}
		for k, st := range sc.steps {
			workspacetest.Write(t, ours, st.files)
			// One task at a time, in the pipeline's order, as Pipeline.execute
			// runs them: the order of the commits is compared.
			args := []string{"run", ours, "--pipeline", st.pipeline, "--yes", "--parallel", "1"}
			if st.refresh != "" {
				args = append(args, "--refresh", st.refresh)
			}
			if st.resetMode != "" {
				args = append(args, "--reset-mode", st.resetMode)
			}
			for _, s := range st.selects {
				args = append(args, "--select", s)
			}
			for k, v := range st.params {
				args = append(args, "--param", k+"="+v)
			}
			code, out, errs := runCLI(t, nil, args...)
			outputs[[2]int{i, k}] = out + errs
			outcomes[[2]int{i, k}] = code
			switch {
			case st.sameOutcome:
			case st.fails != "" && (code == ExitOK || !strings.Contains(out+errs, st.fails)):
				t.Errorf("%s, %s: our run exits %d, want a failure saying %q, as Laktory's\n%s%s", sc.name, st.name, code, st.fails, out, errs)
			case st.fails != "":
			case st.oursFails != "" && (code == ExitOK || !strings.Contains(out+errs, st.oursFails)):
				t.Errorf("%s, %s: our run exits %d, want a failure saying %q\n%s%s", sc.name, st.name, code, st.oursFails, out, errs)
			case st.oursFails == "" && code != ExitOK:
				t.Errorf("%s, %s: %v: exit %d\n%s%s", sc.name, st.name, args[2:], code, out, errs)
			}
			ps := planStep{Name: st.name, Pipeline: "pipelines/" + st.pipeline + ".yaml", Refresh: st.refresh, ResetMode: st.resetMode,
				Selects: st.selects, Params: st.params, Files: st.files, Ours: map[string]string{}}
			for label, rel := range sc.tables {
				if snap := snapshot(t, filepath.Join(ours, rel), filepath.Join(dir, "snapshots", fmt.Sprint(k), label)); snap != "" {
					ps.Ours[label] = snap
				}
			}
			p.Steps = append(p.Steps, ps)
		}
		plans = append(plans, p)
	}
	if t.Failed() {
		t.FailNow()
	}

	b, err := json.Marshal(plans)
	if err != nil {
		t.Fatal(err)
	}
	planFile, outFile := filepath.Join(root, "plan.json"), filepath.Join(root, "out.json")
	if err := os.WriteFile(planFile, b, 0o644); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	defer cancel()
	script := filepath.Join("..", "..", "scripts", "interop", "laktory_execute.py")
	if b, err := exec.CommandContext(ctx, py, script, planFile, outFile).CombinedOutput(); err != nil {
		t.Fatalf("laktory_execute.py: %v\n%s", err, b)
	}
	if b, err = os.ReadFile(outFile); err != nil {
		t.Fatal(err)
	}
	var res []struct {
		Steps []struct {
			Name     string
			Error    string
			Warnings []string
			Tables   map[string]struct{ Laktory, Ours tableState }
		}
	}
	if err := json.Unmarshal(b, &res); err != nil || len(res) != len(scenarios) {
		t.Fatalf("%v: %d results for %d scenarios", err, len(res), len(scenarios))
	}
	compared := 0
	for i, sc := range scenarios {
		for k, st := range res[i].Steps {
			where := sc.name + ", step " + fmt.Sprint(k+1) + " (" + st.Name + ")"
			want := sc.steps[k]
			if want.sameOutcome {
				code, ours := outcomes[[2]int{i, k}], outputs[[2]int{i, k}]
				msg := st.Error
				if j := strings.Index(msg, ": "); j >= 0 {
					msg = msg[j+2:]
				}
				switch {
				case st.Error == "" && code != ExitOK:
					t.Errorf("%s: Laktory's run succeeds, ours exits %d\n%s", where, code, ours)
				case st.Error != "" && (code == ExitOK || !strings.Contains(ours, msg)):
					t.Errorf("%s: Laktory's run fails %q, ours exits %d\n%s", where, st.Error, code, ours)
				}
			}
			switch {
			case want.sameOutcome:
			case want.fails != "" && !strings.Contains(st.Error, want.fails):
				t.Errorf("%s: Laktory's run: %q, want a failure saying %q", where, st.Error, want.fails)
			case want.fails != "":
			case want.laktoryFails == "" && st.Error != "":
				t.Errorf("%s: Laktory fails: %s", where, st.Error)
				continue
			case want.laktoryFails != "" && !strings.Contains(st.Error, want.laktoryFails):
				t.Errorf("%s: Laktory's run: %q, want a failure saying %q", where, st.Error, want.laktoryFails)
			}
			if want.oursFails != "" && want.laktoryFails != "" {
				// Ours wrote nothing; Laktory may have created the table
				// before failing, with no rows.
				for l, tb := range st.Tables {
					compared++
					if tb.Ours.Exists || len(tb.Laktory.Rows) > 0 {
						t.Errorf("%s, table %s: both runs fail, yet ours exists: %v, Laktory's rows: %v", where, l, tb.Ours.Exists, tb.Laktory.Rows)
					}
				}
				continue
			}
			if want.oursFails != "" || want.laktoryFails != "" {
				for l, tb := range st.Tables {
					if compareTables(tb.Laktory, tb.Ours) == "" {
						t.Errorf("%s, table %s: the documented difference is gone: Laktory's table is ours", where, l)
					}
				}
				continue
			}
			if diff := compareWarnings(st.Warnings, outputs[[2]int{i, k}]); diff != "" {
				t.Errorf("%s: %s", where, diff)
			}
			labels := make([]string, 0, len(st.Tables))
			for l := range st.Tables {
				labels = append(labels, l)
			}
			slices.Sort(labels)
			for _, l := range labels {
				lk, ours := st.Tables[l].Laktory, st.Tables[l].Ours
				compared++
				if diff := compareTables(lk, ours); diff != "" {
					t.Errorf("%s, table %s: %s", where, l, diff)
				}
			}
		}
	}
	t.Logf("%d table states compared with Laktory 0.13.1's (Polars backend)", compared)
}

// snapshot copies a sink's table, folder or file at src to dst and
// returns dst ("" when src does not exist).
func snapshot(t *testing.T, src, dst string) string {
	t.Helper()
	fi, err := os.Stat(src)
	switch {
	case err != nil:
		return ""
	case fi.IsDir():
		err = os.CopyFS(dst, os.DirFS(src))
	default:
		var b []byte
		if b, err = os.ReadFile(src); err == nil {
			if err = os.MkdirAll(filepath.Dir(dst), 0o755); err == nil {
				err = os.WriteFile(dst, b, 0o644)
			}
		}
	}
	if err != nil {
		t.Fatal(err)
	}
	return dst
}

// expectationWarning is a line of Laktory's expectation warnings
// (DataQualityExpectation.raise_or_warn), in our output as in Laktory's.
var expectationWarning = regexp.MustCompile(`Expectation '[^']*' for node '[^']*' FAILED \| [^\n]*`)

// compareWarnings says how the expectation warnings of our run's output
// differ from Laktory's ("" when not): the same messages, each as often
// (a message repeated in our summary counted once).
func compareWarnings(laktory []string, ours string) string {
	lk := slices.Sorted(slices.Values(laktory))
	lk = slices.Compact(lk)
	got := slices.Sorted(slices.Values(expectationWarning.FindAllString(ours, -1)))
	got = slices.Compact(got)
	if !slices.Equal(lk, got) {
		return fmt.Sprintf("expectation warnings\n Laktory %q\n ours    %q", lk, got)
	}
	return ""
}

// compareTables says how ours differs from Laktory's table ("" when not).
func compareTables(lk, ours tableState) string {
	switch {
	case lk.Exists != ours.Exists:
		return fmt.Sprintf("exists in Laktory's run: %v, in ours: %v", lk.Exists, ours.Exists)
	case lk.Kind != ours.Kind:
		return fmt.Sprintf("written as %q by Laktory, as %q by us", lk.Kind, ours.Kind)
	case !slices.Equal(lk.Layout, ours.Layout):
		return fmt.Sprintf("files in the folders %q by Laktory, in %q by us (\"\": the sink's path is the file)", lk.Layout, ours.Layout)
	case !slices.Equal(lk.FileSchemas, ours.FileSchemas):
		return fmt.Sprintf("Parquet files' columns\n Laktory %v\n ours    %v", lk.FileSchemas, ours.FileSchemas)
	case !slices.Equal(lk.FirstLines, ours.FirstLines):
		return fmt.Sprintf("first lines\n Laktory %q\n ours    %q", lk.FirstLines, ours.FirstLines)
	case !slices.Equal(lk.Lines, ours.Lines):
		return fmt.Sprintf("lines\n Laktory %q\n ours    %q", lk.Lines, ours.Lines)
	case !reflect.DeepEqual(lk.Schema, ours.Schema):
		return fmt.Sprintf("schema\n Laktory %v\n ours    %v", lk.Schema, ours.Schema)
	case !slices.Equal(lk.Partitions, ours.Partitions):
		return fmt.Sprintf("partition columns: Laktory %v, ours %v", lk.Partitions, ours.Partitions)
	case !reflect.DeepEqual(lk.Writers, ours.Writers):
		return fmt.Sprintf("rows per writer: Laktory %v, ours %v", lk.Writers, ours.Writers)
	case !slices.Equal(lk.Rows, ours.Rows):
		return fmt.Sprintf("rows\n Laktory %v\n ours    %v", lk.Rows, ours.Rows)
	case !reflect.DeepEqual(lk.History, ours.History):
		return fmt.Sprintf("rows per writer after each commit\n Laktory %v\n ours    %v", lk.History, ours.History)
	}
	return ""
}
