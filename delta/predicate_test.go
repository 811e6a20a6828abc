package delta

import (
	"sort"
	"strings"
	"testing"
)

// pruneSnapshot is a snapshot with four files whose partition values and
// stats are known, for pruning tests.
func pruneSnapshot(t *testing.T) *Snapshot {
	t.Helper()
	schema := `{"type":"struct","fields":[` +
		`{"name":"id","type":"long","nullable":true,"metadata":{}},` +
		`{"name":"Name","type":"string","nullable":true,"metadata":{}},` +
		`{"name":"ts","type":"timestamp","nullable":true,"metadata":{}},` +
		`{"name":"amount","type":"decimal(10,2)","nullable":true,"metadata":{}},` +
		`{"name":"part","type":"string","nullable":true,"metadata":{}},` +
		`{"name":"n","type":"integer","nullable":true,"metadata":{}}]}`
	root := t.TempDir()
	file := func(path string, part *string, n string, stats string) Action {
		pv := map[string]*string{"part": part, "n": &n}
		return Action{Add: &Add{Path: path, PartitionValues: pv, Size: 1, DataChange: true, Stats: stats}}
	}
	writeCommit(t, root, 0, protocolAction(1, 2), metadataAction(schema, []string{"part", "n"}, nil),
		file("a", ptr("x"), "1", `{"numRecords":10,"minValues":{"id":1,"Name":"alice","ts":"2024-01-01T00:00:00.000Z","amount":1.50},"maxValues":{"id":10,"Name":"bob","ts":"2024-01-01T10:00:00.000Z","amount":9.99},"nullCount":{"id":0,"Name":0,"ts":0,"amount":0}}`),
		file("b", ptr("y"), "2", `{"numRecords":10,"minValues":{"id":11,"Name":"carol","ts":"2024-02-01T00:00:00.000Z"},"maxValues":{"id":20,"Name":"dave","ts":"2024-02-01T00:00:00.000Z"},"nullCount":{"id":0,"Name":3,"ts":0}}`),
		file("c", nil, "", `{"numRecords":5,"minValues":{},"maxValues":{},"nullCount":{"id":5,"Name":5}}`),
		file("d", ptr("y"), "3", ``),
	)
	return mustSnapshot(t, root)
}

func TestPruneFiles(t *testing.T) {
	s := pruneSnapshot(t)
	tests := []struct {
		where string
		want  string // surviving files
	}{
		{"", "a,b,c,d"},
		{"part = 'x'", "a"},
		{"'x' = part", "a"},
		{"PART = 'y'", "b,d"},
		{`"part" != 'x'`, "b,d"},
		{"part IS NULL", "c"},
		{"part IS NOT NULL", "a,b,d"},
		{"NOT part IS NULL", "a,b,d"},
		{"n = 2", "b"},
		{"n = '2'", "b"},
		{"n IN (1, 3)", "a,d"},
		{"n NOT IN (1, 3)", "b"},
		{"n NOT IN (1, NULL)", ""},
		{"n BETWEEN 2 AND 3", "b,d"},
		{"n NOT BETWEEN 2 AND 3", "a"},
		{"id = 15", "b,d"},
		{"id > 10", "b,d"},
		{"id >= 10", "a,b,d"},
		{"id < 1", "d"},
		{"id <= 1", "a,d"},
		{"id <> 5", "a,b,d"},
		{"id = -3", "d"},
		{"id = 5.5", "a,d"},
		{"id IS NULL", "c,d"},
		{"id IS NOT NULL", "a,b,d"},
		{"Name = 'bob'", "a,d"},
		{"name > 'd'", "b,d"},
		{"ts >= TIMESTAMPTZ '2024-02-01 00:00:00+00'", "b,c,d"}, // c has no ts stats
		{"ts > TIMESTAMP '2024-02-01 00:00:00'", "b,c,d"},       // max is ms-truncated: could be later
		{"ts > TIMESTAMP '2024-02-01 00:00:00.001'", "c,d"},
		{"ts < '2024-01-01'", "c,d"},
		{"ts < DATE '2024-01-02'", "a,c,d"},
		{"amount > 9.99", "b,c,d"}, // b and c have no amount bounds
		{"amount >= 9.99", "a,b,c,d"},
		{"part = 'x' AND id > 5", "a"},
		{"part = 'x' AND id > 50", ""},
		{"part = 'x' OR id > 15", "a,b,d"},
		{"NOT (part = 'x' OR id > 15)", "b,d"},
		{"(part = 'x') AND (n = 1)", "a"},
		{"part = 'x' AND upper(Name) = 'BOB'", "a"},
		{"upper(Name) = 'BOB' OR part = 'x'", "a,b,c,d"},
		{"id + 1 = 3", "a,b,c,d"},
		{"Name LIKE 'a%' AND part = 'y'", "b,d"},
		{"x BETWEEN 1 AND 2 AND part = 'x'", "a"},
		{"f(id) BETWEEN 1 AND 3 OR part = 'x'", "a,b,c,d"},
		{"CASE WHEN id > 3 AND id < 5 THEN true END AND part = 'x'", "a"},
		{"id = '1'::BIGINT", "a,b,c,d"},
		{"part = 'x' garbage", "a,b,c,d"},
		{"unknown_col = 3", "a,b,c,d"},
		{"id = id", "a,b,c,d"},
		{"part = NULL", "a,b,c,d"},
	}
	for _, tt := range tests {
		t.Run(tt.where, func(t *testing.T) {
			var got []string
			for _, f := range s.PruneFiles(tt.where) {
				got = append(got, f.Path)
			}
			sort.Strings(got)
			if strings.Join(got, ",") != tt.want {
				t.Fatalf("PruneFiles(%q) = %v, want %s", tt.where, got, tt.want)
			}
		})
	}
}

// TestPruneLongStringMax: a max string of 32+ characters may be truncated
// and is not used as an upper bound.
func TestPruneLongStringMax(t *testing.T) {
	root := t.TempDir()
	long := strings.Repeat("m", 32)
	writeCommit(t, root, 0, protocolAction(1, 2), metadataAction(`{"type":"struct","fields":[{"name":"s","type":"string","nullable":true,"metadata":{}}]}`, nil, nil),
		Action{Add: &Add{Path: "a", Size: 1, Stats: `{"numRecords":1,"minValues":{"s":"a"},"maxValues":{"s":"` + long + `"},"nullCount":{"s":0}}`}})
	s := mustSnapshot(t, root)
	if n := len(s.PruneFiles("s = '" + long + "zzz'")); n != 1 {
		t.Fatalf("a truncated max pruned the file")
	}
	if n := len(s.PruneFiles("s < 'a'")); n != 0 {
		t.Fatalf("the min bound was not used")
	}
}

// TestAllMatchingFiles: the files whose partition values and stats prove
// that every row makes the predicate TRUE (a delete removes them unread).
// d has no stats, hence no row count: it is never among them.
func TestAllMatchingFiles(t *testing.T) {
	s := pruneSnapshot(t)
	tests := []struct {
		where string
		want  string
	}{
		{"part = 'x'", "a"},
		{"PART = 'y'", "b"},
		{"part IS NULL", "c"},
		{"part IS NOT NULL", "a,b"},
		{"n IN (1, 2)", "a,b"},
		{"n NOT IN (2, NULL)", ""},
		{"id >= 1", "a,b"},
		{"id > 1", "b"},
		{"id <= 10", "a"},
		{"id < 10", ""},
		{"id BETWEEN 1 AND 10", "a"},
		{"id IN (1, 2)", ""}, // 3..10 are not in it
		{"id != 15", "a"},    // b's range holds 15
		{"id NOT IN (15, 30)", "a"},
		{"id = 5", ""},
		{"id IS NULL", "c"},
		{"id IS NOT NULL", "a,b"},
		{"Name >= 'alice'", "a"}, // b has NULL names
		{"Name = 'bob'", ""},
		{"ts >= TIMESTAMP '2024-01-31 23:59:59.999'", "b"},
		{"ts >= TIMESTAMP '2024-01-01 00:00:00'", "b"}, // a's min may be up to 999µs earlier
		{"ts < TIMESTAMP '2024-01-01 10:00:00.001'", "a"},
		{"amount >= 1.5", "a"},
		{"part = 'x' AND id > 0", "a"},
		{"part = 'x' AND upper(Name) = 'BOB'", ""},
		{"upper(Name) = 'BOB' OR part = 'x'", "a"},
		{"NOT (id > 10)", "a"},
		{"NOT (part = 'x' AND upper(Name) = 'BOB')", "b"},
		{"id = id", ""},
		{"part = 'x' garbage", ""},
		{"unknown_col = 3", ""},
	}
	for _, tt := range tests {
		t.Run(tt.where, func(t *testing.T) {
			all, rest := s.splitAllMatching(s.Files(), tt.where)
			var got []string
			for _, f := range all {
				got = append(got, f.Path)
			}
			sort.Strings(got)
			if strings.Join(got, ",") != tt.want || len(all)+len(rest) != 4 {
				t.Fatalf("all matching %q = %v (rest %d), want %s", tt.where, got, len(rest), tt.want)
			}
		})
	}
}

// TestAllMatchingFloatAndDV: a double column never proves a match (NaN may
// lie outside its min/max), nor does a file with a deletion vector.
func TestAllMatchingFloatAndDV(t *testing.T) {
	root := t.TempDir()
	stats := `{"numRecords":2,"minValues":{"v":1.0,"k":1},"maxValues":{"v":2.0,"k":1},"nullCount":{"v":0,"k":0}}`
	writeCommit(t, root, 0, protocolAction(3, 7, "deletionVectors"), metadataAction(`{"type":"struct","fields":[{"name":"v","type":"double","nullable":true,"metadata":{}},{"name":"k","type":"long","nullable":true,"metadata":{}}]}`, nil, nil),
		Action{Add: &Add{Path: "a", Size: 1, Stats: stats}},
		Action{Add: &Add{Path: "b", Size: 1, Stats: stats, DeletionVector: &DeletionVector{StorageType: "i", PathOrInlineDv: "wi5b=000010000siXQKl0rr91000f55c8Xg0@@D72lkbi5=-{L", SizeInBytes: 40, Cardinality: 1}}})
	s := mustSnapshot(t, root)
	for where, want := range map[string]int{"v > 0": 0, "k = 1": 1} {
		if all, _ := s.splitAllMatching(s.Files(), where); len(all) != want || want == 1 && all[0].Path != "a" {
			t.Errorf("%q: %d files all match, want %d", where, len(all), want)
		}
	}
}

// TestPruneFloatLiterals: a number literal compared with a DOUBLE column is
// the double DuckDB compares (a file of d = 0.1 rows is kept for
// `d = 0.1`, as the scan's filter then matches them); FLOAT columns are not
// pruned by their stats' text.
func TestPruneFloatLiterals(t *testing.T) {
	schema := `{"type":"struct","fields":[` +
		`{"name":"d","type":"double","nullable":true,"metadata":{}},` +
		`{"name":"f","type":"float","nullable":true,"metadata":{}}]}`
	root := t.TempDir()
	writeCommit(t, root, 0, protocolAction(1, 2), metadataAction(schema, nil, nil),
		Action{Add: &Add{Path: "a", Size: 1, DataChange: true, Stats: `{"numRecords":2,"minValues":{"d":0.1,"f":0.1},"maxValues":{"d":0.1,"f":0.1},"nullCount":{"d":0,"f":0}}`}},
		Action{Add: &Add{Path: "b", Size: 1, DataChange: true, Stats: `{"numRecords":2,"minValues":{"d":10000000000000000,"f":2},"maxValues":{"d":10000000000000000,"f":2},"nullCount":{"d":0,"f":0}}`}})
	s := mustSnapshot(t, root)
	for _, tt := range []struct{ where, want string }{
		{"d = 0.1", "a"},
		{"d = 0.10", "a"},
		{"d IN (0.1, 0.3)", "a"},
		{"d > 0.1", "b"},
		{"d <= 0.1", "a"},
		{"d = 0.2", ""},
		{"d = 10000000000000001", "b"}, // the same double as 1e16
		{"d = 1e16", "b"},
		{"f = 0.1", "a,b"},
	} {
		var got []string
		for _, f := range s.PruneFiles(tt.where) {
			got = append(got, f.Path)
		}
		sort.Strings(got)
		if strings.Join(got, ",") != tt.want {
			t.Errorf("PruneFiles(%q) = %v, want %s", tt.where, got, tt.want)
		}
	}
}
