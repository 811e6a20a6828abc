package sqlfront

import (
	"fmt"
	"strings"
	"unicode/utf8"

	"github.com/laktory/workbench/workspace/sparklit"
)

// tokKind is the kind of a lexical token.
type tokKind int

const (
	tokEOF         tokKind = iota
	tokIdent               // an unquoted identifier or keyword
	tokQuoted              // a `backquoted` identifier
	tokString              // a string literal ('...', "...", r'...'), adjacent ones joined
	tokNumber              // a numeric literal with its suffix (1, 1L, 1.5BD, 1e3)
	tokBinary              // X'0A'
	tokOp                  // punctuation and operators
	tokPlaceholder         // {df}, {sources.x}, {nodes.x}
)

// token is one lexical token of a SQL text. pos and end are byte offsets.
type token struct {
	kind tokKind
	text string // the source text (numbers, operators; identifiers as written)
	val  string // identifiers: the name; strings: the unescaped value; placeholders: the name inside the braces
	pos  int
	end  int
}

// is reports whether t is the keyword kw (case-insensitive, unquoted).
func (t token) is(kw string) bool { return t.kind == tokIdent && strings.EqualFold(t.text, kw) }

// isOp reports whether t is the operator op.
func (t token) isOp(op string) bool { return t.kind == tokOp && t.text == op }

// lex splits sql into tokens (ending with tokEOF). Comments (--, nested
// /* */) and hints (/*+ */) are skipped.
func lex(sql string, syn *Syntax) ([]token, error) {
	var toks []token
	i := 0
	for {
		// Skip blanks and comments.
		for i < len(sql) {
			c := sql[i]
			switch {
			case c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' || c == '\v':
				i++
				continue
			case c == '-' && i+1 < len(sql) && sql[i+1] == '-':
				j := strings.IndexByte(sql[i:], '\n')
				if j < 0 {
					i = len(sql)
				} else {
					i += j + 1
				}
				continue
			case c == '/' && i+1 < len(sql) && sql[i+1] == '*':
				depth, j := 1, i+2
				for j < len(sql) && depth > 0 {
					switch {
					case strings.HasPrefix(sql[j:], "/*"):
						depth++
						j += 2
					case strings.HasPrefix(sql[j:], "*/"):
						depth--
						j += 2
					default:
						j++
					}
				}
				if depth > 0 {
					return nil, syn.errAt(i, "unclosed comment: a /* has no matching */")
				}
				i = j
				continue
			}
			break
		}
		if i >= len(sql) {
			toks = append(toks, token{kind: tokEOF, pos: len(sql), end: len(sql)})
			return toks, nil
		}
		t, err := lexOne(sql, i, syn)
		if err != nil {
			return nil, err
		}
		// Adjacent string literals are one literal ('a' 'b' is 'ab').
		if t.kind == tokString && len(toks) > 0 && toks[len(toks)-1].kind == tokString {
			prev := &toks[len(toks)-1]
			prev.val += t.val
			prev.text = sql[prev.pos:t.end]
			prev.end = t.end
		} else {
			toks = append(toks, t)
		}
		i = t.end
	}
}

func isIdentStart(c byte) bool {
	return c == '_' || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c >= 0x80
}

func isIdentChar(c byte) bool { return isIdentStart(c) || (c >= '0' && c <= '9') }

func isDigit(c byte) bool { return c >= '0' && c <= '9' }

// threeOps and twoOps are the operators longer than one character.
var (
	threeOps = []string{"<=>"}
	twoOps   = []string{"<=", ">=", "<>", "!=", "==", "||", "::", "->", "=>", "<<", ">>"}
	// regexOps are Syntax.RegexOperators' operators, longest first.
	regexOps = []string{"!~*", "~*", "!~"}
)

func lexOne(sql string, i int, syn *Syntax) (token, error) {
	c := sql[i]
	switch {
	case syn.BackslashEscapes && (c == 'r' || c == 'R') && i+1 < len(sql) && (sql[i+1] == '\'' || sql[i+1] == '"'):
		end, val, err := lexString(sql, i+1, true, syn)
		if err != nil {
			return token{}, err
		}
		return token{kind: tokString, text: sql[i:end], val: val, pos: i, end: end}, nil
	case (c == 'x' || c == 'X') && i+1 < len(sql) && sql[i+1] == '\'':
		end, val, err := lexString(sql, i+1, true, syn)
		if err != nil {
			return token{}, err
		}
		return token{kind: tokBinary, text: sql[i:end], val: val, pos: i, end: end}, nil
	case isIdentStart(c):
		j := i
		for j < len(sql) && isIdentChar(sql[j]) {
			j++
		}
		return token{kind: tokIdent, text: sql[i:j], val: sql[i:j], pos: i, end: j}, nil
	case c == '`' || (c == '"' && syn.DoubleQuotedIdentifiers):
		return lexQuotedIdent(sql, i, syn)
	case c == '\'' || c == '"':
		end, val, err := lexString(sql, i, false, syn)
		if err != nil {
			return token{}, err
		}
		return token{kind: tokString, text: sql[i:end], val: val, pos: i, end: end}, nil
	case isDigit(c) || (c == '.' && i+1 < len(sql) && isDigit(sql[i+1])):
		return lexNumber(sql, i, syn)
	case c == '{':
		j := strings.IndexByte(sql[i:], '}')
		if j < 0 {
			return token{}, syn.errAt(i, "unclosed placeholder: a { has no matching }")
		}
		name := strings.TrimSpace(sql[i+1 : i+j])
		if !validPlaceholder(name) {
			return token{}, syn.errAt(i, fmt.Sprintf("%s is not a placeholder: use {df}, {sources.NAME} or {nodes.NAME}", sql[i:i+j+1]))
		}
		return token{kind: tokPlaceholder, text: sql[i : i+j+1], val: name, pos: i, end: i + j + 1}, nil
	}
	if syn.RegexOperators {
		for _, op := range regexOps {
			if strings.HasPrefix(sql[i:], op) {
				return token{kind: tokOp, text: op, pos: i, end: i + len(op)}, nil
			}
		}
	}
	for _, group := range [][]string{threeOps, twoOps} {
		for _, op := range group {
			if strings.HasPrefix(sql[i:], op) {
				return token{kind: tokOp, text: op, pos: i, end: i + len(op)}, nil
			}
		}
	}
	if strings.IndexByte("()[],.;=<>+-*/%&|^~!:?", c) >= 0 {
		return token{kind: tokOp, text: string(c), pos: i, end: i + 1}, nil
	}
	r, _ := utf8.DecodeRuneInString(sql[i:])
	return token{}, syn.errAt(i, fmt.Sprintf("unexpected character %q", r))
}

// validPlaceholder reports whether name is df, sources.X or nodes.X.
func validPlaceholder(name string) bool {
	if name == "df" {
		return true
	}
	for _, p := range []string{"sources.", "nodes."} {
		if rest, ok := strings.CutPrefix(name, p); ok && rest != "" && !strings.ContainsAny(rest, " \t\n{}") {
			return true
		}
	}
	return false
}

// lexString reads a string literal starting at the quote sql[i], with
// Spark's escapes unless raw (sparklit.Unquote) where the syntax has
// backslash escapes, standard SQL's doubled quotes otherwise.
func lexString(sql string, i int, raw bool, syn *Syntax) (int, string, error) {
	if !syn.BackslashEscapes {
		return lexPlainString(sql, i, syn)
	}
	end, v, ok := sparklit.Unquote(sql, i, raw)
	if !ok {
		q := string(sql[i])
		return 0, "", syn.errAt(i, "unclosed string literal: a "+q+" has no matching "+q)
	}
	return end, v, nil
}

func isHex(s string) bool {
	for i := 0; i < len(s); i++ {
		c := s[i]
		if !isDigit(c) && !(c >= 'a' && c <= 'f') && !(c >= 'A' && c <= 'F') {
			return false
		}
	}
	return true
}

// lexNumber reads a numeric literal: digits, an optional fraction, an
// optional exponent and an optional suffix (L, S, Y, F, D, BD).
func lexNumber(sql string, i int, syn *Syntax) (token, error) {
	j := i
	for j < len(sql) && isDigit(sql[j]) {
		j++
	}
	if j < len(sql) && sql[j] == '.' {
		j++
		for j < len(sql) && isDigit(sql[j]) {
			j++
		}
	}
	if j < len(sql) && (sql[j] == 'e' || sql[j] == 'E') {
		k := j + 1
		if k < len(sql) && (sql[k] == '+' || sql[k] == '-') {
			k++
		}
		if k < len(sql) && isDigit(sql[k]) {
			for k < len(sql) && isDigit(sql[k]) {
				k++
			}
			j = k
		}
	}
	end := j
	rest := strings.ToUpper(sql[j:min(len(sql), j+2)])
	switch {
	case !syn.NumberSuffixes:
	case strings.HasPrefix(rest, "BD"):
		end = j + 2
	case rest != "" && strings.IndexByte("LSYFD", rest[0]) >= 0:
		end = j + 1
	}
	if end < len(sql) && isIdentChar(sql[end]) {
		k := end
		for k < len(sql) && isIdentChar(sql[k]) {
			k++
		}
		return token{}, syn.errAt(i, fmt.Sprintf("%s is neither a number nor a name: quote a name that starts with a digit in backquotes (`%s`)", sql[i:k], sql[i:k]))
	}
	return token{kind: tokNumber, text: sql[i:end], pos: i, end: end}, nil
}

// lexQuotedIdent reads a quoted identifier (`a`, or "a" where the syntax
// says so); a doubled quote stands for itself.
func lexQuotedIdent(sql string, i int, syn *Syntax) (token, error) {
	q := sql[i]
	var b strings.Builder
	j := i + 1
	for {
		if j >= len(sql) {
			return token{}, syn.errAt(i, fmt.Sprintf("unclosed quoted identifier: a %c has no matching %c", q, q))
		}
		if sql[j] == q {
			if j+1 < len(sql) && sql[j+1] == q {
				b.WriteByte(q)
				j += 2
				continue
			}
			break
		}
		b.WriteByte(sql[j])
		j++
	}
	if b.Len() == 0 {
		return token{}, syn.errAt(i, fmt.Sprintf("empty quoted identifier %c%c", q, q))
	}
	return token{kind: tokQuoted, text: sql[i : j+1], val: b.String(), pos: i, end: j + 1}, nil
}

// lexPlainString reads a standard SQL string literal: no escapes, a
// doubled quote stands for itself ('it”s').
func lexPlainString(sql string, i int, syn *Syntax) (int, string, error) {
	q := sql[i]
	var b strings.Builder
	j := i + 1
	for {
		if j >= len(sql) {
			return 0, "", syn.errAt(i, fmt.Sprintf("unclosed string literal: a %c has no matching %c", q, q))
		}
		if sql[j] == q {
			if j+1 < len(sql) && sql[j+1] == q {
				b.WriteByte(q)
				j += 2
				continue
			}
			return j + 1, b.String(), nil
		}
		b.WriteByte(sql[j])
		j++
	}
}
