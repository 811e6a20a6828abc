package delta

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"
)

func filePaths(s *Snapshot) []string {
	var out []string
	for _, f := range s.Files() {
		out = append(out, f.Path)
	}
	return out
}

func TestReplayReconciliation(t *testing.T) {
	root := newBasicTable(t)
	a := map[string]*string{"part": ptr("a")}
	writeCommit(t, root, 1, infoAction("WRITE", 2_000_000), addAction("part=a/f1.parquet", a, 3), addAction("part=a/f%20two.parquet", a, 4),
		Action{Txn: &Txn{AppID: "app", Version: 1}}, Action{DomainMetadata: &DomainMetadata{Domain: "d1", Configuration: "c1"}})
	// The remove names the file with its decoded path: same logical file.
	writeCommit(t, root, 2, infoAction("DELETE", 3_000_000), removeAction("part=a/f two.parquet"),
		Action{Txn: &Txn{AppID: "app", Version: 5}}, Action{Txn: &Txn{AppID: "other", Version: 2}},
		Action{DomainMetadata: &DomainMetadata{Domain: "d1", Configuration: "c1", Removed: true}},
		Action{DomainMetadata: &DomainMetadata{Domain: "d2", Configuration: "c2"}})
	// Re-adding a removed file brings it back; the newest protocol and
	// metaData win.
	writeCommit(t, root, 3, infoAction("RESTORE", 4_000_000), addAction("part=a/f%20two.parquet", a, 4),
		protocolAction(1, 7, "appendOnly"),
		metadataAction(testSchemaString, []string{"part"}, map[string]string{"delta.appendOnly": "true"}))
	writeCommit(t, root, 4, Action{Add: &Add{Path: "part=a/f1.parquet", PartitionValues: a, Size: 1, DataChange: false,
		DeletionVector: &DeletionVector{StorageType: "i", PathOrInlineDv: "wi5b=000010000siXQKl0rr91000f55c8Xg0@@D72lkbi5=-{L", SizeInBytes: 40, Cardinality: 6},
		Stats:          `{"numRecords":10}`}}, removeAction("part=a/f1.parquet"))

	s := mustSnapshot(t, root)
	if s.Version() != 4 || s.CheckpointVersion() != -1 {
		t.Fatalf("version %d, checkpoint %d", s.Version(), s.CheckpointVersion())
	}
	// (f1, no DV) was removed in 4, (f1, dv) added in 4: both keys exist.
	if got := filePaths(s); strings.Join(got, ",") != "part=a/f1.parquet,part=a/f%20two.parquet" {
		t.Fatalf("live files %v", got)
	}
	if n, ok := s.NumRecords(); !ok || n != 4+10-6 {
		t.Fatalf("NumRecords = %d, %v", n, ok)
	}
	if len(s.Tombstones()) != 1 || s.Tombstones()[0].Path != "part=a/f1.parquet" {
		t.Fatalf("tombstones %+v", s.Tombstones())
	}
	if v, ok := s.AppTransactionVersion("app"); !ok || v != 5 {
		t.Fatalf("txn app = %d, %v", v, ok)
	}
	if _, ok := s.AppTransactionVersion("missing"); ok {
		t.Fatal("txn for an unknown app")
	}
	if _, ok := s.DomainMetadata("d1"); ok {
		t.Fatal("removed domain still visible")
	}
	if c, ok := s.DomainMetadata("d2"); !ok || c != "c2" {
		t.Fatal("domain d2 missing")
	}
	if s.Protocol().MinWriterVersion != 7 || s.Properties()["delta.appendOnly"] != "true" {
		t.Fatalf("latest protocol/metadata did not win: %+v %v", s.Protocol(), s.Properties())
	}
	if s.CommitInfo() != nil {
		t.Fatal("version 4 has no commitInfo")
	}

	// Time travel.
	s2 := mustSnapshot(t, root, AtVersion(2))
	if got := filePaths(s2); strings.Join(got, ",") != "part=a/f1.parquet" {
		t.Fatalf("v2 files %v", got)
	}
	if s2.CommitInfo().Operation != "DELETE" || !s2.Timestamp().Equal(time.UnixMilli(3_000_000)) {
		t.Fatalf("v2 commit info %+v at %v", s2.CommitInfo(), s2.Timestamp())
	}
	// Version 4 has no commitInfo: its time is its file's mtime (now).
	for _, tt := range []struct {
		ts   time.Time
		want int64
	}{
		{time.UnixMilli(1_000_000), 0}, {time.UnixMilli(2_500_000), 1}, {time.UnixMilli(3_000_000), 2},
		{time.UnixMilli(4_000_001), 3}, {time.UnixMilli(99_000_000), 3}, {time.Now().Add(time.Hour), 4},
	} {
		if got := mustSnapshot(t, root, AtTimestamp(tt.ts)).Version(); got != tt.want {
			t.Errorf("AtTimestamp(%v) = version %d, want %d", tt.ts, got, tt.want)
		}
	}
	if _, err := LoadSnapshot(context.Background(), root, AtTimestamp(time.UnixMilli(999))); !errors.Is(err, ErrTimestampOutOfRange) {
		t.Fatalf("early timestamp: %v", err)
	}
	if _, err := LoadSnapshot(context.Background(), root, AtVersion(9)); !errors.Is(err, ErrVersionNotFound) {
		t.Fatalf("future version: %v", err)
	}
}

func TestSnapshotFromCheckpoint(t *testing.T) {
	root := newBasicTable(t)
	for v := int64(1); v <= 12; v++ {
		writeCommit(t, root, v, infoAction("WRITE", 1_000_000+v), addAction(
			"part=x/f"+strings.Repeat("0", int(v))+".parquet", map[string]*string{"part": ptr("x")}, v),
			Action{Txn: &Txn{AppID: "app", Version: v}})
		if v == 10 {
			writeClassicCheckpoint(t, mustSnapshot(t, root))
		}
	}
	want := mustSnapshot(t, root, AtVersion(12))
	// Delete the commits the checkpoint covers: replay must not need them.
	for v := int64(0); v < 10; v++ {
		if err := os.Remove(filepath.Join(root, LogDirName, CommitFileName(v))); err != nil {
			t.Fatal(err)
		}
	}
	got := mustSnapshot(t, root)
	if got.CheckpointVersion() != 10 || got.Version() != 12 || got.NumFiles() != 12 {
		t.Fatalf("version %d from checkpoint %d with %d files", got.Version(), got.CheckpointVersion(), got.NumFiles())
	}
	if strings.Join(filePaths(got), ",") != strings.Join(filePaths(want), ",") {
		t.Fatalf("files differ:\n%v\n%v", filePaths(got), filePaths(want))
	}
	if v, _ := got.AppTransactionVersion("app"); v != 12 {
		t.Fatalf("txn %d", v)
	}
	if got.Metadata().ID != "test-table-id" || got.Protocol().MinReaderVersion != 1 {
		t.Fatal("protocol/metadata not read from the checkpoint")
	}
	if s := mustSnapshot(t, root, AtVersion(10)); s.NumFiles() != 10 || s.CommitInfo() == nil {
		t.Fatalf("snapshot at the checkpoint version: %d files, commitInfo %v", s.NumFiles(), s.CommitInfo())
	}
	if _, err := LoadSnapshot(context.Background(), root, AtVersion(5)); !errors.Is(err, ErrVersionNotFound) {
		t.Fatalf("cleaned-up version: %v", err)
	}
}

// TestLastCheckpointHint: a missing, empty, corrupt or stale hint, or one
// pointing to a checkpoint that does not exist, never changes the result.
func TestLastCheckpointHint(t *testing.T) {
	root := newBasicTable(t)
	for v := int64(1); v <= 7; v++ {
		writeCommit(t, root, v, addAction("part=x/f"+strings.Repeat("1", int(v))+".parquet", map[string]*string{"part": ptr("x")}, 1))
		if v == 3 || v == 6 {
			writeClassicCheckpoint(t, mustSnapshot(t, root))
		}
	}
	hint := func(s string) []byte { return []byte(s) }
	stale, _ := json.Marshal(LastCheckpoint{Version: 3, Size: 5})
	tests := []struct {
		name string
		hint []byte // nil: no file
	}{
		{"missing", nil},
		{"empty", hint("")},
		{"corrupt", hint(`{"version":`)},
		{"stale", stale},
		{"points to a missing checkpoint", hint(`{"version":5,"size":3}`)},
		{"points past the end", hint(`{"version":70,"size":3}`)},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p := filepath.Join(root, LogDirName, LastCheckpointFileName)
			os.Remove(p)
			if tt.hint != nil {
				writeLogFile(t, root, LastCheckpointFileName, tt.hint)
			}
			s := mustSnapshot(t, root)
			if s.Version() != 7 || s.NumFiles() != 7 || s.CheckpointVersion() != 6 {
				t.Fatalf("version %d, %d files, from checkpoint %d", s.Version(), s.NumFiles(), s.CheckpointVersion())
			}
		})
	}
}

func TestCheckpointMissingParts(t *testing.T) {
	setup := func(t *testing.T) string {
		root := newBasicTable(t)
		for v := int64(1); v <= 3; v++ {
			writeCommit(t, root, v, addAction("f"+strings.Repeat("1", int(v))+".parquet", map[string]*string{"part": nil}, 1))
		}
		actions := snapshotActions(mustSnapshot(t, root))
		writeParquetActions(t, filepath.Join(root, LogDirName, "00000000000000000003.checkpoint.0000000001.0000000002.parquet"), actions[:3])
		writeParquetActions(t, filepath.Join(root, LogDirName, "00000000000000000003.checkpoint.0000000002.0000000002.parquet"), actions[3:])
		return root
	}
	t.Run("complete multi-part", func(t *testing.T) {
		root := setup(t)
		s := mustSnapshot(t, root)
		if s.CheckpointVersion() != 3 || s.NumFiles() != 3 {
			t.Fatalf("checkpoint %d, %d files", s.CheckpointVersion(), s.NumFiles())
		}
	})
	t.Run("missing part falls back to the commits", func(t *testing.T) {
		root := setup(t)
		os.Remove(filepath.Join(root, LogDirName, "00000000000000000003.checkpoint.0000000002.0000000002.parquet"))
		s := mustSnapshot(t, root)
		if s.CheckpointVersion() != -1 || s.NumFiles() != 3 {
			t.Fatalf("checkpoint %d, %d files", s.CheckpointVersion(), s.NumFiles())
		}
	})
	t.Run("missing part without commits to fall back on", func(t *testing.T) {
		root := setup(t)
		for v := int64(0); v < 3; v++ {
			os.Remove(filepath.Join(root, LogDirName, CommitFileName(v)))
		}
		os.Remove(filepath.Join(root, LogDirName, "00000000000000000003.checkpoint.0000000001.0000000002.parquet"))
		_, err := LoadSnapshot(context.Background(), root)
		if !errors.Is(err, ErrMissingCheckpointPart) || !strings.Contains(err.Error(), "0000000001.0000000002.parquet") {
			t.Fatalf("err = %v", err)
		}
	})
	t.Run("corrupt checkpoint falls back to another checkpoint of the version", func(t *testing.T) {
		root := setup(t)
		writeLogFile(t, root, CheckpointFileName(3), []byte("PAR1 this is not parquet"))
		s := mustSnapshot(t, root)
		if s.CheckpointVersion() != 3 || s.NumFiles() != 3 {
			t.Fatalf("checkpoint %d, %d files", s.CheckpointVersion(), s.NumFiles())
		}
	})
	t.Run("corrupt checkpoint without commits to fall back on", func(t *testing.T) {
		root := setup(t)
		for _, n := range []string{"00000000000000000003.checkpoint.0000000001.0000000002.parquet", "00000000000000000003.checkpoint.0000000002.0000000002.parquet",
			CommitFileName(0), CommitFileName(1), CommitFileName(2)} {
			os.Remove(filepath.Join(root, LogDirName, n))
		}
		writeLogFile(t, root, CheckpointFileName(3), []byte("PAR1 this is not parquet PAR1"))
		_, err := LoadSnapshot(context.Background(), root)
		if !errors.Is(err, ErrCorruptLog) || !strings.Contains(err.Error(), CheckpointFileName(3)) || !strings.Contains(err.Error(), "version 3") {
			t.Fatalf("err = %v", err)
		}
	})
	t.Run("V2 checkpoint with a missing sidecar", func(t *testing.T) {
		root := setup(t)
		for v := int64(0); v < 3; v++ {
			os.Remove(filepath.Join(root, LogDirName, CommitFileName(v)))
		}
		s := mustSnapshot(t, root)
		actions := snapshotActions(s)
		v2 := []Action{{CheckpointMetadata: &CheckpointMetadata{Version: 3}}, actions[0], actions[1],
			{Sidecar: &Sidecar{Path: "a.parquet", SizeInBytes: 1}}, {Sidecar: &Sidecar{Path: "b.parquet", SizeInBytes: 1}}}
		b, _ := MarshalCommit(v2)
		writeLogFile(t, root, "00000000000000000003.checkpoint.3a0d65cd-4056-49b8-937b-95f9e3ee90e5.json", b)
		writeParquetActions(t, filepath.Join(root, LogDirName, SidecarDirName, "a.parquet"), actions[2:4])
		writeParquetActions(t, filepath.Join(root, LogDirName, SidecarDirName, "b.parquet"), actions[4:])
		if s := mustSnapshot(t, root); s.NumFiles() != 3 || s.CheckpointVersion() != 3 {
			t.Fatalf("V2: %d files from %d", s.NumFiles(), s.CheckpointVersion())
		}
		os.Remove(filepath.Join(root, LogDirName, SidecarDirName, "b.parquet"))
		for _, n := range []string{"00000000000000000003.checkpoint.0000000001.0000000002.parquet", "00000000000000000003.checkpoint.0000000002.0000000002.parquet"} {
			os.Remove(filepath.Join(root, LogDirName, n))
		}
		_, err := LoadSnapshot(context.Background(), root)
		if !errors.Is(err, ErrMissingCheckpointPart) || !strings.Contains(err.Error(), "b.parquet") || !strings.Contains(err.Error(), "version 3") {
			t.Fatalf("err = %v", err)
		}
	})
}

func TestSnapshotErrors(t *testing.T) {
	tests := []struct {
		name  string
		setup func(t *testing.T) string
		want  error
		text  []string // substrings of the message
	}{
		{"missing folder", func(t *testing.T) string { return filepath.Join(t.TempDir(), "nope") }, ErrNotDeltaTable, []string{"does not exist"}},
		{"no _delta_log", func(t *testing.T) string { return t.TempDir() }, ErrNotDeltaTable, []string{"_delta_log"}},
		{"empty _delta_log", func(t *testing.T) string {
			root := t.TempDir()
			os.Mkdir(filepath.Join(root, LogDirName), 0o755)
			return root
		}, ErrNotDeltaTable, []string{"no commit"}},
		{"a file", func(t *testing.T) string {
			p := filepath.Join(t.TempDir(), "f")
			os.WriteFile(p, nil, 0o644)
			return p
		}, ErrNotDeltaTable, []string{"is a file"}},
		{"gap", func(t *testing.T) string {
			root := newBasicTable(t)
			writeCommit(t, root, 2, addAction("a", nil, 1))
			return root
		}, ErrVersionsNotContiguous, []string{"00000000000000000001.json"}},
		{"log starts late", func(t *testing.T) string {
			root := t.TempDir()
			writeCommit(t, root, 5, protocolAction(1, 2), metadataAction(testSchemaString, nil, nil))
			return root
		}, ErrVersionsNotContiguous, []string{"starts at version 5"}},
		{"no protocol", func(t *testing.T) string {
			root := t.TempDir()
			writeCommit(t, root, 0, metadataAction(testSchemaString, nil, nil))
			return root
		}, ErrMissingProtocol, []string{"no protocol"}},
		{"no metadata", func(t *testing.T) string {
			root := t.TempDir()
			writeCommit(t, root, 0, protocolAction(1, 2))
			return root
		}, ErrMissingMetadata, []string{"no metaData"}},
		{"reader version 4", func(t *testing.T) string {
			root := t.TempDir()
			writeCommit(t, root, 0, protocolAction(4, 7), metadataAction(testSchemaString, nil, nil))
			return root
		}, ErrUnsupportedProtocol, []string{"reader version 4"}},
		{"unknown reader feature", func(t *testing.T) string {
			root := t.TempDir()
			writeCommit(t, root, 0, protocolAction(3, 7, "deletionVectors", "catalogManaged"), metadataAction(testSchemaString, nil, nil))
			return root
		}, ErrUnsupportedFeature, []string{"catalogManaged"}},
		{"truncated line", func(t *testing.T) string {
			root := newBasicTable(t)
			writeLogFile(t, root, CommitFileName(1), []byte(`{"add":{"path":"a","partitionValues":{},"size":1,"modificationTime":1,"dataChange":true}}`+"\n"+`{"add":{"path":"b","parti`))
			return root
		}, ErrCorruptLog, []string{"version 1", "00000000000000000001.json:2"}},
		{"invalid JSON line", func(t *testing.T) string {
			root := newBasicTable(t)
			writeLogFile(t, root, CommitFileName(1), []byte("not json\n"))
			return root
		}, ErrCorruptLog, []string{"version 1", "00000000000000000001.json:1", "not a JSON object"}},
		{"partition column not in schema", func(t *testing.T) string {
			root := t.TempDir()
			writeCommit(t, root, 0, protocolAction(1, 2), metadataAction(testSchemaString, []string{"nope"}, nil))
			return root
		}, ErrCorruptLog, []string{`"nope"`}},
		{"invalid schema", func(t *testing.T) string {
			root := t.TempDir()
			writeCommit(t, root, 0, protocolAction(1, 2), metadataAction(`{"type":"struct","fields":[{"name":"a","type":"quaternion"}]}`, nil, nil))
			return root
		}, ErrInvalidSchema, []string{"quaternion"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := LoadSnapshot(context.Background(), tt.setup(t))
			if !errors.Is(err, tt.want) {
				t.Fatalf("err = %v, want %v", err, tt.want)
			}
			for _, s := range tt.text {
				if !strings.Contains(err.Error(), s) {
					t.Errorf("error %q does not mention %q", err, s)
				}
			}
		})
	}
}

func TestParseLogFileName(t *testing.T) {
	tests := []struct {
		name     string
		ok       bool
		isCommit bool
		kind     checkpointKind
		part     int
	}{
		{"00000000000000000007.json", true, true, 0, 0},
		{"00000000000000000007.checkpoint.parquet", true, false, checkpointClassic, 0},
		{"00000000000000000007.checkpoint.0000000002.0000000003.parquet", true, false, checkpointMultiPart, 2},
		{"00000000000000000007.checkpoint.80a083e8-7026-4e79-81be-64bd76c43a11.json", true, false, checkpointUUID, 0},
		{"00000000000000000007.checkpoint.80a083e8-7026-4e79-81be-64bd76c43a11.parquet", true, false, checkpointUUID, 0},
		{"00000000000000000007.crc", false, false, 0, 0},
		{"00000000000000000003.00000000000000000005.compacted.json", false, false, 0, 0},
		{"_last_checkpoint", false, false, 0, 0},
		{".00000000000000000007.json.crc", false, false, 0, 0},
		{"00000000000000000007.json.tmp", false, false, 0, 0},
		{"00000000000000000007.checkpoint.0000000004.0000000003.parquet", false, false, 0, 0},
	}
	for _, tt := range tests {
		v, isCommit, cp, ok := parseLogFileName(tt.name)
		if ok != tt.ok || (ok && (v != 7 || isCommit != tt.isCommit || (!isCommit && (cp.kind != tt.kind || cp.part != tt.part)))) {
			t.Errorf("%s: got v=%d commit=%v cp=%+v ok=%v", tt.name, v, isCommit, cp, ok)
		}
	}
}

func TestResolveTablePath(t *testing.T) {
	root := "/data/t"
	tests := []struct {
		logPath string
		want    string
		escapes bool
	}{
		{"part=a/f.parquet", "/data/t/part=a/f.parquet", false},
		{"x=A%252FB/f.parquet", "/data/t/x=A%2FB/f.parquet", false},
		{"file:///data/t/f.parquet", "/data/t/f.parquet", false},
		{"../other/f.parquet", "", true},
		{"a/../../f.parquet", "", true},
		{"/etc/passwd", "", true},
		{"%2E%2E/f.parquet", "", true},
	}
	for _, tt := range tests {
		got, err := resolveTablePath(root, tt.logPath)
		if tt.escapes {
			if !errors.Is(err, ErrPathEscapesTable) || !strings.Contains(err.Error(), tt.logPath) {
				t.Errorf("%s: err = %v, want ErrPathEscapesTable", tt.logPath, err)
			}
			continue
		}
		if err != nil || got != tt.want {
			t.Errorf("%s: got %q, %v; want %q", tt.logPath, got, err, tt.want)
		}
	}
}

// A listing made while writers commit can hold version 3 without version
// 2 (both created during the listing, readdir in hash order): the commit
// is looked up by name before the log is declared broken. A version that
// is really absent stays an error.
func TestListingMissedCommitIsLookedUp(t *testing.T) {
	ctx := context.Background()
	root := newBasicTable(t)
	for v := int64(1); v <= 3; v++ {
		writeCommit(t, root, v, infoAction("WRITE", 1_000_000+v), addAction(fmt.Sprintf("part=a/f%d.parquet", v), map[string]*string{"part": ptr("a")}, v))
	}
	l, err := listLog(ctx, root)
	if err != nil {
		t.Fatal(err)
	}
	l.commits = slices.DeleteFunc(l.commits, func(v int64) bool { return v == 2 }) // as the racing listing saw it
	s, err := (&Table{root: root}).loadSnapshot(ctx, l, 3, nil)
	if err != nil {
		t.Fatalf("snapshot over a listing that missed commit 2: %v", err)
	}
	if s.Version() != 3 || s.NumFiles() != 3 {
		t.Errorf("version %d with %d files, want 3 with 3", s.Version(), s.NumFiles())
	}
	if err := os.Remove(filepath.Join(root, LogDirName, CommitFileName(2))); err != nil {
		t.Fatal(err)
	}
	l, err = listLog(ctx, root)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := (&Table{root: root}).loadSnapshot(ctx, l, 3, nil); !errors.Is(err, ErrVersionsNotContiguous) {
		t.Errorf("commit 2 deleted: err = %v, want ErrVersionsNotContiguous", err)
	}
}
