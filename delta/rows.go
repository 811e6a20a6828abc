package delta

import (
	"encoding/base64"
	"encoding/json"
	"fmt"
	"math"
	"math/big"
	"sort"
	"strings"
	"time"

	duckdb "github.com/duckdb/duckdb-go/v2"
)

// This file turns values scanned from DuckDB scan results (database/sql
// with the duckdb driver) into JSON-ready and display values, for the CLI
// and the TUI preview.

// JSONValue converts a value scanned from a DuckDB result column into a
// value encoding/json writes faithfully. dbType is the column's
// sql.ColumnType.DatabaseTypeName() ("" inside nested values).
//
//   - TIMESTAMPTZ: RFC 3339 in UTC ("2021-09-08T11:11:11.123456Z");
//     TIMESTAMP (no zone): the same without an offset; DATE: "2021-09-08"
//   - DECIMAL: a string with every digit of the scale ("12.500");
//     HUGEINT and other big integers: strings too
//   - BLOB: base64 (standard encoding); NaN and infinities: strings
//   - STRUCT: an object; MAP: an object when its keys are strings, else a
//     list of {"key","value"}; LIST: an array
func JSONValue(v any, dbType string) any {
	switch x := v.(type) {
	case nil:
		return nil
	case time.Time:
		return formatTime(x, dbType)
	case duckdb.Decimal:
		return formatDecimal(x)
	case *big.Int:
		return x.String()
	case float64:
		return jsonFloat(x)
	case float32:
		return jsonFloat(float64(x))
	case []byte:
		return base64.StdEncoding.EncodeToString(x)
	case duckdb.UUID:
		return formatUUID(x)
	case duckdb.Interval:
		return x
	case map[string]any:
		out := make(map[string]any, len(x))
		for k, e := range x {
			out[k] = JSONValue(e, "")
		}
		return out
	case duckdb.Map:
		return jsonMap(x)
	case map[any]any:
		return jsonMap(x)
	case duckdb.OrderedMap:
		return jsonOrderedMap(x.Keys(), x.Values())
	case *duckdb.OrderedMap:
		return jsonOrderedMap(x.Keys(), x.Values())
	case []any:
		out := make([]any, len(x))
		for i, e := range x {
			out[i] = JSONValue(e, "")
		}
		return out
	}
	return v
}

// TextValue renders a scanned value for display in a table or CSV:
// NULL is "NULL" (or "" with emptyNull), times and decimals as in
// JSONValue, BLOBs as \x.. escapes, nested values as compact JSON.
func TextValue(v any, dbType string, emptyNull bool) string {
	switch x := v.(type) {
	case nil:
		if emptyNull {
			return ""
		}
		return "NULL"
	case string:
		return x
	case []byte:
		var b strings.Builder
		for _, c := range x {
			if c >= 0x20 && c < 0x7f && c != '\\' {
				b.WriteByte(c)
			} else {
				fmt.Fprintf(&b, "\\x%02x", c)
			}
		}
		return b.String()
	case map[string]any, duckdb.Map, map[any]any, duckdb.OrderedMap, *duckdb.OrderedMap, []any:
		b, err := json.Marshal(JSONValue(x, dbType))
		if err != nil {
			return fmt.Sprint(x)
		}
		return string(b)
	}
	j := JSONValue(v, dbType)
	if s, ok := j.(string); ok {
		return s
	}
	return fmt.Sprint(j)
}

func formatTime(t time.Time, dbType string) string {
	up := strings.ToUpper(dbType)
	switch {
	case up == "DATE":
		return t.Format("2006-01-02")
	case up == "TIME":
		return t.Format("15:04:05.999999")
	case strings.HasPrefix(up, "TIMESTAMP") && !strings.Contains(up, "TZ") && !strings.Contains(up, "TIME ZONE"):
		return t.UTC().Format("2006-01-02T15:04:05.999999999")
	}
	return t.UTC().Format(time.RFC3339Nano)
}

func formatDecimal(d duckdb.Decimal) string {
	if d.Value == nil {
		return "0"
	}
	s := new(big.Int).Abs(d.Value).String()
	scale := int(d.Scale)
	if scale > 0 {
		if len(s) <= scale {
			s = strings.Repeat("0", scale-len(s)+1) + s
		}
		s = s[:len(s)-scale] + "." + s[len(s)-scale:]
	}
	if d.Value.Sign() < 0 {
		s = "-" + s
	}
	return s
}

func jsonFloat(f float64) any {
	switch {
	case math.IsNaN(f):
		return "NaN"
	case math.IsInf(f, 1):
		return "Infinity"
	case math.IsInf(f, -1):
		return "-Infinity"
	}
	return f
}

func formatUUID(u duckdb.UUID) string {
	h := fmt.Sprintf("%x", u[:])
	return h[:8] + "-" + h[8:12] + "-" + h[12:16] + "-" + h[16:20] + "-" + h[20:]
}

// mapEntry is a map entry with a non-string key.
type mapEntry struct {
	Key   any `json:"key"`
	Value any `json:"value"`
}

// orderedObject is a JSON object that keeps its keys in order.
type orderedObject struct {
	keys   []string
	values []any
}

func (o orderedObject) MarshalJSON() ([]byte, error) {
	var b strings.Builder
	b.WriteByte('{')
	for i, k := range o.keys {
		if i > 0 {
			b.WriteByte(',')
		}
		kb, _ := json.Marshal(k)
		vb, err := json.Marshal(o.values[i])
		if err != nil {
			return nil, err
		}
		b.Write(kb)
		b.WriteByte(':')
		b.Write(vb)
	}
	b.WriteByte('}')
	return []byte(b.String()), nil
}

func jsonOrderedMap(keys, values []any) any {
	obj := orderedObject{keys: make([]string, 0, len(keys)), values: make([]any, 0, len(keys))}
	entries := make([]mapEntry, 0, len(keys))
	allStrings := true
	for i, k := range keys {
		v := JSONValue(values[i], "")
		if ks, ok := k.(string); ok && allStrings {
			obj.keys = append(obj.keys, ks)
			obj.values = append(obj.values, v)
		} else {
			allStrings = false
		}
		entries = append(entries, mapEntry{JSONValue(k, ""), v})
	}
	if allStrings {
		return obj
	}
	return entries
}

func jsonMap(m duckdb.Map) any {
	allStrings := true
	for k := range m {
		if _, ok := k.(string); !ok {
			allStrings = false
			break
		}
	}
	if allStrings {
		out := make(map[string]any, len(m))
		for k, v := range m {
			out[k.(string)] = JSONValue(v, "")
		}
		return out
	}
	out := make([]mapEntry, 0, len(m))
	for k, v := range m {
		out = append(out, mapEntry{JSONValue(k, ""), JSONValue(v, "")})
	}
	sort.Slice(out, func(i, j int) bool { return fmt.Sprint(out[i].Key) < fmt.Sprint(out[j].Key) })
	return out
}
