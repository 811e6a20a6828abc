package sparksql

import (
	"strings"
	"testing"
)

// TestJSONOptionsRefusedInOrder: of several options refused, from_json and
// to_json name the same one on every run (the first by name), so a
// diagnostic, and the corpus's status line, do not depend on map order.
// Fails without the sorted loop (a Go map's order changes between runs).
func TestJSONOptionsRefusedInOrder(t *testing.T) {
	in := []Input{{Ref: "df", SQL: "t", Schema: []Column{{"s", tString}}}}
	for _, tc := range []struct{ sql, want string }{
		{"SELECT from_json(s, 'a INT', map('allowNumericLeadingZeros', 'true', 'allowNonNumericNumbers', 'true', 'zz', '1')) AS j FROM {df}", "'allownonnumericnumbers'"},
		{"SELECT to_json(named_struct('a', s), map('timeZone', 'UTC', 'encoding', 'UTF-8', 'zz', '1')) AS j FROM {df}", "'encoding'"},
	} {
		for i := 0; i < 30; i++ {
			_, err := Translate(tc.sql, in, Options{})
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("%s: %v, want the option %s named", tc.sql, err, tc.want)
			}
		}
	}
}
