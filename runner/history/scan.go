package history

import (
	"encoding/json"
	"fmt"
	"time"
)

// tsLayout is how times are stored: UTC, milliseconds, fixed width, so text
// order is time order.
const tsLayout = "2006-01-02T15:04:05.000Z07:00"

func ts(t time.Time) string { return t.UTC().Format(tsLayout) }

// timeCol scans a stored time ("" or NULL: the zero time).
type timeCol struct{ dst *time.Time }

func (c timeCol) Scan(src any) error {
	var s string
	switch v := src.(type) {
	case nil:
		*c.dst = time.Time{}
		return nil
	case string:
		s = v
	case []byte:
		s = string(v)
	default:
		return fmt.Errorf("time column: unexpected %T", src)
	}
	if s == "" {
		*c.dst = time.Time{}
		return nil
	}
	t, err := time.Parse(tsLayout, s)
	if err != nil {
		return fmt.Errorf("time column: %w", err)
	}
	*c.dst = t.UTC()
	return nil
}

// msCol scans integer milliseconds into a duration.
type msCol struct{ dst *time.Duration }

func (c msCol) Scan(src any) error {
	v, ok := src.(int64)
	if !ok {
		return fmt.Errorf("duration column: unexpected %T", src)
	}
	*c.dst = time.Duration(v) * time.Millisecond
	return nil
}

// listCol scans a JSON array of strings.
type listCol struct{ dst *[]string }

func (c listCol) Scan(src any) error {
	var b []byte
	switch v := src.(type) {
	case string:
		b = []byte(v)
	case []byte:
		b = v
	default:
		return fmt.Errorf("list column: unexpected %T", src)
	}
	*c.dst = []string{}
	return json.Unmarshal(b, c.dst)
}

// jsonList encodes a list for a JSON array column (nil: []).
func jsonList(l []string) string {
	if len(l) == 0 {
		return "[]"
	}
	b, _ := json.Marshal(l) // strings always encode
	return string(b)
}

// nullable returns nil for 0-length strings, for optional columns.
func nullable(s string) any {
	if s == "" {
		return nil
	}
	return s
}
