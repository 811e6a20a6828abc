package delta

import (
	"errors"
	"os"
	"testing"
)

// FuzzParseCommit feeds arbitrary commit-file content to the parser: it
// must never panic, fail only with ErrCorruptLog, and whatever it accepts
// must marshal back to a commit that parses to as many actions.
// Corpus: testdata/fuzz/FuzzParseCommit (run: go test -fuzz FuzzParseCommit).
func FuzzParseCommit(f *testing.F) {
	for _, file := range []string{"testdata/actions_spark.jsonl", "testdata/actions_deltars.jsonl"} {
		b, err := os.ReadFile(file)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(b)
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		actions, err := ParseCommit(data)
		if err != nil {
			var le *CommitLineError
			if !errors.Is(err, ErrCorruptLog) || !errors.As(err, &le) || le.Line < 1 {
				t.Fatalf("error %v is not a located ErrCorruptLog", err)
			}
			return
		}
		for _, a := range actions {
			if a.Add != nil {
				a.Add.Key()
				a.Add.NumRecords()
				a.Add.ParseStats()
				resolveTablePath("/t", a.Add.Path)
				if a.Add.DeletionVector != nil {
					LoadDeletionVector("/nonexistent", a.Add.DeletionVector)
				}
			}
			if a.MetaData != nil {
				if s, err := a.MetaData.Schema(); err == nil {
					for _, fl := range s.Fields {
						DuckDBType(fl.Type)
					}
					_ = s.String()
				}
			}
			if a.Protocol != nil {
				a.Protocol.CheckReadable("/t")
			}
		}
		out, err := MarshalCommit(actions)
		if err != nil {
			t.Fatalf("marshal accepted actions: %v", err)
		}
		back, err := ParseCommit(out)
		if err != nil || len(back) != len(actions) {
			t.Fatalf("round trip: %d -> %d actions, %v\n%s", len(actions), len(back), err, out)
		}
	})
}

// FuzzParsePredicate: the WHERE parser used for pruning never panics.
func FuzzParsePredicate(f *testing.F) {
	for _, s := range []string{"part = 'x' AND id > 5", "NOT (a IN (1, 2) OR b BETWEEN 1 AND 3)", "x IS NOT NULL", "f(x) BETWEEN 1 AND 2 OR CASE WHEN a THEN b END", "'unterminated", `"q""x" >= -1.5e3`} {
		f.Add(s)
	}
	s := pruneSnapshotForFuzz(f)
	f.Fuzz(func(t *testing.T, where string) {
		s.PruneFiles(where)
	})
}

func pruneSnapshotForFuzz(f *testing.F) *Snapshot {
	root := f.TempDir()
	writeCommit(f, root, 0, protocolAction(1, 2), metadataAction(testSchemaString, []string{"part"}, nil),
		Action{Add: &Add{Path: "a", PartitionValues: map[string]*string{"part": ptr("x")}, Stats: `{"numRecords":3,"minValues":{"id":1},"maxValues":{"id":9},"nullCount":{"id":0}}`}},
		Action{Add: &Add{Path: "b", PartitionValues: map[string]*string{"part": nil}}})
	return mustSnapshot(f, root)
}
