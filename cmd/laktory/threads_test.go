package main

import (
	"bytes"
	"context"
	"errors"
	"strings"
	"testing"
)

// TestThreadsEnv: LAKTORY_THREADS sets the runner's DuckDB threads; unset
// or 0 leaves DuckDB's default; any other value is refused by every
// command (exit 2, naming it), before anything runs.
func TestThreadsEnv(t *testing.T) {
	for _, tc := range []struct {
		env  string
		want int
		bad  bool
	}{
		{"", 0, false},
		{"1", 1, false},
		{" 3 ", 3, false},
		{"0", 0, false},
		{"-1", 0, true},
		{"two", 0, true},
	} {
		getenv := func(k string) string {
			if k == threadsEnv {
				return tc.env
			}
			return ""
		}
		n, err := parseThreads(tc.env)
		if n != tc.want || errors.Is(err, errThreads) != tc.bad {
			t.Errorf("LAKTORY_THREADS=%q: %d, %v; want %d", tc.env, n, err, tc.want)
		}
		if a := (&app{getenv: getenv}); !tc.bad && a.threads() != tc.want {
			t.Errorf("LAKTORY_THREADS=%q: threads() %d, want %d", tc.env, a.threads(), tc.want)
		}
		var out, errb bytes.Buffer
		code := Main(context.Background(), []string{"version"}, strings.NewReader(""), &out, &errb, getenv)
		if tc.bad && (code != ExitUsage || !strings.Contains(errb.String(), "LAKTORY_THREADS")) {
			t.Errorf("LAKTORY_THREADS=%q: exit %d, stderr %q; want %d naming it", tc.env, code, errb.String(), ExitUsage)
		}
		if !tc.bad && code != ExitOK {
			t.Errorf("LAKTORY_THREADS=%q: exit %d, stderr %q", tc.env, code, errb.String())
		}
	}
}
