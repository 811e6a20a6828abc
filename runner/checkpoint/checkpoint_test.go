package checkpoint

import (
	"fmt"
	"path/filepath"
	"strings"
	"testing"
)

// TestFileSourceLogCompaction: every 10th batch of a file source's log is
// a compacted file holding all its entries, as Spark writes it, and reads
// back whole.
func TestFileSourceLogCompaction(t *testing.T) {
	cp := &Checkpoint{Dir: t.TempDir()}
	for n := int64(0); n < 12; n++ {
		if err := cp.WriteFileSourceLog(0, n, []FileEntry{{Path: FileURI(fmt.Sprintf("/in/%d.json", n)), Timestamp: n, BatchID: n}}); err != nil {
			t.Fatal(err)
		}
	}
	if !exists(filepath.Join(cp.sourceLogDir(0), "9.compact")) || exists(filepath.Join(cp.sourceLogDir(0), "9")) {
		t.Fatal("batch 9 must be written as 9.compact")
	}
	cases := []struct {
		name        string
		after, upTo int64
		want        int
	}{
		{"all", -1, 11, 12},
		{"up to the compaction", -1, 9, 10},
		{"after the compaction", 9, 11, 2},
		{"inside", 3, 5, 2},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			es, err := cp.ReadFileSourceLog(0, tc.after, tc.upTo)
			if err != nil || len(es) != tc.want {
				t.Fatalf("%d entries, %v; want %d", len(es), err, tc.want)
			}
			for _, e := range es {
				if e.BatchID <= tc.after || e.BatchID > tc.upTo || URIPath(e.Path) != filepath.Clean(fmt.Sprintf("/in/%d.json", e.BatchID)) {
					t.Fatalf("entry %+v", e)
				}
			}
		})
	}
}

// TestParseOffsets reads offsets files as Spark writes them: a void
// source ("-"), an offset spread over lines, and rejects other versions.
func TestParseOffsets(t *testing.T) {
	cases := []struct {
		name, text string
		want       []string
		err        string
	}{
		{name: "delta", text: "v1\n{\"batchWatermarkMs\":0,\"batchTimestampMs\":1710305994254,\"conf\":{\"spark.sql.shuffle.partitions\":\"200\"}}\n{\"sourceVersion\":1,\"reservoirId\":\"3bffe7c2\",\"reservoirVersion\":1,\"index\":8,\"isStartingVersion\":false}",
			want: []string{`{"sourceVersion":1,"reservoirId":"3bffe7c2","reservoirVersion":1,"index":8,"isStartingVersion":false}`}},
		{name: "two sources, one void", text: "v1\n{\"batchWatermarkMs\":0,\"batchTimestampMs\":1}\n-\n{\"logOffset\":3}\n", want: []string{"<nil>", `{"logOffset":3}`}},
		{name: "offset over two lines", text: "v1\n{\"batchWatermarkMs\":0}\n{\"sourceVersion\":1,\"reservoirId\":\"x\",\n\"reservoirVersion\":2,\"index\":-1,\"isStartingVersion\":false}",
			want: []string{`{"sourceVersion":1,"reservoirId":"x","reservoirVersion":2,"index":-1,"isStartingVersion":false}`}},
		{name: "version 2", text: "v2\n{}\n", err: "not supported"},
		{name: "no version", text: "{}\n", err: "no version line"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			seq, err := ParseOffsets([]byte(tc.text))
			if tc.err != "" {
				if err == nil || !strings.Contains(err.Error(), tc.err) {
					t.Fatalf("err %v, want %q", err, tc.err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			var got []string
			for _, o := range seq.Offsets {
				if o == nil {
					got = append(got, "<nil>")
				} else {
					got = append(got, string(o))
				}
			}
			if fmt.Sprint(got) != fmt.Sprint(tc.want) {
				t.Fatalf("offsets %v, want %v", got, tc.want)
			}
		})
	}
}
