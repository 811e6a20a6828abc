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

// cpRow is a checkpoint row: the classic checkpoint writer's columns plus
// the V2 checkpoint's checkpointMetadata and sidecar, for hand-made V2 and
// sidecar fixtures.
type (
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
		Txn                *ckptTxn              `parquet:"txn,optional"`
		Add                *ckptAdd              `parquet:"add,optional"`
		Remove             *ckptRemove           `parquet:"remove,optional"`
		MetaData           *ckptMetadata         `parquet:"metaData,optional"`
		Protocol           *ckptProtocol         `parquet:"protocol,optional"`
		DomainMetadata     *ckptDomain           `parquet:"domainMetadata,optional"`
		CheckpointMetadata *cpCheckpointMetadata `parquet:"checkpointMetadata,optional"`
		Sidecar            *cpSidecar            `parquet:"sidecar,optional"`
	}
)

// checkpointRow converts an action to a checkpoint parquet row: the
// production conversion, plus the V2 actions.
func checkpointRow(a Action) cpRow {
	switch {
	case a.CheckpointMetadata != nil:
		return cpRow{CheckpointMetadata: &cpCheckpointMetadata{Version: &a.CheckpointMetadata.Version}}
	case a.Sidecar != nil:
		x := a.Sidecar
		return cpRow{Sidecar: &cpSidecar{Path: &x.Path, SizeInBytes: &x.SizeInBytes, ModificationTime: &x.ModificationTime}}
	}
	r := toCheckpointRow(a)
	return cpRow{Txn: r.Txn, Add: r.Add, Remove: r.Remove, MetaData: r.MetaData, Protocol: r.Protocol, DomainMetadata: r.DomainMetadata}
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
