package delta

import (
	"context"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

func TestHistory(t *testing.T) {
	root := newBasicTable(t)
	spark := `{"commitInfo":{"timestamp":2000000,"operation":"WRITE","operationParameters":{"mode":"Append","partitionBy":"[]"},"readVersion":0,"isolationLevel":"Serializable","isBlindAppend":true,"operationMetrics":{"numFiles":"1","numOutputRows":"3"},"engineInfo":"Apache-Spark/3.5.0 Delta-Lake/3.1.0","userName":"ann"}}` + "\n" +
		`{"add":{"path":"a.parquet","partitionValues":{},"size":1,"modificationTime":1,"dataChange":true}}` + "\n"
	writeLogFile(t, root, CommitFileName(1), []byte(spark))
	deltaRS := `{"add":{"path":"b.parquet","partitionValues":{},"size":1,"modificationTime":1,"dataChange":true}}` + "\n" +
		`{"commitInfo":{"timestamp":3000000,"operation":"DELETE","operationParameters":{"predicate":"id > 2"},"readVersion":1,"operationMetrics":{"num_deleted_rows":4},"clientVersion":"delta-rs.py-1.6.6"}}`
	writeLogFile(t, root, CommitFileName(2), []byte(deltaRS))
	writeCommit(t, root, 3, addAction("c.parquet", nil, 1)) // no commitInfo

	tbl, err := Open(context.Background(), root)
	if err != nil {
		t.Fatal(err)
	}
	h, err := tbl.History(context.Background(), 0)
	if err != nil {
		t.Fatal(err)
	}
	if len(h) != 4 || h[0].Version != 3 || h[3].Version != 0 {
		t.Fatalf("history versions: %+v", h)
	}
	if h[0].Operation != "" || h[0].Info != nil || h[0].Timestamp.IsZero() {
		t.Fatalf("v3 (no commitInfo) = %+v", h[0])
	}
	del := h[1]
	if del.Operation != "DELETE" || del.Engine != "delta-rs.py-1.6.6" || del.OperationParameters["predicate"] != "id > 2" ||
		del.OperationMetrics["num_deleted_rows"] != json.Number("4") || *del.ReadVersion != 1 || !del.Timestamp.Equal(time.UnixMilli(3000000)) {
		t.Fatalf("delta-rs entry: %+v", del)
	}
	wr := h[2]
	if wr.Operation != "WRITE" || wr.UserName != "ann" || !strings.HasPrefix(wr.Engine, "Apache-Spark") || !*wr.IsBlindAppend ||
		wr.OperationMetrics["numOutputRows"] != "3" || wr.IsolationLevel != "Serializable" {
		t.Fatalf("Spark entry: %+v", wr)
	}
	if h, _ := tbl.History(context.Background(), 2); len(h) != 2 || h[0].Version != 3 || h[1].Version != 2 {
		t.Fatalf("limit 2: %+v", h)
	}
	// Cleaned-up commits are simply absent.
	writeClassicCheckpoint(t, mustSnapshot(t, root))
	os.Remove(filepath.Join(root, LogDirName, CommitFileName(0)))
	if h, err := tbl.History(context.Background(), 0); err != nil || len(h) != 3 || h[2].Version != 1 {
		t.Fatalf("after cleanup: %+v, %v", h, err)
	}
	// A corrupt commit is an error naming the file.
	writeLogFile(t, root, CommitFileName(4), []byte("{oops\n"))
	if _, err := tbl.History(context.Background(), 0); !errors.Is(err, ErrCorruptLog) || !strings.Contains(err.Error(), CommitFileName(4)) {
		t.Fatalf("corrupt commit: %v", err)
	}
}

// changesTable writes a table whose versions exercise every streaming rule.
func changesTable(t *testing.T) string {
	root := newBasicTable(t)
	pv := map[string]*string{"part": ptr("a")}
	writeCommit(t, root, 1, infoAction("WRITE", 1), addAction("a", pv, 1), addAction("b", pv, 1))
	writeCommit(t, root, 2, infoAction("DELETE", 2), removeAction("a"))
	writeCommit(t, root, 3, infoAction("UPDATE", 3), removeAction("b"), addAction("c", pv, 1))
	writeCommit(t, root, 4, infoAction("OPTIMIZE", 4),
		Action{Remove: &Remove{Path: "c", DataChange: false}}, Action{Add: &Add{Path: "d", PartitionValues: pv, DataChange: false}})
	writeCommit(t, root, 5, infoAction("SET TBLPROPERTIES", 5), metadataAction(testSchemaString, []string{"part"}, map[string]string{"x": "y"}))
	writeCommit(t, root, 6, infoAction("WRITE", 6), addAction("e", pv, 1), Action{Txn: &Txn{AppID: "s", Version: 1}})
	return root
}

func TestChangesSince(t *testing.T) {
	root := changesTable(t)
	s := mustSnapshot(t, root)
	ch, err := s.ChangesSince(context.Background(), 0)
	if err != nil {
		t.Fatal(err)
	}
	if len(ch) != 6 || ch[0].Version != 1 || ch[5].Version != 6 {
		t.Fatalf("versions: %+v", ch)
	}
	paths := func(adds []*Add) string {
		var p []string
		for _, a := range adds {
			p = append(p, a.Path)
		}
		return strings.Join(p, ",")
	}
	type want struct {
		adds        string
		removesData bool
		meta        bool
	}
	wants := []want{{"a,b", false, false}, {"", true, false}, {"c", true, false}, {"", false, false}, {"", false, true}, {"e", false, false}}
	for i, w := range wants {
		c := ch[i]
		if paths(c.Adds) != w.adds || c.RemovesData != w.removesData || c.MetadataChanged != w.meta {
			t.Errorf("version %d: adds %q removesData %v meta %v, want %+v", c.Version, paths(c.Adds), c.RemovesData, c.MetadataChanged, w)
		}
	}
	if ch[1].RemovedPath != "a" || ch[1].Operation != "DELETE" {
		t.Fatalf("version 2: %+v", ch[1])
	}
	if ch, _ := s.ChangesSince(context.Background(), 6); len(ch) != 0 {
		t.Fatal("changes after the snapshot version")
	}
	if ch, _ := mustSnapshot(t, root, AtVersion(2)).ChangesSince(context.Background(), -1); len(ch) != 3 {
		t.Fatalf("ChangesSince(-1) at version 2: %d versions", len(ch))
	}

	// Spark's DeltaSource decisions.
	tests := []struct {
		name    string
		version int // index in ch
		opts    StreamOptions
		files   string
		err     error
	}{
		{"append", 0, StreamOptions{}, "a,b", nil},
		{"delete-only fails", 1, StreamOptions{}, "", ErrSourceIgnoreDelete},
		{"delete-only with ignoreDeletes", 1, StreamOptions{IgnoreDeletes: true}, "", nil},
		{"delete-only with skipChangeCommits", 1, StreamOptions{SkipChangeCommits: true}, "", nil},
		{"update fails", 2, StreamOptions{}, "", ErrSourceIgnoreChanges},
		{"update fails with ignoreDeletes", 2, StreamOptions{IgnoreDeletes: true}, "", ErrSourceIgnoreChanges},
		{"update with ignoreChanges re-emits", 2, StreamOptions{IgnoreChanges: true}, "c", nil},
		{"update with skipChangeCommits skips the commit", 2, StreamOptions{SkipChangeCommits: true}, "", nil},
		{"optimize is invisible", 3, StreamOptions{}, "", nil},
		{"metadata change", 4, StreamOptions{}, "", nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			files, err := ch[tt.version].StreamFiles("main.default.t", tt.opts)
			if !errors.Is(err, tt.err) || paths(files) != tt.files {
				t.Fatalf("files %q, err %v; want %q, %v", paths(files), err, tt.files, tt.err)
			}
			if err != nil && (!strings.Contains(err.Error(), "main.default.t") || !strings.Contains(err.Error(), "skipChangeCommits")) {
				t.Fatalf("message does not help: %v", err)
			}
		})
	}

	// A cleaned-up commit cannot be streamed.
	writeClassicCheckpoint(t, mustSnapshot(t, root, AtVersion(3)))
	os.Remove(filepath.Join(root, LogDirName, CommitFileName(2)))
	if _, err := mustSnapshot(t, root).ChangesSince(context.Background(), 1); !errors.Is(err, ErrVersionNotFound) || !strings.Contains(err.Error(), "version 2") {
		t.Fatalf("cleaned-up commit: %v", err)
	}
}

func TestConformanceGetChanges(t *testing.T) {
	root := filepath.Join(conformanceDir(t), "deltalog-getChanges", "delta")
	ch, err := mustSnapshot(t, root).ChangesSince(context.Background(), -1)
	if err != nil {
		t.Fatal(err)
	}
	if len(ch) != 3 || len(ch[0].Adds) != 1 || ch[0].Adds[0].Path != "fake/path/1" || !ch[1].RemovesData || len(ch[1].Adds) != 0 || len(ch[2].Adds) != 0 || ch[2].RemovesData {
		t.Fatalf("changes: %+v", ch)
	}
}

func TestConformanceCommitInfoHistory(t *testing.T) {
	root := filepath.Join(conformanceDir(t), "deltalog-commit-info", "delta")
	tbl, err := Open(context.Background(), root)
	if err != nil {
		t.Fatal(err)
	}
	h, err := tbl.History(context.Background(), 0)
	if err != nil {
		t.Fatal(err)
	}
	ci := h[0].Info
	if len(h) != 1 || h[0].Operation != "WRITE" || h[0].UserName != "username_0" || ci.UserID != "user_0" || ci.UserMetadata != "foo" ||
		string(ci.Extra["clusterId"]) != `"cluster_id_0"` || h[0].OperationParameters["test"] != "test" {
		t.Fatalf("history %+v / %+v", h, ci)
	}
}
