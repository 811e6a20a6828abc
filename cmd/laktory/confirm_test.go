package main

import (
	"bytes"
	"context"
	"encoding/json"
	"strings"
	"testing"

	"github.com/laktory/workbench/workspace/workspacetest"
)

// feedARows counts feed_a's rows in the demo's prices table, through the
// CLI.
func feedARows(t *testing.T, dir string) int {
	t.Helper()
	code, out, errs := runCLI(t, nil, "table", "scan", "prices", "--dir", dir, "--json", "--where", "_laktory_writer = 'pl-prices.feed_a'")
	if code != ExitOK {
		t.Fatalf("scan: code %d: %s", code, errs)
	}
	return strings.Count(out, "\n")
}

// TestDestructiveRunNeedsConfirmation: on the demo, a FULL refresh
// without a terminal (`laktory run ... | cat`) is refused unless --yes is
// given: exit 1, the plan printed, nothing changed and no run recorded.
func TestDestructiveRunNeedsConfirmation(t *testing.T) {
	dir := workspacetest.Demo(t)
	if code, out, errs := runCLI(t, nil, "run", dir); code != ExitOK {
		t.Fatalf("first run: code %d\n%s%s", code, out, errs)
	}
	full := []string{"run", dir, "--refresh", "FULL", "--select", "feed_a"}
	code, out, errs := runCLI(t, nil, full...)
	if code != ExitProblems || !strings.Contains(out, "This run will:") || !strings.Contains(out, "delete the rows of writer 'pl-prices.feed_a'") ||
		!strings.Contains(errs, "Nothing was changed: run again with --yes") || strings.Contains(out, "started") {
		t.Fatalf("without a terminal: code %d\nstdout:\n%s\nstderr:\n%s", code, out, errs)
	}
	code, out, _ = runCLI(t, nil, append(full, "--json")...)
	var res runResult
	if code != ExitProblems || json.Unmarshal([]byte(out), &res) != nil || !res.Declined || res.Plan == nil || len(res.Plan.Effects) == 0 || res.Summary != nil {
		t.Fatalf("--json without a terminal: code %d\n%s", code, out)
	}
	if n := feedARows(t, dir); n != 100 {
		t.Fatalf("feed_a has %d rows after refused runs, want 100", n)
	}
	if _, out, _ := runCLI(t, nil, "history", dir, "--json"); strings.Count(out, `"refresh"`) != 1 {
		t.Fatalf("refused runs were recorded:\n%s", out)
	}
	if code, out, errs := runCLI(t, nil, append(full, "--yes")...); code != ExitOK || !strings.Contains(out, "Deleted 100 rows") {
		t.Fatalf("--yes: code %d\n%s%s", code, out, errs)
	}
}

// TestDeclinedRunExits1 answers the question on a terminal (a pseudo
// terminal): "n" changes nothing and exits 1, "y" runs.
func TestDeclinedRunExits1(t *testing.T) {
	dir := workspacetest.Demo(t)
	if code, out, errs := runCLI(t, nil, "run", dir); code != ExitOK {
		t.Fatalf("first run: code %d\n%s%s", code, out, errs)
	}
	for _, tc := range []struct {
		answer string
		code   int
		says   string
		rows   int
	}{
		{"n\n", ExitProblems, "Not confirmed: nothing was changed.", 100},
		{"\n", ExitProblems, "Not confirmed: nothing was changed.", 100},
		{"y\n", ExitOK, "Deleted 100 rows", 100},
	} {
		term := openPTY(t)
		term.master.WriteString(tc.answer)
		var errb bytes.Buffer
		code := Main(context.Background(), []string{"run", dir, "--refresh", "FULL", "--select", "feed_a"}, term.slave, term.slave, &errb,
			func(string) string { return "" })
		out := term.output()
		if code != tc.code || !strings.Contains(out, "Proceed? [y/N]") || !strings.Contains(out, tc.says) {
			t.Fatalf("answer %q: code %d (want %d)\n%s\n%s", tc.answer, code, tc.code, out, errb.String())
		}
		if n := feedARows(t, dir); n != tc.rows {
			t.Fatalf("answer %q: feed_a has %d rows, want %d", tc.answer, n, tc.rows)
		}
	}
}
