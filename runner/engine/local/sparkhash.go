package local

import (
	"database/sql"
	"database/sql/driver"
	"fmt"
	"math"
	"math/big"

	duckdb "github.com/duckdb/duckdb-go/v2"
)

// sparkHasher is one of Spark's hash families, hash (Murmur3Hash, 32-bit
// seeds) and xxhash64 (XxHash64, 64-bit): Spark folds both the same way
// over a row's values, and they differ only in how an int, a long and
// bytes are hashed. Its functions are registered as name(v, seed) (one
// per argument type, see step) and decimalName(unscaled, seed).
type sparkHasher[S int32 | int64] struct {
	name, decimalName string
	seedType          duckdb.Type
	hashInt           func(v uint32, seed S) S
	hashLong          func(v uint64, seed S) S
	hashBytes         func(b []byte, seed S) S
}

// step is one step of Spark's hash fold: x hashed with seed. x is an
// INTEGER (Spark's hashInt: booleans, bytes, shorts, ints, dates,
// year-month intervals), a BIGINT (hashLong: longs, timestamps, day-time
// intervals, the unscaled value of a decimal of at most 18 digits), a
// FLOAT or DOUBLE (their Java bits, -0.0 as 0.0, NaN Java's one NaN), a
// VARCHAR (its UTF-8 bytes; with decimal, the digits of a wider decimal's
// unscaled value, hashed as java.math.BigInteger.toByteArray's bytes) or
// a BLOB; a NULL leaves the seed as it is, as Spark skips NULLs.
func (h *sparkHasher[S]) step(x any, seed S, decimal bool) (any, error) {
	switch x := x.(type) {
	case nil:
		return seed, nil
	case int32:
		return h.hashInt(uint32(x), seed), nil
	case int64:
		return h.hashLong(uint64(x), seed), nil
	case float32:
		switch {
		case x == 0:
			return h.hashInt(0, seed), nil
		case x != x:
			return h.hashInt(0x7fc00000, seed), nil
		}
		return h.hashInt(math.Float32bits(x), seed), nil
	case float64:
		switch {
		case x == 0:
			return h.hashLong(0, seed), nil
		case x != x:
			return h.hashLong(0x7ff8000000000000, seed), nil
		}
		return h.hashLong(math.Float64bits(x), seed), nil
	case string:
		if decimal {
			u, ok := new(big.Int).SetString(x, 10)
			if !ok {
				return nil, fmt.Errorf("%s: unexpected digits %q", h.decimalName, x)
			}
			return h.hashBytes(javaBigIntegerBytes(u), seed), nil
		}
		return h.hashBytes([]byte(x), seed), nil
	case []byte:
		return h.hashBytes(x, seed), nil
	}
	return nil, fmt.Errorf("%s: unexpected argument %T", h.name, x)
}

// register adds h's functions to conn's catalog.
func (h *sparkHasher[S]) register(conn *sql.Conn) error {
	var fs []duckdb.ScalarFunc
	for _, in := range []duckdb.Type{duckdb.TYPE_INTEGER, duckdb.TYPE_BIGINT, duckdb.TYPE_FLOAT, duckdb.TYPE_DOUBLE, duckdb.TYPE_VARCHAR, duckdb.TYPE_BLOB} {
		f, err := h.newFunc(in, false)
		if err != nil {
			return err
		}
		fs = append(fs, f)
	}
	if err := duckdb.RegisterScalarUDFSet(conn, h.name, fs...); err != nil {
		return fmt.Errorf("%s: %w", h.name, err)
	}
	f, err := h.newFunc(duckdb.TYPE_VARCHAR, true)
	if err != nil {
		return err
	}
	if err := duckdb.RegisterScalarUDF(conn, h.decimalName, f); err != nil {
		return fmt.Errorf("%s: %w", h.decimalName, err)
	}
	return nil
}

type sparkHashFunc[S int32 | int64] struct {
	h        *sparkHasher[S]
	in, seed duckdb.TypeInfo
	decimal  bool
}

func (h *sparkHasher[S]) newFunc(in duckdb.Type, decimal bool) (*sparkHashFunc[S], error) {
	f := &sparkHashFunc[S]{h: h, decimal: decimal}
	var err error
	if f.in, err = duckdb.NewTypeInfo(in); err != nil {
		return nil, err
	}
	if f.seed, err = duckdb.NewTypeInfo(h.seedType); err != nil {
		return nil, err
	}
	return f, nil
}

func (f *sparkHashFunc[S]) Config() duckdb.ScalarFuncConfig {
	return duckdb.ScalarFuncConfig{InputTypeInfos: []duckdb.TypeInfo{f.in, f.seed}, ResultTypeInfo: f.seed, SpecialNullHandling: true}
}

func (f *sparkHashFunc[S]) Executor() duckdb.ScalarFuncExecutor {
	return duckdb.ScalarFuncExecutor{RowExecutor: func(v []driver.Value) (any, error) {
		seed, ok := v[1].(S)
		if !ok {
			return nil, fmt.Errorf("%s: unexpected seed %T", f.h.name, v[1])
		}
		return f.h.step(v[0], seed, f.decimal)
	}}
}
