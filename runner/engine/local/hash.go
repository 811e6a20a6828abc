package local

import (
	"context"
	"crypto/sha256"
	"crypto/sha512"
	"database/sql"
	"database/sql/driver"
	"encoding/hex"
	"fmt"
	"hash"

	duckdb "github.com/duckdb/duckdb-go/v2"
)

// SparkSHA2 is the name of the scalar function RegisterFunctions adds:
// spark_sha2(x, bits) is Spark's sha2(x, bits) of a VARCHAR (its UTF-8
// bytes) or a BLOB, the lower-case hex digest of SHA-224, SHA-256 (bits 0
// or 256), SHA-384 or SHA-512, and NULL for any other bit length or a NULL
// argument. DuckDB without extensions has only sha256 (and md5, sha1).
const SparkSHA2 = "spark_sha2"

// RegisterFunctions adds the engine's Go scalar functions (SparkSHA2,
// SparkToNumber, SparkToChar, SparkPercentile, SparkMoment, SparkParseURL, SparkURLCheck,
// SparkGetJSONObject, SparkJSONRead, SparkJSONPretty, SparkXXHash64,
// SparkXXHash64Decimal, SparkHash, SparkHashDecimal, SparkUnbase64,
// SparkBase64Check, SparkConv, SparkMask) to
// db's catalog, where every connection of db sees them. OpenDB calls it;
// a test that opens DuckDB itself calls it on its database.
func RegisterFunctions(ctx context.Context, db *sql.DB) error {
	conn, err := db.Conn(ctx)
	if err != nil {
		return fmt.Errorf("register functions: %w", err)
	}
	defer conn.Close()
	var fs []duckdb.ScalarFunc
	for _, in := range []duckdb.Type{duckdb.TYPE_VARCHAR, duckdb.TYPE_BLOB} {
		f, err := newSHA2(in)
		if err != nil {
			return fmt.Errorf("register functions: %w", err)
		}
		fs = append(fs, f)
	}
	if err := duckdb.RegisterScalarUDFSet(conn, SparkSHA2, fs...); err != nil {
		return fmt.Errorf("register functions: %s: %w", SparkSHA2, err)
	}
	for _, name := range []string{SparkToNumber, SparkToChar} {
		f, err := newNumFmt(name)
		if err != nil {
			return fmt.Errorf("register functions: %w", err)
		}
		if err := duckdb.RegisterScalarUDF(conn, name, f); err != nil {
			return fmt.Errorf("register functions: %s: %w", name, err)
		}
	}
	pct, err := newPercentile()
	if err != nil {
		return fmt.Errorf("register functions: %w", err)
	}
	if err := duckdb.RegisterScalarUDF(conn, SparkPercentile, pct); err != nil {
		return fmt.Errorf("register functions: %s: %w", SparkPercentile, err)
	}
	mom, err := newMoment()
	if err != nil {
		return fmt.Errorf("register functions: %w", err)
	}
	if err := duckdb.RegisterScalarUDF(conn, SparkMoment, mom); err != nil {
		return fmt.Errorf("register functions: %s: %w", SparkMoment, err)
	}
	str, err := duckdb.NewTypeInfo(duckdb.TYPE_VARCHAR)
	if err != nil {
		return fmt.Errorf("register functions: %w", err)
	}
	for _, name := range []string{SparkParseURL, SparkURLCheck} {
		if err := duckdb.RegisterScalarUDF(conn, name, &urlFunc{name: name, str: str}); err != nil {
			return fmt.Errorf("register functions: %s: %w", name, err)
		}
	}
	if err := xxhash64.register(conn); err != nil {
		return fmt.Errorf("register functions: %w", err)
	}
	if err := murmur3.register(conn); err != nil {
		return fmt.Errorf("register functions: %w", err)
	}
	if err := registerCodecs(conn); err != nil {
		return fmt.Errorf("register functions: %w", err)
	}
	if err := registerMask(conn); err != nil {
		return fmt.Errorf("register functions: %w", err)
	}
	for _, name := range []string{SparkGetJSONObject, SparkJSONRead, SparkJSONPretty} {
		if err := duckdb.RegisterScalarUDF(conn, name, &jsonFunc{name: name, str: str}); err != nil {
			return fmt.Errorf("register functions: %s: %w", name, err)
		}
	}
	return nil
}

type sha2Func struct{ in, bits, out duckdb.TypeInfo }

func newSHA2(in duckdb.Type) (*sha2Func, error) {
	var f sha2Func
	var err error
	if f.in, err = duckdb.NewTypeInfo(in); err != nil {
		return nil, err
	}
	if f.bits, err = duckdb.NewTypeInfo(duckdb.TYPE_BIGINT); err != nil {
		return nil, err
	}
	if f.out, err = duckdb.NewTypeInfo(duckdb.TYPE_VARCHAR); err != nil {
		return nil, err
	}
	return &f, nil
}

func (f *sha2Func) Config() duckdb.ScalarFuncConfig {
	return duckdb.ScalarFuncConfig{InputTypeInfos: []duckdb.TypeInfo{f.in, f.bits}, ResultTypeInfo: f.out}
}

func (f *sha2Func) Executor() duckdb.ScalarFuncExecutor {
	return duckdb.ScalarFuncExecutor{RowExecutor: func(v []driver.Value) (any, error) {
		var b []byte
		switch x := v[0].(type) {
		case string:
			b = []byte(x)
		case []byte:
			b = x
		default:
			return nil, fmt.Errorf("%s: unexpected argument %T", SparkSHA2, v[0])
		}
		bits, ok := v[1].(int64)
		if !ok {
			return nil, fmt.Errorf("%s: unexpected bit length %T", SparkSHA2, v[1])
		}
		d, ok := sha2Digest(b, bits)
		if !ok {
			return nil, nil
		}
		return d, nil
	}}
}

// sha2Digest is Spark's sha2 of b: false for a bit length Spark answers
// with NULL.
func sha2Digest(b []byte, bits int64) (string, bool) {
	var h hash.Hash
	switch bits {
	case 224:
		h = sha256.New224()
	case 0, 256:
		h = sha256.New()
	case 384:
		h = sha512.New384()
	case 512:
		h = sha512.New()
	default:
		return "", false
	}
	h.Write(b)
	return hex.EncodeToString(h.Sum(nil)), true
}
