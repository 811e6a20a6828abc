package foreach

import (
	"bytes"
	"encoding/json"
	"fmt"
	"iter"
	"strings"
	"unicode/utf8"
)

// Row is one row handed to a writer: a compact JSON object whose members
// are the row's columns, in the column order of the source. Values keep
// their JSON types: numbers are numbers, booleans booleans, NULL is null;
// with the projection of RowJSON, timestamps are RFC 3339 strings, decimals
// are strings (their exact digits) and binary values base64 strings.
//
// A Row given to Writer.Process is only valid until Process returns (the
// engine reuses its buffer for the next row): a writer that keeps rows must
// Clone them. Column lookups scan the object from the start and do not
// allocate for plain (unescaped) names; with duplicate names the first wins.
type Row struct {
	raw []byte
}

// ParseRow checks that b is one JSON object and returns it as a Row (not a
// copy: b must not change while the Row is used). The error wraps ErrRow.
func ParseRow(b []byte) (Row, error) {
	b = trimSpace(b)
	if len(b) == 0 || b[0] != '{' || !json.Valid(b) {
		return Row{}, fmt.Errorf("%w: not a JSON object: %s", ErrRow, snippet(b, 120))
	}
	return Row{raw: b}, nil
}

// JSON returns the row as one JSON object. The slice must not be modified.
func (r Row) JSON() []byte { return r.raw }

// String returns the row's JSON.
func (r Row) String() string { return string(r.raw) }

// Clone returns a copy of the row that stays valid after Process returns.
func (r Row) Clone() Row { return Row{raw: bytes.Clone(r.raw)} }

// Decode unmarshals the row into v (a struct with json tags, a map...).
func (r Row) Decode(v any) error { return json.Unmarshal(r.raw, v) }

// Get returns the raw JSON value of the named column and whether the row
// has it.
func (r Row) Get(name string) (json.RawMessage, bool) {
	var found json.RawMessage
	r.each(func(k, v []byte) bool {
		if keyEqual(k, name) {
			found = v
			return false
		}
		return true
	})
	return found, found != nil
}

// Text returns the value of the named column as text, as it goes into a
// URL: a string unquoted, a number or a boolean as written. A missing
// column, null, an object or an array is an error wrapping ErrRow.
func (r Row) Text(name string) (string, error) {
	v, ok := r.Get(name)
	if !ok {
		return "", fmt.Errorf("%w: no column %q (the row has %s)", ErrRow, name, r.columnList())
	}
	switch v[0] {
	case '"':
		if bytes.IndexByte(v, '\\') < 0 {
			return string(v[1 : len(v)-1]), nil
		}
		var s string
		if err := json.Unmarshal(v, &s); err != nil {
			return "", fmt.Errorf("%w: column %q: %v", ErrRow, name, err)
		}
		return s, nil
	case 'n':
		return "", fmt.Errorf("%w: column %q is null", ErrRow, name)
	case '{', '[':
		return "", fmt.Errorf("%w: column %q is not a scalar: %s", ErrRow, name, snippet(v, 60))
	}
	return string(v), nil
}

// columnList names the row's columns for error messages.
func (r Row) columnList() string {
	var names []string
	for k := range r.Columns() {
		names = append(names, fmt.Sprintf("%q", k))
	}
	if len(names) == 0 {
		return "no columns"
	}
	return "columns " + strings.Join(names, ", ")
}

// Columns iterates over the row's columns in order: name and raw JSON
// value.
func (r Row) Columns() iter.Seq2[string, json.RawMessage] {
	return func(yield func(string, json.RawMessage) bool) {
		r.each(func(k, v []byte) bool { return yield(keyString(k), v) })
	}
}

// each calls fn with each member's raw name (without quotes, still
// escaped) and raw value, in order, until fn returns false. It does not
// allocate; on malformed input it stops.
func (r Row) each(fn func(key, val []byte) bool) {
	b := r.raw
	i := skipSpace(b, 0)
	if i >= len(b) || b[i] != '{' {
		return
	}
	i++
	for {
		i = skipSpace(b, i)
		if i >= len(b) || b[i] != '"' {
			return // '}' or malformed
		}
		kEnd := skipString(b, i)
		if kEnd > len(b) || kEnd-1 <= i {
			return
		}
		key := b[i+1 : kEnd-1]
		i = skipSpace(b, kEnd)
		if i >= len(b) || b[i] != ':' {
			return
		}
		vStart := skipSpace(b, i+1)
		vEnd := skipValue(b, vStart)
		if vEnd <= vStart || vEnd > len(b) {
			return
		}
		if !fn(key, b[vStart:vEnd]) {
			return
		}
		i = skipSpace(b, vEnd)
		if i >= len(b) || b[i] != ',' {
			return
		}
		i++
	}
}

// keyEqual tells whether the raw member name k is name.
func keyEqual(k []byte, name string) bool {
	if bytes.IndexByte(k, '\\') < 0 {
		return string(k) == name
	}
	return keyString(k) == name
}

// keyString returns a member name without its quotes, unescaped (invalid
// UTF-8 replaced, as encoding/json does).
func keyString(k []byte) string {
	if bytes.IndexByte(k, '\\') < 0 && utf8.Valid(k) {
		return string(k)
	}
	var s string
	quoted := make([]byte, 0, len(k)+2)
	quoted = append(append(append(quoted, '"'), k...), '"')
	if json.Unmarshal(quoted, &s) != nil {
		return string(k)
	}
	return s
}

// trimSpace trims JSON whitespace.
func trimSpace(b []byte) []byte {
	i, j := skipSpace(b, 0), len(b)
	for j > i && (b[j-1] == ' ' || b[j-1] == '\t' || b[j-1] == '\n' || b[j-1] == '\r') {
		j--
	}
	return b[i:j]
}

func skipSpace(b []byte, i int) int {
	for i < len(b) && (b[i] == ' ' || b[i] == '\t' || b[i] == '\n' || b[i] == '\r') {
		i++
	}
	return i
}

// skipString returns the index after the string starting at b[i] == '"'.
func skipString(b []byte, i int) int {
	for i++; i < len(b); i++ {
		switch b[i] {
		case '\\':
			i++
		case '"':
			return i + 1
		}
	}
	return len(b)
}

// skipValue returns the index after the JSON value starting at b[i].
func skipValue(b []byte, i int) int {
	if i >= len(b) {
		return i
	}
	switch b[i] {
	case '"':
		return skipString(b, i)
	case '{', '[':
		depth := 0
		for i < len(b) {
			switch b[i] {
			case '"':
				i = skipString(b, i)
				continue
			case '{', '[':
				depth++
			case '}', ']':
				depth--
				if depth == 0 {
					return i + 1
				}
			}
			i++
		}
		return len(b)
	}
	for i < len(b) {
		switch b[i] {
		case ',', '}', ']', ' ', '\t', '\n', '\r':
			return i
		}
		i++
	}
	return i
}

// snippet returns at most n bytes of b as text for an error message.
func snippet(b []byte, n int) string {
	s := strings.TrimSpace(string(b))
	if len(s) > n {
		s = strings.ToValidUTF8(s[:n], "") + "…"
	}
	if s == "" {
		return "(empty)"
	}
	return s
}
