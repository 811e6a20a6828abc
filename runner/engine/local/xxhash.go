package local

import (
	"encoding/binary"
	"math/big"
	"math/bits"

	duckdb "github.com/duckdb/duckdb-go/v2"
)

// SparkXXHash64 and SparkXXHash64Decimal are the names of the scalar
// functions RegisterFunctions adds for Spark's xxhash64: one step of its
// fold over the arguments (sparkHasher.step), spark_xxhash64(v, seed) the
// XXH64 of v with the previous step's hash (42 first) as seed;
// spark_xxhash64_decimal(unscaled, seed) hashes a wider decimal.
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

// xxhash64 is Spark's xxhash64 (XxHash64).
var xxhash64 = &sparkHasher[int64]{name: SparkXXHash64, decimalName: SparkXXHash64Decimal, seedType: duckdb.TYPE_BIGINT,
	hashInt: xxInt, hashLong: xxLong, hashBytes: func(b []byte, seed int64) int64 { return int64(xxh64(b, uint64(seed))) }}
