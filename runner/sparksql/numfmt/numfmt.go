// Package numfmt is Spark's number format language, the format strings of
// to_number, try_to_number, to_char and to_varchar (Spark's
// ToNumberParser): 0 and 9 digits, . or D the decimal point, , or G a
// thousands separator, $ a currency sign, S an optional sign, MI an
// optional minus sign and PR angle brackets around negative numbers, in
// the order [MI|S] [$] [0|9|G|,]* [.|D] [0|9]* [$] [PR|MI|S].
//
// Compile checks a format as Spark's analysis does and gives the result
// type of to_number; Format.Parse reads a string as to_number does and
// Format.Format writes a decimal as to_char does. The Spark SQL front end
// compiles the formats of its steps (their errors are Spark's analysis
// errors) and the local engine runs Parse and Format as DuckDB functions.
// The package imports no other package of the product.
package numfmt

import (
	"math/big"
	"strings"
	"unicode"
)

// tokKind is the kind of a format token.
type tokKind int

const (
	tDigits  tokKind = iota // a run of 0 and 9
	tPoint                  // . or D
	tSep                    // , or G
	tDollar                 // $
	tSign                   // S
	tMinus                  // MI
	tOpen                   // the < of PR
	tClose                  // the > of PR
	tInvalid                // any other character
	tGroups                 // digit runs and separators, after grouping
)

type token struct {
	kind    tokKind
	n       int  // tDigits: how many digits
	exactly bool // tDigits: a run starting with 0 before the decimal point
	ch      rune // tInvalid: the character
	// tGroups: the digit runs and separators in reverse order, and the
	// digit runs alone in reverse order (Spark aligns them from the right).
	toks   []token
	digits []token
}

// String is how Spark's messages name a token.
func (t token) String() string {
	switch t.kind {
	case tDigits, tGroups:
		return "digit sequence"
	case tPoint:
		return ". or D"
	case tSep:
		return ", or G"
	case tDollar:
		return "$"
	case tSign:
		return "S"
	case tMinus:
		return "MI"
	case tOpen, tClose:
		return "PR"
	}
	return "character '" + string(t.ch) + "''"
}

// Format is a compiled number format.
type Format struct {
	src    string // the format as written
	tokens []token
	// Precision and Scale are the DECIMAL type to_number gives.
	Precision, Scale int
}

// Error is a format Spark rejects at analysis: Class is Spark's error
// class (INVALID_FORMAT.*), Message its message.
type Error struct {
	Class, Message string
}

func (e *Error) Error() string { return "[" + e.Class + "] " + e.Message }

// Compile checks format as Spark's ToNumberParser.checkInputDataTypes does
// (Spark reads the format upper-cased).
func Compile(format string) (*Format, *Error) {
	f := &Format{src: format}
	up := []rune(strings.ToUpper(format))
	var toks []token
	reachedPoint := false
	for i := 0; i < len(up); {
		switch c := up[i]; {
		case c == '0' || c == '9':
			start := i
			for i++; i < len(up) && (up[i] == '0' || up[i] == '9'); i++ {
			}
			toks = append(toks, token{kind: tDigits, n: i - start, exactly: c == '0' && !reachedPoint})
		case c == '.' || c == 'D':
			toks = append(toks, token{kind: tPoint})
			reachedPoint = true
			i++
		case c == ',' || c == 'G':
			toks = append(toks, token{kind: tSep})
			i++
		case c == '$':
			toks = append(toks, token{kind: tDollar})
			i++
		case c == 'S':
			toks = append(toks, token{kind: tSign})
			i++
		case c == 'M' && i < len(up)-1 && up[i+1] == 'I':
			toks = append(toks, token{kind: tMinus})
			i += 2
		case c == 'P' && i < len(up)-1 && up[i+1] == 'R':
			toks = append([]token{{kind: tOpen}}, toks...)
			toks = append(toks, token{kind: tClose})
			i += 2
		default:
			toks = append(toks, token{kind: tInvalid, ch: c})
			i++
		}
	}
	// Consecutive digit runs and separators make one group.
	var grouped []token
	var cur, curDigits []token
	flush := func() {
		if len(cur) > 0 {
			grouped = append(grouped, token{kind: tGroups, toks: reversed(cur), digits: reversed(curDigits)})
			cur, curDigits = nil, nil
		}
	}
	for _, t := range toks {
		switch t.kind {
		case tDigits:
			cur = append(cur, t)
			curDigits = append(curDigits, t)
		case tSep:
			cur = append(cur, t)
		default:
			flush()
			grouped = append(grouped, t)
		}
	}
	flush()
	f.tokens = grouped
	pointAt := -1
	for i, t := range grouped {
		if t.kind == tGroups {
			n := digitCount(t)
			f.Precision += n
			if pointAt >= 0 {
				f.Scale += n
			}
		}
		if t.kind == tPoint && pointAt < 0 {
			pointAt = i
		}
	}
	if err := f.check(pointAt); err != nil {
		return nil, err
	}
	return f, nil
}

func reversed(ts []token) []token {
	out := make([]token, len(ts))
	for i, t := range ts {
		out[len(ts)-1-i] = t
	}
	return out
}

func digitCount(g token) int {
	n := 0
	for _, d := range g.digits {
		n += d.n
	}
	return n
}

func (f *Format) invalid(sub, msg string) *Error {
	return &Error{Class: "INVALID_FORMAT." + sub, Message: "The format is invalid: '" + strings.ToUpper(f.src) + "'. " + msg}
}

func (f *Format) index(k tokKind) int {
	for i, t := range f.tokens {
		if t.kind == k {
			return i
		}
	}
	return -1
}

func (f *Format) check(pointAt int) *Error {
	if f.src == "" {
		return f.invalid("EMPTY", "The number format string cannot be empty.")
	}
	firstDigit := f.index(tGroups)
	if firstDigit < 0 {
		return f.invalid("WRONG_NUM_DIGIT", "The format string requires at least one number digit.")
	}
	firstDollar := f.index(tDollar)
	if firstDigit < firstDollar {
		return f.invalid("CUR_MUST_BEFORE_DIGIT", "Currency characters must appear before digits in the number format.")
	}
	if pointAt != -1 && pointAt < firstDollar {
		return f.invalid("CUR_MUST_BEFORE_DEC", "Currency characters must appear before any decimal point in the number format.")
	}
	for i, g := range f.tokens {
		if g.kind != tGroups || (pointAt != -1 && i >= pointAt) {
			continue
		}
		for j, t := range g.toks {
			if t.kind != tSep {
				continue
			}
			if j == 0 || j == len(g.toks)-1 || g.toks[j-1].kind == tSep || g.toks[j+1].kind == tSep {
				return f.invalid("CONT_THOUSANDS_SEPS", "Thousands separators (, or G) must have digits in between them in the number format.")
			}
		}
	}
	for i, g := range f.tokens {
		if g.kind == tGroups && pointAt != -1 && i > pointAt && len(g.toks) > len(g.digits) {
			return f.invalid("THOUSANDS_SEPS_MUST_BEFORE_DEC", "Thousands separators (, or G) may not appear after the decimal point in the number format.")
		}
	}
	for _, k := range []tokKind{tPoint, tSign, tMinus, tDollar, tClose} {
		n := 0
		for _, t := range f.tokens {
			if t.kind == k {
				n++
			}
		}
		if n > 1 {
			return f.invalid("WRONG_NUM_TOKEN", "At most one "+token{kind: k}.String()+" is allowed in the number format.")
		}
	}
	// [PR open] [MI|S] [$] [digits] [.] [digits] [$] [PR close|MI|S]
	allowed := [][]tokKind{{tOpen}, {tMinus, tSign}, {tDollar}, {tGroups}, {tPoint}, {tGroups}, {tDollar}, {tMinus, tSign, tClose}}
	at := 0
	for _, ks := range allowed {
		if at < len(f.tokens) {
			for _, k := range ks {
				if f.tokens[at].kind == k {
					at++
					break
				}
			}
		}
	}
	if at < len(f.tokens) {
		return f.invalid("UNEXPECTED_TOKEN", "Found the unexpected "+f.tokens[at].String()+" in the format string; the structure of the format string must match: `[MI|S]` `[$]` `[0|9|G|,]*` `[.|D]` `[0|9]*` `[$]` `[PR|MI|S]`.")
	}
	return nil
}

// javaSpace is Java's Character.isWhitespace of a UTF-16 unit.
func javaSpace(r rune) bool {
	switch r {
	case '\t', '\n', '\v', '\f', '\r', 0x1C, 0x1D, 0x1E, 0x1F:
		return true
	case 0xA0, 0x2007, 0x202F:
		return false
	}
	return r <= 0xFFFF && (unicode.In(r, unicode.Zs, unicode.Zl, unicode.Zp))
}

// javaDigit is Java's Character.isDigit of a UTF-16 unit (a character
// beyond U+FFFF is two units, neither a digit), and its value.
func javaDigit(r rune) (byte, bool) {
	if r >= '0' && r <= '9' {
		return byte(r), true
	}
	if r > 0xFFFF || !unicode.Is(unicode.Nd, r) {
		return 0, false
	}
	// Decimal digits come in runs of ten, zero first.
	k := 0
	for p := r - 1; unicode.Is(unicode.Nd, p); p-- {
		k++
	}
	return byte('0' + k%10), true
}

// Parse reads s as to_number does: the number as a plain decimal string
// of the format's scale, or false where s does not match the format.
func (f *Format) Parse(s string) (string, bool) {
	in := []rune(s)
	var before, after []byte
	reachedPoint, opened, closed, negate := false, false, false, false
	i := 0
	for _, t := range f.tokens {
		var c rune = -1
		if i < len(in) {
			c = in[i]
		}
		switch t.kind {
		case tGroups:
			var sizes []int // the group sizes, last group first
			n := 0
			for ; i < len(in); i++ {
				r := in[i]
				if javaSpace(r) {
					continue
				}
				if d, ok := javaDigit(r); ok {
					n++
					if reachedPoint {
						after = append(after, d)
					} else {
						before = append(before, d)
					}
					continue
				}
				if r == ',' {
					sizes = append([]int{n}, sizes...)
					n = 0
					continue
				}
				break
			}
			sizes = append([]int{n}, sizes...)
			if len(sizes) > len(t.digits) {
				return "", false
			}
			for j, d := range t.digits {
				got := 0
				if j < len(sizes) {
					got = sizes[j]
				}
				if (d.exactly && got != d.n) || (!d.exactly && got > d.n) {
					return "", false
				}
			}
		case tPoint:
			if c == '.' {
				reachedPoint = true
				i++
			}
		case tDollar:
			if c >= 0 {
				if c != '$' {
					return "", false
				}
				i++
			}
		case tSign:
			if c == '+' {
				i++
			} else if c == '-' {
				negate = !negate
				i++
			}
		case tMinus:
			if c == '-' {
				negate = !negate
				i++
			}
		case tOpen:
			if c == '<' {
				if opened {
					return "", false
				}
				opened = true
				i++
			}
		case tClose:
			if c == '>' {
				if !opened {
					return "", false
				}
				closed = true
				negate = !negate
				i++
			}
		}
	}
	if i < len(in) || opened != closed || (len(before) == 0 && len(after) == 0) {
		return "", false
	}
	for len(after) < f.Scale {
		after = append(after, '0')
	}
	intPart := strings.TrimLeft(string(before), "0")
	if intPart == "" {
		intPart = "0"
	}
	out := intPart
	if len(after) > 0 {
		out += "." + string(after)
	}
	if negate && strings.Trim(out, "0.") != "" {
		out = "-" + out
	}
	return out, true
}

// Format writes dec, a decimal number as a plain string ("-12.50", "7"),
// as to_char does; false where dec is not a decimal number.
func (f *Format) Format(dec string) (string, bool) {
	var v big.Rat
	if _, ok := v.SetString(dec); !ok || strings.ContainsAny(dec, "eE/") {
		return "", false
	}
	neg := v.Sign() < 0
	intDigits, fracDigits, _ := strings.Cut(strings.TrimPrefix(strings.TrimPrefix(dec, "-"), "+"), ".")
	intDigits = strings.TrimLeft(intDigits, "0")
	fracDigits = strings.TrimRight(fracDigits, "0")
	nBefore, nAfter := 0, 0
	reached := false
	for _, t := range f.tokens {
		switch t.kind {
		case tGroups:
			if reached {
				nAfter += digitCount(t)
			} else {
				nBefore += digitCount(t)
			}
		case tPoint:
			reached = true
		}
	}
	if nBefore < len(intDigits) || nAfter < len(fracDigits) {
		intDigits = strings.Repeat("#", nBefore)
		fracDigits = strings.Repeat("#", nAfter)
	}
	before := []byte(strings.Repeat(" ", nBefore-len(intDigits)) + intDigits)
	after := []byte(fracDigits + strings.Repeat("0", nAfter-len(fracDigits)))
	bi, ai := 0, 0
	var out []byte
	reached = false
	for _, t := range f.tokens {
		switch t.kind {
		case tGroups:
			for _, g := range reversed(t.toks) {
				switch {
				case g.kind == tSep:
					if len(out) > 0 && out[len(out)-1] >= '0' && out[len(out)-1] <= '9' {
						out = append(out, ',')
					} else {
						out = addSpace(out)
					}
				case !reached:
					for k := 0; k < g.n; k++ {
						switch c := before[bi]; {
						case c == ' ' && g.exactly:
							out = append(out, '0')
						case c == ' ':
							out = addSpace(out)
						default:
							out = append(out, c)
						}
						bi++
					}
				default:
					for k := 0; k < g.n; k++ {
						out = append(out, after[ai])
						ai++
					}
				}
			}
		case tPoint:
			if len(out) > 0 && out[len(out)-1] == ' ' {
				out[len(out)-1] = '0'
			}
			out = append(out, '.')
			reached = true
		case tDollar:
			out = append(out, '$')
		case tSign:
			out = stripLonePoint(out)
			if neg {
				out = addChar(out, '-')
			} else {
				out = addChar(out, '+')
			}
		case tMinus:
			if neg {
				out = stripLonePoint(out)
				out = addChar(out, '-')
			} else {
				out = append(out, ' ')
			}
		case tOpen:
			if neg {
				out = append(out, '<')
			}
		case tClose:
			out = stripLonePoint(out)
			if neg {
				out = addChar(out, '>')
			} else {
				out = append(out, ' ', ' ')
			}
		}
	}
	out = stripLonePoint(out)
	if s := string(out); s != "" && s != "+" && s != "-" {
		return s, true
	}
	return "0", true
}

// addChar appends c and moves it left past the spaces before it.
func addChar(out []byte, c byte) []byte {
	out = append(out, c)
	for i := len(out) - 1; i >= 1 && out[i-1] == ' ' && out[i] == c; i-- {
		out[i], out[i-1] = ' ', c
	}
	return out
}

// addSpace appends a space and moves it left past the signs and the < before it.
func addSpace(out []byte) []byte {
	out = append(out, ' ')
	for i := len(out) - 1; i >= 1 && (out[i-1] == '+' || out[i-1] == '-' || out[i-1] == '<') && out[i] == ' '; i-- {
		out[i], out[i-1] = out[i-1], ' '
	}
	return out
}

// stripLonePoint makes a decimal point that ends the text or is followed
// by a space a space.
func stripLonePoint(out []byte) []byte {
	if i := strings.IndexByte(string(out), '.'); i != -1 && (i == len(out)-1 || out[i+1] == ' ') {
		out[i] = ' '
	}
	return out
}
