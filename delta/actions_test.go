package delta

import (
	"bytes"
	"encoding/json"
	"errors"
	"os"
	"reflect"
	"strings"
	"testing"
)

// dropNulls removes JSON null members recursively (delta-rs writes
// "tags":null where Spark and we omit the key).
func dropNulls(v any) any {
	switch t := v.(type) {
	case map[string]any:
		for k, x := range t {
			if k == "partitionValues" {
				continue // null partition values are data
			}
			if x == nil {
				delete(t, k)
				continue
			}
			t[k] = dropNulls(x)
		}
	case []any:
		for i, x := range t {
			t[i] = dropNulls(x)
		}
	}
	return v
}

func jsonValue(t *testing.T, b []byte) any {
	t.Helper()
	var v any
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.UseNumber()
	if err := dec.Decode(&v); err != nil {
		t.Fatalf("invalid JSON %s: %v", b, err)
	}
	return v
}

// TestActionsRoundTrip parses commit lines as Spark and delta-rs write
// them and checks that marshalling the actions gives the same JSON (the
// write path relies on this to produce commits other engines read).
func TestActionsRoundTrip(t *testing.T) {
	for _, file := range []string{"testdata/actions_spark.jsonl", "testdata/actions_deltars.jsonl"} {
		t.Run(file, func(t *testing.T) {
			data, err := os.ReadFile(file)
			if err != nil {
				t.Fatal(err)
			}
			lines := strings.Split(strings.TrimSpace(string(data)), "\n")
			actions, err := ParseCommit(data)
			if err != nil {
				t.Fatal(err)
			}
			if len(actions) != len(lines) {
				t.Fatalf("parsed %d actions from %d lines", len(actions), len(lines))
			}
			for i, a := range actions {
				got, err := json.Marshal(a)
				if err != nil {
					t.Fatalf("line %d: marshal: %v", i+1, err)
				}
				want := dropNulls(jsonValue(t, []byte(lines[i])))
				if !reflect.DeepEqual(jsonValue(t, got), want) {
					t.Errorf("line %d round trip:\n got %s\nwant %s", i+1, got, lines[i])
				}
			}
		})
	}
}

func TestParseCommitFields(t *testing.T) {
	data, err := os.ReadFile("testdata/actions_spark.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	actions, err := ParseCommit(data)
	if err != nil {
		t.Fatal(err)
	}
	ci := actions[0].CommitInfo
	if ci == nil || ci.Operation != "WRITE" || ci.Timestamp != 1700000000123 || *ci.ReadVersion != 4 || !*ci.IsBlindAppend {
		t.Fatalf("commitInfo: %+v", ci)
	}
	if ci.OperationMetrics["numOutputRows"] != "10" {
		t.Fatalf("metrics: %v", ci.OperationMetrics)
	}
	p := actions[1].Protocol
	if !p.HasReaderFeature(FeatureDeletionVectors) || !p.HasWriterFeature("invariants") || p.HasReaderFeature("invariants") {
		t.Fatalf("protocol: %+v", p)
	}
	add := actions[3].Add
	if dp, _ := add.DecodedPath(); dp != "region=A%2FB/part-00000-1b2c3d4e-0001-4a5e-8b1c-0f3b1d2e4a55.c000.snappy.parquet" {
		t.Fatalf("decoded path %q", dp)
	}
	if *add.PartitionValues["region"] != "A/B" {
		t.Fatalf("partition values %v", add.PartitionValues)
	}
	if n, ok := add.NumRecords(); !ok || n != 5 {
		t.Fatalf("NumRecords = %d, %v", n, ok)
	}
	nullPart := actions[4].Add
	if v, ok := nullPart.PartitionValues["region"]; !ok || v != nil {
		t.Fatalf("null partition value: %v, %v", v, ok)
	}
	if n, ok := nullPart.NumRecords(); !ok || n != 2-6 {
		t.Fatalf("NumRecords with DV = %d, %v", n, ok)
	}
	if id := nullPart.DeletionVector.UniqueID(); id != "uab^-aqEH.-t@S}K{vb[*k^@4" {
		t.Fatalf("dv unique id %q", id)
	}
	rm := actions[5].Remove
	if rm.DeletionVector.UniqueID() != "iwi5b=000010000siXQKl0rr91000f55c8Xg0@@D72lkbi5=-{L" || *rm.Size != 650 || !*rm.ExtendedFileMetadata {
		t.Fatalf("remove: %+v", rm)
	}
	if tx := actions[6].Txn; tx.AppID != "stream-1" || tx.Version != 7 {
		t.Fatalf("txn: %+v", tx)
	}
	if c := actions[7].CDC; c.Path == "" || c.DataChange || c.Tags["k"] != "v" {
		t.Fatalf("cdc: %+v", c)
	}
	if d := actions[8].DomainMetadata; d.Domain != "delta.rowTracking" || d.Removed {
		t.Fatalf("domainMetadata: %+v", d)
	}
	if cm := actions[9].CheckpointMetadata; cm.Version != 10 {
		t.Fatalf("checkpointMetadata: %+v", cm)
	}
	if sc := actions[10].Sidecar; sc.SizeInBytes != 9367 {
		t.Fatalf("sidecar: %+v", sc)
	}
}

func TestParseCommitTolerance(t *testing.T) {
	tests := []struct {
		name  string
		input string
		want  int // actions
	}{
		{"no trailing newline (delta-rs)", `{"txn":{"appId":"a","version":1}}` + "\n" + `{"txn":{"appId":"b","version":2}}`, 2},
		{"trailing newline (Spark)", `{"txn":{"appId":"a","version":1}}` + "\n", 1},
		{"CRLF and blank lines", "\r\n" + `{"txn":{"appId":"a","version":1}}` + "\r\n\r\n", 1},
		{"unknown action ignored", `{"someFutureAction":{"x":1}}` + "\n" + `{"txn":{"appId":"a","version":1}}`, 1},
		{"unknown fields ignored", `{"txn":{"appId":"a","version":1,"future":[1,2]},"alsoUnknown":true}`, 1},
		{"empty file", "", 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := ParseCommit([]byte(tt.input))
			if err != nil {
				t.Fatal(err)
			}
			if len(got) != tt.want {
				t.Fatalf("got %d actions, want %d", len(got), tt.want)
			}
		})
	}
}

func TestParseCommitErrors(t *testing.T) {
	tests := []struct {
		name  string
		input string
		line  int
	}{
		{"truncated line", `{"txn":{"appId":"a","version":1}}` + "\n" + `{"add":{"path":"x","partitionValu`, 2},
		{"not an object", `{"txn":{"appId":"a","version":1}}` + "\n\n" + `[1,2]`, 3},
		{"wrong type", `{"add":{"path":"x","size":"big"}}`, 1},
		{"add without path", `{"add":{"size":3}}`, 1},
		{"txn without appId", `{"txn":{"version":3}}`, 1},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := ParseCommit([]byte(tt.input))
			var le *CommitLineError
			if !errors.As(err, &le) || !errors.Is(err, ErrCorruptLog) {
				t.Fatalf("err = %v, want a CommitLineError wrapping ErrCorruptLog", err)
			}
			if le.Line != tt.line {
				t.Fatalf("line %d, want %d (%v)", le.Line, tt.line, err)
			}
		})
	}
}

func TestProtocolMarshalFeatures(t *testing.T) {
	tests := []struct {
		name string
		p    Protocol
		want string
	}{
		{"legacy", Protocol{MinReaderVersion: 1, MinWriterVersion: 2}, `{"minReaderVersion":1,"minWriterVersion":2}`},
		{"writer features only", Protocol{MinReaderVersion: 1, MinWriterVersion: 7, WriterFeatures: []string{"appendOnly"}},
			`{"minReaderVersion":1,"minWriterVersion":7,"writerFeatures":["appendOnly"]}`},
		{"3/7 without features", Protocol{MinReaderVersion: 3, MinWriterVersion: 7},
			`{"minReaderVersion":3,"minWriterVersion":7,"readerFeatures":[],"writerFeatures":[]}`},
		{"features dropped below 3/7", Protocol{MinReaderVersion: 2, MinWriterVersion: 5, ReaderFeatures: []string{"x"}},
			`{"minReaderVersion":2,"minWriterVersion":5}`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			b, err := json.Marshal(tt.p)
			if err != nil || string(b) != tt.want {
				t.Fatalf("got %s (%v), want %s", b, err, tt.want)
			}
		})
	}
}

func TestMetadataAndAddMarshalRequiredCollections(t *testing.T) {
	b, err := json.Marshal(Metadata{ID: "x", SchemaString: `{"type":"struct","fields":[]}`})
	if err != nil {
		t.Fatal(err)
	}
	want := `{"id":"x","format":{"provider":"parquet","options":{}},"schemaString":"{\"type\":\"struct\",\"fields\":[]}","partitionColumns":[],"configuration":{}}`
	if string(b) != want {
		t.Fatalf("metaData:\n got %s\nwant %s", b, want)
	}
	b, err = json.Marshal(Add{Path: "p", Size: 1, DataChange: true})
	if err != nil {
		t.Fatal(err)
	}
	if want := `{"path":"p","partitionValues":{},"size":1,"modificationTime":0,"dataChange":true}`; string(b) != want {
		t.Fatalf("add:\n got %s\nwant %s", b, want)
	}
}

func TestCommitInfoKeepsUnknownKeys(t *testing.T) {
	in := `{"timestamp":1,"operation":"WRITE","job":{"jobId":"j"},"clusterId":"c","operationMetrics":{"n":3}}`
	var ci CommitInfo
	if err := json.Unmarshal([]byte(in), &ci); err != nil {
		t.Fatal(err)
	}
	if string(ci.Extra["clusterId"]) != `"c"` || ci.OperationMetrics["n"] != json.Number("3") {
		t.Fatalf("decoded %+v", ci)
	}
	out, err := json.Marshal(ci)
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(jsonValue(t, out), jsonValue(t, []byte(in))) {
		t.Fatalf("round trip:\n got %s\nwant %s", out, in)
	}
}

func TestMarshalCommit(t *testing.T) {
	b, err := MarshalCommit([]Action{{Txn: &Txn{AppID: "a", Version: 1}}, {Protocol: &Protocol{MinReaderVersion: 1, MinWriterVersion: 2}}})
	if err != nil {
		t.Fatal(err)
	}
	want := `{"txn":{"appId":"a","version":1}}` + "\n" + `{"protocol":{"minReaderVersion":1,"minWriterVersion":2}}` + "\n"
	if string(b) != want {
		t.Fatalf("got %q", b)
	}
	back, err := ParseCommit(b)
	if err != nil || len(back) != 2 || back[0].Txn.AppID != "a" {
		t.Fatalf("parse back: %v %+v", err, back)
	}
}

func TestStatsNumRecords(t *testing.T) {
	tests := []struct {
		name  string
		stats string
		want  int64
		ok    bool
	}{
		{"first key", `{"numRecords":42,"minValues":{}}`, 42, true},
		{"spaces", `{ "numRecords" : 7 }`, 7, true},
		{"later key", `{"minValues":{"numRecords":1},"numRecords":9}`, 9, true},
		{"column named numRecords only", `{"minValues":{"numRecords":1}}`, 0, false},
		{"empty", ``, 0, false},
		{"garbage", `{"numRecords":`, 0, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			n, ok := statsNumRecords(tt.stats)
			if n != tt.want || ok != tt.ok {
				t.Fatalf("got %d, %v; want %d, %v", n, ok, tt.want, tt.ok)
			}
		})
	}
}

func TestParseStats(t *testing.T) {
	st, err := ParseStats(`{"numRecords":3,"minValues":{"a":1,"s":{"b":"x"}},"maxValues":{"a":12345678901234567890},"nullCount":{"a":0},"tightBounds":false}`)
	if err != nil {
		t.Fatal(err)
	}
	if st.NumRecords != 3 || st.MaxValues["a"] != json.Number("12345678901234567890") || *st.TightBounds {
		t.Fatalf("stats %+v", st)
	}
	if _, err := ParseStats(`{"numRecords":`); !errors.Is(err, ErrCorruptLog) {
		t.Fatalf("invalid stats: %v", err)
	}
}

func TestLogPathEncoding(t *testing.T) {
	tests := []struct{ raw, encoded string }{
		{"a=A%2FB/part-0.parquet", "a=A%252FB/part-0.parquet"},
		{"b=B B/part-1.parquet", "b=B%20B/part-1.parquet"},
		{"c=é/x.parquet", "c=%C3%A9/x.parquet"},
		{"plain.parquet", "plain.parquet"},
	}
	for _, tt := range tests {
		if got := EncodeLogPath(tt.raw); got != tt.encoded {
			t.Errorf("EncodeLogPath(%q) = %q, want %q", tt.raw, got, tt.encoded)
		}
		if got, err := decodeLogPath(tt.encoded); err != nil || got != tt.raw {
			t.Errorf("decode(%q) = %q, %v", tt.encoded, got, err)
		}
	}
	if _, err := decodeLogPath("bad%zzescape"); !errors.Is(err, ErrCorruptLog) {
		t.Fatalf("bad escape: %v", err)
	}
}
