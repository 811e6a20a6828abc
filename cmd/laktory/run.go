package main

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"os"
	"slices"
	"sort"
	"strings"
	"time"

	"github.com/mattn/go-isatty"
	"github.com/spf13/cobra"

	"github.com/laktory/workbench/runner"
	"github.com/laktory/workbench/runner/engine"
	"github.com/laktory/workbench/runner/engine/spark"
	"github.com/laktory/workbench/runner/history"
	"github.com/laktory/workbench/validate"
	"github.com/laktory/workbench/workspace"
	"github.com/laktory/workbench/workspace/human"
)

// runResult is the JSON form of `laktory run --json`.
type runResult struct {
	RunID   int64           `json:"run_id,omitempty"`
	Plan    *runner.Plan    `json:"plan,omitempty"`
	Summary *runner.Summary `json:"summary,omitempty"`
	// Diagnostics explain a run rejected before it started.
	Diagnostics []diagJSON `json:"diagnostics,omitempty"`
	// Declined is true when the user did not confirm a destructive run.
	Declined bool `json:"declined,omitempty"`
	// DryRun is true for laktory plan and run --dry-run: nothing ran.
	DryRun bool `json:"dry_run,omitempty"`
	// Engine is the engine of the run (or, dry, that would run it) and
	// Remote its Spark Connect server ("" for the local engine).
	Engine string `json:"engine,omitempty"`
	Remote string `json:"remote,omitempty"`
}

type runFlags struct {
	workspaceFlags
	pipelines   []string
	selectors   []string
	refresh     string
	fullRefresh bool
	resetMode   string
	parallel    int
	yes         bool
	overlap     bool
	takeLease   bool
	dryRun      bool
	watch       bool
	asJSON      bool
	strict      bool
	params      []string
	engineFlags
}

// engineFlags choose the engine (laktory run, plan and tui).
type engineFlags struct {
	engine, remote string
}

// register adds --engine and --remote; what they set is for
// ChooseEngine's "the engine" (of a run, or of the run dialog's runs).
func (f *engineFlags) register(cmd *cobra.Command, of string) {
	fl := cmd.Flags()
	fl.StringVar(&f.engine, "engine", "", "engine that executes "+of+": local (DuckDB) or spark (Apache Spark through Spark Connect, see --remote) (default: the engine of "+workspace.ConfigFileName+", else local)")
	fl.StringVar(&f.remote, "remote", "", "Spark Connect address sc://HOST:PORT of the spark engine (default: $"+workspace.SparkRemoteEnv+", else spark.remote in "+workspace.ConfigFileName+")")
	cmd.RegisterFlagCompletionFunc("engine", fixed(engine.Local, engine.Spark)) //nolint:errcheck // the flag exists
}

// settings are the flags and $LAKTORY_SPARK_REMOTE for
// workspace.ChooseEngine; an --engine that is neither local nor spark is
// refused.
func (f engineFlags) settings(getenv func(string) string) (workspace.EngineSettings, error) {
	name := strings.ToLower(f.engine)
	if name != "" && name != engine.Local && name != engine.Spark {
		return workspace.EngineSettings{}, usagef("--engine takes local or spark (got %q)", f.engine)
	}
	return workspace.EngineSettings{Engine: name, Remote: f.remote, EnvRemote: getenv(workspace.SparkRemoteEnv)}, nil
}

// register adds the flags that choose what a run does (laktory run and
// laktory plan).
func (f *runFlags) register(cmd *cobra.Command) {
	fl := cmd.Flags()
	fl.StringArrayVarP(&f.pipelines, "pipeline", "p", nil, "pipeline to run (repeatable; default: every pipeline)")
	fl.StringArrayVarP(&f.selectors, "select", "s", nil, "node selector: name or pipeline.node, *name (with upstream), name* (with downstream), a tag or a task name (repeatable)")
	fl.StringVarP(&f.refresh, "refresh", "r", "", "INCREMENTAL (default), FULL or RESET")
	fl.BoolVar(&f.fullRefresh, "full-refresh", false, "same as --refresh FULL (Laktory's spelling)")
	fl.StringVar(&f.resetMode, "reset-mode", "", "override the sinks' reset_mode: DROP or TRUNCATE (with FULL or RESET)")
	fl.IntVar(&f.parallel, "parallel", 0, "tasks running at once (default: the number of cores)")
	fl.BoolVar(&f.asJSON, "json", false, "print the plan (and the summary) as JSON")
	fl.BoolVar(&f.strict, "strict", false, "refuse to run what Laktory 0.13.1 rejects (orchestrator settings, the flow: and foreach: extensions)")
	fl.StringArrayVar(&f.params, "param", nil, "pipeline parameter NAME=VALUE, for ${params.NAME} (repeatable)")
	f.engineFlags.register(cmd, "the run")
	f.workspaceFlags.register(cmd)
	registerRunCompletions(cmd)
}

// request is the runner request of the flags; --full-refresh is --refresh
// FULL.
func (f *runFlags) request() (runner.Request, error) {
	refresh := f.refresh
	if f.fullRefresh {
		if refresh != "" && !strings.EqualFold(refresh, validate.RefreshFull) {
			return runner.Request{}, usagef("--full-refresh is --refresh FULL: it cannot be used with --refresh %s", refresh)
		}
		refresh = validate.RefreshFull
	}
	return runner.Request{Pipelines: nonNil(f.pipelines), Selectors: nonNil(f.selectors), Refresh: refresh, ResetMode: f.resetMode,
		Parallel: f.parallel, Strict: f.strict, AllowOverlap: f.overlap, TakeLease: f.takeLease}, nil
}

func init() {
	registerCommand("run", func(a *app) *cobra.Command {
		var f runFlags
		cmd := &cobra.Command{
			Use:   "run [DIR]",
			Short: "Run pipelines of a workspace locally against the Delta tables of its lake",
			Long: `run executes the selected nodes of the workspace DIR (default: the current
folder) against the local lake (DIR/.laktory/lake, --lake or $LAKTORY_LAKE):
one task per node, in parallel as the node graph allows, and records the run
in DIR/.laktory/state.db (see laktory history). The lake may be an S3 bucket
(--lake s3://BUCKET/PREFIX, or lake: in laktory-workbench.yaml; the endpoint,
region and credentials come from the AWS configuration): the same runs, with
the checkpoints and history still local (docs/object-storage.md).

--refresh INCREMENTAL (default) processes new data. FULL resets each sink and
reprocesses: a regular sink is reset with its reset_mode (default DROP); a
shared sink loses only its writer's rows (reset_mode does not apply). RESET
only resets. --reset-mode DROP|TRUNCATE overrides the reset: with RESET it
drops or truncates a whole shared table (and resets the checkpoints of all
its writers in the pipeline); FULL with an override is rejected on shared
sinks. Invalid combinations are rejected before anything runs.

Before a destructive run (FULL or RESET) the effects are listed: whose rows
are deleted and how many, which tables are dropped or truncated, which
checkpoints reset. On a terminal you confirm them (--yes skips the
question); without a terminal the run is refused unless --yes is given.
A step deleting rows that also match another writer's predicate (counted
before the run, again before the delete) is refused unless
--delete-overlapping is given, and a terminal still asks; --yes alone does
not acknowledge it. An OVERWRITE sink without shared on a table other
writers write is destructive too, in every refresh.
A refused or declined run changes nothing and exits 1.

Commits that conflict with concurrent writers are retried up to 5 times with
increasing delays. Ctrl-C cancels: a commit in progress is abandoned and
nothing of it is visible. The summary lists the rows written, the rows
deleted per writer, retries and warnings. The exit code is 1 when a task
failed (or the run was cancelled or rejected), 2 for bad usage.

Streaming nodes (as_stream) process what has arrived since their last run,
in micro-batches, from their checkpoints (DIR/.laktory/checkpoints); Delta
sinks are written exactly once. Declarative pipelines append through one
flow per node; ForEach sinks hand each row to their command or HTTP writer.
Not yet supported locally (the run is rejected, naming the node): MERGE and
VIEW sinks, Python sources and writers.

--engine spark --remote sc://HOST:PORT (or $LAKTORY_SPARK_REMOTE) executes the
run on Apache Spark 4.2 with Delta 4.4 through Spark Connect; the lake must be
a path the cluster sees, or a bucket (s3://) it reaches through s3a with hadoop-aws (refused, LK230,
when the server's Delta LogStore would not exclude the workbench's commits). Without the flags, engine: and spark: {remote: ...}
in laktory-workbench.yaml choose them (flags, then the environment, win). Declarative pipelines, ForEach, MERGE and file sinks
and declared source schemas are refused there before anything runs.

--watch stays after the run: a new or changed file that a source reads, or
a saved pipeline that validates, runs the nodes it affects (and their
readers) incrementally, debounced, one run at a time, until Ctrl-C.`,
			Example: `  laktory run
  laktory run ./my-workspace --pipeline pl-prices --select feed_a --refresh FULL
  laktory run --select pl-prices.feed_a --full-refresh --dry-run
  laktory run --select '*gold' --parallel 2
  laktory run --pipeline pl-client-acme --refresh RESET --reset-mode DROP --yes
  laktory run --json > run.json
  laktory run ./demo --watch
  laktory run -p pl-prices --engine spark --remote sc://127.0.0.1:15002`,
			Args: rangeArgs(0, 1),
			RunE: func(cmd *cobra.Command, args []string) error { return a.run(workspaceDir(args), f) },
		}
		f.register(cmd)
		cmd.Flags().BoolVarP(&f.yes, "yes", "y", false, "do not ask for confirmation before a destructive run")
		cmd.Flags().BoolVar(&f.overlap, "delete-overlapping", false, "acknowledge that a FULL refresh deletes rows that also match another writer's predicate (the plan lists them; a terminal still asks, --yes does not acknowledge them)")
		cmd.Flags().BoolVar(&f.takeLease, "take-lease", false, "with --engine spark on a bucket lake: take over at once the lease of a table another Spark-engine run left (killed), instead of waiting for its expiry")
		cmd.Flags().BoolVar(&f.dryRun, "dry-run", false, "print the plan and what it would delete, and change nothing (as laktory plan)")
		cmd.Flags().BoolVar(&f.watch, "watch", false, "after the run, run again (incrementally) the nodes a new landing file or a saved pipeline affects, until Ctrl-C")
		return cmd
	})
	registerCommand("plan", func(a *app) *cobra.Command {
		f := runFlags{dryRun: true}
		cmd := &cobra.Command{
			Use:   "plan [DIR]",
			Short: "Print what a run would do and delete, changing nothing",
			Long: `plan takes the flags of laktory run and prints the run's plan: its tasks
per pipeline, what it would delete or reset (whose rows and how many, which
tables are dropped or truncated, which streaming checkpoints are reset) and
its warnings. Nothing is run and no table, file or checkpoint is changed;
laktory run --dry-run is the same.

The exit code is 0 when the run would be accepted, 1 when the workspace
rejects it and 2 for bad usage.`,
			Example: `  laktory plan
  laktory plan ./demo --pipeline pl-prices --select feed_a --refresh FULL
  laktory plan --select pl-client-acme.orders --refresh RESET --reset-mode DROP --json`,
			Args: rangeArgs(0, 1),
			RunE: func(cmd *cobra.Command, args []string) error { return a.run(workspaceDir(args), f) },
		}
		f.register(cmd)
		return cmd
	})
}

func (a *app) run(dir string, f runFlags) error {
	if f.parallel < 0 {
		return usagef("--parallel must be 0 (the number of cores) or more (got %d)", f.parallel)
	}
	if f.watch && (f.asJSON || f.dryRun || f.fullRefresh || f.resetMode != "" || (f.refresh != "" && !strings.EqualFold(f.refresh, validate.RefreshIncremental))) {
		return usagef("--watch runs incrementally, again and again: it takes no --refresh FULL or RESET, --reset-mode, --dry-run or --json")
	}
	params, err := parseParams(f.params)
	if err != nil {
		return err
	}
	f.workspaceFlags.params = params
	snap, err := a.loadWorkspace(dir, f.workspaceFlags)
	if err != nil {
		return err
	}
	if ds := configErrors(snap); len(ds) > 0 {
		// The run is refused (as Plan refuses it), and the engine the
		// config chooses may be one of its errors.
		return a.planRejected(snap, dir, &runner.PlanError{Diagnostics: ds}, f.asJSON)
	}
	eng, err := a.openEngine(f, snap.Config)
	if err != nil {
		return err
	}
	info := engine.Info{Name: engine.Local}
	if eng != nil {
		defer eng.Close()
		info = eng.Info()
	}
	r, err := runner.New(runner.Config{Threads: a.threads(), SchemaCache: a.schemaCache(), Sandbox: runner.Sandbox(snap), Engine: eng})
	if err != nil {
		return err
	}
	defer r.Close()
	req, err := f.request()
	if err != nil {
		return err
	}
	plan, err := r.Plan(a.ctx, snap, req)
	if err != nil {
		return a.planRejected(snap, dir, err, f.asJSON)
	}
	out := a.stdout
	if f.asJSON {
		out = a.stderr // the JSON document alone goes to stdout
	}
	color := a.color(out)
	shown := warnings{}
	printPlan(out, snap, plan, color, f.dryRun, shown)
	if f.dryRun {
		fmt.Fprintln(out, "Dry run: nothing was changed.")
		if f.asJSON {
			return a.printJSON(runResult{Plan: plan, DryRun: true, Engine: info.Name, Remote: info.Remote})
		}
		return nil
	}
	if ov := plan.Overlapping(); len(ov) > 0 {
		if !f.overlap {
			fmt.Fprintf(a.stderr, "Refused: %d step(s) above would delete rows that also match another writer's predicate (%s). Nothing was changed: make the predicates disjoint, or run again with --delete-overlapping to delete them too.\n",
				len(ov), overlapSummary(ov))
			return a.declined(plan, f.asJSON)
		}
		if a.interactive() && !a.confirm(out) {
			fmt.Fprintln(out, "Not confirmed: nothing was changed.")
			return a.declined(plan, f.asJSON)
		}
	} else if plan.Destructive() && !f.yes {
		if !a.interactive() {
			fmt.Fprintln(a.stderr, "Refused: this run deletes, drops, truncates or resets what is listed above, and without a terminal it cannot be confirmed. Nothing was changed: run again with --yes to proceed.")
			return a.declined(plan, f.asJSON)
		}
		if !a.confirm(out) {
			fmt.Fprintln(out, "Not confirmed: nothing was changed.")
			return a.declined(plan, f.asJSON)
		}
	}
	sum, err := a.execute(r, plan, out, f.asJSON, shown, info)
	if err != nil {
		return err
	}
	if f.watch {
		return a.watchRuns(r, snap, plan, out, f, info)
	}
	if sum.Status != history.StatusSucceeded {
		return errProblems
	}
	return nil
}

// chooseEngine picks the engine and the remote of a run by
// workspace.ChooseEngine's rule, and refuses a choice that cannot run.
func (a *app) chooseEngine(f engineFlags, cfg *workspace.Config) (workspace.EngineChoice, error) {
	set, err := f.settings(a.getenv)
	if err != nil {
		return workspace.EngineChoice{}, err
	}
	c := workspace.ChooseEngine(set, cfg)
	switch {
	case c.Engine == engine.Local && f.remote != "":
		return c, usagef("--remote is the Spark Connect server of the spark engine, and this run is local (%s): add --engine spark, or drop --remote", c.EngineFrom)
	case c.Engine == engine.Spark:
		return c, sparkRefusal(c)
	}
	return c, nil
}

// sparkRefusal refuses the Spark engine of c when it cannot run there
// (nil when it can).
func sparkRefusal(c workspace.EngineChoice) error {
	if err := c.SparkProblem(); err != nil {
		return usagef("the spark engine (%s): %v", c.EngineFrom, err)
	}
	return nil
}

// configErrors are the errors of the workbench config of snap.
func configErrors(snap *workspace.Snapshot) []workspace.Diagnostic {
	var out []workspace.Diagnostic
	for _, d := range snap.Diagnostics {
		if snap.Config != nil && d.File == snap.Config.File && d.Severity == workspace.SeverityError {
			out = append(out, d)
		}
	}
	return out
}

// openEngine opens the engine chooseEngine picks: nil for the local one
// (the runner's own), or the Spark engine on its Spark Connect server,
// its versions checked.
func (a *app) openEngine(f runFlags, cfg *workspace.Config) (engine.Engine, error) {
	c, err := a.chooseEngine(f.engineFlags, cfg)
	if err != nil || c.Engine == engine.Local {
		return nil, err
	}
	e, err := spark.Open(a.ctx, c.Remote)
	if err != nil {
		return nil, fmt.Errorf("the spark engine (chosen by %s, its server set by %s): %w", c.EngineFrom, c.RemoteFrom, err)
	}
	return e, nil
}

// execute starts a plan on the runner's engine (info), shows its progress
// and prints its summary (or, asJSON, the plan and the summary as JSON).
func (a *app) execute(r *runner.Runner, plan *runner.Plan, out io.Writer, asJSON bool, shown warnings, info engine.Info) (runner.Summary, error) {
	run, err := r.Start(a.ctx, plan)
	if err != nil {
		return runner.Summary{}, err
	}
	var prog progress
	switch {
	case asJSON:
		prog = &quietProgress{}
	case a.color(out) && isTerminal(out):
		prog = newLiveProgress(out, plan, shown)
	default:
		prog = &lineProgress{w: out, shown: shown}
	}
	on := ""
	if info.Name != engine.Local {
		on = " on " + strings.TrimSpace(info.Name+" "+info.Remote)
	}
	fmt.Fprintf(out, "Run %d started%s (laktory history --run %d)\n", run.ID, on, run.ID)
	for e := range run.Events() {
		prog.event(e)
	}
	prog.done()
	sum, _ := run.Wait()
	if asJSON {
		return sum, a.printJSON(runResult{RunID: run.ID, Plan: plan, Summary: &sum, Engine: info.Name, Remote: info.Remote})
	}
	printSummary(out, sum, a.color(out), shown)
	return sum, nil
}

// declined ends a destructive run that was not confirmed: nothing ran,
// and the exit code is 1.
func (a *app) declined(plan *runner.Plan, asJSON bool) error {
	if asJSON {
		if err := a.printJSON(runResult{Plan: plan, Declined: true}); err != nil {
			return err
		}
	}
	return errProblems
}

// planRejected reports a run rejected before it started: diagnostics
// located in the workspace are problems (exit 1), bad flag values and
// unknown names are usage errors (exit 2).
func (a *app) planRejected(snap *workspace.Snapshot, dir string, err error, asJSON bool) error {
	var pe *runner.PlanError
	if !errors.As(err, &pe) {
		return err
	}
	located := false
	for _, d := range pe.Diagnostics {
		located = located || (d.Severity == workspace.SeverityError && d.File != "")
	}
	if asJSON {
		res := runResult{Diagnostics: []diagJSON{}}
		for _, d := range pe.Diagnostics {
			res.Diagnostics = append(res.Diagnostics, diagJSON{File: displayPath(snap, dir, d.File), Line: d.Line, Col: d.Col,
				Severity: d.Severity.String(), Code: d.Code, Message: d.Message, Hint: d.Hint})
		}
		if err := a.printJSON(res); err != nil {
			return err
		}
	} else {
		fmt.Fprintln(a.stderr, "The run was rejected before anything ran:")
		printDiagnostics(a.stderr, snap, dir, pe.Diagnostics, a.color(a.stderr))
	}
	if located {
		return errProblems
	}
	if asJSON {
		return usageError{errors.New("run rejected (see the diagnostics)")}
	}
	return usageError{errors.New("run rejected")}
}

// interactive reports whether a user can answer a question: stdin and
// stdout are terminals.
func (a *app) interactive() bool { return isTerminal(a.stdin) && isTerminal(a.stdout) }

func isTerminal(x any) bool {
	if w, ok := x.(io.Writer); ok {
		x = human.Unwrap(w)
	}
	f, ok := x.(*os.File)
	return ok && (isatty.IsTerminal(f.Fd()) || isatty.IsCygwinTerminal(f.Fd()))
}

// confirm asks whether to go on with a destructive run.
func (a *app) confirm(w io.Writer) bool {
	fmt.Fprint(w, "Proceed? [y/N] ")
	line, _ := bufio.NewReader(a.stdin).ReadString('\n')
	switch strings.ToLower(strings.TrimSpace(line)) {
	case "y", "yes":
		return true
	}
	return false
}

// warnings are the warnings printed so far in a run: each is printed once
// (the plan's, then the run's as they come, then the summary's others).
type warnings map[string]bool

// first reports whether msg was not printed yet, and marks it printed.
func (ws warnings) first(msg string) bool {
	if ws[msg] {
		return false
	}
	ws[msg] = true
	return true
}

// printPlan prints what the run will (or, dry, would) do: tasks,
// destructive effects and warnings (marked shown).
func printPlan(w io.Writer, snap *workspace.Snapshot, plan *runner.Plan, color, dry bool, shown warnings) {
	p := painter(color)
	mode := ""
	if plan.Params.ResetMode != "" {
		mode = ", reset_mode " + plan.Params.ResetMode
	}
	fmt.Fprintf(w, "%s %s: refresh %s%s\n", p.paint(ansiBold, "Plan"), plural(len(plan.Tasks), "task"), plan.Params.Refresh, mode)
	names := make([]string, 0, len(plan.Selection))
	for pl := range plan.Selection {
		names = append(names, pl)
	}
	sort.Strings(names)
	for _, pl := range names {
		fmt.Fprintf(w, "  %s: %s\n", pl, strings.Join(plan.Selection[pl], ", "))
	}
	if len(plan.Effects) > 0 {
		will := "This run will:"
		if dry {
			will = "This run would:"
		}
		fmt.Fprintln(w, p.paint(ansiBold+ansiYellow, will))
		for _, e := range plan.Effects {
			fmt.Fprintf(w, "  - %s  %s\n", e.Description, p.paint(ansiDim, "["+e.Task+"]"))
		}
	}
	for _, d := range plan.Warnings {
		if !shown.first(d.Message) {
			continue
		}
		fmt.Fprintf(w, "%s %s %s\n", p.paint(severityStyle(d.Severity), d.Severity.String()+":"), d.Message, p.paint(ansiDim, d.Code))
		if d.Hint != "" {
			fmt.Fprintf(w, "  %s %s\n", p.paint(ansiCyan, "hint:"), d.Hint)
		}
	}
}

// progress shows a run's events as they come.
type progress interface {
	event(e runner.Event)
	done()
}

type quietProgress struct{}

func (quietProgress) event(runner.Event) {}
func (quietProgress) done()              {}

// lineProgress prints one plain line per notable event (not a terminal).
type lineProgress struct {
	w     io.Writer
	shown warnings
}

func (l *lineProgress) event(e runner.Event) {
	if e.Kind == runner.EventWarning && !l.shown.first(e.Message) {
		return
	}
	if s := eventLine(e); s != "" {
		fmt.Fprintln(l.w, s)
	}
}

func (l *lineProgress) done() {}

// eventLine is the plain text of an event ("" for those not shown).
func eventLine(e runner.Event) string {
	switch e.Kind {
	case runner.EventTaskStarted:
		return e.Task + ": started"
	case runner.EventTaskProgress:
		if e.Message != "" {
			return e.Task + ": " + e.Message
		}
		return ""
	case runner.EventOperation, runner.EventDeleted:
		return e.Task + ": " + e.Message
	case runner.EventRetry:
		return fmt.Sprintf("%s: %s: %s", e.Task, e.Message, e.Err)
	case runner.EventWarning:
		if e.Task != "" {
			return e.Task + ": warning: " + e.Message
		}
		return "warning: " + e.Message
	case runner.EventTaskFinished:
		s := fmt.Sprintf("%s: %s", e.Task, e.Status)
		if e.Err != "" {
			s += ": " + e.Err
		} else if e.Message != "" {
			s += ": " + e.Message
		}
		return s
	}
	return ""
}

// liveProgress redraws one line per task below the log of notable events.
type liveProgress struct {
	w        io.Writer
	order    []string
	state    map[string]string
	finished map[string]bool
	writes   map[string]*writeState
	shown    warnings
	lines    int
	spin     int
}

// writeState is the write of a task in progress: the rows it writes
// (from the write phase) and when its data files started.
type writeState struct {
	total int64
	start time.Time
}

func newLiveProgress(w io.Writer, plan *runner.Plan, shown warnings) *liveProgress {
	l := &liveProgress{w: w, state: map[string]string{}, finished: map[string]bool{}, writes: map[string]*writeState{}, shown: shown}
	for _, t := range plan.Tasks {
		l.order = append(l.order, t.Key)
		l.state[t.Key] = ansiDim + "· queued" + ansiReset
	}
	return l
}

func (l *liveProgress) event(e runner.Event) {
	if l.lines > 0 {
		fmt.Fprintf(human.Unwrap(l.w), "\x1b[%dA\x1b[J", l.lines) // our cursor control, past the sanitizer
	}
	l.spin++
	spinner := string(`|/-\`[l.spin%4])
	switch e.Kind {
	case runner.EventTaskStarted:
		l.state[e.Task] = ansiCyan + spinner + " started" + ansiReset
	case runner.EventTaskProgress:
		s := ansiCyan + spinner + " " + e.Phase + ansiReset
		if text := l.progressText(e); text != "" {
			s += " " + text
		}
		l.state[e.Task] = s
	case runner.EventWarning:
		if l.shown.first(e.Message) {
			fmt.Fprintln(l.w, eventLine(e))
		}
	case runner.EventRetry, runner.EventDeleted, runner.EventOperation:
		fmt.Fprintln(l.w, eventLine(e))
	case runner.EventTaskFinished:
		switch e.Status {
		case history.StatusSucceeded:
			l.state[e.Task] = ansiBold + "✓ " + ansiReset + e.Message
		case history.StatusFailed:
			l.state[e.Task] = ansiBold + ansiRed + "✗ failed" + ansiReset
			fmt.Fprintln(l.w, eventLine(e))
		default:
			l.state[e.Task] = ansiYellow + string(e.Status) + ansiReset
		}
	}
	if e.Kind == runner.EventTaskFinished {
		l.finished[e.Task] = true
	}
	shown := l.order
	if len(l.order) > maxLiveTasks {
		// Many tasks: the unfinished ones (first maxLiveTasks), then a count.
		shown = nil
		for _, k := range l.order {
			if !l.finished[k] && len(shown) < maxLiveTasks {
				shown = append(shown, k)
			}
		}
	}
	width := 0
	for _, k := range shown {
		width = max(width, len(k))
	}
	for _, k := range shown {
		fmt.Fprintf(l.w, "  %-*s  %s\n", width, k, l.state[k])
	}
	l.lines = len(shown)
	if len(shown) < len(l.order) {
		fmt.Fprintf(l.w, "  %d of %d tasks done\n", len(l.finished), len(l.order))
		l.lines++
	}
}

// progressText is a task's progress: the rows of its phase, and while
// its data files are written, the rows and bytes so far and the rate.
func (l *liveProgress) progressText(e runner.Event) string {
	ws := l.writes[e.Task]
	switch {
	case e.Phase == "write" && e.Table == "":
		l.writes[e.Task] = &writeState{total: e.Rows, start: e.At}
	case e.Phase == "write" && ws != nil:
		return human.WriteProgress(e.Rows, ws.total, e.Bytes, e.At.Sub(ws.start))
	}
	if e.Rows > 0 {
		return human.Plural(e.Rows, "row")
	}
	return ""
}

// maxLiveTasks bounds the task lines the live progress redraws.
const maxLiveTasks = 12

func (l *liveProgress) done() {}

// printSummary prints the end of a run: per task, deletions per writer,
// retries and warnings.
func printSummary(w io.Writer, s runner.Summary, color bool, shown warnings) {
	p := painter(color)
	style := ansiBold
	switch s.Status {
	case history.StatusFailed:
		style += ansiRed
	case history.StatusCancelled:
		style += ansiYellow
	}
	fmt.Fprintf(w, "\n%s in %s: %s, %s written, %s deleted, %s, %s\n",
		p.paint(style, fmt.Sprintf("Run %d %s", s.RunID, s.Status)), human.Duration(s.EndedAt.Sub(s.StartedAt)),
		plural(len(s.Tasks), "task"), human.Plural(s.RowsWritten, "row"), human.Plural(s.RowsDeleted, "row"),
		human.Plural(int64(s.Retries), "retry"), plural(len(s.Warnings), "warning"))
	width := len("TASK")
	for _, t := range s.Tasks {
		width = max(width, len(t.Key))
	}
	fmt.Fprintf(w, "  %-*s  %-9s  %8s  %8s  %7s  %s\n", width, "TASK", "STATUS", "WRITTEN", "DELETED", "RETRIES", "TIME")
	for _, t := range s.Tasks {
		d := ""
		if !t.StartedAt.IsZero() && !t.EndedAt.IsZero() {
			d = human.Duration(t.EndedAt.Sub(t.StartedAt))
		}
		fmt.Fprintf(w, "  %-*s  %-9s  %8s  %8s  %7s  %s\n", width, t.Key, t.Status, human.Count(t.RowsWritten), human.Count(t.RowsDeleted),
			human.Count(int64(len(t.Retries))), d)
	}
	if len(s.Deletions) > 0 {
		fmt.Fprintln(w, p.paint(ansiBold, "Rows deleted per writer:"))
		for _, d := range s.Deletions {
			who := "writer '" + d.Writer + "'"
			if d.Writer == "" {
				who = "where " + d.Predicate
			}
			fmt.Fprintf(w, "  %s  %s: %s  %s\n", d.Table, who, human.Plural(d.Rows, "row"), p.paint(ansiDim, "["+d.Task+"]"))
		}
	}
	var merges []string
	for _, t := range s.Tasks {
		for _, m := range t.Merges {
			merges = append(merges, fmt.Sprintf("  %s  %s inserted, %s updated, %s deleted  %s", m.Table, human.Count(m.Inserted),
				human.Count(m.Updated), human.Count(m.Deleted), p.paint(ansiDim, fmt.Sprintf("[%s, SCD type %d]", t.Key, m.SCDType))))
		}
	}
	if len(merges) > 0 {
		fmt.Fprintln(w, p.paint(ansiBold, "Rows merged per MERGE sink:"))
		fmt.Fprintln(w, strings.Join(merges, "\n"))
	}
	var retries []string
	for _, t := range s.Tasks {
		for _, r := range t.Retries {
			retries = append(retries, fmt.Sprintf("  %s  attempt %d after %s: %s", t.Key, r.Attempt, human.Duration(r.Delay), r.Error))
		}
	}
	if len(retries) > 0 {
		fmt.Fprintln(w, p.paint(ansiBold, "Commit retries:"))
		fmt.Fprintln(w, strings.Join(retries, "\n"))
	}
	var left []string // the warnings not printed yet
	for _, m := range s.Warnings {
		if shown.first(m) {
			left = append(left, m)
		}
	}
	if len(left) > 0 {
		fmt.Fprintln(w, p.paint(ansiBold+ansiYellow, "Warnings:"))
		for _, m := range left {
			fmt.Fprintln(w, "  "+m)
		}
	}
	var failed []string
	for _, t := range s.Tasks {
		if t.Err != "" && t.Status != history.StatusSucceeded {
			failed = append(failed, fmt.Sprintf("  %s (%s): %s", t.Key, t.Status, t.Err))
		}
	}
	if len(failed) > 0 {
		fmt.Fprintln(w, p.paint(ansiBold+ansiRed, "Failures:"))
		fmt.Fprintln(w, strings.Join(failed, "\n"))
	}
}

// overlapSummary names, for each overlapping effect, the other writers
// and their row counts.
func overlapSummary(es []runner.Effect) string {
	var parts []string
	for _, e := range es {
		for _, o := range e.Overlaps {
			n := fmt.Sprintf("%d rows", o.Rows)
			if o.Rows < 0 {
				n = "an unknown number of rows"
			}
			parts = append(parts, fmt.Sprintf("%s: %s of writer %s", e.Task, n, o.Writer))
		}
	}
	return strings.Join(parts, "; ")
}

// parseParams reads --param NAME=VALUE flags.
func parseParams(flags []string) (map[string]string, error) {
	if len(flags) == 0 {
		return nil, nil
	}
	out := map[string]string{}
	for _, f := range flags {
		name, value, ok := strings.Cut(f, "=")
		if !ok || strings.TrimSpace(name) == "" {
			return nil, usagef("--param takes NAME=VALUE (got %q)", f)
		}
		out[strings.TrimSpace(name)] = value
	}
	return out, nil
}

// checkParams refuses a --param no pipeline declares, as Laktory's
// resolve_parameters refuses an unknown one.
func checkParams(snap *workspace.Snapshot, params map[string]string) error {
	declared := map[string]bool{}
	var names []string
	for _, p := range snap.Pipelines {
		for _, prm := range p.Parameters {
			if !declared[prm.Name] {
				declared[prm.Name] = true
				names = append(names, prm.Name)
			}
		}
	}
	for name := range params {
		if !declared[name] {
			if len(names) == 0 {
				return usagef("--param %s: no pipeline declares parameters", name)
			}
			slices.Sort(names)
			return usagef("--param %s: no pipeline declares it (declared parameters: %s)", name, strings.Join(names, ", "))
		}
	}
	return nil
}
