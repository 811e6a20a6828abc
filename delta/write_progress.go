package delta

import (
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/parquet-go/parquet-go"
)

// WriteProgress is how far the data files of an operation are written
// (WriteOptions.Progress).
type WriteProgress struct {
	// Files and Bytes are the data files started so far and their size on
	// disk.
	Files int
	Bytes int64
	// Rows counts the rows of the files finished so far: while an
	// unpartitioned table is written (one file at a time), the files before
	// the one being written, from their footers; partitioned files finish
	// together at the end. Exact when Done.
	Rows int64
	// Done is set on the last report, once the files are written.
	Done bool
}

// DefaultProgressInterval is how often a write reports its progress
// unless WriteOptions.ProgressInterval says otherwise.
const DefaultProgressInterval = 250 * time.Millisecond

// watchWrite reports the progress of the data files of write writeID
// every ProgressInterval, from another goroutine, until the returned
// function is called with the write's outcome; it then reports the final
// figures of a write that succeeded.
func (tx *Transaction) watchWrite(writeID string, partitioned bool) func(adds *[]*Add, err *error) {
	report := tx.opts.Progress
	if report == nil {
		return func(*[]*Add, *error) {}
	}
	stop, stopped := make(chan struct{}), make(chan struct{})
	wroot, _ := tx.writeRoot()
	go func() {
		defer close(stopped)
		m := writeMeter{root: wroot, writeID: writeID, partitioned: partitioned, rows: map[string]int64{}}
		every := tx.opts.ProgressInterval
		if every <= 0 {
			every = DefaultProgressInterval
		}
		t := time.NewTicker(every)
		defer t.Stop()
		for {
			select {
			case <-stop:
				return
			case <-t.C:
				if p := m.measure(); p.Bytes > 0 {
					report(p)
				}
			}
		}
	}()
	return func(adds *[]*Add, err *error) {
		close(stop)
		<-stopped
		if *err != nil {
			return
		}
		p := WriteProgress{Files: len(*adds), Done: true}
		for _, a := range *adds {
			p.Bytes += a.Size
			if n, ok := a.NumRecords(); ok {
				p.Rows += n
			}
		}
		report(p)
	}
}

// writeMeter measures the data files of one write on disk.
type writeMeter struct {
	root, writeID string
	partitioned   bool
	rows          map[string]int64 // rows of the files known to be finished
}

// measure sums the files of the write: their sizes, and the rows of those
// finished (unpartitioned: every file but the last one started).
func (m *writeMeter) measure() WriteProgress {
	var files []string
	var p WriteProgress
	add := func(path string, info fs.FileInfo) {
		files = append(files, path)
		p.Files++
		p.Bytes += info.Size()
	}
	mine := func(name string) bool {
		return strings.Contains(name, "-"+m.writeID+"-") && strings.HasSuffix(name, ".parquet")
	}
	if m.partitioned {
		filepath.WalkDir(m.root, func(path string, d fs.DirEntry, err error) error { //nolint:errcheck // a best-effort measure
			switch {
			case err != nil:
				return nil
			case d.IsDir() && d.Name() == LogDirName:
				return filepath.SkipDir
			case !d.IsDir() && mine(d.Name()):
				if info, err := d.Info(); err == nil {
					add(path, info)
				}
			}
			return nil
		})
		return p
	}
	entries, _ := os.ReadDir(m.root)
	for _, e := range entries {
		if !e.IsDir() && mine(e.Name()) {
			if info, err := e.Info(); err == nil {
				add(filepath.Join(m.root, e.Name()), info)
			}
		}
	}
	// Files are part-<i>-...: all but the highest i are finished.
	slices.SortFunc(files, func(a, b string) int { return partIndex(a) - partIndex(b) })
	for i, f := range files {
		n, ok := m.rows[f]
		if !ok && i < len(files)-1 {
			if n, ok = parquetRows(f); ok {
				m.rows[f] = n
			}
		}
		p.Rows += n
	}
	return p
}

// partIndex is the <i> of a data file named part-<i>-... (-1 otherwise).
func partIndex(path string) int {
	rest, ok := strings.CutPrefix(filepath.Base(path), "part-")
	if !ok {
		return -1
	}
	i, _, _ := strings.Cut(rest, "-")
	n, err := strconv.Atoi(i)
	if err != nil {
		return -1
	}
	return n
}

// parquetRows reads the row count of a finished parquet file from its
// footer.
func parquetRows(path string) (n int64, ok bool) {
	f, err := os.Open(path)
	if err != nil {
		return 0, false
	}
	defer f.Close()
	st, err := f.Stat()
	if err != nil {
		return 0, false
	}
	defer func() {
		if recover() != nil { // parquet-go may panic on a file being written
			n, ok = 0, false
		}
	}()
	pf, err := parquet.OpenFile(f, st.Size(), parquet.SkipPageIndex(true), parquet.SkipBloomFilters(true))
	if err != nil {
		return 0, false
	}
	return pf.NumRows(), true
}
