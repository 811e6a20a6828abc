package validate

import (
	"errors"
	"fmt"
	"io/fs"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strings"

	"github.com/laktory/workbench/workspace"
)

// polarsReader is a polars reader function and the keyword arguments it
// takes.
type polarsReader struct {
	fn     string
	kwargs []string
}

// PolarsAppliedKwargs are the reader_kwargs local runs apply to a POLARS
// file source, per format, as polars does (runner/polarsread reads them);
// polars takes more, which local runs refuse (LK199) rather than ignore.
// Those that change nothing in what is read (rechunk, low_memory, cache,
// ...) are applied by ignoring them.
var PolarsAppliedKwargs = map[string][]string{
	"CSV": {"has_header", "separator", "comment_prefix", "quote_char", "skip_rows", "null_values",
		"missing_utf8_is_empty_string", "cache", "infer_schema", "infer_schema_length", "n_rows",
		"encoding", "low_memory", "rechunk", "skip_rows_after_header", "row_index_name",
		"row_index_offset", "try_parse_dates", "new_columns", "raise_if_empty",
		"truncate_ragged_lines", "decimal_comma", "glob", "schema_overrides"},
	"JSON":    {"infer_schema_length", "schema_overrides"},
	"JSONL":   {"infer_schema_length", "n_rows", "low_memory", "rechunk", "row_index_name", "row_index_offset", "schema_overrides"},
	"NDJSON":  {"infer_schema_length", "n_rows", "low_memory", "rechunk", "row_index_name", "row_index_offset", "schema_overrides"},
	"PARQUET": {"n_rows", "row_index_name", "row_index_offset", "parallel", "use_statistics", "rechunk", "low_memory", "cache", "glob"},
	"IPC":     {"n_rows", "cache", "rechunk", "row_index_name", "row_index_offset", "memory_map"},
}

// polarsKwargKinds are the values local runs apply for a keyword (what
// polars takes beyond them, such as a schema of dtypes, is refused).
var polarsKwargKinds = map[string]string{
	"has_header": "bool", "infer_schema": "bool", "try_parse_dates": "bool", "missing_utf8_is_empty_string": "bool",
	"truncate_ragged_lines": "bool", "raise_if_empty": "bool", "decimal_comma": "bool", "cache": "bool",
	"low_memory": "bool", "rechunk": "bool", "glob": "bool", "use_statistics": "bool",
	"separator": "byte", "quote_char": "byte?", "comment_prefix": "string?", "row_index_name": "string?",
	"skip_rows": "int", "skip_rows_after_header": "int", "row_index_offset": "int", "n_rows": "int?",
	"infer_schema_length": "int?", "null_values": "nulls", "new_columns": "strings", "encoding": "encoding",
	"parallel": "parallel", "memory_map": "bool",
}

// sparkSpellings are Spark's reader options people pass to Polars, with
// the keyword polars names the same thing.
var sparkSpellings = map[string]string{
	"sep": "separator", "delimiter": "separator", "header": "has_header", "inferschema": "infer_schema",
	"nullvalue": "null_values", "quote": "quote_char", "comment": "comment_prefix", "encoding": "encoding",
}

// polarsReaderKwargs checks a POLARS file source's reader_kwargs against
// the reader Laktory 0.13.1 calls with them (FileDataSource._read_polars:
// pl.scan_csv(path, **reader_kwargs), ...): an argument the reader does
// not take is the TypeError Laktory's run fails with (LK198); one it takes
// that local runs do not apply is refused (LK199), never ignored.
func (c *checker) polarsReaderKwargs(n *workspace.Node, s *workspace.Source) {
	if s.Kind != workspace.SourceFile || s.Backend != "POLARS" || len(s.ReaderKwargs) == 0 {
		return
	}
	format := strings.ToUpper(s.Format)
	rd, ok := polarsReaders[format]
	if !ok {
		return
	}
	at := s.At("reader_kwargs")
	for _, k := range slices.Sorted(maps.Keys(s.ReaderKwargs)) {
		if !slices.Contains(rd.kwargs, k) {
			hint := "polars' " + rd.fn + " takes " + strings.Join(rd.kwargs, ", ")
			if p, ok := sparkSpellings[strings.ToLower(k)]; ok && slices.Contains(rd.kwargs, p) {
				hint = fmt.Sprintf("`%s` is Spark's spelling: polars' %s calls it `%s`", k, rd.fn, p)
			}
			c.add(at, Error, CodePolarsReaderArg, fmt.Sprintf("%s() got an unexpected keyword argument '%s'", rd.fn, k), hint)
			continue
		}
		if k == "schema_overrides" {
			// Applied when polars applies it (null, {}: nothing changes);
			// anything else YAML can give is polars' TypeError.
			if msg := PolarsSchemaOverridesError(format, s.ReaderKwargs[k]); msg != "" {
				c.add(at, Error, CodePolarsReaderType,
					fmt.Sprintf("TypeError: %s (reader_kwargs `schema_overrides` of source #%d of node '%s': polars' %s takes polars dtypes, which YAML cannot spell; Laktory's run fails)", msg, s.Index+1, n.Name, rd.fn),
					"remove schema_overrides and cast the columns in a step (SELECT CAST(a AS INT) ...), or read the columns as strings (infer_schema: false)")
			}
			continue
		}
		if !slices.Contains(PolarsAppliedKwargs[format], k) || !appliedValue(k, s.ReaderKwargs[k]) {
			applied := "none of polars' arguments"
			if a := PolarsAppliedKwargs[format]; len(a) > 0 {
				applied = strings.Join(a, ", ")
			}
			what := "polars' " + rd.fn + " applies it, local runs do not"
			if slices.Contains(PolarsAppliedKwargs[format], k) {
				what = fmt.Sprintf("local runs do not apply the value %v (%s)", s.ReaderKwargs[k], kindText[polarsKwargKinds[k]])
			}
			c.add(at, Error, CodePolarsReaderLocal,
				fmt.Sprintf("reader_kwargs `%s` of source #%d of node '%s': %s (they apply %s)", k, s.Index+1, n.Name, what, applied),
				"remove it, or run the pipeline with Laktory")
		}
	}
}

var kindText = map[string]string{
	"bool": "true or false", "byte": "a one-byte string", "byte?": "a one-byte string or null",
	"string?": "a string or null", "int": "an integer of 0 or more", "int?": "an integer of 0 or more, or null",
	"nulls": "a string, a list of strings or a mapping of column to string", "strings": "a list of strings",
	"encoding": "utf8 or utf8-lossy", "parallel": "auto, columns, row_groups, prefiltered or none",
}

// appliedValue reports whether local runs apply an applied keyword's
// value (polarsKwargKinds).
func appliedValue(k string, v any) bool {
	isStr := func(x any) bool { _, ok := x.(string); return ok }
	switch polarsKwargKinds[k] {
	case "bool":
		_, ok := v.(bool)
		return ok
	case "byte":
		s, ok := v.(string)
		return ok && len(s) == 1
	case "byte?":
		s, ok := v.(string)
		return v == nil || ok && len(s) == 1
	case "string?":
		s, ok := v.(string)
		return v == nil || ok && (k != "comment_prefix" || len(s) <= 5)
	case "int", "int?":
		n, ok := v.(int64)
		return ok && n >= 0 || v == nil && polarsKwargKinds[k] == "int?"
	case "encoding":
		return v == "utf8" || v == "utf8-lossy"
	case "parallel":
		return slices.Contains([]any{"auto", "columns", "row_groups", "prefiltered", "none"}, v)
	case "strings", "nulls":
		switch x := v.(type) {
		case string:
			return polarsKwargKinds[k] == "nulls"
		case []any:
			for _, e := range x {
				if !isStr(e) {
					return false
				}
			}
			return true
		case map[string]any:
			for _, e := range x {
				if !isStr(e) {
					return false
				}
			}
			return polarsKwargKinds[k] == "nulls"
		case nil:
			return true
		}
		return false
	}
	return true
}

// PolarsAppliedWriterKwargs are the writer_kwargs local runs apply to a
// POLARS file sink, per format, as polars' writer does (those that change
// nothing in what is read back, such as a Parquet compression, are
// applied by ignoring them); the rest polars takes is refused (LK187).
var PolarsAppliedWriterKwargs = map[string][]string{
	"CSV":     {"separator", "include_header", "null_value", "quote_char"},
	"DELTA":   {"delta_write_options"},
	"PARQUET": {"compression", "compression_level", "statistics", "row_group_size", "data_page_size", "partition_by"},
}

// PolarsDeltaWriteOptions are the delta_write_options (deltalake's
// write_deltalake arguments) local runs apply: partition_by, and
// schema_mode merge (new columns added, as local runs always do).
var PolarsDeltaWriteOptions = []string{"partition_by", "schema_mode"}

// sparkWriterSpellings are Spark's writer options people pass to polars'
// writers, with what polars calls them.
var sparkWriterSpellings = map[string]string{
	"sep": "separator", "delimiter": "separator", "header": "include_header", "nullvalue": "null_value",
	"quote": "quote_char", "partitionby": "delta_write_options: {partition_by: [...]}",
	"partition_by": "delta_write_options: {partition_by: [...]}", "mergeschema": "delta_write_options: {schema_mode: merge}",
}

// polarsWriterKwargs checks a POLARS file sink's writer_kwargs against the
// DataFrame method Laktory 0.13.1 writes it with
// (FileDataSink._write_polars: df.write_csv(path, **writer_kwargs),
// df.write_delta(path, mode=mode, **writer_kwargs), ...): an argument the
// method does not take, or `mode` for DELTA, is the TypeError Laktory's
// run fails with (LK186); one polars applies that local runs do not is
// refused (LK187). Where Laktory's Polars writer does other than what the
// YAML says, local runs do what it means and say so (LK188):
// writer_methods are ignored (as Laktory does), a single file's missing
// folder is created (Laktory fails, FileNotFoundError; polars writes a
// sink without partition_by as one file at its path, whatever its
// extension), a partitioned Parquet sink's missing folder too (Laktory
// writes an empty file there first), a partitioned DELTA table that does
// not exist yet is created partitioned (Laktory creates it unpartitioned,
// then fails appending partitioned), and an ERROR DELTA sink's first run
// writes the table (Laktory creates it empty, then fails finding it).
func (c *checker) polarsWriterKwargs(n *workspace.Node, sk *workspace.Sink) {
	if sk.Kind != workspace.SinkFile || sk.Backend != "POLARS" {
		return
	}
	format := strings.ToUpper(sk.EffectiveFormat())
	if len(sk.WriterMethods) > 0 {
		c.add(sk.At("writer_methods"), Warning, CodePolarsWriterFails,
			fmt.Sprintf("Laktory 0.13.1's Polars writer ignores writer_methods (sink #%d of node '%s'); local runs ignore them too", sk.Index+1, n.Name),
			"pass polars' arguments in writer_kwargs (a DELTA sink's partitions: delta_write_options: {partition_by: [...]})")
	}
	if format == "DELTA" && sk.Mode == "ERROR" {
		c.add(sk.At("mode"), Warning, CodePolarsWriterFails,
			fmt.Sprintf("Laktory 0.13.1 never writes sink #%d of node '%s' (mode ERROR): it creates the empty table first (FileDataSink.create), then write_delta(mode='ERROR') fails on it (DeltaError: A table already exists); local runs create the table with the first run's rows and fail on later runs", sk.Index+1, n.Name),
			"use mode APPEND or OVERWRITE for the sink to run with Laktory")
	}
	parts := len(sk.PartitionBy()) > 0
	missing := func(p string) bool { _, err := os.Stat(p); return errors.Is(err, fs.ErrNotExist) }
	switch {
	case sk.ResolvedPath == "":
	case format == "DELTA" && parts && missing(filepath.Join(sk.ResolvedPath, "_delta_log")):
		c.add(sk.At("writer_kwargs"), Warning, CodePolarsWriterFails,
			fmt.Sprintf("Laktory 0.13.1 fails on the first run of sink #%d of node '%s': it creates the table unpartitioned (FileDataSink.create), then write_delta with delta_write_options partition_by fails on it (DeltaError: Specified table partitioning does not match table partitioning); local runs create the table partitioned", sk.Index+1, n.Name),
			"create the table partitioned before running the pipeline with Laktory")
	case format == "PARQUET" && parts && missing(sk.ResolvedPath):
		c.add(sk.At("path"), Warning, CodePolarsWriterFails,
			fmt.Sprintf("the folder of sink #%d of node '%s' does not exist: Laktory 0.13.1 fails there (FileDataSink.create writes an empty Parquet file at the path, then write_parquet with partition_by fails: Not a directory), local runs create it", sk.Index+1, n.Name),
			"create the folder before running the pipeline with Laktory")
	case format != "DELTA" && !parts && missing(filepath.Dir(sk.ResolvedPath)):
		// polars writes one file at the path, whatever its extension.
		c.add(sk.At("path"), Warning, CodePolarsWriterFails,
			fmt.Sprintf("the folder of sink #%d of node '%s' does not exist: Laktory 0.13.1's Polars writer fails there (FileNotFoundError), local runs create it", sk.Index+1, n.Name),
			"create the folder before running the pipeline with Laktory")
	}
	wr, ok := polarsWriters[format]
	if !ok || len(sk.WriterKwargs) == 0 {
		return
	}
	at := sk.At("writer_kwargs")
	for _, k := range slices.Sorted(maps.Keys(sk.WriterKwargs)) {
		v := sk.WriterKwargs[k]
		if format == "DELTA" && k == "mode" {
			c.add(at, Error, CodePolarsWriterArg, "polars.dataframe.frame."+wr.fn+"() got multiple values for keyword argument 'mode'",
				"remove `mode` from writer_kwargs: the sink's `mode` is the one Laktory passes")
			continue
		}
		if !slices.Contains(wr.kwargs, k) {
			hint := "polars' " + wr.fn + " takes " + strings.Join(wr.kwargs, ", ")
			if len(wr.kwargs) == 0 {
				hint = "polars' " + wr.fn + " takes no keyword argument: remove writer_kwargs"
			}
			if p, ok := sparkWriterSpellings[strings.ToLower(k)]; ok && (slices.Contains(wr.kwargs, p) || strings.HasPrefix(p, "delta_write_options") && format == "DELTA") {
				hint = fmt.Sprintf("`%s` is Spark's spelling: polars' %s calls it `%s`", k, wr.fn, p)
			}
			c.add(at, Error, CodePolarsWriterArg, fmt.Sprintf("%s() got an unexpected keyword argument '%s'", wr.fn, k), hint)
			continue
		}
		applied := PolarsAppliedWriterKwargs[format]
		ok := slices.Contains(applied, k) && writerValue(k, v)
		what := fmt.Sprintf("polars' %s applies it, local runs do not", wr.fn)
		if k == "delta_write_options" {
			if bad := deltaWriteOptionsNotApplied(v); bad != "" {
				ok, what = false, "local runs do not apply its "+bad
			}
		} else if slices.Contains(applied, k) && !ok {
			what = fmt.Sprintf("local runs do not apply the value %v", v)
		}
		if !ok {
			list := "none"
			if len(applied) > 0 {
				list = strings.Join(applied, ", ")
			}
			c.add(at, Error, CodePolarsWriterLocal,
				fmt.Sprintf("writer_kwargs `%s` of sink #%d of node '%s': %s (they apply %s)", k, sk.Index+1, n.Name, what, list),
				"remove it, or run the pipeline with Laktory")
		}
	}
}

// writerValue reports whether local runs apply a writer keyword's value.
func writerValue(k string, v any) bool {
	switch k {
	case "separator", "quote_char":
		s, ok := v.(string)
		return ok && len(s) == 1
	case "include_header", "statistics":
		_, ok := v.(bool)
		return ok
	case "null_value":
		_, ok := v.(string)
		return ok || v == nil
	case "partition_by":
		return stringOrList(v)
	}
	return true
}

func stringOrList(v any) bool {
	switch x := v.(type) {
	case string:
		return true
	case []any:
		for _, e := range x {
			if _, ok := e.(string); !ok {
				return false
			}
		}
		return len(x) > 0
	}
	return false
}

// deltaWriteOptionsNotApplied names what of a DELTA sink's
// delta_write_options local runs do not apply ("" when they apply all).
func deltaWriteOptionsNotApplied(v any) string {
	m, ok := v.(map[string]any)
	if !ok {
		return fmt.Sprintf("value %v (a mapping of write_deltalake's arguments)", v)
	}
	var bad []string
	for k, x := range m {
		switch {
		case !slices.Contains(PolarsDeltaWriteOptions, k):
			bad = append(bad, "`"+k+"`")
		case k == "partition_by" && !stringOrList(x):
			bad = append(bad, fmt.Sprintf("partition_by %v (a column or a list of columns)", x))
		case k == "schema_mode" && x != "merge":
			bad = append(bad, fmt.Sprintf("schema_mode %v (local runs apply merge)", x))
		}
	}
	sort.Strings(bad)
	return strings.Join(bad, ", ")
}

// polarsNDJSONPanics are the dtypes polars 1.32.0's NDJSON reader has no
// deserializer for: a POLARS JSONL or NDJSON source whose `schema`
// declares one as a column's dtype panics in pl.scan_ndjson ("unexpected dtype
// when deserializing ndjson", a PanicException), so Laktory's run fails
// (recorded by scripts/polars/ndjson_schema_cases.py).
// polarsSchemaRefusals are the dtypes of a JSON lines source's schema on
// which Laktory 0.13.1's read fails before any value is read, with
// polars' exception (scripts/polars/readers_corpus.py, heldout/schema.json).
var polarsSchemaRefusals = map[string]string{
	"Enum":    "TypeError: Enum.__init__() missing 1 required positional argument: 'categories'",
	"UInt128": "InvalidOperationError: constructing a Series with data type Unknown(Any) from AnyValues is not supported",
}

var polarsNDJSONPanics = []string{"Int8", "Int16", "UInt8", "UInt16", "Duration"}

// polarsJSONRefusals are the dtypes of a JSON (not JSON lines) source's
// schema on which pl.read_json(schema=...) fails whatever the data
// (scripts/polars/readers_corpus.py, heldout/jsonschema.json): Enum with
// its TypeError, and those polars 1.32.0's JSON deserializer panics on.
var polarsJSONRefusals = map[string]string{
	"Enum":    polarsSchemaRefusals["Enum"],
	"UInt128": "PanicException: not yet implemented", "Int128": "PanicException: not yet implemented",
	"Decimal": "PanicException: not yet implemented", "Categorical": "PanicException: not yet implemented",
	"Binary": "PanicException: not yet implemented", "Object": "PanicException: not yet implemented",
}

// polarsSourceSchema refuses a POLARS JSON lines source whose declared
// schema polars cannot read: Laktory's run fails there, ours would read it.
func (c *checker) polarsSourceSchema(n *workspace.Node, s *workspace.Source) {
	if s.Kind != workspace.SourceFile || s.Backend != "POLARS" || s.Schema == nil {
		return
	}
	switch strings.ToUpper(s.Format) {
	case "JSONL", "NDJSON":
	case "JSON":
		for _, col := range s.Schema.Columns {
			if col.DType == nil {
				continue
			}
			if msg, ok := polarsJSONRefusals[LaktoryDType(col.DType.Name)]; ok {
				c.add(col.DType.Pos, Error, CodePolarsSchemaDType,
					fmt.Sprintf("column '%s' of the schema of source #%d of node '%s' is a %s: polars 1.32.0 fails reading JSON into it (%s), so Laktory's run fails",
						col.Name, s.Index+1, n.Name, LaktoryDType(col.DType.Name), msg),
					"declare the column as String (or Float64) and convert it in a step")
			}
		}
		return
	default:
		return
	}
	for _, col := range s.Schema.Columns {
		if col.DType != nil {
			msg, ok := polarsSchemaRefusals[LaktoryDType(col.DType.Name)]
			switch {
			case ok:
				c.add(col.DType.Pos, Error, CodePolarsSchemaDType,
					fmt.Sprintf("column '%s' of the schema of source #%d of node '%s' is a %s: polars 1.32.0 fails reading it (%s), so Laktory's run fails",
						col.Name, s.Index+1, n.Name, LaktoryDType(col.DType.Name), msg),
					"declare the column as String and convert it in a step")
			case LaktoryDType(col.DType.Name) == "Decimal":
				c.add(col.DType.Pos, Warning, CodePolarsNDJSONValues,
					fmt.Sprintf("column '%s' of the schema of source #%d of node '%s' is a Decimal: polars 1.32.0 fails on every value of it that is not null (unexpected value while building Series of type Decimal(Some(38), Some(0)); found value of type ...), so Laktory's run fails unless the column is always null",
						col.Name, s.Index+1, n.Name),
					"declare the column as Float64 or String and cast it in a step (SELECT CAST(a AS DECIMAL(10, 2)) ...)")
			}
		}
		if d := ndjsonPanicDType(col.DType); d != nil {
			c.add(d.Pos, Error, CodePolarsNDJSONDType,
				fmt.Sprintf("column '%s' of the schema of source #%d of node '%s' is read as %s: polars 1.32.0 panics reading JSON lines into it (unexpected dtype when deserializing ndjson), so Laktory's run fails",
					col.Name, s.Index+1, n.Name, LaktoryDType(d.Name)),
				"declare the column as Int32, Int64, UInt32, UInt64 or String and cast it in a step (SELECT CAST(a AS SMALLINT) ...)")
		}
	}
}

func ndjsonPanicDType(t *workspace.DType) *workspace.DType {
	// Only a top-level column: polars reads a List or Struct of these
	// (held out: List(Int8), Struct(Int16) read).
	if t != nil && slices.Contains(polarsNDJSONPanics, LaktoryDType(t.Name)) {
		return t
	}
	return nil
}
