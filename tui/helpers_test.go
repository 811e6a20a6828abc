package tui

import (
	"context"
	"fmt"
	"regexp"
	"strings"
	"sync"
	"testing"
	"time"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/lipgloss"
	"github.com/laktory/workbench/delta"
	"github.com/laktory/workbench/runner"
	"github.com/laktory/workbench/runner/history"
	"github.com/laktory/workbench/validate"
	"github.com/laktory/workbench/workspace"
	"github.com/laktory/workbench/workspace/workspacetest"
	"github.com/muesli/termenv"
)

func init() { lipgloss.SetColorProfile(termenv.Ascii) }

// clock is the fixed time of the view tests.
var clock = time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)

func fixedNow() time.Time { return clock }

// demo loads a fresh copy of the embedded demo workspace.
func demo(t testing.TB) *workspace.Snapshot {
	t.Helper()
	return workspacetest.LoadDir(t, workspacetest.Demo(t), workspace.Options{})
}

// table returns the ID of a table of s by its short name.
func tableID(t testing.TB, s *workspace.Snapshot, name string) workspace.TableID {
	t.Helper()
	for _, tb := range s.Tables {
		if tableLabel(tb) == name {
			return tb.ID
		}
	}
	t.Fatalf("no table %s", name)
	return ""
}

// app builds the workbench over s with fakes and no watcher.
func app(t testing.TB, s *workspace.Snapshot, d Deps) Model {
	t.Helper()
	d.Snapshot = s
	if d.Tick == 0 {
		d.Tick = -1 // no timers in tests
	}
	if d.Now == nil {
		d.Now = fixedNow
	}
	return New(d)
}

// step feeds messages to the model, ignoring the commands (tests feed
// their results explicitly).
func step(t testing.TB, m Model, msgs ...tea.Msg) Model {
	t.Helper()
	for _, msg := range msgs {
		next, _ := m.Update(msg)
		m = next.(Model)
	}
	return m
}

// run feeds a message and runs the commands it returns (and theirs),
// feeding their messages back, up to depth levels; Tick and watcher
// commands must not be among them.
func run(t testing.TB, m Model, msg tea.Msg) Model {
	t.Helper()
	next, cmd := m.Update(msg)
	m = next.(Model)
	for _, r := range execCmd(cmd) {
		m = run(t, m, r)
	}
	return m
}

// execCmd runs a command and its batches, returning their messages. A
// command still blocked after a moment (waiting for a run's next event or
// the watcher) is abandoned: tests feed those messages themselves.
func execCmd(cmd tea.Cmd) []tea.Msg {
	if cmd == nil {
		return nil
	}
	done := make(chan tea.Msg, 1)
	go func() { done <- cmd() }()
	var msg tea.Msg
	select {
	case msg = <-done:
	case <-time.After(300 * time.Millisecond):
		return nil
	}
	switch msg := msg.(type) {
	case nil:
		return nil
	case tea.BatchMsg:
		var out []tea.Msg
		for _, c := range msg {
			out = append(out, execCmd(c)...)
		}
		return out
	case tea.QuitMsg:
		return nil
	}
	if fmt.Sprintf("%T", msg) == "tea.sequenceMsg" {
		return nil
	}
	return []tea.Msg{msg}
}

func keys(s string) tea.KeyMsg {
	switch s {
	case "enter":
		return tea.KeyMsg{Type: tea.KeyEnter}
	case "esc":
		return tea.KeyMsg{Type: tea.KeyEsc}
	case "backspace":
		return tea.KeyMsg{Type: tea.KeyBackspace}
	case "tab":
		return tea.KeyMsg{Type: tea.KeyTab}
	case "up":
		return tea.KeyMsg{Type: tea.KeyUp}
	case "down":
		return tea.KeyMsg{Type: tea.KeyDown}
	case "left":
		return tea.KeyMsg{Type: tea.KeyLeft}
	case "right":
		return tea.KeyMsg{Type: tea.KeyRight}
	case "space":
		return tea.KeyMsg{Type: tea.KeySpace, Runes: []rune{' '}}
	case "ctrl+c":
		return tea.KeyMsg{Type: tea.KeyCtrlC}
	case "ctrl+e":
		return tea.KeyMsg{Type: tea.KeyCtrlE}
	}
	return tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune(s)}
}

func size(w, h int) tea.WindowSizeMsg { return tea.WindowSizeMsg{Width: w, Height: h} }

var scrubbers = []struct {
	re   *regexp.Regexp
	with string
}{
	{regexp.MustCompile(`(/private)?/(tmp|var/folders)/[^\s:]+`), "<tmp>"},
}

// scrub replaces temporary paths in a view (times come from the fixed
// clock and the fakes).
func scrub(s string) string {
	for _, sc := range scrubbers {
		s = sc.re.ReplaceAllString(s, sc.with)
	}
	return s
}

// --- fakes ------------------------------------------------------------------

// fakeLake serves fixed stats and table infos.
type fakeLake struct {
	stats map[workspace.TableID]TableStats
	infos map[workspace.TableID]*TableInfo
	calls int
	mu    sync.Mutex
}

func (f *fakeLake) Stats(ctx context.Context, snap *workspace.Snapshot) (map[workspace.TableID]TableStats, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.calls++
	return f.stats, nil
}

func (f *fakeLake) Table(ctx context.Context, snap *workspace.Snapshot, id workspace.TableID) (*TableInfo, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	if info, ok := f.infos[id]; ok {
		return info, nil
	}
	return &TableInfo{ID: id, Stats: TableStats{Version: -1}}, nil
}

// demoLake is the lake of the demo after one run of every writer, plus an
// orphan writer id in prices.
func demoLake(t testing.TB, s *workspace.Snapshot) *fakeLake {
	prices := tableID(t, s, "prices")
	orders := tableID(t, s, "all_orders")
	pricesStats := TableStats{Version: 3, Rows: 1212, RowsExact: true, Facts: validate.TableFacts{Exists: true,
		Columns: []string{"_laktory_writer", "symbol", "ts", "price"}, WriterColumn: "_laktory_writer",
		WriterRows: map[string]int64{"pl-prices.feed_a": 620, "pl-prices.feed_b": 580, "pl-prices.feed_old": 12}}}
	ordersStats := TableStats{Version: 2, Rows: 40, RowsExact: true, Facts: validate.TableFacts{Exists: true,
		Columns: []string{"client_id", "client", "order_id"}}, PredicateRows: map[string]int64{"client_id = 1": 24, "client_id = 2": 16}}
	return &fakeLake{
		stats: map[workspace.TableID]TableStats{prices: pricesStats, orders: ordersStats},
		infos: map[workspace.TableID]*TableInfo{prices: {ID: prices, Stats: pricesStats, Timestamp: clock.Add(-time.Hour),
			Files: 4, SizeBytes: 12_800, Partitions: []string{"_laktory_writer"}, Properties: map[string]string{"delta.appendOnly": "false"},
			Columns: []ColumnInfo{{"_laktory_writer", "string", false, true}, {"symbol", "string", true, false},
				{"ts", "timestamp", true, false}, {"price", "double", true, false}},
			History: []delta.HistoryEntry{
				{Version: 3, Timestamp: clock.Add(-time.Hour), Operation: "WRITE", OperationParameters: map[string]any{"mode": "Append"},
					OperationMetrics: map[string]any{"numOutputRows": "580", "numFiles": "2"}, Engine: "laktory"},
				{Version: 2, Timestamp: clock.Add(-2 * time.Hour), Operation: "DELETE", OperationParameters: map[string]any{"predicate": "_laktory_writer = 'pl-prices.feed_b'"},
					OperationMetrics: map[string]any{"numDeletedRows": "575"}},
				{Version: 1, Timestamp: clock.Add(-3 * time.Hour), Operation: "WRITE", OperationParameters: map[string]any{"mode": "Append"}},
				{Version: 0, Timestamp: clock.Add(-4 * time.Hour), Operation: "CREATE TABLE"},
			},
			Preview: Preview{Columns: []string{"_laktory_writer", "symbol", "ts", "price"}, More: true, Rows: [][]string{
				{"pl-prices.feed_a", "AAPL", "2026-01-01T09:30:00Z", "187.5"},
				{"pl-prices.feed_a", "MSFT", "2026-01-01T09:30:00Z", "402.25"},
				{"pl-prices.feed_b", "AAPL", "2026-01-01T09:31:00Z", "187.75"},
			}}}},
	}
}

// fakeHistory serves runs from memory.
type fakeHistory struct {
	mu      sync.Mutex
	runs    []history.Run // newest first
	details map[int64]history.RunDetail
	tasks   []history.Task
}

func (f *fakeHistory) ListRuns(ctx context.Context, p history.Page, _ history.Filter) (history.RunPage, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	limit := p.Limit
	var out history.RunPage
	for _, r := range f.runs {
		if p.Before > 0 && r.ID >= p.Before {
			continue
		}
		if len(out.Runs) == limit {
			out.HasOlder = true
			break
		}
		out.Runs = append(out.Runs, r)
	}
	return out, nil
}

func (f *fakeHistory) RunDetail(ctx context.Context, id int64) (history.RunDetail, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	d, ok := f.details[id]
	if !ok {
		return d, fmt.Errorf("run %d: %w", id, history.ErrNotFound)
	}
	return d, nil
}

func (f *fakeHistory) LastTasks(ctx context.Context, pipeline string) ([]history.Task, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.tasks, nil
}

func ptr[T any](v T) *T { return &v }

// demoHistory holds two past runs of the demo: a FULL refresh of feed_a
// on Spark (with a retry and a deletion) and an incremental run of
// everything on the local engine.
func demoHistory() *fakeHistory {
	full := history.Run{ID: 2, Status: history.StatusSucceeded, StartedAt: clock.Add(-30 * time.Minute),
		EndedAt: clock.Add(-30*time.Minute + 3200*time.Millisecond), Refresh: history.RefreshFull,
		Pipelines: []string{"pl-prices"}, Selectors: []string{"feed_a"}, Parallelism: 2, Tasks: 1,
		RowsRead: 620, RowsWritten: 620, RowsDeleted: 615, Retries: 1, Engine: "spark", Remote: "sc://127.0.0.1:15002"}
	inc := history.Run{ID: 1, Status: history.StatusFailed, StartedAt: clock.Add(-2 * time.Hour),
		EndedAt: clock.Add(-2*time.Hour + 9*time.Second), Refresh: history.RefreshIncremental, Parallelism: 2,
		Tasks: 6, TasksFailed: 1, RowsWritten: 1900, Error: "1 task failed"}
	return &fakeHistory{
		runs: []history.Run{full, inc},
		details: map[int64]history.RunDetail{2: {Run: full,
			Tasks: []history.Task{{RunID: 2, Key: "pl-prices.feed_a", Pipeline: "pl-prices", Node: "feed_a", Status: history.StatusSucceeded,
				StartedAt: full.StartedAt, EndedAt: full.EndedAt, RowsRead: 620, RowsWritten: 620, RowsDeleted: 615, Retries: 1}},
			Operations: []history.Operation{
				{Task: "pl-prices.feed_a", Table: "main.default.prices", Version: ptr(int64(4)), Operation: "DELETE",
					Detail: "_laktory_writer = 'pl-prices.feed_a'", RowsDeleted: 615, FilesRemoved: 1},
				{Task: "pl-prices.feed_a", Table: "main.default.prices", Version: ptr(int64(5)), Operation: "WRITE", Detail: "Append",
					RowsAdded: 620, FilesAdded: 1}},
			Retries: []history.Retry{{Task: "pl-prices.feed_a", Table: "main.default.prices", Attempt: 1, Delay: 200 * time.Millisecond,
				Error: "concurrent append: version 4 added files"}},
			Deletions: []history.Deletion{{Task: "pl-prices.feed_a", Table: "main.default.prices", Writer: "pl-prices.feed_a",
				Rows: 615, Version: ptr(int64(4))}},
		}},
		tasks: []history.Task{
			{Key: "pl-prices.feed_a", Status: history.StatusSucceeded},
			{Key: "pl-prices.feed_b", Status: history.StatusFailed},
		},
	}
}

// fakeRunner plans from a fixed plan and starts runs whose events the test
// sends.
type fakeRunner struct {
	mu      sync.Mutex
	plans   []runner.Request
	plan    func(req runner.Request) (*runner.Plan, error)
	started []*fakeHandle
}

func (f *fakeRunner) Plan(ctx context.Context, snap *workspace.Snapshot, req runner.Request) (*runner.Plan, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.plans = append(f.plans, req)
	return f.plan(req)
}

func (f *fakeRunner) Start(ctx context.Context, plan *runner.Plan) (RunHandle, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	h := &fakeHandle{events: make(chan runner.Event, 64), plan: plan}
	f.started = append(f.started, h)
	return h, nil
}

type fakeHandle struct {
	events    chan runner.Event
	plan      *runner.Plan
	mu        sync.Mutex
	cancelled bool
}

func (h *fakeHandle) Events() <-chan runner.Event { return h.events }

func (h *fakeHandle) Cancel() {
	h.mu.Lock()
	defer h.mu.Unlock()
	h.cancelled = true
}

// gldWarning is the runner's warning for the streaming reader of feed_a's
// rows when feed_a alone is refreshed.
const gldWarning = "node 'gld_prices_a' of pipeline 'pl-prices' streams main.default.prices and is not refreshed by this run: " +
	"it reads the rows feed_a writes again (skipChangeCommits skips the delete, not the new rows): they would be duplicated"

// fullPlan is the plan of a FULL refresh of feed_a: one task, deleting its
// rows of prices.
func fullPlan(t testing.TB, s *workspace.Snapshot) func(runner.Request) (*runner.Plan, error) {
	prices := tableID(t, s, "prices")
	return func(req runner.Request) (*runner.Plan, error) {
		p := &runner.Plan{Request: req, Params: validate.RunParams{Refresh: req.Refresh, ResetMode: req.ResetMode},
			Tasks: []*runner.Task{{Key: "pl-prices.feed_a", Pipeline: "pl-prices", Node: "feed_a"}}}
		switch req.Refresh {
		case validate.RefreshFull:
			// As the runner plans it: feed_a's rows and its flow's checkpoint,
			// and a warning for the streaming reader of feed_a's rows.
			cp := s.Layout.CheckpointsDir() + "/pl-prices/feed_a/table-main.default.prices"
			p.Effects = []runner.Effect{{Kind: runner.EffectDeleteRows, Task: "pl-prices.feed_a", Table: prices,
				Writer: "pl-prices.feed_a", Predicate: "_laktory_writer = 'pl-prices.feed_a'", Rows: 620},
				{Kind: runner.EffectResetCheckpoint, Task: "pl-prices.feed_a", Table: prices, Checkpoint: cp}}
			p.Flows = []runner.FlowInfo{{Task: "pl-prices.feed_a", Name: "pl-prices.feed_a/table-main.default.prices",
				Target: "table prices", Checkpoint: cp, Kind: "append"}}
			p.Warnings = []validate.Diagnostic{{Severity: workspace.SeverityWarning, Message: gldWarning}}
		case validate.RefreshReset:
			kind := runner.EffectDropTable
			if req.ResetMode == "TRUNCATE" {
				kind = runner.EffectTruncateTable
			}
			p.Effects = []runner.Effect{{Kind: kind, Task: "pl-prices.feed_a", Table: prices, Rows: 1212},
				{Kind: runner.EffectResetCheckpoint, Task: "pl-prices.feed_b", Table: prices,
					Checkpoint: s.Layout.CheckpointsDir() + "/pl-prices/feed_b/0"}}
		}
		return p, nil
	}
}

// viewText returns the model's view with paths and durations scrubbed and
// trailing blanks removed.
func viewText(m Model) string {
	lines := strings.Split(scrub(m.View()), "\n")
	for i, l := range lines {
		lines[i] = strings.TrimRight(l, " ")
	}
	return strings.Join(lines, "\n") + "\n"
}
