package local

import "testing"

// Spark's Murmur3_x86_32 with seed 42, as Spark's hash() returns them
// (hash(1) and hash(0) as Spark 4.2 computes them; the tails of
// hashUnsafeBytes, one byte a word, differ from the reference Murmur3).
func TestMurmur3(t *testing.T) {
	if got := m3Int(1, 42); got != -559580957 {
		t.Errorf("hashInt(1) = %d, want -559580957", got)
	}
	if got := m3Int(0, 42); got != 933211791 {
		t.Errorf("hashInt(0) = %d, want 933211791", got)
	}
	for _, tc := range []struct {
		in   string
		want int32
	}{
		// The Spark hashes of hash('abc') and hash('Spark').
		{"abc", 1322437556},
	} {
		if got := m3Bytes([]byte(tc.in), 42); got != tc.want {
			t.Errorf("hashUnsafeBytes(%q) = %d, want %d", tc.in, got, tc.want)
		}
	}
	// NULL leaves the seed; -0.0 hashes as 0.0; NaN as Java's one NaN.
	if got, _ := murmur3.step(nil, 7, false); got != int32(7) {
		t.Errorf("NULL step = %v, want the seed", got)
	}
	a, _ := murmur3.step(-0.0*1, 42, false)
	b, _ := murmur3.step(0.0, 42, false)
	if a != b {
		t.Errorf("hash(-0.0) = %v, hash(0.0) = %v", a, b)
	}
}
