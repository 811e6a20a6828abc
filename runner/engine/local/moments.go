package local

import (
	"database/sql/driver"
	"fmt"
	"math"

	duckdb "github.com/duckdb/duckdb-go/v2"
)

// SparkMoment is the name of the scalar function RegisterFunctions adds
// for Spark's skewness and kurtosis (CentralMomentAgg in Spark 4.2):
// spark_moment(xs, order) folds the values an aggregate collected (a list
// of doubles, in the order the rows were read; NULLs skipped) with
// Spark's update expressions, then evaluates them as Spark does: order 3
// is skewness, 4 kurtosis. NULL for no values, or when the second central
// moment is 0 (Spark's result without spark.sql.legacy.statisticalAggregate).
const SparkMoment = "spark_moment"

// Moment is Spark's skewness (order 3) or kurtosis (order 4) of xs, its
// values folded in order; ok is false where Spark's result is NULL.
func Moment(xs []float64, order int) (v float64, ok bool) {
	var n, avg, m2, m3, m4 float64
	for _, x := range xs {
		// CentralMomentAgg.updateExpressions, term by term, in Spark's
		// order of evaluation. Java does not fuse a multiply and an add;
		// the float64 conversions keep Go from fusing them either.
		newN := n + 1.0
		delta := x - avg
		deltaN := delta / newN
		newAvg := avg + deltaN
		newM2 := m2 + float64(delta*(delta-deltaN))
		delta2 := delta * delta
		deltaN2 := deltaN * deltaN
		newM3 := m3 - float64(float64(3.0*deltaN)*newM2) + float64(delta*(delta2-deltaN2))
		newM4 := 0.0
		if order >= 4 {
			newM4 = m4 - float64(float64(4.0*deltaN)*newM3) - float64(float64(6.0*deltaN2)*newM2) +
				float64(delta*(float64(delta*delta2)-float64(deltaN*deltaN2)))
		}
		n, avg, m2, m3, m4 = newN, newAvg, newM2, newM3, newM4
	}
	// The final aggregation merges the partial buffer into an empty one:
	// with n1 = 0 the moments are the partial buffer's own.
	if n == 0 || m2 == 0 {
		return 0, false
	}
	if order == 3 {
		return float64(math.Sqrt(n)*m3) / math.Sqrt(float64(m2*m2)*m2), true
	}
	return float64(float64(n*m4)/float64(m2*m2)) - 3.0, true
}

type momentFunc struct{ xs, order, out duckdb.TypeInfo }

func newMoment() (*momentFunc, error) {
	d, err := duckdb.NewTypeInfo(duckdb.TYPE_DOUBLE)
	if err != nil {
		return nil, err
	}
	f := &momentFunc{out: d}
	if f.xs, err = duckdb.NewListInfo(d); err != nil {
		return nil, err
	}
	if f.order, err = duckdb.NewTypeInfo(duckdb.TYPE_INTEGER); err != nil {
		return nil, err
	}
	return f, nil
}

func (f *momentFunc) Config() duckdb.ScalarFuncConfig {
	return duckdb.ScalarFuncConfig{InputTypeInfos: []duckdb.TypeInfo{f.xs, f.order}, ResultTypeInfo: f.out}
}

func (f *momentFunc) Executor() duckdb.ScalarFuncExecutor {
	return duckdb.ScalarFuncExecutor{RowExecutor: func(v []driver.Value) (any, error) {
		list, ok := v[0].([]any)
		if !ok {
			return nil, fmt.Errorf("%s: unexpected values %T", SparkMoment, v[0])
		}
		order, ok := v[1].(int32)
		if !ok || (order != 3 && order != 4) {
			return nil, fmt.Errorf("%s: unexpected order %v", SparkMoment, v[1])
		}
		xs := make([]float64, 0, len(list))
		for _, raw := range list {
			if x, ok := raw.(float64); ok {
				xs = append(xs, x)
			}
		}
		m, ok := Moment(xs, int(order))
		if !ok {
			return nil, nil
		}
		return m, nil
	}}
}
