package watch

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/laktory/workbench/workspace"
	"github.com/laktory/workbench/workspace/workspacetest"
)

func TestAffected(t *testing.T) {
	dir := workspacetest.Demo(t)
	snap := workspacetest.LoadDir(t, dir, workspace.Options{})
	land := func(p string) string { return filepath.Join(dir, "data", "landing", p) }
	tests := []struct {
		name  string
		paths []string
		want  string
	}{
		{"a file of feed_a, and its reader downstream", []string{land("feed_a/prices_2026-01-03.json")},
			"pl-prices [feed_a, gld_prices_a]"},
		{"files of two pipelines at once", []string{land("orders/acme/o.json"), land("orders/globex/o.csv")},
			"pl-client-acme [orders], pl-client-globex [orders]"},
		{"a new subfolder of a source's folder", []string{land("events/2026/01/e.json")}, "pl-events [alerts, events_live]"},
		{"a file no source reads", []string{filepath.Join(dir, "data", "spare", "feed_a", "x.json"), filepath.Join(dir, "README.md")}, ""},
		{"what runs write", []string{filepath.Join(dir, ".laktory", "lake", "main", "default", "prices", "part-0.parquet"),
			filepath.Join(dir, ".laktory", "checkpoints", "pl-prices", "feed_a", "x", "offsets", "0")}, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			sel, why := Affected(Change{New: snap, Paths: tt.paths})
			if got := sel.String(); got != tt.want {
				t.Fatalf("affected %q, want %q (why %v)", got, tt.want, why)
			}
			if tt.want != "" && (len(why) == 0 || strings.Contains(why[0], dir)) {
				t.Fatalf("why %q: the files, relative to the workspace", why)
			}
		})
	}
}

// TestAffectedPipelineSaved: a saved pipeline runs the nodes whose
// definition changed (not the ones moved by the edit) and their readers;
// a file with errors runs nothing.
func TestAffectedPipelineSaved(t *testing.T) {
	dir := workspacetest.Demo(t)
	old := workspacetest.LoadDir(t, dir, workspace.Options{})
	file := filepath.Join(dir, "pipelines", "pl-prices.yaml")
	b, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	edited := strings.Replace(string(b), "CAST(price AS DOUBLE) AS price\n        FROM {df}\n  sinks:\n  - table_name: prices\n    mode: APPEND\n    shared: true\n    writer_methods:\n    - name: partitionBy\n      args: [_laktory_writer]\n\n# Reads",
		"CAST(price AS DOUBLE) * 1 AS price\n        FROM {df}\n  sinks:\n  - table_name: prices\n    mode: APPEND\n    shared: true\n    writer_methods:\n    - name: partitionBy\n      args: [_laktory_writer]\n\n# Reads", 1)
	if !strings.Contains(edited, "* 1 AS price") {
		t.Fatal("the edit of feed_b did not apply")
	}
	edited = "# a comment line moves every node down\n" + edited
	if err := os.WriteFile(file, []byte(edited), 0o644); err != nil {
		t.Fatal(err)
	}
	snap, err := workspace.Reload(context.Background(), old, []string{file})
	if err != nil {
		t.Fatal(err)
	}
	sel, why := Affected(Change{Old: old, New: snap, Paths: []string{file}})
	if got := sel.String(); got != "pl-prices [feed_b, gld_prices_a]" || len(why) != 1 || why[0] != "pipelines/pl-prices.yaml saved" {
		t.Fatalf("affected %q (why %q), want feed_b (changed) and the reader of its table", got, why)
	}
	broken := []workspace.Diagnostic{workspace.NewDiagnostic(workspace.Pos{File: file, Line: 3, Col: 1}, workspace.SeverityError, "LK001", "bad", "")}
	sel, why = Affected(Change{Old: old, New: snap, Paths: []string{file}, Diagnostics: broken})
	if len(sel) != 0 || len(why) != 1 || !strings.Contains(why[0], "has errors") {
		t.Fatalf("a file with errors: %q, %q", sel, why)
	}
}

func TestQueue(t *testing.T) {
	t0 := time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)
	at := func(ms int) time.Time { return t0.Add(time.Duration(ms) * time.Millisecond) }
	q := Queue{Debounce: 500 * time.Millisecond}
	if q.Status(t0) != "waiting for changes" {
		t.Fatalf("idle: %q", q.Status(t0))
	}
	q.Add(Selection{"pl": {"a"}}, []string{"landing/1.json"}, at(0))
	q.Add(Selection{"pl": {"b"}}, []string{"landing/2.json"}, at(300)) // debounced: the quiet time restarts
	if _, _, ok := q.Next(at(600)); ok {
		t.Fatal("due before 500 ms of quiet")
	}
	if got := q.Status(at(600)); got != "pl [a, b] in 0.2s (landing/1.json, landing/2.json)" {
		t.Fatalf("status %q", got)
	}
	sel, why, ok := q.Next(at(800))
	if !ok || sel.String() != "pl [a, b]" || len(why) != 2 {
		t.Fatalf("due: %v %v %v", sel, why, ok)
	}
	if r := sel.Request(); strings.Join(r.Selectors, " ") != "pl.a pl.b" || r.Refresh != "" || r.ResetMode != "" {
		t.Fatalf("request %+v: incremental, pipeline.node selectors", r)
	}
	// One run at a time: changes during the run wait for it, coalesced.
	q.Add(Selection{"pl": {"a"}}, []string{"landing/3.json"}, at(900))
	q.Add(Selection{"other": {"x"}}, []string{"landing/4.json"}, at(950))
	if _, _, ok := q.Next(at(5000)); ok {
		t.Fatal("a second run while one is in progress")
	}
	if got := q.Status(at(5000)); got != "running pl [a, b]; then other [x], pl [a]" {
		t.Fatalf("status %q", got)
	}
	q.Done()
	sel, _, ok = q.Next(at(5000))
	if !ok || sel.String() != "other [x], pl [a]" {
		t.Fatalf("the queued changes, in one run: %v %v", sel, ok)
	}
	q.Done()
	if q.Queued() || q.Status(at(6000)) != "waiting for changes" {
		t.Fatalf("after the runs: %q", q.Status(at(6000)))
	}
}

// TestWatchSources: a file dropped into a source's folder, and one in a
// new subfolder, are reported; files elsewhere are not.
func TestWatchSources(t *testing.T) {
	dir := workspacetest.Demo(t)
	snap := workspacetest.LoadDir(t, dir, workspace.Options{})
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	s, err := WatchSources(ctx, snap)
	if err != nil {
		t.Fatal(err)
	}
	next := func(want string) {
		t.Helper()
		select {
		case got := <-s.Changes():
			if len(got) != 1 || got[0] != want {
				t.Fatalf("changes %v, want %s", got, want)
			}
		case <-time.After(10 * time.Second):
			t.Fatalf("no change reported for %s", want)
		}
	}
	spare, err := os.ReadFile(filepath.Join(dir, "data", "spare", "feed_a", "prices_2026-01-03.json"))
	if err != nil {
		t.Fatal(err)
	}
	dropped := filepath.Join(dir, "data", "landing", "feed_a", "prices_2026-01-03.json")
	if err := os.WriteFile(dropped, spare, 0o644); err != nil {
		t.Fatal(err)
	}
	next(dropped)
	if err := os.WriteFile(filepath.Join(dir, "notes.txt"), []byte("x"), 0o644); err != nil {
		t.Fatal(err)
	}
	sub := filepath.Join(dir, "data", "landing", "orders", "acme", "2026")
	if err := os.MkdirAll(sub, 0o755); err != nil {
		t.Fatal(err)
	}
	time.Sleep(100 * time.Millisecond) // the new folder is watched
	if err := os.WriteFile(filepath.Join(sub, "o.json"), []byte("{}\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	next(filepath.Join(sub, "o.json"))
}
