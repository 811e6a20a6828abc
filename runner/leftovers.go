package runner

import (
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/laktory/workbench/delta"
)

// staleCommitAge is the age from which a temporary commit file in a
// table's log is a crash's leftover: a live writer's exists for the
// milliseconds between writing its commit and linking it into place.
const staleCommitAge = 15 * time.Minute

// cleanLeftovers removes what crashed runs left of the task's sinks, and
// says so: the temporary files of its checkpoints made before this run
// started (they are this run's to clean: it holds their exclusive locks,
// so no other run is writing them), the temporary commit files of its
// tables' logs older than staleCommitAge, and the folders of dropped tables
// renamed aside (".<table>.dropped-*") that a crash kept from being removed.
func (x *taskExec) cleanLeftovers() {
	var cleaned []string
	removeFile := func(p string) {
		if delta.RemoveFile(p) == nil {
			cleaned = append(cleaned, x.run.Plan.snap.Rel(p))
		}
	}
	stale := func(e fs.DirEntry, before time.Time) bool {
		info, err := e.Info()
		return err == nil && !e.IsDir() && info.ModTime().Before(before)
	}
	for _, sp := range x.tp.sinks {
		if dir := sp.lockDir; dir != "" && x.run.locks.Exclusive(dir) {
			filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error { //nolint:errcheck // best effort
				if err == nil && isTempFile(d.Name()) && stale(d, x.run.began) {
					removeFile(p)
				}
				return nil
			})
			prefix := "." + filepath.Base(dir) + "."
			for _, e := range readDir(filepath.Dir(dir)) {
				if strings.HasPrefix(e.Name(), prefix) && isTempFile(e.Name()) && stale(e, x.run.began) {
					removeFile(filepath.Join(filepath.Dir(dir), e.Name()))
				}
			}
		}
		if !sp.sink.IsDelta() || sp.sink.Table == "" {
			continue
		}
		table := string(sp.sink.Table)
		logDir := filepath.Join(table, delta.LogDirName)
		for _, e := range readDir(logDir) {
			if strings.HasPrefix(e.Name(), "_commit_") && strings.HasSuffix(e.Name(), ".json.tmp") && stale(e, time.Now().Add(-staleCommitAge)) {
				removeFile(filepath.Join(logDir, e.Name()))
			}
		}
		prefix := "." + filepath.Base(table) + ".dropped-"
		for _, e := range readDir(filepath.Dir(table)) {
			if p := filepath.Join(filepath.Dir(table), e.Name()); e.IsDir() && strings.HasPrefix(e.Name(), prefix) && x.run.guard.RemoveAll(p) == nil {
				cleaned = append(cleaned, x.run.Plan.snap.Rel(p))
			}
		}
	}
	if len(cleaned) > 0 {
		x.note("removed what an interrupted run left behind: " + strings.Join(cleaned, ", "))
	}
}

// isTempFile reports whether a name is one of our temporary files
// (writeFileAtomic's ".<name>.<uuid>.tmp").
func isTempFile(name string) bool {
	return strings.HasPrefix(name, ".") && strings.HasSuffix(name, ".tmp")
}

func readDir(dir string) []os.DirEntry {
	entries, _ := os.ReadDir(dir)
	return entries
}
