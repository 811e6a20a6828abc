package local

import (
	"encoding/hex"
	"testing"
)

// java.util.Base64's MIME decoder, as Spark's unbase64 decodes: line
// breaks and other non-alphabet characters skipped, '=' ending a unit.
func TestJavaMIMEDecode(t *testing.T) {
	for _, tc := range []struct {
		in, want string // want "!" for IllegalArgumentException
	}{
		{"SGVsbG8=", "48656c6c6f"},
		{"SGVsbG8", "48656c6c6f"},
		{"SGVs\r\nbG8=", "48656c6c6f"},
		{"SGVs bG8=\n", "48656c6c6f"},
		{"", ""},
		{"QQ", "41"},
		{"QUI", "4142"},
		{"Q", "!"},
		{"QQ=a", "!"},
		{"=", "!"},
		{"QQ==QQ", "!"},
		{"QQ==\r\n", "41"},
		{"SGV$bG8=", "!"}, // SGVbG8= after the skip: xx= needs its second =
		{"SG$VsbG8=", "48656c6c6f"},
	} {
		got, err := javaMIMEDecode(tc.in)
		switch {
		case tc.want == "!" && err == nil:
			t.Errorf("decode(%q) = %x, want IllegalArgumentException", tc.in, got)
		case tc.want != "!" && (err != nil || hex.EncodeToString(got) != tc.want):
			t.Errorf("decode(%q) = %x, %v, want %s", tc.in, got, err, tc.want)
		}
	}
}

// Spark's UnBase64.isValidBase64, which to_binary(s, 'base64') checks.
func TestSparkValidBase64(t *testing.T) {
	for in, want := range map[string]bool{
		"SGVsbG8=": true, "SGVsbG8": true, "SGVs\nbG8=": true, "": true, " ": true,
		"SGVsb": false, "SG!sbG8=": false, "QQ=a": false, "Q===": false, "QQ=": false, "=": false,
	} {
		if got := sparkValidBase64(in); got != want {
			t.Errorf("isValidBase64(%q) = %v, want %v", in, got, want)
		}
	}
}

// Spark's NumberConverter.convert (conv), with the results Spark's own
// documentation and NumberConverterSuite give.
func TestSparkConv(t *testing.T) {
	for _, tc := range []struct {
		in       string
		from, to int
		want     string // "NULL", "OVERFLOW"
	}{
		{"100", 2, 10, "4"},
		{"-10", 16, -10, "-16"},
		{"3", 10, 2, "11"},
		{"-15", 10, -16, "-F"},
		{"-15", 10, 16, "FFFFFFFFFFFFFFF1"},
		{"big", 36, 16, "3A48"},
		{"9223372036854775807", 36, 16, "OVERFLOW"},
		{"-1", 10, 16, "FFFFFFFFFFFFFFFF"},
		{"12x4", 10, 16, "C"},
		{"xyz", 10, 16, "0"},
		{"", 10, 2, "NULL"},
		{"10", 1, 10, "NULL"},
		{"10", 10, 37, "NULL"},
		{"FFFFFFFFFFFFFFFF", 16, 10, "18446744073709551615"},
		{"FFFFFFFFFFFFFFFFF", 16, 10, "OVERFLOW"},
		{"-", 10, 10, "0"},
	} {
		got, valid, fits := sparkConv([]byte(tc.in), tc.from, tc.to)
		switch {
		case !fits:
			got = "OVERFLOW"
		case !valid:
			got = "NULL"
		}
		if got != tc.want {
			t.Errorf("conv(%q, %d, %d) = %s, want %s", tc.in, tc.from, tc.to, got, tc.want)
		}
	}
}

// Java's Character.isUpperCase, isLowerCase and isDigit, as Spark's mask
// classes code points.
func TestSparkMask(t *testing.T) {
	x, l, n := 'X', 'x', 'n'
	if got := sparkMask("AbCd-123 é ǅ Ⓐ ª ٣", [4]*rune{&x, &l, &n, nil}); got != "XxXx-nnn x ǅ X x n" {
		t.Errorf("mask = %q", got)
	}
	o := '*'
	if got := sparkMask("a-1", [4]*rune{nil, nil, nil, &o}); got != "a*1" {
		t.Errorf("mask other = %q", got)
	}
}
