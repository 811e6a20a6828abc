package tui

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/charmbracelet/x/ansi"
	"github.com/laktory/workbench/runner"
	"github.com/laktory/workbench/runner/history"
	"github.com/laktory/workbench/validate"
	"github.com/laktory/workbench/workspace"
)

// testCommon is the panes' shared state without colours.
func testCommon() *common {
	keys := DefaultKeyMap()
	return &common{st: NewStyles(NoColorPalette()), keys: &keys, now: fixedNow}
}

// eventsPlan is the plan of an incremental run of the demo's declarative
// pipeline pl-events: two append flows into events (one a backfill that
// runs once) and a flow into a ForEach sink.
func eventsPlan(s *workspace.Snapshot) *runner.Plan {
	cp := s.Layout.CheckpointsDir() + "/pl-events/_flows/"
	return &runner.Plan{Params: validate.RunParams{Refresh: validate.RefreshIncremental},
		Tasks: []*runner.Task{{Key: "pl-events.events_backfill"}, {Key: "pl-events.events_live"}, {Key: "pl-events.alerts"}},
		Flows: []runner.FlowInfo{
			{Task: "pl-events.events_backfill", Name: "events__events_backfill", Target: "main.default.events", Once: true, Kind: "append",
				Checkpoint: cp + "table-main.default.events/events__events_backfill"},
			{Task: "pl-events.events_live", Name: "events__events_live", Target: "main.default.events", Kind: "append",
				Checkpoint: cp + "table-main.default.events/events__events_live"},
			{Task: "pl-events.alerts", Name: "alerts_outbox__alerts", Target: "foreach:alerts_outbox", Kind: "append",
				Checkpoint: cp + "foreach-alerts_outbox/alerts_outbox__alerts"},
		}}
}

const notCleaned = "ForEach sink alerts_outbox: the checkpoints of the flows writing it were reset, so they send all their data again; " +
	"the data the sink wrote was not cleaned up (the pipeline does not track it): remove it yourself for a clean start"

// eventsRun is what the runner reports for eventsPlan: micro-batches of
// each flow, the ForEach sink's definition and the rows it processed, and
// a warning the runner gave twice.
func eventsRun() []runner.Event {
	return []runner.Event{
		{RunID: "7", Kind: runner.EventRunStarted},
		{Kind: runner.EventTaskStarted, Task: "pl-events.events_backfill"},
		{Kind: runner.EventTaskStarted, Task: "pl-events.events_live"},
		{Kind: runner.EventOperation, Task: "pl-events.events_backfill", Table: "main.default.events", Operation: "CREATE TABLE AS SELECT", Rows: 100},
		{Kind: runner.EventFlowProgress, Task: "pl-events.events_backfill", Flow: "events__events_backfill", Batch: 0, Rows: 100, Status: "COMPLETED"},
		{Kind: runner.EventOperation, Task: "pl-events.events_live", Table: "main.default.events", Operation: "STREAMING UPDATE", Version: 1, Rows: 40},
		{Kind: runner.EventFlowProgress, Task: "pl-events.events_live", Flow: "events__events_live", Batch: 0, Rows: 40, Status: "COMPLETED"},
		{Kind: runner.EventOperation, Task: "pl-events.events_live", Table: "main.default.events", Operation: "STREAMING UPDATE", Version: 2, Rows: 20},
		{Kind: runner.EventFlowProgress, Task: "pl-events.events_live", Flow: "events__events_live", Batch: 1, Rows: 20, Status: "COMPLETED"},
		{Kind: runner.EventTaskStarted, Task: "pl-events.alerts"},
		{Kind: runner.EventSinkDefinition, Task: "pl-events.alerts", Flow: "alerts_outbox__alerts", Sink: "alerts_outbox", Format: "foreach",
			Message: "ForEach sink alerts_outbox (format foreach, command sh -c cat)"},
		{Kind: runner.EventWarning, Task: "pl-events.alerts", Message: notCleaned},
		{Kind: runner.EventWarning, Task: "pl-events.alerts", Message: notCleaned},
		{Kind: runner.EventOperation, Task: "pl-events.alerts", Table: "ForEach sink alerts_outbox", Operation: "FOREACH", Version: -1, Rows: 28},
		{Kind: runner.EventFlowProgress, Task: "pl-events.alerts", Flow: "alerts_outbox__alerts", Batch: 0, Rows: 28, Status: "COMPLETED"},
		{Kind: runner.EventTaskFinished, Task: "pl-events.events_backfill", Status: history.StatusSucceeded},
		{Kind: runner.EventTaskFinished, Task: "pl-events.events_live", Status: history.StatusSucceeded},
		{Kind: runner.EventTaskFinished, Task: "pl-events.alerts", Status: history.StatusSucceeded},
		{Kind: runner.EventRunFinished, Status: history.StatusSucceeded, At: clock.Add(time.Second)},
	}
}

// liveView renders a live run in a runs pane of w x h.
func liveView(lr *liveRun, w, h int) string {
	r := newRunsPane(testCommon(), true)
	r.live = lr
	r.SetSize(w, h)
	return flat(strings.Join(r.View(), "\n"))
}

func TestLiveRunShowsFlows(t *testing.T) {
	s := demo(t)
	for _, sz := range []struct {
		name string
		w, h int
	}{{"80x24", 57, 21}, {"160x48", 123, 45}} {
		t.Run(sz.name, func(t *testing.T) {
			lr := newLiveRun(1, "incremental run of pipeline pl-events", eventsPlan(s), s, nil, clock)
			for _, ev := range eventsRun() {
				lr.apply(ev)
			}
			v := liveView(lr, sz.w, sz.h)
			for _, want := range []string{
				"node of pl-events", "events_live succeeded batch 1 60", // the task's progress: its flow's latest batch
				"alerts_outbox__alerts → ForEach sink alerts_outbox", "batch 0 · 28 rows · 28 processed",
				"Warnings (1)", "remove it yourself for a clean start (×2)", // said once, with how often
				"Summary: succeeded in 1.0s · 3 tasks · 188 rows written",
			} {
				if !strings.Contains(v, want) {
					t.Fatalf("the run view lacks %q:\n%s", want, v)
				}
			}
			if sz.h > 40 && !strings.Contains(v, "events__events_backfill → events batch 0 · 100 rows") {
				t.Fatalf("a tall pane shows every flow:\n%s", v)
			}
		})
	}
}

func TestLiveRunFailedFlow(t *testing.T) {
	s := demo(t)
	lr := newLiveRun(1, "incremental run", eventsPlan(s), s, nil, clock)
	lr.apply(runner.Event{Kind: runner.EventTaskStarted, Task: "pl-events.alerts"})
	lr.apply(runner.Event{Kind: runner.EventFlowProgress, Task: "pl-events.alerts", Flow: "alerts_outbox__alerts", Batch: 2, Status: "FAILED",
		Err: "partition 0: exit status 1: disk full"})
	lr.apply(runner.Event{Kind: runner.EventTaskFinished, Task: "pl-events.alerts", Status: history.StatusFailed,
		Err: "cannot write sink: node 'alerts' of pipeline 'pl-events': ForEach sink alerts_outbox processed 3 of 9 rows of batch 2, then failed: disk full"})
	v := liveView(lr, 57, 21)
	if !strings.Contains(v, "alerts_outbox__alerts → ForEach sink alerts_outbox · failed in batch 2") {
		t.Fatalf("a failed flow must say so:\n%s", v)
	}
	if !strings.Contains(v, "alerts failed") || !strings.Contains(v, "✗ cannot write sink: node 'alerts' of pipeline 'pl-events': ForEach sink alerts_outbox processed 3 of 9 rows of batch 2, then failed: disk full") {
		t.Fatalf("a failed task's error must show under it, whole:\n%s", v)
	}
}

// TestLiveRunTotalsFromHistory: once the run is in the history, its
// totals there (a dropped table's rows, which no event counts) are the
// summary's.
func TestLiveRunTotalsFromHistory(t *testing.T) {
	s := demo(t)
	lr := newLiveRun(1, "FULL refresh", eventsPlan(s), s, nil, clock)
	for _, ev := range eventsRun() {
		lr.apply(ev)
	}
	r := newRunsPane(testCommon(), true)
	r.live = lr
	r.SetSize(100, 40)
	r.setPage(0, history.RunPage{Runs: []history.Run{{ID: 7, Status: history.StatusSucceeded, RowsWritten: 188, RowsDeleted: 160}}}, nil)
	if v := flat(strings.Join(r.View(), "\n")); !strings.Contains(v, "188 rows written · 160 rows deleted") {
		t.Fatalf("the summary must take the history's totals:\n%s", v)
	}
}

func TestConfirmShowsFlows(t *testing.T) {
	s := demo(t)
	plan := eventsPlan(s)
	plan.Flows[1].ImportCheckpoint = s.Dir + "/old/checkpoint"
	plan.Flows[2].Kind = "update"
	plan.Effects = []runner.Effect{{Kind: runner.EffectResetCheckpoint, Task: "pl-events.events_backfill", Checkpoint: plan.Flows[1].Checkpoint}}
	got := ansi.Strip(strings.Join(confirmBody(plan, s, NewStyles(NoColorPalette())), "\n"))
	for _, want := range []string{
		"Streaming flows (3):",
		" ⇢ events__events_backfill → events · once (a backfill: again only after a full refresh)",
		" ⇢ events__events_live → events · imports old/checkpoint on its first update",
		"   checkpoint .laktory/checkpoints/pl-events/_flows/table-main.default.events/events__events_live (reset)",
		" ⇢ alerts_outbox__alerts → ForEach sink alerts_outbox · update",
		"↺ reset the checkpoint of flow events__events_live",
	} {
		if !strings.Contains(got, want) {
			t.Fatalf("the confirmation lacks %q:\n%s", want, got)
		}
	}
}

// TestDialogScrolls: at 80x24 a confirmation taller than the screen
// scrolls, and keeps its keys.
func TestDialogScrolls(t *testing.T) {
	m, _, r := demoApp(t, 80, 24)
	m = selectLane(t, selectRow(t, m, "pl-prices.feed_a"), "prices")
	m = run(t, m, keys("f"))
	v := ansi.Strip(m.View())
	if strings.Contains(v, "checkpoint .laktory") || !strings.Contains(v, "↑/↓ 1-") || !strings.Contains(v, "y run") {
		t.Fatalf("the confirmation must fit and say it scrolls:\n%s", v)
	}
	for range 10 {
		m = run(t, m, keys("down"))
	}
	if v := ansi.Strip(m.View()); !strings.Contains(v, "checkpoint .laktory") || !strings.Contains(v, "y run") {
		t.Fatalf("scrolled down, the end of the confirmation shows:\n%s", v)
	}
	run(t, m, keys("y"))
	if len(r.started) != 1 {
		t.Fatal("y runs a scrolled confirmation")
	}
}

// TestGraphDetailScrolls: at 80x24 the table detail under the matrix is
// cut; J scrolls it to its last section.
func TestGraphDetailScrolls(t *testing.T) {
	m, _, _ := demoApp(t, 80, 24)
	m = selectLane(t, selectRow(t, m, "pl-prices.feed_a"), "prices")
	v := ansi.Strip(m.View())
	if strings.Contains(v, "Problems (1)") || !strings.Contains(v, "J/K scroll") {
		t.Fatalf("the detail fits at 80x24 (the test needs a longer one), or does not say it scrolls:\n%s", v)
	}
	for range 20 {
		m = run(t, m, keys("J"))
	}
	v = ansi.Strip(m.View())
	if !strings.Contains(v, "Problems (1)") {
		t.Fatalf("J must scroll the detail to its problems:\n%s", v)
	}
	if r, _ := m.graph.selectedRow(); r.Label != "pl-prices.feed_a" {
		t.Fatalf("J moved the rows to %q", r.Label)
	}
	m = run(t, m, keys("K"))
	if m.graph.dOffset == 0 {
		t.Fatal("K must scroll back")
	}
	m = run(t, m, keys("right")) // another table starts at its top
	if m.graph.dOffset != 0 {
		t.Fatalf("a new table's detail starts at line %d", m.graph.dOffset)
	}
}

func TestRunDetailShowsFlows(t *testing.T) {
	var evs []history.Event
	for _, ev := range eventsRun() {
		b, err := json.Marshal(ev)
		if err != nil {
			t.Fatal(err)
		}
		evs = append(evs, history.Event{Kind: string(ev.Kind), Task: ev.Task, Payload: b})
	}
	d := history.RunDetail{Run: history.Run{ID: 7, Status: history.StatusSucceeded}, Events: evs,
		Messages: []history.Message{{Task: "pl-events.alerts", Severity: history.SeverityWarning, Text: notCleaned},
			{Task: "pl-events.alerts", Severity: history.SeverityWarning, Text: notCleaned}}}
	r := newRunsPane(testCommon(), true)
	r.SetSize(120, 40)
	got := flat(strings.Join(r.detailLines(d), "\n"))
	for _, want := range []string{"Streaming flows (3)", "⇢ events__events_live pl-events.events_live 2 batches (last 1) · 60 rows",
		"⇢ alerts_outbox__alerts pl-events.alerts 1 batch (last 0) · 28 rows", "Messages (1)", "clean start (×2)"} {
		if !strings.Contains(got, want) {
			t.Fatalf("the run's details lack %q:\n%s", want, got)
		}
	}
}

func TestTableShowsStreaming(t *testing.T) {
	m, _, _ := demoApp(t, 120, 60)
	m = run(t, selectLane(t, m, "prices"), keys("4"))
	got := flat(m.View())
	for _, want := range []string{"Streaming (2 writers, 1 reader)", "⇢ pl-prices.feed_a flow pl-prices.feed_a/table-main.default.prices",
		"checkpoint .laktory/checkpoints/pl-prices/feed_a/table-main.default.prices", "⇠ pl-prices.gld_prices_a node_name feed_a · skipChangeCommits=true"} {
		if !strings.Contains(got, want) {
			t.Fatalf("the Table tab lacks %q:\n%s", want, m.View())
		}
	}
}

func TestMessagesShortenWorkspacePaths(t *testing.T) {
	c := testCommon()
	c.dir = "/w/demo"
	tests := []struct{ name, in, want string }{
		{"inside", "no Delta table at /w/demo/.laktory/lake/main/default/prices): run", "no Delta table at .laktory/lake/main/default/prices): run"},
		{"a sibling folder", "at /w/demo2/x", "at /w/demo2/x"},
		{"outside", "at /elsewhere/x", "at /elsewhere/x"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := c.rel(tt.in); got != tt.want {
				t.Fatalf("rel(%q) = %q, want %q", tt.in, got, tt.want)
			}
		})
	}
}

// TestTableDeclarativeFlows: the Table tab of a table that append flows
// share says their rows are not told apart, and lists the flows (a once
// backfill too) with their checkpoints.
func TestTableDeclarativeFlows(t *testing.T) {
	m, s, _ := demoApp(t, 120, 60)
	events := tableID(t, s, "events")
	m.deps.Lake.(*fakeLake).infos[events] = &TableInfo{ID: events, Stats: TableStats{Version: 1, Rows: 160, RowsExact: true,
		Facts: validate.TableFacts{Exists: true}}}
	m = run(t, selectLane(t, m, "events"), keys("4"))
	got := flat(m.View())
	for _, want := range []string{"their rows are not told apart", "Streaming (2 writers, 1 reader)",
		"⇢ pl-events.events_backfill flow events__events_backfill",
		"checkpoint .laktory/checkpoints/pl-events/_flows/table-main.default.events/", "events__events_backfill",
		"⇠ pl-events.alerts table_name"} {
		if !strings.Contains(got, want) {
			t.Fatalf("the Table tab lacks %q:\n%s", want, m.View())
		}
	}
}

// TestLiveRunManyWarnings: warnings taller than the pane keep the summary
// and the past runs in view, and say where the others are.
func TestLiveRunManyWarnings(t *testing.T) {
	s := demo(t)
	lr := newLiveRun(1, "incremental run of pipeline pl-events", eventsPlan(s), s, nil, clock)
	for i := range 20 {
		lr.apply(runner.Event{Kind: runner.EventWarning, Message: fmt.Sprintf("warning number %d about something the user should know", i)})
	}
	lr.apply(runner.Event{Kind: runner.EventRunFinished, Status: history.StatusSucceeded})
	r := newRunsPane(testCommon(), true)
	r.live = lr
	r.SetSize(57, 21)
	v := ansi.Strip(strings.Join(r.View(), "\n"))
	for _, want := range []string{"Warnings (20)", "more lines of warnings", "Summary: succeeded", "Past runs"} {
		if !strings.Contains(v, want) {
			t.Fatalf("the run view lacks %q:\n%s", want, v)
		}
	}
}
