package schemaflow

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"

	"github.com/laktory/workbench/delta"
	"github.com/laktory/workbench/workspace"
)

// Options configure a Flow.
type Options struct {
	// StoreDir is a folder where the flow keeps what it read and bound
	// between processes, one file per workspace ("": in memory only), so
	// that `laktory validate` run again on unchanged files binds nothing.
	StoreDir string
	// Version identifies the engine (the program and its DuckDB): a file
	// another version stored is ignored.
	Version string
}

// stored is the store file of a workspace.
type stored struct {
	Version string                 `json:"version"`
	Files   map[string][]Column    `json:"files"`  // FileVersion -> schema
	Tables  map[string]storedTable `json:"tables"` // folder -> schema at a version
	Nodes   map[string]storedNode  `json:"nodes"`  // hex node id -> binding
}

type storedTable struct {
	Version int64    `json:"version"`
	Stamp   string   `json:"stamp,omitempty"`
	Columns []Column `json:"columns"`
}

type storedNode struct {
	Key       string `json:"key"`
	Output    Output `json:"output"`
	Unchecked bool   `json:"unchecked,omitempty"`
}

// storeFile is the store file of a snapshot's workspace, "" without a
// store.
func (f *Flow) storeFile(snap *workspace.Snapshot) string {
	if f.opts.StoreDir == "" {
		return ""
	}
	h := sha256.Sum256([]byte(snap.Dir + "\x00" + snap.Layout.Lake))
	return filepath.Join(f.opts.StoreDir, hex.EncodeToString(h[:12])+".json")
}

// load merges the store file of the snapshot's workspace into the caches,
// once per process and file. A missing, unreadable or foreign file is
// ignored: it is a cache.
func (f *Flow) load(snap *workspace.Snapshot) {
	path := f.storeFile(snap)
	if path == "" || f.loaded[path] {
		return
	}
	f.loaded[path] = true
	b, err := os.ReadFile(path)
	if err != nil {
		return
	}
	var s stored
	if json.Unmarshal(b, &s) != nil || s.Version != f.opts.Version {
		return
	}
	for v, cols := range s.Files {
		if _, ok := f.files[v]; !ok {
			f.files[v] = fileEntry{cols: cols}
		}
	}
	for p, t := range s.Tables {
		if _, ok := f.tables[p]; !ok {
			f.tables[p] = &tableEntry{version: t.Version, stamp: t.Stamp, exists: true, cols: t.Columns}
		}
	}
	for id, n := range s.Nodes {
		raw, err := hex.DecodeString(id)
		if err != nil {
			continue
		}
		if _, ok := f.nodes[string(raw)]; !ok {
			e := nodeEntry{key: n.Key, out: n.Output}
			if n.Unchecked {
				e.err = ErrUnchecked
			}
			f.nodes[string(raw)] = e
		}
	}
}

// save writes the caches to the store file when a check added to them
// (best effort: a read-only folder only costs the next process a cold
// check). The file is replaced whole, so a concurrent reader sees the old
// or the new one.
func (f *Flow) save(snap *workspace.Snapshot) {
	path := f.storeFile(snap)
	if path == "" || !f.dirty {
		return
	}
	f.dirty = false
	s := stored{Version: f.opts.Version, Files: map[string][]Column{}, Tables: map[string]storedTable{}, Nodes: map[string]storedNode{}}
	for v, e := range f.files {
		if e.err == nil {
			s.Files[v] = e.cols
		}
	}
	for p, e := range f.tables {
		if e.err == nil && e.exists {
			s.Tables[p] = storedTable{Version: e.version, Stamp: e.stamp, Columns: e.cols}
		}
	}
	for id, e := range f.nodes {
		if e.err == nil || errors.Is(e.err, ErrUnchecked) {
			s.Nodes[hex.EncodeToString([]byte(id))] = storedNode{Key: e.key, Output: e.out, Unchecked: e.err != nil}
		}
	}
	b, err := json.Marshal(s)
	if err != nil || os.MkdirAll(filepath.Dir(path), 0o755) != nil {
		return
	}
	tmp, err := os.CreateTemp(filepath.Dir(path), ".schemaflow-*")
	if err != nil {
		return
	}
	_, werr := tmp.Write(b)
	if cerr := tmp.Close(); werr != nil || cerr != nil || os.Rename(tmp.Name(), path) != nil {
		delta.RemoveFile(tmp.Name()) //nolint:errcheck // best effort: a leftover temporary file in the cache folder
	}
}
