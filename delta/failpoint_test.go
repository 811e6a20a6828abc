package delta

import "testing"

func TestParseFailPoint(t *testing.T) {
	for _, tc := range []struct {
		in   string
		name string
		at   int64
	}{
		{"delta.commit.after", "delta.commit.after", 1},
		{" refresh.deleted:3 ", "refresh.deleted", 3},
		{"odd:name", "odd:name", 1},
		{"x:0", "x:0", 1},
	} {
		fp := parseFailPoint(tc.in)
		if fp == nil || fp.name != tc.name || fp.at != tc.at {
			t.Errorf("parseFailPoint(%q) = %+v, want %s at %d", tc.in, fp, tc.name, tc.at)
		}
	}
	if parseFailPoint("  ") != nil {
		t.Error("an empty LAKTORY_FAILPOINT names no point")
	}
	// Another point, or a later hit, does not stop the process.
	failPoint = parseFailPoint("elsewhere:2")
	defer func() { failPoint = nil }()
	FailPoint(FailCommitAfter)
	FailPoint("elsewhere")
}
