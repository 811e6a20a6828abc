package workspace

import (
	"bytes"
	"context"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/fsnotify/fsnotify"
)

// DefaultDebounce is the quiet period after the last change before Watch
// reloads: editors write a file in several steps (truncate, write, rename).
const DefaultDebounce = 150 * time.Millisecond

// WatchOptions tune Watch.
type WatchOptions struct {
	// Debounce is the quiet period before a reload (DefaultDebounce when 0).
	Debounce time.Duration
}

// Event is one reload of a watched workspace: the new snapshot and the
// paths that changed, or Err when watching failed (the watch goes on).
type Event struct {
	Snapshot *Snapshot
	Changed  []string
	Err      error
}

// Watch watches the folders of the workspace of prev (and the folders of
// files it includes from outside) and sends a new snapshot after files
// change, parsing only what changed. Changes are debounced; an editor's
// rename-on-save, new and removed subfolders are handled. When the reader is
// slow, pending snapshots are merged: it always receives the latest one. The
// channel is closed when ctx is done.
func Watch(ctx context.Context, prev *Snapshot, opts WatchOptions) (<-chan Event, error) {
	if prev == nil {
		return nil, ErrNilSnapshot
	}
	fw, err := fsnotify.NewWatcher()
	if err != nil {
		return nil, fmt.Errorf("watch %s: %w", prev.Dir, err)
	}
	w := &watcher{fw: fw, cur: prev, watched: map[string]bool{}, debounce: opts.Debounce}
	if w.debounce <= 0 {
		w.debounce = DefaultDebounce
	}
	if _, err := w.addTree(prev.Dir); err != nil {
		fw.Close()
		return nil, fmt.Errorf("watch %s: %w", prev.Dir, err)
	}
	w.addDeps()
	out := make(chan Event, 1)
	go w.run(ctx, out)
	return out, nil
}

type watcher struct {
	fw       *fsnotify.Watcher
	cur      *Snapshot
	watched  map[string]bool
	debounce time.Duration
}

// addTree watches dir and its non-hidden subfolders; it returns the files
// found (created before the watch could see them).
func (w *watcher) addTree(dir string) ([]string, error) {
	var files []string
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			if p == dir {
				return err
			}
			return nil
		}
		if !d.IsDir() {
			files = append(files, p)
			return nil
		}
		if p != dir && hidden(d.Name()) {
			return filepath.SkipDir
		}
		if !w.watched[p] {
			if err := w.fw.Add(p); err != nil {
				return err
			}
			w.watched[p] = true
		}
		return nil
	})
	return files, err
}

// addDeps watches the folders of included files outside the workspace.
func (w *watcher) addDeps() {
	for _, r := range w.cur.results {
		for _, d := range r.deps {
			dir := d
			if st, err := os.Stat(d); err != nil || !st.IsDir() {
				dir = filepath.Dir(d)
			}
			if !w.watched[dir] && (dir == w.cur.Dir || !within(dir, w.cur.Dir)) {
				if w.fw.Add(dir) == nil {
					w.watched[dir] = true
				}
			}
		}
	}
}

// relevant reports whether a change of path may change the snapshot.
func (w *watcher) relevant(path string) bool {
	if hidden(filepath.Base(path)) {
		return false
	}
	if isYAML(path) || strings.HasSuffix(path, ".sql") {
		return true
	}
	if w.watched[path] { // a watched folder (removed or renamed)
		return true
	}
	if st, err := os.Stat(path); err == nil && st.IsDir() {
		return true
	}
	for _, r := range w.cur.results {
		if slices.Contains(r.deps, path) {
			return true
		}
	}
	return false
}

func (w *watcher) run(ctx context.Context, out chan<- Event) {
	defer close(out)
	defer w.fw.Close()
	pending := map[string]bool{}
	timer := time.NewTimer(time.Hour)
	timer.Stop()
	var send chan<- Event
	var next Event
	for {
		select {
		case <-ctx.Done():
			return
		case send <- next:
			send, next = nil, Event{}
		case ev, ok := <-w.fw.Events:
			if !ok {
				return
			}
			if !w.relevant(ev.Name) {
				continue
			}
			pending[ev.Name] = true
			if ev.Has(fsnotify.Create) {
				if st, err := os.Stat(ev.Name); err == nil && st.IsDir() && !hidden(filepath.Base(ev.Name)) {
					files, _ := w.addTree(ev.Name)
					for _, f := range files {
						pending[f] = true
					}
				}
			}
			if ev.Has(fsnotify.Remove) || ev.Has(fsnotify.Rename) {
				for d := range w.watched {
					if d == ev.Name || within(d, ev.Name) {
						delete(w.watched, d)
					}
				}
			}
			timer.Reset(w.debounce)
		case err, ok := <-w.fw.Errors:
			if !ok {
				return
			}
			next, send = w.merge(next, Event{Err: err}), out
		case <-timer.C:
			changed := w.changed(pending)
			clear(pending)
			if len(changed) == 0 {
				continue
			}
			snap, err := Reload(ctx, w.cur, changed)
			if err != nil {
				if ctx.Err() != nil {
					return
				}
				next, send = w.merge(next, Event{Err: err, Changed: changed}), out
				continue
			}
			w.cur = snap
			w.addDeps()
			next, send = w.merge(next, Event{Snapshot: snap, Changed: changed}), out
		}
	}
}

// changed returns the pending paths whose content differs from the current
// snapshot (a save that rewrites the same bytes changes nothing).
func (w *watcher) changed(pending map[string]bool) []string {
	var out []string
	for p := range pending {
		st, err := os.Stat(p)
		if err == nil && !st.IsDir() {
			if old := w.cur.Content(p); old != nil {
				if b, err := os.ReadFile(p); err == nil && bytes.Equal(b, old) {
					continue
				}
			}
		}
		out = append(out, p)
	}
	slices.Sort(out)
	return out
}

// merge folds a new event into one not yet delivered.
func (w *watcher) merge(prev, ev Event) Event {
	if prev.Snapshot == nil && prev.Err == nil {
		return ev
	}
	changed := slices.Concat(prev.Changed, ev.Changed)
	slices.Sort(changed)
	ev.Changed = slices.Compact(changed)
	if ev.Snapshot == nil {
		ev.Snapshot = prev.Snapshot
	}
	if ev.Err == nil {
		ev.Err = prev.Err
	}
	return ev
}
