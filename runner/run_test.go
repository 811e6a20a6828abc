package runner

import (
	"slices"
	"strings"
	"testing"

	"github.com/laktory/workbench/runner/history"
)

const pricesPipeline = `name: pl
nodes:
- name: a
  sources:
  - path: ../data/a/
    format: JSONL
  sinks:
  - table_name: prices
    mode: APPEND
    shared: true
- name: b
  sources:
  - path: ../data/b/
    format: JSONL
  sinks:
  - table_name: prices
    mode: APPEND
    shared: true
`

func TestRunSharedWriterColumn(t *testing.T) {
	w := newWS(t, map[string]string{
		"pipelines/pl.yaml": pricesPipeline,
		"data/a/1.jsonl":    jsonl("a", 0, 3, ""),
		"data/b/1.jsonl":    jsonl("b", 0, 2, ""),
	})
	r := testRunner(t)
	o := mustRun(t, r, w.load(), Request{})
	path := w.table("prices")
	if cols := columns(t, path); !slices.Equal(cols, []string{"_laktory_writer", "k", "v"}) {
		t.Fatalf("columns %v: the writer column must come first", cols)
	}
	if got := writerCounts(t, r, path, "_laktory_writer"); got != "pl.a=3 pl.b=2" {
		t.Fatalf("rows per writer: %s", got)
	}
	if o.sum.RowsWritten != 5 || o.sum.Status != history.StatusSucceeded {
		t.Fatalf("summary %+v", o.sum)
	}
	d := detail(t, w, o.sum.RunID)
	if d.Run.RowsWritten != 5 || len(d.Tasks) != 2 || len(d.Operations) != 2 {
		t.Fatalf("history: %+v", d)
	}
	if len(eventKinds(o.events, EventRunFinished)) != 1 || o.events[0].Kind != EventRunStarted {
		t.Fatalf("events: %v", o.events)
	}
	for i, e := range o.events {
		if e.Seq != int64(i+1) {
			t.Fatalf("event %d has seq %d", i, e.Seq)
		}
	}
	if !strings.Contains(o.events[len(o.events)-1].Message, "5 rows written") {
		t.Fatalf("last event %+v", o.events[len(o.events)-1])
	}
}
