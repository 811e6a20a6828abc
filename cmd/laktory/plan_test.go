package main

import (
	"crypto/sha256"
	"encoding/json"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/laktory/workbench/workspace/workspacetest"
)

// treeState fingerprints every file under dir: path, size, mode, time and
// content.
func treeState(t *testing.T, dir string) map[string]string {
	t.Helper()
	out := map[string]string{}
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		info, err := d.Info()
		if err != nil {
			return err
		}
		h := ""
		if !d.IsDir() {
			b, err := os.ReadFile(p)
			if err != nil {
				return err
			}
			h = fmt.Sprintf("%x", sha256.Sum256(b))
		}
		out[p] = fmt.Sprintf("%d %v %v %s", info.Size(), info.Mode(), info.ModTime().UnixNano(), h)
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return out
}

func sameTree(t *testing.T, what string, before, after map[string]string) {
	t.Helper()
	for p, v := range before {
		if after[p] != v {
			t.Errorf("%s changed %s", what, p)
		}
	}
	for p := range after {
		if _, ok := before[p]; !ok {
			t.Errorf("%s created %s", what, p)
		}
	}
}

// TestPlanChangesNothing: laktory plan and run --dry-run print the plan and
// what the run would delete (rows per writer, dropped tables, reset
// checkpoints), without a terminal and without --yes, and leave every
// table file and checkpoint as it was.
func TestPlanChangesNothing(t *testing.T) {
	dir := workspacetest.Demo(t)
	if code, out, errs := runCLI(t, nil, "run", dir); code != ExitOK {
		t.Fatalf("first run: %d\n%s%s", code, out, errs)
	}
	lake, cps := filepath.Join(dir, ".laktory", "lake"), filepath.Join(dir, ".laktory", "checkpoints")
	lakeBefore, cpBefore := treeState(t, lake), treeState(t, cps)
	cases := []struct {
		args []string
		want []string
	}{
		{[]string{"plan", dir, "--pipeline", "pl-prices", "--select", "feed_a", "--refresh", "FULL"},
			[]string{"Plan 1 task: refresh FULL", "This run would:", "delete the rows of writer 'pl-prices.feed_a'", "reset the streaming checkpoint",
				"gld_prices_a", "Dry run: nothing was changed."}},
		{[]string{"run", dir, "--select", "pl-client-acme.orders", "--refresh", "RESET", "--reset-mode", "DROP", "--dry-run"},
			[]string{"Plan 1 task: refresh RESET, reset_mode DROP", "This run would:", "drop", "all_orders", "Dry run: nothing was changed."}},
		{[]string{"plan", dir}, []string{"Plan 8 tasks: refresh INCREMENTAL", "Dry run: nothing was changed."}},
	}
	for _, tc := range cases {
		code, out, errs := runCLI(t, nil, tc.args...)
		if code != ExitOK {
			t.Fatalf("%v: exit %d\n%s%s", tc.args, code, out, errs)
		}
		for _, w := range tc.want {
			if !strings.Contains(out, w) {
				t.Errorf("%v: output lacks %q:\n%s", tc.args, w, out)
			}
		}
		if strings.Contains(out, "started") {
			t.Errorf("%v: a dry run started a run:\n%s", tc.args, out)
		}
	}
	code, out, errs := runCLI(t, nil, "plan", dir, "--select", "feed_a", "--full-refresh", "--json")
	var res runResult
	if code != ExitOK || json.Unmarshal([]byte(out), &res) != nil || !res.DryRun || res.Plan == nil || res.RunID != 0 ||
		res.Plan.Params.Refresh != "FULL" || len(res.Plan.Effects) == 0 {
		t.Fatalf("plan --json: exit %d %+v\n%s%s", code, res, out, errs)
	}
	sameTree(t, "a dry run", lakeBefore, treeState(t, lake))
	sameTree(t, "a dry run", cpBefore, treeState(t, cps))
	if code, out, _ := runCLI(t, nil, "history", dir, "--json"); code != ExitOK || strings.Count(out, `"status"`) != 1 {
		t.Fatalf("the dry runs are in the history:\n%s", out)
	}
}

// TestFullRefreshFlag: --full-refresh is --refresh FULL; with another
// --refresh it is a usage error.
func TestFullRefreshFlag(t *testing.T) {
	dir := sharedWorkspace(t, nil)
	code, out, errs := runCLI(t, nil, "run", dir, "--select", "pl.a", "--full-refresh", "--yes")
	if code != ExitOK || !strings.Contains(out, "Plan 1 task: refresh FULL") {
		t.Fatalf("--full-refresh: exit %d\n%s%s", code, out, errs)
	}
	if code, _, errs := runCLI(t, nil, "run", dir, "--full-refresh", "--refresh", "RESET"); code != ExitUsage || !strings.Contains(errs, "--full-refresh is --refresh FULL") {
		t.Fatalf("--full-refresh with --refresh RESET: exit %d, %q", code, errs)
	}
	if code, _, errs := runCLI(t, nil, "run", dir, "--full-refresh", "--refresh", "full", "--yes", "--select", "b"); code != ExitOK {
		t.Fatalf("--full-refresh with --refresh full: exit %d, %q", code, errs)
	}
}

// TestWarningsOnce: a warning of the plan, or of a task, is printed once
// in the run's output (not again as the run reports it, nor in the
// summary).
func TestWarningsOnce(t *testing.T) {
	dir := workspacetest.Demo(t)
	if code, out, errs := runCLI(t, nil, "run", dir); code != ExitOK {
		t.Fatalf("first run: %d\n%s%s", code, out, errs)
	}
	code, out, errs := runCLI(t, nil, "run", dir, "--select", "pl-prices.feed_a", "--refresh", "FULL", "--yes")
	const planWarning = "node 'gld_prices_a' of pipeline 'pl-prices' streams main.default.prices and is not refreshed by this run"
	if code != ExitOK || strings.Count(out, planWarning) != 1 || !strings.Contains(out, "1 warning") {
		t.Fatalf("FULL refresh: exit %d, the plan's warning %d times:\n%s%s", code, strings.Count(out, planWarning), out, errs)
	}
	code, out, errs = runCLI(t, nil, "run", dir, "--select", "pl-prices.gld_prices_a")
	const taskWarning = "node 'gld_prices_a' skipped version"
	if code != ExitOK || strings.Count(out, taskWarning) != 1 {
		t.Fatalf("reader's run: exit %d, the task's warning %d times:\n%s%s", code, strings.Count(out, taskWarning), out, errs)
	}
}
