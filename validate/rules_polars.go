package validate

import (
	"fmt"
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
		"truncate_ragged_lines", "decimal_comma", "glob"},
	"JSON":    {"infer_schema_length"},
	"JSONL":   {"infer_schema_length", "n_rows", "low_memory", "rechunk", "row_index_name", "row_index_offset"},
	"NDJSON":  {"infer_schema_length", "n_rows", "low_memory", "rechunk", "row_index_name", "row_index_offset"},
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
	keys := make([]string, 0, len(s.ReaderKwargs))
	for k := range s.ReaderKwargs {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	at := s.At("reader_kwargs")
	for _, k := range keys {
		if !slices.Contains(rd.kwargs, k) {
			hint := "polars' " + rd.fn + " takes " + strings.Join(rd.kwargs, ", ")
			if p, ok := sparkSpellings[strings.ToLower(k)]; ok && slices.Contains(rd.kwargs, p) {
				hint = fmt.Sprintf("`%s` is Spark's spelling: polars' %s calls it `%s`", k, rd.fn, p)
			}
			c.add(at, Error, CodePolarsReaderArg, fmt.Sprintf("%s() got an unexpected keyword argument '%s'", rd.fn, k), hint)
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
