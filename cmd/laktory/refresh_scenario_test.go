package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/laktory/workbench/workspace/workspacetest"
)

// demoRun runs laktory run on the demo workspace with --json and returns
// the result; the run must end with the given exit code.
func demoRun(t *testing.T, dir string, code int, args ...string) runResult {
	t.Helper()
	got, out, errs := runCLI(t, nil, append([]string{"run", dir, "--json"}, args...)...)
	var res runResult
	if got != code || json.Unmarshal([]byte(out), &res) != nil {
		t.Fatalf("run %v: code %d (want %d)\n%s\n%s", args, got, code, out, errs)
	}
	return res
}

// ordersPerClient counts the rows of all_orders per client, through the
// CLI: "acme=80 globex=80".
func ordersPerClient(t *testing.T, dir string) string {
	t.Helper()
	code, out, errs := runCLI(t, nil, "table", "scan", "all_orders", "--dir", dir, "--json", "--columns", "client")
	if code != ExitOK {
		t.Fatalf("scan: code %d: %s", code, errs)
	}
	n := map[string]int{}
	for _, line := range strings.Split(strings.TrimSpace(out), "\n") {
		var row struct{ Client string }
		if line != "" && json.Unmarshal([]byte(line), &row) == nil {
			n[row.Client]++
		}
	}
	return "acme=" + itoa(n["acme"]) + " globex=" + itoa(n["globex"])
}

func itoa(n int) string {
	b, _ := json.Marshal(n)
	return string(b)
}

// TestResetSharedTableAcrossPipelinesInTheRun (issue: the RESET of a table
// shared by two pipelines, both in the run, lost a writer): every writer of
// the table in the run's pipelines has its checkpoint reset, whichever
// task truncates, and nobody in the run is told to run a FULL refresh.
func TestResetSharedTableAcrossPipelinesInTheRun(t *testing.T) {
	for _, mode := range []string{"TRUNCATE", "DROP"} {
		t.Run(mode, func(t *testing.T) {
			dir := workspacetest.Demo(t)
			both := []string{"-p", "pl-client-acme", "-p", "pl-client-globex"}
			demoRun(t, dir, ExitOK, both...)
			if got := ordersPerClient(t, dir); got != "acme=80 globex=80" {
				t.Fatalf("after the first run: %s", got)
			}
			res := demoRun(t, dir, ExitOK, append(both, "--refresh", "RESET", "--reset-mode", mode, "--yes")...)
			resets := 0
			for _, e := range res.Plan.Effects {
				if e.Kind == "reset_checkpoint" {
					resets++
				}
			}
			if resets != 2 {
				t.Fatalf("the plan resets %d checkpoints, want both writers': %+v", resets, res.Plan.Effects)
			}
			if len(res.Summary.Warnings) != 0 {
				t.Fatalf("both pipelines are in the run, yet warnings: %v", res.Summary.Warnings)
			}
			demoRun(t, dir, ExitOK, both...)
			if got := ordersPerClient(t, dir); got != "acme=80 globex=80" {
				t.Fatalf("after the reset and a normal run: %s, want both clients' 80 rows", got)
			}
		})
	}
	// One pipeline in the run: the other one's writer is named, once.
	dir := workspacetest.Demo(t)
	demoRun(t, dir, ExitOK, "-p", "pl-client-acme", "-p", "pl-client-globex")
	res := demoRun(t, dir, ExitOK, "-p", "pl-client-acme", "--refresh", "RESET", "--reset-mode", "TRUNCATE", "--yes")
	if len(res.Summary.Warnings) != 1 || !strings.Contains(res.Summary.Warnings[0], "pl-client-globex.orders") ||
		strings.Contains(res.Summary.Warnings[0], "pl-client-acme") {
		t.Fatalf("warnings %q: want one naming pl-client-globex.orders only", res.Summary.Warnings)
	}
}

// TestMistypedStreamingFolder (issue: a mistyped streaming folder ran "fine"
// with 0 rows, and its FULL refresh wiped the writer): a file source whose
// path does not exist is a validation warning at the key (an error with
// --deep), batch and stream alike, and no run of it starts (a run's plan
// makes it an error).
func TestMistypedStreamingFolder(t *testing.T) {
	dir := workspacetest.Demo(t)
	demoRun(t, dir, ExitOK, "-p", "pl-client-acme", "-p", "pl-client-globex")
	file := filepath.Join(dir, "pipelines", "pl-client-acme.yaml")
	b, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(file, []byte(strings.Replace(string(b), "orders/acme/", "orders/acmee/", 1)), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		args []string
		code int
		sev  string
	}{{nil, ExitOK, "warning"}, {[]string{"--deep"}, ExitProblems, "error"}} {
		code, out, _ := runCLI(t, nil, append([]string{"validate", dir, "--json"}, tc.args...)...)
		if code != tc.code || !strings.Contains(out, `"line": 12`) || !strings.Contains(out, `"code": "LK205"`) || !strings.Contains(out, `"severity": "`+tc.sev+`"`) ||
			!strings.Contains(out, "streaming source path ../data/landing/orders/acmee/ of node 'orders' does not exist") {
			t.Fatalf("validate %v: code %d\n%s", tc.args, code, out)
		}
	}
	for _, args := range [][]string{{}, {"--refresh", "FULL", "--yes"}} {
		code, out, errs := runCLI(t, nil, append([]string{"run", dir, "-p", "pl-client-acme"}, args...)...)
		if code != ExitProblems || !strings.Contains(errs, "LK205") || strings.Contains(out, "started") {
			t.Fatalf("run %v: code %d\n%s\n%s", args, code, out, errs)
		}
	}
	// An existing empty folder is fine: the run reads nothing.
	if err := os.MkdirAll(filepath.Join(dir, "data", "landing", "orders", "acmee"), 0o755); err != nil {
		t.Fatal(err)
	}
	if code, out, _ := runCLI(t, nil, "validate", dir); code != ExitOK {
		t.Fatalf("validate with an empty folder: code %d\n%s", code, out)
	}
	demoRun(t, dir, ExitOK, "-p", "pl-client-acme")
	if got := ordersPerClient(t, dir); got != "acme=80 globex=80" {
		t.Fatalf("after the runs: %s", got)
	}
}

// TestFullRefreshKeepsRowsWhenNewDataFails: a FULL refresh produces the
// writer's new data before it commits the delete of its rows, so a source
// that cannot be read leaves the rows in place and the run fails.
func TestFullRefreshKeepsRowsWhenNewDataFails(t *testing.T) {
	dir := workspacetest.Demo(t)
	demoRun(t, dir, ExitOK, "-p", "pl-client-acme", "-p", "pl-client-globex")
	bad := filepath.Join(dir, "data", "landing", "orders", "acme", "orders_2026-01-03.json")
	if err := os.WriteFile(bad, []byte("{\"order_id\": 9999, \"ordered_at\": \"not a time\"}\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	res := demoRun(t, dir, ExitProblems, "-p", "pl-client-acme", "--refresh", "FULL", "--yes")
	if res.Summary.RowsDeleted != 0 || len(res.Summary.Deletions) != 0 {
		t.Fatalf("the failed FULL refresh deleted rows: %+v", res.Summary.Deletions)
	}
	if got := ordersPerClient(t, dir); got != "acme=80 globex=80" {
		t.Fatalf("after the failed FULL refresh: %s, want acme's rows kept", got)
	}
	// Fixed, the FULL refresh deletes in one commit and appends in another.
	if err := os.WriteFile(bad, []byte("{\"order_id\": 9999, \"ordered_at\": \"2026-01-03T09:00:00Z\", \"item\": \"gear\", \"quantity\": 1, \"amount\": 1.5, \"status\": \"paid\"}\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	res = demoRun(t, dir, ExitOK, "-p", "pl-client-acme", "--refresh", "FULL", "--yes")
	ops := res.Summary.Tasks[0].Operations
	if len(ops) != 2 || ops[0].Operation != "DELETE" || ops[0].RowsDeleted != 80 || ops[1].RowsAdded != 81 || *ops[1].Version != *ops[0].Version+1 {
		t.Fatalf("operations %+v: want a DELETE of 80 rows, then the append of 81 in the next version", ops)
	}
	if got := ordersPerClient(t, dir); got != "acme=81 globex=80" {
		t.Fatalf("after the FULL refresh: %s", got)
	}
}

// TestDemoFirstRunNoRetries: the demo's first run creates its tables
// without commit conflicts (feed_a and feed_b used to race to create the
// partitioned prices), on every try.
func TestDemoFirstRunNoRetries(t *testing.T) {
	for try := range 3 {
		dir := workspacetest.Demo(t)
		if res := demoRun(t, dir, ExitOK, "--parallel", "4"); res.Summary.Retries != 0 {
			t.Fatalf("try %d: %d retries on the demo's first run", try, res.Summary.Retries)
		}
	}
}

// TestDemoScanNotCut: on the demo, machine output prints every row of
// prices (200 after the first run); the table format says what it cut.
func TestDemoScanNotCut(t *testing.T) {
	dir := workspacetest.Demo(t)
	demoRun(t, dir, ExitOK, "-p", "pl-prices")
	for _, tc := range []struct {
		args []string
		tail string
		n    int
	}{
		{[]string{"--format", "jsonl"}, "", 200},
		{[]string{"--json"}, "", 200},
		{[]string{"--format", "csv"}, "", 201},
		{nil, "(20 of 200 rows; --limit 0 for all)", 22},
	} {
		code, out, errs := runCLI(t, nil, append([]string{"table", "scan", "prices", "--dir", dir}, tc.args...)...)
		lines := strings.Split(strings.TrimSuffix(out, "\n"), "\n")
		if code != ExitOK || len(lines) != tc.n || (tc.tail != "" && lines[len(lines)-1] != tc.tail) {
			t.Fatalf("scan %v: code %d, %d lines (want %d), last %q\n%s", tc.args, code, len(lines), tc.n, lines[len(lines)-1], errs)
		}
	}
}
