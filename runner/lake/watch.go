package lake

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/fsnotify/fsnotify"
	"github.com/laktory/workbench/delta"
)

// watchSettle coalesces a burst of log events (a commit's temporary file,
// its link, a checkpoint) into one change.
const watchSettle = 50 * time.Millisecond

// WatchTable watches the Delta table folder at path, which may not exist
// yet: the channel it returns receives a value (coalesced) after each
// commit to its _delta_log, its creation and its removal; the function it
// returns ends the watch and closes the channel. It watches the table's _delta_log with fsnotify, or
// while that does not exist the nearest existing folder on the way to
// it, moving down or up as folders come and go.
func WatchTable(path string) (<-chan struct{}, func(), error) {
	if delta.IsRemoteLocation(path) {
		return pollTable(path, RemotePollInterval)
	}
	w, err := fsnotify.NewWatcher()
	if err != nil {
		return nil, nil, err
	}
	path = filepath.Clean(path)
	logDir := filepath.Join(path, delta.LogDirName)
	target := ""
	// follow watches the deepest existing folder of logDir and its
	// parents; it reports whether the target moved.
	follow := func() bool {
		want := logDir
		for {
			if st, err := os.Stat(want); err == nil && st.IsDir() {
				break
			}
			up := filepath.Dir(want)
			if up == want {
				break
			}
			want = up
		}
		if want == target {
			return false
		}
		if target != "" {
			w.Remove(target) //nolint:errcheck // gone already, or replaced below
		}
		if w.Add(want) == nil {
			target = want
		} else {
			target = ""
		}
		return true
	}
	follow()
	changes := make(chan struct{}, 1)
	done := make(chan struct{})
	go func() {
		defer close(changes) // the command waiting on it ends
		var settle <-chan time.Time
		for {
			select {
			case <-done:
				return
			case ev, ok := <-w.Events:
				if !ok {
					return
				}
				moved := follow()
				if moved || target == logDir || ev.Name == path || strings.HasPrefix(path, ev.Name+string(filepath.Separator)) ||
					strings.HasPrefix(ev.Name, path+string(filepath.Separator)) {
					settle = time.After(watchSettle)
				}
			case <-w.Errors:
			case <-settle:
				settle = nil
				select {
				case changes <- struct{}{}:
				default: // a change is pending already
				}
			}
		}
	}()
	stop := func() {
		close(done)
		w.Close()
	}
	return changes, stop, nil
}

// RemotePollInterval is how often WatchTable lists the log of a table in
// a bucket (one LIST request each): an object store sends no events.
var RemotePollInterval = 5 * time.Second

// pollTable is WatchTable for a table in an object store: it lists the
// table's log every interval and reports a change of its latest version,
// its creation and its removal.
func pollTable(uri string, interval time.Duration) (<-chan struct{}, func(), error) {
	changes := make(chan struct{}, 1)
	ctx, cancel := context.WithCancel(context.Background())
	latest := func() int64 {
		t, err := delta.Open(ctx, uri)
		if err != nil {
			return -1
		}
		v, err := t.LatestVersion(ctx)
		if err != nil {
			return -1
		}
		return v
	}
	go func() {
		defer close(changes)
		seen := latest()
		tick := time.NewTicker(interval)
		defer tick.Stop()
		for {
			select {
			case <-ctx.Done():
				return
			case <-tick.C:
			}
			if v := latest(); v != seen && ctx.Err() == nil {
				seen = v
				select {
				case changes <- struct{}{}:
				default: // a change is pending already
				}
			}
		}
	}()
	return changes, cancel, nil
}
