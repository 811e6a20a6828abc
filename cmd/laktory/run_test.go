package main

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/charmbracelet/x/exp/golden"

	"github.com/laktory/workbench/runner"
	"github.com/laktory/workbench/runner/history"
	"github.com/laktory/workbench/workspace"
	"github.com/laktory/workbench/workspace/workspacetest"
)

// sharedWorkspace writes a workspace with two writers of the shared table
// prices (a: 3 rows, b: 2 rows per run).
func sharedWorkspace(t *testing.T, extra map[string]string) string {
	t.Helper()
	dir := t.TempDir()
	files := map[string]string{
		"pipelines/pl.yaml": `name: pl
nodes:
- name: a
  sources:
  - path: ../data/a.jsonl
    format: JSONL
  sinks:
  - table_name: prices
    mode: APPEND
    shared: true
- name: b
  sources:
  - path: ../data/b.jsonl
    format: JSONL
  sinks:
  - table_name: prices
    mode: APPEND
    shared: true
`,
		"data/a.jsonl": "{\"k\": 1}\n{\"k\": 2}\n{\"k\": 3}\n",
		"data/b.jsonl": "{\"k\": 4}\n{\"k\": 5}\n",
	}
	for k, v := range extra {
		files[k] = v
	}
	workspacetest.Write(t, dir, files)
	return dir
}

var durations = regexp.MustCompile(`\b\d+(\.\d+)?(ms|µs|s)\b`)

// TestRunHuman: a FULL refresh of one writer (--yes: no question) prints
// its effects first, the progress lines and the summary (golden
// file; -update rewrites it; durations scrubbed).
func TestRunHuman(t *testing.T) {
	dir := sharedWorkspace(t, nil)
	if code, out, errs := runCLI(t, nil, "run", dir, "--parallel", "1"); code != ExitOK || !strings.Contains(out, "Run 1 succeeded") {
		t.Fatalf("first run: code %d\n%s%s", code, out, errs)
	}
	code, out, errs := runCLI(t, nil, "run", dir, "--select", "a", "--refresh", "full", "--yes")
	if code != ExitOK {
		t.Fatalf("code %d\n%s%s", code, out, errs)
	}
	out = strings.ReplaceAll(out, dir, "DIR")
	golden.RequireEqual(t, []byte(durations.ReplaceAllString(out, "<t>")))
}

func TestRunJSON(t *testing.T) {
	dir := sharedWorkspace(t, nil)
	// The table does not exist yet: truncating it resets nothing.
	code, out, errs := runCLI(t, nil, "run", dir, "--json", "--refresh", "RESET", "--reset-mode", "TRUNCATE", "--select", "b", "--yes")
	if code != ExitOK {
		t.Fatalf("code %d\n%s%s", code, out, errs)
	}
	code, out, errs = runCLI(t, nil, "run", dir, "--json")
	if code != ExitOK {
		t.Fatalf("code %d\n%s%s", code, out, errs)
	}
	var res runResult
	if err := json.Unmarshal([]byte(out), &res); err != nil {
		t.Fatalf("--json output is not JSON: %v\n%s", err, out)
	}
	if res.RunID != 2 || res.Summary == nil || res.Summary.Status != history.StatusSucceeded || res.Summary.RowsWritten != 5 ||
		len(res.Plan.Tasks) != 2 || len(res.Summary.Tasks) != 2 {
		t.Fatalf("result %+v", res)
	}
	if !strings.Contains(errs, "Plan 2 tasks") {
		t.Fatalf("the plan goes to stderr with --json: %q", errs)
	}
}

func TestRunExitCodes(t *testing.T) {
	tests := []struct {
		name   string
		extra  map[string]string
		args   []string
		code   int
		stdout string
		stderr string
	}{
		{name: "bad refresh", args: []string{"--refresh", "sometimes"}, code: ExitUsage, stderr: "--refresh sometimes is not supported"},
		{name: "unknown selector", args: []string{"--select", "zzz"}, code: ExitUsage, stderr: "Invalid node, execution_task_name, or tag: zzz"},
		{name: "full with override on a shared sink", args: []string{"--refresh", "FULL", "--reset-mode", "DROP"}, code: ExitProblems,
			stderr: "reset the whole table with --refresh RESET"},
		{name: "negative parallel", args: []string{"--parallel", "-1"}, code: ExitUsage, stderr: "--parallel"},
		{name: "failed task", extra: map[string]string{"data/b.jsonl": "not json\n"}, code: ExitProblems,
			stdout: "Failures:\n  pl.b (failed)"},
		{name: "unsupported node", extra: map[string]string{"pipelines/st.yaml": "name: st\nnodes:\n- name: s\n  sources:\n  - path: ../data/a.jsonl\n    format: JSONL\n  sinks:\n  - table_name: s\n    mode: APPEND\n    merge_cdc_options: {primary_keys: [k]}\n"},
			args: []string{"--pipeline", "st"}, code: ExitProblems, stderr: "node 's' of pipeline 'st' uses merge_cdc_options with the mode APPEND"},
		{name: "a pipeline file that does not parse", extra: map[string]string{"pipelines/broken.yaml": "name: broken\nnodes:\n- name: a\n  sinks: [\n"},
			code: ExitProblems, stderr: "pipelines/broken.yaml\n  4:1 error LK001 YAML syntax error"},
		{name: "a file that does not parse and is no pipeline", extra: map[string]string{"notes.yaml": "owner: [data-team\n"},
			code: ExitProblems, stderr: "notes.yaml\n  1:8 error LK001 YAML syntax error: unclosed `[`"},
		{name: "a broken file and another pipeline selected", extra: map[string]string{"pipelines/broken.yaml": "nodes: [\n"},
			args: []string{"--pipeline", "pl"}, code: ExitOK, stdout: "succeeded"},
		{name: "a broken workbench config", extra: map[string]string{"laktory-workbench.yaml": "roots: 3\n"},
			args: []string{"--pipeline", "pl"}, code: ExitProblems, stderr: "laktory-workbench.yaml\n  1:8 error LK003"},
		{name: "streaming node", extra: map[string]string{"pipelines/st.yaml": "name: st\nnodes:\n- name: s\n  sources:\n  - path: ../data/a.jsonl\n    format: JSONL\n    as_stream: true\n  sinks:\n  - table_name: s\n    mode: APPEND\n"},
			args: []string{"--pipeline", "st"}, code: 0, stdout: "flow st.s/table-main.default.s: batch 0"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dir := sharedWorkspace(t, tt.extra)
			code, out, errs := runCLI(t, nil, append([]string{"run", dir}, tt.args...)...)
			if code != tt.code || !strings.Contains(out, tt.stdout) || !strings.Contains(errs, tt.stderr) {
				t.Fatalf("code %d (want %d)\nstdout:\n%s\nstderr:\n%s", code, tt.code, out, errs)
			}
		})
	}
}

// TestRunThenHistory: the run is in the history laktory history reads.
func TestRunThenHistory(t *testing.T) {
	dir := sharedWorkspace(t, nil)
	runCLI(t, nil, "run", dir)
	code, out, _ := runCLI(t, nil, "run", dir, "--select", "b", "--refresh", "RESET", "--yes")
	if code != ExitOK || !strings.Contains(out, "Rows deleted per writer:\n  main.default.prices  writer 'pl.b': 2 rows") {
		t.Fatalf("code %d\n%s", code, out)
	}
	code, out, _ = runCLI(t, nil, "history", dir, "--run", "2")
	if code != ExitOK || !strings.Contains(out, "pl.b") || !strings.Contains(out, "2") {
		t.Fatalf("history: code %d\n%s", code, out)
	}
}

// TestLiveProgress: the live view redraws one line per unfinished task
// (at most maxLiveTasks, then a count) below the notable events.
func TestLiveProgress(t *testing.T) {
	plan := &runner.Plan{}
	for i := 0; i < maxLiveTasks+3; i++ {
		plan.Tasks = append(plan.Tasks, &runner.Task{Key: fmt.Sprintf("pl.n%02d", i)})
	}
	var b strings.Builder
	l := newLiveProgress(&b, plan, warnings{})
	l.event(runner.Event{Kind: runner.EventTaskStarted, Task: "pl.n00"})
	l.event(runner.Event{Kind: runner.EventRetry, Task: "pl.n00", Message: "retry 1 of 5", Err: "conflict"})
	l.event(runner.Event{Kind: runner.EventTaskFinished, Task: "pl.n00", Status: history.StatusSucceeded, Message: "3 rows written"})
	out := b.String()
	last := out[strings.LastIndex(out, "\x1b[J")+len("\x1b[J"):]
	if !strings.Contains(out, "pl.n00: retry 1 of 5: conflict\n") || strings.Contains(last, "pl.n00") ||
		strings.Count(last, "\n") != maxLiveTasks+1 || !strings.Contains(last, "1 of 15 tasks done") {
		t.Fatalf("live output:\n%q", out)
	}
}

// TestLiveProgressWrite: while a task's data files are written, its line
// shows the rows and bytes written so far and the rate.
func TestLiveProgressWrite(t *testing.T) {
	plan := &runner.Plan{Tasks: []*runner.Task{{Key: "pl.big"}}}
	var b strings.Builder
	l := newLiveProgress(&b, plan, warnings{})
	at := time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)
	l.event(runner.Event{Kind: runner.EventTaskProgress, Task: "pl.big", Phase: "write", Rows: 5_000_000, At: at})
	l.event(runner.Event{Kind: runner.EventTaskProgress, Task: "pl.big", Phase: "write", Table: "/lake/big", Rows: 1_200_000,
		Bytes: 96 << 20, At: at.Add(2 * time.Second)})
	out := b.String()
	last := out[strings.LastIndex(out, "\x1b[J")+len("\x1b[J"):]
	if !strings.Contains(last, "write\x1b[0m 1,200,000 of 5,000,000 rows · 96.0 MiB · 48.0 MiB/s") {
		t.Fatalf("live output:\n%q", last)
	}
}

// TestSummaryNumbers: the summary formats counts and durations as the
// workbench does (one formatter, package human): thousands separators.
func TestSummaryNumbers(t *testing.T) {
	at := time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)
	s := runner.Summary{RunID: 7, Status: history.StatusSucceeded, StartedAt: at, EndedAt: at.Add(3250 * time.Millisecond),
		RowsWritten: 1_234_567, RowsDeleted: 12_000, Retries: 2,
		Tasks: []runner.TaskSummary{{Key: "pl.a", Status: history.StatusSucceeded, RowsWritten: 1_234_567, RowsDeleted: 12_000,
			StartedAt: at, EndedAt: at.Add(3250 * time.Millisecond)}}}
	var b strings.Builder
	printSummary(&b, s, false, warnings{})
	for _, want := range []string{"Run 7 succeeded in 3.2s: 1 task, 1,234,567 rows written, 12,000 rows deleted, 2 retries",
		"1,234,567    12,000", "3.2s"} {
		if !strings.Contains(b.String(), want) {
			t.Fatalf("summary lacks %q:\n%s", want, b.String())
		}
	}
}

// TestDescribeNumbers: table describe counts as the rest of the CLI and
// the workbench do.
func TestDescribeNumbers(t *testing.T) {
	var b strings.Builder
	printDescribe(&b, describeJSON{Path: "/lake/t", Files: 1200, SizeBytes: 3 << 30, Rows: 1_234_567, RowsExact: true})
	if !strings.Contains(b.String(), "1,200 (3.0 GiB)") || !strings.Contains(b.String(), "1,234,567") {
		t.Fatalf("describe:\n%s", b.String())
	}
}

// TestRunEngineFlags: --engine picks local (the default) or spark, whose
// Spark Connect server is --remote or else $LAKTORY_SPARK_REMOTE; a
// missing or malformed address is refused before anything runs.
func TestRunEngineFlags(t *testing.T) {
	dir := workspacetest.Demo(t)
	for _, c := range []struct {
		name string
		env  map[string]string
		args []string
		code int
		want string
	}{
		{"spark without a remote", nil, []string{"--engine", "spark"}, ExitUsage, "the spark engine (--engine): no Spark Connect server: set --remote sc://HOST:PORT, $LAKTORY_SPARK_REMOTE or spark: {remote: sc://HOST:PORT} in laktory-workbench.yaml"},
		{"a remote without spark", nil, []string{"--remote", "sc://127.0.0.1:15002"}, ExitUsage, "add --engine spark"},
		{"an unknown engine", nil, []string{"--engine", "flink"}, ExitUsage, `--engine takes local or spark (got "flink")`},
		{"a bad --remote", nil, []string{"--engine", "spark", "--remote", "127.0.0.1:15002"}, ExitUsage, `"127.0.0.1:15002" is not a Spark Connect address`},
		{"a bad $LAKTORY_SPARK_REMOTE", map[string]string{"LAKTORY_SPARK_REMOTE": "host:1"}, []string{"--engine", "spark"}, ExitUsage, `$LAKTORY_SPARK_REMOTE: "host:1" is not a Spark Connect address`},
		{"--remote before $LAKTORY_SPARK_REMOTE", map[string]string{"LAKTORY_SPARK_REMOTE": "sc://127.0.0.1:1"}, []string{"--engine", "spark", "--remote", "x:1"}, ExitUsage, `--remote: "x:1" is not a Spark Connect address`},
	} {
		t.Run(c.name, func(t *testing.T) {
			code, _, stderr := runCLI(t, c.env, append([]string{"run", dir, "--yes"}, c.args...)...)
			if code != c.code || !strings.Contains(stderr, c.want) {
				t.Fatalf("exit %d, stderr %q; want %d and %q", code, stderr, c.code, c.want)
			}
		})
	}
}

// TestRunEngineConfig: the workbench config's engine and spark.remote
// choose the engine of a run when no flag (and, for the remote, no
// $LAKTORY_SPARK_REMOTE) does; messages name the line that chose; a
// config with errors refuses the run at its line.
func TestRunEngineConfig(t *testing.T) {
	dir := workspacetest.Demo(t)
	cfg := filepath.Join(dir, workspace.ConfigFileName)
	// Port 1 of the loopback: nothing listens, the connection is refused.
	const closed = "sc://127.0.0.1:1"
	for _, c := range []struct {
		name, config string
		env          map[string]string
		args         []string
		code         int
		want         string
	}{
		{"spark without a remote", "engine: spark\n", nil, nil, ExitUsage,
			"the spark engine (laktory-workbench.yaml:1): no Spark Connect server"},
		{"spark on the config's remote", "# the engine\nengine: spark\nspark:\n  remote: " + closed + "\n", nil, nil, ExitUsage,
			"the spark engine (chosen by laktory-workbench.yaml:2, its server set by laktory-workbench.yaml:4): spark connect: " + closed + ": "},
		{"$LAKTORY_SPARK_REMOTE before the config's remote", "engine: spark\nspark: {remote: 'sc://config:15002'}\n",
			map[string]string{"LAKTORY_SPARK_REMOTE": "env:1"}, nil, ExitUsage, `$LAKTORY_SPARK_REMOTE: "env:1" is not a Spark Connect address`},
		{"--engine before the config's engine", "engine: spark\n", nil, []string{"--engine", "local"}, ExitOK, "Dry run: nothing was changed."},
		{"--remote with the config's spark engine", "engine: spark\n", nil, []string{"--remote", closed}, ExitUsage,
			"the spark engine (chosen by laktory-workbench.yaml:1, its server set by --remote): spark connect: "},
		{"--remote with the config's local engine", "engine: local\n", nil, []string{"--remote", closed}, ExitUsage,
			"this run is local (laktory-workbench.yaml:1): add --engine spark"},
		{"the config's remote alone stays local", "spark: {remote: " + closed + "}\n", nil, nil, ExitOK, "Dry run: nothing was changed."},
		{"a bad engine in the config", "engine: sprak\n", nil, nil, ExitProblems, "1:9 error LK004 `engine` must be local or spark"},
		{"a bad remote in the config", "engine: spark\nspark: {remote: 'localhost:15002'}\n", nil, []string{"--remote", closed}, ExitProblems,
			`2:17 error LK004 ` + "`spark.remote`" + `: "localhost:15002" is not a Spark Connect address`},
	} {
		t.Run(c.name, func(t *testing.T) {
			if err := os.WriteFile(cfg, []byte(c.config), 0o644); err != nil {
				t.Fatal(err)
			}
			code, out, stderr := runCLI(t, c.env, append([]string{"plan", dir}, c.args...)...)
			if code != c.code || !strings.Contains(out+stderr, c.want) {
				t.Fatalf("exit %d, out %q, stderr %q; want %d and %q", code, out, stderr, c.code, c.want)
			}
		})
	}
}

// TestRunJSONEngine: run --json and plan --json name the engine of the run.
func TestRunJSONEngine(t *testing.T) {
	dir := workspacetest.Demo(t)
	for _, args := range [][]string{{"plan", dir, "-p", "pl-prices", "--json"}, {"run", dir, "-p", "pl-prices", "--json"}} {
		code, out, stderr := runCLI(t, nil, args...)
		var res runResult
		if err := json.Unmarshal([]byte(out), &res); err != nil || code != ExitOK || res.Engine != "local" || res.Remote != "" {
			t.Fatalf("%v: exit %d, %+v (%v)\n%s", args, code, res, err, stderr)
		}
	}
}
