package tui

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"sync"
	"testing"

	"github.com/charmbracelet/x/exp/golden"
	"github.com/charmbracelet/x/exp/teatest"
	"github.com/laktory/workbench/runner"
	"github.com/laktory/workbench/runner/engine"
	"github.com/laktory/workbench/runner/history"
	"github.com/laktory/workbench/validate"
	"github.com/laktory/workbench/workspace"
	"github.com/laktory/workbench/workspace/workspacetest"
)

// fakeOpener is Engines.Open over a fake runner on Spark: it counts the
// connections and fails with err when set.
type fakeOpener struct {
	mu      sync.Mutex
	remotes []string
	r       *fakeRunner
	err     error
}

func (o *fakeOpener) open(ctx context.Context, remote string) (Runner, error) {
	o.mu.Lock()
	defer o.mu.Unlock()
	o.remotes = append(o.remotes, remote)
	if o.err != nil {
		return nil, o.err
	}
	return o.r, nil
}

func (o *fakeOpener) calls() int {
	o.mu.Lock()
	defer o.mu.Unlock()
	return len(o.remotes)
}

// engineApp is the demo workbench with config as its laktory-workbench.yaml
// ("" for none), the engines of set (the flags, the environment) and a fake
// runner on each engine.
func engineApp(t testing.TB, w, h int, config string, set workspace.EngineSettings, openErr error) (Model, *fakeRunner, *fakeOpener) {
	t.Helper()
	dir := workspacetest.Demo(t)
	if config != "" {
		workspacetest.Write(t, dir, map[string]string{workspace.ConfigFileName: config})
	}
	s := workspacetest.LoadDir(t, dir, workspace.Options{})
	local := &fakeRunner{plan: fullPlan(t, s)}
	op := &fakeOpener{r: &fakeRunner{plan: fullPlan(t, s)}, err: openErr}
	m := app(t, s, Deps{Lake: demoLake(t, s), History: demoHistory(), Runner: local, Engines: &Engines{Settings: set, Open: op.open}})
	m = run(t, m, size(w, h))
	for _, msg := range execCmd(m.Init()) {
		m = run(t, m, msg)
	}
	return selectLane(t, selectRow(t, m, "pl-prices.feed_a"), "prices"), local, op
}

const sparkConfig = "# the run dialog's engines\nspark:\n  remote: sc://127.0.0.1:15002\n"

// TestEngineDialogGolden: the run dialog shows the engine choice: local
// chosen, the Spark engine with its server and where it is set, or why it
// cannot be chosen; on Spark the plan and the title say so; a connection or
// version error is the dialog's message.
func TestEngineDialogGolden(t *testing.T) {
	versionErr := fmt.Errorf("spark connect: unsupported Spark or Delta version: the server runs Spark 4.3.0 with Delta (none: the server has no Delta Lake); " +
		"the Spark engine needs Spark 4.2.x with Delta 4.4.x")
	for _, sz := range []struct{ w, h int }{{80, 24}, {120, 40}} {
		for _, c := range []struct {
			name, config string
			set          workspace.EngineSettings
			err          error
			keys         []string
		}{
			{name: "confirm_local", config: sparkConfig, keys: []string{"f"}},
			{name: "confirm_spark", config: sparkConfig, keys: []string{"f", "e"}},
			{name: "incremental_spark_env", set: workspace.EngineSettings{EnvRemote: "sc://spark.example:15002"}, config: "engine: spark\n", keys: []string{"r"}},
			// laktory tui --engine spark --remote: the flags win over the
			// environment and the config, and the dialog says so.
			{name: "flags", set: workspace.EngineSettings{Engine: "spark", Remote: "sc://flag.example:15002", EnvRemote: "sc://spark.example:15002"},
				config: "engine: local\n" + sparkConfig, keys: []string{"f"}},
			{name: "flag_engine_bad_env", set: workspace.EngineSettings{Engine: "spark", EnvRemote: "host:1"}, keys: []string{"f"}},
			{name: "spark_unavailable", keys: []string{"f"}},
			{name: "config_spark_without_server", config: "engine: spark\n", keys: []string{"f"}},
			{name: "reset_picker", config: sparkConfig, keys: []string{"R", "e"}},
			{name: "version_error", config: sparkConfig, err: versionErr, keys: []string{"f", "e"}},
		} {
			t.Run(fmt.Sprintf("%s_%dx%d", c.name, sz.w, sz.h), func(t *testing.T) {
				m, _, _ := engineApp(t, sz.w, sz.h, c.config, c.set, c.err)
				for _, k := range c.keys {
					m = run(t, m, keys(k))
				}
				golden.RequireEqual(t, viewText(m))
			})
		}
	}
}

// TestEngineSwitch: e in the run dialog plans the run again on the other
// engine, connecting in a command (never in Update); y starts it on the
// runner that planned it; the choice stays for the next runs.
func TestEngineSwitch(t *testing.T) {
	m, local, op := engineApp(t, 120, 40, sparkConfig, workspace.EngineSettings{}, nil)
	m = run(t, m, keys("f"))
	if m.dialog == nil || m.dialog.kind != dlgConfirm || len(local.plans) != 1 || op.calls() != 0 {
		t.Fatalf("f: dialog %+v, %d local plans, %d connections", m.dialog, len(local.plans), op.calls())
	}
	m = step(t, m, keys("e")) // Update alone: no connection yet
	if op.calls() != 0 || m.dialog.kind != dlgPlanning || !strings.Contains(strings.Join(m.dialog.body, " "), "on Spark at sc://127.0.0.1:15002 (from laktory-workbench.yaml:3): the first run there connects") {
		t.Fatalf("e connected in Update (%d) or shows no connection:\n%s", op.calls(), viewText(m))
	}
	m, local, op = engineApp(t, 120, 40, sparkConfig, workspace.EngineSettings{}, nil)
	m = run(t, run(t, m, keys("f")), keys("e"))
	if op.calls() != 1 || op.remotes[0] != "sc://127.0.0.1:15002" || len(op.r.plans) != 1 || m.dialog.kind != dlgConfirm ||
		!strings.HasSuffix(m.dialog.title, " on spark sc://127.0.0.1:15002") {
		t.Fatalf("e: %d connections %v, %d spark plans, dialog %+v", op.calls(), op.remotes, len(op.r.plans), m.dialog)
	}
	m = run(t, m, keys("y"))
	if len(op.r.started) != 1 || m.runs.live == nil || !strings.Contains(m.runs.live.target, "on spark sc://127.0.0.1:15002") {
		t.Fatalf("y: %d started on spark, live %+v", len(op.r.started), m.runs.live)
	}
	m = step(t, m, runClosedMsg{token: m.runs.live.token})
	// The next run stays on Spark; even an incremental one asks, to show it.
	m = run(t, m, keys("r"))
	if len(op.r.plans) != 2 || op.r.plans[1].Refresh != validate.RefreshIncremental || m.dialog == nil || m.dialog.kind != dlgConfirm {
		t.Fatalf("r: %d spark plans, dialog %+v", len(op.r.plans), m.dialog)
	}
	m = run(t, m, keys("e"))
	if len(local.plans) != 2 || m.dialog.kind != dlgConfirm || strings.Contains(m.dialog.title, "spark") {
		t.Fatalf("e back: %d local plans, dialog %+v", len(local.plans), m.dialog)
	}
}

// TestEngineUnavailable: without a server the Spark engine cannot be
// picked (the status says why) and an incremental run starts locally
// without a dialog, as without engines; the config's engine: spark without
// a server refuses the run in the dialog, and e runs it locally.
func TestEngineUnavailable(t *testing.T) {
	m, local, op := engineApp(t, 120, 40, "", workspace.EngineSettings{}, nil)
	m = run(t, run(t, m, keys("f")), keys("e"))
	if op.calls() != 0 || m.dialog == nil || m.dialog.kind != dlgConfirm || !m.errOn || !strings.Contains(m.status, "no Spark Connect server") {
		t.Fatalf("e without a server: %d connections, dialog %+v, status %q", op.calls(), m.dialog, m.status)
	}
	m = run(t, m, keys("esc"))
	m = run(t, m, keys("r"))
	if len(local.started) != 1 || m.dialog != nil {
		t.Fatalf("r: %d started, dialog %+v", len(local.started), m.dialog)
	}

	m, local, _ = engineApp(t, 120, 40, "engine: spark\n", workspace.EngineSettings{}, nil)
	m = run(t, m, keys("r"))
	if m.dialog == nil || m.dialog.kind != dlgMessage || len(local.plans) != 0 || !strings.Contains(strings.Join(m.dialog.body, "\n"), "no Spark Connect server") {
		t.Fatalf("engine: spark without a server: %d local plans, dialog %+v", len(local.plans), m.dialog)
	}
	m = run(t, m, keys("e"))
	if len(local.plans) != 1 || len(local.started) != 1 {
		t.Fatalf("e: %d local plans, %d started", len(local.plans), len(local.started))
	}
}

// TestEngineConnectError: a connection or version error is shown in the
// dialog, nothing starts, and the next run connects again.
func TestEngineConnectError(t *testing.T) {
	m, _, op := engineApp(t, 120, 40, sparkConfig, workspace.EngineSettings{}, errors.New("unsupported Spark or Delta version: the server runs Spark 4.3.0"))
	m = run(t, run(t, m, keys("f")), keys("e"))
	if m.dialog == nil || m.dialog.kind != dlgMessage || !strings.Contains(viewText(m), "the server runs Spark 4.3.0") || len(op.r.started) != 0 {
		t.Fatalf("the error is not shown:\n%s", viewText(m))
	}
	m = run(t, m, keys("esc"))
	m = run(t, m, keys("f"))
	if op.calls() != 2 {
		t.Fatalf("%d connections, want a second try", op.calls())
	}
}

// sparkNamed is an engine under the Spark engine's name whose sessions
// cannot open: what the runner records of a run there, without Spark.
type sparkNamed struct {
	remote string
	mu     sync.Mutex
	closed int
}

func (e *sparkNamed) Info() engine.Info {
	return engine.Info{Name: engine.Spark, Remote: e.remote, Version: "Spark 4.2.0, Delta 4.4.0"}
}
func (e *sparkNamed) Open(ctx context.Context) (engine.Session, error) {
	return nil, errors.New("fake spark: no cluster behind this engine")
}
func (e *sparkNamed) Unshare(ctx context.Context, rel string) error { return nil }
func (e *sparkNamed) Close() error {
	e.mu.Lock()
	defer e.mu.Unlock()
	e.closed++
	return nil
}

// TestEngineRunners: one runner per server, on the engine it connected
// (the runner refuses what that engine does not run); a failed connection
// is not kept; Close closes the engines, and Open after it fails.
func TestEngineRunners(t *testing.T) {
	var connects []string
	var engines []*sparkNamed
	er := &EngineRunners{
		Connect: func(ctx context.Context, remote string) (engine.Engine, error) {
			connects = append(connects, remote)
			if strings.Contains(remote, "down") {
				return nil, errors.New("connection refused")
			}
			e := &sparkNamed{remote: remote}
			engines = append(engines, e)
			return e, nil
		},
		New: func(e engine.Engine) (*runner.Runner, error) { return runner.New(runner.Config{Engine: e}) },
	}
	ctx := context.Background()
	a, err := er.Open(ctx, "sc://a:1")
	if err != nil {
		t.Fatal(err)
	}
	if again, _ := er.Open(ctx, "sc://a:1"); again != a || len(connects) != 1 {
		t.Fatalf("a second Open connected again: %v", connects)
	}
	for range 2 {
		if _, err := er.Open(ctx, "sc://down:1"); err == nil {
			t.Fatal("a failed connection gave a runner")
		}
	}
	if len(connects) != 3 {
		t.Fatalf("connections %v: a failed one must be tried again", connects)
	}
	dir := t.TempDir()
	// A DATAFRAME source with inline data is what only the Spark engine
	// refuses (its query is DuckDB's SQL), so the refusal shows the runner
	// plans for the engine it was opened on.
	workspacetest.Write(t, dir, map[string]string{"pl.yaml": "name: pl\nnodes:\n- name: inline\n" +
		"  source: {data: [{k: 1}]}\n  sinks:\n  - {path: ./out/inline, format: PARQUET}\n"})
	_, err = a.Plan(ctx, workspacetest.LoadDir(t, dir, workspace.Options{}), runner.Request{})
	if err == nil || !strings.Contains(err.Error(), "spark engine") {
		t.Fatalf("the runner does not plan for the spark engine: %v", err)
	}
	if err := er.Close(); err != nil || engines[0].closed != 1 {
		t.Fatalf("close: %v, engine closed %d times", err, engines[0].closed)
	}
	if _, err := er.Open(ctx, "sc://a:1"); !errors.Is(err, ErrClosed) {
		t.Fatalf("open after close: %v", err)
	}
}

// TestFlowEngineSpark: the run dialog of the real workbench switches to
// Spark (a fake engine through EngineRunners and the real runner), the run
// goes there and fails with the engine's error in the run view, and the
// history lists it with the engine and its server.
func TestFlowEngineSpark(t *testing.T) {
	dir := workspacetest.Demo(t)
	workspacetest.Write(t, dir, map[string]string{workspace.ConfigFileName: sparkConfig})
	snap := workspacetest.LoadDir(t, dir, workspace.Options{})
	local := &LocalRunner{R: newRunner(t)}
	defer local.Wait()
	hist := NewHistoryFile(snap.Layout.StateDB())
	defer hist.Close()
	er := &EngineRunners{
		Connect: func(ctx context.Context, remote string) (engine.Engine, error) {
			return &sparkNamed{remote: remote}, nil
		},
		New: func(e engine.Engine) (*runner.Runner, error) {
			return runner.New(runner.Config{Parallel: 2, Engine: e})
		},
	}
	defer er.Close()
	m := New(Deps{Snapshot: snap, Runner: local, History: hist, Tick: -1, Engines: &Engines{Open: er.Open}})
	tm := teatest.NewTestModel(t, m, teatest.WithInitialTermSize(140, 50))
	waitFor(t, tm, "all_orders")
	tm.Send(keys("3")) // the Runs tab; r runs the tree's selection, pipeline pl-client-acme
	tm.Send(keys("r"))
	waitFor(t, tm, "Engine ● local · ○ spark sc://127.0.0.1:15002 (laktory-workbench.yaml:3)", "e engine")
	tm.Send(keys("e"))
	waitFor(t, tm, "on spark sc://127.0.0.1:15002", "● spark")
	tm.Send(keys("y"))
	// The run view, and the run in the past runs with its engine.
	waitFor(t, tm, "fake spark: no cluster behind this engine", "Summary: failed", "INCREMENTAL spark sc://127.0.0.1:15002")
	final := finalModel(t, tm)
	if lr := final.runs.live; lr == nil || lr.status != history.StatusFailed || !strings.Contains(lr.target, "on spark") {
		t.Fatalf("run: %+v", lr)
	}
	if v := final.View(); !strings.Contains(v, "INCREMENTAL spark sc://127.0.0.1:15002") {
		t.Errorf("the past runs do not show the run's engine:\n%s", v)
	}
	page, err := hist.ListRuns(context.Background(), history.Page{Limit: 5}, history.Filter{})
	if err != nil || len(page.Runs) != 1 || page.Runs[0].Engine != engine.Spark || page.Runs[0].Remote != "sc://127.0.0.1:15002" {
		t.Fatalf("history %+v %v: want one run on spark sc://127.0.0.1:15002", page.Runs, err)
	}
}

// TestEngineSwitchWhilePlanning: e while a run is planned (a server slow
// to answer) plans it on the other engine; the late plan is ignored.
func TestEngineSwitchWhilePlanning(t *testing.T) {
	m, local, op := engineApp(t, 120, 40, "engine: spark\n"+sparkConfig, workspace.EngineSettings{}, nil)
	m = step(t, m, keys("f")) // planning on Spark, the connection not made
	late := m.dialog.token
	m = run(t, m, keys("e"))
	if op.calls() != 0 || len(local.plans) != 1 || m.dialog == nil || m.dialog.kind != dlgConfirm || strings.Contains(m.dialog.title, "spark") {
		t.Fatalf("e while planning: %d connections, %d local plans, dialog %+v", op.calls(), len(local.plans), m.dialog)
	}
	m = step(t, m, planMsg{token: late, plan: &runner.Plan{}, engine: engine.Spark, runner: op.r})
	if m.dialog.kind != dlgConfirm || strings.Contains(m.dialog.title, "spark") {
		t.Fatalf("the late plan on Spark replaced the local one: %+v", m.dialog)
	}
}

// TestEngineParamsForm: the parameters form shows the engine choice; e is
// text there, so its help line offers ctrl+e, which switches the engine
// without planning; the run is planned on that engine once the values are
// given.
func TestEngineParamsForm(t *testing.T) {
	for _, sz := range []struct{ w, h int }{{80, 24}, {120, 40}} {
		t.Run(fmt.Sprintf("%dx%d", sz.w, sz.h), func(t *testing.T) {
			dir := t.TempDir()
			workspacetest.Write(t, dir, paramsWorkspace)
			workspacetest.Write(t, dir, map[string]string{workspace.ConfigFileName: sparkConfig})
			s := workspacetest.LoadDir(t, dir, workspace.Options{})
			plan := func(req runner.Request) (*runner.Plan, error) { return &runner.Plan{Request: req}, nil }
			local := &fakeRunner{plan: plan}
			op := &fakeOpener{r: &fakeRunner{plan: plan}}
			m := app(t, s, Deps{Runner: local, Engines: &Engines{Open: op.open}})
			m = run(t, run(t, m, size(sz.w, sz.h)), keys("a"))
			m = run(t, m, keys("e"))
			if m.dialog == nil || m.dialog.kind != dlgParams || string(m.dialog.params.fields[0].value) != "e" || m.engine != "" {
				t.Fatalf("e in the form: dialog %+v, engine %q", m.dialog, m.engine)
			}
			golden.RequireEqual(t, viewText(m))
			m = run(t, m, keys("ctrl+e"))
			if m.dialog == nil || m.dialog.kind != dlgParams || m.engine != engine.Spark || op.calls() != 0 || len(local.plans) != 0 ||
				!strings.Contains(viewText(m), "● spark sc://127.0.0.1:15002") {
				t.Fatalf("ctrl+e: dialog %+v, engine %q, %d connections, %d local plans:\n%s", m.dialog, m.engine, op.calls(), len(local.plans), viewText(m))
			}
			m = run(t, m, keys("enter"))
			if op.calls() != 1 || len(op.r.plans) != 1 || len(local.plans) != 0 {
				t.Fatalf("enter: %d connections, %d spark plans, %d local plans", op.calls(), len(op.r.plans), len(local.plans))
			}
		})
	}
}
