package polarsread

import (
	"fmt"
	"regexp"
)

// Dtype is a polars dtype a CSV column is read as.
type Dtype string

// The dtypes polars' CSV inference gives.
const (
	String      Dtype = "String"
	Int64       Dtype = "Int64"
	Float64     Dtype = "Float64"
	Boolean     Dtype = "Boolean"
	Date        Dtype = "Date"
	Datetime    Dtype = "Datetime(time_unit='us', time_zone=None)"
	DatetimeUTC Dtype = "Datetime(time_unit='us', time_zone='UTC')"
)

// polars-io's inference regexes (csv/read/utils.rs, 1.32.0).
var (
	floatRe        = regexp.MustCompile(`^[-+]?((\d*\.\d+)([eE][-+]?\d+)?|inf|NaN|(\d+)[eE][-+]?\d+|\d+\.)$`)
	floatCommaRe   = regexp.MustCompile(`^[-+]?((\d*,\d+)([eE][-+]?\d+)?|inf|NaN|(\d+)[eE][-+]?\d+|\d+,)$`)
	integerRe      = regexp.MustCompile(`^-?(\d+)$`)
	booleanRe      = regexp.MustCompile(`^(?i)(true|false)$`)
	isoDateRe      = regexp.MustCompile(`^\d{4}-\d{1,2}-\d{1,2}$`)
	isoDatetimeRe  = regexp.MustCompile(`^\d{4}-\d{1,2}-\d{1,2}[T ]\d{1,2}:\d{2}(:\d{2}(\.\d{1,9})?)?$`)
	isoDatetimeZRe = regexp.MustCompile(`^\d{4}-\d{1,2}-\d{1,2}[T ]\d{1,2}:\d{2}(:\d{2}(\.\d{1,9})?)?(Z|[+-]\d{2}:?\d{2})$`)
	// What else polars' date pattern inference may read as a date, a
	// datetime or a time (day first, slashes or dots, times of day):
	// refused rather than read as text.
	otherDateRe = regexp.MustCompile(`^(\d{1,4}[-/.]\d{1,2}[-/.]\d{1,4}([ T].*)?|\d{1,2}:\d{2}(:\d{2}(\.\d+)?)?)$`)
)

// inferField is polars' infer_field_schema for one (unquoted) value.
func inferField(s string, o CSVOptions) (Dtype, error) {
	switch {
	case booleanRe.MatchString(s):
		return Boolean, nil
	case !o.DecimalComma && floatRe.MatchString(s) || o.DecimalComma && floatCommaRe.MatchString(s):
		return Float64, nil
	case integerRe.MatchString(s):
		return Int64, nil
	case !o.TryParseDates:
		return String, nil
	case isoDateRe.MatchString(s):
		return Date, nil
	case isoDatetimeRe.MatchString(s):
		return Datetime, nil
	case isoDatetimeZRe.MatchString(s):
		return DatetimeUTC, nil
	case otherDateRe.MatchString(s):
		return "", fmt.Errorf("%w: try_parse_dates: polars may read %q as a date, a datetime or a time; local runs parse ISO dates (2024-01-31) and datetimes (2024-01-31 08:30[:00[.123]] with an optional Z or offset) only (read the column as text, without try_parse_dates, and convert it in a transformer step)", ErrUnsupported, s)
	}
	return String, nil
}

// merge is polars' finish_infer_field_schema: one dtype is it, Int64 and
// Float64 are Float64, anything else (or nothing) is String.
func merge(seen map[Dtype]bool) Dtype {
	switch {
	case len(seen) == 1:
		for d := range seen {
			return d
		}
	case len(seen) == 2 && seen[Int64] && seen[Float64]:
		return Float64
	}
	return String
}

// inferColumns returns the dtypes of a file's columns from the samples
// of all its files (a folder's files are inferred together), null values
// skipped.
func inferColumns(ncols int, names []string, files []*csvFile, o CSVOptions) ([]Dtype, error) {
	out := make([]Dtype, ncols)
	for c := range out {
		out[c] = String
	}
	if !o.InferSchema || o.InferSchemaLength == 0 {
		return out, nil
	}
	for c := range out {
		seen := map[Dtype]bool{}
		for _, f := range files {
			for _, row := range f.sample {
				if c >= len(row) || row[c] == nil || isNull(*row[c], names[c], o) {
					continue
				}
				if *row[c] == "" { // a quoted empty field
					seen[String] = true
					continue
				}
				d, err := inferField(*row[c], o)
				if err != nil {
					return nil, fmt.Errorf("column '%s': %w", names[c], err)
				}
				seen[d] = true
			}
		}
		out[c] = merge(seen)
	}
	return out, nil
}

func isNull(v, column string, o CSVOptions) bool {
	if o.ColumnNulls != nil {
		n, ok := o.ColumnNulls[column]
		return ok && n == v
	}
	for _, n := range o.NullValues {
		if n == v {
			return true
		}
	}
	return false
}
