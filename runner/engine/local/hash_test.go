package local

import (
	"context"
	"database/sql"
	"testing"

	"github.com/laktory/workbench/delta"
)

// TestSparkSHA2 checks spark_sha2 against the standard SHA-2 digests
// (Spark's sha2 is the JDK's; the corpus's hashes family compares the
// front end's sha2 with Spark 4.2's own results), on
// a plain and a confined database, from a connection other than the one
// that registered it.
func TestSparkSHA2(t *testing.T) {
	ctx := context.Background()
	for _, sandbox := range []*delta.Confinement{nil, {}} {
		db, err := OpenDB(ctx, sandbox)
		if err != nil {
			t.Fatal(err)
		}
		defer db.Close()
		db.SetMaxOpenConns(2)
		tests := []struct {
			name, expr string
			want       sql.NullString
		}{
			{"null text", "spark_sha2(CAST(NULL AS VARCHAR), 512)", sql.NullString{}},
			{"null blob", "spark_sha2(CAST(NULL AS BLOB), 224)", sql.NullString{}},
			{"null bits", "spark_sha2('abc', CAST(NULL AS INTEGER))", sql.NullString{}},
			{"bad bits", "spark_sha2('abc', 100)", sql.NullString{}},
			{"empty 224", "spark_sha2('', 224)", valid("d14a028c2a3a2bc9476102bb288234c415a2b01f828ea62ac5b3e42f")},
			{"empty 384", "spark_sha2('', 384)", valid("38b060a751ac96384cd9327eb1b1e36a21fdb71114be07434c0cc7bf63f6e1da274edebfe76f65fbd51ad2f14898b95b")},
			{"empty 512", "spark_sha2('', 512)", valid("cf83e1357eefb8bdf1542850d66d8007d620e4050b5715dc83f4a921d36ce9ce47d0d13c5d85f2b0ff8318d2877eec2f63b931bd47417a81a538327af927da3e")},
			{"zero is 256", "spark_sha2('abc', 0)", valid("ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad")},
			{"256", "spark_sha2('abc', 256)", valid("ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad")},
			{"abc 224", "spark_sha2('abc', 224)", valid("23097d223405d8228642a477bda255b32aadbce4bda0b3f7e36c9da7")},
			// UTF-8 bytes of 'é' (c3 a9), not its code point.
			{"multibyte", "spark_sha2('é', 512)", valid("9e2ad28633f24451bd4f3c1cb20586a21a44c3aeedbdc01b9cc8fa72917ea7bd689c82b8bf1fef89b911cf8cc46fa2c1ccc10087b2094fd4d3350ecd88526a2c")},
			{"multibyte as bytes", "spark_sha2('é', 512) = spark_sha2(from_hex('c3a9'), 512)", valid("true")},
			// A blob is hashed as its bytes: 0x00 0xff.
			{"binary", "spark_sha2(from_hex('00ff'), 384)", valid("af1f0bd8769ed1365727dc5f8ba9d5e66ee64bbadc61cf38293abc8d71d851f5bbd3ac9b3a8ab899e6a01efd7e82ee08")},
			{"backslash text", "spark_sha2('\\x41', 256) = sha256('\\x41')", valid("true")},
		}
		for _, tt := range tests {
			name := tt.name
			if sandbox != nil {
				name = "confined " + name
			}
			t.Run(name, func(t *testing.T) {
				var got sql.NullString
				if err := db.QueryRowContext(ctx, "SELECT CAST("+tt.expr+" AS VARCHAR)").Scan(&got); err != nil {
					t.Fatal(err)
				}
				if got != tt.want {
					t.Errorf("%s = %v, want %v", tt.expr, got, tt.want)
				}
			})
		}
	}
}

func valid(s string) sql.NullString { return sql.NullString{String: s, Valid: true} }
