package numfmt

import (
	"encoding/json"
	"fmt"
	"os"
	"testing"
)

// TestSparkCases compares Compile, Parse and Format with what Spark 4.2
// computed for random formats, texts and decimals
// (testdata/cases.json, by scripts/sparksql/numfmt_cases.py).
func TestSparkCases(t *testing.T) {
	raw, err := os.ReadFile("testdata/cases.json")
	if err != nil {
		t.Fatal(err)
	}
	var doc struct {
		Cases []struct {
			Format       string       `json:"format"`
			Type         string       `json:"type"`
			Error        string       `json:"error"`
			Parse        [][2]*string `json:"parse"`
			FormatValues [][2]*string `json:"format_values"`
		} `json:"cases"`
	}
	if err := json.Unmarshal(raw, &doc); err != nil {
		t.Fatal(err)
	}
	var formats, rejected, parsed, matched, written int
	for _, c := range doc.Cases {
		f, ferr := Compile(c.Format)
		if c.Error != "" {
			if ferr == nil || ferr.Class != c.Error {
				t.Errorf("Compile(%q): %v, want %s", c.Format, ferr, c.Error)
			}
			rejected++
			continue
		}
		if ferr != nil {
			t.Errorf("Compile(%q): %v, want %s", c.Format, ferr, c.Type)
			continue
		}
		formats++
		if got := fmt.Sprintf("decimal(%d,%d)", f.Precision, f.Scale); got != c.Type {
			t.Errorf("Compile(%q): %s, want %s", c.Format, got, c.Type)
		}
		for _, p := range c.Parse {
			got, ok := f.Parse(*p[0])
			switch {
			case p[1] == nil && ok:
				t.Errorf("try_to_number(%q, %q) = %s, want NULL", *p[0], c.Format, got)
			case p[1] != nil && (!ok || got != *p[1]):
				t.Errorf("try_to_number(%q, %q) = %q (%v), want %s", *p[0], c.Format, got, ok, *p[1])
			}
			parsed++
			if p[1] != nil {
				matched++
			}
		}
		for _, v := range c.FormatValues {
			got, ok := f.Format(*v[0])
			if want := v[1]; want == nil || !ok || got != *want {
				t.Errorf("to_char(%s, %q) = %q (%v), want %v", *v[0], c.Format, got, ok, *want)
			}
			written++
		}
	}
	if formats < 50 || rejected < 10 || matched < 200 || parsed-matched < 200 || written < 500 {
		t.Errorf("too few cases: %d formats, %d rejected, %d texts (%d match), %d decimals written", formats, rejected, parsed, matched, written)
	}
	t.Logf("%d formats (%d rejected by Spark), %d texts (%d match), %d decimals written", formats+rejected, rejected, parsed, matched, written)
}

// TestJavaCharacters checks the character classes Spark's parser uses:
// Java's isWhitespace and isDigit of a UTF-16 unit, with the digit's value.
func TestJavaCharacters(t *testing.T) {
	for _, c := range []struct {
		r            rune
		space, digit bool
		value        byte
	}{
		{' ', true, false, 0}, {'\t', true, false, 0}, {0x1F, true, false, 0}, {0x2003, true, false, 0}, {0x2028, true, false, 0},
		{0xA0, false, false, 0}, {0x2007, false, false, 0}, {0x202F, false, false, 0}, {0x85, false, false, 0},
		{'7', false, true, '7'}, {0x0661, false, true, '1'}, {0x0669, false, true, '9'}, {0xFF10, false, true, '0'}, {0xFF19, false, true, '9'},
		{0x0966, false, true, '0'}, {0x1D7D9, false, false, 0}, {'a', false, false, 0}, {0xB2, false, false, 0},
	} {
		if got := javaSpace(c.r); got != c.space {
			t.Errorf("javaSpace(%U) = %v", c.r, got)
		}
		v, ok := javaDigit(c.r)
		if ok != c.digit || (ok && v != c.value) {
			t.Errorf("javaDigit(%U) = %q, %v", c.r, v, ok)
		}
	}
}
