package polarssql

import (
	"errors"
	"fmt"
	"testing"

	"github.com/laktory/workbench/runner/sqlfront"
)

// Rust's regex syntax rewritten for RE2 with Rust's Unicode classes, and
// what is refused.
func TestRustRegex(t *testing.T) {
	for _, tc := range []struct {
		in, want string
		ascii    bool
	}{
		{`^\d+$`, `^\p{Nd}+$`, false},
		{`[\d,]`, `[\p{Nd},]`, false},
		{`\s`, "[" + whiteSpace + "]", false},
		{`\w+@`, "[" + wordChars + "]+@", false},
		{`\bcat\b`, `\bcat\b`, true},
		{`(?i)ab`, `(?i)ab`, false},
		{`(?<y>\d{4})`, `(?P<y>\p{Nd}{4})`, false},
		{`[]a]`, `[\]a]`, false},
		{`[[:alpha:]]`, `[[:alpha:]]`, false},
		{`\p{Greek}\pL`, `\p{Greek}\p{L}`, false},
		{`a\.b`, `a\.b`, false},
		{`[a-z&&[^x]]`, "error", false},
		{`(?x) a`, "error", false},
		{`\p{Alphabetic}`, "error", false},
		{`[\S]`, "error", false},
		{`\e`, "error", false},
	} {
		got, ascii, err := rustRegex(tc.in)
		if err != nil {
			got = "error"
		}
		if got != tc.want || (err == nil && ascii != tc.ascii) {
			t.Errorf("%s: got %s (ascii %v), want %s (ascii %v)", tc.in, got, ascii, tc.want, tc.ascii)
		}
	}
}

// INTERVAL strings as polars reads them.
func TestParseInterval(t *testing.T) {
	for _, tc := range []struct {
		in   string
		want string // months/nanos, or the error's class
	}{
		{"1 day", "0/86400000000000"},
		{"1 year 2 months", "14/0"},
		{"2 quarters", "6/0"},
		{"1d 2h 30min", "0/95400000000000"},
		{"1DAY", "0/86400000000000"},
		{"500 ns", "0/500"},
		{"-1 day", "SQLInterfaceError"},
		{"1.5 days", "PanicException"},
		{"3 fortnights", "unsupported"},
	} {
		e, err := Syntax.ParseExpr("INTERVAL '" + tc.in + "'")
		if err != nil {
			t.Fatal(err)
		}
		iv, err := parseInterval(e.(*sqlfront.Interval))
		var got string
		var fe *sqlfront.Error
		switch {
		case err == nil:
			got = fmt.Sprintf("%d/%d", iv.months, iv.nanos)
		case errors.As(err, &fe) && errors.Is(err, ErrPolars):
			got = fe.Class
		default:
			got = "unsupported"
		}
		if got != tc.want {
			t.Errorf("%q: got %s, want %s", tc.in, got, tc.want)
		}
	}
}
