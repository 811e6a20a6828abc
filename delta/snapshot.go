package delta

import (
	"cmp"
	"fmt"
	"maps"
	"path/filepath"
	"slices"
	"strings"
	"time"
)

// replayState accumulates actions during log replay (Action
// Reconciliation of the protocol).
type replayState struct {
	protocol   *Protocol
	metadata   *Metadata
	files      map[FileKey]*Add
	tombstones map[FileKey]*Remove
	txns       map[string]Txn
	domains    map[string]DomainMetadata
}

func newReplayState() *replayState {
	return &replayState{
		files:      map[FileKey]*Add{},
		tombstones: map[FileKey]*Remove{},
		txns:       map[string]Txn{},
		domains:    map[string]DomainMetadata{},
	}
}

// apply applies one action, in log order: the newest protocol, metaData,
// txn per appId and domainMetadata per domain win; an add or remove
// replaces any older action on the same (path, dvId).
func (s *replayState) apply(a Action) error {
	switch {
	case a.Add != nil:
		k := a.Add.Key()
		s.files[k] = a.Add
		delete(s.tombstones, k)
	case a.Remove != nil:
		k := a.Remove.Key()
		delete(s.files, k)
		s.tombstones[k] = a.Remove
	case a.MetaData != nil:
		s.metadata = a.MetaData
	case a.Protocol != nil:
		s.protocol = a.Protocol
	case a.Txn != nil:
		s.txns[a.Txn.AppID] = *a.Txn
	case a.DomainMetadata != nil:
		if a.DomainMetadata.Removed {
			delete(s.domains, a.DomainMetadata.Domain)
		} else {
			s.domains[a.DomainMetadata.Domain] = *a.DomainMetadata
		}
	}
	return nil
}

// Snapshot is the immutable state of a table at one version: protocol,
// metadata, schema, live files, tombstones, application transactions and
// domain metadata. It is safe for concurrent use. Slices and maps it
// returns are copies, except the *Add / *Remove values, which callers must
// not modify.
type Snapshot struct {
	root              string
	version           int64
	checkpointVersion int64 // -1 when replay started from version 0
	protocol          Protocol
	metadata          Metadata
	schema            *StructType
	mapping           ColumnMappingMode
	files             []*Add // sorted by (modificationTime, path)
	tombstones        []*Remove
	txns              map[string]Txn
	domains           map[string]DomainMetadata
	commit            *Commit // the commit at version (nil when cleaned up)
}

func newSnapshot(root string, version, cpVersion int64, st *replayState, last *Commit) (*Snapshot, error) {
	if st.protocol == nil {
		return nil, fmt.Errorf("%w: table %s, version %d: no protocol action in the log (every table's first commit has one)",
			ErrMissingProtocol, root, version)
	}
	if st.metadata == nil {
		return nil, fmt.Errorf("%w: table %s, version %d: no metaData action in the log (every table's first commit has one)",
			ErrMissingMetadata, root, version)
	}
	if err := st.protocol.CheckReadable(root); err != nil {
		return nil, err
	}
	if st.metadata.SchemaString == "" {
		return nil, fmt.Errorf("%w: table %s, version %d: metaData has no schemaString", ErrCorruptLog, root, version)
	}
	schema, err := st.metadata.Schema()
	if err != nil {
		return nil, fmt.Errorf("table %s, version %d: %w", root, version, err)
	}
	for _, pc := range st.metadata.PartitionColumns {
		if schema.Field(pc) == nil {
			return nil, fmt.Errorf("%w: table %s, version %d: partition column %q is not in the schema",
				ErrCorruptLog, root, version, pc)
		}
	}
	s := &Snapshot{
		root:              root,
		version:           version,
		checkpointVersion: cpVersion,
		protocol:          *st.protocol,
		metadata:          *st.metadata,
		schema:            schema,
		mapping:           ColumnMappingNone,
		txns:              st.txns,
		domains:           st.domains,
		commit:            last,
	}
	if st.protocol.columnMappingEnabled() {
		switch m := ColumnMappingMode(st.metadata.Configuration["delta.columnMapping.mode"]); m {
		case ColumnMappingName, ColumnMappingID:
			s.mapping = m
		}
	}
	s.files = make([]*Add, 0, len(st.files))
	for _, a := range st.files {
		s.files = append(s.files, a)
	}
	slices.SortFunc(s.files, func(a, b *Add) int {
		if c := cmp.Compare(a.ModificationTime, b.ModificationTime); c != 0 {
			return c
		}
		if c := strings.Compare(a.Path, b.Path); c != 0 {
			return c
		}
		return strings.Compare(a.DeletionVector.UniqueID(), b.DeletionVector.UniqueID())
	})
	s.tombstones = make([]*Remove, 0, len(st.tombstones))
	for _, r := range st.tombstones {
		s.tombstones = append(s.tombstones, r)
	}
	slices.SortFunc(s.tombstones, func(a, b *Remove) int { return strings.Compare(a.Path, b.Path) })
	return s, nil
}

// Root is the table's absolute folder.
func (s *Snapshot) Root() string { return s.root }

// Version is the snapshot's version.
func (s *Snapshot) Version() int64 { return s.version }

// CheckpointVersion is the version of the checkpoint replay started from,
// or -1 when it replayed every commit from version 0.
func (s *Snapshot) CheckpointVersion() int64 { return s.checkpointVersion }

// Protocol is the table's protocol at this version.
func (s *Snapshot) Protocol() Protocol {
	p := s.protocol
	p.ReaderFeatures = slices.Clone(p.ReaderFeatures)
	p.WriterFeatures = slices.Clone(p.WriterFeatures)
	return p
}

// Metadata is the table's metaData at this version.
func (s *Snapshot) Metadata() Metadata {
	m := s.metadata
	m.PartitionColumns = slices.Clone(m.PartitionColumns)
	m.Configuration = maps.Clone(m.Configuration)
	m.Format.Options = maps.Clone(m.Format.Options)
	return m
}

// TableID is metaData.id, the table's unique id (Spark's reservoirId).
func (s *Snapshot) TableID() string { return s.metadata.ID }

// Schema is the table's logical schema. Callers must not modify it.
func (s *Snapshot) Schema() *StructType { return s.schema }

// PartitionColumns are the table's partition columns, in order.
func (s *Snapshot) PartitionColumns() []string { return slices.Clone(s.metadata.PartitionColumns) }

// Properties are the table properties (metaData.configuration).
func (s *Snapshot) Properties() map[string]string {
	p := maps.Clone(s.metadata.Configuration)
	if p == nil {
		p = map[string]string{}
	}
	return p
}

// isPartitionColumn reports whether the (logical) column is a partition
// column; names compare case-insensitively.
func (s *Snapshot) isPartitionColumn(name string) bool {
	for _, pc := range s.metadata.PartitionColumns {
		if strings.EqualFold(pc, name) {
			return true
		}
	}
	return false
}

// ColumnMappingMode is the column mapping mode in effect for readers.
func (s *Snapshot) ColumnMappingMode() ColumnMappingMode { return s.mapping }

// Files are the live logical files (add actions), ordered by
// (modificationTime, path): the order Spark's streaming source gives the
// files of an initial snapshot.
func (s *Snapshot) Files() []*Add { return slices.Clone(s.files) }

// NumFiles is the number of live logical files.
func (s *Snapshot) NumFiles() int { return len(s.files) }

// SizeInBytes is the total size of the live data files.
func (s *Snapshot) SizeInBytes() int64 {
	var n int64
	for _, f := range s.files {
		n += f.Size
	}
	return n
}

// NumRecords sums the live rows of every file from the stats (minus rows
// deleted by deletion vectors). ok is false when a file has no stats: the
// sum is then a lower bound.
func (s *Snapshot) NumRecords() (n int64, ok bool) {
	ok = true
	for _, f := range s.files {
		r, has := f.NumRecords()
		if !has {
			ok = false
			continue
		}
		n += r
	}
	return n, ok
}

// Tombstones are the remove actions still in the log state (for VACUUM).
func (s *Snapshot) Tombstones() []*Remove { return slices.Clone(s.tombstones) }

// AppTransactionVersion is the latest txn version committed by appID, and
// false when the application never committed one.
func (s *Snapshot) AppTransactionVersion(appID string) (int64, bool) {
	t, ok := s.txns[appID]
	return t.Version, ok
}

// AppTransactions maps every appId to its latest txn version.
func (s *Snapshot) AppTransactions() map[string]int64 {
	out := make(map[string]int64, len(s.txns))
	for k, t := range s.txns {
		out[k] = t.Version
	}
	return out
}

// DomainMetadata returns the configuration of a metadata domain, and false
// when the domain is absent or removed.
func (s *Snapshot) DomainMetadata(domain string) (string, bool) {
	d, ok := s.domains[domain]
	return d.Configuration, ok
}

// CommitInfo is the commitInfo of the commit at the snapshot's version
// (nil when that commit has none or its file was cleaned up).
func (s *Snapshot) CommitInfo() *CommitInfo {
	if s.commit == nil {
		return nil
	}
	return s.commit.Info
}

// Timestamp is the commit time of the snapshot's version (zero when the
// commit file was cleaned up).
func (s *Snapshot) Timestamp() time.Time {
	if s.commit == nil {
		return time.Time{}
	}
	return s.commit.Timestamp
}

// FilePath returns the absolute path of a file of the log (an add's or
// remove's Path): URI-decoded and joined to the table root. A path that
// resolves outside the table folder fails with ErrPathEscapesTable.
func (s *Snapshot) FilePath(logPath string) (string, error) {
	return resolveTablePath(s.root, logPath)
}

// resolveTablePath decodes a log path and resolves it inside root (for a
// remote root, to the object's URI).
func resolveTablePath(root, logPath string) (string, error) {
	if IsRemoteLocation(root) {
		key, err := tableKey(root, logPath)
		if err != nil {
			return "", err
		}
		return root + "/" + key, nil
	}
	p, err := decodeLogPath(logPath)
	if err != nil {
		return "", fmt.Errorf("table %s: %w", root, err)
	}
	if rest, ok := strings.CutPrefix(p, "file://"); ok {
		p = rest
	} else if rest, ok := strings.CutPrefix(p, "file:"); ok {
		p = rest
	}
	var abs string
	if filepath.IsAbs(p) {
		abs = filepath.Clean(p)
	} else {
		abs = filepath.Join(root, filepath.FromSlash(p))
	}
	rel, err := filepath.Rel(root, abs)
	if err != nil || rel == "." || rel == ".." || strings.HasPrefix(rel, ".."+string(filepath.Separator)) {
		return "", fmt.Errorf("%w: table %s lists file %q, which resolves to %s outside the table folder",
			ErrPathEscapesTable, root, logPath, abs)
	}
	return abs, nil
}
