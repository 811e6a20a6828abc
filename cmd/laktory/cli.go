package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"path/filepath"
	"sort"
	"strconv"
	"strings"

	"github.com/laktory/workbench/runner"
	"github.com/laktory/workbench/workspace/human"
	"github.com/spf13/cobra"
)

// Exit codes shared by every command.
const (
	ExitOK       = 0 // everything fine
	ExitProblems = 1 // the workspace or the run has errors
	ExitUsage    = 2 // bad usage or an internal error
)

// errProblems is returned by a command that completed its work but found
// errors in the workspace or the run (exit code 1). The command has already
// reported them.
var errProblems = errors.New("problems reported")

// usageError marks an error caused by how the command was called (exit code 2).
type usageError struct{ err error }

func (e usageError) Error() string { return e.err.Error() }
func (e usageError) Unwrap() error { return e.err }

func usagef(format string, args ...any) error { return usageError{fmt.Errorf(format, args...)} }

// app carries the process environment into commands, so tests can run the
// CLI in-process with their own streams and environment.
type app struct {
	ctx    context.Context
	stdin  io.Reader
	stdout io.Writer
	stderr io.Writer
	getenv func(string) string
}

// commandFactory builds one top-level command. Each command lives in its own
// file and registers its factory in an init function.
type commandFactory func(a *app) *cobra.Command

var commandFactories = map[string]commandFactory{}

func registerCommand(name string, f commandFactory) {
	if _, dup := commandFactories[name]; dup {
		panic("command registered twice: " + name)
	}
	commandFactories[name] = f
}

// Main runs the CLI and returns the process exit code. Output to a
// terminal goes through human.Writer: names, messages and data never print
// raw control characters there (piped output is left byte for byte).
func Main(ctx context.Context, args []string, stdin io.Reader, stdout, stderr io.Writer, getenv func(string) string) int {
	a := &app{ctx: ctx, stdin: stdin, stdout: terminalSafe(stdout), stderr: terminalSafe(stderr), getenv: getenv}
	if err := runner.CheckFailPoint(getenv(runner.FailPointEnv)); err != nil {
		return a.exitCode(err)
	}
	if _, err := parseThreads(getenv(threadsEnv)); err != nil {
		return a.exitCode(err)
	}
	root := a.rootCommand()
	root.SetArgs(args)
	err := root.ExecuteContext(ctx)
	return a.exitCode(err)
}

func (a *app) exitCode(err error) int {
	switch {
	case err == nil:
		return ExitOK
	case errors.Is(err, errProblems):
		return ExitProblems
	default:
		fmt.Fprintf(a.stderr, "laktory: %v\n", err)
		return ExitUsage
	}
}

func (a *app) rootCommand() *cobra.Command {
	root := &cobra.Command{
		Use:   "laktory",
		Short: "A local workbench for Laktory pipelines",
		Long: `laktory validates a workspace of Laktory pipeline YAML files, draws which
nodes and pipelines write which tables (and who owns which rows of a shared
table), and runs refreshes locally against Delta Lake tables on disk.`,
		Example: `  laktory init --demo ./demo     # write the demo workspace
  laktory version --json`,
		Version:       versionString(),
		SilenceUsage:  true,
		SilenceErrors: true,
	}
	root.SetIn(a.stdin)
	root.SetOut(a.stdout)
	root.SetErr(a.stderr)
	root.SetVersionTemplate("laktory {{.Version}}\n")
	root.SetFlagErrorFunc(func(c *cobra.Command, err error) error {
		//lint:ignore ST1005 the usage hint is a line of its own, printed as cobra prints it
		return usageError{fmt.Errorf("%w\nRun '%s --help' for usage.", err, c.CommandPath())}
	})
	names := make([]string, 0, len(commandFactories))
	for n := range commandFactories {
		names = append(names, n)
	}
	sort.Strings(names)
	for _, n := range names {
		root.AddCommand(commandFactories[n](a))
	}
	return root
}

// exactArgs and rangeArgs wrap cobra's validators so a wrong argument count is
// a usage error (exit code 2).
func rangeArgs(min, max int) cobra.PositionalArgs {
	return func(cmd *cobra.Command, args []string) error {
		if err := cobra.RangeArgs(min, max)(cmd, args); err != nil {
			//lint:ignore ST1005 the usage hint is a line of its own, printed as cobra prints it
			return usageError{fmt.Errorf("%w\nRun '%s --help' for usage.", err, cmd.CommandPath())}
		}
		return nil
	}
}

// schemaCache is the folder where validation keeps the schemas it read
// and the nodes it bound, so a second laktory validate of unchanged files
// reads and binds nothing: $XDG_CACHE_HOME/laktory/schemaflow, else
// $HOME/.cache/laktory/schemaflow ("" without either: no cache).
func (a *app) schemaCache() string {
	base := a.getenv("XDG_CACHE_HOME")
	if base == "" && a.getenv("HOME") != "" {
		base = filepath.Join(a.getenv("HOME"), ".cache")
	}
	if base == "" {
		return ""
	}
	return filepath.Join(base, "laktory", "schemaflow")
}

// threadsEnv sets the runner's DuckDB threads (runner.Config.Threads).
const threadsEnv = "LAKTORY_THREADS"

// errThreads is a LAKTORY_THREADS that is not a number of threads.
var errThreads = errors.New("is not a number of threads (unset or 0: DuckDB's default, one per core)")

// parseThreads reads LAKTORY_THREADS: unset or 0, DuckDB's default (one
// per core); any other value than a number of threads is refused by every
// command (exit 2), as a misspelt fail point is, rather than run with
// another setting than the one asked for.
func parseThreads(v string) (int, error) {
	v = strings.TrimSpace(v)
	if v == "" {
		return 0, nil
	}
	n, err := strconv.Atoi(v)
	if err != nil || n < 0 {
		return 0, fmt.Errorf("%s=%q %w", threadsEnv, v, errThreads)
	}
	return n, nil
}

// threads is the runner's DuckDB threads from LAKTORY_THREADS, which Main
// checked.
func (a *app) threads() int {
	n, _ := parseThreads(a.getenv(threadsEnv))
	return n
}

// color reports whether output to w may use ANSI colours: not when NO_COLOR
// is set (https://no-color.org) nor when w is not a terminal.
func (a *app) color(w io.Writer) bool {
	if a.getenv("NO_COLOR") != "" {
		return false
	}
	if a.getenv("TERM") == "dumb" {
		return false
	}
	return isTerminal(w)
}

// terminalSafe wraps a terminal in human.Writer.
func terminalSafe(w io.Writer) io.Writer {
	if isTerminal(w) {
		return human.Writer(w)
	}
	return w
}

// printJSON writes v as indented JSON followed by a newline.
func (a *app) printJSON(v any) error {
	enc := json.NewEncoder(a.stdout)
	enc.SetIndent("", "  ")
	return enc.Encode(v)
}

// workspaceDir returns the workspace folder from the optional DIR argument
// (default: the current folder).
func workspaceDir(args []string) string {
	if len(args) > 0 && args[0] != "" {
		return args[0]
	}
	return "."
}
