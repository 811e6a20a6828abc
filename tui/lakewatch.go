package tui

import "github.com/laktory/workbench/runner/lake"

// TableWatcher tells when a table's log changes. DeltaLake implements it;
// the workbench watches the table it shows through it (when its Lake
// does), so the Table tab follows commits by any process.
type TableWatcher interface {
	// WatchTable watches the Delta table folder at path, which may not
	// exist yet: changes receives a value (coalesced) after each commit to
	// its _delta_log, its creation and its removal. stop ends the watch
	// and closes changes.
	WatchTable(path string) (changes <-chan struct{}, stop func(), err error)
}

// WatchTable implements TableWatcher (lake.WatchTable: fsnotify on the
// table's _delta_log, or the nearest existing folder on the way to it).
func (l *DeltaLake) WatchTable(path string) (<-chan struct{}, func(), error) {
	return lake.WatchTable(path)
}
