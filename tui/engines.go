package tui

import (
	"context"
	"errors"
	"fmt"
	"sync"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/laktory/workbench/runner"
	"github.com/laktory/workbench/runner/engine"
	"github.com/laktory/workbench/workspace"
)

// Engines lets each run choose its engine in the run dialog: the local one
// (Deps.Runner) or Apache Spark through Spark Connect. The choice starts
// where workspace.ChooseEngine puts it (the flags, $LAKTORY_SPARK_REMOTE,
// the workbench config, read from each snapshot, so an edit of the config
// applies to the next run) until the dialog switches it.
type Engines struct {
	// Settings are the flags and the environment the choice starts on
	// (they win over the config's).
	Settings workspace.EngineSettings
	// Open returns the runner on the Spark engine at remote, connecting
	// (and checking the server's versions) the first time. It is called in
	// commands, never in Update. EngineRunners.Open implements it.
	Open func(ctx context.Context, remote string) (Runner, error)
}

// engineState is what the run dialog shows of the engines.
type engineState struct {
	// name is the chosen engine (engine.Local or engine.Spark), nameFrom
	// what chose it (the config's line, the run dialog).
	name, nameFrom string
	// remote is the Spark engine's server and from where it is set; why
	// says why the Spark engine cannot be chosen ("" when it can).
	remote, from, why string
}

// engines returns the engine choice of the next run on snap: the one the
// user picked in this session, else workspace.ChooseEngine's.
func (m *Model) engines(snap *workspace.Snapshot) engineState {
	var set workspace.EngineSettings
	if m.deps.Engines != nil {
		set = m.deps.Engines.Settings
	}
	c := workspace.ChooseEngine(set, snap.Config)
	es := engineState{name: c.Engine, nameFrom: c.EngineFrom, remote: c.Remote, from: c.RemoteFrom}
	if m.engine != "" {
		es.name, es.nameFrom = m.engine, "the run dialog"
	}
	if m.deps.Engines == nil {
		es.why = "this build runs locally only"
	} else if err := c.SparkProblem(); err != nil {
		es.why = err.Error()
	}
	return es
}

// offersSpark reports whether runs may go to Spark: then even a run that
// deletes nothing shows its dialog, where the engine is chosen.
func (es engineState) offersSpark() bool { return es.why == "" }

// lines are the dialog's lines on the engines: the chosen one marked, the
// Spark engine's server and where it is set, or why it cannot be chosen.
func (es engineState) lines(st *Styles) []string {
	mark := func(name string) string {
		if es.name == name {
			return st.Bold.Render("● " + name)
		}
		return "○ " + name
	}
	spark := mark(engine.Spark) + " " + es.remote + st.Dim.Render(" ("+es.from+")")
	if es.why != "" {
		spark = st.Dim.Render("○ spark: " + es.why)
		if es.name == engine.Spark {
			spark = st.Error.Render("● spark: " + es.why)
		}
	}
	return []string{"Engine " + mark(engine.Local) + " · " + spark}
}

// onEngine names a run's engine in its title: "" for the local one, " on
// spark sc://HOST:PORT".
func onEngine(name string, es engineState) string {
	if name != engine.Spark {
		return ""
	}
	return " on spark " + es.remote
}

// planCmd plans req on snap with the chosen engine, in a command: on the
// Spark engine it connects first (the opener keeps the connection).
func (m *Model) planCmd(token int, snap *workspace.Snapshot, req runner.Request) tea.Cmd {
	es := m.engines(snap)
	if es.name == engine.Local {
		return planCmd(m.ctx, m.deps.Runner, engine.Local, token, snap, req)
	}
	if es.why != "" {
		err := fmt.Errorf("%w (chosen by %s): %s", ErrEngineUnavailable, es.nameFrom, es.why)
		return func() tea.Msg { return planMsg{token: token, engine: es.name, err: err, connect: true} }
	}
	ctx, open := m.ctx, m.deps.Engines.Open
	return func() tea.Msg {
		r, err := open(ctx, es.remote)
		if err != nil {
			return planMsg{token: token, engine: es.name, err: fmt.Errorf("spark at %s (from %s): %w", es.remote, es.from, err), connect: true}
		}
		return planCmd(ctx, r, es.name, token, snap, req)()
	}
}

// EngineRunners opens the runners of the Spark engine for the run dialog
// (Engines.Open), one per Spark Connect server, and keeps them until
// Close. Safe for concurrent use.
type EngineRunners struct {
	// Connect opens the engine at remote (the Spark engine's Open, which
	// checks the server's versions).
	Connect func(ctx context.Context, remote string) (engine.Engine, error)
	// New builds a runner on an engine (runner.New with the workbench's
	// configuration and Engine set).
	New func(e engine.Engine) (*runner.Runner, error)

	mu      sync.Mutex
	runners map[string]*LocalRunner
	engines []engine.Engine
	closed  bool
}

// Open implements Engines.Open. A failed connection is not kept: the next
// run tries again.
func (er *EngineRunners) Open(ctx context.Context, remote string) (Runner, error) {
	er.mu.Lock()
	defer er.mu.Unlock()
	if er.closed {
		return nil, fmt.Errorf("engine %s: %w", remote, ErrClosed)
	}
	if r, ok := er.runners[remote]; ok {
		return r, nil
	}
	e, err := er.Connect(ctx, remote)
	if err != nil {
		return nil, err
	}
	r, err := er.New(e)
	if err != nil {
		return nil, errors.Join(err, e.Close())
	}
	if er.runners == nil {
		er.runners = map[string]*LocalRunner{}
	}
	er.runners[remote] = &LocalRunner{R: r}
	er.engines = append(er.engines, e)
	return er.runners[remote], nil
}

// Close waits for the runs started on the engines (cancel them first),
// then closes the runners and the engines.
func (er *EngineRunners) Close() error {
	er.mu.Lock()
	defer er.mu.Unlock()
	er.closed = true
	var errs []error
	for _, r := range er.runners {
		r.Wait()
		errs = append(errs, r.R.Close())
	}
	for _, e := range er.engines {
		errs = append(errs, e.Close())
	}
	er.runners, er.engines = nil, nil
	return errors.Join(errs...)
}
