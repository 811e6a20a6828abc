package watch

import (
	"context"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/fsnotify/fsnotify"

	"github.com/laktory/workbench/workspace"
)

// batchDelay gathers the file events that come together (a copy of
// several files) into one batch.
const batchDelay = 50 * time.Millisecond

// Sources watches the files the file sources of a workspace read: their
// folders and subfolders (new ones included), or the folder of a source
// that names a file. New and changed files are reported, in batches.
type Sources struct {
	fw      *fsnotify.Watcher
	out     chan []string
	snaps   chan *workspace.Snapshot
	watched map[string]bool // used by the watching goroutine only
}

// WatchSources starts watching the sources of snap until ctx is done.
func WatchSources(ctx context.Context, snap *workspace.Snapshot) (*Sources, error) {
	fw, err := fsnotify.NewWatcher()
	if err != nil {
		return nil, fmt.Errorf("watch the sources: %w", err)
	}
	s := &Sources{fw: fw, out: make(chan []string, 1), snaps: make(chan *workspace.Snapshot, 1), watched: map[string]bool{}}
	s.follow(snap)
	go s.run(ctx)
	return s, nil
}

// Changes delivers the files changed, in batches; it is closed when the
// watch ends. A slow reader gets the batches merged.
func (s *Sources) Changes() <-chan []string { return s.out }

// Update follows the sources of a new snapshot (sources added or moved).
func (s *Sources) Update(snap *workspace.Snapshot) {
	select {
	case <-s.snaps: // an update not taken yet: the newer wins
	default:
	}
	s.snaps <- snap
}

// follow watches the folders the sources of snap read.
func (s *Sources) follow(snap *workspace.Snapshot) {
	for _, src := range FileSources(snap) {
		root := src.Source.ResolvedPath
		if st, err := os.Stat(root); err != nil || !st.IsDir() {
			root = filepath.Dir(root)
			if src.Source.ResolvedPath != root && hasGlob(src.Source.ResolvedPath) {
				root = globRoot(src.Source.ResolvedPath)
			}
		}
		s.addTree(root)
	}
}

func hasGlob(p string) bool { return strings.ContainsAny(p, "*?[") }

// addTree watches dir and the folders below it; it returns the files
// already there (created before the watch could see them).
func (s *Sources) addTree(dir string) []string {
	var files []string
	filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error { //nolint:errcheck // best effort: a folder that goes away is not watched
		switch {
		case err != nil:
			return nil
		case !d.IsDir():
			files = append(files, p)
		case !s.watched[p] && s.fw.Add(p) == nil:
			s.watched[p] = true
		}
		return nil
	})
	return files
}

func (s *Sources) run(ctx context.Context) {
	defer close(s.out)
	defer s.fw.Close()
	var pending []string
	timer := time.NewTimer(time.Hour)
	timer.Stop()
	var send chan<- []string
	var batch []string
	for {
		select {
		case <-ctx.Done():
			return
		case snap := <-s.snaps:
			s.follow(snap)
		case send <- batch:
			send, batch = nil, nil
		case ev, ok := <-s.fw.Events:
			if !ok {
				return
			}
			if !ev.Has(fsnotify.Create) && !ev.Has(fsnotify.Write) {
				continue // a removed file needs no run
			}
			if st, err := os.Stat(ev.Name); err == nil && st.IsDir() {
				pending = append(pending, s.addTree(ev.Name)...)
			} else if err == nil {
				pending = append(pending, ev.Name)
			}
			timer.Reset(batchDelay)
		case <-s.fw.Errors:
		case <-timer.C:
			batch = append(batch, pending...)
			slices.Sort(batch)
			batch = slices.Compact(batch)
			pending = nil
			if len(batch) > 0 {
				send = s.out
			}
		}
	}
}
