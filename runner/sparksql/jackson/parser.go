// Package jackson reads JSON text as Spark's Jackson parser (jackson-core
// 2.x, ReaderBasedJsonParser) reads it, token by token, with the features
// Spark turns on: single-quoted strings and names, unquoted field names,
// Java comments, raw control characters in strings. On top of it: Spark's
// get_json_object (its JsonPathParser and GetJsonObjectEvaluator, Path and
// Eval) and the reader of from_json (Normalize: the record's first value
// as strict JSON, or Malformed where Spark's reader fails).
//
// Where Jackson's reading is not reproduced (non-ASCII unquoted names,
// lone surrogates, non-numeric numbers) the functions return an error
// wrapping ErrUnsupported rather than guess.
package jackson

import (
	"errors"
	"fmt"
	"math/big"
	"strings"
)

// ErrUnsupported marks text whose reading by Jackson is not reproduced.
var ErrUnsupported = errors.New("JSON text not reproduced locally")

// ErrMalformed is a JsonProcessingException: Jackson rejects the text.
var ErrMalformed = errors.New("malformed JSON")

// Features are the JsonReadFeatures that change what is read.
type Features struct {
	SingleQuotes  bool // ALLOW_SINGLE_QUOTES
	UnquotedNames bool // ALLOW_UNQUOTED_FIELD_NAMES
	Comments      bool // ALLOW_JAVA_COMMENTS
	ControlChars  bool // ALLOW_UNESCAPED_CONTROL_CHARS
	NonNumeric    bool // ALLOW_NON_NUMERIC_NUMBERS (NaN, Infinity: not reproduced)
}

type kind int

const (
	tNone kind = iota // before the first token, or past the end
	tStartObject
	tEndObject
	tStartArray
	tEndArray
	tField
	tString
	tInt
	tFloat
	tTrue
	tFalse
	tNull
)

type frame struct {
	object bool
	n      int // values (arrays) or fields (objects) read
}

// parser is a pull parser: next reads one token, as JsonParser.nextToken.
type parser struct {
	s     string
	i     int
	f     Features
	stack []frame
	root  bool // the root value has been read
	tok   kind
	text  string // a string's or a name's value, a number's text
	name  string // the current field name (JsonParser.currentName)
	// afterName: the last token was a field name (its value comes next).
	afterName bool
}

func newParser(s string, f Features) *parser { return &parser{s: s, f: f} }

func (p *parser) fail(format string, a ...any) error {
	return fmt.Errorf("%w: %s at %d", ErrMalformed, fmt.Sprintf(format, a...), p.i)
}

// skipWS skips whitespace and, with Comments, /* */ and // comments;
// it returns the next byte (-1 at the end).
func (p *parser) skipWS() (int, error) {
	for p.i < len(p.s) {
		c := p.s[p.i]
		switch {
		case c == ' ' || c == '\t' || c == '\n' || c == '\r':
			p.i++
		case c == '/':
			if !p.f.Comments {
				return 0, p.fail("comment")
			}
			if p.i+1 >= len(p.s) {
				return 0, p.fail("unterminated comment")
			}
			switch p.s[p.i+1] {
			case '*':
				end := strings.Index(p.s[p.i+2:], "*/")
				if end < 0 {
					return 0, p.fail("unterminated comment")
				}
				p.i += 2 + end + 2
			case '/':
				p.i += 2
				for p.i < len(p.s) && p.s[p.i] != '\n' && p.s[p.i] != '\r' {
					p.i++
				}
			default:
				return 0, p.fail("unexpected character after /")
			}
		case c < ' ':
			return 0, p.fail("illegal control character")
		default:
			return int(c), nil
		}
	}
	return -1, nil
}

// next reads the next token; at the end of the root value it is tNone.
func (p *parser) next() (kind, error) {
	t, err := p.advance()
	if err != nil {
		p.tok = tNone
		return tNone, err
	}
	p.tok = t
	return t, nil
}

func (p *parser) advance() (kind, error) {
	if p.afterName {
		p.afterName = false
		return p.value()
	}
	if len(p.stack) == 0 {
		if p.root {
			return tNone, nil
		}
		p.root = true
		return p.value()
	}
	top := &p.stack[len(p.stack)-1]
	c, err := p.skipWS()
	if err != nil {
		return tNone, err
	}
	if top.object {
		if c == '}' && top.n == 0 {
			p.i++
			p.stack = p.stack[:len(p.stack)-1]
			return tEndObject, nil
		}
		if top.n > 0 {
			switch c {
			case '}':
				p.i++
				p.stack = p.stack[:len(p.stack)-1]
				return tEndObject, nil
			case ',':
				p.i++
				if c, err = p.skipWS(); err != nil {
					return tNone, err
				}
			default:
				return tNone, p.fail("expecting comma to separate object entries")
			}
		}
		top.n++
		name, err := p.fieldName(c)
		if err != nil {
			return tNone, err
		}
		c, err = p.skipWS()
		if err != nil {
			return tNone, err
		}
		if c != ':' {
			return tNone, p.fail("expecting a colon")
		}
		p.i++
		p.text, p.name, p.afterName = name, name, true
		return tField, nil
	}
	if c == ']' && top.n == 0 {
		p.i++
		p.stack = p.stack[:len(p.stack)-1]
		return tEndArray, nil
	}
	if top.n > 0 {
		switch c {
		case ']':
			p.i++
			p.stack = p.stack[:len(p.stack)-1]
			return tEndArray, nil
		case ',':
			p.i++
		default:
			return tNone, p.fail("expecting comma to separate array entries")
		}
	}
	top.n++
	return p.value()
}

func (p *parser) fieldName(c int) (string, error) {
	switch {
	case c == '"':
		p.i++
		return p.str('"')
	case c == '\'' && p.f.SingleQuotes:
		p.i++
		return p.str('\'')
	case !p.f.UnquotedNames:
		return "", p.fail("expecting double-quote to start field name")
	}
	start := p.i
	for p.i < len(p.s) {
		b := p.s[p.i]
		if b >= 0x80 {
			return "", fmt.Errorf("%w: an unquoted field name with a non-ASCII character", ErrUnsupported)
		}
		if !nameChar(b) {
			break
		}
		p.i++
	}
	if p.i == start {
		return "", p.fail("expecting a field name")
	}
	return p.s[start:p.i], nil
}

// nameChar: b may be in an unquoted name (Jackson's Latin-1 JS-name
// table: Java identifier parts and @ # * - +), ASCII only.
func nameChar(b byte) bool {
	return b >= 'a' && b <= 'z' || b >= 'A' && b <= 'Z' || b >= '0' && b <= '9' || strings.IndexByte("_$@#*-+", b) >= 0
}

// value reads a value's first token.
func (p *parser) value() (kind, error) {
	c, err := p.skipWS()
	if err != nil {
		return tNone, err
	}
	switch {
	case c < 0:
		if len(p.stack) == 0 {
			return tNone, nil // no content: JsonParser.nextToken is null
		}
		return tNone, p.fail("unexpected end of input")
	case c == '{':
		p.i++
		p.stack = append(p.stack, frame{object: true})
		return tStartObject, nil
	case c == '[':
		p.i++
		p.stack = append(p.stack, frame{})
		return tStartArray, nil
	case c == '"':
		p.i++
		s, err := p.str('"')
		p.text = s
		return tString, err
	case c == '\'' && p.f.SingleQuotes:
		p.i++
		s, err := p.str('\'')
		p.text = s
		return tString, err
	case c == 't':
		return tTrue, p.keyword("true")
	case c == 'f':
		return tFalse, p.keyword("false")
	case c == 'n':
		return tNull, p.keyword("null")
	case c == '-' || c >= '0' && c <= '9':
		return p.number()
	case (c == 'N' || c == 'I' || c == '+') && p.f.NonNumeric:
		return tNone, fmt.Errorf("%w: a non-numeric number (NaN, Infinity)", ErrUnsupported)
	}
	return tNone, p.fail("unexpected character %q", rune(c))
}

func (p *parser) keyword(w string) error {
	if !strings.HasPrefix(p.s[p.i:], w) {
		return p.fail("unrecognized token")
	}
	p.i += len(w)
	if p.i < len(p.s) {
		// Jackson's _matchToken: a token that goes on with an identifier
		// character (truex) is unrecognized.
		c := p.s[p.i]
		switch {
		case c < '0' || c == ']' || c == '}':
		case c >= 0x80:
			return fmt.Errorf("%w: a non-ASCII character after %s", ErrUnsupported, w)
		case c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '_' || c == '$' || c == 0x7f:
			return p.fail("unrecognized token")
		}
	}
	return nil
}

func (p *parser) number() (kind, error) {
	start := p.i
	if p.s[p.i] == '-' {
		p.i++
	}
	digits := func() int {
		n := 0
		for p.i < len(p.s) && p.s[p.i] >= '0' && p.s[p.i] <= '9' {
			p.i++
			n++
		}
		return n
	}
	intStart := p.i
	n := digits()
	if n == 0 {
		if p.f.NonNumeric && p.i < len(p.s) && p.s[p.i] == 'I' {
			return tNone, fmt.Errorf("%w: a non-numeric number (-Infinity)", ErrUnsupported)
		}
		return tNone, p.fail("no digit after minus")
	}
	if n > 1 && p.s[intStart] == '0' {
		return tNone, p.fail("leading zeroes")
	}
	k := tInt
	if p.i < len(p.s) && p.s[p.i] == '.' {
		p.i++
		if digits() == 0 {
			return tNone, p.fail("decimal point not followed by a digit")
		}
		k = tFloat
	}
	if p.i < len(p.s) && (p.s[p.i] == 'e' || p.s[p.i] == 'E') {
		p.i++
		if p.i < len(p.s) && (p.s[p.i] == '+' || p.s[p.i] == '-') {
			p.i++
		}
		if digits() == 0 {
			return tNone, p.fail("exponent not followed by a digit")
		}
		k = tFloat
	}
	p.text = p.s[start:p.i]
	if len(p.stack) == 0 && p.i < len(p.s) {
		// _verifyRootSpace: a root number ends with whitespace.
		switch p.s[p.i] {
		case ' ', '\t', '\n', '\r':
		default:
			return tNone, p.fail("expected space separating root-level values")
		}
	}
	return k, nil
}

// str reads a string's characters up to the quote q (opened already).
func (p *parser) str(q byte) (string, error) {
	var b strings.Builder
	for {
		if p.i >= len(p.s) {
			return "", p.fail("unterminated string")
		}
		c := p.s[p.i]
		switch {
		case c == q:
			p.i++
			return b.String(), nil
		case c == '\\':
			if p.i+1 >= len(p.s) {
				return "", p.fail("unterminated escape")
			}
			e := p.s[p.i+1]
			p.i += 2
			switch e {
			case '"', '\\', '/':
				b.WriteByte(e)
			case '\'':
				if !p.f.SingleQuotes {
					return "", p.fail("unrecognized character escape")
				}
				b.WriteByte(e)
			case 'b':
				b.WriteByte('\b')
			case 'f':
				b.WriteByte('\f')
			case 'n':
				b.WriteByte('\n')
			case 'r':
				b.WriteByte('\r')
			case 't':
				b.WriteByte('\t')
			case 'u':
				r, err := p.hex4()
				if err != nil {
					return "", err
				}
				if r >= 0xD800 && r < 0xDC00 {
					if !strings.HasPrefix(p.s[p.i:], "\\u") {
						return "", fmt.Errorf("%w: a lone surrogate escape", ErrUnsupported)
					}
					p.i += 2
					lo, err := p.hex4()
					if err != nil {
						return "", err
					}
					if lo < 0xDC00 || lo >= 0xE000 {
						return "", fmt.Errorf("%w: a lone surrogate escape", ErrUnsupported)
					}
					r = 0x10000 + (r-0xD800)<<10 + (lo - 0xDC00)
				} else if r >= 0xDC00 && r < 0xE000 {
					return "", fmt.Errorf("%w: a lone surrogate escape", ErrUnsupported)
				}
				b.WriteRune(r)
			default:
				return "", p.fail("unrecognized character escape")
			}
		case c < ' ':
			if !p.f.ControlChars {
				return "", p.fail("illegal unquoted character")
			}
			b.WriteByte(c)
			p.i++
		default:
			b.WriteByte(c)
			p.i++
		}
	}
}

func (p *parser) hex4() (rune, error) {
	if p.i+4 > len(p.s) {
		return 0, p.fail("unterminated unicode escape")
	}
	var r rune
	for _, h := range []byte(p.s[p.i : p.i+4]) {
		var d byte
		switch {
		case h >= '0' && h <= '9':
			d = h - '0'
		case h >= 'a' && h <= 'f':
			d = h - 'a' + 10
		case h >= 'A' && h <= 'F':
			d = h - 'A' + 10
		default:
			return 0, p.fail("bad unicode escape")
		}
		r = r<<4 | rune(d)
	}
	p.i += 4
	return r, nil
}

// skipChildren skips the value the current token opens (JsonParser.
// skipChildren: nothing for a scalar or an end token).
func (p *parser) skipChildren() error {
	if p.tok != tStartObject && p.tok != tStartArray {
		return nil
	}
	depth := 1
	for depth > 0 {
		t, err := p.next()
		if err != nil {
			return err
		}
		switch t {
		case tStartObject, tStartArray:
			depth++
		case tEndObject, tEndArray:
			depth--
		case tNone:
			return p.fail("unexpected end of input")
		}
	}
	return nil
}

// intText is Jackson's text of an integer token as its generator copies
// it (int, long or BigInteger: -0 is 0).
func intText(s string) string {
	var n big.Int
	if _, ok := n.SetString(s, 10); !ok {
		return s
	}
	return n.String()
}
