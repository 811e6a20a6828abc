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
// (Deps.Runner) or Apache Spark through Spark Connect. The choice starts on
// the workbench config's `engine`; the Spark engine's server is EnvRemote,
// else the config's `spark.remote` (read from each snapshot, so an edit of
// the config applies to the next run).
type Engines struct {
	// EnvRemote is the Spark Connect server of the environment
	// ($LAKTORY_SPARK_REMOTE), which wins over the config's; "" for none.
	EnvRemote string
	// Open returns the runner on the Spark engine at remote, connecting
	// (and checking the server's versions) the first time. It is called in
	// commands, never in Update. EngineRunners.Open implements it.
	Open func(ctx context.Context, remote string) (Runner, error)
}

// RemoteEnv is the environment variable of EnvRemote, for messages.
const RemoteEnv = "LAKTORY_SPARK_REMOTE"

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
// user picked in this session, else the config's, else local.
func (m *Model) engines(snap *workspace.Snapshot) engineState {
	es := engineState{name: m.engine, nameFrom: "the run dialog"}
	cfg := snap.Config
	if es.name == "" {
		es.name, es.nameFrom = engine.Local, "default"
		if cfg != nil && cfg.Engine == engine.Spark {
			es.name, es.nameFrom = engine.Spark, fmt.Sprintf("%s:%d", workspace.ConfigFileName, cfg.Fields["engine"].Line)
		}
	}
	switch {
	case m.deps.Engines == nil:
		es.why = "this build runs locally only"
	case m.deps.Engines.EnvRemote != "":
		es.remote, es.from = m.deps.Engines.EnvRemote, "$"+RemoteEnv
	case cfg != nil && cfg.SparkRemote != "":
		es.remote, es.from = cfg.SparkRemote, fmt.Sprintf("%s:%d", workspace.ConfigFileName, cfg.Fields["spark.remote"].Line)
	default:
		es.why = fmt.Sprintf("no Spark Connect server: set spark: {remote: sc://HOST:PORT} in %s, or $%s", workspace.ConfigFileName, RemoteEnv)
	}
	if es.remote != "" {
		if err := workspace.CheckSparkRemote(es.remote); err != nil {
			es.why = es.from + ": " + err.Error()
		}
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
