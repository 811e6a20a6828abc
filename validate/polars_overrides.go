package validate

import (
	"fmt"
	"maps"
	"math"
	"slices"
	"strconv"
	"strings"
)

// PolarsSchemaOverridesError is the TypeError polars 1.32.0's reader
// raises for a source's reader_kwargs schema_overrides as YAML gives it
// (Laktory 0.13.1 passes reader_kwargs as they are: pl.scan_csv(path,
// schema_overrides=...), scan_ndjson, read_json), or "" when polars reads
// the files as without it (null, or an empty mapping). YAML has no
// polars dtype: a dtype's name ("Int32", "int64"), Laktory's schema
// spelling ({columns: {...}}) or any other value is a TypeError, raised
// before a file is read. scan_csv converts each entry in the mapping's
// order and names the first one it fails on; the order of YAML's mapping
// is not kept, so the entry named is the first by name.
func PolarsSchemaOverridesError(format string, v any) string {
	m, isMap := v.(map[string]any)
	if v == nil || isMap && len(m) == 0 {
		return ""
	}
	if strings.ToUpper(format) == "CSV" {
		switch x := v.(type) {
		case map[string]any:
			e := x[slices.Sorted(maps.Keys(x))[0]]
			switch e.(type) {
			case map[string]any, []any:
				return fmt.Sprintf("unhashable type: '%s'", pyType(e))
			}
			return fmt.Sprintf("cannot parse input of type '%s' into Polars data type (given: %s)", pyType(e), pyRepr(e))
		case []any, string:
			return fmt.Sprintf("expected 'schema_overrides' dict, found '%s'", pyType(v))
		}
		return "`schema_overrides` should be of type list or dict"
	}
	if isMap {
		e := m[slices.Sorted(maps.Keys(m))[0]]
		return fmt.Sprintf("argument 'schema_overrides': '%s' is not a Polars data type", pyType(e))
	}
	return fmt.Sprintf("argument 'schema_overrides': '%s' object cannot be converted to 'PyDict'", pyType(v))
}

// pyType is the Python class name of a YAML value as Laktory loads it.
func pyType(v any) string {
	switch v.(type) {
	case nil:
		return "NoneType"
	case string:
		return "str"
	case bool:
		return "bool"
	case int64, int:
		return "int"
	case float64:
		return "float"
	case []any:
		return "list"
	case map[string]any:
		return "dict"
	}
	return fmt.Sprintf("%T", v)
}

// pyRepr is Python's repr() of a scalar YAML value.
func pyRepr(v any) string {
	switch x := v.(type) {
	case nil:
		return "None"
	case bool:
		if x {
			return "True"
		}
		return "False"
	case int64:
		return strconv.FormatInt(x, 10)
	case int:
		return strconv.Itoa(x)
	case float64:
		return pyFloat(x)
	case string:
		q := "'"
		if strings.Contains(x, "'") && !strings.Contains(x, `"`) {
			q = `"`
		}
		var b strings.Builder
		b.WriteString(q)
		for _, r := range x {
			switch {
			case r == '\\':
				b.WriteString(`\\`)
			case string(r) == q:
				b.WriteString(`\` + q)
			case r == '\n':
				b.WriteString(`\n`)
			case r == '\r':
				b.WriteString(`\r`)
			case r == '\t':
				b.WriteString(`\t`)
			case r < 0x20 || r == 0x7f:
				fmt.Fprintf(&b, `\x%02x`, r)
			default:
				b.WriteRune(r)
			}
		}
		b.WriteString(q)
		return b.String()
	}
	return fmt.Sprint(v)
}

// pyFloat is Python's repr() of a float: the shortest digits, positional
// from 1e-4 up to 1e16, else with an exponent of at least two digits.
func pyFloat(f float64) string {
	switch {
	case math.IsNaN(f):
		return "nan"
	case math.IsInf(f, 1):
		return "inf"
	case math.IsInf(f, -1):
		return "-inf"
	}
	e := strconv.FormatFloat(f, 'e', -1, 64)
	mant, exp, _ := strings.Cut(e, "e")
	n, _ := strconv.Atoi(exp)
	if n >= -4 && n < 16 {
		s := strconv.FormatFloat(f, 'f', -1, 64)
		if !strings.ContainsAny(s, ".") {
			s += ".0"
		}
		return s
	}
	sign := "+"
	if n < 0 {
		sign, n = "-", -n
	}
	return fmt.Sprintf("%se%s%02d", mant, sign, n)
}
