package main

import (
	"bytes"
	"strings"
	"testing"
)

// TestThreadsEnv: LAKTORY_THREADS sets the runner's DuckDB threads; unset,
// 0 or not a number (reported) leaves DuckDB's default.
func TestThreadsEnv(t *testing.T) {
	for _, tc := range []struct {
		env  string
		want int
		warn bool
	}{
		{"", 0, false},
		{"1", 1, false},
		{" 3 ", 3, false},
		{"0", 0, false},
		{"-1", 0, true},
		{"two", 0, true},
	} {
		var errb bytes.Buffer
		a := &app{stderr: &errb, getenv: func(k string) string {
			if k == "LAKTORY_THREADS" {
				return tc.env
			}
			return ""
		}}
		if got := a.threads(); got != tc.want || (errb.Len() > 0) != tc.warn {
			t.Errorf("LAKTORY_THREADS=%q: %d (stderr %q), want %d", tc.env, got, errb.String(), tc.want)
		}
		if tc.warn && !strings.Contains(errb.String(), "LAKTORY_THREADS") {
			t.Errorf("LAKTORY_THREADS=%q: warning %q", tc.env, errb.String())
		}
	}
}
