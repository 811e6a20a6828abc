package local

import (
	"database/sql"
	"database/sql/driver"
	"fmt"
	"strings"
	"unicode"

	duckdb "github.com/duckdb/duckdb-go/v2"
)

// SparkMask is the name of the scalar function RegisterFunctions adds for
// Spark's mask: spark_mask(s, upper, lower, digit, other) replaces each
// code point of s that Java's Character.isUpperCase (Lu and
// Other_Uppercase), isLowerCase (Ll and Other_Lowercase) or isDigit (Nd)
// holds by that replacement, and any other by other; a NULL replacement
// keeps its code points. Spark reads UTF-16 chars: a character beyond
// U+FFFF is two others. A NULL s is NULL.
const SparkMask = "spark_mask"

func sparkMask(s string, repl [4]*rune) string {
	var b strings.Builder
	for _, r := range s {
		if r > 0xffff {
			// Spark masks UTF-16 chars: each half of a character beyond
			// U+FFFF is neither a letter nor a digit.
			if repl[3] != nil {
				b.WriteRune(*repl[3])
				b.WriteRune(*repl[3])
			} else {
				b.WriteRune(r)
			}
			continue
		}
		class := 3
		switch {
		case unicode.IsUpper(r) || unicode.Is(unicode.Other_Uppercase, r):
			class = 0
		case unicode.IsLower(r) || unicode.Is(unicode.Other_Lowercase, r):
			class = 1
		case unicode.Is(unicode.Nd, r):
			class = 2
		}
		if repl[class] != nil {
			r = *repl[class]
		}
		b.WriteRune(r)
	}
	return b.String()
}

type maskFunc struct{ str duckdb.TypeInfo }

func (f *maskFunc) Config() duckdb.ScalarFuncConfig {
	return duckdb.ScalarFuncConfig{InputTypeInfos: []duckdb.TypeInfo{f.str, f.str, f.str, f.str, f.str}, ResultTypeInfo: f.str, SpecialNullHandling: true}
}

func (f *maskFunc) Executor() duckdb.ScalarFuncExecutor {
	return duckdb.ScalarFuncExecutor{RowExecutor: func(v []driver.Value) (any, error) {
		if v[0] == nil {
			return nil, nil
		}
		s, ok := v[0].(string)
		if !ok {
			return nil, fmt.Errorf("%s: unexpected argument %T", SparkMask, v[0])
		}
		var repl [4]*rune
		for i := range repl {
			switch x := v[i+1].(type) {
			case nil:
			case string:
				for _, r := range x {
					repl[i] = &r
					break
				}
			default:
				return nil, fmt.Errorf("%s: unexpected argument %T", SparkMask, x)
			}
		}
		return sparkMask(s, repl), nil
	}}
}

func registerMask(conn *sql.Conn) error {
	str, err := duckdb.NewTypeInfo(duckdb.TYPE_VARCHAR)
	if err != nil {
		return err
	}
	if err := duckdb.RegisterScalarUDF(conn, SparkMask, &maskFunc{str: str}); err != nil {
		return fmt.Errorf("%s: %w", SparkMask, err)
	}
	return nil
}
