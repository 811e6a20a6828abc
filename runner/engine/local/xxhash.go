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

// SparkXXHash64 and SparkXXHash64Decimal are the names of the scalar
// functions RegisterFunctions adds for Spark's xxhash64: one step of its
// fold over the arguments, spark_xxhash64(v, seed) the XXH64 of v with the
// previous step's hash (42 first) as seed, v an INTEGER (Spark's
// hashInt: booleans, bytes, shorts, ints, dates), a BIGINT (hashLong:
// longs, timestamps, the unscaled value of a decimal of at most 18
// digits), a FLOAT or DOUBLE (their Java bits, -0.0 as 0.0, NaN Java's
// one NaN), a VARCHAR (its UTF-8 bytes) or a BLOB; a NULL v leaves the
// seed as it is, as Spark skips NULLs. spark_xxhash64_decimal(unscaled,
// seed) hashes the bytes of java.math.BigInteger.toByteArray of the
// unscaled digits of a wider decimal.
const (
	SparkXXHash64        = "spark_xxhash64"
	SparkXXHash64Decimal = "spark_xxhash64_decimal"
)

const (
	xxP1 uint64 = 11400714785074694791
	xxP2 uint64 = 14029467366897019727
	xxP3 uint64 = 1609587929392839161
	xxP4 uint64 = 9650029242287828579
	xxP5 uint64 = 2870177450012600261
)

func xxRound(acc, in uint64) uint64 {
	acc += in * xxP2
	return bits.RotateLeft64(acc, 31) * xxP1
}

func xxMerge(acc, v uint64) uint64 {
	acc ^= xxRound(0, v)
	return acc*xxP1 + xxP4
}

// xxh64 is XXH64 of b with seed, as Spark's XXH64.hashUnsafeBytes (and,
// for 4 and 8 little-endian bytes, hashInt and hashLong) computes it.
func xxh64(b []byte, seed uint64) uint64 {
	n := len(b)
	var h uint64
	if n >= 32 {
		v1, v2, v3, v4 := seed+xxP1+xxP2, seed+xxP2, seed, seed-xxP1
		for len(b) >= 32 {
			v1 = xxRound(v1, binary.LittleEndian.Uint64(b))
			v2 = xxRound(v2, binary.LittleEndian.Uint64(b[8:]))
			v3 = xxRound(v3, binary.LittleEndian.Uint64(b[16:]))
			v4 = xxRound(v4, binary.LittleEndian.Uint64(b[24:]))
			b = b[32:]
		}
		h = bits.RotateLeft64(v1, 1) + bits.RotateLeft64(v2, 7) + bits.RotateLeft64(v3, 12) + bits.RotateLeft64(v4, 18)
		h = xxMerge(xxMerge(xxMerge(xxMerge(h, v1), v2), v3), v4)
	} else {
		h = seed + xxP5
	}
	h += uint64(n)
	for ; len(b) >= 8; b = b[8:] {
		h ^= xxRound(0, binary.LittleEndian.Uint64(b))
		h = bits.RotateLeft64(h, 27)*xxP1 + xxP4
	}
	if len(b) >= 4 {
		h ^= uint64(binary.LittleEndian.Uint32(b)) * xxP1
		h = bits.RotateLeft64(h, 23)*xxP2 + xxP3
		b = b[4:]
	}
	for _, c := range b {
		h ^= uint64(c) * xxP5
		h = bits.RotateLeft64(h, 11) * xxP1
	}
	h ^= h >> 33
	h *= xxP2
	h ^= h >> 29
	h *= xxP3
	h ^= h >> 32
	return h
}

func xxInt(v uint32, seed int64) int64 {
	var b [4]byte
	binary.LittleEndian.PutUint32(b[:], v)
	return int64(xxh64(b[:], uint64(seed)))
}

func xxLong(v uint64, seed int64) int64 {
	var b [8]byte
	binary.LittleEndian.PutUint64(b[:], v)
	return int64(xxh64(b[:], uint64(seed)))
}

// javaBigIntegerBytes is BigInteger.toByteArray: the minimal big-endian
// two's complement bytes of x (at least one).
func javaBigIntegerBytes(x *big.Int) []byte {
	if x.Sign() >= 0 {
		b := x.Bytes()
		if len(b) == 0 || b[0]&0x80 != 0 {
			b = append([]byte{0}, b...)
		}
		return b
	}
	// -x-1 has the bits of x inverted; its length fixes the bytes'.
	m := new(big.Int).Neg(x)
	m.Sub(m, big.NewInt(1))
	n := m.BitLen()/8 + 1
	b := m.FillBytes(make([]byte, n))
	for i := range b {
		b[i] = ^b[i]
	}
	return b
}

type xxhashFunc struct {
	in, seed, out duckdb.TypeInfo
	decimal       bool
}

func newXXHash(in duckdb.Type, decimal bool) (*xxhashFunc, error) {
	f := &xxhashFunc{decimal: decimal}
	var err error
	if f.in, err = duckdb.NewTypeInfo(in); err != nil {
		return nil, err
	}
	if f.seed, err = duckdb.NewTypeInfo(duckdb.TYPE_BIGINT); err != nil {
		return nil, err
	}
	f.out = f.seed
	return f, nil
}

func (f *xxhashFunc) Config() duckdb.ScalarFuncConfig {
	return duckdb.ScalarFuncConfig{InputTypeInfos: []duckdb.TypeInfo{f.in, f.seed}, ResultTypeInfo: f.out, SpecialNullHandling: true}
}

func (f *xxhashFunc) Executor() duckdb.ScalarFuncExecutor {
	return duckdb.ScalarFuncExecutor{RowExecutor: func(v []driver.Value) (any, error) {
		seed, ok := v[1].(int64)
		if !ok {
			return nil, fmt.Errorf("%s: unexpected seed %T", SparkXXHash64, v[1])
		}
		switch x := v[0].(type) {
		case nil:
			return seed, nil
		case int32:
			return xxInt(uint32(x), seed), nil
		case int64:
			return xxLong(uint64(x), seed), nil
		case float32:
			switch {
			case x == 0:
				return xxInt(0, seed), nil
			case x != x:
				return xxInt(0x7fc00000, seed), nil
			}
			return xxInt(math.Float32bits(x), seed), nil
		case float64:
			switch {
			case x == 0:
				return xxLong(0, seed), nil
			case x != x:
				return xxLong(0x7ff8000000000000, seed), nil
			}
			return xxLong(math.Float64bits(x), seed), nil
		case string:
			if f.decimal {
				u, ok := new(big.Int).SetString(x, 10)
				if !ok {
					return nil, fmt.Errorf("%s: unexpected digits %q", SparkXXHash64Decimal, x)
				}
				return int64(xxh64(javaBigIntegerBytes(u), uint64(seed))), nil
			}
			return int64(xxh64([]byte(x), uint64(seed))), nil
		case []byte:
			return int64(xxh64(x, uint64(seed))), nil
		}
		return nil, fmt.Errorf("%s: unexpected argument %T", SparkXXHash64, v[0])
	}}
}

// registerXXHash adds SparkXXHash64 (one function per argument type) and
// SparkXXHash64Decimal to conn's catalog.
func registerXXHash(conn *sql.Conn) error {
	var fs []duckdb.ScalarFunc
	for _, in := range []duckdb.Type{duckdb.TYPE_INTEGER, duckdb.TYPE_BIGINT, duckdb.TYPE_FLOAT, duckdb.TYPE_DOUBLE, duckdb.TYPE_VARCHAR, duckdb.TYPE_BLOB} {
		f, err := newXXHash(in, false)
		if err != nil {
			return err
		}
		fs = append(fs, f)
	}
	if err := duckdb.RegisterScalarUDFSet(conn, SparkXXHash64, fs...); err != nil {
		return fmt.Errorf("%s: %w", SparkXXHash64, err)
	}
	f, err := newXXHash(duckdb.TYPE_VARCHAR, true)
	if err != nil {
		return err
	}
	if err := duckdb.RegisterScalarUDF(conn, SparkXXHash64Decimal, f); err != nil {
		return fmt.Errorf("%s: %w", SparkXXHash64Decimal, err)
	}
	return nil
}
