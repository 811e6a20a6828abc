package workspace_test

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/laktory/workbench/workspace"
	"github.com/laktory/workbench/workspace/workspacetest"
)

// testDebounce is long enough that a burst of five writes falls in one
// window on a loaded machine (a shorter one split the burst under load).
const testDebounce = 300 * time.Millisecond

func startWatch(t *testing.T, dir string) (<-chan workspace.Event, context.CancelFunc) {
	t.Helper()
	s, err := workspace.Load(context.Background(), dir, workspace.Options{})
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	t.Cleanup(cancel)
	ch, err := workspace.Watch(ctx, s, workspace.WatchOptions{Debounce: testDebounce})
	if err != nil {
		t.Fatal(err)
	}
	return ch, cancel
}

// nextEvent waits for an event whose snapshot satisfies ok.
func nextEvent(t *testing.T, ch <-chan workspace.Event, ok func(*workspace.Snapshot) bool) workspace.Event {
	t.Helper()
	timeout := time.After(10 * time.Second)
	for {
		select {
		case ev, open := <-ch:
			if !open {
				t.Fatal("channel closed")
			}
			if ev.Err != nil {
				t.Fatalf("watch error: %v", ev.Err)
			}
			if ok(ev.Snapshot) {
				return ev
			}
		case <-timeout:
			t.Fatal("no matching snapshot")
		}
	}
}

func noEvent(t *testing.T, ch <-chan workspace.Event, wait time.Duration) {
	t.Helper()
	select {
	case ev := <-ch:
		t.Fatalf("unexpected event: %v", ev.Changed)
	case <-time.After(wait):
	}
}

func nodeName(s *workspace.Snapshot, pl string) string {
	if p := s.Pipeline(pl); p != nil && len(p.Nodes) > 0 {
		return p.Nodes[0].Name
	}
	return ""
}

func TestWatch(t *testing.T) {
	dir := t.TempDir()
	outside := t.TempDir()
	workspacetest.Write(t, dir, map[string]string{"pl.yaml": "name: pl\nnodes:\n- name: a\n"})
	workspacetest.Write(t, outside, map[string]string{"nodes.yaml": "- name: o1\n"})
	workspacetest.Write(t, dir, map[string]string{"ext.yaml": "name: ext\nnodes: !use " + filepath.Join(outside, "nodes.yaml") + "\n"})
	ch, cancel := startWatch(t, dir)

	t.Run("write", func(t *testing.T) {
		workspacetest.Write(t, dir, map[string]string{"pl.yaml": "name: pl\nnodes:\n- name: b\n"})
		ev := nextEvent(t, ch, func(s *workspace.Snapshot) bool { return nodeName(s, "pl") == "b" })
		if ev.Snapshot.Pipeline("ext") == nil {
			t.Error("other pipelines must stay")
		}
	})
	t.Run("rename on save", func(t *testing.T) {
		tmp := filepath.Join(dir, ".pl.yaml.swp")
		os.WriteFile(tmp, []byte("name: pl\nnodes:\n- name: c\n"), 0o644)
		if err := os.Rename(tmp, filepath.Join(dir, "pl.yaml")); err != nil {
			t.Fatal(err)
		}
		nextEvent(t, ch, func(s *workspace.Snapshot) bool { return nodeName(s, "pl") == "c" })
	})
	t.Run("new subfolder", func(t *testing.T) {
		sub := filepath.Join(dir, "team", "deep")
		if err := os.MkdirAll(sub, 0o755); err != nil {
			t.Fatal(err)
		}
		workspacetest.Write(t, dir, map[string]string{"team/deep/new.yaml": "name: new\nnodes: []\n"})
		nextEvent(t, ch, func(s *workspace.Snapshot) bool { return s.Pipeline("new") != nil })
		// The new folder is watched: a later change is seen.
		workspacetest.Write(t, dir, map[string]string{"team/deep/new.yaml": "name: new\nnodes:\n- name: x\n"})
		nextEvent(t, ch, func(s *workspace.Snapshot) bool { return nodeName(s, "new") == "x" })
	})
	t.Run("removed folder", func(t *testing.T) {
		os.RemoveAll(filepath.Join(dir, "team"))
		nextEvent(t, ch, func(s *workspace.Snapshot) bool { return s.Pipeline("new") == nil })
	})
	t.Run("included file outside the workspace", func(t *testing.T) {
		workspacetest.Write(t, outside, map[string]string{"nodes.yaml": "- name: o2\n"})
		nextEvent(t, ch, func(s *workspace.Snapshot) bool { return nodeName(s, "ext") == "o2" })
	})
	t.Run("debounced burst", func(t *testing.T) {
		for i := range 5 {
			workspacetest.Write(t, dir, map[string]string{"pl.yaml": "name: pl\nnodes:\n- name: burst" + string(rune('0'+i)) + "\n"})
		}
		ev := nextEvent(t, ch, func(s *workspace.Snapshot) bool { return true })
		if got := nodeName(ev.Snapshot, "pl"); got != "burst4" {
			t.Fatalf("after a burst of writes: %q, want the last one", got)
		}
		noEvent(t, ch, 4*testDebounce)
	})
	t.Run("same bytes", func(t *testing.T) {
		b, _ := os.ReadFile(filepath.Join(dir, "pl.yaml"))
		os.WriteFile(filepath.Join(dir, "pl.yaml"), b, 0o644)
		noEvent(t, ch, 4*testDebounce)
	})
	t.Run("cancel closes the channel", func(t *testing.T) {
		cancel()
		select {
		case _, open := <-ch:
			for open {
				_, open = <-ch
			}
		case <-time.After(5 * time.Second):
			t.Fatal("channel not closed after cancel")
		}
	})
}

func TestWatchNilSnapshot(t *testing.T) {
	if _, err := workspace.Watch(context.Background(), nil, workspace.WatchOptions{}); !errors.Is(err, workspace.ErrNilSnapshot) {
		t.Fatalf("err = %v", err)
	}
}
