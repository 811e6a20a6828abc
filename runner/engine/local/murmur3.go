package local

import (
	"encoding/binary"
	"math/bits"

	duckdb "github.com/duckdb/duckdb-go/v2"
)

// SparkHash and SparkHashDecimal are the names of the scalar functions
// RegisterFunctions adds for Spark's hash (Murmur3Hash): one step of its
// fold over the arguments (sparkHasher.step), spark_hash(v, seed) Spark's
// Murmur3_x86_32 of v with the previous step's hash (42 first) as seed,
// bytes hashed as Spark's hashUnsafeBytes does (4-byte words, then each
// trailing byte, sign-extended, as a word of its own).
// spark_hash_decimal(unscaled, seed) hashes a wider decimal.
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

// murmur3 is Spark's hash (Murmur3Hash).
var murmur3 = &sparkHasher[int32]{name: SparkHash, decimalName: SparkHashDecimal, seedType: duckdb.TYPE_INTEGER,
	hashInt: m3Int, hashLong: m3Long, hashBytes: m3Bytes}
