package main

import (
	"context"
	"fmt"
	"os"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/lipgloss"
	"github.com/laktory/workbench/assets"
	"github.com/laktory/workbench/runner"
	"github.com/laktory/workbench/runner/engine"
	"github.com/laktory/workbench/runner/engine/spark"
	"github.com/laktory/workbench/runner/watch"
	"github.com/laktory/workbench/tui"
	"github.com/laktory/workbench/workspace"
	"github.com/laktory/workbench/workspace/human"
	"github.com/muesli/termenv"
	"github.com/spf13/cobra"
)

// tuiFlags are the flags of laktory tui.
type tuiFlags struct {
	workspaceFlags
	engineFlags
	demo  bool
	mouse bool
	watch bool
}

func init() {
	registerCommand("tui", func(a *app) *cobra.Command {
		var f tuiFlags
		cmd := &cobra.Command{
			Use:   "tui [DIR]",
			Short: "Open the workbench: live validation, the writer -> table graph, runs and tables",
			Long: `tui opens the workbench on the workspace DIR (default: the current folder),
to keep open beside the editor.

The left pane is the workspace tree (pipelines > nodes > sinks) with each
object's validation mark and the status of its last run. The tabs show:

  1 Graph     one column per table, one row per writing node; shared tables
              first; each mark shows how the writer owns its rows (writer id
              or where predicate), coloured by validation; the selected
              table's writers with their rows, orphan writer ids, readers
              and problems (J/K scroll it)
  2 Problems  the diagnostics by file, re-validated on every save; enter
              opens $EDITOR at the line
  3 Runs      the run in progress (tasks, the micro-batches of streaming
              flows, rows ForEach sinks processed, retries, deletions,
              warnings, summary) and the past runs, with their details
  4 Table     the selected table's versions, schema, partitioning, rows per
              writer, streaming writers (flows, checkpoints) and readers,
              and first rows

r runs the selection incrementally, a runs every pipeline incrementally, f
runs a FULL refresh (a writer of a shared table deletes only its own rows),
R resets (the picker starts on the least destructive choice); destructive
runs say what they delete and reset and which flows they run, and ask
first; x cancels. A run dialog shows the engine (--engine, else
laktory-workbench.yaml's engine, else local; spark on the Spark Connect
server of --remote, $LAKTORY_SPARK_REMOTE or the config's spark.remote,
as for laktory run) and e switches it (ctrl+e in the parameters form,
where e is text). The footer names what r/f/R act on: the tree's item, the
graph's writer, the selected problem's object. / searches the focused pane
(n/N next/previous match, esc clears).

w (or --watch) turns watch mode on: a new or changed file a source reads,
or a saved pipeline that validates, runs the nodes it affects
incrementally (debounced, one run at a time, changes coalesced); the
header says what it waits for. ? lists every key. --demo writes a fresh copy of the demo workspace to a new
temporary folder and opens it. NO_COLOR turns colours off; --mouse enables
the mouse (clicks on tabs and the tree, the wheel scrolls).`,
			Example: `  laktory tui
  laktory tui ./demo --env dev
  laktory tui --demo
  laktory tui --demo --watch
  EDITOR=vim laktory tui --mouse .`,
			Args: rangeArgs(0, 1),
			RunE: func(cmd *cobra.Command, args []string) error {
				if f.demo && len(args) > 0 {
					return usagef("--demo opens a fresh copy of the demo workspace: it takes no DIR (use laktory init --demo DIR to keep one)")
				}
				return a.tui(workspaceDir(args), f)
			},
		}
		cmd.Flags().BoolVar(&f.demo, "demo", false, "open a fresh copy of the demo workspace, written to a new temporary folder")
		cmd.Flags().BoolVar(&f.mouse, "mouse", false, "enable the mouse")
		cmd.Flags().BoolVar(&f.watch, "watch", false, "start with watch mode on (w toggles it): a new landing file or a saved pipeline runs the nodes it affects")
		f.engineFlags.register(cmd, "the run dialog's runs until e switches it")
		f.workspaceFlags.register(cmd)
		return cmd
	})
}

// writeDemo writes the demo workspace to a new temporary folder.
func (a *app) writeDemo() (string, error) {
	dir, err := os.MkdirTemp(a.getenv("TMPDIR"), "laktory-demo-")
	if err != nil {
		return "", fmt.Errorf("demo workspace: %w", err)
	}
	if err := assets.WriteTree(assets.Demo(), dir, false); err != nil {
		return "", fmt.Errorf("demo workspace: %w", err)
	}
	return dir, nil
}

// tui wires the workbench: the workspace and its watcher, the runner, the
// run history and the lake reader, then runs the program until it quits.
func (a *app) tui(dir string, f tuiFlags) error {
	if _, isFile := human.Unwrap(a.stdout).(*os.File); isFile && !isTerminal(a.stdout) {
		return usagef("laktory tui needs a terminal, and its output is not one: use laktory validate, graph, run or history in scripts")
	}
	if f.demo {
		var err error
		if dir, err = a.writeDemo(); err != nil {
			return err
		}
		fmt.Fprintf(a.stderr, "Wrote the demo workspace to %s\n", dir)
	}
	snap, err := a.loadWorkspace(dir, f.workspaceFlags)
	if err != nil {
		return err
	}
	engines, err := a.tuiEngines(f.engineFlags, snap.Config)
	if err != nil {
		return err
	}
	ctx, cancel := context.WithCancel(a.ctx)
	defer cancel()
	events, err := workspace.Watch(ctx, snap, workspace.WatchOptions{Debounce: tui.WatchDebounce})
	if err != nil {
		fmt.Fprintf(a.stderr, "laktory: live validation is off: %v\n", err)
		events = nil
	}
	r, err := runner.New(runner.Config{Threads: a.threads(), SchemaCache: a.schemaCache(), Sandbox: runner.Sandbox(snap)})
	if err != nil {
		return err
	}
	defer r.Close()
	lake := tui.NewLake(r.Tables()) // reads through the runner's database
	defer lake.Close()
	hist := tui.NewHistoryFile(snap.Layout.StateDB())
	defer hist.Close()

	noColor := a.getenv("NO_COLOR") != ""
	if noColor {
		// termenv turns NO_COLOR into no styling at all; keep bold and
		// reverse video, the palette has no colours.
		lipgloss.SetColorProfile(termenv.NewOutput(os.Stdout).ColorProfile())
	}
	editor := a.getenv("EDITOR")
	if editor == "" {
		editor = a.getenv("VISUAL")
	}
	local := &tui.LocalRunner{R: r}
	// The Spark engine, when a run dialog picks it: connected on the
	// first run there, closed when the program ends.
	runners := &tui.EngineRunners{
		Connect: func(ctx context.Context, remote string) (engine.Engine, error) {
			e, err := spark.Open(ctx, remote)
			if err != nil {
				return nil, err // not a typed nil
			}
			return e, nil
		},
		New: func(e engine.Engine) (*runner.Runner, error) {
			return runner.New(runner.Config{Threads: a.threads(), SchemaCache: a.schemaCache(), Sandbox: runner.Sandbox(snap), Engine: e})
		},
	}
	deps := tui.Deps{Context: ctx, Snapshot: snap, Events: events, Runner: local, Validator: local, SQL: r.SQL(), History: hist, Lake: lake,
		Engines: &tui.Engines{Settings: engines, Open: runners.Open}, Editor: editor, NoColor: noColor, Watch: f.watch}
	if data, err := watch.WatchSources(ctx, snap); err != nil {
		fmt.Fprintf(a.stderr, "laktory: watch mode does not see landing files: %v\n", err)
	} else {
		deps.Data = data
	}
	m := tui.New(deps)
	opts := []tea.ProgramOption{tea.WithContext(ctx), tea.WithInput(a.stdin), tea.WithOutput(human.Unwrap(a.stdout)), tea.WithAltScreen()}
	if f.mouse {
		opts = append(opts, tea.WithMouseCellMotion())
	}
	_, err = tea.NewProgram(m, opts...).Run()
	cancel() // stops a run still going, before its next commit
	local.Wait()
	if err := runners.Close(); err != nil {
		fmt.Fprintf(a.stderr, "laktory: closing the spark engine: %v\n", err)
	}
	if err != nil && a.ctx.Err() == nil {
		return fmt.Errorf("workbench: %w", err)
	}
	if f.demo {
		fmt.Fprintf(a.stdout, "The demo workspace is in %s (laktory tui %s opens it again)\n", dir, dir)
	}
	return nil
}

// tuiEngines are the settings the run dialog's engine choice starts on.
// What the flags set must be able to run, as for laktory run (with its
// messages); what only the config or $LAKTORY_SPARK_REMOTE set is the
// dialog's to report (the config may be fixed while the workbench is
// open). --remote without --engine spark is the server e switches to.
func (a *app) tuiEngines(f engineFlags, cfg *workspace.Config) (workspace.EngineSettings, error) {
	set, err := f.settings(a.getenv)
	if err != nil {
		return set, err
	}
	if f.remote != "" {
		if err := workspace.CheckSparkRemote(f.remote); err != nil {
			return set, usagef("--remote: %v", err)
		}
	}
	if set.Engine == engine.Spark {
		return set, sparkRefusal(workspace.ChooseEngine(set, cfg))
	}
	return set, nil
}
