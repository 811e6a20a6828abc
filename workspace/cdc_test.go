package workspace

import "testing"

// The replaced texts are what Laktory 0.13.1's
// DataSinkMergeCDCOptions._add_alias returns for each expression.
func TestSourceDeleteWhere(t *testing.T) {
	for _, tc := range []struct {
		expr, laktory string
		asWritten     bool
	}{
		{"op = 'D'", "source.op = 'D'", true},
		{"op='D'", "source.op='D'", true},
		{"is_deleted", "source.is_deleted", true},
		{"is_deleted = true", "source.is_deleted = true", true},
		{"NOT deleted", "NOT source.deleted", true},
		{"x <> 2.5", "source.x <> 2.5", true},
		{"x = 1_000", "source.x = 1_000", true},
		{"source.op = 'D'", "source.op = 'D'", true},
		{"operation = 'stop'", "source.operation = 'stop'", true},
		{"x IS NOT NULL", "source.x source.IS NOT NULL", false},
		{"op = 'D' OR op = 'X'", "source.source.op = 'D' OR source.source.op = 'X'", false},
		{"op IN ('D','X')", "source.op source.IN source.('D','X')", false},
		{"op = 'stop'", "source.op = 'stsource.op'", false},
		{"a > 1 AND ab < 2", "source.a > 1 AND source.source.ab < 2", false},
		{"lower(op) = 1", "source.lower(op) = 1", false},
		{"x = 1e-5", "source.x = source.1e-5", false},
		{"x = inf", "source.x = inf", false},
	} {
		m := &MergeCDC{DeleteWhere: tc.expr}
		if got := m.SourceDeleteWhere(); got != tc.laktory {
			t.Errorf("%q: replaced %q, Laktory gives %q", tc.expr, got, tc.laktory)
		}
		if got := m.DeleteWhereAsWritten(); got != tc.asWritten {
			t.Errorf("%q: as written %v, want %v", tc.expr, got, tc.asWritten)
		}
	}
}
