package validate

import (
	"bytes"
	"encoding/json"
	"go/format"
	"os"
	"os/exec"
	"path/filepath"
	"testing"

	"github.com/laktory/workbench/workspace"
	"github.com/laktory/workbench/workspace/workspacetest"
)

// TestPolarsReaderKwargs: a POLARS file source's reader_kwargs go to
// polars' reader as keyword arguments (pl.scan_csv(path, **kwargs)): one
// it does not take is its TypeError (LK198, Spark's spellings named), one
// it takes that local runs do not apply is refused (LK199); PYSPARK
// sources' options are Spark's and not checked here.
func TestPolarsReaderKwargs(t *testing.T) {
	src := func(backend, format, kwargs string) string {
		return "name: pl\ndataframe_backend: " + backend + "\nnodes:\n- name: a\n  sources:\n  - path: data/\n    format: " + format +
			"\n    reader_kwargs: " + kwargs + "\n  sinks:\n  - path: out/\n    format: DELTA\n    mode: APPEND\n"
	}
	tests := []struct {
		name  string
		yaml  string
		wants []W
	}{
		{name: "applied CSV kwargs", yaml: src("POLARS", "CSV", "{separator: ';', null_values: [NA, '-'], skip_rows: 1, quote_char: \"'\"}")},
		{name: "Spark's spellings", yaml: src("POLARS", "CSV", "{delimiter: ';', header: true}"), wants: []W{
			D("pl.yaml", 8, 20, CodePolarsReaderArg, "scan_csv() got an unexpected keyword argument 'delimiter'"),
			D("pl.yaml", 8, 20, CodePolarsReaderArg, "scan_csv() got an unexpected keyword argument 'header'"),
		}},
		{name: "applied CSV kwargs, all of them", yaml: src("POLARS", "CSV", "{has_header: false, infer_schema: true, infer_schema_length: null, try_parse_dates: true, "+
			"null_values: {a: NA}, comment_prefix: '#', encoding: utf8-lossy, skip_rows_after_header: 1, n_rows: 10, new_columns: [x], "+
			"missing_utf8_is_empty_string: true, truncate_ragged_lines: true, raise_if_empty: false, decimal_comma: false, "+
			"row_index_name: i, row_index_offset: 1, low_memory: true, rechunk: false, cache: true, glob: true}")},
		{name: "taken by polars, not applied locally", yaml: src("POLARS", "CSV", "{include_file_paths: f}"), wants: []W{
			D("pl.yaml", 8, 20, CodePolarsReaderLocal, "reader_kwargs `include_file_paths` of source #1 of node 'a': polars' scan_csv applies it, local runs do not"),
		}},
		// schema_overrides from YAML: polars' TypeError unless null or {}.
		{name: "schema_overrides CSV dtype string", yaml: src("POLARS", "CSV", "{schema_overrides: {a: Int32}}"), wants: []W{
			D("pl.yaml", 8, 20, CodePolarsReaderType, "TypeError: cannot parse input of type 'str' into Polars data type (given: 'Int32') (reader_kwargs `schema_overrides` of source #1 of node 'a'"),
		}},
		{name: "schema_overrides CSV value kinds", yaml: src("POLARS", "CSV", "{schema_overrides: {a: 1.5e20}}"), wants: []W{
			D("pl.yaml", 8, 20, CodePolarsReaderType, "(given: 1.5e+20)"),
		}},
		{name: "schema_overrides CSV quote", yaml: src("POLARS", "CSV", `{schema_overrides: {a: "it's"}}`), wants: []W{
			D("pl.yaml", 8, 20, CodePolarsReaderType, `(given: "it's")`),
		}},
		{name: "schema_overrides CSV nested", yaml: src("POLARS", "CSV", "{schema_overrides: {columns: {a: Int32}}}"), wants: []W{
			D("pl.yaml", 8, 20, CodePolarsReaderType, "TypeError: unhashable type: 'dict'"),
		}},
		{name: "schema_overrides CSV list", yaml: src("POLARS", "CSV", "{schema_overrides: [Int32]}"), wants: []W{
			D("pl.yaml", 8, 20, CodePolarsReaderType, "TypeError: expected 'schema_overrides' dict, found 'list'"),
		}},
		{name: "schema_overrides CSV bool", yaml: src("POLARS", "CSV", "{schema_overrides: true}"), wants: []W{
			D("pl.yaml", 8, 20, CodePolarsReaderType, "TypeError: `schema_overrides` should be of type list or dict"),
		}},
		{name: "schema_overrides JSONL", yaml: src("POLARS", "JSONL", "{schema_overrides: {a: Float32}}"), wants: []W{
			D("pl.yaml", 8, 20, CodePolarsReaderType, "TypeError: argument 'schema_overrides': 'str' is not a Polars data type (reader_kwargs `schema_overrides` of source #1 of node 'a': polars' scan_ndjson"),
		}},
		{name: "schema_overrides JSON scalar", yaml: src("POLARS", "JSON", "{schema_overrides: Int64}"), wants: []W{
			D("pl.yaml", 8, 20, CodePolarsReaderType, "TypeError: argument 'schema_overrides': 'str' object cannot be converted to 'PyDict'"),
		}},
		{name: "schema_overrides null and empty", yaml: src("POLARS", "CSV", "{schema_overrides: null}")},
		{name: "schema_overrides empty NDJSON", yaml: src("POLARS", "NDJSON", "{schema_overrides: {}}")},
		{name: "schema_overrides PARQUET", yaml: src("POLARS", "PARQUET", "{schema_overrides: {a: Int32}}"), wants: []W{
			D("pl.yaml", 8, 20, CodePolarsReaderArg, "scan_parquet() got an unexpected keyword argument 'schema_overrides'"),
		}},
		{name: "values local runs do not apply", yaml: src("POLARS", "CSV", "{encoding: latin1, skip_rows: -1, separator: ';;', has_header: 'yes'}"), wants: []W{
			D("pl.yaml", 8, 20, CodePolarsReaderLocal, "reader_kwargs `encoding` of source #1 of node 'a': local runs do not apply the value latin1 (utf8 or utf8-lossy)"),
			D("pl.yaml", 8, 20, CodePolarsReaderLocal, "`has_header` of source #1 of node 'a': local runs do not apply the value yes (true or false)"),
			D("pl.yaml", 8, 20, CodePolarsReaderLocal, "`separator` of source #1 of node 'a': local runs do not apply the value ;; (a one-byte string)"),
			D("pl.yaml", 8, 20, CodePolarsReaderLocal, "`skip_rows` of source #1 of node 'a': local runs do not apply the value -1"),
		}},
		{name: "JSONL", yaml: src("POLARS", "JSONL", "{infer_schema_length: 10, n_rows: 5, ignore_errors: true, multiLine: true}"), wants: []W{
			D("pl.yaml", 8, 20, CodePolarsReaderLocal, "`ignore_errors`"),
			D("pl.yaml", 8, 20, CodePolarsReaderArg, "scan_ndjson() got an unexpected keyword argument 'multiLine'"),
		}},
		{name: "IPC is read, its kwargs applied", yaml: src("POLARS", "IPC", "{n_rows: 5, row_index_name: i, memory_map: true, rechunk: true}")},
		{name: "IPC kwargs not applied", yaml: src("POLARS", "IPC", "{hive_partitioning: true}"), wants: []W{
			D("pl.yaml", 8, 20, CodePolarsReaderLocal, "reader_kwargs `hive_partitioning` of source #1 of node 'a': polars' scan_ipc applies it, local runs do not"),
		}},
		{name: "PYSPARK options are Spark's", yaml: src("PYSPARK", "CSV", "{delimiter: ';', header: true}")},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s := workspacetest.Load(t, map[string]string{"pl.yaml": tt.yaml}, workspace.Options{})
			var ds []Diagnostic
			for _, d := range Check(s, Options{}) {
				if d.Code == CodePolarsReaderArg || d.Code == CodePolarsReaderLocal || d.Code == CodePolarsReaderType || d.Code == CodeLocalFormat {
					ds = append(ds, d)
				}
			}
			workspacetest.Expect(t, s, ds, tt.wants)
		})
	}
}

// TestPolarsReadersCurrent: polars_readers_gen.go is what
// scripts/polars/readers.py prints for the installed polars.
func TestPolarsReadersCurrent(t *testing.T) {
	py := interopPython(t)
	out, err := exec.Command(py, "../scripts/polars/readers.py").Output()
	if err != nil {
		t.Fatalf("readers.py: %v", err)
	}
	want, err := format.Source(out)
	if err != nil {
		t.Fatal(err)
	}
	got, err := os.ReadFile("polars_readers_gen.go")
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(got, want) {
		t.Errorf("polars_readers_gen.go is not current: python scripts/polars/readers.py | gofmt > validate/polars_readers_gen.go")
	}
}

// TestPolarsWriterKwargs: a POLARS file sink's writer_kwargs go to the
// DataFrame method Laktory writes it with (df.write_csv(path, **kwargs),
// df.write_delta(path, mode=mode, **kwargs)): one it does not take, or
// `mode`, is its TypeError (LK186, Spark's spellings named); one polars
// applies that local runs do not is refused (LK187); writer_methods,
// which Laktory's Polars writer ignores, a single file's missing folder,
// which it does not create (a path without an extension is a file too),
// a partitioned Parquet sink's missing folder and a partitioned DELTA
// table not created yet, which it creates unpartitioned, and an ERROR
// DELTA sink, which it creates empty and then fails on, are warned about
// (LK188).
func TestPolarsWriterKwargs(t *testing.T) {
	sink := func(backend, path, format, extra string) string {
		return "name: pl\ndataframe_backend: " + backend + "\nnodes:\n- name: a\n  sources:\n  - path: data/\n    format: JSONL\n" +
			"  sinks:\n  - path: " + path + "\n    format: " + format + "\n" + extra
	}
	tests := []struct {
		name  string
		yaml  string
		wants []W
	}{
		{name: "applied", yaml: sink("POLARS", "out/d", "DELTA", "    mode: APPEND\n    writer_kwargs: {delta_write_options: {schema_mode: merge}}\n")},
		{name: "partitioned DELTA table not created yet", yaml: sink("POLARS", "out/d", "DELTA", "    mode: APPEND\n    writer_kwargs: {delta_write_options: {partition_by: [b], schema_mode: merge}}\n"), wants: []W{
			D("pl.yaml", 12, 20, CodePolarsWriterFails, "Laktory 0.13.1 fails on the first run of sink #1 of node 'a': it creates the table unpartitioned"),
		}},
		{name: "partitioned PARQUET folder missing", yaml: sink("POLARS", "out/p/", "PARQUET", "    writer_kwargs: {partition_by: b}\n"), wants: []W{
			D("pl.yaml", 9, 11, CodePolarsWriterFails, "FileDataSink.create writes an empty Parquet file at the path, then write_parquet with partition_by fails"),
		}},
		{name: "a path without an extension is one file", yaml: sink("POLARS", "no/such/o", "CSV", ""), wants: []W{
			D("pl.yaml", 9, 11, CodePolarsWriterFails, "Laktory 0.13.1's Polars writer fails there (FileNotFoundError)"),
		}},
		{name: "applied CSV", yaml: sink("POLARS", "data/o.csv", "CSV", "    writer_kwargs: {separator: ';', include_header: false, null_value: NA, quote_char: \"'\"}\n")},
		{name: "applied PARQUET", yaml: sink("POLARS", "data/", "PARQUET", "    writer_kwargs: {compression: zstd, partition_by: b, statistics: true}\n")},
		{name: "Spark's spellings", yaml: sink("POLARS", "out/d", "DELTA", "    mode: APPEND\n    writer_kwargs: {partitionBy: [b], mergeSchema: true}\n"), wants: []W{
			D("pl.yaml", 12, 20, CodePolarsWriterArg, "DataFrame.write_delta() got an unexpected keyword argument 'mergeSchema'"),
			D("pl.yaml", 12, 20, CodePolarsWriterArg, "DataFrame.write_delta() got an unexpected keyword argument 'partitionBy'"),
		}},
		{name: "CSV delimiter", yaml: sink("POLARS", "data/o.csv", "CSV", "    writer_kwargs: {delimiter: ';'}\n"), wants: []W{
			D("pl.yaml", 11, 20, CodePolarsWriterArg, "DataFrame.write_csv() got an unexpected keyword argument 'delimiter'"),
		}},
		{name: "mode twice", yaml: sink("POLARS", "out/d", "DELTA", "    mode: APPEND\n    writer_kwargs: {mode: overwrite}\n"), wants: []W{
			D("pl.yaml", 12, 20, CodePolarsWriterArg, "write_delta() got multiple values for keyword argument 'mode'"),
		}},
		{name: "not applied", yaml: sink("POLARS", "out/d", "DELTA", "    mode: APPEND\n    writer_kwargs: {overwrite_schema: true, delta_write_options: {schema_mode: overwrite, description: x}}\n"), wants: []W{
			D("pl.yaml", 12, 20, CodePolarsWriterLocal, "writer_kwargs `delta_write_options` of sink #1 of node 'a': local runs do not apply its `description`, schema_mode overwrite"),
			D("pl.yaml", 12, 20, CodePolarsWriterLocal, "writer_kwargs `overwrite_schema` of sink #1 of node 'a': polars' DataFrame.write_delta applies it, local runs do not"),
		}},
		{name: "writer_methods ignored", yaml: sink("POLARS", "out/d", "DELTA", "    mode: APPEND\n    writer_methods: [{name: partitionBy, args: [b]}]\n"), wants: []W{
			D("pl.yaml", 12, 21, CodePolarsWriterFails, "Laktory 0.13.1's Polars writer ignores writer_methods"),
		}},
		{name: "missing folder", yaml: sink("POLARS", "no/such/o.csv", "CSV", ""), wants: []W{
			D("pl.yaml", 9, 11, CodePolarsWriterFails, "does not exist: Laktory 0.13.1's Polars writer fails there (FileNotFoundError), local runs create it"),
		}},
		{name: "mode ERROR", yaml: sink("POLARS", "out/d", "DELTA", "    mode: ERROR\n"), wants: []W{
			D("pl.yaml", 11, 11, CodePolarsWriterFails, "Laktory 0.13.1 never writes sink #1 of node 'a' (mode ERROR): it creates the empty table first"),
		}},
		{name: "PYSPARK writer options are Spark's", yaml: sink("PYSPARK", "out/d", "DELTA", "    mode: APPEND\n    writer_kwargs: {partitionBy: [b]}\n")},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s := workspacetest.Load(t, map[string]string{"pl.yaml": tt.yaml, "data/x.jsonl": "{}\n"}, workspace.Options{})
			var ds []Diagnostic
			for _, d := range Check(s, Options{}) {
				if d.Code == CodePolarsWriterArg || d.Code == CodePolarsWriterLocal || d.Code == CodePolarsWriterFails {
					ds = append(ds, d)
				}
			}
			workspacetest.Expect(t, s, ds, tt.wants)
		})
	}
}

// TestPolarsNDJSONSchema: a POLARS JSON lines source whose schema declares
// a dtype polars 1.32.0's NDJSON reader panics on is LK222, and one it reads
// is not, as Laktory 0.13.1 ran each case (testdata/polars_ndjson_schema*.json,
// recorded by scripts/polars/ndjson_schema_cases.py; the held-out file was
// committed before the rule).
func TestPolarsNDJSONSchema(t *testing.T) {
	for _, part := range []string{"polars_ndjson_schema", "polars_ndjson_schema_heldout"} {
		var spec struct {
			Cases []struct {
				Name    string          `json:"name"`
				Format  string          `json:"format"`
				Schema  json.RawMessage `json:"schema"`
				Content string          `json:"content"`
			} `json:"cases"`
		}
		var results map[string]struct {
			Result  string `json:"result"`
			Message string `json:"message"`
		}
		for path, v := range map[string]any{part + ".json": &spec, part + ".expected.json": &results} {
			raw, err := os.ReadFile(filepath.Join("testdata", path))
			if err != nil {
				t.Fatal(err)
			}
			if err := json.Unmarshal(raw, v); err != nil {
				t.Fatalf("%s: %v", path, err)
			}
		}
		var panics, reads, other int
		for _, c := range spec.Cases {
			r, ok := results[c.Name]
			if !ok {
				t.Fatalf("%s: %s has no result (run scripts/polars/ndjson_schema_cases.py)", part, c.Name)
			}
			yaml := "name: pl\ndataframe_backend: POLARS\nnodes:\n- name: a\n  sources:\n  - path: data/\n    format: " + c.Format +
				"\n    schema: " + string(c.Schema) + "\n  sinks:\n  - path: out/\n    format: DELTA\n    mode: APPEND\n"
			s := workspacetest.Load(t, map[string]string{"pl.yaml": yaml}, workspace.Options{})
			got := false
			for _, d := range Check(s, Options{}) {
				if d.Code == CodePolarsNDJSONDType {
					got = true
				}
			}
			panicked := r.Result == "PanicException" && r.Message == "unexpected dtype when deserializing ndjson"
			switch {
			case panicked:
				panics++
			case r.Result == "ok":
				reads++
			default:
				other++
			}
			if got && !panicked && c.Content == "" {
				// validate reads no file: an empty one, which polars reads
				// without deserializing a value, is refused too.
				t.Logf("%s %s: LK222 where Laktory reads an empty file", part, c.Name)
				continue
			}
			if got != panicked {
				t.Errorf("%s %s: LK222 %v, Laktory: %s %s", part, c.Name, got, r.Result, r.Message)
			}
		}
		t.Logf("%s: %d cases, %d polars panics (LK222), %d read, %d fail otherwise", part, len(spec.Cases), panics, reads, other)
	}
}

// TestPolarsSchemaRefusals: a POLARS JSON lines source whose schema
// declares Enum or UInt128 fails in Laktory whatever the data (LK223, with
// polars' exception); a Decimal fails on every value that is not null
// (LK224, a warning); other dtypes and other formats are not concerned.
func TestPolarsSchemaRefusals(t *testing.T) {
	tests := []struct {
		format, dtype, backend string
		code                   string
	}{
		{"JSONL", "Enum", "POLARS", CodePolarsSchemaDType},
		{"NDJSON", "UInt128", "POLARS", CodePolarsSchemaDType},
		{"JSONL", "Decimal", "POLARS", CodePolarsNDJSONValues},
		{"JSONL", "Int64", "POLARS", ""},
		{"JSON", "Enum", "POLARS", CodePolarsSchemaDType},
		{"JSON", "Decimal", "POLARS", CodePolarsSchemaDType},
		{"JSON", "Categorical", "POLARS", CodePolarsSchemaDType},
		{"JSON", "Int8", "POLARS", ""},
		{"JSONL", "Decimal", "PYSPARK", ""},
		{"CSV", "UInt128", "POLARS", ""},
	}
	for _, tc := range tests {
		yaml := "name: pl\ndataframe_backend: " + tc.backend + "\nnodes:\n- name: a\n  sources:\n  - path: data/\n    format: " + tc.format +
			"\n    schema: {columns: [{name: a, dtype: " + tc.dtype + "}]}\n  sinks:\n  - path: out/\n    format: DELTA\n    mode: APPEND\n"
		got := ""
		for _, d := range Check(workspacetest.Load(t, map[string]string{"pl.yaml": yaml}, workspace.Options{}), Options{}) {
			if d.Code == CodePolarsSchemaDType || d.Code == CodePolarsNDJSONValues {
				got = d.Code
				if d.Code == CodePolarsSchemaDType && tc.dtype == "Enum" && !bytes.Contains([]byte(d.Message), []byte("TypeError: Enum.__init__() missing 1 required positional argument: 'categories'")) {
					t.Errorf("%s %s: %s", tc.format, tc.dtype, d.Message)
				}
			}
		}
		if got != tc.code {
			t.Errorf("%s %s on %s: %q, want %q", tc.format, tc.dtype, tc.backend, got, tc.code)
		}
	}
}
