package tui

import (
	"context"
	"errors"
	"fmt"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/lipgloss"
	"github.com/charmbracelet/x/ansi"
	"github.com/charmbracelet/x/exp/golden"
	"github.com/laktory/workbench/runner"
	"github.com/laktory/workbench/runner/history"
	"github.com/laktory/workbench/tui/lanes"
	"github.com/laktory/workbench/validate"
	"github.com/laktory/workbench/workspace"
	"github.com/laktory/workbench/workspace/workspacetest"
	"github.com/muesli/termenv"
)

// drawLayout draws the rectangles of a layout as ASCII, one letter per
// region.
func drawLayout(l screenLayout, w, h int) string {
	if l.TooSmall {
		return "too small\n"
	}
	grid := make([][]byte, h)
	for i := range grid {
		grid[i] = []byte(strings.Repeat(".", w))
	}
	for _, r := range []struct {
		c byte
		r rect
	}{{'H', l.Header}, {'T', l.Tree}, {'|', l.Sep}, {'B', l.Tabs}, {'M', l.Main}, {'F', l.Footer}} {
		for y := r.r.Y; y < r.r.Y+r.r.H; y++ {
			for x := r.r.X; x < r.r.X+r.r.W; x++ {
				grid[y][x] = r.c
			}
		}
	}
	var b strings.Builder
	for _, row := range grid {
		b.Write(row)
		b.WriteByte('\n')
	}
	return b.String()
}

func TestLayout(t *testing.T) {
	for _, sz := range []struct{ w, h int }{{80, 24}, {60, 16}, {59, 30}, {120, 20}} {
		t.Run(fmt.Sprintf("%dx%d", sz.w, sz.h), func(t *testing.T) {
			l := computeLayout(sz.w, sz.h)
			golden.RequireEqual(t, drawLayout(l, sz.w, sz.h))
		})
	}
}

func TestEditorArgs(t *testing.T) {
	tests := []struct {
		name   string
		editor string
		line   int
		want   []string
	}{
		{"vim", "vim", 12, []string{"vim", "+12", "/ws/a.yaml"}},
		{"nvim with path", "/usr/bin/nvim", 3, []string{"/usr/bin/nvim", "+3", "/ws/a.yaml"}},
		{"nano", "nano", 7, []string{"nano", "+7", "/ws/a.yaml"}},
		{"emacs -nw", "emacs -nw", 2, []string{"emacs", "-nw", "+2", "/ws/a.yaml"}},
		{"micro", "micro", 5, []string{"micro", "+5", "/ws/a.yaml"}},
		{"helix", "hx", 9, []string{"hx", "+9", "/ws/a.yaml"}},
		{"vs code waits", "code -w", 12, []string{"code", "-w", "--goto", "/ws/a.yaml:12"}},
		{"sublime", "subl", 4, []string{"subl", "/ws/a.yaml:4"}},
		{"unknown editor", "ed", 4, []string{"ed", "/ws/a.yaml"}},
		{"no line", "vim", 0, []string{"vim", "/ws/a.yaml"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := editorArgs(tt.editor, "/ws/a.yaml", tt.line)
			if err != nil || !slices.Equal(got, tt.want) {
				t.Fatalf("editorArgs(%q) = %q, %v; want %q", tt.editor, got, err, tt.want)
			}
		})
	}
	if _, err := editorArgs("  ", "/ws/a.yaml", 1); !errors.Is(err, ErrNoEditor) {
		t.Fatalf("blank editor: %v, want ErrNoEditor", err)
	}
}

const twoNodes = `name: pl
nodes:
- name: a
  sources:
  - path: ./in
    format: JSONL
  sinks:
  - table_name: t1
    mode: APPEND
  - table_name: t2
    mode: APPEND
  tags: [x]
- name: b
  sources:
  - node_name: a
  sinks:
  - table_name: t3
    mode: APPEND
`

func TestIndexPlacesDiagnostics(t *testing.T) {
	s := workspacetest.Load(t, map[string]string{"pl.yaml": twoNodes}, workspace.Options{})
	file := s.Pipelines[0].File
	d := func(line int, sev workspace.Severity) workspace.Diagnostic {
		return workspace.Diagnostic{File: file, Line: line, Col: 1, Severity: sev, Code: "LK999", Message: fmt.Sprint(line)}
	}
	ix := buildIndex(s, []workspace.Diagnostic{d(1, validate.Info), d(9, validate.Error), d(11, validate.Warning), d(12, validate.Warning), d(17, validate.Error)})
	tests := []struct {
		name string
		key  objKey
		want lanes.State
	}{
		{"pipeline: the worst", pipelineKey("pl"), lanes.Error},
		{"node a: first sink's error", nodeKey("pl", "a"), lanes.Error},
		{"sink 0 of a", sinkKey("pl", "a", 0), lanes.Error},
		{"sink 1 of a ends before tags", sinkKey("pl", "a", 1), lanes.Warning},
		{"node b", nodeKey("pl", "b"), lanes.Error},
		{"sink of b", sinkKey("pl", "b", 0), lanes.Error},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := ix.of(tt.key); got != tt.want {
				t.Fatalf("state of %+v = %d, want %d", tt.key, got, tt.want)
			}
		})
	}
	if n := len(ix.diags[sinkKey("pl", "a", 1)]); n != 1 {
		t.Fatalf("sink 1 of a holds %d diagnostics, want 1 (line 12 is the node's tags)", n)
	}
	if ix.counts != [3]int{2, 2, 1} {
		t.Fatalf("counts %v", ix.counts)
	}
}

func TestTreeFoldsAndFollows(t *testing.T) {
	m, _, _ := demoApp(t, 100, 30)
	m = run(t, m, keys("tab"))
	if m.Focused() != PaneTree {
		t.Fatalf("focus %v, want the tree", m.Focused())
	}
	n := len(m.tree.vis)
	m = run(t, m, keys("space")) // fold pl-client-acme
	if got := len(m.tree.vis); got != n-2 {
		t.Fatalf("folding a pipeline of one node and one sink: %d visible items, want %d", got, n-2)
	}
	m = run(t, m, keys("right"))
	if len(m.tree.vis) != n {
		t.Fatalf("unfolding: %d visible, want %d", len(m.tree.vis), n)
	}
	// Down to feed_b's sink: the graph follows to its row and lane.
	for {
		it, _ := m.tree.selected()
		if it.kind == itemSink && it.key.Node == "feed_b" {
			break
		}
		m = run(t, m, keys("down"))
	}
	r, _ := m.graph.selectedRow()
	if r.Label != "pl-prices.feed_b" || tableLabel(m.ws.table(m.graph.selectedTable())) != "prices" {
		t.Fatalf("graph selection %q / %s, want feed_b's row and the prices lane", r.Label, m.graph.selectedTable())
	}
	if m.table.id != m.graph.selectedTable() {
		t.Fatalf("Table tab shows %s, want the selected sink's table", m.table.id)
	}
	m = run(t, m, keys("left")) // to the node
	if it, _ := m.tree.selected(); it.kind != itemNode {
		t.Fatalf("left on a sink selects %v, want its node", it.kind)
	}
}

func TestGraphCollapseToggle(t *testing.T) {
	files := map[string]string{}
	for i := range 4 {
		files[fmt.Sprintf("pl-c%d.yaml", i)] = fmt.Sprintf(`name: pl-c%d
nodes:
- name: orders
  sources:
  - path: ./in
    format: JSONL
  sinks:
  - table_name: all_orders
    mode: APPEND
    shared:
      where: client_id = %d
`, i, i)
	}
	s := workspacetest.Load(t, files, workspace.Options{})
	m := app(t, s, Deps{})
	m = run(t, m, size(100, 30))
	if len(m.graph.rows) != 1 || m.graph.rows[0].Kind != lanes.RowCollapsed || m.graph.rows[0].N != 4 {
		t.Fatalf("rows %+v, want one collapsed row of 4 writers", m.graph.rows)
	}
	if !strings.Contains(m.View(), "pl-c*.orders ×4") {
		t.Fatalf("collapsed row not drawn:\n%s", m.View())
	}
	// The group is one request: the same node in 4 pipelines.
	tg, err := m.graphTarget()
	if err != nil || len(tg.pipelines) != 4 || !slices.Equal(tg.selectors, []string{"orders"}) {
		t.Fatalf("group target %+v, %v", tg, err)
	}
	m = run(t, m, keys("space"))
	if len(m.graph.rows) != 4 {
		t.Fatalf("expanded: %d rows, want 4", len(m.graph.rows))
	}
	m = run(t, m, keys("down"))
	m = run(t, m, keys("space"))
	if len(m.graph.rows) != 1 {
		t.Fatalf("collapsed again from a member: %d rows, want 1", len(m.graph.rows))
	}
}

// pressF runs a FULL refresh of feed_a from the graph up to the
// confirmation.
func pressF(t *testing.T) (Model, *fakeRunner, *workspace.Snapshot) {
	t.Helper()
	m, s, r := demoApp(t, 120, 40)
	m = selectLane(t, selectRow(t, m, "pl-prices.feed_a"), "prices")
	m = run(t, m, keys("f"))
	return m, r, s
}

func TestFullRefreshConfirmsWhatItDeletes(t *testing.T) {
	m, r, _ := pressF(t)
	if len(r.plans) != 1 {
		t.Fatalf("planned %d times, want 1", len(r.plans))
	}
	req := r.plans[0]
	if req.Refresh != validate.RefreshFull || !slices.Equal(req.Pipelines, []string{"pl-prices"}) || !slices.Equal(req.Selectors, []string{"feed_a"}) {
		t.Fatalf("request %+v, want FULL of pl-prices [feed_a]", req)
	}
	if m.dialog == nil || m.dialog.kind != dlgConfirm {
		t.Fatalf("no confirmation before a FULL refresh")
	}
	v := dialogText(m)
	for _, want := range []string{"FULL refresh of writer pl-prices.feed_a of prices", "delete 620 rows of pl-prices.feed_a from prices",
		"WHERE _laktory_writer = 'pl-prices.feed_a'"} {
		if !strings.Contains(v, want) {
			t.Fatalf("confirmation lacks %q:\n%s", want, v)
		}
	}
	if len(r.started) != 0 {
		t.Fatal("started before the confirmation")
	}
	m = run(t, m, keys("n"))
	if m.dialog != nil || len(r.started) != 0 || !strings.Contains(m.View(), "nothing was changed") {
		t.Fatalf("n must cancel without running")
	}
	m = run(t, m, keys("f"))
	m = run(t, m, keys("y"))
	if len(r.started) != 1 || m.ActiveTab() != TabRuns || m.runs.live == nil {
		t.Fatalf("y must start the run and show it (started %d, tab %v)", len(r.started), m.ActiveTab())
	}
}

func TestRunProgressAndSummary(t *testing.T) {
	m, _, s := pressF(t)
	m = run(t, m, keys("y"))
	token := m.runs.live.token
	evs := runEvents(s)
	for _, ev := range evs[:4] { // started, the plan's warning, the task started and in progress
		m = step(t, m, runEventMsg{token: token, ev: ev})
	}
	if m.runningTasks() != 1 || !strings.Contains(m.View(), "▶ 1 running") {
		t.Fatalf("header must count the running task:\n%s", m.View())
	}
	if v := flat(m.View()); !strings.Contains(v, "Warnings (1)") || !strings.Contains(v, "node 'gld_prices_a' of pipeline 'pl-prices' streams") {
		t.Fatalf("the warning must show as it comes:\n%s", m.View())
	}
	m = step(t, m, runEventMsg{token: token, ev: evs[4]})
	if !strings.Contains(flat(m.View()), "⇣ 320 of 640 rows · 48.0 KiB · 240.0 KiB/s") {
		t.Fatalf("the write's progress must show as it comes:\n%s", m.View())
	}
	m = step(t, m, runEventMsg{token: token, ev: evs[5]})
	if !strings.Contains(flat(m.View()), "retry 1 on prices in 200ms: concurrent append") {
		t.Fatalf("the retry must show as it happens:\n%s", m.View())
	}
	for _, ev := range evs[6:] {
		m = step(t, m, runEventMsg{token: token, ev: ev})
	}
	// A stale event (an older run) changes nothing.
	m = step(t, m, runEventMsg{token: token - 1, ev: runner.Event{Kind: runner.EventDeleted, Rows: 99, Writer: "x"}})
	next, cmd := m.Update(runClosedMsg{token: token})
	m = next.(Model)
	if cmd == nil {
		t.Fatal("the end of a run must re-read the history and the tables")
	}
	v := m.View()
	for _, want := range []string{"Summary: succeeded in 1.1s", "640 rows written", "620 rows deleted", "1 retry",
		"deleted 620 rows of pl-prices.feed_a from prices", "batch 0 · 640 rows", "they would be duplicated"} {
		if !strings.Contains(flat(v), want) {
			t.Fatalf("view lacks %q:\n%s", want, v)
		}
	}
	if strings.Contains(v, "99 rows") {
		t.Fatal("a stale event was applied")
	}
	if m.runningTasks() != 0 {
		t.Fatalf("%d tasks still running after the end", m.runningTasks())
	}
}

func TestResetPicker(t *testing.T) {
	m, _, r := demoApp(t, 120, 40)
	m = selectLane(t, selectRow(t, m, "pl-prices.feed_a"), "prices")
	m = run(t, m, keys("R"))
	if m.dialog == nil || m.dialog.kind != dlgResetMode {
		t.Fatal("R must ask for the reset mode")
	}
	// It starts on the least destructive choice; the text under the
	// choices says what the highlighted one does.
	if d := m.dialog; d.values[d.cursor] != "" || !strings.Contains(boxText(m), "a shared sink loses only its writer's rows") ||
		strings.Contains(boxText(m), "is emptied") {
		t.Fatalf("the picker starts on %q:\n%s", d.values[d.cursor], m.View())
	}
	m = run(t, m, keys("down")) // TRUNCATE
	if v := boxText(m); !strings.Contains(v, "is emptied, the rows of all its writers included") || strings.Contains(v, "loses only its writer's rows") {
		t.Fatalf("TRUNCATE's text:\n%s", m.View())
	}
	m = run(t, m, keys("down"))
	if v := boxText(m); m.dialog.values[m.dialog.cursor] != "DROP" || !strings.Contains(v, "is dropped, the rows of all its writers and its schema") {
		t.Fatalf("DROP's text:\n%s", m.View())
	}
	m = run(t, m, keys("up"))
	m = run(t, m, keys("enter"))
	if len(r.plans) != 1 || r.plans[0].Refresh != validate.RefreshReset || r.plans[0].ResetMode != "TRUNCATE" {
		t.Fatalf("plans %+v, want RESET TRUNCATE", r.plans)
	}
	v := dialogText(m)
	for _, want := range []string{"RESET (TRUNCATE) of writer pl-prices.feed_a", "empty the whole table prices (1,212 rows, every writer's)",
		"reset the checkpoint of pl-prices.feed_b (.laktory/checkpoints/pl-prices/feed_b/0)"} {
		if !strings.Contains(v, want) {
			t.Fatalf("confirmation lacks %q:\n%s", want, v)
		}
	}
	m = run(t, m, keys("esc"))
	if m.dialog != nil || len(r.started) != 0 {
		t.Fatal("esc must cancel")
	}
}

// flat is a view's text with the lines of the main pane joined, so a
// sentence wrapped over lines reads whole: each line's part right of the
// tree, its hanging indent dropped.
func flat(v string) string {
	var b strings.Builder
	for _, l := range strings.Split(ansi.Strip(v), "\n") {
		if _, right, ok := strings.Cut(l, "│"); ok {
			l = right
		}
		b.WriteString(" " + strings.TrimSpace(l))
	}
	return strings.Join(strings.Fields(b.String()), " ")
}

// boxText is the text of the open dialog as drawn, its lines joined.
func boxText(m Model) string {
	var parts []string
	for _, l := range m.dialog.render(m.c.st, m.lay.Main.W, m.lay.Main.H) {
		parts = append(parts, strings.Trim(ansi.Strip(l), "│╭╮╰╯─ "))
	}
	return strings.Join(strings.Fields(strings.Join(parts, " ")), " ")
}

// dialogText is the title and body of the open dialog, without styles.
func dialogText(m Model) string {
	if m.dialog == nil {
		return ""
	}
	return ansi.Strip(m.dialog.title + "\n" + strings.Join(m.dialog.body, "\n"))
}

func TestRunKeysNeedTheRunner(t *testing.T) {
	s := demo(t)
	m := run(t, app(t, s, Deps{}), size(100, 30))
	for _, k := range []string{"r", "f", "R"} {
		m = run(t, m, keys(k))
		if m.dialog != nil || !strings.Contains(m.View(), "runs need the runner") {
			t.Fatalf("%s without a runner:\n%s", k, m.View())
		}
	}
}

func TestRunParametersCheckedBeforePlanning(t *testing.T) {
	m, _, r := demoApp(t, 120, 40)
	m = selectRow(t, m, "pl-events.events_live")
	m = run(t, m, keys("R"))
	m = run(t, m, keys("down")) // TRUNCATE: declarative pipelines only reset with DROP
	m = run(t, m, keys("enter"))
	if len(r.plans) != 0 {
		t.Fatal("an invalid run must not reach the runner")
	}
	if m.dialog == nil || m.dialog.kind != dlgMessage || !strings.Contains(m.View(), validate.CodeDeclarativeRefresh) {
		t.Fatalf("want the diagnostic of the invalid run:\n%s", m.View())
	}
}

func TestPlanErrorShown(t *testing.T) {
	m, _, r := demoApp(t, 120, 40)
	r.plan = func(runner.Request) (*runner.Plan, error) {
		return nil, errors.New("invalid run: source ../data/landing/feed_a/ has no files")
	}
	m = selectRow(t, m, "pl-prices.feed_a")
	m = run(t, m, keys("r"))
	if m.dialog == nil || m.dialog.kind != dlgMessage || !strings.Contains(m.View(), "has no files") {
		t.Fatalf("plan error not shown:\n%s", m.View())
	}
	m = run(t, m, keys("esc"))
	// A rejected plan lists its diagnostics, with where and how to fix.
	r.plan = func(runner.Request) (*runner.Plan, error) {
		return nil, &runner.PlanError{Diagnostics: []workspace.Diagnostic{{File: m.ws.snap.Pipelines[0].File, Line: 16, Col: 5,
			Severity: workspace.SeverityError, Code: validate.CodeLocalUnsupported, Message: "node 'feed_a' uses a streaming read",
			Hint: "remove `as_stream`"}}}
	}
	m = run(t, m, keys("r"))
	got := dialogText(m)
	for _, want := range []string{"pl-client-acme.yaml:16 " + validate.CodeLocalUnsupported, "uses a streaming read", "hint: remove `as_stream`"} {
		if !strings.Contains(got, want) {
			t.Fatalf("plan error lacks %q:\n%s", want, got)
		}
	}
}

func TestIncrementalRunWithoutEffectsStartsAtOnce(t *testing.T) {
	m, _, r := demoApp(t, 120, 40)
	m = selectRow(t, m, "pl-prices.gld_prices_a")
	m = run(t, m, keys("r"))
	if m.dialog != nil || len(r.started) != 1 {
		t.Fatalf("an incremental run that deletes nothing starts without asking (dialog %v, started %d)", m.dialog, len(r.started))
	}
}

func TestCancelRun(t *testing.T) {
	m, r, _ := pressF(t)
	m = run(t, m, keys("y"))
	m = run(t, m, keys("x"))
	h := r.started[0]
	h.mu.Lock()
	cancelled := h.cancelled
	h.mu.Unlock()
	if !cancelled || !strings.Contains(m.View(), "cancelling") {
		t.Fatalf("x must cancel the run (cancelled %v):\n%s", cancelled, m.View())
	}
	// q asks first while the run is going.
	m = run(t, m, keys("q"))
	if m.dialog == nil || m.dialog.kind != dlgQuit {
		t.Fatal("q during a run must ask")
	}
	_, cmd := m.Update(keys("n"))
	if cmd != nil {
		t.Fatal("n must stay")
	}
}

func TestStaleResultsDropped(t *testing.T) {
	m, s, _ := demoApp(t, 120, 40)
	prices := tableID(t, s, "prices")
	m = run(t, selectLane(t, m, "prices"), keys("4"))
	seq := m.seq.table
	m = step(t, m, tableMsg{seq: seq - 1, id: prices, info: &TableInfo{ID: prices, Stats: TableStats{Version: 99,
		Facts: validate.TableFacts{Exists: true}}}})
	if strings.Contains(m.View(), "version 99") {
		t.Fatal("a stale table read was shown")
	}
	diags := len(m.Diagnostics())
	m = step(t, m, validatedMsg{seq: m.seq.val - 1, snap: s, diags: nil})
	if len(m.Diagnostics()) != diags {
		t.Fatal("a stale validation replaced the newer one")
	}
	m = step(t, m, historyMsg{seq: m.seq.hist - 1, page: history.RunPage{Runs: []history.Run{{ID: 77}}}})
	if len(m.runs.runs) == 1 && m.runs.runs[0].ID == 77 {
		t.Fatal("a stale history page was shown")
	}
}

func TestBrokenWorkspacesNeverCrash(t *testing.T) {
	broken := []string{
		"name: [",
		"nodes: 3",
		"name: x\nnodes:\n- 5\n- name: \n- {}",
		"",
		"\t\tname: tab",
		"name: p\nnodes:\n- name: a\n  sinks:\n  - table_name: t\n    mode: APPEND\n    shared: {where: 'x ='}\n- name: a\n  sinks:\n  - table_name: t\n",
		"\x00\x01\x02binary",
		"name: p\nnodes:\n- name: a\n  sources:\n  - node_name: a\n  sinks:\n  - table_name: " + strings.Repeat("t", 500),
		"name: p\nnodes:\n- name: a\n  sinks:\n  - !use missing.yaml\n",
	}
	for i, content := range broken {
		t.Run(fmt.Sprint(i), func(t *testing.T) {
			s := workspacetest.Load(t, map[string]string{"pl.yaml": content, "ok.yaml": twoNodes}, workspace.Options{})
			m := app(t, s, Deps{History: &fakeHistory{}, Lake: &fakeLake{}, Runner: &fakeRunner{plan: fullPlan(t, demo(t))}})
			for _, sz := range [][2]int{{80, 24}, {160, 48}, {30, 10}} {
				m = run(t, m, size(sz[0], sz[1]))
				for _, k := range []string{"1", "down", "right", "space", "2", "down", "3", "4", "tab", "down", "space", "tab", "?", "esc"} {
					m = run(t, m, keys(k))
					_ = m.View()
				}
			}
		})
	}
}

func TestHistoryPaging(t *testing.T) {
	s := demo(t)
	h := &fakeHistory{}
	for i := 120; i >= 1; i-- {
		h.runs = append(h.runs, history.Run{ID: int64(i), Status: history.StatusSucceeded, StartedAt: clock, Refresh: history.RefreshIncremental})
	}
	m := app(t, s, Deps{History: h})
	m = run(t, m, size(120, 40))
	for _, msg := range execCmd(m.Init()) {
		m = run(t, m, msg)
	}
	m = run(t, m, keys("3"))
	if len(m.runs.runs) != historyPageSize || !m.runs.hasOlder {
		t.Fatalf("first page: %d runs, hasOlder %v", len(m.runs.runs), m.runs.hasOlder)
	}
	for range 119 {
		m = run(t, m, keys("down"))
	}
	if len(m.runs.runs) != 120 || m.runs.hasOlder {
		t.Fatalf("after scrolling down: %d runs loaded (hasOlder %v), want all 120 in pages", len(m.runs.runs), m.runs.hasOlder)
	}
	if r, _ := m.runs.selectedRun(); r.ID != 1 {
		t.Fatalf("cursor on run %d, want the oldest", r.ID)
	}
}

func TestMouse(t *testing.T) {
	m, _, _ := demoApp(t, 120, 40)
	x := m.tabX[TabProblems][0]
	m = run(t, m, tea.MouseMsg{X: x + 1, Y: m.lay.Tabs.Y, Button: tea.MouseButtonLeft, Action: tea.MouseActionPress})
	if m.ActiveTab() != TabProblems {
		t.Fatalf("click on the Problems tab: tab %v", m.ActiveTab())
	}
	m = run(t, m, tea.MouseMsg{X: 2, Y: m.lay.Tree.Y + 3, Button: tea.MouseButtonLeft, Action: tea.MouseActionPress})
	if m.Focused() != PaneTree || m.tree.cursor != 2 {
		t.Fatalf("click in the tree: focus %v cursor %d", m.Focused(), m.tree.cursor)
	}
	m = run(t, m, tea.MouseMsg{X: 2, Y: m.lay.Tree.Y + 3, Button: tea.MouseButtonWheelDown, Action: tea.MouseActionPress})
	if m.tree.cursor != 3 {
		t.Fatalf("wheel down in the tree: cursor %d", m.tree.cursor)
	}
}

func TestResizeSafe(t *testing.T) {
	for _, name := range []string{"graph", "confirmation", "help"} {
		t.Run(name, func(t *testing.T) {
			m, _, _ := demoApp(t, 80, 24)
			switch name {
			case "confirmation": // taller than small screens
				m = run(t, selectLane(t, selectRow(t, m, "pl-prices.feed_a"), "prices"), keys("f"))
			case "help":
				m = run(t, m, keys("?"))
			}
			for _, sz := range [][2]int{{10, 5}, {59, 15}, {60, 16}, {300, 100}, {80, 24}, {0, 0}} {
				m = run(t, m, size(sz[0], sz[1]))
				v := m.View()
				if sz[0] < minWidth || sz[1] < minHeight {
					if sz[0] > 0 && !strings.Contains(v, "needs a terminal of at least") {
						t.Fatalf("%v: %q", sz, v)
					}
					continue
				}
				lines := strings.Split(v, "\n")
				if len(lines) != sz[1] {
					t.Fatalf("%v: %d lines", sz, len(lines))
				}
				for i, l := range lines {
					if w := ansi.StringWidth(l); w > sz[0] {
						t.Fatalf("%v: line %d is %d wide: %q", sz, i, w, l)
					}
				}
			}
		})
	}
}

func TestNoColor(t *testing.T) {
	lipgloss.SetColorProfile(termenv.TrueColor)
	defer lipgloss.SetColorProfile(termenv.Ascii)
	s := demo(t)
	colour := run(t, app(t, s, Deps{}), size(100, 30)).View()
	plain := run(t, app(t, s, Deps{NoColor: true}), size(100, 30)).View()
	if !strings.Contains(colour, "\x1b[38;2;") {
		t.Fatal("the default palette draws no colour")
	}
	if strings.Contains(plain, "\x1b[38;") || strings.Contains(plain, "\x1b[48;") {
		t.Fatalf("NO_COLOR still draws colours")
	}
	if !strings.Contains(plain, "\x1b[1") || !strings.Contains(plain, "✗") && !strings.Contains(plain, "i 1") {
		t.Fatalf("NO_COLOR keeps bold and the marks")
	}
}

func TestEditKeyWithoutEditor(t *testing.T) {
	m, _, _ := demoApp(t, 120, 40)
	m = run(t, m, keys("2"))
	m = run(t, m, keys("enter"))
	if !strings.Contains(m.View(), "set $EDITOR") {
		t.Fatalf("enter without $EDITOR must say how to set it:\n%s", m.View())
	}
	m.deps.Editor = "vim"
	_, cmd := m.Update(keys("enter"))
	if cmd == nil {
		t.Fatal("enter with $EDITOR must open it")
	}
}

func TestLiveRunMarksInTree(t *testing.T) {
	m, _, s := pressF(t)
	m = run(t, m, keys("y"))
	token := m.runs.live.token
	evs := runEvents(s)
	m = step(t, m, runEventMsg{token: token, ev: evs[2]}) // task started
	if m.tree.runs["pl-prices.feed_a"] != history.StatusRunning || m.tree.pipelineRun("pl-prices") != history.StatusRunning {
		t.Fatalf("tree marks %v", m.tree.runs)
	}
}

func TestEditorFailureKeepsTheWorkbench(t *testing.T) {
	m, _, _ := demoApp(t, 120, 40)
	m = step(t, m, editorMsg{err: errors.New("vim: exit status 1")})
	if !strings.Contains(m.View(), "editor: vim: exit status 1") {
		t.Fatalf("an editor failure must show:\n%s", m.View())
	}
	m = run(t, m, keys("2"))
	if m.ActiveTab() != TabProblems {
		t.Fatal("the workbench must go on after an editor failure")
	}
}

func TestTablePreviewScrolls(t *testing.T) {
	m, _, _ := demoApp(t, 80, 24)
	m = run(t, selectLane(t, m, "prices"), keys("4"))
	if strings.Contains(m.View(), "AAPL") {
		t.Fatal("the preview fits at 80x24: the test needs a taller table")
	}
	m = run(t, m, keys("G"))
	v := m.View()
	if !strings.Contains(v, "AAPL") || !strings.Contains(v, "columns 1-") {
		t.Fatalf("scrolled to the bottom, the preview shows:\n%s", v)
	}
	m = run(t, m, keys("right"))
	v = m.View()
	if !strings.Contains(v, "columns 2-") || strings.Contains(v, "pl-prices.feed_a │") {
		t.Fatalf("→ scrolls the preview's columns:\n%s", v)
	}
}

// A problem in a file a pipeline includes (!use) marks that pipeline.
func TestIndexIncludedFile(t *testing.T) {
	s := workspacetest.Load(t, map[string]string{
		"pl.yaml":      "name: pl\nnodes:\n- !use nodes/a.yaml\n",
		"nodes/a.yaml": "name: a\nsources:\n- path: ./in\n  format: JSONL\nsinks:\n- table_name: t\n  mode: APPEND\n  bogus: 1\n",
	}, workspace.Options{})
	ds := validate.Check(s, validate.Options{})
	var inc *workspace.Diagnostic
	for i, d := range ds {
		if strings.HasSuffix(d.File, "a.yaml") && d.Severity == workspace.SeverityError {
			inc = &ds[i]
		}
	}
	if inc == nil {
		t.Fatalf("no error in the included file: %v", ds)
	}
	m := run(t, app(t, s, Deps{Diagnostics: ds}), size(100, 30))
	for _, k := range []objKey{pipelineKey("pl"), nodeKey("pl", "a"), sinkKey("pl", "a", 0)} {
		if st := m.ws.ix.of(k); st != lanes.Error {
			t.Fatalf("state of %+v: %d, want the included file's error", k, st)
		}
	}
	m = run(t, m, keys("2"))
	if !strings.Contains(m.View(), "nodes/a.yaml") {
		t.Fatalf("Problems lists the included file:\n%s", m.View())
	}
}

// In a stack file, a pipeline's last node ends where the next pipeline
// starts.
func TestIndexStackFile(t *testing.T) {
	stack := `name: st
resources:
  pipelines:
    pl-a:
      name: pl-a
      nodes:
      - name: a
        sinks:
        - table_name: ta
          mode: APPEND
    pl-b:
      name: pl-b
      nodes:
      - name: b
        sinks:
        - table_name: tb
          mode: APPEND
`
	s := workspacetest.Load(t, map[string]string{"stack.yaml": stack}, workspace.Options{})
	if len(s.Pipelines) != 2 {
		t.Fatalf("pipelines: %d", len(s.Pipelines))
	}
	file := s.Pipelines[0].File
	ix := buildIndex(s, []workspace.Diagnostic{{File: file, Line: 16, Severity: workspace.SeverityError, Code: "LK999"}})
	if ix.of(nodeKey("pl-a", "a")) != lanes.OK || ix.of(pipelineKey("pl-a")) != lanes.OK {
		t.Fatal("a problem of pl-b marks pl-a")
	}
	if ix.of(sinkKey("pl-b", "b", 0)) != lanes.Error || ix.of(pipelineKey("pl-b")) != lanes.Error {
		t.Fatal("the problem does not mark pl-b's sink")
	}
}

func TestHeaderShowsEnv(t *testing.T) {
	stack := "name: st\nresources:\n  pipelines:\n    pl-a:\n      name: pl-a\n      nodes:\n      - name: a\n        sinks:\n        - table_name: t\n          mode: APPEND\nenvironments:\n  dev: {}\n  prod: {}\n"
	s := workspacetest.Load(t, map[string]string{"stack.yaml": stack}, workspace.Options{Env: "prod"})
	m := run(t, app(t, s, Deps{}), size(100, 30))
	header := strings.SplitN(m.View(), "\n", 2)[0]
	if !strings.Contains(header, "env prod") || !strings.Contains(header, "0 running") {
		t.Fatalf("header %q", header)
	}
}

func TestCancelBeforeTheRunStarted(t *testing.T) {
	m, r, _ := pressF(t)
	next, startCmd := m.Update(keys("y"))
	m = next.(Model)
	m = step(t, m, keys("x")) // before the runner answered
	for _, msg := range execCmd(startCmd) {
		m = step(t, m, msg)
	}
	next, cmd := m.Update(startedMsg{token: m.runs.live.token, handle: r.started[0]})
	m = next.(Model)
	execCmd(cmd)
	h := r.started[0]
	h.mu.Lock()
	defer h.mu.Unlock()
	if !h.cancelled {
		t.Fatal("x pressed while the run started must cancel it once started")
	}
}

func TestCoalescedKeys(t *testing.T) {
	m, _, _ := demoApp(t, 120, 40)
	m = step(t, m, tea.KeyMsg{Type: tea.KeyRunes, Runes: []rune("jjl")})
	if m.graph.sel.Row != 2 || m.graph.sel.Lane != 1 {
		t.Fatalf("keys typed fast (jjl) moved to row %d lane %d, want 2 and 1", m.graph.sel.Row, m.graph.sel.Lane)
	}
}

func TestDeletePhrases(t *testing.T) {
	s := demo(t)
	st := NewStyles(NoColorPalette())
	orders, prices := tableID(t, s, "all_orders"), tableID(t, s, "prices")
	tests := []struct {
		name string
		e    runner.Effect
		want string
	}{
		{"writer id", runner.Effect{Kind: runner.EffectDeleteRows, Table: prices, Writer: "pl-prices.feed_a", Rows: 3},
			"✂ delete 3 rows of pl-prices.feed_a from prices"},
		{"predicate", runner.Effect{Kind: runner.EffectDeleteRows, Table: orders, Writer: "client_id = 1", Predicate: "(client_id = 1)", Rows: 80},
			"✂ delete 80 rows where client_id = 1 from all_orders"},
		{"unknown count", runner.Effect{Kind: runner.EffectDropTable, Table: prices, Rows: -1},
			"✂ drop the whole table prices (an unknown number of rows, every writer's)"},
		{"checkpoint of a flow of the plan", runner.Effect{Kind: runner.EffectResetCheckpoint, Task: "pl-events.events_backfill",
			Checkpoint: s.Layout.CheckpointsDir() + "/pl-events/_flows/table-main.default.events/events__events_live"},
			"↺ reset the checkpoint of flow events__events_live (it reprocesses all its data)"},
		{"checkpoint of no flow of the plan", runner.Effect{Kind: runner.EffectResetCheckpoint, Task: "pl-prices.feed_b",
			Checkpoint: s.Layout.CheckpointsDir() + "/pl-prices/feed_b/x"},
			"↺ reset the checkpoint of pl-prices.feed_b (.laktory/checkpoints/pl-prices/feed_b/x)"},
		{"checkpoint of another writer", runner.Effect{Kind: runner.EffectResetCheckpoint, Task: "pl-prices.feed_a",
			Checkpoint: s.Layout.CheckpointsDir() + "/pl-prices/feed_b/table-main.default.prices"},
			"↺ reset the checkpoint of pl-prices.feed_b (.laktory/checkpoints/pl-prices/feed_b/table-main.default.prices)"},
	}
	flows := []runner.FlowInfo{{Task: "pl-events.events_live", Name: "events__events_live",
		Checkpoint: s.Layout.CheckpointsDir() + "/pl-events/_flows/table-main.default.events/events__events_live"}}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := ansi.Strip(effectLine(tt.e, flows, s, st)); got != tt.want {
				t.Fatalf("got %q, want %q", got, tt.want)
			}
		})
	}
	if got := ownerPhrase("where client_id = 2"); got != "where client_id = 2" {
		t.Fatalf("ownerPhrase of a predicate: %q", got)
	}
}

// endRun ends the run in progress as the runner does: the run's last
// event, then the end of its events.
func endRun(t testing.TB, m Model) Model {
	t.Helper()
	token := m.runs.live.token
	return step(t, m, runEventMsg{token: token, ev: runner.Event{Kind: runner.EventRunFinished, Status: history.StatusSucceeded}},
		runClosedMsg{token: token})
}

// treeTo moves the tree's cursor to the item of pipeline pl and node
// ("" for the pipeline).
func treeTo(t testing.TB, m Model, pl, node string) Model {
	t.Helper()
	m = run(t, m, keys("g"))
	for range len(m.tree.vis) {
		if it, _ := m.tree.selected(); it.key.Pipeline == pl && it.key.Node == node && it.key.Sink < 0 {
			return m
		}
		m = run(t, m, keys("down"))
	}
	t.Fatalf("no tree item %s.%s", pl, node)
	return m
}

// TestRunKeysFollowTheSelection: a run started from the tree leaves the
// focus in the tree (the Runs tab shows the run), so the next keys move
// the tree and the next run key acts on what the tree selects; the footer
// names it. A run started from the graph leaves the tree on the graph's
// writer, which the run keys act on from the Runs tab.
func TestRunKeysFollowTheSelection(t *testing.T) {
	t.Run("from the tree", func(t *testing.T) {
		m, _, r := demoApp(t, 120, 40)
		m = run(t, m, keys("tab"))
		m = treeTo(t, m, "pl-prices", "")
		m = run(t, m, keys("r"))
		if len(r.started) != 1 || m.ActiveTab() != TabRuns || m.Focused() != PaneTree {
			t.Fatalf("started %d, tab %v, focus %v: want the run shown in the Runs tab and the focus left in the tree",
				len(r.started), m.ActiveTab(), m.Focused())
		}
		m = endRun(t, m)
		m = run(t, m, keys("j")) // the tree moves, not the runs list
		if it, _ := m.tree.selected(); it.key.Node != "feed_a" {
			t.Fatalf("j after a run selects %+v in the tree, want feed_a", it.key)
		}
		if v := ansi.Strip(m.View()); !strings.Contains(v, "r/f/R ▸ node pl-prices.feed_a") {
			t.Fatalf("the footer must name what the run keys act on:\n%s", v)
		}
		m = run(t, m, keys("f"))
		if last := r.plans[len(r.plans)-1]; last.Refresh != validate.RefreshFull || !slices.Equal(last.Selectors, []string{"feed_a"}) {
			t.Fatalf("f after j planned %+v, want a FULL refresh of feed_a", last)
		}
		if d := dialogText(m); !strings.HasPrefix(d, "FULL refresh of node pl-prices.feed_a") {
			t.Fatalf("the confirmation must name the selection:\n%s", d)
		}
	})
	t.Run("from the problems", func(t *testing.T) {
		m, _, r := demoApp(t, 120, 40)
		m = run(t, m, keys("2"))
		for range 5 {
			if d, ok := m.probs.selected(); ok && d.Code == validate.CodeSkipNodeReader {
				break
			}
			m = run(t, m, keys("down"))
		}
		if v := ansi.Strip(m.View()); !strings.Contains(v, "r/f/R ▸ node pl-prices.gld_prices_a") {
			t.Fatalf("the run keys act on the selected problem's node:\n%s", v)
		}
		m = run(t, m, keys("f"))
		if last := r.plans[len(r.plans)-1]; !slices.Equal(last.Selectors, []string{"gld_prices_a"}) {
			t.Fatalf("f in the Problems tab planned %+v, want gld_prices_a", last)
		}
	})
	t.Run("from the graph", func(t *testing.T) {
		m, _, r := demoApp(t, 120, 40)
		m = selectLane(t, selectRow(t, m, "pl-prices.feed_b"), "prices")
		if it, _ := m.tree.selected(); it.kind != itemSink || it.key.Node != "feed_b" {
			t.Fatalf("the tree does not follow the graph's writer: %+v", it)
		}
		m = run(t, m, keys("r"))
		if len(r.started) != 1 || m.ActiveTab() != TabRuns || m.Focused() != PaneMain {
			t.Fatalf("started %d, tab %v, focus %v", len(r.started), m.ActiveTab(), m.Focused())
		}
		m = run(t, endRun(t, m), keys("3")) // a key clears the run's status line
		if v := ansi.Strip(m.View()); !strings.Contains(v, "r/f/R ▸ writer pl-prices.feed_b of prices") {
			t.Fatalf("the footer must name the graph's writer in the Runs tab:\n%s", v)
		}
		m = run(t, m, keys("f"))
		if last := r.plans[len(r.plans)-1]; !slices.Equal(last.Selectors, []string{"feed_b"}) {
			t.Fatalf("f in the Runs tab planned %+v, want feed_b (the graph's writer)", last)
		}
	})
}

// TestHelpScrolls: at 80x24 the keys do not fit; the help scrolls to its
// last lines (the marks).
func TestHelpScrolls(t *testing.T) {
	m, _, _ := demoApp(t, 80, 24)
	m = run(t, m, keys("?"))
	if v := ansi.Strip(m.View()); strings.Contains(v, "Marks") || !strings.Contains(v, "↑/↓ scroll") {
		t.Fatalf("the help fits at 80x24 (the test needs a longer one), or does not say it scrolls:\n%s", v)
	}
	for range 30 {
		m = run(t, m, keys("down"))
	}
	if v := ansi.Strip(m.View()); !strings.Contains(v, "Marks") || !strings.Contains(v, "re-read tables") {
		t.Fatalf("scrolled down, the help shows its end:\n%s", v)
	}
	if m = run(t, m, keys("?")); m.helpOn {
		t.Fatal("? closes the help")
	}
}

// TestStalePipelineMarked: a pipeline whose file no longer parses stays in
// the tree with its last good content and the syntax error's mark, wherever
// the error's line falls in the new content.
func TestStalePipelineMarked(t *testing.T) {
	dir := t.TempDir()
	workspacetest.Write(t, dir, map[string]string{"pl.yaml": "name: pl\nnodes:\n- name: a\n"})
	s0 := workspacetest.LoadDir(t, dir, workspace.Options{})
	broken := "name: pl\nnodes:\n- name: a\n" + strings.Repeat("# more\n", 20) + "  tags: [x\n"
	workspacetest.Write(t, dir, map[string]string{"pl.yaml": broken})
	s1, err := workspace.Reload(context.Background(), s0, []string{filepath.Join(dir, "pl.yaml")})
	if err != nil {
		t.Fatal(err)
	}
	if p := s1.Pipeline("pl"); p == nil || !p.Stale {
		t.Fatal("the pipeline is not kept with its last good content")
	}
	if ix := buildIndex(s1, s1.Diagnostics); ix.of(pipelineKey("pl")) != lanes.Error {
		t.Fatalf("the stale pipeline carries no error mark: %v", s1.Diagnostics)
	}
}
