package tui

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/charmbracelet/x/exp/teatest"
	"github.com/laktory/workbench/delta"
	"github.com/laktory/workbench/workspace"
	"github.com/laktory/workbench/workspace/workspacetest"
)

// paramsWorkspace has a pipeline whose client parameter is required (its
// landing folder and its sink), and a region with a default.
var paramsWorkspace = map[string]string{
	"pipelines/pl-orders.yaml": `name: pl-orders
parameters:
  client: {}
  region: {default: eu}
nodes:
- name: orders
  sources:
  - path: ../landing/${params.client}/
    format: JSONL
  sinks:
  - path: ../out/${params.client}-${params.region}
    format: DELTA
    mode: APPEND
`,
	"landing/acme/1.jsonl":   `{"id": 1}` + "\n",
	"landing/globex/1.jsonl": `{"id": 2}` + "\n" + `{"id": 3}` + "\n",
}

// TestParamsDialog: a run of a pipeline with a required parameter asks for
// it (the default ones are not asked); enter on an empty value says so;
// esc cancels without planning; the next run offers the value given last.
func TestParamsDialog(t *testing.T) {
	s := workspacetest.Load(t, paramsWorkspace, workspace.Options{})
	r := &fakeRunner{}
	m := app(t, s, Deps{Runner: r})
	m = step(t, m, size(120, 36), keys("a"))
	d := m.dialog
	if d == nil || d.kind != dlgParams || len(d.params.fields) != 1 || d.params.fields[0].name != "client" {
		t.Fatalf("dialog %+v: want the client parameter asked", d)
	}
	if !strings.Contains(viewText(m), "declared by pl-orders (laktory run --param client=VALUE)") {
		t.Fatalf("the dialog does not say who declares client:\n%s", viewText(m))
	}
	m = step(t, m, keys("enter"))
	if m.dialog == nil || m.dialog.kind != dlgParams || !strings.Contains(m.status, "client needs a value") || len(r.plans) != 0 {
		t.Fatalf("enter on an empty value: dialog %v, status %q, plans %d", m.dialog, m.status, len(r.plans))
	}
	m = step(t, m, keys("acme"), keys("x"), keys("backspace"))
	if !strings.Contains(viewText(m), "client = acme▏") {
		t.Fatalf("typed value not shown:\n%s", viewText(m))
	}
	m = step(t, m, keys("esc"))
	if m.dialog != nil || len(r.plans) != 0 {
		t.Fatalf("esc: dialog %v, %d plans", m.dialog, len(r.plans))
	}
	m = step(t, m, keys("a"))
	if m.dialog == nil || string(m.dialog.params.fields[0].value) != "" {
		t.Fatalf("a cancelled dialog remembers nothing: %+v", m.dialog)
	}
}

// TestFlowRunParams runs a pipeline with a required parameter through the
// workbench and the real runner: the dialog asks for it, the run reads and
// writes with its value, the next run offers it again and runs another
// client's data with another value.
func TestFlowRunParams(t *testing.T) {
	dir := t.TempDir()
	workspacetest.Write(t, dir, paramsWorkspace)
	snap := workspacetest.LoadDir(t, dir, workspace.Options{})
	local := &LocalRunner{R: newRunner(t)}
	defer local.Wait()
	m := New(Deps{Snapshot: snap, Runner: local, Tick: -1})
	tm := teatest.NewTestModel(t, m, teatest.WithInitialTermSize(120, 36))
	waitFor(t, tm, "pl-orders")
	tm.Send(keys("a"))
	waitFor(t, tm, "Required parameters", "client = ▏")
	tm.Send(keys("acme"))
	tm.Send(keys("enter"))
	waitFor(t, tm, "incremental run of every pipeline with client=acme", "Summary: succeeded")
	tm.Send(keys("a"))
	waitFor(t, tm, "client = acme▏")
	for range len("acme") {
		tm.Send(keys("backspace"))
	}
	tm.Send(keys("globex"))
	tm.Send(keys("enter"))
	waitFor(t, tm, "incremental run of every pipeline with client=globex", "Summary: succeeded")
	final := finalModel(t, tm)
	if final.paramValues["client"] != "globex" {
		t.Fatalf("remembered %v", final.paramValues)
	}
	for client, rows := range map[string]int{"acme": 1, "globex": 2} {
		out := filepath.Join(dir, "out", client+"-eu")
		if _, err := os.Stat(filepath.Join(out, "_delta_log")); err != nil {
			t.Fatalf("the run with client=%s wrote no table at %s: %v", client, out, err)
		}
		ds, err := delta.LoadSnapshot(context.Background(), out)
		if err != nil {
			t.Fatal(err)
		}
		if got, _ := ds.NumRecords(); got != int64(rows) {
			t.Fatalf("%s: %d rows, want %d", out, got, rows)
		}
	}
}
