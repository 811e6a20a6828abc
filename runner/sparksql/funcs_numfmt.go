package sparksql

import (
	"strings"

	"github.com/laktory/workbench/runner/sparksql/numfmt"
)

// Spark's number format language (to_number, try_to_number, to_char,
// to_varchar): the format, a string literal, is compiled at translation
// (package numfmt, Spark's ToNumberParser), so a format Spark rejects is
// its analysis error; the values go through spark_to_number and
// spark_to_char, the local engine's Go functions running the same
// parser.

// numFormat is the compiled format of argument i.
func (c *fcall) numFormat(i int) (*numfmt.Format, error) {
	x := c.args[i]
	if !x.foldable {
		return nil, sparkErr(c.argPos(i), "DATATYPE_MISMATCH.NON_FOLDABLE_INPUT", "Cannot resolve \"%s\" due to data type mismatch: the input `format` should be a foldable \"STRING\" expression; however, got \"%s\".", c.name, x.name)
	}
	s, null, err := c.litStr(i, "number format")
	if err != nil {
		return nil, err
	}
	if null {
		return nil, unsupported(c.argPos(i), "write the format as a string literal", "a NULL number format in %s", c.def.name)
	}
	f, ferr := numfmt.Compile(s)
	if ferr != nil {
		return nil, sparkErr(c.argPos(i), ferr.Class, "%s", ferr.Message)
	}
	if f.Precision > 38 {
		return nil, unsupported(c.argPos(i), "", "a number format of more than 38 digits in %s", c.def.name)
	}
	return f, nil
}

func toNumber(name string, try bool) *fnDef {
	return fn(name, Rewritten, 2, 2, func(c *fcall) (*rx, error) {
		s, err := c.str(0)
		if err != nil {
			return nil, err
		}
		f, err := c.numFormat(1)
		if err != nil {
			return nil, err
		}
		t := decimalType(f.Precision, f.Scale)
		lit := c.args[1].lit.Value
		parsed := "CAST(spark_to_number(" + s.sql + ", " + duckString(lit) + ") AS " + t.DuckDB() + ")"
		if try {
			return c.out(t, parsed), nil
		}
		msg := "[INVALID_FORMAT.MISMATCH_INPUT] The format is invalid: " + lit + ". The input \"STRING\" "
		return c.out(t, "CASE WHEN "+s.sql+" IS NULL THEN NULL ELSE coalesce("+parsed+", error("+duckString(msg)+" || "+s.sql+" || ' does not match the format.')) END"), nil
	})
}

func toChar(name string) *fnDef {
	return fn(name, Rewritten, 2, 2, func(c *fcall) (*rx, error) {
		x := c.args[0]
		switch {
		case x.t.isDatetime():
			// Spark's to_char of a date or timestamp is date_format.
			d := lookupFunc("date_format")
			dc := *c
			dc.def = d
			dc.name = renamed(c.name, "date_format")
			return d.impl(&dc)
		case x.t.Kind == KBinary:
			return c.binaryToChar()
		}
		if _, err := c.numFormat(1); err != nil {
			return nil, err
		}
		var dec string
		switch {
		case x.t.Kind == KVoid:
			return c.out(tString, "CAST(NULL AS VARCHAR)"), nil
		case x.t.isIntegral(), x.t.Kind == KDecimal:
			dec = "CAST(" + x.sql + " AS VARCHAR)"
		case x.t.Kind == KString, x.t.Kind == KDouble, x.t.Kind == KFloat:
			// The implicit cast to DECIMAL: (38,18) of a string, (30,15)
			// of a double, (14,7) of a float.
			t := decimalType(38, 18)
			switch x.t.Kind {
			case KDouble:
				t = decimalType(30, 15)
			case KFloat:
				t = decimalType(14, 7)
			}
			y, err := c.r.cast(x, t, castImplicit)
			if err != nil {
				return nil, err
			}
			dec = "CAST(" + y.sql + " AS VARCHAR)"
		default:
			return nil, c.wrongType(0, "\"DECIMAL\"")
		}
		// Spark names to_varchar of a number to_char (ToCharacter).
		c.name = renamed(c.name, "to_char")
		return c.out(tString, "spark_to_char("+dec+", "+duckString(c.args[1].lit.Value)+")"), nil
	})
}

// binaryToChar is Spark's to_char and to_varchar of a binary value
// (ToCharacterBuilder): the format, a foldable non-NULL string read in
// lower case and trimmed, picks base64, hex or utf-8 (Base64, Hex,
// Decode); another one is INVALID_PARAMETER_VALUE.BINARY_FORMAT.
func (c *fcall) binaryToChar() (*rx, error) {
	f := c.args[1]
	if !f.foldable || f.t.Kind != KString {
		// Spark names the format's type (VOID for NULL).
		return nil, sparkErr(c.argPos(1), "NON_FOLDABLE_ARGUMENT", "The function `%s` requires the parameter `format` to be a foldable expression of the type \"%s\", but the actual argument is a non-foldable.", c.def.name, strings.ToUpper(f.t.String()))
	}
	if f.lit == nil || f.lit.Kind != LitString {
		return nil, unsupported(c.argPos(1), "write the format as a string literal", "%s of a binary value with a computed format", c.def.name)
	}
	var impl string
	switch strings.TrimSpace(strings.ToLower(f.lit.Value)) {
	case "base64":
		impl = "base64"
	case "hex":
		impl = "hex"
	case "utf-8":
		return c.out(tString, "decode("+c.args[0].sql+")"), nil
	default:
		return nil, sparkErr(c.argPos(1), "INVALID_PARAMETER_VALUE.BINARY_FORMAT", "The value of parameter(s) `format` in `%s` is invalid: expects one of binary formats 'base64', 'hex', 'utf-8', but got '%s'.", c.def.name, strings.TrimSpace(strings.ToLower(f.lit.Value)))
	}
	d := lookupFunc(impl)
	dc := *c
	dc.def = d
	dc.args = c.args[:1]
	return d.impl(&dc)
}

func numFmtFuncs() []*fnDef {
	out := []*fnDef{toNumber("to_number", false), toNumber("try_to_number", true), toChar("to_char"), toChar("to_varchar")}
	for _, d := range out[2:] {
		d.note = "of numbers and strings (as DECIMAL(38,18)) with Spark's number format, of dates and timestamps as date_format; of binary values as base64, hex or utf-8"
	}
	return out
}

// renamed is the call name with its function's name replaced by fn.
func renamed(name, fn string) string {
	if i := strings.IndexByte(name, '('); i >= 0 {
		return fn + name[i:]
	}
	return name
}
