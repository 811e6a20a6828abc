// Package polarsread reads the file sources of POLARS pipelines as
// Laktory 0.13.1's Polars backend reads them: FileDataSource._read_polars
// calls pl.scan_csv(path, **kwargs) (scan_ndjson, read_json,
// scan_parquet per format) with the source's has_header, infer_schema and
// reader_kwargs, and polars 1.32.0 decides the columns' names and types.
//
// It returns the DuckDB query reading the files (the local engine runs it);
// it does not import DuckDB. For CSV, a scan in Go tokenizes each file as
// polars does (quotes, comment lines, blank lines, ragged rows), infers the
// columns' types from the first infer_schema_length rows with polars'
// rules (Int64, Float64, Boolean, String; dates and datetimes only with
// try_parse_dates), and names them as polars does (column_1, ... without a
// header, name_duplicated_0 for a repeated one); DuckDB's read_csv then
// reads every field as text and the query casts each column to its type,
// failing where polars fails ("could not parse `x` as dtype `i64` ...").
//
// What polars does that local runs cannot is ErrUnsupported (a run-time
// error naming it); which reader_kwargs are applied is Applied, which
// validate checks before any run (LK199).
package polarsread

import (
	"errors"
	"fmt"
	"maps"
	"slices"
	"strings"

	"github.com/laktory/workbench/validate"
)

// ErrUnsupported: the files are read by polars in a way local runs do not
// reproduce; nothing is read.
var ErrUnsupported = errors.New("not read locally as polars reads it")

// ErrPolars: polars fails reading the files (the message is polars');
// Laktory's run fails the same way.
var ErrPolars = errors.New("polars fails")

// Applied are the reader_kwargs local runs apply per format, as polars
// 1.32.0 does: validate's list, which refuses the others (LK199).
var Applied = validate.PolarsAppliedKwargs

// CSVOptions are pl.scan_csv's arguments as Laktory passes them.
type CSVOptions struct {
	HasHeader           bool
	InferSchema         bool
	Separator           byte
	Quote               byte // 0: no quoting
	CommentPrefix       string
	SkipRows            int
	SkipRowsAfterHeader int
	NullValues          []string
	ColumnNulls         map[string]string // null_values as a mapping: column -> value
	TryParseDates       bool
	NewColumns          []string
	Lossy               bool // encoding utf8-lossy
	MissingUTF8IsEmpty  bool
	TruncateRagged      bool
	RaiseIfEmpty        bool
	DecimalComma        bool
	// Rows are the row options scan_csv shares with the other readers
	// (n_rows, infer_schema_length, the row index).
	Rows
}

// CSV returns scan_csv's options for a source's has_header and
// infer_schema (nil: Laktory's defaults, true and false) and its
// reader_kwargs, which override them as Laktory's kwargs dict does. A
// value of the wrong type or an argument not applied is an error (validate
// refuses them first).
func CSV(hasHeader, inferSchema *bool, kw map[string]any) (CSVOptions, error) {
	o := CSVOptions{HasHeader: true, Separator: ',', Quote: '"', Rows: Rows{NRows: -1, InferSchemaLength: 100}, RaiseIfEmpty: true}
	if hasHeader != nil {
		o.HasHeader = *hasHeader
	}
	if inferSchema != nil {
		o.InferSchema = *inferSchema
	}
	var err error
	for _, k := range slices.Sorted(maps.Keys(kw)) {
		v := kw[k]
		switch k {
		case "has_header":
			err = setBool(&o.HasHeader, k, v)
		case "infer_schema":
			err = setBool(&o.InferSchema, k, v)
		case "try_parse_dates":
			err = setBool(&o.TryParseDates, k, v)
		case "missing_utf8_is_empty_string":
			err = setBool(&o.MissingUTF8IsEmpty, k, v)
		case "truncate_ragged_lines":
			err = setBool(&o.TruncateRagged, k, v)
		case "raise_if_empty":
			err = setBool(&o.RaiseIfEmpty, k, v)
		case "decimal_comma":
			err = setBool(&o.DecimalComma, k, v)
		case "cache", "low_memory", "rechunk", "glob":
			var b bool
			err = setBool(&b, k, v)
		case "separator":
			o.Separator, err = oneByte(k, v)
			if err == nil && o.Separator == 0 {
				err = fmt.Errorf("%w: separator must not be empty", ErrPolars)
			}
		case "quote_char":
			if v == nil {
				o.Quote = 0
			} else {
				o.Quote, err = oneByte(k, v)
			}
		case "comment_prefix":
			switch s, ok := v.(string); {
			case v == nil:
				o.CommentPrefix = ""
			case !ok:
				err = typeErr(k, "a string", v)
			case len(s) > 5:
				err = fmt.Errorf("%w: comment_prefix cannot be longer than 5 characters (got %q)", ErrPolars, s)
			default:
				o.CommentPrefix = s
			}
		case "skip_rows":
			err = setInt(&o.SkipRows, k, v)
		case "skip_rows_after_header":
			err = setInt(&o.SkipRowsAfterHeader, k, v)
		case "n_rows", "infer_schema_length", "row_index_name", "row_index_offset":
			err = o.Rows.set(k, v)
		case "encoding":
			switch v {
			case "utf8":
			case "utf8-lossy":
				o.Lossy = true
			default:
				err = fmt.Errorf("%w: encoding %v: polars' scan_csv reads 'utf8' and 'utf8-lossy' (pl.read_csv decodes other encodings, which Laktory does not call)", ErrUnsupported, v)
			}
		case "null_values":
			switch x := v.(type) {
			case nil:
			case string:
				o.NullValues = []string{x}
			case []any:
				for _, e := range x {
					s, ok := e.(string)
					if !ok {
						return o, typeErr(k, "a string, a list of strings or a mapping of column to string", v)
					}
					o.NullValues = append(o.NullValues, s)
				}
			case map[string]any:
				o.ColumnNulls = map[string]string{}
				for c, e := range x {
					s, ok := e.(string)
					if !ok {
						return o, typeErr(k, "a string, a list of strings or a mapping of column to string", v)
					}
					o.ColumnNulls[c] = s
				}
			default:
				err = typeErr(k, "a string, a list of strings or a mapping of column to string", v)
			}
		case "schema_overrides":
			err = schemaOverrides("CSV", v)
		case "new_columns":
			x, ok := v.([]any)
			if !ok && v != nil {
				err = typeErr(k, "a list of strings", v)
			}
			for _, e := range x {
				s, ok := e.(string)
				if !ok {
					return o, typeErr(k, "a list of strings", v)
				}
				o.NewColumns = append(o.NewColumns, s)
			}
		default:
			err = fmt.Errorf("%w: reader_kwargs %s of scan_csv is not applied by local runs", ErrUnsupported, k)
		}
		if err != nil {
			return o, err
		}
	}
	return o, nil
}

// Rows are the row options of the JSON, NDJSON and Parquet readers.
type Rows struct {
	InferSchemaLength int // -1: every row; JSON and NDJSON only
	NRows             int // -1: all
	RowIndexName      string
	RowIndexOffset    int64
}

// RowOptions returns a JSON, NDJSON, Parquet or IPC source's row options
// from its reader_kwargs.
func RowOptions(format string, kw map[string]any) (Rows, error) {
	o := Rows{InferSchemaLength: 100, NRows: -1}
	format = strings.ToUpper(format)
	for _, k := range slices.Sorted(maps.Keys(kw)) {
		v := kw[k]
		if !slices.Contains(Applied[format], k) {
			return o, fmt.Errorf("%w: reader_kwargs %s of a %s source is not applied by local runs", ErrUnsupported, k, format)
		}
		if k == "schema_overrides" {
			if err := schemaOverrides(format, v); err != nil {
				return o, err
			}
			continue
		}
		if err := o.set(k, v); err != nil {
			return o, err
		}
	}
	return o, nil
}

// schemaOverrides is polars' TypeError for a schema_overrides YAML gives
// (any but null and {}, which change nothing read): YAML cannot spell a
// polars dtype.
func schemaOverrides(format string, v any) error {
	if msg := validate.PolarsSchemaOverridesError(format, v); msg != "" {
		return fmt.Errorf("%w: TypeError: %s", ErrPolars, msg)
	}
	return nil
}

// set applies the row option k (n_rows, infer_schema_length,
// row_index_name, row_index_offset; None is every row, or no index);
// other keys are the caller's.
func (r *Rows) set(k string, v any) error {
	switch k {
	case "infer_schema_length":
		r.InferSchemaLength = -1
		if v != nil {
			return setInt(&r.InferSchemaLength, k, v)
		}
	case "n_rows":
		r.NRows = -1
		if v != nil {
			return setInt(&r.NRows, k, v)
		}
	case "row_index_name":
		if v != nil {
			s, ok := v.(string)
			if !ok {
				return typeErr(k, "a string", v)
			}
			r.RowIndexName = s
		}
	case "row_index_offset":
		var n int
		err := setInt(&n, k, v)
		r.RowIndexOffset = int64(n)
		return err
	}
	return nil
}

func typeErr(k, want string, v any) error {
	return fmt.Errorf("%w: reader_kwargs %s must be %s (got %v)", ErrPolars, k, want, v)
}

func setBool(dst *bool, k string, v any) error {
	b, ok := v.(bool)
	if !ok {
		return typeErr(k, "true or false", v)
	}
	*dst = b
	return nil
}

func setInt(dst *int, k string, v any) error {
	switch n := v.(type) {
	case int64:
		if n < 0 {
			return typeErr(k, "an integer of 0 or more", v)
		}
		*dst = int(n)
	case int:
		if n < 0 {
			return typeErr(k, "an integer of 0 or more", v)
		}
		*dst = n
	default:
		return typeErr(k, "an integer", v)
	}
	return nil
}

func oneByte(k string, v any) (byte, error) {
	s, ok := v.(string)
	if !ok {
		return 0, typeErr(k, "a string", v)
	}
	if len(s) != 1 {
		return 0, fmt.Errorf("%w: %s=\"%s\" should be a single byte character, but is %d bytes long", ErrPolars, k, s, len(s))
	}
	return s[0], nil
}

// WrapRows applies a JSON, NDJSON, Parquet or IPC source's row options
// to the query reading its rows: the row index first (UInt32, from
// row_index_offset), then n_rows.
func WrapRows(q string, o Rows) string {
	if o.RowIndexName != "" {
		q = fmt.Sprintf("SELECT CAST(row_number() OVER () - 1 + %d AS UINTEGER) AS %s, * FROM (%s)", o.RowIndexOffset, ident(o.RowIndexName), q)
	}
	if o.NRows >= 0 {
		q = fmt.Sprintf("SELECT * FROM (%s) LIMIT %d", q, o.NRows)
	}
	return q
}
