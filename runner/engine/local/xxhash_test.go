package local

import (
	"context"
	"database/sql"
	"encoding/hex"
	"math/big"
	"testing"
)

// XXH64's reference vectors (xxHash's own test suite, seed 0 and the
// prime seed 2654435761), in lengths that take each of its paths: the
// tail bytes, a 4-byte word, 8-byte words, 32-byte stripes.
func TestXXH64(t *testing.T) {
	for _, tc := range []struct {
		in   string
		seed uint64
		want uint64
	}{
		{"", 0, 0xEF46DB3751D8E999},
		{"a", 0, 0xD24EC4F1A98C6E5B},
		{"abc", 0, 0x44BC2CF5AD770999},
		{"message digest", 0, 0x066ED728FCEEB3BE},
		{"abcdefghijklmnopqrstuvwxyz", 0, 0xCFE1F278FA89835C},
		{"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789", 0, 0xAAA46907D3047814},
		{"12345678901234567890123456789012345678901234567890123456789012345678901234567890", 0, 0xE04A477F19EE145D},
		{"", 2654435761, 0xAC75FDA2929B17EF},
	} {
		if got := xxh64([]byte(tc.in), tc.seed); got != tc.want {
			t.Errorf("xxh64(%q, %d) = %#x, want %#x", tc.in, tc.seed, got, tc.want)
		}
	}
}

// java.math.BigInteger.toByteArray, which Spark hashes for a decimal of
// more than 18 digits.
func TestJavaBigIntegerBytes(t *testing.T) {
	for in, want := range map[string]string{
		"0": "00", "1": "01", "127": "7f", "128": "0080", "255": "00ff", "256": "0100",
		"-1": "ff", "-128": "80", "-129": "ff7f", "-256": "ff00", "-255": "ff01",
		"123456789012345678905": "06b14e9f812f366c39", "-123456789012345678905": "f94eb1607ed0c993c7",
	} {
		x, _ := new(big.Int).SetString(in, 10)
		if got := hex.EncodeToString(javaBigIntegerBytes(x)); got != want {
			t.Errorf("toByteArray(%s) = %s, want %s", in, got, want)
		}
	}
}

// spark_xxhash64 through DuckDB: NULL leaves the seed, each type takes
// its overload, -0.0 hashes as 0.0 and every NaN as Java's NaN.
func TestSparkXXHash64Function(t *testing.T) {
	ctx := context.Background()
	db, err := OpenDB(ctx, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	for _, tc := range []struct {
		expr string
		want int64
	}{
		{`spark_xxhash64(CAST(NULL AS INTEGER), 42)`, 42},
		{`spark_xxhash64(CAST(NULL AS VARCHAR), 7)`, 7},
		{`spark_xxhash64('abc', 0)`, int64(0x44BC2CF5AD770999)},
		{`spark_xxhash64(CAST('abc' AS BLOB), 0)`, int64(0x44BC2CF5AD770999)},
		{`spark_xxhash64(CAST(1 AS INTEGER), 42)`, xxInt(1, 42)},
		{`spark_xxhash64(CAST(1 AS BIGINT), 42)`, xxLong(1, 42)},
		{`spark_xxhash64(CAST(-0.0 AS DOUBLE), 42)`, xxLong(0, 42)},
		{`spark_xxhash64(CAST('NaN' AS DOUBLE), 42)`, xxLong(0x7ff8000000000000, 42)},
		{`spark_xxhash64(CAST(-0.0 AS FLOAT), 42)`, xxInt(0, 42)},
		{`spark_xxhash64(CAST(1.5 AS FLOAT), 42)`, xxInt(0x3fc00000, 42)},
		{`spark_xxhash64_decimal('-1', 42)`, int64(xxh64([]byte{0xff}, 42))},
	} {
		var got sql.NullInt64
		if err := db.QueryRowContext(ctx, "SELECT "+tc.expr).Scan(&got); err != nil {
			t.Errorf("%s: %v", tc.expr, err)
			continue
		}
		if !got.Valid || got.Int64 != tc.want {
			t.Errorf("%s = %v, want %d", tc.expr, got, tc.want)
		}
	}
}
