package main

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/laktory/workbench/workspace"
	"github.com/laktory/workbench/workspace/workspacetest"
)

// TestTUIDemo opens the workbench on --demo in-process, with "q" as the
// only input: the demo is written to a new folder under $TMPDIR, the
// program quits with 0 and says where the demo is.
func TestTUIDemo(t *testing.T) {
	tmp := t.TempDir()
	env := map[string]string{"TMPDIR": tmp}
	var out, errb bytes.Buffer
	code := Main(context.Background(), []string{"tui", "--demo"}, strings.NewReader("q"), &out, &errb,
		func(k string) string { return env[k] })
	if code != ExitOK {
		t.Fatalf("exit %d, stderr %q", code, errb.String())
	}
	m := regexp.MustCompile(`Wrote the demo workspace to (\S+)`).FindStringSubmatch(errb.String())
	if m == nil || !strings.HasPrefix(m[1], tmp) {
		t.Fatalf("stderr %q does not say where the demo was written (under %s)", errb.String(), tmp)
	}
	if _, err := os.Stat(filepath.Join(m[1], "pipelines", "pl-prices.yaml")); err != nil {
		t.Fatalf("demo not written: %v", err)
	}
	if !strings.Contains(out.String(), "The demo workspace is in "+m[1]) {
		t.Fatalf("the demo's folder is not repeated after the workbench closes: %q", out.String())
	}
}

func TestTUIUsageErrors(t *testing.T) {
	notTTY, err := os.Create(filepath.Join(t.TempDir(), "out"))
	if err != nil {
		t.Fatal(err)
	}
	defer notTTY.Close()
	tests := []struct {
		name   string
		args   []string
		stdout *os.File
		want   string
	}{
		{"demo takes no DIR", []string{"tui", "--demo", "x"}, nil, "takes no DIR"},
		{"missing folder", []string{"tui", filepath.Join(t.TempDir(), "nope")}, nil, "nope"},
		{"not a terminal", []string{"tui", "."}, notTTY, "needs a terminal"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var out, errb bytes.Buffer
			var stdout io.Writer = &out
			if tt.stdout != nil {
				stdout = tt.stdout
			}
			code := Main(context.Background(), tt.args, strings.NewReader("q"), stdout, &errb, func(string) string { return "" })
			if code != ExitUsage || !strings.Contains(errb.String(), tt.want) {
				t.Fatalf("exit %d, stderr %q; want %d and %q", code, errb.String(), ExitUsage, tt.want)
			}
		})
	}
}

// TestTUISmokeTmux runs the built binary in a real terminal (tmux): it
// opens the demo, draws the graph, takes keys (tabs, the tree, help, a
// run whose dialog switches to an unreachable Spark engine and back), quits
// with q and exits 0 with the terminal
// restored. It is skipped without tmux unless LAKTORY_REQUIRE_TMUX=1.
func TestTUISmokeTmux(t *testing.T) {
	tmuxPath, err := exec.LookPath("tmux")
	if err != nil {
		if os.Getenv("LAKTORY_REQUIRE_TMUX") == "1" {
			t.Fatal("tmux is required (LAKTORY_REQUIRE_TMUX=1) but not installed")
		}
		t.Skip("tmux is not installed")
	}
	dir := t.TempDir()
	bin := filepath.Join(dir, "laktory")
	build := exec.Command("go", "build", "-o", bin, ".")
	if out, err := build.CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	sock := filepath.Join(dir, "tmux.sock")
	tmux := func(args ...string) string {
		t.Helper()
		out, err := exec.Command(tmuxPath, append([]string{"-S", sock}, args...)...).CombinedOutput()
		if err != nil {
			t.Fatalf("tmux %v: %v\n%s", args, err, out)
		}
		return string(out)
	}
	defer exec.Command(tmuxPath, "-S", sock, "kill-server").Run()
	// A Spark Connect server nobody listens on (port 1 of the loopback):
	// the run dialog offers spark, and connecting fails at once.
	shell := fmt.Sprintf("env TMPDIR=%s TERM=xterm-256color LAKTORY_SPARK_REMOTE=sc://127.0.0.1:1 %s tui --demo; echo laktory-exit=$?; sleep 600", dir, bin)
	tmux("new-session", "-d", "-x", "120", "-y", "40", "-s", "smoke", shell)
	screen := func() string { return tmux("capture-pane", "-p", "-t", "smoke") }
	wait := func(what string) string {
		t.Helper()
		deadline := time.Now().Add(20 * time.Second)
		var s string
		for time.Now().Before(deadline) {
			if s = screen(); strings.Contains(s, what) {
				return s
			}
			time.Sleep(50 * time.Millisecond)
		}
		t.Fatalf("%q never showed; screen:\n%s", what, s)
		return ""
	}
	keys := func(k ...string) { tmux(append([]string{"send-keys", "-t", "smoke"}, k...)...) }

	wait("all_orders") // the graph
	wait("pl-prices.feed_a")
	if got := strings.TrimSpace(tmux("display", "-p", "-t", "smoke", "#{alternate_on}")); got != "1" {
		t.Fatalf("the workbench does not use the alternate screen (alternate_on=%s)", got)
	}
	keys("2")
	wait("LK151")
	keys("3")
	wait("Past runs")
	keys("4")
	wait("not written yet")
	keys("1", "Tab", "j", "j", "Tab")
	keys("?")
	wait("Panes and tabs")
	keys("?") // (Escape then a key would read as alt+key)
	// r on acme's writer: it streams its landing files into all_orders.
	// The dialog offers spark; e tries it and shows the connection error,
	// e again plans it locally, y runs it.
	keys("r")
	wait("incremental run of writer pl-client-acme.orders")
	wait("Engine ● local · ○ spark sc://127.0.0.1:1 ($LAKTORY_SPARK_REMOTE)")
	wait("y run · e engine") // planned
	keys("e")
	wait("Cannot use the spark engine for incremental run")
	wait("connection refused")
	keys("e")
	wait("y run · e engine") // planned again, locally
	wait("Engine ● local")
	keys("y")
	wait("Summary: succeeded")
	keys("q", "y") // y answers "quit while a run is in progress?" if asked
	s := wait("laktory-exit=")
	if !strings.Contains(s, "laktory-exit=0") {
		t.Fatalf("exit status not 0:\n%s", s)
	}
	if !strings.Contains(s, "Wrote the demo workspace to") || !strings.Contains(s, "The demo workspace is in") {
		t.Fatalf("the demo's folder is not shown on the restored screen:\n%s", s)
	}
	if got := strings.TrimSpace(tmux("display", "-p", "-t", "smoke", "#{alternate_on} #{cursor_flag} #{mouse_any_flag}")); got != "0 1 0" {
		t.Fatalf("terminal not restored: alternate_on cursor_flag mouse_any_flag = %q", got)
	}
}

// TestTUIEngineFlags: laktory tui takes --engine and --remote with laktory
// run's precedence and messages; what the flags set must run (--remote
// alone is the server the run dialog's e switches to), what only the
// config sets is left to the run dialog.
func TestTUIEngineFlags(t *testing.T) {
	for _, c := range []struct {
		name   string
		env    map[string]string
		config string
		f      engineFlags
		want   workspace.EngineSettings
		err    string // through laktory tui: refused before it opens
	}{
		{name: "an unknown engine", f: engineFlags{engine: "flink"}, err: `--engine takes local or spark (got "flink")`},
		{name: "spark without a remote", f: engineFlags{engine: "spark"},
			err: "the spark engine (--engine): no Spark Connect server: set --remote sc://HOST:PORT, $LAKTORY_SPARK_REMOTE or spark: {remote: sc://HOST:PORT} in laktory-workbench.yaml"},
		{name: "a bad --remote", f: engineFlags{remote: "x:1"}, err: `--remote: "x:1" is not a Spark Connect address`},
		{name: "a bad $LAKTORY_SPARK_REMOTE for --engine spark", env: map[string]string{"LAKTORY_SPARK_REMOTE": "host:1"}, f: engineFlags{engine: "spark"},
			err: `the spark engine (--engine): $LAKTORY_SPARK_REMOTE: "host:1" is not a Spark Connect address`},
		{name: "--remote alone", f: engineFlags{remote: "sc://flag:15002"}, want: workspace.EngineSettings{Remote: "sc://flag:15002"}},
		{name: "--engine spark on the config's server", config: "spark: {remote: 'sc://config:15002'}\n", f: engineFlags{engine: "SPARK"},
			want: workspace.EngineSettings{Engine: "spark"}},
		{name: "--remote before $LAKTORY_SPARK_REMOTE", env: map[string]string{"LAKTORY_SPARK_REMOTE": "sc://env:1"}, f: engineFlags{engine: "spark", remote: "sc://flag:1"},
			want: workspace.EngineSettings{Engine: "spark", Remote: "sc://flag:1", EnvRemote: "sc://env:1"}},
		{name: "the config's spark without a server is the dialog's", config: "engine: spark\n"},
	} {
		t.Run(c.name, func(t *testing.T) {
			dir := workspacetest.Demo(t)
			if c.config != "" {
				workspacetest.Write(t, dir, map[string]string{workspace.ConfigFileName: c.config})
			}
			if c.err != "" {
				args := []string{"tui", dir}
				if c.f.engine != "" {
					args = append(args, "--engine", c.f.engine)
				}
				if c.f.remote != "" {
					args = append(args, "--remote", c.f.remote)
				}
				code, _, stderr := runCLI(t, c.env, args...)
				if code != ExitUsage || !strings.Contains(stderr, c.err) {
					t.Fatalf("exit %d, stderr %q; want %d and %q", code, stderr, ExitUsage, c.err)
				}
				return
			}
			cfg, diags := workspace.ReadConfig(dir)
			if len(diags) > 0 {
				t.Fatal(diags)
			}
			a := &app{getenv: func(k string) string { return c.env[k] }}
			got, err := a.tuiEngines(c.f, cfg)
			if err != nil || got != c.want {
				t.Fatalf("tuiEngines = %+v, %v; want %+v", got, err, c.want)
			}
		})
	}
}
