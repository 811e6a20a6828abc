package local

import (
	"math"
	"testing"
)

// TestMoment: Spark 4.2's skewness and kurtosis, bit for bit, of groups
// folded in the order Spark read them (runner/sparksql corpus, heldout8:
// h8_skew_kurt_grouped, h8_skew_kurt_table, h8_skew_constant_values).
func TestMoment(t *testing.T) {
	ints := []float64{7, -7, 0, 2147483647, 3, 10, -2147483648}
	for _, tc := range []struct {
		name  string
		xs    []float64
		order int
		want  float64
		null  bool
	}{
		{"skewness of user 1's ms", []float64{120, 340, 80, 60}, 3, 1.030380124031903, false},
		{"kurtosis of user 1's ms", []float64{120, 340, 80, 60}, 4, -0.7701760000000002, false},
		{"kurtosis of two values", []float64{200, 45}, 4, -2.0, false},
		{"skewness of two values", []float64{200, 45}, 3, 0.0, false},
		{"skewness of large ints", ints, 3, -5.787075016782253e-09, false},
		{"kurtosis of large ints", ints, 4, 0.5, false},
		{"skewness with an infinity", []float64{12.7, -12.7, 0, math.Inf(1), 2.5, -2.5, 1e-07}, 3, math.NaN(), false},
		{"constant values", []float64{2, 2, 2}, 3, 0, true},
		{"one value", []float64{5}, 4, 0, true},
		{"no value", nil, 3, 0, true},
	} {
		got, ok := Moment(tc.xs, tc.order)
		switch {
		case tc.null && ok:
			t.Errorf("%s: %v, want NULL", tc.name, got)
		case !tc.null && !ok:
			t.Errorf("%s: NULL, want %v", tc.name, tc.want)
		case !tc.null && math.IsNaN(tc.want) && !math.IsNaN(got):
			t.Errorf("%s: %v, want NaN", tc.name, got)
		case !tc.null && !math.IsNaN(tc.want) && math.Float64bits(got) != math.Float64bits(tc.want):
			t.Errorf("%s: %v, want %v (bit for bit)", tc.name, got, tc.want)
		}
	}
}
