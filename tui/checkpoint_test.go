package tui

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/laktory/workbench/runner"
	"github.com/laktory/workbench/runner/history"
)

// TestCheckpointResetNamesItsWriter: a reset checkpoint is named by the
// writer whose sink keeps it (a whole-table reset by feed_a resets
// feed_b's), in the run in progress and in a past run's details.
func TestCheckpointResetNamesItsWriter(t *testing.T) {
	m, s, _ := demoApp(t, 120, 40)
	p := s.Pipeline("pl-prices")
	n := p.Node("feed_b")
	cp := runner.CheckpointDir(s.Layout, p, n, n.Sinks[0])
	ev := runner.Event{RunID: "9", Kind: runner.EventOperation, Task: "pl-prices.feed_a", Table: string(n.Sinks[0].Table),
		Operation: "RESET CHECKPOINT", Version: -1, Checkpoint: cp}
	want := "reset the checkpoint of writer pl-prices.feed_b of prices (.laktory/checkpoints/pl-prices/feed_b/"

	lr := newLiveRun(1, "RESET (TRUNCATE) of writer pl-prices.feed_a", &runner.Plan{}, s, nil, clock)
	lr.apply(ev)
	if len(lr.log) != 1 || !strings.Contains(lr.log[0], "pl-prices.feed_a: "+want) {
		t.Fatalf("live log %q, want %q", lr.log, want)
	}

	payload, _ := json.Marshal(ev)
	h := demoHistory()
	d := h.details[2]
	d.Events = append(d.Events, history.Event{Kind: string(runner.EventOperation), Task: ev.Task, Payload: payload})
	h.details[2] = d
	m.deps.History = h
	m = run(t, run(t, m, keys("3")), keys("enter"))
	if v := flat(m.View()); !strings.Contains(v, "Checkpoints reset (1)") || !strings.Contains(v, want) {
		t.Fatalf("run detail:\n%s", m.View())
	}
}
