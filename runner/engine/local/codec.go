package local

import (
	"database/sql"
	"database/sql/driver"
	"errors"
	"fmt"
	"unicode"

	duckdb "github.com/duckdb/duckdb-go/v2"
)

// SparkUnbase64 and SparkBase64Check are the names of the scalar
// functions RegisterFunctions adds for Spark's unbase64 and
// to_binary(..., 'base64'): spark_unbase64(s) decodes s as Spark does,
// with java.util.Base64's MIME decoder (characters outside the base64
// alphabet skipped: line breaks, spaces), NULL where that decoder throws
// (a dangling last character, a misplaced '='); spark_base64_check(s) is
// NULL where s is valid base64 by Spark's UnBase64.isValidBase64
// (RFC 4648 groups, whitespace ignored) and the reason where it is not.
// The Spark SQL front end raises around them.
const (
	SparkUnbase64    = "spark_unbase64"
	SparkBase64Check = "spark_base64_check"
)

// errBase64 is java.util.Base64.Decoder's IllegalArgumentException.
var errBase64 = errors.New("illegal base64")

var fromBase64 = func() [256]int {
	var t [256]int
	for i := range t {
		t[i] = -1
	}
	for i, c := range "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/" {
		t[c] = i
	}
	t['='] = -2
	return t
}()

// javaLatin1 is String.getBytes(ISO_8859_1): a character beyond U+00FF
// is '?'.
func javaLatin1(s string) []byte {
	b := make([]byte, 0, len(s))
	for _, r := range s {
		if r > 0xff {
			r = '?'
		}
		b = append(b, byte(r))
	}
	return b
}

// javaMIMEDecode is java.util.Base64.getMimeDecoder().decode(s) (JDK 17's
// Decoder.decode0 with isMIME): bytes outside the alphabet are skipped,
// decoding stops at the first '=', which must end a unit correctly.
func javaMIMEDecode(s string) ([]byte, error) {
	src := javaLatin1(s)
	var dst []byte
	bits, shift := 0, 18
	sp := 0
	for sp < len(src) {
		b := fromBase64[src[sp]]
		sp++
		if b < 0 {
			if b == -2 {
				// "=" (shift 18) is unnecessary padding, "x=" (12) a
				// dangling x handled below, "xx=" (6) needs a second '='.
				if shift == 6 && (sp == len(src) || src[sp] != '=') || shift == 18 {
					return nil, fmt.Errorf("%w: Input byte array has wrong 4-byte ending unit", errBase64)
				}
				if shift == 6 {
					sp++
				}
				break
			}
			continue
		}
		bits |= b << shift
		shift -= 6
		if shift < 0 {
			dst = append(dst, byte(bits>>16), byte(bits>>8), byte(bits))
			bits, shift = 0, 18
		}
	}
	switch shift {
	case 6:
		dst = append(dst, byte(bits>>16))
	case 0:
		dst = append(dst, byte(bits>>16), byte(bits>>8))
	case 12:
		return nil, fmt.Errorf("%w: Last unit does not have enough valid bits", errBase64)
	}
	for ; sp < len(src); sp++ {
		if fromBase64[src[sp]] >= 0 {
			return nil, fmt.Errorf("%w: Input byte array has incorrect ending byte at %d", errBase64, sp)
		}
	}
	if dst == nil {
		dst = []byte{}
	}
	return dst, nil
}

// javaWhitespace is Character.isWhitespace: Unicode space separators but
// the non-breaking ones, and \t \n \v \f \r and U+001C..U+001F.
func javaWhitespace(r rune) bool {
	switch r {
	case '\t', '\n', '\v', '\f', '\r', 0x1c, 0x1d, 0x1e, 0x1f:
		return true
	case 0xa0, 0x2007, 0x202f:
		return false
	}
	return unicode.In(r, unicode.Zs, unicode.Zl, unicode.Zp)
}

// sparkValidBase64 is Spark's UnBase64.isValidBase64: groups of 4
// symbols of [A-Za-z0-9+/], whitespace ignored, the last group of 2 to 4
// symbols, padding only at the end and then completing its group.
func sparkValidBase64(s string) bool {
	pos, pad := 0, 0
	for _, c := range s {
		if javaWhitespace(c) {
			continue
		}
		switch {
		case c == '=':
			pad++
			if pos%4 < 2 || pad > 2 {
				return false
			}
		case c < 0x80 && fromBase64[c] >= 0:
			if pad != 0 {
				return false
			}
			pos++
		default:
			return false
		}
	}
	if pad != 0 {
		return (pos+pad)%4 == 0
	}
	return pos%4 != 1
}

type codecFunc struct {
	name    string
	in, out duckdb.TypeInfo
}

func (f *codecFunc) Config() duckdb.ScalarFuncConfig {
	return duckdb.ScalarFuncConfig{InputTypeInfos: []duckdb.TypeInfo{f.in}, ResultTypeInfo: f.out}
}

func (f *codecFunc) Executor() duckdb.ScalarFuncExecutor {
	return duckdb.ScalarFuncExecutor{RowExecutor: func(v []driver.Value) (any, error) {
		s, ok := v[0].(string)
		if !ok {
			return nil, fmt.Errorf("%s: unexpected argument %T", f.name, v[0])
		}
		switch f.name {
		case SparkUnbase64:
			b, err := javaMIMEDecode(s)
			if err != nil {
				return nil, nil
			}
			return b, nil
		default:
			if sparkValidBase64(s) {
				return nil, nil
			}
			return "invalid", nil
		}
	}}
}

func registerCodecs(conn *sql.Conn) error {
	str, err := duckdb.NewTypeInfo(duckdb.TYPE_VARCHAR)
	if err != nil {
		return err
	}
	blob, err := duckdb.NewTypeInfo(duckdb.TYPE_BLOB)
	if err != nil {
		return err
	}
	if err := duckdb.RegisterScalarUDF(conn, SparkUnbase64, &codecFunc{name: SparkUnbase64, in: str, out: blob}); err != nil {
		return fmt.Errorf("%s: %w", SparkUnbase64, err)
	}
	if err := duckdb.RegisterScalarUDF(conn, SparkBase64Check, &codecFunc{name: SparkBase64Check, in: str, out: str}); err != nil {
		return fmt.Errorf("%s: %w", SparkBase64Check, err)
	}
	num, err := duckdb.NewTypeInfo(duckdb.TYPE_INTEGER)
	if err != nil {
		return err
	}
	if err := duckdb.RegisterScalarUDF(conn, SparkConv, &convFunc{str: str, num: num}); err != nil {
		return fmt.Errorf("%s: %w", SparkConv, err)
	}
	return nil
}

// SparkConv is the name of the scalar function RegisterFunctions adds
// for Spark's conv: spark_conv(num, from_base, to_base) is Spark's
// NumberConverter.convert of the text num (trimmed by the caller), NULL
// for a base out of 2..36 (to_base negative: signed) or empty text, and
// 'overflow' prefixed by '!' where the digits exceed 64 unsigned bits
// (Spark's ARITHMETIC_OVERFLOW under ANSI; the front end raises it).
const SparkConv = "spark_conv"

// sparkConv is NumberConverter.convert: the leading digits valid in from
// (the rest ignored) read as an unsigned 64-bit value, a leading '-'
// negating it, written in |to| (signed when to is negative).
func sparkConv(n []byte, from, to int) (string, bool, bool) {
	abs := func(x int) int {
		if x < 0 {
			return -x
		}
		return x
	}
	if from < 2 || from > 36 || abs(to) < 2 || abs(to) > 36 || len(n) == 0 {
		return "", false, true
	}
	neg := n[0] == '-'
	if neg {
		n = n[1:]
	}
	var v uint64
	radix := uint64(from)
	bound := (^uint64(0) - radix) / radix
	for _, c := range n {
		d := javaDigit(c, from)
		if d < 0 {
			break
		}
		if int64(v) < 0 {
			return "", false, false
		}
		if v >= bound && (^uint64(0)-uint64(d))/radix < v {
			return "", false, false
		}
		v = v*radix + uint64(d)
	}
	if neg && to > 0 {
		if int64(v) < 0 {
			v = ^uint64(0)
		} else {
			v = uint64(-int64(v))
		}
	}
	if to < 0 && int64(v) < 0 {
		v = uint64(-int64(v))
		neg = true
	}
	out := ""
	r := uint64(abs(to))
	for v != 0 {
		out = string("0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ"[v%r]) + out
		v /= r
	}
	if out == "" {
		out = "0"
	}
	if neg && to < 0 {
		out = "-" + out
	}
	return out, true, true
}

// javaDigit is Character.digit of an ASCII byte: its value in radix, or -1.
func javaDigit(c byte, radix int) int {
	d := -1
	switch {
	case c >= '0' && c <= '9':
		d = int(c - '0')
	case c >= 'a' && c <= 'z':
		d = int(c-'a') + 10
	case c >= 'A' && c <= 'Z':
		d = int(c-'A') + 10
	}
	if d >= radix {
		return -1
	}
	return d
}

type convFunc struct{ str, num duckdb.TypeInfo }

func (f *convFunc) Config() duckdb.ScalarFuncConfig {
	return duckdb.ScalarFuncConfig{InputTypeInfos: []duckdb.TypeInfo{f.str, f.num, f.num}, ResultTypeInfo: f.str}
}

func (f *convFunc) Executor() duckdb.ScalarFuncExecutor {
	return duckdb.ScalarFuncExecutor{RowExecutor: func(v []driver.Value) (any, error) {
		s, ok1 := v[0].(string)
		from, ok2 := v[1].(int32)
		to, ok3 := v[2].(int32)
		if !ok1 || !ok2 || !ok3 {
			return nil, fmt.Errorf("%s: unexpected arguments %T, %T, %T", SparkConv, v[0], v[1], v[2])
		}
		out, valid, fits := sparkConv([]byte(s), int(from), int(to))
		switch {
		case !fits:
			return "!overflow", nil
		case !valid:
			return nil, nil
		}
		return out, nil
	}}
}
