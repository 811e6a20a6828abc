package workspace

import (
	"fmt"
	"slices"
	"strings"
)

// File formats as Laktory 0.13.1 checks them (FileDataSource.validate_format
// and validate_options, FileDataSink._validate_format): in its code, not in
// its schema, and case-sensitively, so `format: csv` is not `format: CSV`.
//
// A source's format is checked at load with the backend the source itself
// declares (its node's or pipeline's is not known to it yet), PYSPARK by
// default: a format PySpark does not list is passed through to Spark as
// written, with a warning. A format written in another case than Laktory's
// is kept: Laktory reads it with the backend's reader of that name (it
// lower-cases the name) but applies none of its own options, which it keys
// by the upper-case name:
//
//   - `has_header`, `infer_schema`, `schema` and `schema_location` written
//     with it are refused at load (FileDataSource.validate_options);
//   - PySpark reads a `csv` without Laktory's header and inferSchema: no
//     header row (columns _c0, _c1, ...), every column a string;
//   - Polars reads a `csv` with scan_csv's defaults: a header row, types
//     inferred;
//   - a streaming `delta` source is read with Auto Loader
//     (cloudFiles.format delta), which does not read Delta tables.
//
// A sink's format is checked when it writes, with its backend: Polars
// refuses one it does not list (so any other case), PySpark warns and
// writes with Spark's writer of that name; a MERGE needs `DELTA` written so.

// formatCaps are Laktory 0.13.1's FORMAT_CAPABILITIES: the options of a
// backend's reader of a format that Laktory applies.
var formatCaps = map[string]map[string][]string{
	"PYSPARK": {
		"AVRO": {"infer_schema_stream", "schema_definition"}, "BINARYFILE": {},
		"CSV": {"has_header", "infer_schema", "infer_schema_stream", "schema_definition"}, "DELTA": {"schema_definition"},
		"EXCEL": {"has_header", "infer_schema_stream", "schema_definition"}, "JSON": {"infer_schema_stream", "schema_definition"},
		"JSONL": {"infer_schema_stream", "schema_definition"}, "NDJSON": {"infer_schema_stream", "schema_definition"},
		"ORC": {"schema_definition"}, "PARQUET": {"infer_schema_stream", "schema_definition"}, "TEXT": {},
		"XML": {"infer_schema", "infer_schema_stream"},
	},
	"POLARS": {
		"AVRO": {}, "CSV": {"has_header", "infer_schema", "schema_definition"}, "DELTA": {}, "EXCEL": {}, "IPC": {},
		"JSON": {"schema_definition"}, "JSONL": {"schema_definition"}, "NDJSON": {"schema_definition"},
		"PARQUET": {"schema_definition"}, "PYARROW": {},
	},
}

// sparkSinkFormats are FileDataSink's SUPPORTED_FORMATS for PYSPARK.
var sparkSinkFormats = []string{"AVRO", "BINARYFILE", "CSV", "DELTA", "JSON", "JSONL", "NDJSON", "ORC", "PARQUET", "TEXT", "XML"}

// sourceOptionApplies is FileDataSource._is_applicable: whether Laktory
// applies option key (as its field name) to a source of format (as
// written) read by backend.
func sourceOptionApplies(backend, format, key string, asStream bool) bool {
	caps := formatCaps[backend][format]
	switch key {
	case "has_header", "schema_definition":
		return slices.Contains(caps, key)
	case "infer_schema":
		return slices.Contains(caps, key) || asStream && slices.Contains(caps, "infer_schema_stream")
	case "schema_location":
		return asStream && format != "DELTA"
	}
	return false
}

// sourceFormat reads a file source's format: as Laktory normalises
// nothing, Format is the upper-case name when it names a format the
// backend reads (WrittenFormat the text as written when it differs), else
// as written.
func (d *decoder) sourceFormat(o *obj, s *Source, ownBackend string) {
	f := o.required("format")
	s.Format = f
	if f == "" || strings.Contains(f, "${") {
		return
	}
	loadBackend := ownBackend
	if loadBackend == "" {
		loadBackend = "PYSPARK"
	}
	known := sparkFormats
	if s.Backend == "POLARS" {
		known = polarsFormats
	}
	up := strings.ToUpper(f)
	switch {
	case loadBackend == "POLARS" && !slices.Contains(polarsFormats, f):
		o.d.add(o.loc.At("format"), SeverityError, CodeBadEnum,
			fmt.Sprintf("'%s' format is not supported with POLARS. Use one of %s", f, PyList(polarsFormats)), formatHint(f, polarsFormats))
	case slices.Contains(known, f):
	case slices.Contains(known, up):
		s.Format, s.WrittenFormat = up, f
		o.d.add(o.loc.At("format"), SeverityWarning, CodeBadEnum,
			fmt.Sprintf("`format: %s` is not Laktory's %s: Laktory 0.13.1 reads it with the %s reader but applies none of its options (has_header, infer_schema, schema); %s",
				f, up, strings.ToLower(up), lowerSourceEffect(s.Backend, up)),
			fmt.Sprintf("write `format: %s` to read it as Laktory's %s source", up, up))
	case s.Backend == "POLARS":
		// Laktory loads it (PySpark's list at load) and its run fails.
		o.d.add(o.loc.At("format"), SeverityError, CodeBadEnum,
			fmt.Sprintf("Format %s is not supported. (Laktory 0.13.1's POLARS run of `format: %s`)", strings.ToLower(f), f), formatHint(f, polarsFormats))
	default:
		o.badEnum("format", f, sparkFormats, SeverityWarning)
	}
	for _, k := range []struct{ key, field string }{{"has_header", "has_header"}, {"infer_schema", "infer_schema"},
		{"schema", "schema_definition"}, {"schema_definition", "schema_definition"}, {"schema_location", "schema_location"}, {"schema_location_", "schema_location"}} {
		if o.has(k.key) && !sourceOptionApplies(loadBackend, f, k.field, s.AsStream) {
			o.d.add(o.n.keyPos(k.key), SeverityError, CodeUnsupportedValue,
				fmt.Sprintf("Attribute `%s` is not supported for the provider source format / backend / stream", k.field),
				fmt.Sprintf("remove `%s`: Laktory 0.13.1 applies it to %s", k.key, optionFormats(loadBackend, k.field, s.AsStream)))
		}
	}
	if s.WrittenFormat != "" && s.AsStream && up == "DELTA" && s.Backend != "POLARS" {
		o.d.add(o.loc.At("format"), SeverityError, CodeBadEnum,
			fmt.Sprintf("a streaming `format: %s` source is read by Laktory 0.13.1 with Auto Loader (cloudFiles.format %s), which does not read Delta tables", f, f),
			"write `format: DELTA` to stream the Delta table")
	}
}

// lowerSourceEffect says how Laktory reads a file source whose format is
// written in another case than its own.
func lowerSourceEffect(backend, format string) string {
	switch {
	case format == "CSV" && backend == "POLARS":
		return "Polars' scan_csv reads a header row and infers the column types"
	case format == "CSV":
		return "Spark's CSV reader reads no header row (columns _c0, _c1, ...; the header line is a row) and every column as a string"
	}
	return "the files read the same"
}

// optionFormats lists the formats Laktory applies a source option to.
func optionFormats(backend, field string, asStream bool) string {
	var out []string
	for _, f := range sparkFormats {
		if backend == "POLARS" {
			break
		}
		if sourceOptionApplies(backend, f, field, asStream) {
			out = append(out, f)
		}
	}
	if backend == "POLARS" {
		for _, f := range polarsFormats {
			if sourceOptionApplies(backend, f, field, asStream) {
				out = append(out, f)
			}
		}
	}
	if field == "schema_location" {
		return "streaming sources other than DELTA (Auto Loader)"
	}
	if len(out) == 0 {
		return "no format of " + backend
	}
	return strings.Join(out, ", ") + " sources of " + backend + ", as written (upper case)"
}

func formatHint(f string, known []string) string {
	if m := suggest(f, known); m != "" {
		return fmt.Sprintf("write `format: %s`", m)
	}
	return "allowed values: " + strings.Join(known, ", ")
}

// sinkFormat reads a file sink's format, as Laktory's write checks it
// (FileDataSink._validate_format, _validate_mode_polars).
func (d *decoder) sinkFormat(o *obj, s *Sink) {
	f := o.required("format")
	s.Format = f
	if f == "" || strings.Contains(f, "${") {
		return
	}
	up := strings.ToUpper(f)
	if s.Backend == "POLARS" {
		if slices.Contains(polarsFormats, f) {
			return
		}
		if s.Mode != "" {
			// Laktory's write refuses the mode first (validate's LK192 says
			// so): a format other than DELTA as written takes no mode.
			return
		}
		o.d.add(o.loc.At("format"), SeverityError, CodeBadEnum,
			fmt.Sprintf("'%s' format is not supported with POLARS. Use one of %s (Laktory 0.13.1's POLARS write)", f, PyList(polarsFormats)),
			formatHint(f, polarsFormats))
		return
	}
	switch {
	case slices.Contains(sparkSinkFormats, f):
	case slices.Contains(sparkSinkFormats, up):
		s.Format, s.WrittenFormat = up, f
		o.d.add(o.loc.At("format"), SeverityWarning, CodeBadEnum,
			fmt.Sprintf("'%s' is not in Laktory's known PySpark formats %s. Passing it through to Spark as-is.", f, PyList(sparkSinkFormats)),
			fmt.Sprintf("write `format: %s`: Spark writes the same files", up))
		if s.Mode == ModeMerge {
			o.d.add(o.loc.At("format"), SeverityError, CodeBadEnum, "Only 'DELTA' format is supported with 'MERGE' mode. (Laktory 0.13.1 compares the format as written)",
				"write `format: DELTA`")
		}
	default:
		o.badEnum("format", f, sparkSinkFormats, SeverityWarning)
	}
}
