package frame

import (
	"fmt"
	"math"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"
)

// tokKind is the kind of a Python token.
type tokKind int

const (
	tEOF tokKind = iota
	tName
	tNumber
	tString
	tOp
	tNewline // a line break outside brackets (the end of the expression)
)

type token struct {
	kind tokKind
	text string // the source spelling (names, numbers, operators)
	pos  int
	end  int
	// Strings: the value, whether it is bytes; numbers: the parsed value.
	str     string
	bytes   bool
	isFloat bool
	i       int64
	f       float64
	big     bool // an int beyond 64 bits
}

// pyKeywords are Python's reserved words: none of them is a name.
var pyKeywords = map[string]bool{
	"False": true, "None": true, "True": true, "and": true, "as": true, "assert": true, "async": true,
	"await": true, "break": true, "class": true, "continue": true, "def": true, "del": true, "elif": true,
	"else": true, "except": true, "finally": true, "for": true, "from": true, "global": true, "if": true,
	"import": true, "in": true, "is": true, "lambda": true, "nonlocal": true, "not": true, "or": true,
	"pass": true, "raise": true, "return": true, "try": true, "while": true, "with": true, "yield": true,
}

// operators, longest first.
var pyOps = []string{
	"**=", "//=", ">>=", "<<=", "...",
	"**", "//", "<<", ">>", "<=", ">=", "==", "!=", "->", ":=", "+=", "-=", "*=", "/=", "%=", "&=", "|=", "^=", "@=",
	"+", "-", "*", "/", "%", "@", "&", "|", "^", "~", "<", ">", "(", ")", "[", "]", "{", "}", ",", ":", ".", ";", "=",
}

// lex splits a Python expression into tokens. Line breaks inside
// brackets and after a backslash join lines, as Python's tokenizer does;
// a line break outside brackets is a tNewline (eval then needs nothing
// but blank lines and comments after it).
func lex(src string) ([]token, error) {
	var toks []token
	depth := 0
	i := 0
	for {
		for i < len(src) {
			c := src[i]
			if c == ' ' || c == '\t' || c == '\f' {
				i++
				continue
			}
			if c == '#' {
				for i < len(src) && src[i] != '\n' {
					i++
				}
				continue
			}
			if c == '\\' && i+1 < len(src) && (src[i+1] == '\n' || src[i+1] == '\r') {
				i += 2
				if i < len(src) && src[i-1] == '\r' && src[i] == '\n' {
					i++
				}
				continue
			}
			if c == '\n' || c == '\r' {
				if depth == 0 {
					toks = append(toks, token{kind: tNewline, text: "\n", pos: i, end: i + 1})
				}
				i++
				continue
			}
			break
		}
		if i >= len(src) {
			toks = append(toks, token{kind: tEOF, pos: len(src), end: len(src)})
			return toks, nil
		}
		start := i
		c := src[i]
		r, size := utf8.DecodeRuneInString(src[i:])
		switch {
		case isStringStart(src[i:]):
			t, err := lexString(src, i)
			if err != nil {
				return nil, err
			}
			toks = append(toks, t)
			i = t.end
		case c >= '0' && c <= '9' || c == '.' && i+1 < len(src) && src[i+1] >= '0' && src[i+1] <= '9':
			t, err := lexNumber(src, i)
			if err != nil {
				return nil, err
			}
			toks = append(toks, t)
			i = t.end
		case r == '_' || unicode.IsLetter(r):
			j := i + size
			for j < len(src) {
				r2, s2 := utf8.DecodeRuneInString(src[j:])
				if r2 != '_' && !unicode.IsLetter(r2) && !unicode.IsDigit(r2) {
					break
				}
				j += s2
			}
			toks = append(toks, token{kind: tName, text: src[i:j], pos: i, end: j})
			i = j
		default:
			op := ""
			for _, o := range pyOps {
				if strings.HasPrefix(src[i:], o) {
					op = o
					break
				}
			}
			if op == "" {
				if c == '!' {
					return nil, syntaxErr(i, "invalid syntax")
				}
				if c == '$' || c == '?' || c == '`' {
					return nil, syntaxErr(i, "invalid syntax")
				}
				return nil, syntaxErr(i, fmt.Sprintf("invalid character '%c' (U+%04X)", r, r))
			}
			switch op {
			case "(", "[", "{":
				depth++
			case ")", "]", "}":
				if depth > 0 {
					depth--
				}
			}
			toks = append(toks, token{kind: tOp, text: op, pos: start, end: start + len(op)})
			i += len(op)
		}
	}
}

// isStringStart reports whether s starts a string literal (maybe with
// a prefix: r, b, u, f and their combinations).
func isStringStart(s string) bool {
	for k := 0; k < 3 && k < len(s); k++ {
		switch s[k] {
		case '\'', '"':
			return validPrefix(strings.ToLower(s[:k]))
		case 'r', 'R', 'b', 'B', 'u', 'U', 'f', 'F':
			continue
		default:
			return false
		}
	}
	return false
}

func validPrefix(p string) bool {
	switch p {
	case "", "r", "u", "b", "br", "rb", "f", "fr", "rf":
		return true
	}
	return false
}

// lexString reads a string literal at i.
func lexString(src string, i int) (token, error) {
	start := i
	pre := ""
	for src[i] != '\'' && src[i] != '"' {
		pre += strings.ToLower(string(src[i]))
		i++
	}
	q := src[i : i+1]
	triple := strings.HasPrefix(src[i:], strings.Repeat(q, 3))
	if triple {
		q = strings.Repeat(q, 3)
	}
	i += len(q)
	raw := strings.Contains(pre, "r")
	var b strings.Builder
	for {
		if i >= len(src) {
			if triple {
				return token{}, syntaxErr(start, "unterminated triple-quoted string literal")
			}
			return token{}, syntaxErr(start, "unterminated string literal")
		}
		if strings.HasPrefix(src[i:], q) {
			i += len(q)
			break
		}
		c := src[i]
		if (c == '\n' || c == '\r') && !triple {
			return token{}, syntaxErr(start, "unterminated string literal")
		}
		if c == '\\' && i+1 < len(src) {
			if raw {
				b.WriteString(src[i : i+2])
				i += 2
				continue
			}
			n, s, err := unescape(src, i, strings.Contains(pre, "b"))
			if err != nil {
				return token{}, err
			}
			b.WriteString(s)
			i += n
			continue
		}
		b.WriteByte(c)
		i++
	}
	if strings.Contains(pre, "f") {
		return token{}, unsupportedAt(start, "use a plain string: f-strings are not evaluated locally", "an f-string")
	}
	return token{kind: tString, text: src[start:i], pos: start, end: i, str: b.String(), bytes: strings.Contains(pre, "b")}, nil
}

// unescape decodes the escape sequence at src[i] ('\\').
func unescape(src string, i int, bytes bool) (int, string, error) {
	c := src[i+1]
	switch c {
	case '\n':
		return 2, "", nil
	case '\\', '\'', '"':
		return 2, string(c), nil
	case 'a':
		return 2, "\a", nil
	case 'b':
		return 2, "\b", nil
	case 'f':
		return 2, "\f", nil
	case 'n':
		return 2, "\n", nil
	case 'r':
		return 2, "\r", nil
	case 't':
		return 2, "\t", nil
	case 'v':
		return 2, "\v", nil
	case 'x':
		if i+4 <= len(src) {
			if v, err := strconv.ParseUint(src[i+2:i+4], 16, 8); err == nil {
				if bytes {
					return 4, string([]byte{byte(v)}), nil
				}
				return 4, string(rune(v)), nil
			}
		}
		return 0, "", syntaxErr(i, "(unicode error) 'unicodeescape' codec can't decode bytes: truncated \\xXX escape")
	case 'u', 'U':
		n := 4
		if c == 'U' {
			n = 8
		}
		if bytes {
			return 2, src[i : i+2], nil
		}
		if i+2+n <= len(src) {
			if v, err := strconv.ParseUint(src[i+2:i+2+n], 16, 32); err == nil && v <= unicode.MaxRune {
				return 2 + n, string(rune(v)), nil
			}
		}
		return 0, "", syntaxErr(i, "(unicode error) 'unicodeescape' codec can't decode bytes: truncated \\"+string(c)+"XXXX escape")
	case 'N':
		return 0, "", unsupportedAt(i, "write the character itself", "a \\N{...} escape")
	}
	if c >= '0' && c <= '7' {
		j := i + 1
		for j < len(src) && j < i+4 && src[j] >= '0' && src[j] <= '7' {
			j++
		}
		v, _ := strconv.ParseUint(src[i+1:j], 8, 16)
		if bytes {
			return j - i, string([]byte{byte(v)}), nil
		}
		return j - i, string(rune(v)), nil
	}
	// Python keeps an unknown escape as written (with a warning).
	return 1, "\\", nil
}

// lexNumber reads a numeric literal at i.
func lexNumber(src string, i int) (token, error) {
	j := i
	isDigit := func(c byte, base int) bool {
		switch base {
		case 16:
			return c >= '0' && c <= '9' || c >= 'a' && c <= 'f' || c >= 'A' && c <= 'F'
		case 8:
			return c >= '0' && c <= '7'
		case 2:
			return c == '0' || c == '1'
		}
		return c >= '0' && c <= '9'
	}
	digits := func(base int) {
		for j < len(src) && (isDigit(src[j], base) || src[j] == '_' && j+1 < len(src) && isDigit(src[j+1], base)) {
			j++
		}
	}
	t := token{kind: tNumber, pos: i}
	if src[j] == '0' && j+1 < len(src) && strings.ContainsRune("xXoObB", rune(src[j+1])) {
		base := map[byte]int{'x': 16, 'X': 16, 'o': 8, 'O': 8, 'b': 2, 'B': 2}[src[j+1]]
		j += 2
		if j < len(src) && src[j] == '_' {
			j++
		}
		s := j
		digits(base)
		if j == s {
			return token{}, syntaxErr(i, "invalid number literal")
		}
		v, err := strconv.ParseInt(strings.ReplaceAll(src[s:j], "_", ""), base, 64)
		t.i, t.big = v, err != nil
	} else {
		digits(10)
		intPart := src[i:j]
		if j < len(src) && src[j] == '.' {
			t.isFloat = true
			j++
			digits(10)
		}
		if j < len(src) && (src[j] == 'e' || src[j] == 'E') {
			k := j + 1
			if k < len(src) && (src[k] == '+' || src[k] == '-') {
				k++
			}
			if k < len(src) && src[k] >= '0' && src[k] <= '9' {
				j = k
				digits(10)
				t.isFloat = true
			}
		}
		text := strings.ReplaceAll(src[i:j], "_", "")
		if t.isFloat {
			f, err := strconv.ParseFloat(text, 64)
			if err != nil && !math.IsInf(f, 0) {
				return token{}, syntaxErr(i, "invalid decimal literal")
			}
			t.f = f
		} else {
			if len(intPart) > 1 && intPart[0] == '0' && strings.Trim(intPart, "0_") != "" {
				return token{}, syntaxErr(i, "leading zeros in decimal integer literals are not permitted; use an 0o prefix for octal integers")
			}
			v, err := strconv.ParseInt(text, 10, 64)
			t.i, t.big = v, err != nil
		}
	}
	if j < len(src) && (src[j] == 'j' || src[j] == 'J') {
		return token{}, unsupportedAt(i, "", "a complex number")
	}
	if j < len(src) {
		r, _ := utf8.DecodeRuneInString(src[j:])
		if r == '_' || unicode.IsLetter(r) || unicode.IsDigit(r) {
			return token{}, syntaxErr(i, "invalid decimal literal")
		}
	}
	t.end = j
	t.text = src[i:j]
	return t, nil
}
