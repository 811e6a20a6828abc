// Package inline types and reads a DATAFRAME source's inline `data` as
// Laktory 0.13.1's DataFrameDataSource does on each backend:
//
//   - POLARS: pl.LazyFrame(data). A mapping of lists builds each column
//     strictly: its first non-null value decides the type (int Int64,
//     float Float64, str String, bool Boolean; a Float64 column takes
//     ints), another value is polars' TypeError, columns of unequal lengths
//     its ShapeError. A list of mappings takes the keys in the order they
//     first appear (a key a row lacks is null) and each column's supertype:
//     int and float Float64, bool and int Int64, String with anything (the
//     value as text).
//   - PYSPARK: spark.createDataFrame(rows), a mapping of lists zipped into
//     rows first (to the shortest column). Each row's fields sorted by
//     name, merged over the rows (a new field appended): int bigint, float
//     double, str string, bool boolean; bigint and double do not merge
//     (CANNOT_MERGE_TYPE), a column of nulls only has no type
//     (CANNOT_DETERMINE_TYPE).
//
// What local runs do not type yet (nested values, dates, a column mixing
// strings with other values on Spark, a polars column of nulls only) is
// ErrUnsupported, named; what Laktory's run fails on is ErrFails with the
// backend's message.
package inline

import (
	"errors"
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"

	"github.com/laktory/workbench/runner/dialect"
	"github.com/laktory/workbench/workspace"
)

var (
	// ErrUnsupported: data local runs do not read yet.
	ErrUnsupported = errors.New("inline data local runs do not read yet")
	// ErrFails: data Laktory's run fails on.
	ErrFails = errors.New("Laktory 0.13.1 fails reading the inline data")
)

// kind is a value's Python type.
type kind int

const (
	kNull kind = iota
	kBool
	kInt
	kFloat
	kStr
)

var polarsNames = map[kind]string{kBool: "Boolean", kInt: "Int64", kFloat: "Float64", kStr: "String"}
var sparkNames = map[kind]string{kBool: "BooleanType", kInt: "LongType", kFloat: "DoubleType", kStr: "StringType"}
var duckTypes = map[kind]string{kBool: "BOOLEAN", kInt: "BIGINT", kFloat: "DOUBLE", kStr: "VARCHAR"}

func kindOf(v any) (kind, error) {
	switch x := v.(type) {
	case nil:
		return kNull, nil
	case bool:
		return kBool, nil
	case int64:
		return kInt, nil
	case float64:
		return kFloat, nil
	case string:
		return kStr, nil
	case workspace.Timestamp:
		return 0, fmt.Errorf("%w: the date or timestamp %s (write it quoted to read it as a string)", ErrUnsupported, string(x))
	case []any:
		return 0, fmt.Errorf("%w: a list value (an array column)", ErrUnsupported)
	case map[string]any:
		return 0, fmt.Errorf("%w: a mapping value (a struct or map column)", ErrUnsupported)
	}
	return 0, fmt.Errorf("%w: a value of type %T", ErrUnsupported, v)
}

// Frame is the data as the backend reads it: its columns (DuckDB types)
// and a query of its rows.
type Frame struct {
	Columns []dialect.Column
	SQL     string
}

// Read types and renders data for backend (POLARS, else PYSPARK).
func Read(data *workspace.InlineData, backend string) (Frame, error) {
	if data == nil {
		return Frame{}, fmt.Errorf("%w: `df` is a Python object", ErrUnsupported)
	}
	if backend == "POLARS" {
		return polars(data)
	}
	return spark(data)
}

// table is the typed data: column names and kinds, rows of values.
type table struct {
	names []string
	kinds []kind
	rows  [][]any
}

func polars(d *workspace.InlineData) (Frame, error) {
	t := table{names: d.Columns}
	if d.ByColumn {
		for i, vals := range d.ColumnValues {
			if len(vals) != len(d.ColumnValues[0]) {
				return Frame{}, fmt.Errorf("%w: ShapeError: could not create a new DataFrame: height of column '%s' (%d) does not match height of column '%s' (%d)",
					ErrFails, d.Columns[i], len(vals), d.Columns[0], len(d.ColumnValues[0]))
			}
			k := kNull
			for _, v := range vals {
				vk, err := kindOf(v)
				if err != nil {
					return Frame{}, err
				}
				switch {
				case vk == kNull || vk == k || k == kFloat && vk == kInt:
				case k == kNull:
					k = vk
				default:
					return Frame{}, fmt.Errorf("%w: TypeError: unexpected value while building Series of type %s; found value of type %s: %s (column '%s')",
						ErrFails, polarsNames[k], polarsNames[vk], pyRepr(v), d.Columns[i])
				}
			}
			t.kinds = append(t.kinds, k)
		}
		if len(d.ColumnValues) > 0 {
			for r := range d.ColumnValues[0] {
				row := make([]any, len(d.Columns))
				for c := range d.Columns {
					row[c] = d.ColumnValues[c][r]
				}
				t.rows = append(t.rows, row)
			}
		}
	} else {
		t.kinds = make([]kind, len(d.Columns))
		for _, r := range d.Rows {
			row := make([]any, len(d.Columns))
			for c, name := range d.Columns {
				row[c] = r[name]
				vk, err := kindOf(r[name])
				if err != nil {
					return Frame{}, err
				}
				t.kinds[c] = polarsSuper(t.kinds[c], vk)
			}
			t.rows = append(t.rows, row)
		}
	}
	for i, k := range t.kinds {
		if k == kNull {
			return Frame{}, fmt.Errorf("%w: column '%s' holds only nulls (polars' Null type)", ErrUnsupported, t.names[i])
		}
	}
	return t.frame()
}

// polarsSuper is the supertype polars infers for a column of rows.
func polarsSuper(a, b kind) kind {
	switch {
	case a == kNull:
		return b
	case b == kNull || a == b:
		return a
	case a == kStr || b == kStr:
		return kStr
	}
	return max(a, b) // bool < int < float
}

func spark(d *workspace.InlineData) (Frame, error) {
	var rows []map[string]any
	var keys [][]string
	if d.ByColumn {
		n := math.MaxInt
		for _, vals := range d.ColumnValues {
			n = min(n, len(vals))
		}
		if len(d.ColumnValues) == 0 {
			n = 0
		}
		for r := 0; r < n; r++ {
			row := map[string]any{}
			for c, name := range d.Columns {
				row[name] = d.ColumnValues[c][r]
			}
			rows = append(rows, row)
			keys = append(keys, d.Columns)
		}
	} else {
		rows, keys = d.Rows, d.RowKeys
	}
	var t table
	for i, r := range rows {
		ks := slices.Clone(keys[i])
		slices.Sort(ks)
		for _, k := range ks {
			vk, err := kindOf(r[k])
			if err != nil {
				return Frame{}, err
			}
			c := slices.Index(t.names, k)
			if c < 0 {
				t.names = append(t.names, k)
				t.kinds = append(t.kinds, vk)
				continue
			}
			prev := t.kinds[c]
			switch {
			case vk == kNull || vk == prev:
			case prev == kNull:
				t.kinds[c] = vk
			case prev == kStr || vk == kStr:
				return Frame{}, fmt.Errorf("%w: column '%s' mixes strings with other values, which Spark's createDataFrame merges into a string column", ErrUnsupported, k)
			default:
				return Frame{}, fmt.Errorf("%w: [CANNOT_MERGE_TYPE] Can not merge type `%s` and `%s`. (column '%s')", ErrFails, sparkNames[prev], sparkNames[vk], k)
			}
		}
	}
	for i, k := range t.kinds {
		if k == kNull {
			return Frame{}, fmt.Errorf("%w: [CANNOT_DETERMINE_TYPE] Some of types cannot be determined after inferring. (column '%s' holds only nulls)", ErrFails, t.names[i])
		}
	}
	for _, r := range rows {
		row := make([]any, len(t.names))
		for c, name := range t.names {
			row[c] = r[name]
		}
		t.rows = append(t.rows, row)
	}
	if len(t.names) == 0 {
		return Frame{}, fmt.Errorf("%w: [CANNOT_INFER_EMPTY_SCHEMA] Can not infer schema from an empty dataset.", ErrFails)
	}
	return t.frame()
}

// frame renders the typed table as a query.
func (t table) frame() (Frame, error) {
	f := Frame{}
	sel := make([]string, len(t.names))
	for i, n := range t.names {
		f.Columns = append(f.Columns, dialect.Column{Name: n, Type: duckTypes[t.kinds[i]]})
		sel[i] = fmt.Sprintf("CAST(NULL AS %s) AS %s", duckTypes[t.kinds[i]], quoteIdent(n))
	}
	if len(t.rows) == 0 {
		f.SQL = "SELECT " + strings.Join(sel, ", ") + " LIMIT 0"
		return f, nil
	}
	var rows []string
	for _, r := range t.rows {
		vals := make([]string, len(r))
		for c, v := range r {
			vals[c] = fmt.Sprintf("CAST(%s AS %s)", literal(v, t.kinds[c]), duckTypes[t.kinds[c]])
		}
		rows = append(rows, "("+strings.Join(vals, ", ")+")")
	}
	cols := make([]string, len(t.names))
	for i, n := range t.names {
		cols[i] = quoteIdent(n)
	}
	f.SQL = fmt.Sprintf("SELECT * FROM (VALUES %s) AS data(%s)", strings.Join(rows, ", "), strings.Join(cols, ", "))
	return f, nil
}

// literal renders a value of a column of kind k (polars' supertypes: a
// bool in an Int64 column is 1, a value in a String column its text).
func literal(v any, k kind) string {
	switch x := v.(type) {
	case nil:
		return "NULL"
	case bool:
		switch k {
		case kInt, kFloat:
			if x {
				return "1"
			}
			return "0"
		case kStr:
			return quoteString(strconv.FormatBool(x))
		}
		return strconv.FormatBool(x)
	case int64:
		if k == kStr {
			return quoteString(strconv.FormatInt(x, 10))
		}
		return strconv.FormatInt(x, 10)
	case float64:
		s := strconv.FormatFloat(x, 'g', -1, 64)
		switch {
		case math.IsInf(x, 1):
			s = "'inf'"
		case math.IsInf(x, -1):
			s = "'-inf'"
		case math.IsNaN(x):
			s = "'nan'"
		case k == kStr:
			s = quoteString(pyFloat(x))
		}
		return s
	case string:
		return quoteString(x)
	}
	return "NULL"
}

// pyFloat is Python's str of a float (2.0, 2.5), as polars casts a float
// to a string.
func pyFloat(x float64) string {
	s := strconv.FormatFloat(x, 'f', -1, 64)
	if !strings.ContainsAny(s, ".eEn") {
		s += ".0"
	}
	return s
}

func pyRepr(v any) string {
	switch x := v.(type) {
	case string:
		return strconv.Quote(x)
	case float64:
		return pyFloat(x)
	case bool:
		if x {
			return "true"
		}
		return "false"
	}
	return fmt.Sprint(v)
}

func quoteIdent(s string) string  { return `"` + strings.ReplaceAll(s, `"`, `""`) + `"` }
func quoteString(s string) string { return "'" + strings.ReplaceAll(s, "'", "''") + "'" }
