//go:build unix

package main

import (
	"bufio"
	"context"
	"errors"
	"io"
	"os"
	"os/exec"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/spf13/cobra"

	"github.com/laktory/workbench/workspace/workspacetest"
)

// envTestMain makes this test binary run the CLI (runMain, signals
// included) with the arguments it holds, separated by \x1f.
const envTestMain = "LAKTORY_TEST_MAIN"

// startCLI starts this test binary as laktory with args, in a process of
// its own (to signal it), and returns its stdout to read and its stderr.
func startCLI(ctx context.Context, t *testing.T, args ...string) (*exec.Cmd, io.Reader, *strings.Builder) {
	t.Helper()
	cmd := exec.CommandContext(ctx, os.Args[0], "-test.run=^$")
	cmd.Env = append(os.Environ(), envTestMain+"="+strings.Join(args, "\x1f"))
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	stderr := &strings.Builder{}
	cmd.Stderr = stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	return cmd, stdout, stderr
}

func TestMain(m *testing.M) {
	if args := os.Getenv(envTestMain); args != "" {
		registerStuck()
		os.Exit(runMain(strings.Split(args, "\x1f"), os.Stdin, os.Stdout, os.Stderr, os.Getenv))
	}
	os.Exit(m.Run())
}

// registerStuck adds, in the child process only, a command that ignores
// its context, as a command stuck in a loop would: the watchdog must end
// it.
func registerStuck() {
	registerCommand("zz-stuck", func(a *app) *cobra.Command {
		return &cobra.Command{Use: "zz-stuck", Hidden: true, RunE: func(*cobra.Command, []string) error {
			os.Stdout.WriteString("busy\n")
			select {}
		}}
	})
}

// slowWorkspace holds a node whose transformer keeps DuckDB busy for
// minutes.
func slowWorkspace(t *testing.T) string {
	dir := t.TempDir()
	workspacetest.Write(t, dir, map[string]string{"pipelines/pl.yaml": `name: pl
nodes:
- name: slow
  transformer:
    nodes:
    - expr: SELECT sum(a.id * b.id) AS n FROM range(1000000000) a, range(1000000) b
  sinks:
  - table_name: slow
    mode: APPEND
`})
	return dir
}

// TestSignalsEndCommands: SIGINT and SIGTERM end a busy command within
// about a second (stopGrace), a stuck one too, in a child process.
func TestSignalsEndCommands(t *testing.T) {
	if testing.Short() {
		t.Skip("starts child processes")
	}
	dir := slowWorkspace(t)
	tests := []struct {
		name  string
		args  []string
		ready string // a line of stdout saying the command is busy
		sig   syscall.Signal
	}{
		{"run, SIGTERM", []string{"run", dir}, "Run 1 started", syscall.SIGTERM},
		{"run, SIGINT", []string{"run", dir}, "started", syscall.SIGINT},
		{"a stuck command, SIGTERM", []string{"zz-stuck"}, "busy", syscall.SIGTERM},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
			defer cancel()
			cmd, stdout, stderr := startCLI(ctx, t, tt.args...)
			sc := bufio.NewScanner(stdout)
			ready := false
			for !ready && sc.Scan() {
				ready = strings.Contains(sc.Text(), tt.ready)
			}
			if !ready {
				cmd.Wait()
				t.Fatalf("the command ended before it was busy; stderr:\n%s", stderr.String())
			}
			time.Sleep(300 * time.Millisecond) // into the busy part
			sent := time.Now()
			cmd.Process.Signal(tt.sig)
			go func() {
				for sc.Scan() {
				}
			}()
			err := cmd.Wait()
			took := time.Since(sent)
			var ee *exec.ExitError
			if !errors.As(err, &ee) || ee.ExitCode() == 0 {
				t.Fatalf("exit %v, want a failure; stderr:\n%s", err, stderr.String())
			}
			// stopGrace bounds it; the margin is for a loaded machine.
			if took > stopGrace+1500*time.Millisecond {
				t.Fatalf("the command took %v to end after %v", took, tt.sig)
			}
			t.Logf("%v ended the command in %v (exit %d)", tt.sig, took.Round(time.Millisecond), ee.ExitCode())
		})
	}
}

// TestTerminalOutputIsPrintable: on a terminal (a pseudo-terminal made by
// script(1)), names holding escape sequences print as text; piped output
// keeps them byte for byte.
func TestTerminalOutputIsPrintable(t *testing.T) {
	script, err := exec.LookPath("script")
	if err != nil || testing.Short() {
		t.Skip("needs script(1) for a pseudo-terminal")
	}
	dir := t.TempDir()
	workspacetest.Write(t, dir, map[string]string{"pl.yaml": "name: \"pl\\e[2J\\e]0;pwned\\a\\e[5A\"\nnodes:\n- name: n\n  sinks:\n  - table_name: t\n    mode: APPEND\n"})
	out, err := exec.Command(script, "-qec", "env "+envTestMain+"=graph\x1f"+dir+" "+os.Args[0]+" -test.run=^$", "/dev/null").CombinedOutput()
	if err != nil {
		t.Fatalf("%v\n%s", err, out)
	}
	if strings.Contains(string(out), "\x1b[2J") || strings.Contains(string(out), "\x1b]0;") || strings.Contains(string(out), "\x1b[5A") {
		t.Fatalf("raw escape sequences reached the terminal:\n%q", out)
	}
	if !strings.Contains(string(out), `pl\x1b[2J\x1b]0;pwned\x07\x1b[5A`) {
		t.Fatalf("the hostile pipeline name is not shown as text:\n%q", out)
	}
	code, piped, _ := runCLI(t, nil, "graph", dir)
	if code != ExitOK || !strings.Contains(piped, "pl\x1b[2J\x1b]0;pwned\a\x1b[5A") {
		t.Fatalf("exit %d, piped output changed: %q", code, piped)
	}
}
