package runner

import (
	"testing"
	"time"
)

// TestWriteProgressEvents: while a node's rows are written to its Delta
// table, the run reports task_progress events of phase write naming the
// table, with the bytes (and the rows of the finished files) so far; the
// figures never go back.
func TestWriteProgressEvents(t *testing.T) {
	w := newWS(t, map[string]string{
		"data/in.jsonl": jsonl("a", 0, 1, ""),
		"pipelines/pl.yaml": `name: pl
nodes:
- name: big
  source:
    path: ../data/in.jsonl
    format: JSONL
  transformer:
    nodes:
    - expr: SELECT id, md5(CAST(id AS STRING)) AS s FROM range(200000)
  sinks:
  - table_name: big
    mode: APPEND
`})
	r := testRunner(t, func(c *Config) { c.progressEvery = time.Millisecond })
	o := mustRun(t, r, w.load(), Request{})
	var writes []Event
	for _, e := range eventKinds(o.events, EventTaskProgress) {
		if e.Phase == "write" && e.Table != "" {
			writes = append(writes, e)
		}
	}
	if len(writes) == 0 {
		t.Fatalf("no write progress among %d events", len(o.events))
	}
	for i, e := range writes {
		if e.Task != "pl.big" || e.Table != w.table("big") || e.Bytes <= 0 {
			t.Fatalf("write progress %+v: want task pl.big, table %s, bytes so far", e, w.table("big"))
		}
		if i > 0 && (e.Bytes < writes[i-1].Bytes || e.Rows < writes[i-1].Rows) {
			t.Fatalf("progress went back: %+v after %+v", e, writes[i-1])
		}
	}
	if last := writes[len(writes)-1]; last.Rows > 200000 {
		t.Fatalf("more rows than written: %+v", last)
	}
}
