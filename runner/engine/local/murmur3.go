package local

import (
	"database/sql"
	"database/sql/driver"
	"encoding/binary"
	"fmt"
	"math"
	"math/big"
	"math/bits"

	duckdb "github.com/duckdb/duckdb-go/v2"
)

// SparkHash and SparkHashDecimal are the names of the scalar functions
// RegisterFunctions adds for Spark's hash (Murmur3Hash): one step of its
// fold over the arguments, spark_hash(v, seed) Spark's Murmur3_x86_32 of
// v with the previous step's hash (42 first) as seed, v an INTEGER
// (hashInt: booleans, bytes, shorts, ints, dates, year-month intervals),
// a BIGINT (hashLong: longs, timestamps, day-time intervals, the unscaled
// value of a decimal of at most 18 digits), a FLOAT or DOUBLE (their Java
// bits, -0.0 as 0.0, NaN Java's one NaN), a VARCHAR (its UTF-8 bytes) or
// a BLOB, bytes hashed as Spark's hashUnsafeBytes does (4-byte words, then
// each trailing byte, sign-extended, as a word of its own); a NULL v
// leaves the seed as it is, as Spark skips NULLs.
// spark_hash_decimal(unscaled, seed) hashes the bytes of
// java.math.BigInteger.toByteArray of the unscaled digits of a wider
// decimal.
const (
	SparkHash        = "spark_hash"
	SparkHashDecimal = "spark_hash_decimal"
)

const (
	m3C1 uint32 = 0xcc9e2d51
	m3C2 uint32 = 0x1b873593
)

func m3MixK1(k uint32) uint32 {
	k *= m3C1
	k = bits.RotateLeft32(k, 15)
	return k * m3C2
}

func m3MixH1(h, k uint32) uint32 {
	h ^= k
	h = bits.RotateLeft32(h, 13)
	return h*5 + 0xe6546b64
}

func m3Fmix(h uint32, n uint32) uint32 {
	h ^= n
	h ^= h >> 16
	h *= 0x85ebca6b
	h ^= h >> 13
	h *= 0xc2b2ae35
	h ^= h >> 16
	return h
}

// m3Int is Spark's Murmur3_x86_32.hashInt.
func m3Int(v uint32, seed int32) int32 {
	return int32(m3Fmix(m3MixH1(uint32(seed), m3MixK1(v)), 4))
}

// m3Long is Spark's Murmur3_x86_32.hashLong: the low word, then the high.
func m3Long(v uint64, seed int32) int32 {
	h := m3MixH1(uint32(seed), m3MixK1(uint32(v)))
	h = m3MixH1(h, m3MixK1(uint32(v>>32)))
	return int32(m3Fmix(h, 8))
}

// m3Bytes is Spark's Murmur3_x86_32.hashUnsafeBytes, which Murmur3Hash
// uses for strings, binaries and wide decimals: little-endian 4-byte
// words, then each remaining byte sign-extended to a word and mixed as
// one (not the reference Murmur3's tail).
func m3Bytes(b []byte, seed int32) int32 {
	n := len(b) - len(b)%4
	h := uint32(seed)
	for i := 0; i < n; i += 4 {
		h = m3MixH1(h, m3MixK1(binary.LittleEndian.Uint32(b[i:])))
	}
	for _, c := range b[n:] {
		h = m3MixH1(h, m3MixK1(uint32(int32(int8(c)))))
	}
	return int32(m3Fmix(h, uint32(len(b))))
}

type murmur3Func struct {
	in, seed duckdb.TypeInfo
	decimal  bool
}

func newMurmur3(in duckdb.Type, decimal bool) (*murmur3Func, error) {
	f := &murmur3Func{decimal: decimal}
	var err error
	if f.in, err = duckdb.NewTypeInfo(in); err != nil {
		return nil, err
	}
	if f.seed, err = duckdb.NewTypeInfo(duckdb.TYPE_INTEGER); err != nil {
		return nil, err
	}
	return f, nil
}

func (f *murmur3Func) Config() duckdb.ScalarFuncConfig {
	return duckdb.ScalarFuncConfig{InputTypeInfos: []duckdb.TypeInfo{f.in, f.seed}, ResultTypeInfo: f.seed, SpecialNullHandling: true}
}

func (f *murmur3Func) Executor() duckdb.ScalarFuncExecutor {
	return duckdb.ScalarFuncExecutor{RowExecutor: func(v []driver.Value) (any, error) {
		seed, ok := v[1].(int32)
		if !ok {
			return nil, fmt.Errorf("%s: unexpected seed %T", SparkHash, v[1])
		}
		return murmur3Step(v[0], seed, f.decimal)
	}}
}

// murmur3Step is one step of Spark's hash fold: x hashed with seed.
func murmur3Step(x any, seed int32, decimal bool) (any, error) {
	switch x := x.(type) {
	case nil:
		return seed, nil
	case int32:
		return m3Int(uint32(x), seed), nil
	case int64:
		return m3Long(uint64(x), seed), nil
	case float32:
		switch {
		case x == 0:
			return m3Int(0, seed), nil
		case x != x:
			return m3Int(0x7fc00000, seed), nil
		}
		return m3Int(math.Float32bits(x), seed), nil
	case float64:
		switch {
		case x == 0:
			return m3Long(0, seed), nil
		case x != x:
			return m3Long(0x7ff8000000000000, seed), nil
		}
		return m3Long(math.Float64bits(x), seed), nil
	case string:
		if decimal {
			u, ok := new(big.Int).SetString(x, 10)
			if !ok {
				return nil, fmt.Errorf("%s: unexpected digits %q", SparkHashDecimal, x)
			}
			return m3Bytes(javaBigIntegerBytes(u), seed), nil
		}
		return m3Bytes([]byte(x), seed), nil
	case []byte:
		return m3Bytes(x, seed), nil
	}
	return nil, fmt.Errorf("%s: unexpected argument %T", SparkHash, x)
}

// registerMurmur3 adds SparkHash (one function per argument type) and
// SparkHashDecimal to conn's catalog.
func registerMurmur3(conn *sql.Conn) error {
	var fs []duckdb.ScalarFunc
	for _, in := range []duckdb.Type{duckdb.TYPE_INTEGER, duckdb.TYPE_BIGINT, duckdb.TYPE_FLOAT, duckdb.TYPE_DOUBLE, duckdb.TYPE_VARCHAR, duckdb.TYPE_BLOB} {
		f, err := newMurmur3(in, false)
		if err != nil {
			return err
		}
		fs = append(fs, f)
	}
	if err := duckdb.RegisterScalarUDFSet(conn, SparkHash, fs...); err != nil {
		return fmt.Errorf("%s: %w", SparkHash, err)
	}
	f, err := newMurmur3(duckdb.TYPE_VARCHAR, true)
	if err != nil {
		return err
	}
	if err := duckdb.RegisterScalarUDF(conn, SparkHashDecimal, f); err != nil {
		return fmt.Errorf("%s: %w", SparkHashDecimal, err)
	}
	return nil
}
