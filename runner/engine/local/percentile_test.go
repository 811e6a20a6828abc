package local

import (
	"errors"
	"math"
	"testing"
)

// TestPercentiles checks Spark's percentile arithmetic on groups whose
// results pyspark 4.2 computed (percentile, percentile_cont DESC,
// percentile_disc; the signed zeros' order, NaN above everything).
func TestPercentiles(t *testing.T) {
	vals := func(ds ...float64) []PercentileEntry {
		var out []PercentileEntry
		for _, d := range ds {
			out = append(out, PercentileEntry{D: d, W: 1})
		}
		return out
	}
	negZero := math.Copysign(0, -1)
	cases := []struct {
		name    string
		entries []PercentileEntry
		ps      []float64
		flags   int
		want    []float64
	}{
		// SELECT percentile(x, 0.5, f) FROM VALUES (1, 1), (2, 3), (3, 0): 2.0
		{"weighted", []PercentileEntry{{D: 1, W: 1}, {D: 2, W: 3}, {D: 3, W: 0}}, []float64{0.5}, 0, []float64{2}},
		// percentile_disc(array(0.5, 0.25)) WITHIN GROUP (ORDER BY x) of 1..4: [2.0, 1.0]
		{"disc", vals(1, 2, 3, 4), []float64{0.5, 0.25}, PercentileDisc, []float64{2, 1}},
		// percentile_disc(0.25) WITHIN GROUP (ORDER BY x DESC) of 1..4: 4.0
		{"disc desc", vals(1, 2, 3, 4), []float64{0.25}, PercentileDisc | PercentileReverse, []float64{4}},
		// percentile_cont(array(0.5, 0.25)) WITHIN GROUP (ORDER BY x) of 1..4: [2.5, 1.75]
		{"cont", vals(1, 2, 3, 4), []float64{0.5, 0.25}, 0, []float64{2.5, 1.75}},
		// percentile_cont(0.3) WITHIN GROUP (ORDER BY x DESC) of (0.1, 0.7, 2.3, 1e10, -3.3333): 1.9799999999999998
		{"cont desc doubles", vals(0.1, 0.7, 2.3, 1e10, -3.3333), []float64{0.3}, PercentileReverse | PercentileFloat, []float64{1.9799999999999998}},
		// percentile(x, 0.5) of (NaN, 1, Infinity): Infinity
		{"nan greatest", vals(math.NaN(), 1, math.Inf(1)), []float64{0.5, 1}, PercentileFloat, []float64{math.Inf(1), math.NaN()}},
		// percentile(x, 0.5) of (0.0, -0.0): -0.0; of (-0.0, 0.0, 1): 0.0
		{"zeros", vals(0, negZero), []float64{0.5}, PercentileFloat, []float64{negZero}},
		{"zeros and one", vals(negZero, 0, 1), []float64{0.5, 0.25}, PercentileFloat, []float64{0, negZero}},
		{"empty", []PercentileEntry{{D: 1, W: 0}}, []float64{0.5}, 0, nil},
		// percentile(x, array()) of 1, 2: NULL
		{"no percentage", vals(1, 2), nil, 0, nil},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			got, err := Percentiles(c.entries, c.ps, c.flags)
			if err != nil {
				t.Fatal(err)
			}
			if len(got) != len(c.want) {
				t.Fatalf("got %v, want %v", got, c.want)
			}
			for i := range got {
				g, w := got[i], c.want[i]
				if math.Float64bits(g) != math.Float64bits(w) && !(math.IsNaN(g) && math.IsNaN(w)) {
					t.Errorf("percentage %v: got %v (sign %v), want %v (sign %v)", c.ps[i], g, math.Signbit(g), w, math.Signbit(w))
				}
			}
		})
	}
}

// TestPercentileSignedZeroUnordered: where the other values of a group can
// push -0.0 past 0.0's slot in Spark's hash map, a zero result stops.
func TestPercentileSignedZeroUnordered(t *testing.T) {
	var entries []PercentileEntry
	for i := 1; i <= 40; i++ {
		entries = append(entries, PercentileEntry{D: float64(i), W: 1}, PercentileEntry{D: -float64(i), W: 1})
	}
	entries = append(entries, PercentileEntry{D: 0, W: 1}, PercentileEntry{D: math.Copysign(0, -1), W: 1})
	if _, err := Percentiles(entries, []float64{0.5}, PercentileFloat); !errors.Is(err, ErrSignedZero) {
		t.Fatalf("got %v, want ErrSignedZero", err)
	}
	// A result away from the zeros does not depend on their order.
	if got, err := Percentiles(entries, []float64{1}, PercentileFloat); err != nil || got[0] != 40 {
		t.Fatalf("got %v, %v, want 40", got, err)
	}
}
