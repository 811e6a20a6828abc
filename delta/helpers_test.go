package delta

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/parquet-go/parquet-go"
)

// Test helpers that write Delta logs by hand.

const testSchemaString = `{"type":"struct","fields":[{"name":"id","type":"long","nullable":true,"metadata":{}},{"name":"part","type":"string","nullable":true,"metadata":{}}]}`

func ptr[T any](v T) *T { return &v }

func protocolAction(r, w int, features ...string) Action {
	p := &Protocol{MinReaderVersion: r, MinWriterVersion: w}
	if r >= 3 {
		p.ReaderFeatures = features
	}
	if w >= 7 {
		p.WriterFeatures = features
	}
	return Action{Protocol: p}
}

func metadataAction(schema string, partCols []string, conf map[string]string) Action {
	return Action{MetaData: &Metadata{ID: "test-table-id", SchemaString: schema, PartitionColumns: partCols, Configuration: conf, CreatedTime: ptr(int64(1))}}
}

func infoAction(op string, tsMillis int64) Action {
	return Action{CommitInfo: &CommitInfo{Timestamp: tsMillis, Operation: op}}
}

func addAction(path string, pv map[string]*string, numRecords int64) Action {
	return Action{Add: &Add{Path: path, PartitionValues: pv, Size: 100, ModificationTime: 1000,
		DataChange: true, Stats: fmt.Sprintf(`{"numRecords":%d}`, numRecords)}}
}

func removeAction(path string) Action {
	return Action{Remove: &Remove{Path: path, DataChange: true, DeletionTimestamp: ptr(int64(2000))}}
}

// writeCommit writes commit file v of the table at root.
func writeCommit(t testing.TB, root string, v int64, actions ...Action) {
	t.Helper()
	b, err := MarshalCommit(actions)
	if err != nil {
		t.Fatal(err)
	}
	writeLogFile(t, root, CommitFileName(v), b)
}

func writeLogFile(t testing.TB, root, name string, data []byte) {
	t.Helper()
	dir := filepath.Join(root, LogDirName)
	if err := os.MkdirAll(filepath.Dir(filepath.Join(dir, name)), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, name), data, 0o644); err != nil {
		t.Fatal(err)
	}
}

// newBasicTable writes version 0 (protocol, metadata) of a table
// partitioned by part and returns its root.
func newBasicTable(t testing.TB) string {
	t.Helper()
	root := t.TempDir()
	writeCommit(t, root, 0, infoAction("CREATE TABLE", 1_000_000),
		protocolAction(1, 2), metadataAction(testSchemaString, []string{"part"}, nil))
	return root
}

func mustSnapshot(t testing.TB, root string, opts ...SnapshotOption) *Snapshot {
	t.Helper()
	s, err := LoadSnapshot(context.Background(), root, opts...)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// Checkpoint rows as tests write them with parquet-go (the column layout
// of Spark's checkpoints; every column optional).
type (
	cpDeletionVector struct {
		StorageType    *string `parquet:"storageType,optional"`
		PathOrInlineDv *string `parquet:"pathOrInlineDv,optional"`
		Offset         *int32  `parquet:"offset,optional"`
		SizeInBytes    *int32  `parquet:"sizeInBytes,optional"`
		Cardinality    *int64  `parquet:"cardinality,optional"`
		MaxRowIndex    *int64  `parquet:"maxRowIndex,optional"`
	}
	cpAdd struct {
		Path                    *string            `parquet:"path,optional"`
		PartitionValues         map[string]*string `parquet:"partitionValues,optional"`
		Size                    *int64             `parquet:"size,optional"`
		ModificationTime        *int64             `parquet:"modificationTime,optional"`
		DataChange              *bool              `parquet:"dataChange,optional"`
		Tags                    map[string]*string `parquet:"tags,optional"`
		DeletionVector          *cpDeletionVector  `parquet:"deletionVector,optional"`
		BaseRowID               *int64             `parquet:"baseRowId,optional"`
		DefaultRowCommitVersion *int64             `parquet:"defaultRowCommitVersion,optional"`
		Stats                   *string            `parquet:"stats,optional"`
		ClusteringProvider      *string            `parquet:"clusteringProvider,optional"`
	}
	cpRemove struct {
		Path                    *string            `parquet:"path,optional"`
		DeletionTimestamp       *int64             `parquet:"deletionTimestamp,optional"`
		DataChange              *bool              `parquet:"dataChange,optional"`
		ExtendedFileMetadata    *bool              `parquet:"extendedFileMetadata,optional"`
		PartitionValues         map[string]*string `parquet:"partitionValues,optional"`
		Size                    *int64             `parquet:"size,optional"`
		DeletionVector          *cpDeletionVector  `parquet:"deletionVector,optional"`
		BaseRowID               *int64             `parquet:"baseRowId,optional"`
		DefaultRowCommitVersion *int64             `parquet:"defaultRowCommitVersion,optional"`
	}
	cpTxn struct {
		AppID       *string `parquet:"appId,optional"`
		Version     *int64  `parquet:"version,optional"`
		LastUpdated *int64  `parquet:"lastUpdated,optional"`
	}
	cpFormat struct {
		Provider *string            `parquet:"provider,optional"`
		Options  map[string]*string `parquet:"options,optional"`
	}
	cpMetadata struct {
		ID               *string            `parquet:"id,optional"`
		Name             *string            `parquet:"name,optional"`
		Description      *string            `parquet:"description,optional"`
		Format           *cpFormat          `parquet:"format,optional"`
		SchemaString     *string            `parquet:"schemaString,optional"`
		PartitionColumns []string           `parquet:"partitionColumns,optional,list"`
		Configuration    map[string]*string `parquet:"configuration,optional"`
		CreatedTime      *int64             `parquet:"createdTime,optional"`
	}
	cpProtocol struct {
		MinReaderVersion *int32   `parquet:"minReaderVersion,optional"`
		MinWriterVersion *int32   `parquet:"minWriterVersion,optional"`
		ReaderFeatures   []string `parquet:"readerFeatures,optional,list"`
		WriterFeatures   []string `parquet:"writerFeatures,optional,list"`
	}
	cpDomainMetadata struct {
		Domain        *string `parquet:"domain,optional"`
		Configuration *string `parquet:"configuration,optional"`
		Removed       *bool   `parquet:"removed,optional"`
	}
	cpCheckpointMetadata struct {
		Version *int64             `parquet:"version,optional"`
		Tags    map[string]*string `parquet:"tags,optional"`
	}
	cpSidecar struct {
		Path             *string            `parquet:"path,optional"`
		SizeInBytes      *int64             `parquet:"sizeInBytes,optional"`
		ModificationTime *int64             `parquet:"modificationTime,optional"`
		Tags             map[string]*string `parquet:"tags,optional"`
	}
	cpRow struct {
		Txn                *cpTxn                `parquet:"txn,optional"`
		Add                *cpAdd                `parquet:"add,optional"`
		Remove             *cpRemove             `parquet:"remove,optional"`
		MetaData           *cpMetadata           `parquet:"metaData,optional"`
		Protocol           *cpProtocol           `parquet:"protocol,optional"`
		DomainMetadata     *cpDomainMetadata     `parquet:"domainMetadata,optional"`
		CheckpointMetadata *cpCheckpointMetadata `parquet:"checkpointMetadata,optional"`
		Sidecar            *cpSidecar            `parquet:"sidecar,optional"`
	}
)

// checkpointRow converts an action to a checkpoint parquet row (the
// inverse of cpRow.action).
func checkpointRow(a Action) cpRow {
	optMap := func(m map[string]string) map[string]*string {
		if m == nil {
			return nil
		}
		out := map[string]*string{}
		for k, v := range m {
			out[k] = ptr(v)
		}
		return out
	}
	dv := func(d *DeletionVector) *cpDeletionVector {
		if d == nil {
			return nil
		}
		return &cpDeletionVector{StorageType: &d.StorageType, PathOrInlineDv: &d.PathOrInlineDv, Offset: d.Offset,
			SizeInBytes: &d.SizeInBytes, Cardinality: &d.Cardinality, MaxRowIndex: d.MaxRowIndex}
	}
	var r cpRow
	switch {
	case a.Add != nil:
		x := a.Add
		r.Add = &cpAdd{Path: &x.Path, PartitionValues: x.PartitionValues, Size: &x.Size,
			ModificationTime: &x.ModificationTime, DataChange: &x.DataChange, Tags: optMap(x.Tags),
			DeletionVector: dv(x.DeletionVector), BaseRowID: x.BaseRowID, DefaultRowCommitVersion: x.DefaultRowCommitVersion}
		if x.Stats != "" {
			r.Add.Stats = &x.Stats
		}
	case a.Remove != nil:
		x := a.Remove
		r.Remove = &cpRemove{Path: &x.Path, DeletionTimestamp: x.DeletionTimestamp, DataChange: &x.DataChange,
			ExtendedFileMetadata: x.ExtendedFileMetadata, PartitionValues: x.PartitionValues, Size: x.Size,
			DeletionVector: dv(x.DeletionVector)}
	case a.Txn != nil:
		r.Txn = &cpTxn{AppID: &a.Txn.AppID, Version: &a.Txn.Version, LastUpdated: a.Txn.LastUpdated}
	case a.MetaData != nil:
		x := a.MetaData
		prov := x.Format.Provider
		if prov == "" {
			prov = "parquet"
		}
		r.MetaData = &cpMetadata{ID: &x.ID, SchemaString: &x.SchemaString, PartitionColumns: x.PartitionColumns,
			Configuration: optMap(x.Configuration), CreatedTime: x.CreatedTime,
			Format: &cpFormat{Provider: &prov, Options: map[string]*string{}}}
	case a.Protocol != nil:
		x := a.Protocol
		r.Protocol = &cpProtocol{MinReaderVersion: ptr(int32(x.MinReaderVersion)), MinWriterVersion: ptr(int32(x.MinWriterVersion)),
			ReaderFeatures: x.ReaderFeatures, WriterFeatures: x.WriterFeatures}
	case a.DomainMetadata != nil:
		x := a.DomainMetadata
		r.DomainMetadata = &cpDomainMetadata{Domain: &x.Domain, Configuration: &x.Configuration, Removed: &x.Removed}
	case a.CheckpointMetadata != nil:
		r.CheckpointMetadata = &cpCheckpointMetadata{Version: &a.CheckpointMetadata.Version}
	case a.Sidecar != nil:
		x := a.Sidecar
		r.Sidecar = &cpSidecar{Path: &x.Path, SizeInBytes: &x.SizeInBytes, ModificationTime: &x.ModificationTime}
	}
	return r
}

// writeParquetActions writes actions as checkpoint rows to path.
func writeParquetActions(t testing.TB, path string, actions []Action) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	f, err := os.Create(path)
	if err != nil {
		t.Fatal(err)
	}
	w := parquet.NewGenericWriter[cpRow](f)
	rows := make([]cpRow, len(actions))
	for i, a := range actions {
		rows[i] = checkpointRow(a)
	}
	if _, err := w.Write(rows); err != nil {
		t.Fatal(err)
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	if err := f.Close(); err != nil {
		t.Fatal(err)
	}
}

// writeClassicCheckpoint writes the classic checkpoint of snapshot s, plus
// _last_checkpoint, with the production checkpoint writer.
func writeClassicCheckpoint(t testing.TB, s *Snapshot) {
	t.Helper()
	if _, err := WriteCheckpoint(context.Background(), s); err != nil {
		t.Fatal(err)
	}
}

// snapshotActions lists the actions a checkpoint of s holds (for tests
// that split them into multi-part checkpoints or sidecars).
func snapshotActions(s *Snapshot) []Action {
	return checkpointActions(s, time.Now())
}
