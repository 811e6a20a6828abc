package tui

import (
	"context"
	"fmt"
	"path/filepath"
	"testing"
	"time"

	"github.com/laktory/workbench/runner"
	"github.com/laktory/workbench/runner/history"
	"github.com/laktory/workbench/tui/internal/tuitest"
	"github.com/laktory/workbench/tui/lanes"
)

// bigApp is the workbench on 200 writers (20 pipelines x 10 nodes) over
// 20 tables, every group expanded when expand is set.
func bigApp(b *testing.B, w, h int, expand bool) Model {
	b.Helper()
	s := tuitest.Lanes(b, 20, 10, 20)
	m := app(b, s, Deps{})
	if expand {
		for _, g := range m.ws.graph.Groups {
			m.graph.collapsed[g.ID] = false
		}
		m.graph.setWorkspace(m.ws)
	}
	return step(b, m, size(w, h))
}

// BenchmarkGraphTab renders the Graph tab (lane matrix, legend and the
// selected table's detail) and composes the frame, for 200 writers x 20
// tables.
func BenchmarkGraphTab(b *testing.B) {
	for _, tc := range []struct {
		name   string
		w, h   int
		expand bool
	}{
		{"200x20_expanded_160x48", 160, 48, true},
		{"200x20_expanded_80x24", 80, 24, true},
		{"200x20_collapsed_160x48", 160, 48, false},
	} {
		b.Run(tc.name, func(b *testing.B) {
			m := bigApp(b, tc.w, tc.h, tc.expand)
			rows := len(m.graph.rows)
			b.ReportAllocs()
			i := 0
			for b.Loop() {
				m.graph.sel = lanes.Selection{Row: i % rows, Lane: i % 20, FirstLane: m.graph.sel.FirstLane}
				m.graph.refresh()
				m.compose()
				i++
			}
			b.ReportMetric(float64(rows), "rows")
		})
	}
}

// BenchmarkKeyToFrame is a key press through Update to the next View, on
// the 200 x 20 workspace.
func BenchmarkKeyToFrame(b *testing.B) {
	for _, tc := range []struct {
		name string
		prep []string
		keys []string
	}{
		{"graph_down_up", nil, []string{"down", "up"}},
		{"graph_left_right", nil, []string{"right", "left"}},
		{"tree_down_up", []string{"tab"}, []string{"down", "up"}},
		{"switch_tabs", nil, []string{"2", "1"}},
	} {
		b.Run(tc.name, func(b *testing.B) {
			m := bigApp(b, 160, 48, true)
			for _, k := range tc.prep {
				m = step(b, m, keys(k))
			}
			msgs := make([]any, len(tc.keys))
			for i, k := range tc.keys {
				msgs[i] = keys(k)
			}
			b.ReportAllocs()
			i := 0
			for b.Loop() {
				next, _ := m.Update(msgs[i%len(msgs)])
				m = next.(Model)
				_ = m.View()
				i++
			}
		})
	}
}

// BenchmarkHistory10k reads pages of a history of 10,000 runs (keyset
// paging: a deep page costs what the first does) and shows them in the
// Runs tab.
func BenchmarkHistory10k(b *testing.B) {
	ctx := context.Background()
	path := filepath.Join(b.TempDir(), "state.db")
	s, err := history.Open(ctx, path)
	if err != nil {
		b.Fatal(err)
	}
	start := time.Now()
	for i := range 10_000 {
		id, err := s.StartRun(ctx, history.RunStart{Workspace: "/ws", Pipelines: []string{fmt.Sprintf("pl-%d", i%10)}})
		if err == nil {
			err = s.FinishRun(ctx, id, history.RunEnd{Status: history.StatusSucceeded})
		}
		if err != nil {
			b.Fatal(err)
		}
	}
	b.Logf("10,000 runs recorded in %s", time.Since(start))
	s.Close()
	h := NewHistoryFile(path)
	defer h.Close()
	m := app(b, demo(b), Deps{History: h})
	m = step(b, m, size(160, 48), keys("3"))
	for _, tc := range []struct {
		name   string
		before int64
	}{{"first_page", 0}, {"deep_page", 5_000}, {"last_page", 60}} {
		b.Run(tc.name, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				msg := historyCmd(ctx, h, m.seq.hist, tc.before)().(historyMsg)
				if msg.err != nil || len(msg.page.Runs) == 0 {
					b.Fatalf("page: %+v", msg)
				}
				m.runs.runs = nil
				m.runs.setPage(0, msg.page, nil)
				m.compose()
			}
		})
	}
}

// BenchmarkRunEvent is a streaming run's event (a flow's micro-batch)
// through Update to the next frame, with the Runs tab shown: a run of 60
// tasks, each writing through its flow, with a warning.
func BenchmarkRunEvent(b *testing.B) {
	s := demo(b)
	plan := &runner.Plan{}
	for i := range 60 {
		key := fmt.Sprintf("pl-%d.node_%d", i/10, i)
		plan.Tasks = append(plan.Tasks, &runner.Task{Key: key})
		plan.Flows = append(plan.Flows, runner.FlowInfo{Task: key, Name: key + "/table-main.default.t", Target: "table t"})
	}
	for _, sz := range []struct{ w, h int }{{80, 24}, {160, 48}} {
		b.Run(fmt.Sprintf("%dx%d", sz.w, sz.h), func(b *testing.B) {
			m := app(b, s, Deps{})
			m = step(b, m, size(sz.w, sz.h), keys("3"))
			m.runs.live = newLiveRun(1, "incremental run of every pipeline", plan, s, &fakeHandle{events: make(chan runner.Event)}, clock)
			m = step(b, m, runEventMsg{token: 1, ev: runner.Event{Kind: runner.EventWarning, Message: gldWarning}})
			b.ReportAllocs()
			i := 0
			for b.Loop() {
				t := plan.Tasks[i%len(plan.Tasks)].Key
				ev := runner.Event{Kind: runner.EventFlowProgress, Task: t, Flow: t + "/table-main.default.t", Batch: int64(i), Rows: 100, Status: "COMPLETED"}
				m.update(runEventMsg{token: 1, ev: ev}) // its command waits for the next event: not run
				m.compose()
				_ = m.View()
				i++
			}
		})
	}
}
