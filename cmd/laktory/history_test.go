package main

import (
	"context"
	"database/sql"
	"encoding/json"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/charmbracelet/x/exp/golden"
	"github.com/laktory/workbench/runner"
	"github.com/laktory/workbench/runner/history"
	"github.com/laktory/workbench/workspace"
	"github.com/laktory/workbench/workspace/human"
	"github.com/laktory/workbench/workspace/workspacetest"
)

// historyWorkspace returns a workspace folder whose history holds three
// runs: a succeeded INCREMENTAL run, a failed FULL run on Spark of two
// writers of a shared table (a deletion, a retry, messages, events), and a RESET+DROP run
// still running. It returns the folder and the failed run's id.
func historyWorkspace(t *testing.T) (string, int64) {
	t.Helper()
	ctx := context.Background()
	dir := t.TempDir()
	layout, err := workspace.NewLayout(dir, "", "")
	if err != nil {
		t.Fatal(err)
	}
	now := time.Date(2026, 3, 4, 5, 6, 7, 0, time.UTC)
	clock := func() time.Time { now = now.Add(1500 * time.Millisecond); return now }
	s, err := history.Open(ctx, layout.StateDB(), history.WithClock(clock))
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	must := func(err error) {
		t.Helper()
		if err != nil {
			t.Fatal(err)
		}
	}
	v := func(n int64) *int64 { return &n }

	ok, err := s.StartRun(ctx, history.RunStart{Workspace: dir, Pipelines: []string{"pl-prices"}, Parallelism: 2})
	must(err)
	must(s.StartTask(ctx, ok, history.TaskStart{Pipeline: "pl-prices", Node: "feed_a"}))
	must(s.RecordOperation(ctx, ok, history.Operation{Task: "pl-prices.feed_a", Table: "main.default.prices",
		Version: v(3), Operation: "WRITE", RowsAdded: 12500, FilesAdded: 2, Duration: 80 * time.Millisecond}))
	must(s.FinishTask(ctx, ok, "pl-prices.feed_a", history.TaskEnd{Status: history.StatusSucceeded, RowsRead: 12500}))
	must(s.FinishRun(ctx, ok, history.RunEnd{Status: history.StatusSucceeded}))

	const a, b, prices = "pl-prices.feed_a", "pl-prices.feed_b", "main.default.prices"
	failed, err := s.StartRun(ctx, history.RunStart{Workspace: dir, Env: "dev", Refresh: history.RefreshFull,
		Pipelines: []string{"pl-prices"}, Selectors: []string{"feed_a", "feed_b"}, Parallelism: 2,
		Engine: "spark", Remote: "sc://127.0.0.1:15002"})
	must(err)
	must(s.StartTask(ctx, failed, history.TaskStart{Pipeline: "pl-prices", Node: "feed_a"}))
	must(s.StartTask(ctx, failed, history.TaskStart{Pipeline: "pl-prices", Node: "feed_b"}))
	must(s.RecordDeletion(ctx, failed, history.Deletion{Task: a, Table: prices, Writer: a, Rows: 12500, Version: v(4)}))
	must(s.RecordDeletion(ctx, failed, history.Deletion{Task: b, Table: prices, Predicate: "source = 'b'", Rows: 300, Version: v(6)}))
	must(s.RecordOperation(ctx, failed, history.Operation{Task: a, Table: prices, Version: v(4), Operation: "DELETE",
		Detail: "_laktory_writer = 'pl-prices.feed_a'", RowsDeleted: 12500, FilesRemoved: 2, Duration: 30 * time.Millisecond}))
	must(s.RecordRetry(ctx, failed, history.Retry{Task: b, Table: prices, Attempt: 1, Delay: 200 * time.Millisecond,
		Error: "commit conflict: version 4 was written by pl-prices.feed_a\n(concurrent delete)"}))
	must(s.RecordRetry(ctx, failed, history.Retry{Task: b, Table: prices, Attempt: 2, Delay: 450 * time.Millisecond,
		Error: "commit conflict: version 5 was written by pl-prices.feed_a"}))
	must(s.RecordOperation(ctx, failed, history.Operation{Task: a, Table: prices, Version: v(5), Operation: "WRITE",
		Detail: "Append", RowsAdded: 12600, FilesAdded: 1, Duration: 90 * time.Millisecond}))
	must(s.RecordOperation(ctx, failed, history.Operation{Task: b, Table: prices, Version: v(6), Operation: "DELETE",
		Detail: "source = 'b'", RowsDeleted: 300, FilesAdded: 1, FilesRemoved: 1, Duration: 25 * time.Millisecond}))
	_, err = s.AppendEvent(ctx, failed, history.Event{Kind: "plan", Payload: json.RawMessage(`{"tasks":2}`)})
	must(err)
	must(s.RecordMessage(ctx, failed, history.Message{Task: b, Severity: history.SeverityWarning, Code: "RETRY",
		Text: "commit retried twice"}))
	must(s.FinishTask(ctx, failed, a, history.TaskEnd{Status: history.StatusSucceeded, RowsRead: 12600}))
	must(s.FinishTask(ctx, failed, b, history.TaskEnd{Status: history.StatusFailed, RowsRead: 40,
		Error: "expectation price_positive failed for 3 rows"}))
	must(s.RecordMessage(ctx, failed, history.Message{Task: b, Severity: history.SeverityError, Code: "EXPECTATION",
		Text: "expectation price_positive failed for 3 rows"}))
	must(s.FinishRun(ctx, failed, history.RunEnd{Status: history.StatusFailed, Error: "1 of 2 tasks failed"}))

	running, err := s.StartRun(ctx, history.RunStart{Workspace: dir, Refresh: history.RefreshReset,
		ResetMode: history.ResetDrop, Selectors: []string{"feed_a"}, Parallelism: 1})
	must(err)
	must(s.StartTask(ctx, running, history.TaskStart{Pipeline: "pl-prices", Node: "feed_a"}))
	return dir, failed
}

// stable replaces what changes from machine to machine in the output.
func stable(out string) string {
	host, _ := os.Hostname()
	out = strings.ReplaceAll(out, "pid "+strconv.Itoa(os.Getpid())+" on "+host, "pid PID on HOST")
	return out
}

func TestHistoryHuman(t *testing.T) {
	dir, failed := historyWorkspace(t)
	tests := []struct {
		name string
		args []string
	}{
		{"list", []string{"history", dir}},
		{"list limit", []string{"history", dir, "--limit", "2"}},
		{"list before", []string{"history", dir, "--before", "2"}},
		{"run", []string{"history", dir, "--run", strconv.FormatInt(failed, 10)}},
		{"running run", []string{"history", dir, "--run", "3"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			code, out, stderr := runCLI(t, nil, tt.args...)
			if code != ExitOK {
				t.Fatalf("exit %d: %s", code, stderr)
			}
			out = strings.ReplaceAll(stable(out), dir, "DIR")
			golden.RequireEqual(t, out)
		})
	}
}

func TestHistoryJSON(t *testing.T) {
	dir, failed := historyWorkspace(t)
	code, out, stderr := runCLI(t, nil, "history", dir, "--json", "--limit", "2")
	if code != ExitOK {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	var list historyList
	if err := json.Unmarshal([]byte(out), &list); err != nil {
		t.Fatalf("history --json: %v\n%s", err, out)
	}
	if len(list.Runs) != 2 || list.Runs[0].ID != 3 || list.Runs[1].ID != failed || !list.HasOlder {
		t.Fatalf("list: %+v", list)
	}
	if r := list.Runs[1]; r.RowsWritten != 12600 || r.RowsDeleted != 12800 || r.Retries != 2 || r.Status != history.StatusFailed ||
		r.Engine != "spark" || r.Remote != "sc://127.0.0.1:15002" || !strings.Contains(out, `"engine": "spark"`) {
		t.Fatalf("failed run summary: %+v", r)
	}
	// The local engine is named, as run --json names it.
	if r := list.Runs[0]; r.Engine != "local" || r.Remote != "" {
		t.Fatalf("local run: engine %q remote %q", r.Engine, r.Remote)
	}
	if _, out, _ := runCLI(t, nil, "history", dir, "--run", "3", "--json"); !strings.Contains(out, `"engine": "local"`) {
		t.Fatalf("--run 3 --json does not name the local engine:\n%s", out)
	}

	code, out, stderr = runCLI(t, nil, "history", dir, "--run", strconv.FormatInt(failed, 10), "--json")
	if code != ExitOK {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	var raw map[string]json.RawMessage
	if err := json.Unmarshal([]byte(out), &raw); err != nil {
		t.Fatal(err)
	}
	for _, k := range []string{"run", "tasks", "operations", "retries", "deletions", "messages", "events"} {
		if _, ok := raw[k]; !ok {
			t.Errorf("--run --json lacks %q", k)
		}
	}
	var d struct {
		Retries []struct {
			Attempt int   `json:"attempt"`
			DelayMS int64 `json:"delay_ms"`
		} `json:"retries"`
		Deletions []history.Deletion `json:"deletions"`
	}
	if err := json.Unmarshal([]byte(out), &d); err != nil {
		t.Fatal(err)
	}
	if len(d.Retries) != 2 || d.Retries[1].Attempt != 2 || d.Retries[1].DelayMS != 450 {
		t.Errorf("retries: %+v", d.Retries)
	}
	if len(d.Deletions) != 2 || d.Deletions[0].Writer != "pl-prices.feed_a" || d.Deletions[1].Predicate != "source = 'b'" {
		t.Errorf("deletions: %+v", d.Deletions)
	}
}

func TestHistoryWithoutDatabase(t *testing.T) {
	dir := t.TempDir()
	state := filepath.Join(dir, workspace.StateDirName)
	code, out, _ := runCLI(t, nil, "history", dir)
	if code != ExitOK || !strings.Contains(out, "No runs yet in "+dir) || !strings.Contains(out, "laktory run") {
		t.Fatalf("exit %d, out %q", code, out)
	}
	code, out, _ = runCLI(t, nil, "history", dir, "--json")
	var list historyList
	if code != ExitOK || json.Unmarshal([]byte(out), &list) != nil || list.Runs == nil || len(list.Runs) != 0 {
		t.Fatalf("--json: exit %d, out %q", code, out)
	}
	code, _, stderr := runCLI(t, nil, "history", dir, "--run", "1")
	if code != ExitUsage || !strings.Contains(stderr, "no runs yet") {
		t.Fatalf("--run without history: exit %d, stderr %q", code, stderr)
	}
	if _, err := os.Stat(state); !os.IsNotExist(err) {
		t.Fatalf("history created %s: %v", state, err)
	}
}

func TestHistoryErrors(t *testing.T) {
	dir, _ := historyWorkspace(t)
	tests := []struct {
		name string
		args []string
		want string
	}{
		{"unknown run", []string{"history", dir, "--run", "999"}, "run 999 is not in the history"},
		{"run id not a number", []string{"history", dir, "--run", "abc"}, "invalid argument"},
		{"run id zero", []string{"history", dir, "--run", "0"}, "positive number"},
		{"limit zero", []string{"history", dir, "--limit", "0"}, "--limit must be between 1"},
		{"no such folder", []string{"history", filepath.Join(dir, "nope")}, "not a workspace folder"},
		{"two folders", []string{"history", dir, dir}, "accepts between 0 and 1 arg"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			code, _, stderr := runCLI(t, nil, tt.args...)
			if code != ExitUsage || !strings.Contains(stderr, tt.want) {
				t.Fatalf("exit %d, stderr %q, want 2 and %q", code, stderr, tt.want)
			}
		})
	}
}

func TestHistoryNewerSchema(t *testing.T) {
	dir, _ := historyWorkspace(t)
	db, err := sql.Open("sqlite", filepath.Join(dir, workspace.StateDirName, workspace.StateDBName))
	if err != nil {
		t.Fatal(err)
	}
	_, err = db.Exec(`INSERT INTO schema_migrations (version, name, applied_at) VALUES (99, 'future', '')`)
	db.Close()
	if err != nil {
		t.Fatal(err)
	}
	code, _, stderr := runCLI(t, nil, "history", dir)
	if code != ExitUsage || !strings.Contains(stderr, "newer laktory") || !strings.Contains(stderr, "upgrade laktory") {
		t.Fatalf("exit %d, stderr %q", code, stderr)
	}
}

func TestHistoryFormatting(t *testing.T) {
	tests := []struct {
		name, got, want string
	}{
		{"ms", fmtDuration(350 * time.Millisecond), "350ms"},
		{"seconds", fmtDuration(12340 * time.Millisecond), "12.3s"},
		{"minutes", fmtDuration(4*time.Minute + 5*time.Second), "4m05s"},
		{"hours", fmtDuration(2*time.Hour + 3*time.Minute), "2h03m"},
		{"unknown", fmtDuration(0), "-"},
		{"small count", human.Count(999), "999"},
		{"count", human.Count(1234567), "1,234,567"},
		{"negative count", human.Count(-1234), "-1,234"},
		{"first line", cutLine("conflict\nat version 4", 40), "conflict …"},
		{"long line", cutLine("abcdefghij", 5), "abcd…"},
		{"fits", ellipsis("abc", 3), "abc"},
		{"cut by characters", ellipsis("héllo wörld", 6), "héllo…"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if tt.got != tt.want {
				t.Fatalf("got %q, want %q", tt.got, tt.want)
			}
		})
	}
}

// Colours are applied after padding: stripped of them, the coloured table
// is the plain one.
func TestHistoryColoursKeepAlignment(t *testing.T) {
	runs := []history.Run{
		{ID: 12, Status: history.StatusSucceeded, Refresh: history.RefreshFull, RowsWritten: 1000},
		{ID: 7, Status: history.StatusInterrupted, Refresh: history.RefreshIncremental},
	}
	var plain, coloured strings.Builder
	printRuns(&plain, runs, painter(false), cutter(true))
	printRuns(&coloured, runs, painter(true), cutter(true))
	if !strings.Contains(coloured.String(), ansiGreen+"succeeded") {
		t.Fatalf("no colour: %q", coloured.String())
	}
	if got := ansiPattern.ReplaceAllString(coloured.String(), ""); got != plain.String() {
		t.Fatalf("colours changed the layout:\n%s\nwant\n%s", got, plain.String())
	}
}

var ansiPattern = regexp.MustCompile("\x1b\\[[0-9;]*m")

// TestNotCutWithoutTerminal: output that is not a terminal holds long
// cells whole (no "…"); on a terminal they are cut unless --wide.
func TestNotCutWithoutTerminal(t *testing.T) {
	long := strings.Repeat("a very long error message ", 10) + "\nand a second line"
	d := history.RunDetail{Run: history.Run{ID: 3, Status: history.StatusFailed, Refresh: history.RefreshIncremental,
		Pipelines: []string{strings.Repeat("pl-with-a-long-name-", 4)}},
		Tasks: []history.Task{{Key: "pl.a", Status: history.StatusFailed, Error: long}}}
	var whole, cut strings.Builder
	printRunDetail(&whole, d, painter(false), cutter(false))
	printRunDetail(&cut, d, painter(false), cutter(true))
	if strings.Contains(whole.String(), "…") || !strings.Contains(whole.String(), strings.Repeat("a very long error message ", 10)+" ⏎ and a second line") {
		t.Fatalf("not cut:\n%s", whole.String())
	}
	if !strings.Contains(cut.String(), "…") {
		t.Fatalf("cut on a terminal:\n%s", cut.String())
	}
	var runs strings.Builder
	printRuns(&runs, []history.Run{d.Run}, painter(false), cutter(false))
	if strings.Contains(runs.String(), "…") || !strings.Contains(runs.String(), d.Run.Pipelines[0]) {
		t.Fatalf("runs not cut:\n%s", runs.String())
	}
	// In-process, stdout is not a terminal: the command cuts nothing.
	a := &app{stdout: &strings.Builder{}}
	if a.cutter(false) || a.cutter(true) {
		t.Fatal("a buffer is not a terminal: nothing is cut")
	}
}

// TestRunDurationMatchesHistory: a run's times are measured once: what
// `run --json` and the printed summary say (the run and each task) is what
// the history records and `laktory history` prints.
func TestRunDurationMatchesHistory(t *testing.T) {
	dir := workspacetest.Demo(t)
	code, out, errs := runCLI(t, nil, "run", dir, "--json")
	if code != ExitOK {
		t.Fatalf("run: %d\n%s%s", code, out, errs)
	}
	var res runResult
	if err := json.Unmarshal([]byte(out), &res); err != nil || res.Summary == nil {
		t.Fatalf("run --json: %v\n%s", err, out)
	}
	s := res.Summary
	_, out, _ = runCLI(t, nil, "history", dir, "--run", strconv.FormatInt(s.RunID, 10), "--json")
	var d history.RunDetail
	if err := json.Unmarshal([]byte(out), &d); err != nil {
		t.Fatalf("history --json: %v\n%s", err, out)
	}
	if !d.Run.StartedAt.Equal(s.StartedAt) || !d.Run.EndedAt.Equal(s.EndedAt) {
		t.Errorf("run %d: printed %s - %s (%s), history %s - %s (%s)", s.RunID, s.StartedAt, s.EndedAt, s.EndedAt.Sub(s.StartedAt),
			d.Run.StartedAt, d.Run.EndedAt, d.Run.Duration())
	}
	tasks := map[string]history.Task{}
	for _, ht := range d.Tasks {
		tasks[ht.Key] = ht
	}
	for _, ts := range s.Tasks {
		ht := tasks[ts.Key]
		if !ht.StartedAt.Equal(ts.StartedAt) || !ht.EndedAt.Equal(ts.EndedAt) {
			t.Errorf("task %s: printed %s - %s, history %s - %s", ts.Key, ts.StartedAt, ts.EndedAt, ht.StartedAt, ht.EndedAt)
		}
	}

	// The events the workbench times a run by carry the same times.
	want := map[string]time.Time{"run_started": s.StartedAt, "run_finished": s.EndedAt}
	for _, e := range d.Events {
		var ev runner.Event
		if err := json.Unmarshal(e.Payload, &ev); err != nil {
			t.Fatal(err)
		}
		at, ok := want[e.Kind]
		if e.Kind == "task_started" || e.Kind == "task_finished" {
			ht := tasks[e.Task]
			at, ok = map[bool]time.Time{true: ht.StartedAt, false: ht.EndedAt}[e.Kind == "task_started"], true
		}
		if ok && !ev.At.Equal(at) {
			t.Errorf("event %s %s at %s, the history's time %s", e.Kind, e.Task, ev.At, at)
		}
	}

	// The printed summary's duration is the history's.
	_, out, errs = runCLI(t, nil, "run", dir)
	m := regexp.MustCompile(`Run (\d+) succeeded in (\S+):`).FindStringSubmatch(out)
	if m == nil {
		t.Fatalf("no summary line:\n%s%s", out, errs)
	}
	_, hist, _ := runCLI(t, nil, "history", dir, "--run", m[1])
	if want := "took " + m[2] + "\n"; !strings.Contains(hist, want) {
		t.Errorf("run printed %q, history --run %s prints:\n%s", m[2], m[1], hist)
	}
}
